//! The transforms of [`super::ntt`] and the spectral kernel's pointwise products on AVX2 and
//! FMA in double precision: 4 butterflies or products per instruction sequence, for x86-64 CPUs
//! without AVX-512 IFMA.
//!
//! Contract: the same functions, inputs, outputs and ranges as [`super::ntt::forward_portable`]
//! and [`super::ntt::inverse_portable`]: equal results modulo q (the forward transform's lazy
//! representatives in [0, 4q) may differ by multiples of q) and identical fully reduced inverse
//! outputs (the tests compare them).
//!
//! Arithmetic: the primes are below 2^50, so residues are exact in a double (53-bit
//! significand). Inside a transform they are signed doubles of magnitude below 1.6q; the entry
//! and exit passes convert from and to the `u64` ranges (x - 2q for the forward transform's
//! [0, 4q), x - q for the inverse's [0, 2q)). A twiddle product x w mod q, for |x| < 2^51 and
//! w < q, takes h = x w rounded, l = fma(x, w, -h) = x w - h exactly (the product's low part),
//! k = round(x (w/q)) with w/q precomputed, and r = fma(-k, q, h) + l = x w - k q, exact because
//! it is an integer of magnitude below 2^51; k is within 1/2 + 2^-52 |x w / q| of x w / q, so
//! |r| <= q (J. van der Hoeven, G. Lecerf, G. Quintin, "Modular SIMD arithmetic in Mathemagix",
//! ACM TOMS 43(1), 2016, sec. 3; FLINT's `fft_small` uses the same products). A sum is brought
//! back below q/2 + 1 by x - round(x / q) q. Forward (Cooley-Tukey): u = reduce(x), r = y w,
//! (u + r, u - r), all below 1.6q. Inverse (Gentleman-Sande): (reduce(u + v), (u - v) w) below q;
//! the final factor (P^-1 2^64, or P^-1 after plain pointwise products) is one more product,
//! then a masked add and subtract of q give [0, q). Rounding is to nearest even, and no value
//! is subnormal, so the timing does not depend on the values: no branch or index does either
//! (`pow_sec` runs these loops).
//!
//! Layout: levels with half-length >= 4 run on whole vectors with one twiddle per block; the
//! half-length 2 and 1 levels pair the lanes of two neighbouring vectors (`vperm2f128`, and
//! `vunpck{l,h}pd` with the twiddles permuted to match).
//!
//! Pointwise products ([`pointwise`]): x y mod q, in [0, 2q), by the product above with 1/q in
//! place of w/q (both operands first brought below 2q). They are plain products, without the
//! portable `Prime::mont_mul`'s factor 2^-64: their inverse transform ([`inverse_plain`]) scales
//! by P^-1 instead of P^-1 2^64, so the results equal the portable path's.
//!
//! Safety boundary: with `ifma` and `ifma_crt`, the only modules with `unsafe`. [`available`]
//! checks the CPU at run time (cached by std); the `unsafe fn`s below are only called after it
//! returned true and after the slice lengths were checked, so every load and store stays inside
//! the slice. Left out: the CRT (Garner's digits in `avx2_crt`), and non-x86-64 targets.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, __m256d, __m256i, _mm256_add_pd, _mm256_and_pd, _mm256_castpd128_pd256,
    _mm256_castpd_si256, _mm256_castsi128_si256, _mm256_castsi256_pd, _mm256_cmp_pd,
    _mm256_fmsub_pd, _mm256_fnmadd_pd, _mm256_loadu_pd, _mm256_loadu_si256, _mm256_mul_pd,
    _mm256_or_si256, _mm256_permute2f128_pd, _mm256_permute4x64_epi64, _mm256_permute4x64_pd,
    _mm256_round_pd, _mm256_set1_epi64x, _mm256_set1_pd, _mm256_storeu_pd, _mm256_storeu_si256,
    _mm256_sub_pd, _mm256_unpackhi_pd, _mm256_unpacklo_pd, _mm256_xor_si256, _mm_loadu_pd,
    _mm_loadu_si128, _CMP_GE_OQ, _CMP_LT_OQ, _MM_FROUND_NO_EXC, _MM_FROUND_TO_NEAREST_INT,
};

use super::ntt::NttTables;

