//! The transforms of [`super::ntt`] on AVX-512 IFMA: 8 butterflies per instruction sequence.
//!
//! Contract: the same functions, inputs, outputs and ranges as [`super::ntt::forward_portable`]
//! and [`super::ntt::inverse_portable`]: equal results modulo q (the lazy representatives in
//! [0, 4q) may differ by multiples of q) and identical fully reduced inverse outputs (the tests
//! compare them). Residues lie in
//! [0, 4q) with q < 2^50, so every multiplicand fits the 52-bit lanes of `vpmadd52{lo,hi}uq`.
//! Twiddle products use Shoup's method with 52-bit constants w' = floor(w 2^52 / q)
//! (Harvey 2014, Alg. 2 with beta = 2^52): qhat = hi52(y w'), r = lo52(y w) - lo52(qhat q)
//! mod 2^52, in [0, 2q). Levels with half-length >= 8 run on whole vectors, two levels per
//! pass over the data (four vectors per step, half the loads and stores); the last three
//! (half-lengths 4, 2, 1) pair lanes of two neighbouring vectors with `vpermt2q`. The
//! inverse's final factor (P^-1 2^64) is folded into its last level's twiddles.
//!
//! Pointwise products ([`pointwise`]): Montgomery's REDC with R = 2^52 on 52-bit lanes,
//! a b 2^-52 mod q in [0, 2q) for a, b < 4q; [`inverse52`] scales by P^-1 2^52 instead of
//! P^-1 2^64 to undo that factor, so the coefficients equal the portable path's. [`load`]
//! reduces 64-bit limbs x = x_lo + x_hi 2^52 as (x_lo mod 2q) + x_hi (2^52 mod q) < 4q.
//!
//! Timing: every branch and address depends on lengths alone (lazy reductions are `vpminuq`
//! selects), so `pow_sec` runs on these loops through the spectral kernel.
//!
//! Safety boundary: with `ifma_crt`, the only modules with `unsafe`. [`available`] checks the
//! CPU at run time (cached by std); the `unsafe fn`s below are only called after it returned
//! true and after the slice lengths were checked, so every load and store stays inside the
//! slice. Left out: the CRT (`ifma_crt`), and non-x86-64 targets.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_loadu_si512, _mm512_madd52hi_epu64,
    _mm512_madd52lo_epu64, _mm512_min_epu64, _mm512_permutex2var_epi64, _mm512_permutexvar_epi64,
    _mm512_set1_epi64, _mm512_setr_epi64, _mm512_setzero_si512, _mm512_srli_epi64,
    _mm512_storeu_si512, _mm512_sub_epi64,
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
    unsafe { inverse_ifma(a, t, nega, 0) }
}

/// Inverse transform with the final factor P^-1 2^52 (after [`pointwise`] products); as
/// [`inverse`] otherwise.
pub(crate) fn inverse52(a: &mut [u64], t: &NttTables, nega: bool) {
    assert!(available() && a.len() == t.len && t.len >= MIN_LEN && t.zis52.len() == t.len);
    // SAFETY: as in `forward`.
    unsafe { inverse_ifma(a, t, nega, 1) }
}

/// Position-wise 52-bit Montgomery products modulo `q`: `dst = a (.) b`, or with `c`,
/// `dst = a (.) b + dst (.) c` (the old `dst` is read first). Inputs in [0, 4q), outputs
/// (a b 2^-52 mod q, or the sum of two) in [0, 2q). `a = None` multiplies `dst` in place.
///
/// # Panics
/// If the CPU lacks IFMA, or the slice lengths differ or are not a multiple of 8.
pub(crate) fn pointwise(dst: &mut [u64], a: Option<&[u64]>, b: &[u64], c: Option<&[u64]>, q: u64) {
    let n = dst.len();
    assert!(available() && n.is_multiple_of(8) && b.len() == n);
    assert!(a.is_none_or(|a| a.len() == n) && c.is_none_or(|c| c.len() == n));
    let d = dst.as_mut_ptr();
    let a = a.map_or(d.cast_const(), <[u64]>::as_ptr);
    let c = c.map_or(core::ptr::null(), <[u64]>::as_ptr);
    // SAFETY: the CPU features were checked; every pointer addresses n = 8k entries (shared
    // slices cannot alias the exclusive `dst`, except `a` = `d` itself, read lane-wise
    // before the store to the same lanes).
    unsafe { mont52_ifma(d, a, b.as_ptr(), c, n, q) }
}

