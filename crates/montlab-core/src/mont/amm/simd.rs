//! The vector cores of [`super`] (`amm`): AVX-512 IFMA rounds, the final carries, and the
//! two-lane core that interleaves two independent products. Callers check the CPU and every
//! length ([`super::amm`], [`super::amm_pair`]); see the module contract there.
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_alignr_epi64, _mm512_and_si512, _mm512_castsi512_si128,
    _mm512_cmpeq_epu64_mask, _mm512_cmpgt_epu64_mask, _mm512_load_si512, _mm512_madd52hi_epu64,
    _mm512_madd52lo_epu64, _mm512_mask_add_epi64, _mm512_mask_and_epi64, _mm512_mask_mov_epi64,
    _mm512_maskz_mov_epi64, _mm512_maskz_srli_epi64, _mm512_or_si512, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_slli_epi64, _mm512_srli_epi64, _mm512_store_si512,
    _mm_cvtsi128_si64, _mm_extract_epi64,
};

use super::{Block, IfmaElem, LANES, MASK52, MAX_VECS};

#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn load(b: &Block) -> __m512i {
    // SAFETY: `b` is a valid reference to 64 bytes aligned to 64 (`Block`'s layout).
    unsafe { _mm512_load_si512(b.0.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn store(b: &mut Block, v: __m512i) {
    // SAFETY: as in `load`, and the reference is unique.
    unsafe { _mm512_store_si512(b.0.as_mut_ptr().cast(), v) }
}

/// One product's state in registers, `V` vectors per number: A and N, the accumulator, and
/// the scalar copy of its lane 0 with the low digits a round needs.
struct Lane<const V: usize> {
    va: [__m512i; V],
    vn: [__m512i; V],
    acc: [__m512i; V],
    /// Lane 0 of the accumulator, kept in a scalar register.
    t0: u64,
    /// Digits 0 and 1 of A and N, and -N^-1 mod 2^52.
    low: Low,
}

impl<const V: usize> Lane<V> {
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new(a: &[Block; V], n: &[Block; V], k0: u64) -> Self {
        Self {
            va: core::array::from_fn(|j| load(&a[j])),
            vn: core::array::from_fn(|j| load(&n[j])),
            acc: [_mm512_setzero_si512(); V],
            t0: 0,
            low: Low {
                a0: a[0].0[0],
                a1: a[0].0[1],
                n0: n[0].0[0],
                n1: n[0].0[1],
                k0,
            },
        }
    }

    /// One AMM round with digit `bi` of B.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[allow(
        clippy::needless_range_loop,
        reason = "vector j of four arrays in step"
    )]
    fn round(&mut self, bi: u64) {
        let zero = _mm512_setzero_si512();
        let vb = _mm512_set1_epi64(bi as i64);
        // Lane 1 before this round: with this round's lane-1 products and the carry out of
        // lane 0, it gives the next t_0 without waiting for the vector shift.
        let t1 = _mm_extract_epi64::<1>(_mm512_castsi512_si128(self.acc[0])) as u64;
        // The products with b_i do not depend on the accumulator: issue them first.
        let mut hi = [zero; V];
        let mut acc_lo = self.acc;
        for j in 0..V {
            acc_lo[j] = _mm512_add_epi64(self.acc[j], _mm512_madd52lo_epu64(zero, self.va[j], vb));
            hi[j] = _mm512_madd52hi_epu64(zero, self.va[j], vb);
        }
        // y_i = (t_0 + a_0 b_i) k0 mod 2^52, and lane 0 after the round ([`Low::round`]).
        let (y, next) = self.low.round(self.t0, t1, bi);
        let vy = _mm512_set1_epi64(y as i64);
        for j in 0..V {
            self.acc[j] = _mm512_madd52lo_epu64(acc_lo[j], self.vn[j], vy);
            hi[j] = _mm512_madd52hi_epu64(hi[j], self.vn[j], vy);
        }
        self.t0 = next;
        // Lane 0 is now 0 mod 2^52: shift it out, keep its carry, add the high halves.
        hi[0] = _mm512_add_epi64(hi[0], _mm512_maskz_srli_epi64(1, self.acc[0], 52));
        for j in 0..V {
            let up = if j + 1 < V { self.acc[j + 1] } else { zero };
            self.acc[j] = _mm512_add_epi64(_mm512_alignr_epi64::<1>(up, self.acc[j]), hi[j]);
        }
        debug_assert_eq!(
            self.t0,
            _mm_cvtsi128_si64(_mm512_castsi512_si128(self.acc[0])) as u64
        );
    }

    /// [`Lane::round`] with fewer vector operations and a longer dependency chain, for long
    /// numbers (bound by the issue of vector operations) and the two-lane core (where the
    /// other product's round fills the wait): the low halves go straight into the
    /// accumulator, the high halves into the shifted one.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn round_lean(&mut self, bi: u64) {
        let zero = _mm512_setzero_si512();
        let vb = _mm512_set1_epi64(bi as i64);
        let t1 = _mm_extract_epi64::<1>(_mm512_castsi512_si128(self.acc[0])) as u64;
        let (y, next) = self.low.round(self.t0, t1, bi);
        let vy = _mm512_set1_epi64(y as i64);
        for j in 0..V {
            self.acc[j] = _mm512_madd52lo_epu64(
                _mm512_madd52lo_epu64(self.acc[j], self.va[j], vb),
                self.vn[j],
                vy,
            );
        }
        self.t0 = next;
        let carry = _mm512_maskz_srli_epi64(1, self.acc[0], 52);
        for j in 0..V {
            let up = if j + 1 < V { self.acc[j + 1] } else { zero };
            let mut x = _mm512_alignr_epi64::<1>(up, self.acc[j]);
            if j == 0 {
                x = _mm512_add_epi64(x, carry);
            }
            self.acc[j] =
                _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(x, self.va[j], vb), self.vn[j], vy);
        }
    }
}

