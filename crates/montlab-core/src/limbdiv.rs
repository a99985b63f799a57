//! Schoolbook division of `u64` limb slices: the per-modulus setup's remainders (R^2 mod N,
//! x R mod N) below [`crate::bigarith`]'s Newton range.
//!
//! Citation: D. Knuth, "The Art of Computer Programming", Vol. 2, 3rd ed., Sec. 4.3.1,
//! Algorithm D (normalize, estimate each quotient limb from the top two limbs, refine it with
//! the third, multiply and subtract, add back in the rare case it was still one too large).
//! Each estimate divides two limbs by the divisor's top limb with a precomputed reciprocal
//! (N. Möller, T. Granlund, "Improved division by invariant integers", IEEE Trans. Computers
//! 60(2), 2011, Algorithm 4), so no 128-by-64-bit hardware division runs in the loop.
//!
//! Word size 64, radix 2^64. Inputs: any dividend, a divisor whose top limb is non-zero.
//! Outputs: quotient and remainder, exact, remainder as long as the divisor. O(m n) limb
//! products for an m-limb quotient. The multiply-and-subtract row is the MULX/ADX row of
//! [`crate::mont::adx`] where enabled, else portable `u128` arithmetic.
//!
//! Left out: constant time (public moduli only), sub-quadratic division ([`crate::bigarith`]).

use crate::limb::{self, Limb};
use crate::mont::adx::Adx;

/// `(q, r)` with `a = q d + r`, `r < d`; `q` has `a.len() - d.len() + 1` limbs (at least one)
/// and `r` exactly `d.len()` limbs.
///
/// # Panics
/// If `d` is empty or its top limb is zero.
#[must_use]
pub fn div_rem(a: &[Limb], d: &[Limb]) -> (Vec<Limb>, Vec<Limb>) {
    let n = d.len();
    assert!(n > 0 && d[n - 1] != 0, "divisor with a zero top limb");
    if a.len() < n {
        let mut r = a.to_vec();
        r.resize(n, 0);
        return (vec![0], r);
    }
    let shift = d[n - 1].leading_zeros();
    let dn = shl(d, shift, n);
    let mut un = shl(a, shift, a.len() + 1);
    let m = a.len() - n; // quotient limbs: m + 1
    let mut q = vec![0; m + 1];
    let d1 = dn[n - 1];
    let d2 = if n > 1 { dn[n - 2] } else { 0 };
    let v = reciprocal(d1);
    let adx = Adx::for_limbs(n);
    for j in (0..=m).rev() {
        let (u2, u1) = (un[j + n], un[j + n - 1]);
        let u0 = if n > 1 { un[j + n - 2] } else { 0 };
        // u2 <= d1 (the previous step left un[j + n ..] < dn). The estimate from the top two
        // limbs (the largest limb when u2 = d1) is at most 2 too large; Knuth's test with the
        // third limb leaves it at most 1 too large.
        let (mut qhat, mut rhat, mut rhat_big) = if u2 >= d1 {
            let (r, over) = u1.overflowing_add(d1);
            (Limb::MAX, r, over)
        } else {
            let (q, r) = div_2by1(u2, u1, d1, v);
            (q, r, false)
        };
        while !rhat_big
            && u128::from(qhat) * u128::from(d2) > (u128::from(rhat) << 64 | u128::from(u0))
        {
            qhat -= 1;
            (rhat, rhat_big) = rhat.overflowing_add(d1);
        }
        let borrow = submul_1(adx, &mut un[j..j + n], &dn, qhat);
        let (top, under) = un[j + n].overflowing_sub(borrow);
        un[j + n] = top;
        if under {
            // One too large (probability about 2 / 2^64 on random operands): add d back.
            qhat -= 1;
            let carry = limb::add_assign(&mut un[j..j + n], &dn);
            un[j + n] = un[j + n].wrapping_add(carry);
        }
        debug_assert!(un[j + n] == 0);
        q[j] = qhat;
    }
    (q, shr(&un[..n], shift))
}