/// Smallest transform length the vector code handles (the last levels take 8 entries a step).
pub(crate) const MIN_LEN: usize = 16;

/// 2^52: `x | bits(2^52)` read as a double is 2^52 + x for x < 2^52.
const TWO52: f64 = 4_503_599_627_370_496.0;
const TWO52_BITS: i64 = 0x4330_0000_0000_0000;

/// True when this CPU runs AVX2 and FMA (checked once by std, then cached).
#[must_use]
pub(crate) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// Plain position-wise products: `dst = a (.) b`, or with `c`, `dst = a (.) b + dst (.) c` (the
/// old `dst` read first), modulo q, for inputs in [0, 4q); outputs in [0, 2q). Unlike
/// [`super::prime::Prime::mont_mul`] they leave no factor 2^-64: [`inverse_plain`] is their
/// inverse transform. `a = None` multiplies `dst` in place.
///
/// # Panics
/// If the CPU lacks AVX2 or FMA, or the slice lengths differ or are not a multiple of 4.
pub(crate) fn pointwise(dst: &mut [u64], a: Option<&[u64]>, b: &[u64], c: Option<&[u64]>, q: u64) {
    let n = dst.len();
    assert!(available() && n.is_multiple_of(4) && b.len() == n);
    assert!(a.is_none_or(|a| a.len() == n) && c.is_none_or(|c| c.len() == n));
    let d = dst.as_mut_ptr();
    let a = a.map_or(d.cast_const(), <[u64]>::as_ptr);
    let c = c.map_or(core::ptr::null(), <[u64]>::as_ptr);
    // SAFETY: the CPU features were checked; every pointer addresses n = 4k entries (shared
    // slices cannot alias the exclusive `dst`, except `a` = `d` itself, read lane-wise before
    // the store to the same lanes).
    unsafe { pointwise_avx2(d, a, b.as_ptr(), c, n, q) }
}

/// Plain position-wise squares in place, `dst = dst (.) dst` modulo q, as [`pointwise`].
///
/// # Panics
/// If the CPU lacks AVX2 or FMA, or the length is not a multiple of 4.
pub(crate) fn square(dst: &mut [u64], q: u64) {
    let n = dst.len();
    assert!(available() && n.is_multiple_of(4));
    let d = dst.as_mut_ptr();
    // SAFETY: the CPU features were checked; `d` addresses n = 4k entries, read lane-wise as
    // both factors before the store to the same lanes.
    unsafe { pointwise_avx2(d, d, d, core::ptr::null(), n, q) }
}

/// # Safety
/// AVX2 and FMA present; `d`, `a`, `b` (and `c` unless null) valid for `n` entries, `n` a
/// multiple of 4; `d` may equal `a` and `b`, no other overlap.
#[target_feature(enable = "avx2,fma")]
unsafe fn pointwise_avx2(
    d: *mut u64,
    a: *const u64,
    b: *const u64,
    c: *const u64,
    n: usize,
    q: u64,
) {
    let k = Consts::new(q as f64);
    let q2 = _mm256_set1_pd(2.0 * q as f64);
    for off in (0..n).step_by(4) {
        // SAFETY: off + 4 <= n for every pointer (contract above).
        unsafe {
            let x = to_pd(_mm256_loadu_si256(a.add(off).cast::<__m256i>()));
            let y = to_pd(_mm256_loadu_si256(b.add(off).cast::<__m256i>()));
            let mut v = mul_q(x, y, k, q2);
            if c.is_null() {
                // [-2q, 2q] to [0, 2q).
                v = sub_if_at_least(add_if_negative(v, q2), q2);
            } else {
                let u = to_pd(_mm256_loadu_si256(
                    d.add(off).cast_const().cast::<__m256i>(),
                ));
                let z = to_pd(_mm256_loadu_si256(c.add(off).cast::<__m256i>()));
                // [-4q, 4q] to [-q/2 - 1, q/2 + 1], then to [0, q].
                v = add_if_negative(reduce(_mm256_add_pd(v, mul_q(u, z, k, q2)), k), k.q);
            }
            _mm256_storeu_si256(d.add(off).cast::<__m256i>(), to_epi64(v));
        }
    }
}

