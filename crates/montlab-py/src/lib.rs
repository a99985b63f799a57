//! `montlab._native`: the PyO3 binding of montlab-core.
//!
//! A thin layer (pyca's split): it converts Python ints to little-endian `u64` limbs and back,
//! rejects what the unsigned core cannot see (negative values), calls the core, and maps every
//! `MontError` through `error.rs`. It holds no arithmetic of its own.
//!
//! Rules shared by every entry point: arguments are Python ints (anything with `__index__`;
//! other types raise `TypeError`), the modulus is odd and > 1 (else `ModulusError`), operands
//! satisfy `0 <= x < N` and exponents are `>= 0` (else `OperandError` naming the argument).
//! Validation happens before any arithmetic, so no user input reaches a panic; a panic would
//! still arrive in Python as `pyo3_runtime.PanicException`, never as an abort.

mod error;

use montlab_core::mont::cios;
use montlab_core::pow::window;
use montlab_core::{MontError, MontParams, OddModulus};
use num_bigint::{BigInt, BigUint, Sign};
use pyo3::prelude::*;

use crate::error::Error;

/// Limbs of a modulus; anything <= 1 (negative included) is "too small".
fn modulus_limbs(n: &BigInt) -> Result<Vec<u64>, Error> {
    match n.sign() {
        Sign::Plus => Ok(n.magnitude().to_u64_digits()),
        Sign::Minus | Sign::NoSign => Err(MontError::ModulusTooSmall.into()),
    }
}

/// Limbs of an operand; the upper bound `< N` is the core's check.
fn operand_limbs(x: &BigInt, which: &'static str) -> Result<Vec<u64>, Error> {
    match x.sign() {
        Sign::Minus => Err(MontError::NegativeOperand { which }.into()),
        Sign::Plus | Sign::NoSign => Ok(x.magnitude().to_u64_digits()),
    }
}

/// Limbs of an exponent, which has no upper bound.
fn exponent_limbs(e: &BigInt) -> Result<Vec<u64>, Error> {
    match e.sign() {
        Sign::Minus => Err(MontError::NegativeExponent.into()),
        Sign::Plus | Sign::NoSign => Ok(e.magnitude().to_u64_digits()),
    }
}

/// A Python int from little-endian `u64` limbs (leading zero limbs allowed).
fn to_int(limbs: &[u64]) -> BigUint {
    BigUint::new(
        limbs
            .iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32])
            .collect(),
    )
}

/// CIOS Montgomery arithmetic modulo one odd N > 1, word size 64, R = 2^(64 * limbs).
///
/// The constants are precomputed once in the constructor. Every method takes and returns
/// non-negative Python ints; results are fully reduced, 0 <= result < N.
#[pyclass(frozen, module = "montlab._native", name = "Cios")]
pub struct Cios {
    params: MontParams,
}

#[pymethods]
impl Cios {
    #[new]
    fn new(py: Python<'_>, n: BigInt) -> Result<Self, Error> {
        let modulus = OddModulus::new(&modulus_limbs(&n)?)?;
        // Precomputation is O(s^2) limb operations: let other threads run meanwhile.
        let params = py.detach(|| MontParams::new(modulus));
        Ok(Self { params })
    }

    /// The modulus N.
    #[getter]
    fn modulus(&self) -> BigUint {
        to_int(self.params.modulus())
    }

    /// The Montgomery constant R = 2^(64 * limbs).
    #[getter]
    fn r(&self) -> BigUint {
        BigUint::from(1u8) << (64 * self.params.s())
    }

    /// R^2 mod N (multiplying by it with `mul` converts into Montgomery form).
    #[getter]
    fn r2(&self) -> BigUint {
        to_int(self.params.r2_mod_n())
    }

    /// Number of 64-bit limbs s of N.
    #[getter]
    fn limbs(&self) -> usize {
        self.params.s()
    }

    /// -N^-1 mod 2^64.
    #[getter]
    fn n0_inv(&self) -> u64 {
        self.params.n0_inv()
    }

    /// The Montgomery product x * y * R^-1 mod N, for 0 <= x, y < N.
    fn mul(&self, x: BigInt, y: BigInt) -> Result<BigUint, Error> {
        let (x, y) = (operand_limbs(&x, "x")?, operand_limbs(&y, "y")?);
        Ok(to_int(&cios::mont_mul(&self.params, &x, &y)?))
    }

    /// x * R mod N, for 0 <= x < N.
    fn to_mont(&self, x: BigInt) -> Result<BigUint, Error> {
        Ok(to_int(&cios::to_mont(
            &self.params,
            &operand_limbs(&x, "x")?,
        )?))
    }

    /// x * R^-1 mod N, for 0 <= x < N.
    #[allow(
        clippy::wrong_self_convention,
        reason = "the Python method name pairs with to_mont"
    )]
    fn from_mont(&self, x: BigInt) -> Result<BigUint, Error> {
        Ok(to_int(&cios::from_mont(
            &self.params,
            &operand_limbs(&x, "x")?,
        )?))
    }

    /// base ** exp mod N (ordinary domain in and out), for 0 <= base < N and exp >= 0.
    ///
    /// Sliding-window exponentiation: variable time in the exponent.
    fn pow(&self, py: Python<'_>, base: BigInt, exp: BigInt) -> Result<BigUint, Error> {
        let (b, e) = (operand_limbs(&base, "base")?, exponent_limbs(&exp)?);
        let out = py.detach(|| window::pow_vartime(&self.params, &b, &e))?;
        Ok(to_int(&out))
    }

    fn __repr__(&self) -> String {
        format!(
            "Cios(<{}-bit modulus>, limbs={})",
            self.params.bits(),
            self.params.s()
        )
    }
}

/// base ** exp mod modulus, for odd modulus > 1, 0 <= base < modulus and exp >= 0.
///
/// Precomputes the CIOS constants for the modulus, then runs `Cios.pow`.
#[pyfunction]
fn powm(py: Python<'_>, base: BigInt, exp: BigInt, modulus: BigInt) -> Result<BigUint, Error> {
    let modulus = OddModulus::new(&modulus_limbs(&modulus)?)?;
    let (b, e) = (operand_limbs(&base, "base")?, exponent_limbs(&exp)?);
    let out = py.detach(|| window::pow_vartime(&MontParams::new(modulus), &b, &e))?;
    Ok(to_int(&out))
}

/// Native montlab engines (Rust), one class per algorithm id of montlab/algorithms.toml.
#[pymodule(name = "_native")]
mod native {
    use pyo3::prelude::*;
    use pyo3::types::PyTuple;

    #[pymodule_export]
    use super::{powm, Cios};

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        // Import the exception module now, so a broken install fails at import time rather
        // than when the first error is raised.
        m.py().import("montlab.errors")?;
        m.add(
            "ALGORITHMS",
            PyTuple::new(m.py(), montlab_core::NATIVE_ALGORITHMS)?,
        )?;
        Ok(())
    }
}