/// `a mod d` (see [`div_rem`]).
#[must_use]
pub fn rem(a: &[Limb], d: &[Limb]) -> Vec<Limb> {
    div_rem(a, d).1
}

/// `a << shift` (shift < 64) as `len >= a.len()` limbs (the bits shifted out of the top limb
/// go into limb `a.len()` when there is room).
fn shl(a: &[Limb], shift: u32, len: usize) -> Vec<Limb> {
    let mut out = vec![0; len];
    if shift == 0 {
        out[..a.len()].copy_from_slice(a);
        return out;
    }
    let mut carry = 0;
    for (o, &x) in out.iter_mut().zip(a) {
        *o = (x << shift) | carry;
        carry = x >> (64 - shift);
    }
    if len > a.len() {
        out[a.len()] = carry;
    }
    out
}

/// `a >> shift` (shift < 64), same length.
fn shr(a: &[Limb], shift: u32) -> Vec<Limb> {
    if shift == 0 {
        return a.to_vec();
    }
    let mut out = vec![0; a.len()];
    for i in 0..a.len() {
        let hi = a.get(i + 1).map_or(0, |&h| h << (64 - shift));
        out[i] = (a[i] >> shift) | hi;
    }
    out
}

/// floor((2^128 - 1) / d) - 2^64 for a normalized d (top bit set).
fn reciprocal(d: Limb) -> Limb {
    debug_assert!(d >> 63 == 1);
    (u128::MAX / u128::from(d)) as Limb // the quotient is 2^64 + v, v < 2^64
}

/// (u1 2^64 + u0) divided by the normalized d, u1 < d, with v = [`reciprocal`]`(d)`:
/// (quotient, remainder). Möller-Granlund's Algorithm 4.
fn div_2by1(u1: Limb, u0: Limb, d: Limb, v: Limb) -> (Limb, Limb) {
    debug_assert!(u1 < d && d >> 63 == 1);
    let q = (u128::from(v) * u128::from(u1)).wrapping_add(u128::from(u1) << 64 | u128::from(u0));
    let (mut q1, q0) = (((q >> 64) as Limb).wrapping_add(1), q as Limb);
    let mut r = u0.wrapping_sub(q1.wrapping_mul(d));
    if r > q0 {
        q1 = q1.wrapping_sub(1);
        r = r.wrapping_add(d);
    }
    if r >= d {
        q1 += 1;
        r -= d;
    }
    (q1, r)
}

/// r -= a v over `a.len()` limbs; returns the borrow out of the top limb (< 2^64).
fn submul_1(adx: Option<Adx>, r: &mut [Limb], a: &[Limb], v: Limb) -> Limb {
    if let Some(adx) = adx {
        return adx.submul_1(r, a, v);
    }
    submul_1_portable(r, a, v)
}

