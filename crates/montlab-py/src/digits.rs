//! CPython 3.11's int digits copied to and from `u64` limbs directly.
//!
//! CPython 3.11 (`Include/cpython/longintrepr.h`) stores an int as a `PyVarObject` whose
//! `ob_size` is the signed count of its digits, then the digits: `u32` words of 30 bits each,
//! least significant first, the top digit non-zero. Packing them into limbs is a shift-and-or
//! per 30-bit digit, where `_PyLong_AsByteArray` / `_PyLong_FromByteArray` move one byte per
//! step; 32 digits are exactly 15 limbs, so whole blocks take fixed shifts. Used only where the
//! layout is this one: CPython before 3.12 (which moved the size into a tagged field), not the
//! limited API, and `sys.int_info` reporting 30-bit digits in 4 bytes (checked once).
//! Elsewhere [`crate::convert`] keeps CPython's own copy.

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

/// `x` written into all of `out` when `0 <= x < 2^(64 out.len())`, else false (`out` then
/// unspecified). Only where [`usable`].
pub(crate) fn read_into(x: &Bound<'_, PyInt>, out: &mut [u64]) -> bool {
    let (d, negative) = digits(x);
    if negative || bit_len(d) > 64 * out.len() {
        return false;
    }
    pack(d, out);
    true
}

/// `x >= 0` as limbs without leading zero limbs (none for 0), else `None`. Only where
/// [`usable`].
pub(crate) fn read_any(x: &Bound<'_, PyInt>) -> Option<Vec<u64>> {
    let (d, negative) = digits(x);
    if negative {
        return None;
    }
    let mut out = vec![0; bit_len(d).div_ceil(64)];
    pack(d, &mut out);
    Some(out)
}

/// Digits and limbs in a block: 32 digits of 30 bits are exactly 15 limbs (960 bits).
const BLOCK_DIGITS: usize = 32;
const BLOCK_LIMBS: usize = 15;

/// The digits `d` into all of `out` (its `s` limbs hold them): whole blocks of 32 digits, then
/// the rest as one block padded with zero digits, then zeros. (32 b digits, the top one
/// non-zero, need at least 15 b limbs, so every whole block has its 15 limbs, and fewer than 32
/// digits are left.)
fn pack(d: &[u32], out: &mut [u64]) {
    let s = out.len();
    let (blocks, rest) = d.as_chunks::<BLOCK_DIGITS>();
    for (i, db) in blocks.iter().enumerate() {
        out[BLOCK_LIMBS * i..BLOCK_LIMBS * (i + 1)].copy_from_slice(&pack_block(db));
    }
    let mut at = BLOCK_LIMBS * blocks.len();
    if !rest.is_empty() {
        let mut pad = [0u32; BLOCK_DIGITS];
        pad[..rest.len()].copy_from_slice(rest);
        let take = (s - at).min(BLOCK_LIMBS);
        out[at..at + take].copy_from_slice(&pack_block(&pad)[..take]);
        at += take;
    }
    out[at..].fill(0);
}

/// Limb j of a block is bits 64 j.. of its 32 digits: digit k = 64 j / 30 shifted right by
/// 64 j mod 30, then the next two or three digits shifted left, each shift written out (no
/// loop, no bounds check, no overflow check on a computed shift).
#[inline(always)]
fn pack_block(d: &[u32; BLOCK_DIGITS]) -> [u64; BLOCK_LIMBS] {
    [
        u64::from(d[0]) | u64::from(d[1]) << 30 | u64::from(d[2]) << 60,
        u64::from(d[2]) >> 4 | u64::from(d[3]) << 26 | u64::from(d[4]) << 56,
        u64::from(d[4]) >> 8 | u64::from(d[5]) << 22 | u64::from(d[6]) << 52,
        u64::from(d[6]) >> 12 | u64::from(d[7]) << 18 | u64::from(d[8]) << 48,
        u64::from(d[8]) >> 16 | u64::from(d[9]) << 14 | u64::from(d[10]) << 44,
        u64::from(d[10]) >> 20 | u64::from(d[11]) << 10 | u64::from(d[12]) << 40,
        u64::from(d[12]) >> 24 | u64::from(d[13]) << 6 | u64::from(d[14]) << 36,
        u64::from(d[14]) >> 28
            | u64::from(d[15]) << 2
            | u64::from(d[16]) << 32
            | u64::from(d[17]) << 62,
        u64::from(d[17]) >> 2 | u64::from(d[18]) << 28 | u64::from(d[19]) << 58,
        u64::from(d[19]) >> 6 | u64::from(d[20]) << 24 | u64::from(d[21]) << 54,
        u64::from(d[21]) >> 10 | u64::from(d[22]) << 20 | u64::from(d[23]) << 50,
        u64::from(d[23]) >> 14 | u64::from(d[24]) << 16 | u64::from(d[25]) << 46,
        u64::from(d[25]) >> 18 | u64::from(d[26]) << 12 | u64::from(d[27]) << 42,
        u64::from(d[27]) >> 22 | u64::from(d[28]) << 8 | u64::from(d[29]) << 38,
        u64::from(d[29]) >> 26 | u64::from(d[30]) << 4 | u64::from(d[31]) << 34,
    ]
}

