//! CPython 3.11's int digits copied to and from `u64` limbs directly.
//!
//! CPython 3.11 (`Include/cpython/longintrepr.h`) stores an int as a `PyVarObject` whose
//! `ob_size` is the signed count of its digits, then the digits: `u32` words of 30 bits each,
//! least significant first, the top digit non-zero. Packing them into limbs is a shift-and-or
//! per 30-bit digit, where `_PyLong_AsByteArray` / `_PyLong_FromByteArray` move one byte per
//! step (`FastModulus.mul` at 2048 bits went from 3.39 to 2.88 µs, `docs/residues.json`). Used only where the layout is this one: CPython before 3.12 (which
//! moved the size into a tagged field), not the limited API, and `sys.int_info` reporting 30-bit
//! digits in 4 bytes (checked once). Elsewhere [`crate::convert`] keeps CPython's own copy.

#![allow(unsafe_code)]

use std::sync::OnceLock;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyInt;

const SHIFT: u32 = 30;
const MASK: u64 = (1 << SHIFT) - 1;

extern "C" {
    /// A new int of `size` digits, uninitialized (CPython 3.11's exported `_PyLong_New`).
    fn _PyLong_New(size: ffi::Py_ssize_t) -> *mut ffi::PyObject;
}

/// True when this interpreter's ints have 30-bit digits in 4 bytes (read once).
pub(crate) fn usable(py: Python<'_>) -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    *OK.get_or_init(|| {
        let info = || -> PyResult<bool> {
            let info = py.import("sys")?.getattr("int_info")?;
            let bits: u32 = info.getattr("bits_per_digit")?.extract()?;
            let size: u32 = info.getattr("sizeof_digit")?.extract()?;
            Ok(bits == SHIFT && size == 4)
        };
        info().unwrap_or(false)
    })
}

/// The digits of `x` and whether it is negative.
fn digits<'a>(x: &'a Bound<'_, PyInt>) -> (&'a [u32], bool) {
    let ob = x.as_ptr();
    // SAFETY: `x` is an int (so a PyVarObject: `Py_SIZE` reads its `ob_size`), and under this
    // layout its |ob_size| digits follow the header; `x` is borrowed for 'a, so they live that
    // long and, ints being immutable, do not change.
    unsafe {
        let size = ffi::Py_SIZE(ob);
        let ptr = ob
            .cast::<u8>()
            .add(std::mem::size_of::<ffi::PyVarObject>())
            .cast::<u32>();
        (
            std::slice::from_raw_parts(ptr, size.unsigned_abs()),
            size < 0,
        )
    }
}

/// Bit length of the digits `d` (top digit non-zero).
fn bit_len(d: &[u32]) -> usize {
    d.last().map_or(0, |&top| {
        SHIFT as usize * (d.len() - 1) + (32 - top.leading_zeros()) as usize
    })
}

/// `x` as exactly `s` limbs when `0 <= x < 2^(64 s)`, else `None`. Only where [`usable`].
pub(crate) fn read(x: &Bound<'_, PyInt>, s: usize) -> Option<Vec<u64>> {
    let (d, negative) = digits(x);
    if negative || bit_len(d) > 64 * s {
        return None;
    }
    Some(pack(d, s))
}

/// `x >= 0` as limbs without leading zero limbs (none for 0), else `None`. Only where
/// [`usable`].
pub(crate) fn read_any(x: &Bound<'_, PyInt>) -> Option<Vec<u64>> {
    let (d, negative) = digits(x);
    if negative {
        return None;
    }
    Some(pack(d, bit_len(d).div_ceil(64)))
}

/// Digits and limbs in a block: 32 digits of 30 bits are exactly 15 limbs (960 bits).
const BLOCK_DIGITS: usize = 32;
const BLOCK_LIMBS: usize = 15;

/// The digits `d` as `s` limbs (`s` limbs hold them): whole blocks of 32 digits with fixed
/// shifts (the compiler unrolls them), then the rest a digit at a time.
fn pack(d: &[u32], s: usize) -> Vec<u64> {
    let mut out = vec![0u64; s];
    // 32 b digits, the top one non-zero, need at least 15 b limbs, so every block fits.
    let blocks = d.len() / BLOCK_DIGITS;
    let (db, _) = d.as_chunks::<BLOCK_DIGITS>();
    let (ob, _) = out.as_chunks_mut::<BLOCK_LIMBS>();
    for (db, ob) in db.iter().zip(ob.iter_mut()).take(blocks) {
        pack_block(db, ob);
    }
    let (mut acc, mut have, mut k) = (0u128, 0u32, blocks * BLOCK_LIMBS);
    for &digit in &d[blocks * BLOCK_DIGITS..] {
        acc |= u128::from(digit) << have;
        have += SHIFT;
        if have >= 64 {
            out[k] = acc as u64;
            k += 1;
            acc >>= 64;
            have -= 64;
        }
    }
    if have > 0 && acc != 0 {
        out[k] = acc as u64;
    }
    out
}

