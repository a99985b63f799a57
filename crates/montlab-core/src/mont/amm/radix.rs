//! Radix conversions of [`super`] (`amm`): 2^64 limbs to 2^52 digits and back, eight lanes a
//! step on AVX-512F, with the scalar loops as the fallback and the tests' oracle.
//!
//! 64 to 52: block j of digits starts at bit 416 j, limb floor(6.5 j), at offset 0 (j even)
//! or 32 (j odd); each of its digits lies in two of the eight limbs from there, so one masked
//! load, two lane permutations and a double shift make the block.
//! 52 to 64: block j of limbs starts at bit 512 j, digit floor(512 j / 52) at an offset that
//! repeats every 13 blocks; each limb takes three digits of the sixteen from there. Digits
//! must be below 2^52 (the kernel's elements are). Lengths need not be multiples of 8: loads
//! and stores are masked at the ends of the slices.
//!
//! Variable time only in the lengths.

use super::{Block, LANES, MASK52};

/// True when this CPU has AVX-512F (std caches the check).
fn avx512f() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The blocks' lanes as one slice of digits.
pub(super) fn block_lanes(d: &[Block]) -> &[u64] {
    // SAFETY: `Block` is `repr(C)` over `[u64; LANES]` with no padding (64 bytes, align 64), so
    // `d` is `LANES * d.len()` initialised `u64`s.
    unsafe { core::slice::from_raw_parts(d.as_ptr().cast::<u64>(), LANES * d.len()) }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::{
        __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_mask_storeu_epi64,
        _mm512_maskz_loadu_epi64, _mm512_or_si512, _mm512_permutex2var_epi64,
        _mm512_permutexvar_epi64, _mm512_set1_epi64, _mm512_sllv_epi64, _mm512_srlv_epi64,
        _mm512_sub_epi64,
    };

    use super::super::simd::{load as plan, store};
    use super::super::{Block, LANES, MASK52};
    use super::block_lanes;

    /// A lane plan: permutation indexes or shift counts for eight lanes.
    type Lanes = Block;

    /// 64 to 52 for a block at limb offset `base` bits (0 or 32): the limb holding each digit's
    /// low bit, and the bit offset in it.
    const fn to_plan(base: u64) -> [Lanes; 2] {
        let (mut idx, mut off) = ([0; LANES], [0; LANES]);
        let mut i = 0;
        while i < LANES {
            let bit = base + 52 * i as u64;
            idx[i] = bit / 64;
            off[i] = bit % 64;
            i += 1;
        }
        [Block(idx), Block(off)]
    }

    /// Plans of even and odd digit blocks.
    const TO_EVEN: [Lanes; 2] = to_plan(0);
    const TO_ODD: [Lanes; 2] = to_plan(32);

    /// 52 to 64 for limb block j, by j mod 13: each limb's first digit (from digit
    /// floor(512 j / 52)) and its bit offset in that digit.
    const FROM_PLAN: [[Lanes; 2]; 13] = {
        let mut plan = [[Block([0; LANES]); 2]; 13];
        let mut j = 0;
        while j < 13 {
            let start = 512 * j as u64 % 52;
            let mut t = 0;
            while t < LANES {
                let bit = start + 64 * t as u64;
                plan[j][0].0[t] = bit / 52;
                plan[j][1].0[t] = bit % 52;
                t += 1;
            }
            j += 1;
        }
        plan
    };

    /// Mask of the first `n` lanes (`n` <= 8).
    fn first(n: usize) -> u8 {
        u8::try_from((1u16 << n.min(LANES)) - 1).unwrap_or(u8::MAX)
    }

    /// Up to 8 lanes of `x` from `at` (lanes past its end are zero).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn load_from(x: &[u64], at: usize) -> __m512i {
        let n = x.len().saturating_sub(at);
        if n == 0 {
            return _mm512_set1_epi64(0);
        }
        // SAFETY: `at < x.len()`, and the mask covers only lanes below `x.len()`: a masked load
        // reads (and may fault on) no other lane.
        unsafe { _mm512_maskz_loadu_epi64(first(n), x.as_ptr().add(at).cast()) }
    }

    /// `x` (little-endian limbs) as radix-2^52 digits in `d`, every block written.
    #[target_feature(enable = "avx512f")]
    pub(super) fn digits_into(x: &[u64], d: &mut [Block]) {
        let mask = _mm512_set1_epi64(MASK52 as i64);
        let sixty_four = _mm512_set1_epi64(64);
        let [even_idx, even_off] = [plan(&TO_EVEN[0]), plan(&TO_EVEN[1])];
        let [odd_idx, odd_off] = [plan(&TO_ODD[0]), plan(&TO_ODD[1])];
        let one = _mm512_set1_epi64(1);
        for (j, blk) in d.iter_mut().enumerate() {
            let (idx, off) = if j % 2 == 0 {
                (even_idx, even_off)
            } else {
                (odd_idx, odd_off)
            };
            let v = load_from(x, 6 * j + j / 2);
            let lo = _mm512_permutexvar_epi64(idx, v);
            let hi = _mm512_permutexvar_epi64(_mm512_add_epi64(idx, one), v);
            let up = _mm512_sub_epi64(sixty_four, off);
            // A count of 64 (offset 0) gives 0: the digit lies in one limb.
            let dig = _mm512_or_si512(_mm512_srlv_epi64(lo, off), _mm512_sllv_epi64(hi, up));
            store(blk, _mm512_and_si512(dig, mask));
        }
    }

    /// The digits of `d` (each below 2^52) as limbs in `out`, every limb written.
    #[target_feature(enable = "avx512f")]
    pub(super) fn from_digits(d: &[Block], out: &mut [u64]) {
        let digits: &[u64] = block_lanes(d);
        let fifty_two = _mm512_set1_epi64(52);
        let hundred_four = _mm512_set1_epi64(104);
        let two = _mm512_set1_epi64(2);
        let one = _mm512_set1_epi64(1);
        let blocks = out.len().div_ceil(LANES);
        for j in 0..blocks {
            let p = &FROM_PLAN[j % 13];
            let (idx, off) = (plan(&p[0]), plan(&p[1]));
            let at = 512 * j / 52;
            let (g0, g1) = (load_from(digits, at), load_from(digits, at + LANES));
            let d0 = _mm512_permutex2var_epi64(g0, idx, g1);
            let d1 = _mm512_permutex2var_epi64(g0, _mm512_add_epi64(idx, one), g1);
            let d2 = _mm512_permutex2var_epi64(g0, _mm512_add_epi64(idx, two), g1);
            let sub = _mm512_sub_epi64;
            // Counts of 64 and more (the third digit when the limb ends within the second) give 0.
            let limb = _mm512_or_si512(
                _mm512_or_si512(
                    _mm512_srlv_epi64(d0, off),
                    _mm512_sllv_epi64(d1, sub(fifty_two, off)),
                ),
                _mm512_sllv_epi64(d2, sub(hundred_four, off)),
            );
            let n = out.len() - LANES * j;
            // SAFETY: lane t is stored to `out[8 j + t]` only under the mask `t < n`, in bounds.
            unsafe {
                _mm512_mask_storeu_epi64(out.as_mut_ptr().add(LANES * j).cast(), first(n), limb);
            }
        }
    }
}

