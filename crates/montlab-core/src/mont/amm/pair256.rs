//! `amm`'s two-lane core on 256-bit vectors: two independent AMMs of k digits each, W =
//! ceil(k / 4) vectors of four lanes per number, their rounds interleaved.
//!
//! Citation: the round of OpenSSL's `ossl_rsaz_amm52x20_x2_ifma256` (S. Gueron, V. Krasnov,
//! ARITH 2016; `crypto/bn/asm/rsaz-2k-avx512.pl`), for any W up to [`MAX_W`].
//!
//! Word size / radix: digits of 52 bits in `u64` lanes, W = 2^52; callers check the CPU, the
//! lengths and 4 W >= k ([`super::amm_pair`]), as for the 512-bit cores.
//!
//! Round i of a lane, with digit b_i and the scalar t (lane 0 of the accumulator, kept
//! exactly in a general register):
//! 1. s = t + a_0 b_i (128 bits), y = s (-N^-1) mod 2^52, s += n_0 y, t = s >> 52;
//! 2. the low halves of b_i A + y N go into the lanes, which then shift down one lane;
//! 3. t += the new lane 0 (the old lane 1 with its low halves), before
//! 4. the high halves of b_i A + y N go into the shifted lanes.
//!
//! The vector lane 0 is never read after step 3 (step 2 of the next round drops it): t
//! carries its exact value, the high halves of a_0 b_i and n_0 y included. The serial chain of
//! a round is the broadcast of y, one low-half product, the shift, the move to a general
//! register and the scalar steps; the other lane's round runs while it waits. A and N stay in
//! memory and are loaded in each half of the round (two lanes' operands do not fit in the 32
//! registers beside the accumulators). After the k rounds t replaces lane 0 and one carry pass
//! with generate/propagate masks normalises the digits, as in `super::simd::finish`.
//!
//! Input/output ranges: as [`super::amm_pair`] (digits < 2^52, values < 2N, output < 2N with
//! digits < 2^52; lanes past 4 W written as zero). A lane gains less than 2^54 a round and t
//! stays below 2^60 for k <= 48, so no lane overflows. No branch or address depends on the
//! operands. Left out: a dedicated squaring (paired squarings run here as the AMM of each
//! number by itself; the 512-bit squaring core runs where the pair is on 512-bit vectors).
use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_alignr_epi64, _mm256_and_si256, _mm256_blend_epi32,
    _mm256_castsi256_si128, _mm256_cmpeq_epu64_mask, _mm256_cmpgt_epu64_mask,
    _mm256_madd52hi_epu64, _mm256_madd52lo_epu64, _mm256_mask_add_epi64, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_srli_epi64, _mm256_store_si256, _mm_cvtsi128_si64,
};

use super::radix::block_lanes;
use super::{Block, LANES, MASK52};

/// Most vectors of four digits per number (k <= 48 digits, 6 blocks).
pub(super) const MAX_W: usize = 12;

/// One lane: pointers to A's and N's digits (W vectors of each) and the accumulator.
struct Lane<const W: usize> {
    a: *const __m256i,
    n: *const __m256i,
    acc: [__m256i; W],
    /// a_0, n_0 and -N^-1 mod 2^52.
    low: [u64; 3],
}