/// From this many vectors a product is bound by its vector operations rather than by the
/// serial chain of a round, and the one-lane core runs [`Lane::round_lean`]: on an AMD Zen 4
/// it was the faster of the two rounds from 7 vectors and the slower at 5 when this was set
/// (`docs/baseline-ab-ifma.json` has its effect on `pow` and `pow_sec` from 3072 bits).
const LEAN_VECS: usize = 7;

/// k AMM rounds and the final normalisation, `V` vectors per number.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn amm_core<const V: usize>(
    a: &[Block; V],
    b: &[Block; V],
    n: &[Block; V],
    k0: u64,
    k: usize,
    out: &mut [Block; V],
) {
    let mut lane = Lane::new(a, n, k0);
    for i in 0..k {
        let bi = b[i / LANES].0[i % LANES];
        // Resolved at compile time: short numbers wait on the chain, long ones on the issue.
        if V >= LEAN_VECS {
            lane.round_lean(bi);
        } else {
            lane.round(bi);
        }
    }
    finish(&mut lane.acc, out);
}

impl<const V: usize> Lane<V> {
    /// The lane of a squaring of `a`: its vectors `va` hold D = 2A, digit j
    /// (2 a_j mod 2^52) + (a_(j-1) >> 51), rather than A. D < 4N <= R, so it has k digits.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new_sqr(a: &[Block; V], n: &[Block; V], k0: u64) -> Self {
        let mut lane = Self::new(a, n, k0);
        let va = lane.va;
        lane.va = core::array::from_fn(|j| {
            doubled(
                va[j],
                if j > 0 {
                    va[j - 1]
                } else {
                    _mm512_setzero_si512()
                },
            )
        });
        lane
    }

    /// Round i = 8 U + `v` of the squaring of `a` (a lane from [`Lane::new_sqr`]), as
    /// [`Lane::round_lean`] with a_i times E_i, the digits j >= i of A's square row: a_i at
    /// i, 2 a_j above it (D's digits, digit i + 1 without the carry bit of a_i, which is not
    /// doubled). E_i's vectors below U are zero and skipped: the rounds issue about 3/4 of
    /// the AMM's lane products. U is a constant so that the vectors a round touches are fixed
    /// at compile time.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    #[allow(
        clippy::needless_range_loop,
        reason = "vector j of several arrays in step"
    )]
    fn sqr_round<const U: usize>(&mut self, a: &[Block; V], v: usize) {
        let zero = _mm512_setzero_si512();
        let ai = a[U].0[v];
        let up = if U + 1 < V { self.va[U + 1] } else { zero };
        let (eu, eu1) = row_vectors(self.va[U], load(&a[U]), up, v);
        let op = |j: usize| {
            if j == U {
                eu
            } else if j == U + 1 {
                eu1
            } else {
                self.va[j]
            }
        };
        // Digits 0 and 1 of E_i for the scalar chain: nonzero in rounds 0 and 1 only.
        let (x0, x1) = match (U, v) {
            (0, 0) => (self.low.a0, (self.low.a1 << 1) & MASK52),
            (0, 1) => (0, self.low.a1),
            _ => (0, 0),
        };
        let vb = _mm512_set1_epi64(ai as i64);
        let t1 = _mm_extract_epi64::<1>(_mm512_castsi512_si128(self.acc[0])) as u64;
        let (y, t0) = self.low.round_with(self.t0, t1, x0, x1, ai);
        let vy = _mm512_set1_epi64(y as i64);
        for j in 0..V {
            let mut x = self.acc[j];
            if j >= U {
                x = _mm512_madd52lo_epu64(x, op(j), vb);
            }
            self.acc[j] = _mm512_madd52lo_epu64(x, self.vn[j], vy);
        }
        self.t0 = t0;
        let carry = _mm512_maskz_srli_epi64(1, self.acc[0], 52);
        for j in 0..V {
            let up = if j + 1 < V { self.acc[j + 1] } else { zero };
            let mut x = _mm512_alignr_epi64::<1>(up, self.acc[j]);
            if j == 0 {
                x = _mm512_add_epi64(x, carry);
            }
            if j >= U {
                x = _mm512_madd52hi_epu64(x, op(j), vb);
            }
            self.acc[j] = _mm512_madd52hi_epu64(x, self.vn[j], vy);
        }
        debug_assert_eq!(
            self.t0,
            _mm_cvtsi128_si64(_mm512_castsi512_si128(self.acc[0])) as u64
        );
    }
}

