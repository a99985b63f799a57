//! One class per native kernel id of `algorithms.toml` besides `cios`: `Amm`, `Spectral` and
//! `NttRedc`. Each runs exactly its kernel (no size dispatch), so that `Modulus(n).pow(b, e,
//! algo)` and the tests name what ran; `trace` returns a product's intermediate values for the
//! naive models of `montlab.ref`. The rules of `lib.rs` apply (Python ints, `0 <= x < N`,
//! errors through `error.rs`).

use std::sync::Arc;

use montlab_core::limb::Limb;
use montlab_core::mont::amm::{self, IfmaParams};
use montlab_core::pow::{window, MontKernel};
use montlab_core::spectral::{NttRedcParams, SpectralParams, MAX_TRANSFORM_LEN};
use montlab_core::{MontError, OddModulus};
use num_bigint::BigUint;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::Error;
use crate::{exponent_limbs, interrupt, modulus_limbs, operand_limbs, pow_products, setup_work};
use crate::{to_int, Int};

/// A kernel's precomputation, off the GIL and interruptible when long.
fn build<K: Send + 'static>(
    py: Python<'_>,
    n: &Int,
    make: impl FnOnce(OddModulus) -> Result<K, MontError> + Send + 'static,
) -> Result<K, Error> {
    let modulus = OddModulus::new(&modulus_limbs(n)?)?;
    let work = setup_work(modulus.limbs());
    interrupt::run(py, work, move |_| make(modulus))
}

/// P limbs plus bit l when `top` (a value in [0, 2^l] flagged as 2^l has zero limbs).
fn with_top(limbs: &[Limb], top: bool, l: u64) -> BigUint {
    let v = to_int(limbs);
    if top {
        v + (BigUint::from(1u8) << l)
    } else {
        v
    }
}

/// What the classes' `pow` needs from a kernel beyond [`MontKernel`].
trait Checked: MontKernel + Send + Sync + 'static {
    fn modulus_limbs(&self) -> usize;
    fn checked(&self, x: &[Limb], which: &'static str) -> Result<Vec<Limb>, MontError>;
}

macro_rules! checked {
    ($($t:ty),*) => {$(
        impl Checked for $t {
            fn modulus_limbs(&self) -> usize {
                self.modulus().len()
            }
            fn checked(&self, x: &[Limb], which: &'static str) -> Result<Vec<Limb>, MontError> {
                self.operand(x, which)
            }
        }
    )*};
}
checked!(IfmaParams, SpectralParams, NttRedcParams);

/// base ** exp mod N by sliding windows over `kernel`, off the GIL and interruptible.
fn pow_on<K: Checked>(
    py: Python<'_>,
    kernel: &Arc<K>,
    base: &Int,
    exp: &Int,
) -> Result<BigUint, Error> {
    let (b, e) = (operand_limbs(base, "base")?, exponent_limbs(exp)?);
    let b = kernel.checked(&b, "base")?;
    let work = interrupt::work(kernel.modulus_limbs(), pow_products(&e));
    let kernel = Arc::clone(kernel);
    Ok(to_int(&interrupt::run(py, work, move |stop| {
        window::pow_vartime_until(&*kernel, &b, &e, stop)
    })?))
}

/// `amm`: almost Montgomery multiplication in radix 2^52 on AVX-512 IFMA (`mont/amm.rs`),
/// R = 2^(52 k), k = ceil((bits + 2) / 52). Lazy: inputs and outputs of `mul` lie in [0, 2N).
#[pyclass(frozen, module = "montlab._native", name = "Amm")]
pub struct Amm {
    params: Arc<IfmaParams>,
}

#[pymethods]
impl Amm {
    #[new]
    fn new(py: Python<'_>, n: Int) -> Result<Self, Error> {
        if !amm::available() {
            return Err(MontError::KernelNotOnCpu {
                kernel: "amm",
                needs: "AVX-512 IFMA",
            }
            .into());
        }
        let params = build(py, &n, |m| {
            IfmaParams::new(&m).ok_or(MontError::KernelRefusesModulus {
                kernel: "amm",
                reason: "it has more than 52830 bits (1016 digits of 52 bits)",
            })
        })?;
        Ok(Self {
            params: Arc::new(params),
        })
    }

    /// The modulus N.
    #[getter]
    fn modulus(&self) -> BigUint {
        to_int(self.params.modulus())
    }

    /// The Montgomery constant R = 2^(52 k).
    #[getter]
    fn r(&self) -> BigUint {
        BigUint::from(1u8) << (52 * self.params.digits())
    }

    /// Digit count k.
    #[getter]
    fn digits(&self) -> usize {
        self.params.digits()
    }

