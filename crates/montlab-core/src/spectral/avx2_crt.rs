//! Garner's digits of [`super::crt`] on AVX2 and FMA in double precision, 4 coefficients per
//! vector, for x86-64 CPUs without AVX-512 IFMA.
//!
//! Contract: [`digits`] takes the three fully reduced residue runs (r_i < q_i) of a 3P-entry
//! buffer `[r1 | r2 | r3]` and overwrites the last two, in place, with Garner's mixed-radix
//! digits: `[r1 | k2 | k3]`, k2 = (r2 - r1) q1^-1 mod q2 in [0, q2) and
//! k3 = (r3 - r1 - q1 k2) (q1 q2)^-1 mod q3 in [0, q3), the same integers as the scalar
//! `Crt::garner`; v = r1 + q1 k2 + q1 q2 k3 and the carry folds stay scalar.
//!
//! Arithmetic: the products of [`super::avx2`] by a constant w < q with w / q precomputed
//! (|x| < 2^51 in, |result| <= q out); r2 - r1 is below 2^50 in magnitude, and
//! r3 - reduce(r1 + (q1 mod q3) k2) below 1.5 q3 + 1. Each digit is brought into [0, q) by a
//! masked add and subtract of q. No branch or index depends on the values.
//!
//! Safety boundary: [`digits`] checks the CPU features and the buffer length before the only
//! `unsafe` call. Left out: the value and the folds (scalar), non-x86-64 targets.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_add_pd, _mm256_loadu_si256, _mm256_set1_pd, _mm256_storeu_si256, _mm256_sub_pd,
};

use super::avx2::{available, canonical, mulmod, reduce, to_epi64, to_pd, Consts};
use super::prime::PRIMES;

/// The Garner constants as doubles: each factor w with its w / q.
#[derive(Clone, Debug)]
pub(crate) struct GarnerConstsF64 {
    /// q1^-1 mod q2, q1 mod q3 and (q1 q2)^-1 mod q3, each with w / q.
    pub(crate) inv12: (f64, f64),
    pub(crate) q1_mod_q3: (f64, f64),
    pub(crate) inv123: (f64, f64),
}

/// Overwrites r2 and r3 in `buf` (3P entries, P a multiple of 4) with the digits k2 and k3
/// (see the module contract).
///
/// # Panics
/// If the CPU lacks AVX2 or FMA, or `buf.len()` is not a multiple of 12.
pub(crate) fn digits(k: &GarnerConstsF64, buf: &mut [u64]) {
    assert!(available() && buf.len().is_multiple_of(12));
    // SAFETY: the CPU features were checked above; with P = len / 3 a multiple of 4, every
    // 4-lane access at offsets n, P + n, 2P + n (n + 4 <= P) lies inside `buf`.
    unsafe { digits_avx2(k, buf) }
}

/// # Safety
/// AVX2 and FMA present; `buf.len()` a multiple of 12.
#[target_feature(enable = "avx2,fma")]
unsafe fn digits_avx2(k: &GarnerConstsF64, buf: &mut [u64]) {
    let p = buf.len() / 3;
    let (c2, c3) = (Consts::new(PRIMES[1] as f64), Consts::new(PRIMES[2] as f64));
    let inv12 = (_mm256_set1_pd(k.inv12.0), _mm256_set1_pd(k.inv12.1));
    let q1_mod_q3 = (_mm256_set1_pd(k.q1_mod_q3.0), _mm256_set1_pd(k.q1_mod_q3.1));
    let inv123 = (_mm256_set1_pd(k.inv123.0), _mm256_set1_pd(k.inv123.1));
    let b = buf.as_mut_ptr();
    for n in (0..p).step_by(4) {
        // SAFETY: n + 4 <= P, so the three 4-lane runs lie inside `buf` (contract above).
        unsafe {
            let r1 = to_pd(_mm256_loadu_si256(b.add(n).cast::<__m256i>()));
            let r2 = to_pd(_mm256_loadu_si256(b.add(p + n).cast::<__m256i>()));
            let r3 = to_pd(_mm256_loadu_si256(b.add(2 * p + n).cast::<__m256i>()));
            let k2 = canonical(mulmod(_mm256_sub_pd(r2, r1), inv12.0, inv12.1, c2), c2);
            // v12 mod q3 = r1 + (q1 mod q3) k2, brought to |v| <= q3 / 2 + 1.
            let v = reduce(
                _mm256_add_pd(mulmod(k2, q1_mod_q3.0, q1_mod_q3.1, c3), r1),
                c3,
            );
            let k3 = canonical(mulmod(_mm256_sub_pd(r3, v), inv123.0, inv123.1, c3), c3);
            _mm256_storeu_si256(b.add(p + n).cast::<__m256i>(), to_epi64(k2));
            _mm256_storeu_si256(b.add(2 * p + n).cast::<__m256i>(), to_epi64(k3));
        }
    }
}