/// `$body` once for each block of rounds 8 U .. 8 U + `rounds` of a squaring of k digits
/// (U < V, `rounds` <= 8), with U a constant: a copy per U, so that [`Lane::sqr_round`] has
/// its vector set fixed.
macro_rules! sqr_blocks {
    ($v:ident, $k:expr, |$u:ident, $rounds:ident| $body:block) => {
        sqr_blocks!(@ $v, $k, $u, $rounds, $body, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@ $v:ident, $k:expr, $u:ident, $rounds:ident, $body:block, $($n:literal)*) => {$(
        if $n < $v && LANES * $n < $k {
            const $u: usize = $n;
            let $rounds = ($k - LANES * $n).min(LANES);
            $body
        }
    )*};
}

/// The squaring's k rounds ([`Lane::sqr_round`]) and the final normalisation, `V` vectors
/// per number.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn ams_core<const V: usize>(
    a: &[Block; V],
    n: &[Block; V],
    k0: u64,
    k: usize,
    out: &mut [Block; V],
) {
    let mut lane = Lane::new_sqr(a, n, k0);
    sqr_blocks!(V, k, |U, rounds| {
        for v in 0..rounds {
            lane.sqr_round::<U>(a, v);
        }
    });
    finish(&mut lane.acc, out);
}

/// Two independent squarings of `V` vectors and k digits each (moduli may differ), their
/// rounds interleaved as [`amm2_core`]'s.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn ams2_core<const V: usize>(
    a: [&[Block; V]; 2],
    n: [&[Block; V]; 2],
    k0: [u64; 2],
    k: usize,
    out: [&mut [Block; V]; 2],
) {
    let [a0, a1] = a;
    let [o0, o1] = out;
    let mut x = Lane::new_sqr(a0, n[0], k0[0]);
    let mut y = Lane::new_sqr(a1, n[1], k0[1]);
    sqr_blocks!(V, k, |U, rounds| {
        for v in 0..rounds {
            x.sqr_round::<U>(a0, v);
            y.sqr_round::<U>(a1, v);
        }
    });
    finish(&mut x.acc, o0);
    finish(&mut y.acc, o1);
}

