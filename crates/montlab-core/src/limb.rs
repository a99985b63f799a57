//! Limb arithmetic shared by every kernel.
//!
//! Contract: a number is a little-endian slice of 64-bit limbs (`Limb = u64`, radix W = 2^64),
//! limb 0 least significant. Double-limb products go through `u128`, so no helper here can
//! overflow: `a*b + c + d < 2^128` for all `a, b, c, d < 2^64`. Leading zero limbs are allowed
//! everywhere unless a function says otherwise. Nothing here is constant time unless its name
//! says so (`ct_`).

/// One machine word of a multi-precision number.
pub type Limb = u64;

/// Bits in one limb (the word size w of the papers).
pub const LIMB_BITS: u32 = Limb::BITS;

/// Returns `(lo, hi)` with `hi * 2^64 + lo = a * b + c + d`; cannot overflow.
///
/// The sum is at most `(2^64 - 1)^2 + 2 (2^64 - 1) = 2^128 - 1`, so the `wrapping_*` calls
/// never wrap: they only spare the hot loops the release build's overflow checks.
#[inline(always)]
pub(crate) const fn mac(a: Limb, b: Limb, c: Limb, d: Limb) -> (Limb, Limb) {
    let t = (a as u128)
        .wrapping_mul(b as u128)
        .wrapping_add(c as u128)
        .wrapping_add(d as u128);
    (t as Limb, (t >> LIMB_BITS) as Limb)
}

/// Returns `(sum, carry)` with `carry * 2^64 + sum = a + b + carry_in`; `carry < 2^64 - 1`
/// whenever `carry_in <= 2^64 - 1` (the sum of three limbs is below `3 * 2^64`).
#[inline(always)]
pub(crate) const fn adc(a: Limb, b: Limb, carry: Limb) -> (Limb, Limb) {
    let t = (a as u128)
        .wrapping_add(b as u128)
        .wrapping_add(carry as u128);
    (t as Limb, (t >> LIMB_BITS) as Limb)
}

/// Returns `(diff, borrow)` with `diff - borrow * 2^64 = a - b - borrow_in`, borrows in `{0, 1}`.
#[inline(always)]
pub(crate) const fn sbb(a: Limb, b: Limb, borrow: Limb) -> (Limb, Limb) {
    let t = (a as u128).wrapping_sub((b as u128) + (borrow as u128));
    (t as Limb, ((t >> LIMB_BITS) as Limb) & 1)
}

/// Number of limbs once leading zero limbs are dropped (0 for the number zero).
#[inline]
pub(crate) fn normalized_len(a: &[Limb]) -> usize {
    a.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1)
}

/// Bit length of `a` (0 for zero).
pub(crate) fn bit_len(a: &[Limb]) -> u64 {
    match normalized_len(a) {
        0 => 0,
        len => {
            (len as u64 - 1) * u64::from(LIMB_BITS)
                + u64::from(LIMB_BITS - a[len - 1].leading_zeros())
        }
    }
}

/// Bit `i` of `a` (bits past the end read as 0).
#[inline]
pub(crate) fn bit(a: &[Limb], i: u64) -> bool {
    let limb = (i / u64::from(LIMB_BITS)) as usize;
    limb < a.len() && (a[limb] >> (i % u64::from(LIMB_BITS))) & 1 == 1
}

/// Compares two numbers of any lengths by value.
pub(crate) fn cmp(a: &[Limb], b: &[Limb]) -> core::cmp::Ordering {
    let (la, lb) = (normalized_len(a), normalized_len(b));
    la.cmp(&lb)
        .then_with(|| a[..la].iter().rev().cmp(b[..lb].iter().rev()))
}

/// `a -= b` over `a.len()` limbs, returning the final borrow. Requires `b.len() <= a.len()`.
pub(crate) fn sub_assign(a: &mut [Limb], b: &[Limb]) -> Limb {
    debug_assert!(b.len() <= a.len());
    let mut borrow = 0;
    for (i, ai) in a.iter_mut().enumerate() {
        let bi = b.get(i).copied().unwrap_or(0);
        (*ai, borrow) = sbb(*ai, bi, borrow);
    }
    borrow
}

/// `a += b` over `a.len()` limbs, returning the final carry. Requires `b.len() <= a.len()`.
pub(crate) fn add_assign(a: &mut [Limb], b: &[Limb]) -> Limb {
    debug_assert!(b.len() <= a.len());
    let mut carry = 0;
    for (i, ai) in a.iter_mut().enumerate() {
        let bi = b.get(i).copied().unwrap_or(0);
        (*ai, carry) = adc(*ai, bi, carry);
    }
    carry
}

/// `a += d` over `a.len()` limbs for any limb `d`, returning the carry out (`d` itself for an
/// empty `a`). Variable time: it stops where the carry does (GMP's `MPN_INCR_U`), for
/// variable-time callers only.
pub(crate) fn add_1_vartime(a: &mut [Limb], d: Limb) -> Limb {
    let mut c = d;
    for x in a.iter_mut() {
        let carried;
        (*x, carried) = x.overflowing_add(c);
        if !carried {
            return 0;
        }
        c = 1;
    }
    c
}