/// x y mod q in [-2q, 2q], for x, y in [0, 4q) (exact doubles). Both operands are first
/// brought below 2q, so x y < 4 q^2 < 2^101; with h = x y rounded and l = fma(x, y, -h) its
/// exact low part, k = round(h (1/q)) is within 2 of x y / q (three roundings of relative size
/// 2^-53 on a quotient below 2^52), so t = fma(-k, q, h) + l = x y - k q is exact and
/// |t| <= 2q < 2^51.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn mul_q(x: __m256d, y: __m256d, c: Consts, q2: __m256d) -> __m256d {
    let (x, y) = (sub_if_at_least(x, q2), sub_if_at_least(y, q2));
    let h = _mm256_mul_pd(x, y);
    let l = _mm256_fmsub_pd(x, y, h);
    let k = _mm256_round_pd::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm256_mul_pd(
        h, c.qinv,
    ));
    _mm256_add_pd(_mm256_fnmadd_pd(k, c.q, h), l)
}

/// Forward transform; requires [`available`] and `a.len() == t.len >= MIN_LEN`.
pub(crate) fn forward(a: &mut [u64], t: &NttTables, nega: bool) {
    assert!(available() && a.len() == t.len && t.len >= MIN_LEN && t.zfq.len() == t.len);
    // SAFETY: the CPU features were checked above, and the length checks make every vector
    // access below (offsets < t.len, 4 lanes each) fall inside `a` and the twiddle tables.
    unsafe { forward_avx2(a, t, nega) }
}

/// Inverse transform; requires [`available`] and `a.len() == t.len >= MIN_LEN`.
pub(crate) fn inverse(a: &mut [u64], t: &NttTables, nega: bool) {
    assert!(available() && a.len() == t.len && t.len >= MIN_LEN && t.zifq.len() == t.len);
    // SAFETY: as in `forward`.
    unsafe { inverse_avx2(a, t, nega, t.scale) }
}

/// Inverse transform of [`pointwise`]'s plain products: [`inverse`] with the final factor
/// P^-1 in place of P^-1 2^64 (equal to [`inverse`] of the Montgomery products' 2^-64 times
/// these). Requires as [`inverse`].
pub(crate) fn inverse_plain(a: &mut [u64], t: &NttTables, nega: bool) {
    assert!(available() && a.len() == t.len && t.len >= MIN_LEN && t.zifq.len() == t.len);
    // SAFETY: as in `forward`.
    unsafe { inverse_avx2(a, t, nega, t.scale_plain) }
}

/// A prime and 1/q in every lane.
#[derive(Clone, Copy)]
pub(super) struct Consts {
    pub(super) q: __m256d,
    qinv: __m256d,
}

/// x - round(x / q) q, for integers |x| < 2^52 (so |x / q| < 2^3 and the quotient's rounding
/// error is about 2^-50): below q/2 + 1 in magnitude, exact.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn reduce(x: __m256d, c: Consts) -> __m256d {
    let k = _mm256_round_pd::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm256_mul_pd(
        x, c.qinv,
    ));
    _mm256_fnmadd_pd(k, c.q, x)
}

/// x w mod q with |result| <= q, for |x| < 2^51, w < q and wq = w / q (see the contract).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn mulmod(x: __m256d, w: __m256d, wq: __m256d, c: Consts) -> __m256d {
    let h = _mm256_mul_pd(x, w);
    let l = _mm256_fmsub_pd(x, w, h);
    let k =
        _mm256_round_pd::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm256_mul_pd(x, wq));
    _mm256_add_pd(_mm256_fnmadd_pd(k, c.q, h), l)
}

/// Forward (Cooley-Tukey) butterfly: (u + r, u - r) with u = reduce(x), r = y w mod q.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn ct(x: __m256d, y: __m256d, w: __m256d, wq: __m256d, c: Consts) -> (__m256d, __m256d) {
    let u = reduce(x, c);
    let r = mulmod(y, w, wq, c);
    (_mm256_add_pd(u, r), _mm256_sub_pd(u, r))
}

/// Inverse (Gentleman-Sande) butterfly: (reduce(x + y), (x - y) w mod q).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn gs(x: __m256d, y: __m256d, w: __m256d, wq: __m256d, c: Consts) -> (__m256d, __m256d) {
    (
        reduce(_mm256_add_pd(x, y), c),
        mulmod(_mm256_sub_pd(x, y), w, wq, c),
    )
}