/// Two independent AMMs of `V` vectors and k rounds each (moduli may differ), their rounds
/// interleaved on [`Lane::round_lean`]: each product's serial quotient chain (scalar y,
/// broadcast, lane shift) runs while the other's lane products issue, as in OpenSSL's
/// `ossl_rsaz_amm52x20_x2_ifma256`. Two named lanes, not an array of them: on an AMD Zen 4
/// the array's loop kept less in registers and ran slower, and four lanes were no faster
/// than two.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn amm2_core<const V: usize>(
    a: [&[Block; V]; 2],
    b: [&[Block; V]; 2],
    n: [&[Block; V]; 2],
    k0: [u64; 2],
    k: usize,
    out: [&mut [Block; V]; 2],
) {
    let [a0, a1] = a;
    let [b0, b1] = b;
    let [o0, o1] = out;
    let mut x = Lane::new(a0, n[0], k0[0]);
    let mut y = Lane::new(a1, n[1], k0[1]);
    for i in 0..k {
        x.round_lean(b0[i / LANES].0[i % LANES]);
        y.round_lean(b1[i / LANES].0[i % LANES]);
    }
    finish(&mut x.acc, o0);
    finish(&mut y.acc, o1);
}

/// Most entries of a table [`gather`] scans (the fixed window's 2^5).
pub(super) const GATHER_MAX: usize = 32;

/// `out = table[digit]` by a full scan: every entry's vectors are loaded and kept under a
/// lane mask that is all ones for the wanted entry and zero for the others, from a vector
/// comparison of the entry's index with the digit (no branch or address on the digit). At
/// most [`GATHER_MAX`] entries, each of `out.len()` vectors; eight output vectors at a time
/// stay in registers through the scan.
#[target_feature(enable = "avx512f")]
pub(super) fn gather(table: &[IfmaElem], digit: u64, out: &mut [Block]) {
    let v = out.len();
    assert!(
        table.len() <= GATHER_MAX && table.iter().all(|e| e.d.len() == v),
        "amm: at most 32 table entries, all of the output's length"
    );
    for (c, chunk) in out.chunks_mut(LANES).enumerate() {
        let lo = LANES * c;
        by_vecs!(chunk.len(), [1 2 3 4 5 6 7 8], U => {
            let chunk: &mut [Block; U] = chunk.try_into().expect("chunk of U blocks");
            gather_chunk::<U>(table, lo, digit, chunk);
        });
    }
}

/// `out` = blocks `lo..lo + U` of `table[digit]` (entries checked by [`gather`]).
#[inline]
#[target_feature(enable = "avx512f")]
fn gather_chunk<const U: usize>(table: &[IfmaElem], lo: usize, digit: u64, out: &mut [Block; U]) {
    let (want, one) = (_mm512_set1_epi64(digit as i64), _mm512_set1_epi64(1));
    let mut index = _mm512_setzero_si512();
    let mut acc = [_mm512_setzero_si512(); U];
    for entry in table {
        let e: &[Block; U] = entry.d[lo..lo + U].try_into().expect("U blocks");
        let m = _mm512_cmpeq_epu64_mask(index, want);
        for (a, x) in acc.iter_mut().zip(e) {
            *a = _mm512_mask_mov_epi64(*a, m, load(x));
        }
        index = _mm512_add_epi64(index, one);
    }
    for (o, a) in out.iter_mut().zip(acc) {
        store(o, a);
    }
}