    /// -N^-1 mod 2^52.
    #[getter]
    fn n0_inv(&self) -> u64 {
        self.params.n0_inv()
    }

    /// The AMM x * y * R^-1 mod N up to one N: in [0, 2N), for 0 <= x, y < 2N.
    fn mul(&self, x: Int, y: Int) -> Result<BigUint, Error> {
        let p = &self.params;
        let a = p.lazy_operand(&operand_limbs(&x, "x")?, "x")?;
        let b = p.lazy_operand(&operand_limbs(&y, "y")?, "y")?;
        let mut out = a.clone();
        p.amm(&a, &b, &mut out);
        Ok(to_int(&p.value(&out)))
    }

    /// base ** exp mod N, fully reduced, for 0 <= base < N and exp >= 0 (variable time).
    fn pow(&self, py: Python<'_>, base: Int, exp: Int) -> Result<BigUint, Error> {
        pow_on(py, &self.params, &base, &exp)
    }

    fn __repr__(&self) -> String {
        format!("Amm(<{}-digit modulus>)", self.params.digits())
    }
}

/// A product's trace as a dict: the model's names, values as ints, residues as flat lists.
fn trace_dict<'py>(
    py: Python<'py>,
    items: &[(&str, &[u64])],
    values: &[(&str, BigUint)],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in items {
        d.set_item(k, *v)?;
    }
    for (k, v) in values {
        d.set_item(k, v)?;
    }
    Ok(d)
}

/// `spectral`: McLaughlin's Montgomery multiplication with R = 2^l + 1 (l = 64 P) and
/// three-prime NTT products (`spectral/kernel.rs`); inputs and outputs in [0, N).
#[pyclass(frozen, module = "montlab._native", name = "Spectral")]
pub struct Spectral {
    params: Arc<SpectralParams>,
}

#[pymethods]
impl Spectral {
    /// `transform_len`: P (a power of two, 2 <= P <= 2^16, 64 P >= bitlen(N)); default the
    /// least such P.
    #[new]
    #[pyo3(signature = (n, transform_len = None))]
    fn new(py: Python<'_>, n: Int, transform_len: Option<usize>) -> Result<Self, Error> {
        let params = build(py, &n, move |m| {
            let fits = |p: usize| p.is_power_of_two() && (2..=MAX_TRANSFORM_LEN).contains(&p);
            if m.limbs() > MAX_TRANSFORM_LEN {
                return Err(MontError::KernelRefusesModulus {
                    kernel: "spectral",
                    reason: "it is wider than 2^22 bits, the longest transform",
                });
            }
            if transform_len.is_some_and(|p| !fits(p) || p < m.limbs()) {
                return Err(MontError::KernelRefusesModulus {
                    kernel: "spectral",
                    reason: "transform_len must be a power of two from 2 to 65536 with 64 transform_len >= bitlen(N)",
                });
            }
            let made = match transform_len {
                Some(p) => SpectralParams::with_len(&m, p),
                None => SpectralParams::new(&m),
            };
            made.ok_or(MontError::KernelRefusesModulus {
                kernel: "spectral",
                reason: "it shares a factor with R = 2^l + 1",
            })
        })?;
        Ok(Self {
            params: Arc::new(params),
        })
    }

    /// The modulus N.
    #[getter]
    fn modulus(&self) -> BigUint {
        to_int(self.params.modulus())
    }

    /// Transform length P.
    #[getter]
    fn transform_len(&self) -> usize {
        self.params.transform_len()
    }

    /// The Montgomery constant R = 2^(64 P) + 1.
    #[getter]
    fn r(&self) -> BigUint {
        (BigUint::from(1u8) << self.params.l_bits()) + 1u8
    }

    /// The Montgomery product x * y * R^-1 mod N, for 0 <= x, y < N (off the GIL).
    fn mul(&self, py: Python<'_>, x: Int, y: Int) -> Result<BigUint, Error> {
        let (x, y) = (operand_limbs(&x, "x")?, operand_limbs(&y, "y")?);
        let work = interrupt::work(self.params.modulus().len(), 1);
        let params = Arc::clone(&self.params);
        Ok(to_int(&interrupt::run(py, work, move |_| {
            params.mont_mul(&x, &y)
        })?))
    }