/// Converts `a` in place from `u64` below 2^52 to doubles, minus `shift`.
///
/// # Safety
/// AVX2 present; `a.len()` a multiple of 4.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn to_f64(a: &mut [u64], shift: f64) {
    let off = _mm256_set1_pd(shift);
    let p = a.as_mut_ptr();
    for i in (0..a.len()).step_by(4) {
        let x = _mm256_loadu_si256(p.add(i).cast::<__m256i>());
        _mm256_storeu_pd(p.add(i).cast::<f64>(), _mm256_sub_pd(to_pd(x), off));
    }
}

/// Converts `a` in place from doubles x with 0 <= x + `shift` < 2^52 (integers) to the `u64`
/// values x + `shift`.
///
/// # Safety
/// AVX2 present; `a.len()` a multiple of 4.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn to_u64(a: &mut [u64], shift: f64) {
    let off = _mm256_set1_pd(TWO52 + shift);
    let p = a.as_mut_ptr();
    for i in (0..a.len()).step_by(4) {
        let x = shifted_to_epi64(_mm256_loadu_pd(p.add(i).cast::<f64>()), off);
        _mm256_storeu_si256(p.add(i).cast::<__m256i>(), x);
    }
}

/// Four `u64` below 2^52 as doubles.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn to_pd(x: __m256i) -> __m256d {
    let magic = _mm256_set1_epi64x(TWO52_BITS);
    _mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_or_si256(x, magic)),
        _mm256_set1_pd(TWO52),
    )
}

/// Four integral doubles in [0, 2^52) as `u64`.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn to_epi64(x: __m256d) -> __m256i {
    shifted_to_epi64(x, _mm256_set1_pd(TWO52))
}

/// The `u64` values x + shift of four integral doubles with 0 <= x + shift < 2^52, for
/// `off` = 2^52 + shift in every lane: x + off read as bits is bits(2^52) | (x + shift).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn shifted_to_epi64(x: __m256d, off: __m256d) -> __m256i {
    let f = _mm256_add_pd(x, off);
    _mm256_xor_si256(_mm256_castpd_si256(f), _mm256_set1_epi64x(TWO52_BITS))
}

/// x + m in the lanes where x < 0 (a mask, no branch).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn add_if_negative(x: __m256d, m: __m256d) -> __m256d {
    let neg = _mm256_cmp_pd::<_CMP_LT_OQ>(x, _mm256_set1_pd(0.0));
    _mm256_add_pd(x, _mm256_and_pd(neg, m))
}

/// x - m in the lanes where x >= m (a mask, no branch).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn sub_if_at_least(x: __m256d, m: __m256d) -> __m256d {
    _mm256_sub_pd(x, _mm256_and_pd(_mm256_cmp_pd::<_CMP_GE_OQ>(x, m), m))
}

/// x in [-q, q] to [0, q).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn canonical(x: __m256d, c: Consts) -> __m256d {
    sub_if_at_least(add_if_negative(x, c.q), c.q)
}

/// One twiddle and its w / q for all lanes.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn splat(w: &[u64], wq: &[f64], k: usize) -> (__m256d, __m256d) {
    (_mm256_set1_pd(w[k] as f64), _mm256_set1_pd(wq[k]))
}

/// Twiddles k, k, k + 1, k + 1 (the half-length 2 level, two blocks per vector) and their
/// w / q.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn pairs(w: &[u64], wq: &[f64], k: usize) -> (__m256d, __m256d) {
    let (w, wq) = (&w[k..k + 2], &wq[k..k + 2]);
    // SAFETY: two 8-byte values read from slices of two.
    let (a, b) = unsafe {
        (
            _mm256_castsi128_si256(_mm_loadu_si128(w.as_ptr().cast::<__m128i>())),
            _mm256_castpd128_pd256(_mm_loadu_pd(wq.as_ptr())),
        )
    };
    (
        to_pd(_mm256_permute4x64_epi64::<0b01_01_00_00>(a)),
        _mm256_permute4x64_pd::<0b01_01_00_00>(b),
    )
}