/// Carries of an unnormalised result `acc` (value < 2^(52 8 V), lanes < 2^64), written
/// to `out` with every digit < 2^52.
#[inline]
#[target_feature(enable = "avx512f")]
fn finish(acc: &mut [__m512i], out: &mut [Block]) {
    // Lane-wise carries: digits < 2^52 + 2^12 afterwards. The top lane's carry is 0
    // because the value is below 2^(52 k).
    let (zero, mask) = (_mm512_setzero_si512(), _mm512_set1_epi64(MASK52 as i64));
    let mut prev = zero;
    for x in acc.iter_mut() {
        let c = _mm512_srli_epi64(*x, 52);
        *x = _mm512_add_epi64(
            _mm512_and_si512(*x, mask),
            _mm512_alignr_epi64::<7>(c, prev),
        );
        prev = c;
    }
    // Ripples: lanes > 2^52 - 1 generate a carry, lanes == 2^52 - 1 pass one on; the
    // carry-in bits are ((G << 1) + P) ^ P over the lane bits of all vectors.
    // Eight vectors (64 lanes) per 64-bit word of lane bits.
    let one = _mm512_set1_epi64(1);
    let (mut g_top, mut ripple) = (0u64, false);
    for (acc, out) in acc.chunks(8).zip(out.chunks_mut(8)) {
        let (mut g, mut p) = (0u64, 0u64);
        for (j, &x) in acc.iter().enumerate() {
            g |= u64::from(_mm512_cmpgt_epu64_mask(x, mask)) << (8 * j);
            p |= u64::from(_mm512_cmpeq_epu64_mask(x, mask)) << (8 * j);
        }
        let (s1, o1) = ((g << 1) | g_top).overflowing_add(p);
        let (s2, o2) = s1.overflowing_add(u64::from(ripple));
        (g_top, ripple) = (g >> 63, o1 | o2);
        let cin = s2 ^ p;
        for (j, (&x, o)) in acc.iter().zip(out).enumerate() {
            let x = _mm512_mask_add_epi64(x, (cin >> (8 * j)) as u8, x, one);
            store(o, _mm512_and_si512(x, mask));
        }
    }
}

/// The core of [`amm_core`] for any vector count V = `acc.len()`: operands and the
/// accumulator stay in memory (the accumulator in `acc`, which ends as the output), and
/// each pass over them runs two rounds, so every vector is loaded and stored once per two.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn amm_dyn(a: &[Block], b: &[Block], n: &[Block], k0: u64, k: usize, acc: &mut [Block]) {
    let v = acc.len();
    assert!(
        v > 0 && a.len() == v && b.len() == v && n.len() == v && k <= LANES * v,
        "amm: element lengths differ"
    );
    let zero = _mm512_setzero_si512();
    acc.fill(Block::default());
    let low = Low {
        a0: a[0].0[0],
        a1: a[0].0[1],
        n0: n[0].0[0],
        n1: n[0].0[1],
        k0,
    };
    let digit = |i: usize| b[i / LANES].0[i % LANES];
    let mut i = 0;
    // The y of the next pass's two rounds, found from lanes 0 and 1 as soon as the current
    // pass has written them, so the scalar work overlaps the vector loop.
    let mut next_y: Option<(u64, u64)> = None;
    while i + 1 < k {
        let (b0, b1) = (digit(i), digit(i + 1));
        let (y0, y1) = next_y
            .take()
            .unwrap_or_else(|| low.two_rounds(acc[0].0[0], acc[0].0[1], b0, b1));
        let (vb0, vy0) = (_mm512_set1_epi64(b0 as i64), _mm512_set1_epi64(y0 as i64));
        let (vb1, vy1) = (_mm512_set1_epi64(b1 as i64), _mm512_set1_epi64(y1 as i64));
        // Round one gives x, h for vector j + 1, hence vector j of the shifted sum; round
        // two gives x2, h2 for vector j, hence vector j - 1 of the result.
        let (mut va, mut vn) = (load(&a[0]), load(&n[0]));
        let (mut x, mut h) = lo_hi(load(&acc[0]), va, vn, vb0, vy0);
        h = _mm512_add_epi64(h, _mm512_maskz_srli_epi64(1, x, 52));
        let (mut x2, mut h2) = (zero, zero);
        for j in 0..v {
            let (va_up, vn_up, x_up, h_up) = if j + 1 < v {
                let (va_up, vn_up) = (load(&a[j + 1]), load(&n[j + 1]));
                let (x_up, h_up) = lo_hi(load(&acc[j + 1]), va_up, vn_up, vb0, vy0);
                (va_up, vn_up, x_up, h_up)
            } else {
                (zero, zero, zero, zero)
            };
            let mid = _mm512_add_epi64(_mm512_alignr_epi64::<1>(x_up, x), h);
            let (x2_j, mut h2_j) = lo_hi(mid, va, vn, vb1, vy1);
            if j == 0 {
                h2_j = _mm512_add_epi64(h2_j, _mm512_maskz_srli_epi64(1, x2_j, 52));
            } else {
                let out = _mm512_add_epi64(_mm512_alignr_epi64::<1>(x2_j, x2), h2);
                store(&mut acc[j - 1], out);
                if j == 1 && i + 3 < k {
                    let low2 = _mm512_castsi512_si128(out);
                    let (t0, t1) = (_mm_cvtsi128_si64(low2), _mm_extract_epi64::<1>(low2));
                    next_y = Some(low.two_rounds(t0 as u64, t1 as u64, digit(i + 2), digit(i + 3)));
                }
            }
            (va, vn, x, h, x2, h2) = (va_up, vn_up, x_up, h_up, x2_j, h2_j);
        }
        store(
            &mut acc[v - 1],
            _mm512_add_epi64(_mm512_alignr_epi64::<1>(zero, x2), h2),
        );
        i += 2;
    }
    if i < k {
        let bi = digit(i);
        let (y, _) = low.round(acc[0].0[0], acc[0].0[1], bi);
        let (vb, vy) = (_mm512_set1_epi64(bi as i64), _mm512_set1_epi64(y as i64));
        let (mut x, mut h) = lo_hi(load(&acc[0]), load(&a[0]), load(&n[0]), vb, vy);
        h = _mm512_add_epi64(h, _mm512_maskz_srli_epi64(1, x, 52));
        for j in 1..v {
            let (x_j, h_j) = lo_hi(load(&acc[j]), load(&a[j]), load(&n[j]), vb, vy);
            store(
                &mut acc[j - 1],
                _mm512_add_epi64(_mm512_alignr_epi64::<1>(x_j, x), h),
            );
            (x, h) = (x_j, h_j);
        }
        store(
            &mut acc[v - 1],
            _mm512_add_epi64(_mm512_alignr_epi64::<1>(zero, x), h),
        );
    }
    finish_in_memory(acc);
}