impl<const W: usize> Lane<W> {
    /// # Safety
    /// `a` and `n` hold at least 4 W digits each and outlive the lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn new(a: &[Block], n: &[Block], k0: u64) -> Self {
        debug_assert!(4 * W <= LANES * a.len().min(n.len()));
        Self {
            a: a.as_ptr().cast(),
            n: n.as_ptr().cast(),
            acc: [_mm256_setzero_si256(); W],
            low: [a[0].0[0], n[0].0[0], k0],
        }
    }

    /// A's or N's vectors, read from memory each time (volatile, so that they are not
    /// hoisted into registers, which two lanes do not have).
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl")]
    unsafe fn operand(p: *const __m256i) -> [__m256i; W] {
        // SAFETY: the caller's pointer from `new`: W vectors, 32-byte aligned (blocks are
        // 64-byte aligned).
        core::array::from_fn(|j| unsafe { core::ptr::read_volatile(p.add(j)) })
    }

    /// One round with digit `bi`, t in and out (see the module contract).
    #[inline]
    #[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
    unsafe fn round(&mut self, t: u64, bi: u64) -> u64 {
        let [a0, n0, k0] = self.low;
        let vb = _mm256_set1_epi64x(bi as i64);
        let s = u128::from(t).wrapping_add(u128::from(a0) * u128::from(bi));
        let y = (s as u64).wrapping_mul(k0) & MASK52;
        let vy = _mm256_set1_epi64x(y as i64);
        // Below 2^105 + 2^64: no wrap.
        let s = s.wrapping_add(u128::from(n0) * u128::from(y));
        let (va, vn) = unsafe { (Self::operand(self.a), Self::operand(self.n)) };
        for j in 0..W {
            self.acc[j] =
                _mm256_madd52lo_epu64(_mm256_madd52lo_epu64(self.acc[j], va[j], vb), vn[j], vy);
        }
        let zero = _mm256_setzero_si256();
        for j in 0..W {
            let up = if j + 1 < W { self.acc[j + 1] } else { zero };
            self.acc[j] = _mm256_alignr_epi64::<1>(up, self.acc[j]);
        }
        // Below 2^54 + 48 2^54: no wrap.
        let t = ((s >> 52) as u64)
            .wrapping_add(_mm_cvtsi128_si64(_mm256_castsi256_si128(self.acc[0])) as u64);
        // An empty instruction that keeps t in a general register: without it the compiler
        // packs both lanes' t into one vector, which lengthens both chains. Left out of the
        // MemorySanitizer build, which cannot follow values through assembly.
        #[cfg(not(montlab_msan))]
        let t = {
            let mut t = t;
            // SAFETY: the instruction is empty; it reads and writes t's register only.
            unsafe { core::arch::asm!("/* {0} */", inout(reg) t, options(pure, nomem, nostack)) };
            t
        };
        let (va, vn) = unsafe { (Self::operand(self.a), Self::operand(self.n)) };
        for j in 0..W {
            self.acc[j] =
                _mm256_madd52hi_epu64(_mm256_madd52hi_epu64(self.acc[j], va[j], vb), vn[j], vy);
        }
        t
    }
}

/// Each lane's lane 0 from its t, the carries, and the digits stored to its `out` (zero past
/// 4 W); the two lanes in step, so that their carry chains overlap. The accumulators come by
/// value: a reference to the lanes would keep them in memory through the rounds.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn finish<const W: usize>(lanes: [([__m256i; W], u64); 2], out: [&mut [Block]; 2]) {
    assert!(
        out.iter().all(|o| 4 * W <= LANES * o.len()),
        "amm: output shorter than the lanes"
    );
    let mask = _mm256_set1_epi64x(MASK52 as i64);
    let zero = _mm256_setzero_si256();
    let mut acc = lanes.map(|(mut acc, t)| {
        acc[0] = _mm256_blend_epi32::<3>(acc[0], _mm256_set1_epi64x(t as i64));
        acc
    });
    // Lane-wise carries: digits < 2^52 + 2^12 afterwards; the top carry is 0 as the value is
    // below 2^(52 k).
    let mut prev = [zero; 2];
    for j in 0..W {
        for (acc, prev) in acc.iter_mut().zip(&mut prev) {
            let c = _mm256_srli_epi64(acc[j], 52);
            acc[j] = _mm256_add_epi64(
                _mm256_and_si256(acc[j], mask),
                _mm256_alignr_epi64::<3>(c, *prev),
            );
            *prev = c;
        }
    }
    // Ripples: carry-in bits ((G << 1) + P) ^ P over the 4 W <= 48 lane bits.
    let cin = acc.map(|acc| {
        let (mut g, mut p) = (0u64, 0u64);
        for (j, &x) in acc.iter().enumerate() {
            g |= u64::from(_mm256_cmpgt_epu64_mask(x, mask)) << (4 * j);
            p |= u64::from(_mm256_cmpeq_epu64_mask(x, mask)) << (4 * j);
        }
        ((g << 1).wrapping_add(p)) ^ p
    });
    let one = _mm256_set1_epi64x(1);
    for ((acc, cin), out) in acc.iter().zip(cin).zip(out) {
        let ptr: *mut __m256i = out.as_mut_ptr().cast();
        for (j, &x) in acc.iter().enumerate() {
            let x = _mm256_mask_add_epi64(x, ((cin >> (4 * j)) & 15) as u8, x, one);
            // SAFETY: j < W and 4 W <= 8 out.len() (asserted), 32-byte aligned.
            unsafe { _mm256_store_si256(ptr.add(j), _mm256_and_si256(x, mask)) };
        }
        for j in W..2 * out.len() {
            // SAFETY: as above, j < 2 out.len().
            unsafe { _mm256_store_si256(ptr.add(j), zero) };
        }
    }
}

