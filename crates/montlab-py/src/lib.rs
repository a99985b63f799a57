//! `montlab._native`: the PyO3 binding of montlab-core.
//!
//! A thin layer (pyca's split): it converts Python ints to little-endian `u64` limbs and back,
//! rejects what the unsigned core cannot see (negative values), calls the core, and maps every
//! `MontError` through `error.rs`. It holds no arithmetic of its own.
//!
//! Rules shared by every entry point: arguments are Python ints (anything with `__index__`,
//! never bool; bool, bytes, str, float and the rest raise `OperandTypeError`, a `TypeError`,
//! and a list argument must be a sequence of such ints, not bytes or str), the modulus is odd
//! and > 1 (else `ModulusError`), operands satisfy `0 <= x < N` and exponents are `>= 0` (else
//! `OperandError` naming the argument).
//! Validation happens before any arithmetic, so no user input reaches a panic; a panic would
//! still arrive in Python as `pyo3_runtime.PanicException`, never as an abort.

mod convert;
mod crt;
#[cfg(all(not(Py_LIMITED_API), not(Py_3_12)))]
mod digits;
mod error;
mod interrupt;
mod kernels;
mod residue;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use montlab_core::mont::cios;
use montlab_core::pow::window;
use montlab_core::{Cut, FastModulus as CoreFast, MontError, MontParams, OddModulus, Thresholds};
use num_bigint::{BigInt, BigUint, Sign};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyList, PyString, PyTuple};

use crate::error::{Error, OperandTypeError};

/// An integer argument: an int or an object with `__index__` (gmpy2, numpy), never bool.
pub(crate) struct Int(BigInt);

impl std::ops::Deref for Int {
    type Target = BigInt;
    fn deref(&self) -> &BigInt {
        &self.0
    }
}

pub(crate) fn type_name(ob: &Bound<'_, PyAny>) -> String {
    ob.get_type()
        .name()
        .map_or_else(|_| "object".to_owned(), |n| n.to_string())
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let ob = ob.to_owned();
        if ob.is_instance_of::<PyBool>() {
            return Err(OperandTypeError::new_err("expected an integer, got bool"));
        }
        // BigInt takes ints and __index__ objects and refuses str, bytes, float and the rest.
        ob.extract::<BigInt>().map(Int).map_err(|_| {
            OperandTypeError::new_err(format!("expected an integer, got {}", type_name(&ob)))
        })
    }
}

/// A list argument: a sequence of [`Int`], never bytes, bytearray or str.
pub(crate) struct IntList(Vec<BigInt>);