/// [`ams_core`] for any vector count V = `acc.len()`, as [`amm_dyn`] is [`amm_core`]'s:
/// operands in memory (D = 2A in `d`, V + 1 blocks of scratch), two rounds per pass over them.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn ams_dyn(
    a: &[Block],
    n: &[Block],
    k0: u64,
    k: usize,
    d: &mut [Block],
    acc: &mut [Block],
) {
    let v = acc.len();
    assert!(
        v > 0 && a.len() == v && n.len() == v && d.len() == v + 1 && k <= LANES * v,
        "amm: element lengths differ"
    );
    let zero = _mm512_setzero_si512();
    let mut below = zero;
    for j in 0..v {
        let x = load(&a[j]);
        store(&mut d[j], doubled(x, below));
        below = x;
    }
    d[v] = Block::default();
    acc.fill(Block::default());
    let low = Low {
        a0: a[0].0[0],
        a1: a[0].0[1],
        n0: n[0].0[0],
        n1: n[0].0[1],
        k0,
    };
    let d1 = (a[0].0[1] << 1) & MASK52;
    // Round i: a_i, E_i's vectors u and u + 1 (as in `Lane::sqr_round`), and E_i's digits 0
    // and 1.
    let round = |i: usize| {
        let (u, l) = (i / LANES, i % LANES);
        let (eu, eu1) = row_vectors(load(&d[u]), load(&a[u]), load(&d[u + 1]), l);
        let x01 = match i {
            0 => (low.a0, d1),
            1 => (0, low.a1),
            _ => (0, 0),
        };
        (a[u].0[l], u, eu, eu1, x01)
    };
    // Vector j of E_i, or None below vector u.
    let op = |r: &(u64, usize, __m512i, __m512i, (u64, u64)), j: usize| {
        let (_, u, eu, eu1, _) = *r;
        if j < u {
            None
        } else if j == u {
            Some(eu)
        } else if j == u + 1 {
            Some(eu1)
        } else {
            Some(load(&d[j]))
        }
    };
    let mut i = 0;
    let mut next_y: Option<(u64, u64)> = None;
    let two = |t0: u64,
               t1: u64,
               r0: &(u64, usize, __m512i, __m512i, (u64, u64)),
               r1: &(u64, usize, __m512i, __m512i, (u64, u64))| {
        let (y0, t0) = low.round_with(t0, t1, r0.4 .0, r0.4 .1, r0.0);
        (y0, low.round_with(t0, 0, r1.4 .0, r1.4 .1, r1.0).0)
    };
    while i + 1 < k {
        let (r0, r1) = (round(i), round(i + 1));
        let (y0, y1) = next_y
            .take()
            .unwrap_or_else(|| two(acc[0].0[0], acc[0].0[1], &r0, &r1));
        let (vb0, vy0) = (_mm512_set1_epi64(r0.0 as i64), _mm512_set1_epi64(y0 as i64));
        let (vb1, vy1) = (_mm512_set1_epi64(r1.0 as i64), _mm512_set1_epi64(y1 as i64));
        let mut vn = load(&n[0]);
        let (mut x, mut h) = lo_hi_sq(load(&acc[0]), op(&r0, 0), vn, vb0, vy0);
        h = _mm512_add_epi64(h, _mm512_maskz_srli_epi64(1, x, 52));
        let (mut x2, mut h2) = (zero, zero);
        for j in 0..v {
            let (vn_up, x_up, h_up) = if j + 1 < v {
                let vn_up = load(&n[j + 1]);
                let (x_up, h_up) = lo_hi_sq(load(&acc[j + 1]), op(&r0, j + 1), vn_up, vb0, vy0);
                (vn_up, x_up, h_up)
            } else {
                (zero, zero, zero)
            };
            let mid = _mm512_add_epi64(_mm512_alignr_epi64::<1>(x_up, x), h);
            let (x2_j, mut h2_j) = lo_hi_sq(mid, op(&r1, j), vn, vb1, vy1);
            if j == 0 {
                h2_j = _mm512_add_epi64(h2_j, _mm512_maskz_srli_epi64(1, x2_j, 52));
            } else {
                let out = _mm512_add_epi64(_mm512_alignr_epi64::<1>(x2_j, x2), h2);
                store(&mut acc[j - 1], out);
                if j == 1 && i + 3 < k {
                    let low2 = _mm512_castsi512_si128(out);
                    let (t0, t1) = (_mm_cvtsi128_si64(low2), _mm_extract_epi64::<1>(low2));
                    next_y = Some(two(t0 as u64, t1 as u64, &round(i + 2), &round(i + 3)));
                }
            }
            (vn, x, h, x2, h2) = (vn_up, x_up, h_up, x2_j, h2_j);
        }
        store(
            &mut acc[v - 1],
            _mm512_add_epi64(_mm512_alignr_epi64::<1>(zero, x2), h2),
        );
        i += 2;
    }
    if i < k {
        let r = round(i);
        let (y, _) = low.round_with(acc[0].0[0], acc[0].0[1], r.4 .0, r.4 .1, r.0);
        let (vb, vy) = (_mm512_set1_epi64(r.0 as i64), _mm512_set1_epi64(y as i64));
        let (mut x, mut h) = lo_hi_sq(load(&acc[0]), op(&r, 0), load(&n[0]), vb, vy);
        h = _mm512_add_epi64(h, _mm512_maskz_srli_epi64(1, x, 52));
        for j in 1..v {
            let (x_j, h_j) = lo_hi_sq(load(&acc[j]), op(&r, j), load(&n[j]), vb, vy);
            store(
                &mut acc[j - 1],
                _mm512_add_epi64(_mm512_alignr_epi64::<1>(x_j, x), h),
            );
            (x, h) = (x_j, h_j);
        }
        store(
            &mut acc[v - 1],
            _mm512_add_epi64(_mm512_alignr_epi64::<1>(zero, x), h),
        );
    }
    finish_in_memory(acc);
}