/// Reduces the 64-bit limbs of `x` into `dst` (one prime), residues in [0, 4q).
///
/// # Panics
/// If the CPU lacks IFMA, or the lengths differ or are not a multiple of 8.
pub(crate) fn load(dst: &mut [u64], x: &[u64], q: u64) {
    let n = dst.len();
    assert!(available() && n.is_multiple_of(8) && x.len() == n);
    // SAFETY: the CPU features were checked; both slices have n = 8k entries.
    unsafe { load_ifma(dst, x, q) }
}

/// # Safety
/// AVX-512 F and IFMA present; `d`, `a`, `b` (and `c` unless null) valid for `n` entries,
/// `n` a multiple of 8; `d` may equal `a`, no other overlap.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn mont52_ifma(d: *mut u64, a: *const u64, b: *const u64, c: *const u64, n: usize, q: u64) {
    let k = consts(q);
    // q^-1 mod 2^52 (q odd): Newton's iteration doubles the correct low bits from 3.
    let mut inv = q;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(q.wrapping_mul(inv)));
    }
    let qinv = _mm512_set1_epi64((inv & ((1 << 52) - 1)) as i64);
    let mut off = 0;
    while off < n {
        // SAFETY: off + 8 <= n for every pointer (contract above).
        unsafe {
            let x = _mm512_loadu_si512(a.add(off).cast());
            let y = _mm512_loadu_si512(b.add(off).cast());
            let r = if c.is_null() {
                _mm512_add_epi64(redc52(x, y, qinv, k), k.q)
            } else {
                let u = _mm512_loadu_si512(d.add(off).cast_const().cast());
                let z = _mm512_loadu_si512(c.add(off).cast());
                let s = _mm512_add_epi64(redc52(x, y, qinv, k), redc52(u, z, qinv, k));
                reduce_once(_mm512_add_epi64(s, k.q2), k.q2)
            };
            _mm512_storeu_si512(d.add(off).cast(), r);
        }
        off += 8;
    }
}

/// x y 2^-52 mod q in (-q, q) (signed lanes) for x, y < 4q: both are first reduced below 2q,
/// so x y < 4 q^2 and the high half hi52(x y) < q. With m = lo52(lo52(x y) q^-1), the low
/// halves of x y and m q agree, and x y - m q = (hi52(x y) - hi52(m q)) 2^52 exactly.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn redc52(x: __m512i, y: __m512i, qinv: __m512i, c: Consts) -> __m512i {
    let x = reduce_once(x, c.q2);
    let y = reduce_once(y, c.q2);
    let lo = _mm512_madd52lo_epu64(c.zero, x, y);
    let hi = _mm512_madd52hi_epu64(c.zero, x, y);
    let m = _mm512_madd52lo_epu64(c.zero, lo, qinv);
    _mm512_sub_epi64(hi, _mm512_madd52hi_epu64(c.zero, m, c.q))
}