impl std::ops::Deref for IntList {
    type Target = Vec<BigInt>;
    fn deref(&self) -> &Vec<BigInt> {
        &self.0
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for IntList {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let ob = ob.to_owned();
        if ob.is_instance_of::<PyBytes>()
            || ob.is_instance_of::<PyByteArray>()
            || ob.is_instance_of::<PyString>()
        {
            return Err(OperandTypeError::new_err(format!(
                "expected a sequence of integers, got {}",
                type_name(&ob)
            )));
        }
        let items: Vec<Int> = ob.extract().map_err(|e: PyErr| {
            if e.is_instance_of::<OperandTypeError>(ob.py()) {
                e
            } else {
                OperandTypeError::new_err(format!(
                    "expected a sequence of integers, got {}",
                    type_name(&ob)
                ))
            }
        })?;
        Ok(IntList(items.into_iter().map(|i| i.0).collect()))
    }
}

/// Limbs of a modulus; anything <= 1 (negative included) is "too small".
pub(crate) fn modulus_limbs(n: &BigInt) -> Result<Vec<u64>, Error> {
    match n.sign() {
        Sign::Plus => Ok(n.magnitude().to_u64_digits()),
        Sign::Minus | Sign::NoSign => Err(MontError::ModulusTooSmall.into()),
    }
}

/// Limbs of an operand; the upper bound `< N` is the core's check.
pub(crate) fn operand_limbs(x: &BigInt, which: &'static str) -> Result<Vec<u64>, Error> {
    match x.sign() {
        Sign::Minus => Err(MontError::NegativeOperand { which }.into()),
        Sign::Plus | Sign::NoSign => Ok(x.magnitude().to_u64_digits()),
    }
}

/// Limbs of an exponent, which has no upper bound.
pub(crate) fn exponent_limbs(e: &BigInt) -> Result<Vec<u64>, Error> {
    match e.sign() {
        Sign::Minus => Err(MontError::NegativeExponent.into()),
        Sign::Plus | Sign::NoSign => Ok(e.magnitude().to_u64_digits()),
    }
}

/// The threshold table new `FastModulus` objects and `powm` dispatch with (process-wide).
static THRESHOLDS: RwLock<Option<Thresholds>> = RwLock::new(None);

fn current_thresholds() -> Thresholds {
    let guard = THRESHOLDS
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    guard.unwrap_or_else(Thresholds::generic)
}

/// A threshold as Python sees it: an int (one cut-over), or the list of a [`Cut`]'s switch
/// points.
#[derive(IntoPyObject)]
enum CutValue {
    One(u64),
    Points(Vec<u64>),
}

impl From<Cut> for CutValue {
    fn from(c: Cut) -> Self {
        match c.points() {
            [one] => Self::One(*one),
            many => Self::Points(many.to_vec()),
        }
    }
}

fn thresholds_dict(t: Thresholds) -> BTreeMap<&'static str, CutValue> {
    BTreeMap::from([
        ("spectral_mul_bits", t.spectral_mul_bits.into()),
        ("spectral_pow_bits", t.spectral_pow_bits.into()),
        ("ntt_redc_pow_bits", CutValue::One(t.ntt_redc_pow_bits)),
        ("spectral_sec_bits", t.spectral_sec_bits.into()),
        ("ifma_mul_bits", CutValue::One(t.ifma_mul_bits)),
        ("ifma_residue_bits", CutValue::One(t.ifma_residue_bits)),
    ])
}

/// Products of an exponentiation by `e` (limbs), estimated for the choice inline or worker:
/// the sliding window's squarings, its table of 2^(k-1) odd powers and about one product per
/// k + 1 bits ([`window::window_bits`]), plus the two conversions.
pub(crate) fn pow_products(e: &[u64]) -> u128 {
    pow_products_bits(64 * e.len() as u64)
}

/// [`pow_products`] for an exponent of `bits` bits.
fn pow_products_bits(bits: u64) -> u128 {
    let k = window::window_bits(bits);
    u128::from(bits + (1 << (k - 1)) + bits / u64::from(k + 1) + 2)
}

/// Products' worth of the setup a one-shot exponentiation by `e` builds on its first call: up
/// to [`montlab_core::engine::SHORT_POW_BITS`] exponent bits the word level's division or
/// `ntt_redc`'s inverse, division and transforms (32), beyond them the spectral setup's
/// modular inverse (about `limbs`).
pub(crate) fn pow_setup_products(limbs: usize, e: &[u64]) -> u128 {
    if 64 * e.len() as u64 <= montlab_core::engine::SHORT_POW_BITS {
        32
    } else {
        limbs as u128
    }
}

/// Estimated work of a per-modulus setup on `limbs` limbs: about `limbs` products.
pub(crate) fn setup_work(limbs: usize) -> u128 {
    interrupt::work(limbs, limbs as u128)
}

/// A Python int from little-endian `u64` limbs (leading zero limbs allowed).
pub(crate) fn to_int(limbs: &[u64]) -> BigUint {
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
    params: Arc<MontParams>,
}