/// [`submul_1`] in `u128` arithmetic.
pub(crate) fn submul_1_portable(r: &mut [Limb], a: &[Limb], v: Limb) -> Limb {
    let mut borrow: Limb = 0;
    for (ri, &ai) in r.iter_mut().zip(a) {
        let p = u128::from(ai) * u128::from(v) + u128::from(borrow);
        let (d, under) = ri.overflowing_sub(p as Limb);
        *ri = d;
        borrow = (p >> 64) as Limb + Limb::from(under);
    }
    borrow
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bigarith::from_limbs;
    use num_bigint::BigUint;

    fn check(a: &[Limb], d: &[Limb]) {
        let (q, r) = div_rem(a, d);
        let (ab, db) = (from_limbs(a), from_limbs(d));
        assert_eq!(r.len(), d.len());
        assert_eq!(from_limbs(&q), &ab / &db, "quotient, a {a:x?} d {d:x?}");
        assert_eq!(from_limbs(&r), &ab % &db, "remainder, a {a:x?} d {d:x?}");
    }

    #[test]
    fn div_2by1_matches_u128_division() {
        let mut seed = 0x1234_5678_9abc_def1;
        for _ in 0..20_000 {
            let w = limb::xorshift_limbs(&mut seed, 3);
            let d = w[0] | 1 << 63;
            for d in [d, 1 << 63, Limb::MAX] {
                let u1 = w[1] % d;
                for u1 in [u1, d - 1, 0] {
                    let u = u128::from(u1) << 64 | u128::from(w[2]);
                    let (q, r) = div_2by1(u1, w[2], d, reciprocal(d));
                    assert_eq!(
                        (u128::from(q), u128::from(r)),
                        (u / u128::from(d), u % u128::from(d))
                    );
                }
            }
        }
    }

    #[test]
    fn submul_rows_agree_with_u128() {
        let mut seed = 0x0fed_cba9_8765_4321;
        for len in 0..=21 {
            for v in [0, 1, Limb::MAX, limb::xorshift_limbs(&mut seed, 1)[0]] {
                let a = limb::xorshift_limbs(&mut seed, len);
                let r0 = limb::xorshift_limbs(&mut seed, len);
                for (a, r0) in [
                    (a.clone(), r0.clone()),
                    (vec![Limb::MAX; len], vec![0; len]),
                ] {
                    // r0 - a v = r - borrow 2^(64 len).
                    let mut r = r0.clone();
                    let borrow = submul_1_portable(&mut r, &a, v);
                    let lhs = from_limbs(&r) + (from_limbs(&a) * BigUint::from(v));
                    let rhs = from_limbs(&r0) + (BigUint::from(borrow) << (64 * len));
                    assert_eq!(lhs, rhs, "len {len}");
                    if let Some(adx) = Adx::new() {
                        let mut r2 = r0.clone();
                        assert_eq!(adx.submul_1(&mut r2, &a, v), borrow, "len {len}");
                        assert_eq!(r2, r, "len {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn quotient_and_remainder_are_exact() {
        let mut seed = 0xdead_beef_0bad_f00d;
        for n in 1..=20 {
            for extra in [0, 1, 2, 5, n, n + 3] {
                let a = limb::xorshift_limbs(&mut seed, n + extra);
                for d in limb::edge_moduli(&mut seed, n) {
                    check(&a, &d);
                    check(&vec![Limb::MAX; n + extra], &d);
                    let mut pow2 = vec![0; n + extra];
                    pow2[n + extra - 1] = 1;
                    check(&pow2, &d);
                }
                // Divisors whose top limb is 2^63 or all ones, the estimate's extremes.
                let mut d = limb::xorshift_limbs(&mut seed, n);
                d[n - 1] = 1 << 63;
                check(&a, &d);
                d[n - 1] = Limb::MAX;
                check(&a, &d);
            }
        }
        check(&[5], &[7]);
        check(&[], &[3]);
        check(&[1, 2], &[1, 2, 3]);
    }

    #[test]
    fn add_back_cases_are_exact() {
        // Dividends just below a multiple of d, with d's lower limbs large: the estimate from
        // the top limbs overshoots and the add-back step runs.
        let mut seed = 0x5eed_5eed_5eed_5eed;
        for n in 2..=12 {
            for _ in 0..200 {
                let mut d = limb::xorshift_limbs(&mut seed, n);
                d[n - 1] |= 1 << 63;
                d[n - 2] = Limb::MAX;
                let mut q = limb::xorshift_limbs(&mut seed, 2);
                q[0] |= 1;
                let prod = from_limbs(&d) * from_limbs(&q);
                for delta in [0u8, 1, 2] {
                    let a = prod.clone() - BigUint::from(delta); // prod > d >= 2^63
                    let mut limbs = a.to_u64_digits();
                    limbs.resize(n + 2, 0);
                    check(&limbs, &d);
                }
            }
        }
        // Knuth's classic add-back case, scaled to 64-bit limbs.
        check(
            &[
                0,
                0x7fff_ffff_ffff_ffff,
                0x8000_0000_0000_0000,
                0x7fff_ffff_ffff_ffff,
            ],
            &[1, 0, 0x8000_0000_0000_0000],
        );
    }
}