/// Digit i of a block of 15 limbs is bits 30 i.. from limb k = 30 i / 64, and the next limb's
/// low bits when the digit straddles two; each shift written out, as [`pack_block`].
#[inline(always)]
fn unpack_block(l: &[u64; BLOCK_LIMBS]) -> [u32; BLOCK_DIGITS] {
    [
        (l[0] & MASK) as u32,
        (l[0] >> 30 & MASK) as u32,
        ((l[0] >> 60 | l[1] << 4) & MASK) as u32,
        (l[1] >> 26 & MASK) as u32,
        ((l[1] >> 56 | l[2] << 8) & MASK) as u32,
        (l[2] >> 22 & MASK) as u32,
        ((l[2] >> 52 | l[3] << 12) & MASK) as u32,
        (l[3] >> 18 & MASK) as u32,
        ((l[3] >> 48 | l[4] << 16) & MASK) as u32,
        (l[4] >> 14 & MASK) as u32,
        ((l[4] >> 44 | l[5] << 20) & MASK) as u32,
        (l[5] >> 10 & MASK) as u32,
        ((l[5] >> 40 | l[6] << 24) & MASK) as u32,
        (l[6] >> 6 & MASK) as u32,
        ((l[6] >> 36 | l[7] << 28) & MASK) as u32,
        (l[7] >> 2 & MASK) as u32,
        (l[7] >> 32 & MASK) as u32,
        ((l[7] >> 62 | l[8] << 2) & MASK) as u32,
        (l[8] >> 28 & MASK) as u32,
        ((l[8] >> 58 | l[9] << 6) & MASK) as u32,
        (l[9] >> 24 & MASK) as u32,
        ((l[9] >> 54 | l[10] << 10) & MASK) as u32,
        (l[10] >> 20 & MASK) as u32,
        ((l[10] >> 50 | l[11] << 14) & MASK) as u32,
        (l[11] >> 16 & MASK) as u32,
        ((l[11] >> 46 | l[12] << 18) & MASK) as u32,
        (l[12] >> 12 & MASK) as u32,
        ((l[12] >> 42 | l[13] << 22) & MASK) as u32,
        (l[13] >> 8 & MASK) as u32,
        ((l[13] >> 38 | l[14] << 26) & MASK) as u32,
        (l[14] >> 4 & MASK) as u32,
        (l[14] >> 34 & MASK) as u32,
    ]
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
        // Whole blocks of 15 limbs while their 32 digits are all below `count`, then the rest
        // (fewer than 32 digits) from one block of the remaining limbs padded with zeros.
        let blocks = (count / BLOCK_DIGITS).min(len / BLOCK_LIMBS);
        let (from, _) = limbs.as_chunks::<BLOCK_LIMBS>();
        for (i, f) in from[..blocks].iter().enumerate() {
            out[BLOCK_DIGITS * i..BLOCK_DIGITS * (i + 1)].copy_from_slice(&unpack_block(f));
        }
        let (at, left) = (BLOCK_DIGITS * blocks, &limbs[BLOCK_LIMBS * blocks..len]);
        if at < count {
            let mut pad = [0u64; BLOCK_LIMBS];
            pad[..left.len()].copy_from_slice(left);
            out[at..count].copy_from_slice(&unpack_block(&pad)[..count - at]);
        }
        Ok(Bound::from_owned_ptr(py, ob).cast_into_unchecked())
    }
}