/// Limb j of a block takes bits 64 j.. of its 32 digits: from digit k = 64 j / 30 on, shifted
/// right by 64 j mod 30, then up to three more digits shifted left.
#[inline(always)]
fn pack_block(d: &[u32; BLOCK_DIGITS], out: &mut [u64; BLOCK_LIMBS]) {
    for (j, o) in out.iter_mut().enumerate() {
        let (k, sh) = (64 * j / 30, (64 * j % 30) as u32);
        let mut v = u64::from(d[k]) >> sh;
        v |= u64::from(d[k + 1]) << (SHIFT - sh);
        v |= u64::from(d[k + 2]) << (2 * SHIFT - sh);
        if k + 3 < BLOCK_DIGITS && 3 * SHIFT - sh < 64 {
            v |= u64::from(d[k + 3]) << (3 * SHIFT - sh);
        }
        *o = v;
    }
}

/// Digit i of a block of 15 limbs: bits 30 i.. from limb k = 30 i / 64, and the next limb's low
/// bits when the digit straddles two.
#[inline(always)]
fn unpack_block(l: &[u64; BLOCK_LIMBS], out: &mut [u32; BLOCK_DIGITS]) {
    for (i, o) in out.iter_mut().enumerate() {
        let (k, sh) = (30 * i / 64, (30 * i % 64) as u32);
        let mut v = l[k] >> sh;
        if sh > 64 - SHIFT && k + 1 < BLOCK_LIMBS {
            v |= l[k + 1] << (64 - sh);
        }
        *o = (v & MASK) as u32;
    }
}

/// The int whose little-endian limbs are `limbs`. Only where [`usable`].
pub(crate) fn write<'py>(py: Python<'py>, limbs: &[u64]) -> PyResult<Bound<'py, PyInt>> {
    let len = limbs.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1);
    if len <= 1 {
        // Small values come from CPython's own constructor (and its cache of small ints).
        // SAFETY: returns a new reference or NULL with an exception set.
        let ptr = unsafe { ffi::PyLong_FromUnsignedLongLong(limbs.first().map_or(0, |&l| l)) };
        // SAFETY: `ptr` is an owned int, or NULL with an exception set.
        return unsafe { Bound::from_owned_ptr_or_err(py, ptr).map(|b| b.cast_into_unchecked()) };
    }
    let bits = 64 * len - limbs[len - 1].leading_zeros() as usize;
    let count = bits.div_ceil(SHIFT as usize);
    // SAFETY: `_PyLong_New` returns a new int of `count` digits (uninitialized) with
    // `ob_size = count`, or NULL with an exception set; every digit is written below before
    // the int is seen by anyone, and the top one is non-zero (`count` is exact), so it is
    // normalized as CPython requires.
    unsafe {
        let ob = _PyLong_New(count as ffi::Py_ssize_t);
        if ob.is_null() {
            return Err(PyErr::fetch(py));
        }
        let ptr = ob
            .cast::<u8>()
            .add(std::mem::size_of::<ffi::PyVarObject>())
            .cast::<u32>();
        let out = std::slice::from_raw_parts_mut(ptr, count);
        // Whole blocks of 15 limbs while their 32 digits are all below `count`, then the rest.
        let blocks = (count / BLOCK_DIGITS).min(len / BLOCK_LIMBS);
        let (from, _) = limbs.as_chunks::<BLOCK_LIMBS>();
        let (to, _) = out.as_chunks_mut::<BLOCK_DIGITS>();
        for (f, t) in from.iter().zip(to.iter_mut()).take(blocks) {
            unpack_block(f, t);
        }
        let (mut acc, mut have, mut k) = (0u128, 0u32, blocks * BLOCK_DIGITS);
        for &l in &limbs[blocks * BLOCK_LIMBS..len] {
            acc |= u128::from(l) << have;
            have += 64;
            while have >= SHIFT && k < count {
                out[k] = (acc as u64 & MASK) as u32;
                k += 1;
                acc >>= SHIFT;
                have -= SHIFT;
            }
        }
        if k < count {
            out[k] = (acc as u64 & MASK) as u32;
        }
        Ok(Bound::from_owned_ptr(py, ob).cast_into_unchecked())
    }
}