/// Two independent AMMs of k rounds each (moduli may differ), W vectors of four digits per
/// number; `out[i]` gets `a[i] b[i] R^-1` up to one N_i, normalised.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
pub(super) fn amm2<const W: usize>(
    a: [&[Block]; 2],
    b: [&[Block]; 2],
    n: [&[Block]; 2],
    k0: [u64; 2],
    k: usize,
    out: [&mut [Block]; 2],
) {
    assert!(
        W <= MAX_W
            && k <= 4 * W
            && (0..2)
                .all(|i| 4 * W <= LANES * a[i].len().min(n[i].len()) && k <= LANES * b[i].len()),
        "amm: element lengths differ"
    );
    let [o0, o1] = out;
    let (b0, b1) = (&block_lanes(b[0])[..k], &block_lanes(b[1])[..k]);
    // SAFETY: lengths asserted above; the slices outlive the lanes.
    let (mut x, mut y) = unsafe {
        (
            Lane::<W>::new(a[0], n[0], k0[0]),
            Lane::<W>::new(a[1], n[1], k0[1]),
        )
    };
    let (mut tx, mut ty) = (0, 0);
    for (&bx, &by) in b0.iter().zip(b1) {
        // SAFETY: the CPU runs AVX-512 IFMA (this function's features, checked by callers).
        unsafe {
            tx = x.round(tx, bx);
            ty = y.round(ty, by);
        }
    }
    finish([(x.acc, tx), (y.acc, ty)], [o0, o1]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    /// The normalisation gives the digits of the accumulator's value (lanes of up to 60 bits,
    /// t in lane 0), on random lanes and on lanes whose carries ripple through runs of
    /// 2^52 - 1 (the generate/propagate masks).
    #[test]
    fn finish_normalises_ripples() {
        if !super::super::ifma_or_skip("pair256::finish_normalises_ripples") {
            return;
        }
        const W: usize = 5;
        let m = MASK52;
        let mut cases: Vec<[u64; 4 * W]> = vec![
            [m; 4 * W],
            core::array::from_fn(|j| if j == 0 { 1 << 53 } else { m }),
            core::array::from_fn(|j| if j % 7 == 0 { (1 << 52) + 5 } else { m }),
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..200 {
            cases.push(core::array::from_fn(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                x >> 4
            }));
        }
        for mut lanes in cases {
            // The top lane small enough that the value fits 4 W digits.
            lanes[4 * W - 1] &= (1 << 50) - 1;
            let value = |d: &[u64]| {
                d.iter()
                    .rev()
                    .fold(BigUint::default(), |acc, &l| (acc << 52u32) + l)
            };
            let acc: [__m256i; W] = core::array::from_fn(|j| {
                // SAFETY: four digits of the array at 4 j < 4 W.
                unsafe { core::ptr::read_unaligned(lanes.as_ptr().add(4 * j).cast()) }
            });
            let mut out = [[Block::default(); 3]; 2];
            let [o0, o1] = &mut out;
            // SAFETY: AVX-512 F and VL are present (checked above).
            unsafe { finish([(acc, lanes[0]), (acc, lanes[0])], [o0, o1]) };
            for o in &out {
                let d: Vec<u64> = o.iter().flat_map(|b| b.0).collect();
                assert!(
                    d.iter().all(|&v| v <= m),
                    "digits not normalised: {lanes:x?}"
                );
                assert_eq!(value(&d), value(&lanes), "{lanes:x?}");
            }
        }
    }
}
