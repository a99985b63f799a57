//! The transforms of [`super::ntt`] on AVX-512 IFMA: 8 butterflies per instruction sequence.
//!
//! Contract: the same functions, inputs, outputs and ranges as [`super::ntt::forward_portable`]
//! and [`super::ntt::inverse_portable`]: equal results modulo q (the lazy representatives in
//! [0, 4q) may differ by multiples of q) and identical fully reduced inverse outputs (the tests
//! compare them). Residues lie in
//! [0, 4q) with q < 2^50, so every multiplicand fits the 52-bit lanes of `vpmadd52{lo,hi}uq`.
//! Twiddle products use Shoup's method with 52-bit constants w' = floor(w 2^52 / q)
//! (Harvey 2014, Alg. 2 with beta = 2^52): qhat = hi52(y w'), r = lo52(y w) - lo52(qhat q)
//! mod 2^52, in [0, 2q). Levels with half-length >= 8 run on whole vectors; the last three
//! (half-lengths 4, 2, 1) pair lanes of two neighbouring vectors with `vpermt2q`.
//!
//! Safety boundary: this is the only module with `unsafe`. [`available`] checks the CPU at
//! run time (cached by std); the `unsafe fn`s below are only called after it returned true
//! and after the slice lengths were checked, so every load and store stays inside the slice.
//! Left out: the pointwise products and the CRT (portable code), and non-x86-64 targets.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_loadu_si512, _mm512_madd52hi_epu64,
    _mm512_madd52lo_epu64, _mm512_min_epu64, _mm512_permutex2var_epi64, _mm512_permutexvar_epi64,
    _mm512_set1_epi64, _mm512_setr_epi64, _mm512_setzero_si512, _mm512_storeu_si512,
    _mm512_sub_epi64,
};

use super::ntt::NttTables;

/// Smallest transform length the vector code handles (two vectors of 8 lanes).
pub(crate) const MIN_LEN: usize = 16;

/// True when this CPU runs AVX-512 F and IFMA (checked once by std, then cached).
#[must_use]
pub(crate) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512ifma")
}

/// Forward transform; requires [`available`] and `a.len() == t.len >= MIN_LEN`.
pub(crate) fn forward(a: &mut [u64], t: &NttTables, nega: bool) {
    assert!(available() && a.len() == t.len && t.len >= MIN_LEN && t.zs52.len() == t.len);
    // SAFETY: the CPU features were checked above, and the length checks make every vector
    // access below (offsets < t.len, 8 lanes each) fall inside `a` and the twiddle tables.
    unsafe { forward_ifma(a, t, nega) }
}

/// Inverse transform; requires [`available`] and `a.len() == t.len >= MIN_LEN`.
pub(crate) fn inverse(a: &mut [u64], t: &NttTables, nega: bool) {
    assert!(available() && a.len() == t.len && t.len >= MIN_LEN && t.zis52.len() == t.len);
    // SAFETY: as in `forward`.
    unsafe { inverse_ifma(a, t, nega) }
}

/// Vector constants of one prime.
#[derive(Clone, Copy)]
struct Consts {
    q: __m512i,
    q2: __m512i,
    neg_q: __m512i,
    mask52: __m512i,
    zero: __m512i,
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn consts(q: u64) -> Consts {
    Consts {
        q: _mm512_set1_epi64(q as i64),
        q2: _mm512_set1_epi64((2 * q) as i64),
        neg_q: _mm512_set1_epi64(((1u64 << 52) - q) as i64),
        mask52: _mm512_set1_epi64(((1u64 << 52) - 1) as i64),
        zero: _mm512_setzero_si512(),
    }
}

/// Shoup product y w mod q in [0, 2q) for y < 2^52, 8 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn shoup(y: __m512i, w: __m512i, ws: __m512i, c: Consts) -> __m512i {
    let qhat = _mm512_madd52hi_epu64(c.zero, y, ws);
    let yw = _mm512_madd52lo_epu64(c.zero, y, w);
    // lo52(y w) + lo52(qhat (2^52 - q)) = y w - qhat q (mod 2^52).
    _mm512_and_si512(_mm512_madd52lo_epu64(yw, qhat, c.neg_q), c.mask52)
}

/// x - b if x >= b, else x (unsigned, for x < 2b).
#[inline]
#[target_feature(enable = "avx512f")]
fn reduce_once(x: __m512i, b: __m512i) -> __m512i {
    _mm512_min_epu64(x, _mm512_sub_epi64(x, b))
}

/// Cooley-Tukey butterfly: (u, v) -> (u' + v w, u' - v w + 2q), u' = u mod 2q.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn ct(u: __m512i, v: __m512i, w: __m512i, ws: __m512i, c: Consts) -> (__m512i, __m512i) {
    let u = reduce_once(u, c.q2);
    let t = shoup(v, w, ws, c);
    (
        _mm512_add_epi64(u, t),
        _mm512_sub_epi64(_mm512_add_epi64(u, c.q2), t),
    )
}