/// Twiddles k, k + 2, k + 1, k + 3 (the half-length 1 level, lanes of `vunpck{l,h}pd`) and
/// their w / q.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn quads(w: &[u64], wq: &[f64], k: usize) -> (__m256d, __m256d) {
    let (w, wq) = (&w[k..k + 4], &wq[k..k + 4]);
    // SAFETY: four 8-byte values read from slices of four.
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(w.as_ptr().cast::<__m256i>()),
            _mm256_loadu_pd(wq.as_ptr()),
        )
    };
    (
        to_pd(_mm256_permute4x64_epi64::<0b11_01_10_00>(a)),
        _mm256_permute4x64_pd::<0b11_01_10_00>(b),
    )
}

impl Consts {
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn new(qf: f64) -> Self {
        Self {
            q: _mm256_set1_pd(qf),
            qinv: _mm256_set1_pd(1.0 / qf),
        }
    }
}

/// The forward (Cooley-Tukey) or inverse (Gentleman-Sande) butterfly.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn bf<const FORWARD: bool>(
    x: __m256d,
    y: __m256d,
    w: __m256d,
    wq: __m256d,
    c: Consts,
) -> (__m256d, __m256d) {
    if FORWARD {
        ct(x, y, w, wq, c)
    } else {
        gs(x, y, w, wq, c)
    }
}

/// One level with half-length `half` >= 4 over `blocks` blocks (block b's twiddle k0 + b).
///
/// # Safety
/// AVX2 and FMA present; `p` points to `2 half blocks` doubles; `k0 + blocks <= w.len()`.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn wide_level<const FORWARD: bool>(
    p: *mut f64,
    half: usize,
    blocks: usize,
    k0: usize,
    (w, wq): (&[u64], &[f64]),
    c: Consts,
) {
    for b in 0..blocks {
        let (tw, twq) = splat(w, wq, k0 + b);
        let lo = p.add(2 * half * b);
        for j in (0..half).step_by(4) {
            let (x, y) = (
                _mm256_loadu_pd(lo.add(j)),
                _mm256_loadu_pd(lo.add(j + half)),
            );
            let (s, d) = bf::<FORWARD>(x, y, tw, twq, c);
            _mm256_storeu_pd(lo.add(j), s);
            _mm256_storeu_pd(lo.add(j + half), d);
        }
    }
}

/// The half-length 2 level: blocks of 4 entries, two per step (lanes paired by `vperm2f128`).
///
/// # Safety
/// As [`wide_level`], with `n` entries (a multiple of 8) and blocks `n / 4`.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn level2<const FORWARD: bool>(
    p: *mut f64,
    n: usize,
    k0: usize,
    (w, wq): (&[u64], &[f64]),
    c: Consts,
) {
    for i in (0..n).step_by(8) {
        let (va, vb) = (_mm256_loadu_pd(p.add(i)), _mm256_loadu_pd(p.add(i + 4)));
        let x = _mm256_permute2f128_pd::<0x20>(va, vb);
        let y = _mm256_permute2f128_pd::<0x31>(va, vb);
        let (tw, twq) = pairs(w, wq, k0 + i / 4);
        let (s, d) = bf::<FORWARD>(x, y, tw, twq, c);
        _mm256_storeu_pd(p.add(i), _mm256_permute2f128_pd::<0x20>(s, d));
        _mm256_storeu_pd(p.add(i + 4), _mm256_permute2f128_pd::<0x31>(s, d));
    }
}

/// The half-length 1 level: blocks of 2 entries, four per step (lanes by `vunpck{l,h}pd`).
///
/// # Safety
/// As [`wide_level`], with `n` entries (a multiple of 8) and blocks `n / 2`.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn level1<const FORWARD: bool>(
    p: *mut f64,
    n: usize,
    k0: usize,
    (w, wq): (&[u64], &[f64]),
    c: Consts,
) {
    for i in (0..n).step_by(8) {
        let (va, vb) = (_mm256_loadu_pd(p.add(i)), _mm256_loadu_pd(p.add(i + 4)));
        let (x, y) = (_mm256_unpacklo_pd(va, vb), _mm256_unpackhi_pd(va, vb));
        let (tw, twq) = quads(w, wq, k0 + i / 2);
        let (s, d) = bf::<FORWARD>(x, y, tw, twq, c);
        _mm256_storeu_pd(p.add(i), _mm256_unpacklo_pd(s, d));
        _mm256_storeu_pd(p.add(i + 4), _mm256_unpackhi_pd(s, d));
    }
}