/// Radix 2^64 to radix 2^52 into `d` (all of it written); `x` must fit in `d`'s digits.
pub(super) fn digits_into(x: &[u64], d: &mut [Block]) {
    debug_assert!(
        crate::limb::bit_len(x) <= 52 * (LANES * d.len()) as u64,
        "amm: value too large"
    );
    #[cfg(target_arch = "x86_64")]
    if avx512f() {
        // SAFETY: the CPU has AVX-512F (checked above).
        return unsafe { avx512::digits_into(x, d) };
    }
    digits_into_scalar(x, d);
}

/// Radix 2^52 to radix 2^64 into `out` (all of it written); digits must be below 2^52, and
/// those past `out`'s bits zero.
pub(super) fn from_digits(d: &[Block], out: &mut [u64]) {
    debug_assert!(
        block_lanes(d).iter().all(|&v| v <= MASK52),
        "amm: digit above 2^52"
    );
    #[cfg(target_arch = "x86_64")]
    if avx512f() {
        // SAFETY: the CPU has AVX-512F (checked above).
        unsafe { avx512::from_digits(d, out) };
    } else {
        from_digits_scalar(d, out);
    }
    #[cfg(not(target_arch = "x86_64"))]
    from_digits_scalar(d, out);
    debug_assert!(
        {
            let mut wide = vec![0; out.len() + 2 * d.len() * LANES];
            from_digits_scalar(d, &mut wide);
            wide[out.len()..].iter().all(|&w| w == 0) && wide[..out.len()] == *out
        },
        "amm: value does not fit"
    );
}