/// Gentleman-Sande butterfly: (u, v) -> ((u + v) mod 2q, (u - v + 2q) w).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn gs(u: __m512i, v: __m512i, w: __m512i, ws: __m512i, c: Consts) -> (__m512i, __m512i) {
    let s = reduce_once(_mm512_add_epi64(u, v), c.q2);
    let d = _mm512_sub_epi64(_mm512_add_epi64(u, c.q2), v);
    (s, shoup(d, w, ws, c))
}

/// Lane permutations for the levels with half-length 4, 2, 1 on a pair of vectors (A, B):
/// `x`, `y` pick the low and high butterfly inputs, `a`, `b` put the outputs back, `w`
/// spreads the 8 (or fewer) consecutive twiddles of the pair over the lanes of `x`.
struct Perm {
    x: __m512i,
    y: __m512i,
    a: __m512i,
    b: __m512i,
    w: __m512i,
}

#[target_feature(enable = "avx512f")]
fn perm(half: usize) -> Perm {
    let v = _mm512_setr_epi64;
    match half {
        4 => Perm {
            x: v(0, 1, 2, 3, 8, 9, 10, 11),
            y: v(4, 5, 6, 7, 12, 13, 14, 15),
            a: v(0, 1, 2, 3, 8, 9, 10, 11),
            b: v(4, 5, 6, 7, 12, 13, 14, 15),
            w: v(0, 0, 0, 0, 1, 1, 1, 1),
        },
        2 => Perm {
            x: v(0, 1, 4, 5, 8, 9, 12, 13),
            y: v(2, 3, 6, 7, 10, 11, 14, 15),
            a: v(0, 1, 8, 9, 2, 3, 10, 11),
            b: v(4, 5, 12, 13, 6, 7, 14, 15),
            w: v(0, 0, 1, 1, 2, 2, 3, 3),
        },
        _ => Perm {
            x: v(0, 2, 4, 6, 8, 10, 12, 14),
            y: v(1, 3, 5, 7, 9, 11, 13, 15),
            a: v(0, 8, 1, 9, 2, 10, 3, 11),
            b: v(4, 12, 5, 13, 6, 14, 7, 15),
            w: v(0, 1, 2, 3, 4, 5, 6, 7),
        },
    }
}

/// # Safety
/// AVX-512 F and IFMA present; `a.len() == t.len >= MIN_LEN`, tables of length `t.len`.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn forward_ifma(a: &mut [u64], t: &NttTables, nega: bool) {
    let n = t.len;
    let c = consts(t.prime.q);
    let p = a.as_mut_ptr();
    let mut blocks = 1;
    let mut half = n / 2;
    while half >= 8 {
        for b in 0..blocks {
            let k = if nega { blocks + b } else { b };
            let w = _mm512_set1_epi64(t.z[k] as i64);
            let ws = _mm512_set1_epi64(t.zs52[k] as i64);
            let base = 2 * b * half;
            let mut j = 0;
            while j < half {
                // SAFETY: base + j + half + 8 <= 2 (b + 1) half <= n.
                unsafe {
                    let pu = p.add(base + j).cast::<__m512i>();
                    let pv = p.add(base + j + half).cast::<__m512i>();
                    let (x, y) = ct(_mm512_loadu_si512(pu), _mm512_loadu_si512(pv), w, ws, c);
                    _mm512_storeu_si512(pu, x);
                    _mm512_storeu_si512(pv, y);
                }
                j += 8;
            }
        }
        blocks *= 2;
        half /= 2;
    }
    // half = 4, 2, 1: pairs of vectors, twiddles of consecutive blocks spread over the lanes.
    while half >= 1 {
        let pm = perm(half);
        let k0 = if nega { blocks } else { 0 };
        let mut off = 0;
        while off < n {
            let kb = k0 + off / (2 * half);
            // SAFETY: off + 16 <= n; kb + 8 <= n (see the bound in the module tests).
            unsafe {
                let pa = p.add(off).cast::<__m512i>();
                let pb = p.add(off + 8).cast::<__m512i>();
                let (va, vb) = (_mm512_loadu_si512(pa), _mm512_loadu_si512(pb));
                let wz = _mm512_loadu_si512(t.z.as_ptr().add(kb).cast());
                let wzs = _mm512_loadu_si512(t.zs52.as_ptr().add(kb).cast());
                let (w, ws) = (
                    _mm512_permutexvar_epi64(pm.w, wz),
                    _mm512_permutexvar_epi64(pm.w, wzs),
                );
                let x = _mm512_permutex2var_epi64(va, pm.x, vb);
                let y = _mm512_permutex2var_epi64(va, pm.y, vb);
                let (x, y) = ct(x, y, w, ws, c);
                _mm512_storeu_si512(pa, _mm512_permutex2var_epi64(x, pm.a, y));
                _mm512_storeu_si512(pb, _mm512_permutex2var_epi64(x, pm.b, y));
            }
            off += 16;
        }
        blocks *= 2;
        half /= 2;
    }
}

