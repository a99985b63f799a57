//! Python ints to and from fixed-length `u64` limbs, by CPython's own copy between an int and
//! a little-endian buffer: no bytes object, no decimal, no bignum crate in between.
//!
//! CPython 3.11 and 3.12: `_PyLong_AsByteArray` / `_PyLong_FromByteArray`; 3.13 and later:
//! `PyLong_AsNativeBytes` / `PyLong_FromUnsignedNativeBytes`. Both write the int's digits
//! straight into the limb buffer (read as bytes, which on a little-endian host are the limbs).
//! Under the limited API (abi3), which offers neither, the values go through num-bigint. On
//! CPython 3.11 the digits are copied directly instead ([`crate::digits`]), which is faster.
//! The binding's unsafe code: these FFI calls, each with its buffer contract, and `digits`.

#![allow(unsafe_code)]

use num_bigint::BigInt;
use pyo3::prelude::*;
use pyo3::types::PyInt;

/// `x` as exactly `s` limbs when `0 <= x < 2^(64 s)`, else `None` (negative or too long: the
/// caller's slow path decides what that means).
pub(crate) fn fixed_limbs(x: &Bound<'_, PyInt>, s: usize) -> Option<Vec<u64>> {
    let mut out = vec![0u64; s];
    fixed_limbs_into(x, &mut out).then_some(out)
}

/// [`fixed_limbs`] into all of `out` (s = `out.len()` limbs, written on success), for callers
/// with a buffer of their own; false where `fixed_limbs` gives `None`.
pub(crate) fn fixed_limbs_into(x: &Bound<'_, PyInt>, out: &mut [u64]) -> bool {
    let s = out.len();
    if s == 0 {
        return false;
    }
    #[cfg(all(not(Py_LIMITED_API), not(Py_3_12)))]
    if crate::digits::usable(x.py()) {
        return crate::digits::read_into(x, out);
    }
    out.fill(0);
    #[cfg(not(Py_LIMITED_API))]
    {
        #[cfg(not(Py_3_13))]
        // SAFETY: `out` holds 8 s writable bytes; `x` is an int. On failure (negative, or more
        // than 8 s bytes) the function returns -1 with an OverflowError set, cleared here.
        let ok = unsafe {
            let r = pyo3::ffi::_PyLong_AsByteArray(
                x.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                8 * s,
                1,
                0,
            );
            if r != 0 {
                pyo3::ffi::PyErr_Clear();
            }
            r == 0
        };
        #[cfg(Py_3_13)]
        // SAFETY: as above; the result is the byte count the value needs (more than 8 s when
        // it does not fit), or -1 with an exception set (a negative value), cleared here.
        let ok = unsafe {
            let flags = pyo3::ffi::Py_ASNATIVEBYTES_LITTLE_ENDIAN
                | pyo3::ffi::Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                | pyo3::ffi::Py_ASNATIVEBYTES_REJECT_NEGATIVE;
            let Ok(len) = isize::try_from(8 * s) else {
                return false;
            };
            let r =
                pyo3::ffi::PyLong_AsNativeBytes(x.as_ptr(), out.as_mut_ptr().cast(), len, flags);
            if r < 0 {
                pyo3::ffi::PyErr_Clear();
            }
            (0..=len).contains(&r)
        };
        if !ok {
            return false;
        }
        for l in out.iter_mut() {
            *l = u64::from_le(*l);
        }
        true
    }
    #[cfg(Py_LIMITED_API)]
    {
        let Ok(v) = x.extract::<BigInt>() else {
            return false;
        };
        let (sign, digits) = v.to_u64_digits();
        if sign == num_bigint::Sign::Minus || digits.len() > s {
            return false;
        }
        out[..digits.len()].copy_from_slice(&digits);
        true
    }
}

/// `x >= 0` as limbs without leading zero limbs, by the direct digit copy; `None` where that
/// copy is unavailable or `x` is negative (the caller's general path decides).
pub(crate) fn nonneg_limbs(x: &Bound<'_, PyInt>) -> Option<Vec<u64>> {
    #[cfg(all(not(Py_LIMITED_API), not(Py_3_12)))]
    if crate::digits::usable(x.py()) {
        return crate::digits::read_any(x);
    }
    let _ = x;
    None
}

/// The int whose little-endian limbs are `limbs` (leading zero limbs allowed).
pub(crate) fn int_of<'py>(py: Python<'py>, limbs: &[u64]) -> PyResult<Bound<'py, PyInt>> {
    #[cfg(all(not(Py_LIMITED_API), not(Py_3_12)))]
    if crate::digits::usable(py) {
        return crate::digits::write(py, limbs);
    }
    #[cfg(not(Py_LIMITED_API))]
    {
        let le: std::borrow::Cow<'_, [u64]> = if cfg!(target_endian = "little") {
            std::borrow::Cow::Borrowed(limbs)
        } else {
            std::borrow::Cow::Owned(limbs.iter().map(|l| l.to_le()).collect())
        };
        #[cfg(not(Py_3_13))]
        // SAFETY: the buffer holds 8 len readable bytes; the result is a new reference or NULL
        // with an exception set.
        let ptr =
            unsafe { pyo3::ffi::_PyLong_FromByteArray(le.as_ptr().cast(), 8 * le.len(), 1, 0) };
        #[cfg(Py_3_13)]
        // SAFETY: as above.
        let ptr = unsafe {
            pyo3::ffi::PyLong_FromUnsignedNativeBytes(
                le.as_ptr().cast(),
                8 * le.len(),
                pyo3::ffi::Py_ASNATIVEBYTES_LITTLE_ENDIAN,
            )
        };
        // SAFETY: `ptr` is an owned int, or NULL with an exception set.
        unsafe { Bound::from_owned_ptr_or_err(py, ptr).map(|b| b.cast_into_unchecked()) }
    }
    #[cfg(Py_LIMITED_API)]
    {
        let v = montlab_core::bigarith::from_limbs(limbs);
        Ok(v.into_pyobject(py)?)
    }
}

/// `x mod n` as exactly `n.len()` limbs, for any int `x` (negative or >= N included): the
/// fast copy when `0 <= x < 2^(64 s)` and the value is below N, else num-bigint's remainder.
pub(crate) fn reduced_limbs(x: &Bound<'_, PyInt>, n: &[u64]) -> PyResult<Vec<u64>> {
    if let Some(v) = fixed_limbs(x, n.len()) {
        if v.iter().rev().cmp(n.iter().rev()).is_lt() {
            return Ok(v);
        }
    }
    let v: BigInt = x.extract()?;
    let n_big = BigInt::from(montlab_core::bigarith::from_limbs(n));
    let r = ((v % &n_big) + &n_big) % &n_big;
    let mut out = r.magnitude().to_u64_digits();
    out.resize(n.len(), 0);
    Ok(out)
}

#[cfg(Py_LIMITED_API)]
use pyo3::IntoPyObject;