/// # Safety
/// AVX2 and FMA present; `a.len() == t.len >= MIN_LEN` (a power of two) and the f64 tables
/// as long.
#[target_feature(enable = "avx2,fma")]
unsafe fn forward_avx2(a: &mut [u64], t: &NttTables, nega: bool) {
    let n = t.len;
    let qf = t.prime.q as f64;
    let c = Consts::new(qf);
    let tw = (&t.z[..], &t.zfq[..]);
    to_f64(a, 2.0 * qf); // [0, 4q) -> [-2q, 2q)
    let p = a.as_mut_ptr().cast::<f64>();
    // Level by level: `blocks` blocks of 2 `half` entries, block b's twiddle z[k0 + b].
    let k0 = |blocks: usize| if nega { blocks } else { 0 };
    let (mut blocks, mut half) = (1, n / 2);
    while half >= 4 {
        wide_level::<true>(p, half, blocks, k0(blocks), tw, c);
        blocks *= 2;
        half /= 2;
    }
    level2::<true>(p, n, k0(n / 4), tw, c);
    level1::<true>(p, n, k0(n / 2), tw, c);
    to_u64(a, 2.0 * qf); // (-1.6q, 1.6q) -> (0.4q, 3.6q)
}

/// # Safety
/// As [`forward_avx2`]; `scale` < q.
#[target_feature(enable = "avx2,fma")]
unsafe fn inverse_avx2(a: &mut [u64], t: &NttTables, nega: bool, scale: u64) {
    let n = t.len;
    let qf = t.prime.q as f64;
    let c = Consts::new(qf);
    let tw = (&t.zi[..], &t.zifq[..]);
    to_f64(a, qf); // [0, 2q) -> [-q, q)
    let p = a.as_mut_ptr().cast::<f64>();
    let k0 = |blocks: usize| if nega { blocks } else { 0 };
    level1::<false>(p, n, k0(n / 2), tw, c);
    level2::<false>(p, n, k0(n / 4), tw, c);
    let (mut blocks, mut half) = (n / 8, 4);
    while blocks >= 1 {
        wide_level::<false>(p, half, blocks, k0(blocks), tw, c);
        blocks /= 2;
        half *= 2;
    }
    // The final factor, then [-q, q] -> [0, q) by masks, stored as `u64`.
    let (s, sq) = (
        _mm256_set1_pd(scale as f64),
        _mm256_set1_pd(scale as f64 / qf),
    );
    for i in (0..n).step_by(4) {
        let r = canonical(mulmod(_mm256_loadu_pd(p.add(i)), s, sq, c), c);
        _mm256_storeu_si256(p.add(i).cast::<__m256i>(), to_epi64(r));
    }
}

#[cfg(test)]
mod tests {
    use super::super::ntt::{forward_portable, inverse_portable, over_q, NttTables};
    use super::*;

