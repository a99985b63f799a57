//! The RSA private operation by CRT for Python: the one-shot `pow_crt` and the prepared
//! `CrtKey` (`montlab_core::pow::crt`).

use std::sync::Arc;

use montlab_core::pow::crt::{CrtKey as CoreKey, PreparedCrtKey};
use montlab_core::{Limb, MontError, Stop};
use num_bigint::BigUint;
use pyo3::prelude::*;

use crate::error::Error;
use crate::{interrupt, operand_limbs, to_int, Int};

/// The key's parts as limbs, shape-checked ([`CoreKey::new`]).
fn core_key(p: &Int, q: &Int, dp: &Int, dq: &Int, qinv: &Int) -> Result<CoreKey, Error> {
    let part = |v: &Int, which| operand_limbs(v, which);
    Ok(CoreKey::new(
        &part(p, "p")?,
        &part(q, "q")?,
        &part(dp, "dp")?,
        &part(dq, "dq")?,
        &part(qinv, "qinv")?,
    )?)
}

/// Work of one private operation on primes of `s` limbs: two exponentiations of s limbs and
/// 64 s exponent bits each.
fn work(s: usize) -> u128 {
    2 * interrupt::work(s, 64 * s as u128 + 64)
}

/// c^d mod p q from the CRT form of an RSA private key (p, q, dp, dq, qinv), in constant time in
/// the key and c by default (`sec=True`); `sec=False` runs the variable-time sibling.
///
/// p and q odd, > 1, of one 64-bit limb count s; dp, dq, qinv of at most s limbs; c of at most
/// 2 s limbs (any value: the result is (c mod p q)^d mod p q). Only those shapes are checked: a
/// consistent key is the caller's. Returns m < p q. Each call builds the primes' constants;
/// `CrtKey` builds them once.
#[pyfunction]
#[pyo3(signature = (c, dp, dq, p, q, qinv, sec = true))]
#[allow(clippy::too_many_arguments, reason = "RSA's CRT key has five parts")]
pub(crate) fn pow_crt(
    py: Python<'_>,
    c: Int,
    dp: Int,
    dq: Int,
    p: Int,
    q: Int,
    qinv: Int,
    sec: bool,
) -> Result<BigUint, Error> {
    let key = core_key(&p, &q, &dp, &dq, &qinv)?;
    let op = if sec {
        CoreKey::pow_sec
    } else {
        CoreKey::pow_vartime
    };
    private_op(py, key.limbs(), Arc::new(key), &c, op)
}

/// A private operation of a key `K`: `pow_sec` or `pow_vartime`.
type PrivateOp<K> = fn(&K, &[Limb], &Stop) -> Result<Vec<Limb>, MontError>;

/// `op` (a private operation of either form of a key with primes of `s` limbs) on c, in the
/// interruptible runner.
fn private_op<K: Send + Sync + 'static>(
    py: Python<'_>,
    s: usize,
    key: Arc<K>,
    c: &Int,
    op: PrivateOp<K>,
) -> Result<BigUint, Error> {
    let c = operand_limbs(c, "c")?;
    let out = interrupt::run(py, work(s), move |stop| op(&key, &c, stop))?;
    Ok(to_int(&out))
}

/// An RSA private key in CRT form (dp, dq, p, q, qinv, in `pow_crt`'s order) with its primes'
/// constants built once, in constant time, for repeated private operations.
///
/// The shapes are those of `pow_crt` and are checked here; a consistent key is the caller's.
#[pyclass(frozen, module = "montlab._native", name = "CrtKey")]
pub(crate) struct CrtKey {
    inner: Arc<PreparedCrtKey>,
}

#[pymethods]
impl CrtKey {
    #[new]
    fn new(dp: Int, dq: Int, p: Int, q: Int, qinv: Int) -> Result<Self, Error> {
        let key = core_key(&p, &q, &dp, &dq, &qinv)?;
        Ok(Self {
            inner: Arc::new(key.prepare()),
        })
    }

    /// c^d mod p q, as `pow_crt(c, dp, dq, p, q, qinv, sec)` with this key.
    #[pyo3(signature = (c, sec = true))]
    fn pow(&self, py: Python<'_>, c: Int, sec: bool) -> Result<BigUint, Error> {
        let op = if sec {
            PreparedCrtKey::pow_sec
        } else {
            PreparedCrtKey::pow_vartime
        };
        private_op(py, self.limbs(), Arc::clone(&self.inner), &c, op)
    }

    /// Whether `pow` (constant time) blinds the exponents: dp + r_p (p - 1) and dq + r_q (q - 1)
    /// for fresh random 64-bit r_p, r_q each call (off by default; one more limb of exponent
    /// in each half). The result is the same for any RSA key.
    #[getter]
    fn get_blinding(&self) -> bool {
        self.inner.blinding()
    }

    #[setter]
    fn set_blinding(&self, on: bool) {
        self.inner.set_blinding(on);
    }

    /// The limb count s of p and q (64-bit limbs; public).
    #[getter]
    fn limbs(&self) -> usize {
        self.inner.key().limbs()
    }

    fn __repr__(&self) -> String {
        format!("CrtKey(<{}-limb primes>)", self.limbs())
    }
}