/// # Safety
/// As [`forward_ifma`].
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn inverse_ifma(a: &mut [u64], t: &NttTables, nega: bool) {
    let n = t.len;
    let c = consts(t.prime.q);
    let p = a.as_mut_ptr();
    let mut blocks = n / 2;
    let mut half = 1;
    while half < 8 {
        let pm = perm(half);
        let k0 = if nega { blocks } else { 0 };
        let mut off = 0;
        while off < n {
            let kb = k0 + off / (2 * half);
            // SAFETY: as in forward_ifma.
            unsafe {
                let pa = p.add(off).cast::<__m512i>();
                let pb = p.add(off + 8).cast::<__m512i>();
                let (va, vb) = (_mm512_loadu_si512(pa), _mm512_loadu_si512(pb));
                let wz = _mm512_loadu_si512(t.zi.as_ptr().add(kb).cast());
                let wzs = _mm512_loadu_si512(t.zis52.as_ptr().add(kb).cast());
                let (w, ws) = (
                    _mm512_permutexvar_epi64(pm.w, wz),
                    _mm512_permutexvar_epi64(pm.w, wzs),
                );
                let x = _mm512_permutex2var_epi64(va, pm.x, vb);
                let y = _mm512_permutex2var_epi64(va, pm.y, vb);
                let (x, y) = gs(x, y, w, ws, c);
                _mm512_storeu_si512(pa, _mm512_permutex2var_epi64(x, pm.a, y));
                _mm512_storeu_si512(pb, _mm512_permutex2var_epi64(x, pm.b, y));
            }
            off += 16;
        }
        blocks /= 2;
        half *= 2;
    }
    while blocks >= 1 {
        for b in 0..blocks {
            let k = if nega { blocks + b } else { b };
            let w = _mm512_set1_epi64(t.zi[k] as i64);
            let ws = _mm512_set1_epi64(t.zis52[k] as i64);
            let base = 2 * b * half;
            let mut j = 0;
            while j < half {
                // SAFETY: base + j + half + 8 <= n.
                unsafe {
                    let pu = p.add(base + j).cast::<__m512i>();
                    let pv = p.add(base + j + half).cast::<__m512i>();
                    let (x, y) = gs(_mm512_loadu_si512(pu), _mm512_loadu_si512(pv), w, ws, c);
                    _mm512_storeu_si512(pu, x);
                    _mm512_storeu_si512(pv, y);
                }
                j += 8;
            }
        }
        blocks /= 2;
        half *= 2;
    }
    // Scale by P^-1 2^64 and reduce fully.
    let w = _mm512_set1_epi64(t.scale as i64);
    let ws = _mm512_set1_epi64(t.scale_s52 as i64);
    let mut off = 0;
    while off < n {
        // SAFETY: off + 8 <= n.
        unsafe {
            let pa = p.add(off).cast::<__m512i>();
            let r = shoup(_mm512_loadu_si512(pa), w, ws, c);
            _mm512_storeu_si512(pa, reduce_once(r, c.q));
        }
        off += 8;
    }
}

#[cfg(test)]
mod tests {
    use super::super::ntt::{forward_portable, inverse_portable};
    use super::*;

    #[test]
    fn twiddle_reads_stay_in_the_table() {
        // The pair loop reads 8 twiddles from k0 + off / (2 half); the largest start is
        // blocks + (n - 16) / (2 half) with blocks = n / (2 half), so the last index is
        // n / (2 half) + (n - 16) / (2 half) + 7 < n for half >= 1 and n >= 16.
        for n in [16usize, 32, 1024] {
            for half in [4usize, 2, 1] {
                let blocks = n / (2 * half);
                assert!(blocks + (n - 16) / (2 * half) + 8 <= n, "n={n} half={half}");
            }
        }
    }

    #[test]
    fn matches_portable_transforms() {
        if !available() {
            eprintln!("AVX-512 IFMA not available: the portable transforms run instead");
            return;
        }
        let mut seed = 0x00c0_ffeeu64;
        for which in 0..3 {
            for len in [16usize, 32, 64, 256, 2048] {
                let t = NttTables::new(which, len);
                let q = t.prime.q;
                for nega in [false, true] {
                    let a: Vec<u64> = (0..len)
                        .map(|_| {
                            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                            (seed >> 12) % (4 * q)
                        })
                        .collect();
                    let (mut x, mut y) = (a.clone(), a.clone());
                    forward(&mut x, &t, nega);
                    forward_portable(&mut y, &t, nega);
                    for (i, (u, v)) in x.iter().zip(&y).enumerate() {
                        assert!(*u < 4 * q, "forward range");
                        assert_eq!(
                            u % q,
                            v % q,
                            "forward prime {which} len {len} nega {nega} i {i}"
                        );
                    }
                    // Inverse inputs must lie in [0, 2q).
                    for v in x.iter_mut() {
                        *v %= 2 * q;
                    }
                    let mut y = x.clone();
                    inverse(&mut x, &t, nega);
                    inverse_portable(&mut y, &t, nega);
                    assert_eq!(x, y, "inverse prime {which} len {len} nega {nega}");
                }
            }
        }
    }
}
