//! Plain (not modular) products of large integers on the spectral kernel's three-prime NTTs,
//! for the per-modulus setup ([`crate::bigarith`]).
//!
//! Citation: multiplication by number-theoretic transforms modulo several primes and CRT
//! (J. M. Pollard, "The fast Fourier transform in a finite field", Math. Comp. 25, 1971); the
//! transforms, pointwise Montgomery products and Garner read-out are those of
//! [`super::kernel`]. One cyclic convolution of length L >= len(a) + len(b) (a power of two):
//! the product is below 2^(64 L) - 1, so the wrap-around never folds.
//!
//! Ranges: any a, b (64-bit limbs) with len(a) + len(b) <= [`MAX_PRODUCT_LIMBS`] = 2^21, where
//! every coefficient stays below L 2^128 <= 2^149 < q1 q2 q3. Word size 64 bits, radix 2^64.
//! The twiddle tables of each length up to 2^17 are built once per process and kept; longer
//! ones are copied out of the longest built so far ([`NttTables::prefix`]), which is kept.
//!
//! The transforms, the pointwise products and the read-out run on the kernels' dispatch
//! ([`super::forward`], [`super::pointwise`], [`super::inverse_products`], [`Crt::collect_cyc`]):
//! IFMA (the pointwise products excepted) or AVX2 where the CPU has them, the portable loops
//! elsewhere.
//!
//! Left out: truncated transforms for unbalanced operands, and constant time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use super::crt::Crt;
use super::ntt::NttTables;
use super::{forward, inverse_products, pointwise};

/// The longest product (limbs): the primes' 2^22 | q - 1 allows cyclic length 2^21.
pub const MAX_PRODUCT_LIMBS: usize = 1 << 21;

/// From this transform length the three primes run on separate threads.
const PARALLEL_LEN: usize = 4096;

/// Lengths up to this are kept once built: 2^17 covers every product of a 2^22-bit setup,
/// whose tables then hold about 40 MiB.
const CACHE_MAX_LEN: usize = 1 << 17;

/// The three primes' tables at length `len`, on separate threads from [`PARALLEL_LEN`].
fn build(len: usize) -> [NttTables; 3] {
    if len < PARALLEL_LEN {
        return [0, 1, 2].map(|which| NttTables::new(which, len));
    }
    let (t0, (t1, t2)) = rayon::join(
        || NttTables::new(0, len),
        || rayon::join(|| NttTables::new(1, len), || NttTables::new(2, len)),
    );
    [t0, t1, t2]
}

/// Before a run of products up to length `len` above [`CACHE_MAX_LEN`]: builds the longest
/// first and returns it (keep it for the run), so the shorter ones are copied out of it rather
/// than each built and then replaced. `None` within the cache's range.
pub(crate) fn reserve(len: usize) -> Option<Arc<[NttTables; 3]>> {
    (len > CACHE_MAX_LEN).then(|| tables(len.min(MAX_PRODUCT_LIMBS)))
}

/// The tables of the three primes at length `len`, built on first use (shared with
/// [`super::ntt_redc`], whose transforms have the same lengths).
///
/// Above [`CACHE_MAX_LEN`] (the setups of 2^22 to 2^25-bit moduli) one set is kept, the
/// longest built so far (96 bytes per entry: 96 MiB at 2^20), and shorter lengths are copied
/// out of it: building the tables again for every product was 30 % of a 10^7-bit setup.
pub(crate) fn tables(len: usize) -> Arc<[NttTables; 3]> {
    if len > CACHE_MAX_LEN {
        static LONGEST: Mutex<Option<Arc<[NttTables; 3]>>> = Mutex::new(None);
        let mut longest = LONGEST
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match longest.as_ref() {
            Some(t) if t[0].len == len => return Arc::clone(t),
            Some(t) if t[0].len > len => return Arc::new(t.each_ref().map(|t| t.prefix(len))),
            _ => {}
        }
        let built = Arc::new(build(len));
        *longest = Some(Arc::clone(&built));
        return built;
    }
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<[NttTables; 3]>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(t) = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(&len)
    {
        return Arc::clone(t);
    }
    let built = Arc::new(build(len));
    let mut guard = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Arc::clone(guard.entry(len).or_insert(built))
}

/// a * b as `len(a) + len(b)` limbs (little-endian).
///
/// # Panics
/// If `len(a) + len(b) > MAX_PRODUCT_LIMBS`.
#[must_use]
pub fn mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    let total = a.len() + b.len();
    assert!(total <= MAX_PRODUCT_LIMBS, "product of {total} limbs");
    if a.is_empty() || b.is_empty() {
        return vec![0; total];
    }
    let len = total.next_power_of_two().max(2);
    let t = tables(len);
    let square = core::ptr::eq(a, b);
    let mut fa = vec![0u64; 3 * len];
    let mut fb = if square {
        Vec::new()
    } else {
        vec![0u64; 3 * len]
    };
    let transform = |dst: &mut [u64], x: &[u64], t: &NttTables| {
        for (d, &v) in dst.iter_mut().zip(x) {
            *d = t.prime.reduce_lazy(v);
        }
        forward(dst, t, false);
    };
    let per_prime = |(j, ca): (usize, &mut [u64]), cb: Option<&mut [u64]>| {
        let tj = &t[j];
        transform(ca, a, tj);
        let cb = cb.map(|cb| {
            transform(cb, b, tj);
            &*cb
        });
        pointwise(tj, ca, cb);
        inverse_products(ca, tj, false);
    };
    if len < PARALLEL_LEN {
        for (j, ca) in fa.chunks_mut(len).enumerate() {
            let cb = (!square).then(|| &mut fb[j * len..(j + 1) * len]);
            per_prime((j, ca), cb);
        }
    } else if square {
        fa.par_chunks_mut(len)
            .enumerate()
            .for_each(|jc| per_prime(jc, None));
    } else {
        fa.par_chunks_mut(len)
            .enumerate()
            .zip(fb.par_chunks_mut(len))
            .for_each(|(jc, cb)| per_prime(jc, Some(cb)));
    }
    let mut out = vec![0u64; len];
    Crt::new().collect_cyc(&mut fa, &mut out);
    out.truncate(total);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(l: &[u64]) -> BigUint {
        BigUint::from_slice(
            &l.iter()
                .flat_map(|&w| [w as u32, (w >> 32) as u32])
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn products_equal_num_bigint() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for &(na, nb) in &[
            (1, 1),
            (1, 7),
            (3, 5),
            (64, 64),
            (200, 17),
            (1000, 1500),
            (4096, 4096),
        ] {
            let a: Vec<u64> = (0..na).map(|_| next()).collect();
            let b: Vec<u64> = (0..nb).map(|_| next()).collect();
            assert_eq!(big(&mul(&a, &b)), big(&a) * big(&b), "{na} x {nb}");
            // All-ones operands: the largest coefficients.
            let (ones_a, ones_b) = (vec![u64::MAX; na], vec![u64::MAX; nb]);
            assert_eq!(big(&mul(&ones_a, &ones_b)), big(&ones_a) * big(&ones_b));
            assert_eq!(big(&mul(&a, &a)), big(&a) * big(&a), "square {na}");
        }
        assert_eq!(mul(&[], &[5]), vec![0]);
    }
}
