//! Garner's CRT of [`super::crt`] on AVX-512 IFMA, 8 coefficients per vector.
//!
//! Contract: [`garner_words`] takes the three fully reduced residue vectors (r_i < q_i) of a
//! 3P-entry buffer and overwrites them, in place, with the coefficients c_n as three words
//! c_n = w0 + w1 2^64 + w2 2^128 (w0, w1 unsigned, w2 signed): w0 in `buf[..P]`, w1 in
//! `buf[P..2P]`, w2 in `buf[2P..]`. c_n is the value v in [0, Q) of Garner's mixed radix
//! v = r1 + q1 k2 + q1 q2 k3, or, with `nega`, its symmetric lift (v - Q when v > Q/2), the
//! same integers as `Crt::collect_*` reads. The carry propagation over n and the wrap-around
//! folding stay scalar (`crt::fold_words`).
//!
//! Word size: 52-bit lanes of `vpmadd52{lo,hi}uq`. The Garner digits use Shoup products with
//! 52-bit constants (Harvey 2014, Alg. 2, beta = 2^52), as in [`super::ifma`]; v is built in
//! radix 2^52 (three limbs, q1 q2 split into two), the lift subtracts Q limb-wise with signed
//! carries, and the limbs are repacked into 64-bit words. Every multiplicand stays below 2^52:
//! r2 + 2 q2 - r1 < 3 q2, and 0 < r3 + 3 q3 - (k2 (q1 mod q3) mod 2q3) - (r1 mod q3) < 4 q3.
//!
//! Timing: no branch or address depends on the residues (the symmetric lift is a masked
//! subtraction), so `pow_sec` runs on it through the spectral kernel.
//!
//! Safety boundary: [`garner_words`] checks the CPU features and the buffer length before the
//! only `unsafe` call. Left out: non-x86-64 targets.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_cmpge_epi64_mask, _mm512_loadu_si512,
    _mm512_madd52hi_epu64, _mm512_madd52lo_epu64, _mm512_mask_sub_epi64, _mm512_or_si512,
    _mm512_set1_epi64, _mm512_setzero_si512, _mm512_slli_epi64, _mm512_srai_epi64,
    _mm512_srli_epi64, _mm512_storeu_si512, _mm512_sub_epi64,
};

use super::ifma::{available, reduce_once};

const MASK52: u64 = (1 << 52) - 1;

/// The Garner constants in the form the vector code needs (all below 2^52).
#[derive(Clone, Debug)]
pub(crate) struct GarnerConsts52 {
    /// The primes.
    pub(crate) q: [u64; 3],
    /// q1^-1 mod q2, q1 mod q3, (q1 q2)^-1 mod q3, each with floor(w 2^52 / q).
    pub(crate) inv12: (u64, u64),
    pub(crate) q1_mod_q3: (u64, u64),
    pub(crate) inv123: (u64, u64),
    /// q1 q2 in radix 2^52 (two limbs).
    pub(crate) q12: [u64; 2],
    /// Q and floor(Q / 2) + 1 in radix 2^52 (three limbs).
    pub(crate) big_q: [u64; 3],
    pub(crate) half_q1: [u64; 3],
}

/// Overwrites the residues in `buf` (3P entries, P a multiple of 8) with the words of the
/// coefficients (see the module contract). Requires [`available`].
///
/// # Panics
/// If the CPU lacks AVX-512 IFMA or `buf.len()` is not a multiple of 24.
pub(crate) fn garner_words(k: &GarnerConsts52, buf: &mut [u64], nega: bool) {
    assert!(available() && buf.len().is_multiple_of(24));
    // SAFETY: the CPU features were checked above; with P = len / 3 a multiple of 8, every
    // 8-lane access at offsets n, P + n, 2P + n (n + 8 <= P) lies inside `buf`.
    unsafe { garner_ifma(k, buf, nega) }
}

/// Shoup product y w mod q in [0, 2q) for y < 2^52 (w' = floor(w 2^52 / q)).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn shoup(y: __m512i, w: __m512i, ws: __m512i, neg_q: __m512i, mask: __m512i) -> __m512i {
    let z = _mm512_setzero_si512();
    let qhat = _mm512_madd52hi_epu64(z, y, ws);
    let yw = _mm512_madd52lo_epu64(z, y, w);
    _mm512_and_si512(_mm512_madd52lo_epu64(yw, qhat, neg_q), mask)
}