#[pymethods]
impl Cios {
    #[new]
    fn new(py: Python<'_>, n: Int) -> Result<Self, Error> {
        let modulus = OddModulus::new(&modulus_limbs(&n)?)?;
        // Precomputation (two divisions, built here rather than on first use): off the GIL,
        // and interruptible when long.
        let work = setup_work(modulus.limbs());
        let params = interrupt::run(py, work, move |_| {
            let p = MontParams::new(modulus);
            let _ = (p.r_mod_n(), p.r2_mod_n());
            Ok(p)
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
    fn mul(&self, x: Int, y: Int) -> Result<BigUint, Error> {
        let (x, y) = (operand_limbs(&x, "x")?, operand_limbs(&y, "y")?);
        Ok(to_int(&cios::mont_mul(&self.params, &x, &y)?))
    }

    /// x * R mod N, for 0 <= x < N.
    fn to_mont(&self, x: Int) -> Result<BigUint, Error> {
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
    fn from_mont(&self, x: Int) -> Result<BigUint, Error> {
        Ok(to_int(&cios::from_mont(
            &self.params,
            &operand_limbs(&x, "x")?,
        )?))
    }

    /// base ** exp mod N (ordinary domain in and out), for 0 <= base < N and exp >= 0.
    ///
    /// Sliding-window exponentiation: variable time in the exponent.
    fn pow(&self, py: Python<'_>, base: Int, exp: Int) -> Result<BigUint, Error> {
        let (b, e) = (operand_limbs(&base, "base")?, exponent_limbs(&exp)?);
        let work = interrupt::work(self.params.s(), pow_products(&e));
        let params = Arc::clone(&self.params);
        let out = interrupt::run(py, work, move |stop| {
            let b = params.operand(&b, "base")?;
            window::pow_vartime_until(&*params, &b, &e, stop)
        })?;
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

/// Limbs of every entry of a batch list (negative entries rejected by name).
fn batch_limbs(v: &[BigInt], which: &'static str) -> Result<Vec<Vec<u64>>, Error> {
    v.iter().map(|x| operand_limbs(x, which)).collect()
}

/// One exponent for every base, or one per base.
enum Exponents {
    One(Int),
    Many(IntList),
}

impl Exponents {
    /// The exponents' limbs, one entry per base (`count` of them): one exponent for all is
    /// shared, not copied per base.
    fn limbs(self, count: usize) -> Result<Vec<Arc<[u64]>>, Error> {
        match self {
            Exponents::One(e) => Ok(vec![Arc::from(exponent_limbs(&e)?); count]),
            Exponents::Many(es) => es
                .iter()
                .map(|e| exponent_limbs(e).map(Arc::from))
                .collect(),
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Exponents {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let one = match ob.extract::<Int>() {
            Ok(e) => return Ok(Exponents::One(e)),
            Err(e) => e,
        };
        let many = ob.extract::<IntList>();
        match many {
            Ok(es) => Ok(Exponents::Many(es)),
            Err(e) if ob.is_instance_of::<PyList>() || ob.is_instance_of::<PyTuple>() => Err(e),
            Err(_) => Err(one),
        }
    }
}

/// Fast modular arithmetic modulo one odd N > 1: each operation runs on the kernel the
/// threshold table picks for N's size (word-level `cios`, or `amm` on IFMA; `spectral` over
/// NTTs; for short exponents `ntt_redc`, Montgomery with R = 2^l and a cheap setup).
///
/// Every method takes and returns ordinary (not Montgomery) non-negative ints; operands must be
/// below N (never reduced silently) and results are fully reduced.
#[pyclass(frozen, module = "montlab._native", name = "FastModulus")]
pub struct FastModulus {
    inner: Arc<CoreFast>,
}

/// An operand argument after its type check (an int, or an `__index__` object, never bool),
/// which every argument of a call passes before any range check: a wrong type is reported
/// first, whatever the other arguments hold.
enum Operand<'py> {
    Int(Bound<'py, PyInt>),
    Index(BigInt),
}

fn operand_arg<'py>(ob: &Bound<'py, PyAny>) -> Result<Operand<'py>, Error> {
    if !ob.is_instance_of::<PyBool>() {
        if let Ok(i) = ob.cast::<PyInt>() {
            return Ok(Operand::Int(i.clone()));
        }
    }
    Ok(Operand::Index(ob.extract::<Int>()?.0))
}

/// A type-checked operand as `s` limbs: [`operand_in`] on a buffer of its own.
fn operand_of(op: &Operand<'_>, s: usize, which: &'static str) -> Result<Vec<u64>, Error> {
    let mut buf = vec![0; s];
    let owned = match operand_in(op, &mut buf, which)? {
        Cow::Borrowed(_) => None,
        Cow::Owned(v) => Some(v),
    };
    Ok(owned.unwrap_or(buf))
}

/// A type-checked operand as `s = buf.len()` limbs: an int in [0, 2^(64 s)) by CPython's
/// direct copy into `buf` ([`convert::fixed_limbs_into`], so a small call allocates nothing
/// for it), anything else through [`operand_limbs`] (negative values are refused there). The
/// bound `< N` is the core's check.
fn operand_in<'b>(
    op: &Operand<'_>,
    buf: &'b mut [u64],
    which: &'static str,
) -> Result<Cow<'b, [u64]>, Error> {
    match op {
        Operand::Int(i) if convert::fixed_limbs_into(i, buf) => Ok(Cow::Borrowed(buf)),
        Operand::Int(i) => Ok(Cow::Owned(operand_limbs(&i.extract::<BigInt>()?, which)?)),
        Operand::Index(v) => Ok(Cow::Owned(operand_limbs(v, which)?)),
    }
}

/// Operands of up to this many limbs (4096 bits) of a `mul` or `sqr` call small enough to run
/// inline (`interrupt::QUICK_WORK`) are copied into stack buffers.
const STACK_LIMBS: usize = 64;

/// One operand argument: [`operand_arg`] then [`operand_of`].
fn fast_operand(ob: &Bound<'_, PyAny>, s: usize, which: &'static str) -> Result<Vec<u64>, Error> {
    operand_of(&operand_arg(ob)?, s, which)
}

#[pymethods]
impl FastModulus {
    #[new]
    fn new(n: Int) -> Result<Self, Error> {
        let (n, t) = (modulus_limbs(&n)?, current_thresholds());
        // Only N's checks: each kernel's setup is built on its first use, inside that call.
        let inner = interrupt::inline(|| CoreFast::with_thresholds(&n, t))?;
        Ok(Self {
            inner: Arc::new(inner),
        })
    }

    /// The modulus N.
    #[getter]
    fn modulus(&self) -> BigUint {
        to_int(self.inner.modulus())
    }

    /// Bit length of N.
    #[getter]
    fn bits(&self) -> u64 {
        self.inner.bits()
    }

    /// Kernel of `mul`, `sqr` and `mul_many`: "amm", "cios", "spectral" or "ntt_redc" (the
    /// registry ids).
    #[getter]
    fn mul_kernel(&self, py: Python<'_>) -> &'static str {
        py.detach(|| self.inner.mul_kernel_id())
    }

    /// How `mul`, `sqr` and `mul_many` on ints reduce: "barrett" (the word level without IFMA:
    /// one product on the kernel's rows, then a Barrett reduction) or "montgomery" (a Montgomery
    /// product, then one with R^2 mod N).
    #[getter]
    fn mul_reduction(&self, py: Python<'_>) -> &'static str {
        py.detach(|| self.inner.mul_reduction())
    }

    /// Kernel of `pow_sec` (constant time): "amm" (AVX-512 IFMA, 513 to 52830 bits), "cios", or
    /// "spectral" where the table's `spectral_sec_bits` is on (where N has a spectral kernel).
    /// A query: builds nothing.
    #[getter]
    fn pow_sec_kernel(&self, py: Python<'_>) -> &'static str {
        py.detach(|| self.inner.pow_sec_kernel_id())
    }

    /// Whether `pow_sec` and `pow_sec_many` blind their operands (False by default): every
    /// table entry and the starting accumulator carry a random factor, removed at the end, so
    /// no product's operands stay at values the exponent sets. Same results; a fresh factor
    /// pair (on the first blinded call per exponent length, then every 256 calls) costs one
    /// more exponentiation.
    #[getter]
    fn get_blinding(&self) -> bool {
        self.inner.blinding()
    }

    #[setter]
    fn set_blinding(&self, on: bool) {
        self.inner.set_blinding(on);
    }

    /// Kernel of `pow` and `pow_many` for long exponents: "amm", "cios", "spectral", or
    /// "ntt_redc" (a modulus without a spectral kernel). Builds the spectral setup, after which
    /// short exponents run on it too.
    #[getter]
    fn pow_kernel(&self, py: Python<'_>) -> &'static str {
        py.detach(|| self.inner.pow_kernel_id())
    }

    /// Kernel the next `pow(x, exp)` runs on: "amm", "cios", "spectral", or "ntt_redc" (a short
    /// exponent at a spectral size while the spectral setup is not built). A query: builds
    /// nothing.
    fn pow_kernel_for(&self, py: Python<'_>, exp: Int) -> Result<&'static str, Error> {
        let e = exponent_limbs(&exp)?;
        let bits = e
            .last()
            .map_or(0, |l| e.len() as u64 * 64 - u64::from(l.leading_zeros()));
        Ok(py.detach(|| self.inner.pow_kernel_id_for(bits)))
    }

    /// The threshold table this modulus dispatches with.
    #[getter]
    fn thresholds(&self) -> BTreeMap<&'static str, CutValue> {
        thresholds_dict(self.inner.thresholds())
    }

    /// Transform length P of the spectral kernel (R = 2^(64 P) + 1), or None without one.
    /// Builds the spectral setup, after which short exponents run on it too.
    #[getter]
    fn transform_len(&self, py: Python<'_>) -> Option<usize> {
        py.detach(|| self.inner.spectral().map(|s| s.transform_len()))
    }

    /// x * y mod N, for 0 <= x, y < N: two Montgomery products (x y R^-1, then by R^2).
    fn mul<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
        y: &Bound<'py, PyAny>,
    ) -> Result<Bound<'py, PyInt>, Error> {
        let s = self.inner.modulus().len();
        let (x, y) = (operand_arg(x)?, operand_arg(y)?);
        let m = &self.inner;
        let work = interrupt::work(s, 2);
        if s <= STACK_LIMBS && work < interrupt::QUICK_WORK {
            let (mut xb, mut yb) = ([0; STACK_LIMBS], [0; STACK_LIMBS]);
            let (x, y) = (
                operand_in(&x, &mut xb[..s], "x")?,
                operand_in(&y, &mut yb[..s], "y")?,
            );
            let out = interrupt::inline(|| m.mul(&x, &y))?;
            return Ok(convert::int_of(py, &out)?);
        }
        let (x, y) = (&operand_of(&x, s, "x")?, &operand_of(&y, s, "y")?);
        let out = interrupt::eval!(py, work, (m, x, y), |_stop| m.mul(x, y))?;
        Ok(convert::int_of(py, &out)?)
    }

    /// x * x mod N, for 0 <= x < N.
    fn sqr<'py>(&self, py: Python<'py>, x: &Bound<'py, PyAny>) -> Result<Bound<'py, PyInt>, Error> {
        let s = self.inner.modulus().len();
        let x = operand_arg(x)?;
        let m = &self.inner;
        let work = interrupt::work(s, 2);
        if s <= STACK_LIMBS && work < interrupt::QUICK_WORK {
            let mut xb = [0; STACK_LIMBS];
            let x = operand_in(&x, &mut xb[..s], "x")?;
            let out = interrupt::inline(|| m.sqr(&x))?;
            return Ok(convert::int_of(py, &out)?);
        }
        let x = &operand_of(&x, s, "x")?;
        let out = interrupt::eval!(py, work, (m, x), |_stop| m.sqr(x))?;
        Ok(convert::int_of(py, &out)?)
    }

    /// The residue of `x` (any int, taken mod N): a `Residue` in Montgomery form, with
    /// operators, that stays in native memory until `int()`.
    fn __call__(&self, x: &Bound<'_, PyAny>) -> Result<residue::Residue, Error> {
        let Some(i) = residue::as_int(x)? else {
            return Err(OperandTypeError::new_err(format!(
                "expected an integer, got {}",
                type_name(x)
            ))
            .into());
        };
        Ok(residue::Residue {
            ring: Arc::clone(&self.inner),
            value: residue::from_int(&self.inner, &i)?,
        })
    }

    /// The residue whose Montgomery form is `form` (0 <= form < N), no conversion: the inverse
    /// of `Residue.form`.
    #[allow(
        clippy::wrong_self_convention,
        reason = "the Python name pairs with Residue.form"
    )]
    fn from_form(&self, form: &Bound<'_, PyAny>) -> Result<residue::Residue, Error> {
        let f = fast_operand(form, self.inner.modulus().len(), "form")?;
        Ok(residue::Residue {
            ring: Arc::clone(&self.inner),
            value: self.inner.residue_from_form(&f)?,
        })
    }

    /// Registry id of the kernel residues of this modulus multiply on ("amm", "cios",
    /// "spectral" or "ntt_redc": that of `mul`), which fixes their R.
    #[getter]
    fn residue_kernel(&self, py: Python<'_>) -> &'static str {
        py.detach(|| self.inner.residue_kernel_id())
    }

    /// base ** exp mod N, for 0 <= base < N and exp >= 0 (variable time in exp).
    fn pow<'py>(
        &self,
        py: Python<'py>,
        base: &Bound<'py, PyAny>,
        exp: Int,
    ) -> Result<Bound<'py, PyInt>, Error> {
        let s = self.inner.modulus().len();
        let (b, e) = (fast_operand(base, s, "base")?, exponent_limbs(&exp)?);
        // The kernel's setup may be built by this call.
        let work = interrupt::work(s, pow_products(&e) + pow_setup_products(s, &e));
        let m = Arc::clone(&self.inner);
        let out = interrupt::run(py, work, move |stop| m.pow_until(&b, &e, stop))?;
        Ok(convert::int_of(py, &out)?)
    }

    /// base ** exp mod N in constant time in base and the exponent bits (fixed window on
    /// `pow_sec_kernel`: the word level, or spectral where `spectral_sec_bits` is on). The
    /// exponent runs to a public length: `exp_bits` when given (at most 2^24; a longer exponent
    /// raises `OperandError`), else N's length or the exponent's own if longer; never trimmed
    /// to its top set bit.
    #[pyo3(signature = (base, exp, exp_bits = None))]
    fn pow_sec(
        &self,
        py: Python<'_>,
        base: Int,
        exp: Int,
        exp_bits: Option<u64>,
    ) -> Result<BigUint, Error> {
        let (b, e) = (operand_limbs(&base, "base")?, exponent_limbs(&exp)?);
        let e = self.inner.sec_exponent(&e, exp_bits)?;
        let work = interrupt::work(self.inner.modulus().len(), pow_products(&e));
        let m = Arc::clone(&self.inner);
        Ok(to_int(&interrupt::run(py, work, move |stop| {
            m.pow_sec_until(&b, &e, stop)
        })?))
    }

    /// [b ** e mod N] for each base b, with one exponent for all or one per base, on all
    /// cores, in input order, each as `pow_sec` (constant time in the bases and the exponent
    /// bits). Every exponent runs to one public length: `exp_bits` when given (at most 2^24;
    /// a longer exponent raises `OperandError`), else N's length or the longest exponent's if
    /// longer.
    #[pyo3(signature = (bases, exps, exp_bits = None))]
    fn pow_sec_many(
        &self,
        py: Python<'_>,
        bases: IntList,
        exps: Exponents,
        exp_bits: Option<u64>,
    ) -> Result<Vec<BigUint>, Error> {
        let bases = batch_limbs(&bases, "base")?;
        let exps = exps.limbs(bases.len())?;
        // Every exponent runs to the batch's public length (checked here, before any work).
        let limbs = self.inner.sec_batch_limbs(bases.len(), &exps, exp_bits)?;
        let products = pow_products_bits(64 * limbs as u64).saturating_mul(bases.len() as u128);
        let work = interrupt::work(self.inner.modulus().len(), products);
        let m = Arc::clone(&self.inner);
        let out = interrupt::run(py, work, move |stop| {
            m.pow_sec_many_until(&bases, &exps, exp_bits, stop)
        })?;
        Ok(out.iter().map(|v| to_int(v)).collect())
    }

    /// [x * y mod N for x, y in zip(xs, ys)] on all cores, in input order: ints from ints, or
    /// residues from residues of this modulus (one product each).
    fn mul_many(
        &self,
        py: Python<'_>,
        xs: residue::Batch<'_>,
        ys: residue::Batch<'_>,
    ) -> Result<Vec<Py<PyAny>>, Error> {
        let s = self.inner.modulus().len();
        let m = Arc::clone(&self.inner);
        match (xs, ys) {
            (residue::Batch::Ints(xs), residue::Batch::Ints(ys)) => {
                let (xs, ys) = (batch_limbs(&xs, "x")?, batch_limbs(&ys, "y")?);
                let work = interrupt::work(s, 2 * xs.len() as u128);
                let out = interrupt::run(py, work, move |stop| m.mul_many_until(&xs, &ys, stop))?;
                out.iter()
                    .map(|v| Ok(convert::int_of(py, v)?.into_any().unbind()))
                    .collect()
            }
            (residue::Batch::Residues(xs), residue::Batch::Residues(ys)) => {
                let xs = residue::batch_values(&self.inner, &xs)?;
                let ys = residue::batch_values(&self.inner, &ys)?;
                let work = interrupt::work(s, xs.len() as u128);
                let out = interrupt::run(py, work, move |stop| m.residue_mul_many(&xs, &ys, stop))?;
                Ok(residue::residue_list(py, &self.inner, out)?)
            }
            _ => Err(OperandTypeError::new_err(
                "xs and ys must both be sequences of ints or both of residues",
            )
            .into()),
        }
    }

    /// [b ** e mod N] for each base b, with one exponent for all or one per base, on all
    /// cores, in input order (variable time): ints from int bases, residues from residues of
    /// this modulus.
    fn pow_many(
        &self,
        py: Python<'_>,
        bases: residue::Batch<'_>,
        exps: Exponents,
    ) -> Result<Vec<Py<PyAny>>, Error> {
        let count = match &bases {
            residue::Batch::Ints(b) => b.len(),
            residue::Batch::Residues(b) => b.len(),
        };
        let exps = exps.limbs(count)?;
        let products = exps.iter().map(|e| pow_products(e)).sum();
        let work = interrupt::work(self.inner.modulus().len(), products);
        let m = Arc::clone(&self.inner);
        match bases {
            residue::Batch::Ints(bases) => {
                let bases = batch_limbs(&bases, "base")?;
                let out =
                    interrupt::run(py, work, move |stop| m.pow_many_until(&bases, &exps, stop))?;
                out.iter()
                    .map(|v| Ok(convert::int_of(py, v)?.into_any().unbind()))
                    .collect()
            }
            residue::Batch::Residues(bases) => {
                let bases = residue::batch_values(&self.inner, &bases)?;
                let out = interrupt::run(py, work, move |stop| {
                    m.residue_pow_many(&bases, &exps, stop)
                })?;
                Ok(residue::residue_list(py, &self.inner, out)?)
            }
        }
    }

    fn __repr__(&self) -> String {
        format!("FastModulus(<{}-bit modulus>)", self.inner.bits())
    }
}

/// base ** exp mod modulus, for odd modulus > 1, 0 <= base < modulus and exp >= 0.
///
/// Runs on the kernel the threshold table picks for the modulus size (see `FastModulus`).
#[pyfunction]
fn powm<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    exp: &Bound<'py, PyAny>,
    modulus: &Bound<'py, PyAny>,
) -> Result<Bound<'py, PyInt>, Error> {
    // Non-negative ints by the direct copy; anything else (other types, negative values) by
    // the general extraction, which reports what is wrong.
    let quick = |ob: &Bound<'py, PyAny>| {
        ob.cast_exact::<PyInt>()
            .ok()
            .and_then(|i| convert::nonneg_limbs(i))
    };
    let (b, e, n) = match (quick(base), quick(exp), quick(modulus)) {
        (Some(b), Some(e), Some(n)) => (b, e, n),
        _ => {
            let (base, exp, modulus): (Int, Int, Int) =
                (base.extract()?, exp.extract()?, modulus.extract()?);
            let n = modulus_limbs(&modulus)?;
            (operand_limbs(&base, "base")?, exponent_limbs(&exp)?, n)
        }
    };
    let t = current_thresholds();
    let work = interrupt::work(n.len(), pow_products(&e) + pow_setup_products(n.len(), &e));
    let out = interrupt::run(py, work, move |stop| {
        CoreFast::with_thresholds(&n, t).and_then(|m| m.pow_until(&b, &e, stop))
    })?;
    Ok(convert::int_of(py, &out)?)
}