/// Vector j of D = 2A from A's vectors j and j - 1: digit i is (2 a_i mod 2^52) +
/// (a_(i-1) >> 51).
#[inline]
#[target_feature(enable = "avx512f")]
fn doubled(x: __m512i, below: __m512i) -> __m512i {
    let carry = _mm512_srli_epi64(_mm512_alignr_epi64::<7>(x, below), 51);
    let mask = _mm512_set1_epi64(MASK52 as i64);
    _mm512_or_si512(_mm512_and_si512(_mm512_slli_epi64(x, 1), mask), carry)
}

/// The two vectors of E_i that differ from D's, for digit i at lane `l` of vector u: vector u
/// keeps D's lanes above l (lane l + 1 without its carry bit) and a_i at lane l (from `a_u`);
/// vector u + 1 (`d_up`) drops the carry bit of its lane 0 when l = 7.
#[inline]
#[target_feature(enable = "avx512f")]
fn row_vectors(d_u: __m512i, a_u: __m512i, d_up: __m512i, l: usize) -> (__m512i, __m512i) {
    let not1 = _mm512_set1_epi64(!1);
    let above = (0xff_u16 << (l + 1)) as u8;
    let next = (1_u16 << (l + 1)) as u8;
    let x = _mm512_maskz_mov_epi64(above, d_u);
    let x = _mm512_mask_and_epi64(x, next, x, not1);
    let eu = _mm512_mask_mov_epi64(x, 1 << l, a_u);
    let eu1 = _mm512_mask_and_epi64(d_up, u8::from(l == LANES - 1), d_up, not1);
    (eu, eu1)
}