/// [`digits_into`] one digit at a time.
fn digits_into_scalar(x: &[u64], d: &mut [Block]) {
    d.fill(Block::default());
    for i in 0..LANES * d.len() {
        let bit = 52 * i;
        let (w, off) = (bit / 64, bit % 64);
        if w >= x.len() {
            break;
        }
        let mut v = x[w] >> off;
        if off > 12 && w + 1 < x.len() {
            v |= x[w + 1] << (64 - off);
        }
        d[i / LANES].0[i % LANES] = v & MASK52;
    }
}

/// [`from_digits`] one digit at a time (bits past `out` are dropped).
fn from_digits_scalar(d: &[Block], out: &mut [u64]) {
    out.fill(0);
    for (i, &v) in block_lanes(d).iter().enumerate() {
        let bit = 52 * i;
        let (w, off) = (bit / 64, bit % 64);
        if w >= out.len() {
            continue;
        }
        out[w] |= v << off;
        if off > 12 && w + 1 < out.len() {
            out[w + 1] |= v >> (64 - off);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::xorshift_limbs;

    /// The vector conversions equal the scalar ones for every length from 1 to 70 limbs (both
    /// digit-block parities, every tail) and past the 13-block period of the limb blocks (up
    /// to 826 limbs, 52830 bits), on random, all-ones and single-bit values, and round-trip.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_conversions_match_scalar() {
        // Every IFMA CPU has AVX-512F: a run that requires the IFMA tests requires this one.
        if !crate::mont::run_or_skip(
            super::avx512f(),
            "MONTLAB_REQUIRE_IFMA",
            "vector_conversions_match_scalar",
            "this CPU lacks AVX-512F",
        ) {
            return;
        }
        let mut state = 0x2545_f491_4f6c_dd1d;
        for s in (1..=70usize).chain([103, 104, 105, 112, 113, 208, 417, 826]) {
            let vecs = (64 * s).div_ceil(52).div_ceil(LANES) + usize::from(s % 3 == 0);
            let values = [
                xorshift_limbs(&mut state, s),
                vec![u64::MAX; s],
                (0..s).map(|i| u64::from(i == s - 1) << 63).collect(),
            ];
            for x in values {
                let (mut dv, mut ds) =
                    (vec![Block([7; LANES]); vecs], vec![Block::default(); vecs]);
                // SAFETY: AVX-512F checked above.
                unsafe { avx512::digits_into(&x, &mut dv) };
                digits_into_scalar(&x, &mut ds);
                assert_eq!(dv, ds, "64 to 52, {s} limbs");
                for len in [s, s + 1] {
                    let (mut v, mut w) = (vec![u64::MAX; len], vec![0; len]);
                    // SAFETY: as above.
                    unsafe { avx512::from_digits(&ds, &mut v) };
                    from_digits_scalar(&ds, &mut w);
                    assert_eq!(v, w, "52 to 64, {s} limbs into {len}");
                    assert_eq!(v[..s], x[..], "round trip, {s} limbs");
                }
            }
        }
    }
}