/// `a -= d` over `a.len()` limbs for any limb `d`, returning the borrow out; variable time as
/// [`add_1_vartime`].
pub(crate) fn sub_1_vartime(a: &mut [Limb], d: Limb) -> Limb {
    let mut b = d;
    for x in a.iter_mut() {
        let borrowed;
        (*x, borrowed) = x.overflowing_sub(b);
        if !borrowed {
            return 0;
        }
        b = 1;
    }
    b
}

/// `a = a / 2 mod 2^(64 len) - 1` for `a` below that modulus: an odd `a` becomes
/// (a + 2^(64 len) - 1) / 2 = (a >> 1) + 2^(64 len - 1).
pub(crate) fn half_mod_mersenne(a: &mut [Limb]) {
    let (len, odd) = (a.len(), a[0] & 1);
    for i in 0..len {
        let next = if i + 1 < len { a[i + 1] } else { odd };
        a[i] = (a[i] >> 1) | (next << 63);
    }
}

/// `out = a - b` over `out.len()` limbs with the final borrow returned; no branches on values.
/// Requires `a.len() == b.len() == out.len()`.
#[inline]
pub(crate) fn ct_sub(out: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    debug_assert!(a.len() == out.len() && b.len() == out.len());
    let mut borrow = 0;
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        (*o, borrow) = sbb(x, y, borrow);
    }
    borrow
}

/// `out = a + b` over `out.len()` limbs with the final carry returned; no branches on values.
/// Requires `a.len() == b.len() == out.len()`.
#[inline]
pub(crate) fn ct_add(out: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    debug_assert!(a.len() == out.len() && b.len() == out.len());
    let mut carry = 0;
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        (*o, carry) = adc(x, y, carry);
    }
    carry
}

/// `out = if choice { a } else { out }` limb by limb, selected by mask, no branch on `choice`.
#[inline]
pub(crate) fn ct_select_assign(out: &mut [Limb], a: &[Limb], choice: Limb) {
    debug_assert!(choice <= 1 && a.len() == out.len());
    let mask = choice.wrapping_neg();
    for (o, &x) in out.iter_mut().zip(a) {
        *o ^= mask & (*o ^ x);
    }
}

/// `x = 2^count x mod n` by `count` modular doublings, each a shift and a masked subtraction:
/// no branch or index on `x` or `n` (the constants of a secret modulus). `x < n`, same length.
pub(crate) fn ct_double_mod(x: &mut [Limb], n: &[Limb], count: usize) {
    debug_assert_eq!(x.len(), n.len());
    let (mut doubled, mut reduced) = (vec![0; n.len()], vec![0; n.len()]);
    for _ in 0..count {
        let mut top = 0;
        for (d, &l) in doubled.iter_mut().zip(x.iter()) {
            *d = (l << 1) | top;
            top = l >> (LIMB_BITS - 1);
        }
        // 2x < 2n: keep 2x - n unless it borrowed with no bit shifted out.
        ct_reduce_once(&mut reduced, &doubled, top, n);
        x.copy_from_slice(&reduced);
    }
}

/// The one final subtraction of a Montgomery product: `out = top W^s + t - n` when that is
/// not negative, else `out = t`, for a value `top W^s + t < 2n` (`top <= 1`), without a branch
/// on values. `out`, `t` and `n` have `s` limbs.
#[inline]
pub(crate) fn ct_reduce_once(out: &mut [Limb], t: &[Limb], top: Limb, n: &[Limb]) {
    debug_assert!(top <= 1);
    let borrow = ct_sub(out, t, n);
    ct_select_assign(out, t, (top ^ 1) & borrow);
}

/// Little-endian limbs from a xorshift stream (tests' operands).
#[cfg(test)]
pub(crate) fn xorshift_limbs(seed: &mut u64, n: usize) -> Vec<Limb> {
    (0..n)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        })
        .collect()
}

/// Odd `k`-limb test moduli at the edges of the limb count: all-ones, a top limb of 1 (3 for
/// k = 1), b^(k-1) + 1 (3 for k = 1), and one random with its top bit set.
#[cfg(test)]
pub(crate) fn edge_moduli(seed: &mut u64, k: usize) -> [Vec<Limb>; 4] {
    let small_top = 1 + 2 * Limb::from(k == 1);
    let mut short = xorshift_limbs(seed, k);
    short[0] |= 1;
    short[k - 1] = small_top;
    let mut sparse = vec![0; k];
    sparse[0] = small_top;
    sparse[k - 1] = small_top;
    let mut random = xorshift_limbs(seed, k);
    random[0] |= 1;
    random[k - 1] |= 1 << 63;
    [vec![Limb::MAX; k], short, sparse, random]
}