/// [`finish`] of an accumulator in memory, in place.
#[inline]
#[target_feature(enable = "avx512f")]
fn finish_in_memory(acc: &mut [Block]) {
    let mut regs = [_mm512_setzero_si512(); MAX_VECS];
    for (r, x) in regs.iter_mut().zip(acc.iter()) {
        *r = load(x);
    }
    finish(&mut regs[..acc.len()], acc);
}

/// [`lo_hi`] with the square's vector `e` (None: below E_i, no product with a_i).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn lo_hi_sq(
    acc: __m512i,
    e: Option<__m512i>,
    n: __m512i,
    vb: __m512i,
    vy: __m512i,
) -> (__m512i, __m512i) {
    match e {
        Some(e) => lo_hi(acc, e, n, vb, vy),
        None => (
            _mm512_madd52lo_epu64(acc, n, vy),
            _mm512_madd52hi_epu64(_mm512_setzero_si512(), n, vy),
        ),
    }
}

/// `acc + lo(a b) + lo(n y)` and `hi(a b) + hi(n y)`, lane-wise.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn lo_hi(acc: __m512i, a: __m512i, n: __m512i, vb: __m512i, vy: __m512i) -> (__m512i, __m512i) {
    let zero = _mm512_setzero_si512();
    (
        _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(acc, a, vb), n, vy),
        _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, a, vb), n, vy),
    )
}

/// Digits 0 and 1 of A and N, and -N^-1 mod 2^52: the scalar part of a round.
struct Low {
    a0: u64,
    a1: u64,
    n0: u64,
    n1: u64,
    k0: u64,
}

impl Low {
    /// The y of two rounds with digits `b0`, `b1` from lanes 0 and 1 before them.
    #[inline(always)]
    fn two_rounds(&self, t0: u64, t1: u64, b0: u64, b1: u64) -> (u64, u64) {
        let (y0, t0) = self.round(t0, t1, b0);
        (y0, self.round(t0, 0, b1).0)
    }

    /// For lanes 0 and 1 `t0`, `t1` of the accumulator before a round with digit `bi`:
    /// that round's y and lane 0 after it.
    #[inline(always)]
    fn round(&self, t0: u64, t1: u64, bi: u64) -> (u64, u64) {
        self.round_with(t0, t1, self.a0, self.a1, bi)
    }

    /// [`Low::round`] for a round that multiplies `bi` by digits 0 and 1 `x0`, `x1` rather
    /// than A's (the squaring's rounds multiply a_i by their own vector).
    #[inline(always)]
    fn round_with(&self, t0: u64, t1: u64, x0: u64, x1: u64, bi: u64) -> (u64, u64) {
        // As in the one-round core: below 2^64, wrapping by name (no checked branch).
        let ab = u128::from(x0).wrapping_mul(u128::from(bi));
        let t = t0.wrapping_add(ab as u64 & MASK52);
        let y = t.wrapping_mul(self.k0) & MASK52;
        let ny = u128::from(self.n0).wrapping_mul(u128::from(y));
        let carry = t.wrapping_add(ny as u64 & MASK52) >> 52;
        let next = t1
            .wrapping_add(x1.wrapping_mul(bi) & MASK52)
            .wrapping_add(self.n1.wrapping_mul(y) & MASK52)
            .wrapping_add((ab >> 52) as u64)
            .wrapping_add((ny >> 52) as u64)
            .wrapping_add(carry);
        (y, next)
    }
}