/// # Safety
/// AVX-512 F and IFMA present; `buf.len()` a multiple of 24.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn garner_ifma(k: &GarnerConsts52, buf: &mut [u64], nega: bool) {
    let p = buf.len() / 3;
    let s = |x: u64| _mm512_set1_epi64(x as i64);
    let [q1, q2, q3] = k.q;
    let (vq1, vq2, vq3) = (s(q1), s(q2), s(q3));
    let (q2x2, q3x3) = (s(2 * q2), s(3 * q3));
    let (nq2, nq3) = (s((1 << 52) - q2), s((1 << 52) - q3));
    let mask = s(MASK52);
    let (i12, i12s) = (s(k.inv12.0), s(k.inv12.1));
    let (m13, m13s) = (s(k.q1_mod_q3.0), s(k.q1_mod_q3.1));
    let (i123, i123s) = (s(k.inv123.0), s(k.inv123.1));
    let (a0, a1) = (s(k.q12[0]), s(k.q12[1]));
    let bq = k.big_q.map(s);
    let hq = k.half_q1.map(s);
    let z = _mm512_setzero_si512();
    let ptr = buf.as_mut_ptr();
    let mut n = 0;
    while n < p {
        // SAFETY: n + 8 <= p, so the three 8-lane windows lie inside `buf` (length 3p).
        let (p1, p2, p3) = unsafe {
            (
                ptr.add(n).cast::<__m512i>(),
                ptr.add(p + n).cast::<__m512i>(),
                ptr.add(2 * p + n).cast::<__m512i>(),
            )
        };
        // SAFETY: as above.
        let (r1, r2, r3) = unsafe {
            (
                _mm512_loadu_si512(p1),
                _mm512_loadu_si512(p2),
                _mm512_loadu_si512(p3),
            )
        };
        // k2 = (r2 - r1) q1^-1 mod q2.
        let y2 = _mm512_sub_epi64(_mm512_add_epi64(r2, q2x2), r1);
        let k2 = reduce_once(shoup(y2, i12, i12s, nq2, mask), vq2);
        // k3 = (r3 - r1 - q1 k2) (q1 q2)^-1 mod q3.
        let t = shoup(k2, m13, m13s, nq3, mask);
        let r1m = reduce_once(r1, vq3);
        let y3 = _mm512_sub_epi64(_mm512_add_epi64(r3, q3x3), _mm512_add_epi64(t, r1m));
        let k3 = reduce_once(shoup(y3, i123, i123s, nq3, mask), vq3);
        // v = r1 + q1 k2 + q1 q2 k3 in radix 2^52.
        let d0 = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(r1, vq1, k2), a0, k3);
        let d1 = _mm512_madd52lo_epu64(
            _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(z, vq1, k2), a0, k3),
            a1,
            k3,
        );
        let d2 = _mm512_madd52hi_epu64(z, a1, k3);
        let (mut d0, mut d1, mut d2) = (d0, d1, d2);
        if nega {
            // v > Q/2 iff v - (floor(Q/2) + 1) >= 0: signed limb-wise difference with floor
            // carries, exact for the unnormalised limbs d0, d1 < 3 2^52.
            let t0 = _mm512_sub_epi64(d0, hq[0]);
            let t1 = _mm512_add_epi64(_mm512_sub_epi64(d1, hq[1]), _mm512_srai_epi64::<52>(t0));
            let t2 = _mm512_add_epi64(_mm512_sub_epi64(d2, hq[2]), _mm512_srai_epi64::<52>(t1));
            let neg = _mm512_cmpge_epi64_mask(t2, z);
            d0 = _mm512_mask_sub_epi64(d0, neg, d0, bq[0]);
            d1 = _mm512_mask_sub_epi64(d1, neg, d1, bq[1]);
            d2 = _mm512_mask_sub_epi64(d2, neg, d2, bq[2]);
        }
        let (d0, d1, d2) = normalize(d0, d1, d2, mask);
        // Repack: w0 = bits 0..64, w1 = bits 64..128, w2 = the rest (signed).
        let w0 = _mm512_or_si512(d0, _mm512_slli_epi64::<52>(d1));
        let w1 = _mm512_or_si512(_mm512_srli_epi64::<12>(d1), _mm512_slli_epi64::<40>(d2));
        let w2 = _mm512_srai_epi64::<24>(d2);
        // SAFETY: as above.
        unsafe {
            _mm512_storeu_si512(p1, w0);
            _mm512_storeu_si512(p2, w1);
            _mm512_storeu_si512(p3, w2);
        }
        n += 8;
    }
}

/// Signed carries: d0, d1 into [0, 2^52), the excess into d2.
#[inline]
#[target_feature(enable = "avx512f")]
fn normalize(d0: __m512i, d1: __m512i, d2: __m512i, mask: __m512i) -> (__m512i, __m512i, __m512i) {
    let d1 = _mm512_add_epi64(d1, _mm512_srai_epi64::<52>(d0));
    let d2 = _mm512_add_epi64(d2, _mm512_srai_epi64::<52>(d1));
    (_mm512_and_si512(d0, mask), _mm512_and_si512(d1, mask), d2)
}