/// The threshold table in force for new `FastModulus` objects and `powm`.
#[pyfunction]
fn thresholds() -> BTreeMap<&'static str, CutValue> {
    thresholds_dict(current_thresholds())
}

/// Replaces the threshold table (the text of a tuned table, same format as the generic one);
/// `None` restores the generic table. Moduli created earlier keep their table.
#[pyfunction]
#[pyo3(signature = (table))]
fn set_thresholds(table: Option<&str>) -> Result<(), Error> {
    let parsed = table.map(Thresholds::parse).transpose()?;
    let mut guard = THRESHOLDS
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *guard = parsed;
    Ok(())
}

/// Native montlab engines (Rust), one class per algorithm id of montlab/algorithms.toml.
#[pymodule(name = "_native")]
mod native {
    use pyo3::prelude::*;
    use pyo3::types::PyTuple;

    #[pymodule_export]
    use super::crt::{pow_crt, CrtKey};
    #[pymodule_export]
    use super::kernels::{Amm, NttRedc, Spectral};
    #[pymodule_export]
    use super::residue::Residue;
    #[pymodule_export]
    use super::{powm, set_thresholds, thresholds, Cios, FastModulus};

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        // Import the exception module now, so a broken install fails at import time rather
        // than when the first error is raised.
        m.py().import("montlab.errors")?;
        m.add(
            "ALGORITHMS",
            PyTuple::new(m.py(), montlab_core::NATIVE_ALGORITHMS)?,
        )?;
        m.add(
            "GENERIC_THRESHOLDS",
            montlab_core::engine::generic_thresholds_text(),
        )?;
        m.add("IFMA", montlab_core::spectral::uses_ifma())?;
        m.add("ADX", montlab_core::mont::adx::enabled())?;
        m.add("AVX2", montlab_core::spectral::uses_avx2())?;
        m.add("MAX_BITS", montlab_core::engine::MAX_BITS)?;
        m.add("SPECTRAL_MAX_BITS", montlab_core::engine::SPECTRAL_MAX_BITS)?;
        let build = pyo3::types::PyDict::new(m.py());
        build.set_item("rustc", env!("MONTLAB_RUSTC_VERSION"))?;
        build.set_item("target", env!("MONTLAB_TARGET"))?;
        build.set_item("profile", env!("MONTLAB_PROFILE"))?;
        build.set_item("version", env!("CARGO_PKG_VERSION"))?;
        m.add("BUILD", build)?;
        Ok(())
    }
}