/// # Safety
/// AVX-512 F and IFMA present; `dst.len() == x.len()`, a multiple of 8.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn load_ifma(dst: &mut [u64], x: &[u64], q: u64) {
    let k = consts(q);
    // 2^52 mod q = 2^52 - 4q (4q < 2^52 < 5q); x_hi < 2^12, so x_hi c < 2^42 and the sum is
    // below 2^52 - 2q + 2^42 < 4q.
    let c = _mm512_set1_epi64(((1u64 << 52) - 4 * q) as i64);
    let mut off = 0;
    while off < dst.len() {
        // SAFETY: off + 8 <= len of both slices.
        unsafe {
            let v = _mm512_loadu_si512(x.as_ptr().add(off).cast());
            let lo = reduce_once(_mm512_and_si512(v, k.mask52), k.q2);
            let r = _mm512_madd52lo_epu64(lo, _mm512_srli_epi64::<52>(v), c);
            _mm512_storeu_si512(dst.as_mut_ptr().add(off).cast(), r);
        }
        off += 8;
    }
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
pub(super) fn reduce_once(x: __m512i, b: __m512i) -> __m512i {
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

/// The inverse's last butterfly with its final factor s folded in: (u, v) -> ((u + v) s,
/// (u - v + 2q) w s), both fully reduced; `fin` = [s, s', w s, (w s)'] (52-bit Shoup
/// constants). u + v and u - v + 2q lie below 4q < 2^52.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn gs_last(u: __m512i, v: __m512i, fin: [__m512i; 4], c: Consts) -> (__m512i, __m512i) {
    let s = _mm512_add_epi64(u, v);
    let d = _mm512_sub_epi64(_mm512_add_epi64(u, c.q2), v);
    (
        reduce_once(shoup(s, fin[0], fin[1], c), c.q),
        reduce_once(shoup(d, fin[2], fin[3], c), c.q),
    )
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
    // Whole-vector levels (half >= 8): one alone if their count is odd, then pairs.
    if (n / 8).trailing_zeros() % 2 == 1 {
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
    while half >= 16 {
        // Two levels per pass: block b of this level (twiddle k1), then its halves, blocks 2b
        // and 2b + 1 of the next (twiddles k2, k2 + 1), on four vectors a quarter block apart.
        for b in 0..blocks {
            let k1 = if nega { blocks + b } else { b };
            let k2 = if nega { 2 * (blocks + b) } else { 2 * b };
            let bc = |k: usize| {
                (
                    _mm512_set1_epi64(t.z[k] as i64),
                    _mm512_set1_epi64(t.zs52[k] as i64),
                )
            };
            let ((w1, w1s), (w2, w2s), (w3, w3s)) = (bc(k1), bc(k2), bc(k2 + 1));
            let (base, h2) = (2 * b * half, half / 2);
            let mut j = 0;
            while j < h2 {
                // SAFETY: base + j + 3 h2 + 8 <= base + 2 half = 2 (b + 1) half <= n.
                unsafe {
                    let p0 = p.add(base + j).cast::<__m512i>();
                    let p1 = p.add(base + j + h2).cast::<__m512i>();
                    let p2 = p.add(base + j + half).cast::<__m512i>();
                    let p3 = p.add(base + j + half + h2).cast::<__m512i>();
                    let (x0, x1) = (_mm512_loadu_si512(p0), _mm512_loadu_si512(p1));
                    let (x2, x3) = (_mm512_loadu_si512(p2), _mm512_loadu_si512(p3));
                    let (x0, x2) = ct(x0, x2, w1, w1s, c);
                    let (x1, x3) = ct(x1, x3, w1, w1s, c);
                    let (x0, x1) = ct(x0, x1, w2, w2s, c);
                    let (x2, x3) = ct(x2, x3, w3, w3s, c);
                    _mm512_storeu_si512(p0, x0);
                    _mm512_storeu_si512(p1, x1);
                    _mm512_storeu_si512(p2, x2);
                    _mm512_storeu_si512(p3, x3);
                }
                j += 8;
            }
        }
        blocks *= 4;
        half /= 4;
    }
    // half = 4, 2, 1: pairs of vectors, twiddles of consecutive blocks spread over the lanes.
    while half >= 1 {
        // SAFETY: as above; the pass's bounds are stated in `pair_level`.
        unsafe { pair_level::<true>(p, n, half, if nega { blocks } else { 0 }, &t.z, &t.zs52, c) };
        blocks *= 2;
        half /= 2;
    }
}

/// One level with half-length 4, 2 or 1 over pairs of vectors (8 butterflies per pair, the
/// twiddles of consecutive blocks spread over the lanes): Cooley-Tukey with `z`/`zs` when
/// `FORWARD`, else Gentleman-Sande with the inverse twiddles; block b uses twiddle k0 + b.
///
/// # Safety
/// AVX-512 F and IFMA present; `p` points to `n` residues, `n` a multiple of 16, and
/// `k0 + n / (2 half) + 8 <= z.len() = zs.len()` (see the bound in the module tests).
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn pair_level<const FORWARD: bool>(
    p: *mut u64,
    n: usize,
    half: usize,
    k0: usize,
    z: &[u64],
    zs: &[u64],
    c: Consts,
) {
    let pm = perm(half);
    let mut off = 0;
    while off < n {
        let kb = k0 + off / (2 * half);
        // SAFETY: off + 16 <= n; kb + 8 <= z.len() by the contract.
        unsafe {
            let pa = p.add(off).cast::<__m512i>();
            let pb = p.add(off + 8).cast::<__m512i>();
            let (va, vb) = (_mm512_loadu_si512(pa), _mm512_loadu_si512(pb));
            let wz = _mm512_loadu_si512(z.as_ptr().add(kb).cast());
            let wzs = _mm512_loadu_si512(zs.as_ptr().add(kb).cast());
            let (w, ws) = (
                _mm512_permutexvar_epi64(pm.w, wz),
                _mm512_permutexvar_epi64(pm.w, wzs),
            );
            let x = _mm512_permutex2var_epi64(va, pm.x, vb);
            let y = _mm512_permutex2var_epi64(va, pm.y, vb);
            let (x, y) = if FORWARD {
                ct(x, y, w, ws, c)
            } else {
                gs(x, y, w, ws, c)
            };
            _mm512_storeu_si512(pa, _mm512_permutex2var_epi64(x, pm.a, y));
            _mm512_storeu_si512(pb, _mm512_permutex2var_epi64(x, pm.b, y));
        }
        off += 16;
    }
}

/// # Safety
/// As [`forward_ifma`]; `scale` picks the final factor (0: P^-1 2^64, 1: P^-1 2^52).
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn inverse_ifma(a: &mut [u64], t: &NttTables, nega: bool, scale: usize) {
    let n = t.len;
    let c = consts(t.prime.q);
    let p = a.as_mut_ptr();
    let mut blocks = n / 2;
    let mut half = 1;
    while half < 8 {
        // SAFETY: as in forward_ifma.
        unsafe {
            pair_level::<false>(
                p,
                n,
                half,
                if nega { blocks } else { 0 },
                &t.zi,
                &t.zis52,
                c,
            )
        };
        blocks /= 2;
        half *= 2;
    }
    // The last level (one block, twiddle zi[k], k = 1 if nega else 0) takes in the final factor
    // s: outputs (u + v) s and (u - v) zi[k] s, fully reduced; no separate pass.
    let fin = t.last52[scale][usize::from(nega)].map(|x| _mm512_set1_epi64(x as i64));
    while blocks >= 2 {
        // Two levels per pass: blocks 2b and 2b + 1 of this level (twiddles k1, k1 + 1), then
        // block b of the next (twiddle k2), on four vectors `half` apart.
        let last = blocks == 2;
        for b in 0..blocks / 2 {
            let k1 = if nega { blocks + 2 * b } else { 2 * b };
            let k2 = if nega { blocks / 2 + b } else { b };
            let bc = |k: usize| {
                (
                    _mm512_set1_epi64(t.zi[k] as i64),
                    _mm512_set1_epi64(t.zis52[k] as i64),
                )
            };
            let ((w1, w1s), (w2, w2s), (w3, w3s)) = (bc(k1), bc(k1 + 1), bc(k2));
            let base = 4 * b * half;
            let mut j = 0;
            while j < half {
                // SAFETY: base + j + 3 half + 8 <= 4 (b + 1) half <= 2 blocks half = n.
                unsafe {
                    let p0 = p.add(base + j).cast::<__m512i>();
                    let p1 = p.add(base + j + half).cast::<__m512i>();
                    let p2 = p.add(base + j + 2 * half).cast::<__m512i>();
                    let p3 = p.add(base + j + 3 * half).cast::<__m512i>();
                    let (x0, x1) = (_mm512_loadu_si512(p0), _mm512_loadu_si512(p1));
                    let (x2, x3) = (_mm512_loadu_si512(p2), _mm512_loadu_si512(p3));
                    let (x0, x1) = gs(x0, x1, w1, w1s, c);
                    let (x2, x3) = gs(x2, x3, w2, w2s, c);
                    let ((x0, x2), (x1, x3)) = if last {
                        (gs_last(x0, x2, fin, c), gs_last(x1, x3, fin, c))
                    } else {
                        (gs(x0, x2, w3, w3s, c), gs(x1, x3, w3, w3s, c))
                    };
                    _mm512_storeu_si512(p0, x0);
                    _mm512_storeu_si512(p1, x1);
                    _mm512_storeu_si512(p2, x2);
                    _mm512_storeu_si512(p3, x3);
                }
                j += 8;
            }
        }
        blocks /= 4;
        half *= 4;
    }
    // The last level alone when the count of whole-vector levels is odd.
    if blocks == 1 {
        debug_assert_eq!(2 * half, n);
        let mut j = 0;
        while j < half {
            // SAFETY: j + half + 8 <= n.
            unsafe {
                let pu = p.add(j).cast::<__m512i>();
                let pv = p.add(j + half).cast::<__m512i>();
                let (x, y) = gs_last(_mm512_loadu_si512(pu), _mm512_loadu_si512(pv), fin, c);
                _mm512_storeu_si512(pu, x);
                _mm512_storeu_si512(pv, y);
            }
            j += 8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::ntt::{forward_portable, inverse_portable};
    use super::super::prime::mul_mod;
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

    /// Extreme and random lane values below `bound`.
    fn samples(bound: u64, len: usize, seed: &mut u64) -> Vec<u64> {
        let edges = [0, 1, 2, bound / 2, bound / 4, bound - 2, bound - 1];
        (0..len)
            .map(|i| {
                *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                if i % 3 == 0 {
                    edges[(*seed >> 40) as usize % edges.len()]
                } else {
                    (*seed >> 7) % bound
                }
            })
            .collect()
    }

    #[test]
    fn pointwise_and_load_match_portable() {
        if !crate::mont::amm::ifma_or_skip("pointwise_and_load_match_portable") {
            return;
        }
        let mut seed = 0x5eed_u64;
        for which in 0..3 {
            let t = NttTables::new(which, 64);
            let (q, pr) = (t.prime.q, &t.prime);
            let r52 = super::super::prime::pow_mod(2, 52, q);
            let len = 64;
            let (a, b, c) = (
                samples(4 * q, len, &mut seed),
                samples(4 * q, len, &mut seed),
                samples(4 * q, len, &mut seed),
            );
            // 2^52 (a b 2^-52) = a b (mod q), outputs in [0, 2q).
            let mut d = vec![0; len];
            pointwise(&mut d, Some(&a), &b, None, q);
            let mut e = a.clone();
            pointwise(&mut e, None, &b, None, q);
            assert_eq!(d, e, "in place");
            let mut f = a.clone();
            pointwise(&mut f, Some(&b), &c, Some(&b), q);
            for i in 0..len {
                assert!(d[i] < 2 * q && f[i] < 2 * q, "range prime {which}");
                let want = mul_mod(a[i] % q, b[i] % q, q);
                assert_eq!(mul_mod(d[i], r52, q), want, "product prime {which} i {i}");
                let sum = (mul_mod(b[i] % q, c[i] % q, q) + want) % q;
                assert_eq!(mul_mod(f[i], r52, q), sum, "sum prime {which} i {i}");
            }
            // Loads: residues in [0, 4q), congruent to the limbs.
            let mut x = samples(u64::MAX, len, &mut seed);
            x[..8].copy_from_slice(&[
                u64::MAX,
                (1 << 52) - 1,
                4 * q,
                (1 << 52) - 1 + (u64::MAX << 52),
                q,
                2 * q,
                0,
                1 << 63,
            ]);
            let mut r = vec![0; len];
            load(&mut r, &x, q);
            for (i, (&ri, &xi)) in r.iter().zip(&x).enumerate() {
                assert!(ri < 4 * q, "load range prime {which} i {i}");
                assert_eq!(ri % q, xi % q, "load prime {which} i {i}");
                assert_eq!(pr.reduce_lazy(xi) % q, ri % q);
            }
        }
    }

    #[test]
    fn products_with_inverse52_match_portable() {
        if !crate::mont::amm::ifma_or_skip("products_with_inverse52_match_portable") {
            return;
        }
        let mut seed = 0xfeed_u64;
        for which in 0..3 {
            for len in [16usize, 128, 1024] {
                let t = NttTables::new(which, len);
                let q = t.prime.q;
                for nega in [false, true] {
                    let a = samples(4 * q, len, &mut seed);
                    let b = samples(4 * q, len, &mut seed);
                    let (mut fa, mut fb) = (a.clone(), b.clone());
                    forward(&mut fa, &t, nega);
                    forward(&mut fb, &t, nega);
                    let mut want: Vec<u64> = fa
                        .iter()
                        .zip(&fb)
                        .map(|(&x, &y)| t.prime.mont_mul(x, y))
                        .collect();
                    inverse_portable(&mut want, &t, nega);
                    let mut got = fa.clone();
                    pointwise(&mut got, None, &fb, None, q);
                    inverse52(&mut got, &t, nega);
                    assert_eq!(got, want, "prime {which} len {len} nega {nega}");
                }
            }
        }
    }

    #[test]
    fn matches_portable_transforms() {
        if !crate::mont::amm::ifma_or_skip("matches_portable_transforms") {
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