    /// `mul` with its intermediate values: `h_residues`, `m_residues`, `S_residues` (3 P
    /// values, prime by prime, of the convolutions' coefficients mod q) and `h`, `m`, `S`, `t`,
    /// `result`.
    fn trace<'py>(&self, py: Python<'py>, x: Int, y: Int) -> Result<Bound<'py, PyDict>, Error> {
        let (x, y) = (operand_limbs(&x, "x")?, operand_limbs(&y, "y")?);
        let (out, tr) = self.params.mont_mul_traced(&x, &y)?;
        let l = self.params.l_bits();
        Ok(trace_dict(
            py,
            &[
                ("h_residues", &tr.h_residues),
                ("m_residues", &tr.m_residues),
                ("S_residues", &tr.s_residues),
            ],
            &[
                ("h", with_top(&tr.h.0, tr.h.1, l)),
                ("m", with_top(&tr.m.0, tr.m.1, l)),
                ("S", to_int(&tr.s)),
                ("t", with_top(&tr.t.0, tr.t.1, l)),
                ("result", to_int(&out)),
            ],
        )?)
    }

    /// base ** exp mod N, fully reduced, for 0 <= base < N and exp >= 0 (variable time).
    fn pow(&self, py: Python<'_>, base: Int, exp: Int) -> Result<BigUint, Error> {
        pow_on(py, &self.params, &base, &exp)
    }

    fn __repr__(&self) -> String {
        format!(
            "Spectral(<{}-limb modulus>, transform_len={})",
            self.params.modulus().len(),
            self.params.transform_len()
        )
    }
}

/// `ntt_redc`: Montgomery's REDC with R = 2^l (l = 64 P) and three-prime NTT products
/// (`spectral/ntt_redc.rs`); inputs and outputs in [0, N).
#[pyclass(frozen, module = "montlab._native", name = "NttRedc")]
pub struct NttRedc {
    params: Arc<NttRedcParams>,
}

#[pymethods]
impl NttRedc {
    #[new]
    fn new(py: Python<'_>, n: Int) -> Result<Self, Error> {
        let params = build(py, &n, |m| {
            NttRedcParams::new(&m).ok_or(MontError::KernelRefusesModulus {
                kernel: "ntt_redc",
                reason: "it is wider than 2^25 bits, the longest transform",
            })
        })?;
        Ok(Self {
            params: Arc::new(params),
        })
    }

    /// The modulus N.
    #[getter]
    fn modulus(&self) -> BigUint {
        to_int(self.params.modulus())
    }

    /// Transform length P.
    #[getter]
    fn transform_len(&self) -> usize {
        self.params.transform_len()
    }

    /// The Montgomery constant R = 2^(64 P).
    #[getter]
    fn r(&self) -> BigUint {
        BigUint::from(1u8) << self.params.l_bits()
    }

    /// The Montgomery product x * y * R^-1 mod N, for 0 <= x, y < N (off the GIL).
    fn mul(&self, py: Python<'_>, x: Int, y: Int) -> Result<BigUint, Error> {
        let (x, y) = (operand_limbs(&x, "x")?, operand_limbs(&y, "y")?);
        let work = interrupt::work(self.params.modulus().len(), 1);
        let params = Arc::clone(&self.params);
        Ok(to_int(&interrupt::run(py, work, move |_| {
            params.mont_mul(&x, &y)
        })?))
    }

    /// `mul` with its intermediate values: `T_cyc_residues`, `T_nega_residues` (3 P values,
    /// prime by prime) and `T_lo`, `T_hi`, `m`, `U`, `H`, `t`, `result`.
    fn trace<'py>(&self, py: Python<'py>, x: Int, y: Int) -> Result<Bound<'py, PyDict>, Error> {
        let (x, y) = (operand_limbs(&x, "x")?, operand_limbs(&y, "y")?);
        let (out, tr) = self.params.mont_mul_traced(&x, &y)?;
        let l = self.params.l_bits();
        Ok(trace_dict(
            py,
            &[
                ("T_cyc_residues", &tr.t_cyc_residues),
                ("T_nega_residues", &tr.t_nega_residues),
            ],
            &[
                ("T_lo", to_int(&tr.t_lo)),
                ("T_hi", to_int(&tr.t_hi)),
                ("m", to_int(&tr.m)),
                ("U", to_int(&tr.u)),
                ("H", to_int(&tr.h)),
                ("t", with_top(&tr.t.0, tr.t.1, l)),
                ("result", to_int(&out)),
            ],
        )?)
    }

    /// base ** exp mod N, fully reduced, for 0 <= base < N and exp >= 0 (variable time).
    fn pow(&self, py: Python<'_>, base: Int, exp: Int) -> Result<BigUint, Error> {
        pow_on(py, &self.params, &base, &exp)
    }

    fn __repr__(&self) -> String {
        format!(
            "NttRedc(<{}-limb modulus>, transform_len={})",
            self.params.modulus().len(),
            self.params.transform_len()
        )
    }
}