/// `f` on `len` zeroed limbs: on the stack in the smallest of three buffers that holds them
/// (64, 192 or 512 limbs: the scratch of one product up to 4096 bits), else on the heap. Only
/// the chosen buffer is zeroed, so small sizes pay for small buffers.
pub(crate) fn with_scratch<R>(len: usize, f: impl FnOnce(&mut [Limb]) -> R) -> R {
    if len <= 64 {
        f(&mut [0; 64][..len])
    } else if len <= 192 {
        f(&mut [0; 192][..len])
    } else if len <= 512 {
        f(&mut [0; 512][..len])
    } else {
        f(&mut vec![0; len])
    }
}

/// An operand checked against the modulus `n` (exactly `s = n.len()` limbs, no leading zero
/// limb required of `x`): `x` as `s` limbs if `x < n`, else
/// [`MontError::OperandOutOfRange`] naming `which`. The one range check of every kernel.
pub(crate) fn operand(
    x: &[Limb],
    n: &[Limb],
    which: &'static str,
) -> Result<Vec<Limb>, crate::error::MontError> {
    operand_ref(x, n, which).map(std::borrow::Cow::into_owned)
}

/// [`operand`] without the copy when `x` is already `s` limbs.
pub(crate) fn operand_ref<'a>(
    x: &'a [Limb],
    n: &[Limb],
    which: &'static str,
) -> Result<std::borrow::Cow<'a, [Limb]>, crate::error::MontError> {
    if cmp(x, n).is_ge() {
        return Err(crate::error::MontError::OperandOutOfRange { which });
    }
    if x.len() == n.len() {
        return Ok(std::borrow::Cow::Borrowed(x));
    }
    // x < N has at most s significant limbs, so truncating only drops zeros.
    let mut out = vec![0; n.len()];
    let len = normalized_len(x);
    out[..len].copy_from_slice(&x[..len]);
    Ok(std::borrow::Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cmp::Ordering;

    #[test]
    fn carries_and_borrows() {
        assert_eq!(
            mac(Limb::MAX, Limb::MAX, Limb::MAX, Limb::MAX),
            (Limb::MAX, Limb::MAX)
        );
        assert_eq!(adc(Limb::MAX, 1, 1), (1, 1));
        assert_eq!(sbb(0, 1, 0), (Limb::MAX, 1));
        assert_eq!(sbb(0, Limb::MAX, 1), (0, 1));
        assert_eq!(sbb(5, 3, 1), (1, 0));
    }

    #[test]
    fn lengths_bits_and_order() {
        assert_eq!(normalized_len(&[1, 0, 0]), 1);
        assert_eq!(normalized_len(&[0, 0]), 0);
        assert_eq!(bit_len(&[0, 1]), 65);
        assert_eq!(bit_len(&[]), 0);
        assert!(bit(&[0, 1], 64) && !bit(&[0, 1], 63) && !bit(&[0, 1], 1000));
        assert_eq!(cmp(&[5, 0, 0], &[5]), Ordering::Equal);
        assert_eq!(cmp(&[0, 1], &[Limb::MAX]), Ordering::Greater);
        assert_eq!(cmp(&[1, 2], &[2, 2]), Ordering::Less);
    }

    #[test]
    fn subtract_and_select() {
        let mut a = [0, 1];
        assert_eq!(sub_assign(&mut a, &[1]), 0);
        assert_eq!(a, [Limb::MAX, 0]);
        let mut out = [0; 2];
        assert_eq!(ct_sub(&mut out, &[0, 0], &[1, 0]), 1);
        let mut x = [7, 7];
        ct_select_assign(&mut x, &[1, 2], 0);
        assert_eq!(x, [7, 7]);
        ct_select_assign(&mut x, &[1, 2], 1);
        assert_eq!(x, [1, 2]);
    }

    /// The early-stopping small additions equal the full passes: carries that end at once,
    /// run through all ones, run out of the top, and the empty slice.
    #[test]
    fn small_additions_vartime() {
        let m = Limb::MAX;
        let cases: [&[Limb]; 6] = [&[], &[0], &[m], &[m, m, 5], &[m, m, m], &[0, 0, 0]];
        for a in cases {
            for d in [0, 1, 2, m] {
                let (mut x, mut y) = (a.to_vec(), a.to_vec());
                let mut full = vec![0; a.len()];
                if let Some(f) = full.first_mut() {
                    *f = d;
                }
                let want = if a.is_empty() {
                    d
                } else {
                    add_assign(&mut y, &full)
                };
                assert_eq!((add_1_vartime(&mut x, d), &x), (want, &y), "{a:?} + {d}");
                let (mut x, mut y) = (a.to_vec(), a.to_vec());
                let want = if a.is_empty() {
                    d
                } else {
                    sub_assign(&mut y, &full)
                };
                assert_eq!((sub_1_vartime(&mut x, d), &x), (want, &y), "{a:?} - {d}");
            }
        }
    }
}