    fn samples(bound: u64, len: usize, seed: &mut u64) -> Vec<u64> {
        (0..len)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (*seed >> 11) % bound
            })
            .collect()
    }

    /// Case 0: random below `top`; 1: all `top - 1`; 2: 0, q - 1, q, top - 1 repeated; 3: zeros.
    fn inputs(case: usize, q: u64, top: u64, len: usize, seed: &mut u64) -> Vec<u64> {
        match case {
            0 => samples(top, len, seed),
            1 => vec![top - 1; len],
            2 => (0..len).map(|i| [0, q - 1, q, top - 1][i % 4]).collect(),
            _ => vec![0; len],
        }
    }

    /// The plain pointwise products against x y mod q and its sums, equal modulo q and in
    /// [0, 2q), on random inputs and the extremes of [0, 4q), with and without the sum, in
    /// place and not, squares, the three primes.
    #[test]
    fn pointwise_matches_products_mod_q() {
        if !crate::mont::run_or_skip(
            available(),
            "MONTLAB_REQUIRE_AVX2",
            "avx2::pointwise_matches_products_mod_q",
            "this CPU lacks AVX2 or FMA",
        ) {
            return;
        }
        let mut seed = 11;
        for &q in &super::super::prime::PRIMES {
            let len = 64;
            let mulq = |x: u64, y: u64| (u128::from(x) * u128::from(y) % u128::from(q)) as u64;
            for (ca, cb, cc) in [
                (0, 0, 0),
                (1, 1, 1),
                (2, 2, 2),
                (3, 1, 2),
                (2, 0, 1),
                (0, 3, 3),
            ] {
                let a = inputs(ca, q, 4 * q, len, &mut seed);
                let b = inputs(cb, q, 4 * q, len, &mut seed);
                let c = inputs(cc, q, 4 * q, len, &mut seed);
                let d0 = inputs(0, q, 4 * q, len, &mut seed);
                let check = |got: &[u64], want: &[u64], what: &str| {
                    assert!(got.iter().all(|&x| x < 2 * q), "{what}: range, q {q:#x}");
                    let red = |v: &[u64]| v.iter().map(|&x| x % q).collect::<Vec<_>>();
                    assert_eq!(
                        red(got),
                        red(want),
                        "{what}: q {q:#x}, cases {ca} {cb} {cc}"
                    );
                };
                let mut got = vec![0; len];
                pointwise(&mut got, Some(&a), &b, None, q);
                let want: Vec<u64> = a.iter().zip(&b).map(|(&x, &y)| mulq(x, y)).collect();
                check(&got, &want, "product");
                let mut got = a.clone();
                pointwise(&mut got, None, &b, None, q);
                check(&got, &want, "in place");
                let mut got = a.clone();
                square(&mut got, q);
                let want2: Vec<u64> = a.iter().map(|&x| mulq(x, x)).collect();
                check(&got, &want2, "square");
                let mut got = d0.clone();
                pointwise(&mut got, Some(&a), &b, Some(&c), q);
                let want: Vec<u64> = (0..len)
                    .map(|i| (mulq(a[i], b[i]) + mulq(d0[i], c[i])) % q)
                    .collect();
                check(&got, &want, "sum");
            }
        }
    }

    /// Random inputs and the extremes of each range (0, q - 1, q, the top value), every
    /// length from MIN_LEN to 2^12, both kinds, the three primes. Runs wherever the CPU has
    /// AVX2 and FMA, also where the dispatch does not pick these loops (IFMA, or
    /// `MONTLAB_NO_AVX2`): the test gives the tables their doubles itself.
    #[test]
    fn matches_portable_transforms() {
        if !crate::mont::run_or_skip(
            available(),
            "MONTLAB_REQUIRE_AVX2",
            "avx2::matches_portable_transforms",
            "this CPU lacks AVX2 or FMA",
        ) {
            return;
        }
        let mut seed = 7;
        for which in 0..3 {
            for lg in 4..=12 {
                let mut t = NttTables::new(which, 1 << lg);
                let q = t.prime.q;
                (t.zfq, t.zifq) = (over_q(&t.z, q), over_q(&t.zi, q));
                for nega in [false, true] {
                    for case in 0..4 {
                        let fwd_in = inputs(case, q, 4 * q, t.len, &mut seed);
                        let (mut got, mut want) = (fwd_in.clone(), fwd_in);
                        forward(&mut got, &t, nega);
                        forward_portable(&mut want, &t, nega);
                        assert!(got.iter().all(|&x| x < 4 * q), "forward range, lg {lg}");
                        let reduced = |v: &[u64]| v.iter().map(|&x| x % q).collect::<Vec<_>>();
                        assert_eq!(reduced(&got), reduced(&want), "forward {which} {lg} {nega}");
                        let inv_in = inputs(case, q, 2 * q, t.len, &mut seed);
                        let (mut got, mut want) = (inv_in.clone(), inv_in);
                        let plain_in = got.clone();
                        inverse(&mut got, &t, nega);
                        inverse_portable(&mut want, &t, nega);
                        assert_eq!(got, want, "inverse {which} {lg} {nega}");
                        // The plain products' inverse: of x 2^64 (what a plain product
                        // holds where the Montgomery one holds x), the same outputs.
                        let r = (1u128 << 64) % u128::from(q);
                        let mut plain: Vec<u64> = plain_in
                            .iter()
                            .map(|&x| (u128::from(x) * r % u128::from(q)) as u64)
                            .collect();
                        inverse_plain(&mut plain, &t, nega);
                        assert_eq!(plain, want, "inverse_plain {which} {lg} {nega}");
                    }
                }
            }
        }
    }
}
