//! Modular inverse by Lehmer's extended Euclidean algorithm, for per-modulus precomputation.
//!
//! Citation: D. E. Knuth, "The Art of Computer Programming", Vol. 2, 3rd ed., Sec. 4.5.2,
//! Algorithm L (Lehmer's gcd), with the cofactors carried along (A. Menezes et al., "Handbook
//! of Applied Cryptography", Algorithm 14.57 and note 14.64).
//!
//! Word size: the quotient sequence is simulated on the leading 62 bits of the two remainders
//! (single-precision cofactors of at most 2^62, kept in `i128`); one multi-precision update then
//! applies the whole batch, so a 65536-bit inverse takes a few thousand linear passes instead
//! of one long division per quotient. When the simulation cannot certify even one quotient, a
//! full-precision division step runs instead. The collected quotients are exact: a batch stops
//! as soon as the quotients from the two bounding fractions differ (Collins' condition on both
//! ends of the interval).
//!
//! Input: any `a` and modulus `m > 1`. Output: `a^-1 mod m` in [1, m), or `None` when
//! gcd(a, m) > 1. Variable time; setup only, never for secrets.

use num_bigint::{BigInt, BigUint, Sign};

/// `a^-1 mod m`, or `None` if `gcd(a, m) != 1` (also for `m <= 1`).
#[must_use]
pub fn mod_inverse(a: &BigUint, m: &BigUint) -> Option<BigUint> {
    if *m <= BigUint::from(1u8) {
        return None;
    }
    // Invariant: r0 = s0 a (mod m), r1 = s1 a (mod m), r0 >= r1 >= 0.
    let mut r0 = BigInt::from(m.clone());
    let mut r1 = BigInt::from(a % m);
    let mut s0 = BigInt::from(0u8);
    let mut s1 = BigInt::from(1u8);
    while r1.sign() != Sign::NoSign {
        let bits = r0.bits();
        if bits <= 62 {
            // Both fit a word: plain Euclid steps to the end.
            let q = &r0 / &r1;
            let r2 = &r0 - &q * &r1;
            let s2 = &s0 - &q * &s1;
            (r0, r1, s0, s1) = (r1, r2, s1, s2);
            continue;
        }
        let shift = bits - 62;
        let x = top_bits(&r0, shift);
        let y = top_bits(&r1, shift);
        let (a0, b0, c0, d0) = simulate(x, y);
        if b0 == 0 {
            // No certified quotient: one full-precision step.
            let q = &r0 / &r1;
            let r2 = &r0 - &q * &r1;
            let s2 = &s0 - &q * &s1;
            (r0, r1, s0, s1) = (r1, r2, s1, s2);
        } else {
            let nr0 = &r0 * a0 + &r1 * b0;
            let nr1 = &r0 * c0 + &r1 * d0;
            let ns0 = &s0 * a0 + &s1 * b0;
            let ns1 = &s0 * c0 + &s1 * d0;
            (r0, r1, s0, s1) = (nr0, nr1, ns0, ns1);
        }
        debug_assert!(r0 >= r1 && r1.sign() != Sign::Minus);
    }
    if r0 != BigInt::from(1u8) {
        return None;
    }
    let m = BigInt::from(m.clone());
    let inv = ((s0 % &m) + &m) % &m;
    inv.to_biguint()
}

/// `floor(v / 2^shift)` as a word (`v >= 0`, at most 62 bits after the shift).
fn top_bits(v: &BigInt, shift: u64) -> i128 {
    let t: BigInt = v >> shift;
    let (_, digits) = t.to_u64_digits();
    i128::from(digits.first().copied().unwrap_or(0))
}

/// Knuth's Algorithm L inner loop on the leading words x >= y: the cofactors (A, B, C, D)
/// of the quotients certified from x and y alone (identity when none is).
fn simulate(mut x: i128, mut y: i128) -> (i128, i128, i128, i128) {
    let (mut a, mut b, mut c, mut d) = (1i128, 0i128, 0i128, 1i128);
    loop {
        if y + c == 0 || y + d == 0 {
            break;
        }
        let q = (x + a) / (y + c);
        if q != (x + b) / (y + d) {
            break;
        }
        (a, c) = (c, a - q * c);
        (b, d) = (d, b - q * d);
        (x, y) = (y, x - q * y);
    }
    (a, b, c, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(a: &BigUint, m: &BigUint) {
        assert_eq!(mod_inverse(a, m), a.modinv(m), "a={a} m={m}");
    }

    #[test]
    fn small_and_edge_cases() {
        for m in 2u32..60 {
            for a in 0u32..70 {
                check(&BigUint::from(a), &BigUint::from(m));
            }
        }
        assert_eq!(mod_inverse(&BigUint::from(3u8), &BigUint::from(1u8)), None);
        assert_eq!(mod_inverse(&BigUint::from(3u8), &BigUint::from(0u8)), None);
    }

    #[test]
    fn large_against_num_bigint() {
        // SplitMix64 operands: Fermat-style moduli 2^l + 1, odd moduli, shared factors.
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for limbs in [1usize, 2, 3, 7, 16, 33, 64, 130] {
            for _ in 0..4 {
                let a = BigUint::new((0..2 * limbs).map(|_| next() as u32).collect());
                let one = BigUint::from(1u8);
                let odd = BigUint::new((0..2 * limbs).map(|_| next() as u32).collect()) | &one;
                let fermat = (BigUint::from(1u8) << (64 * limbs)) + 1u8;
                for m in [&odd, &fermat] {
                    check(&a, m);
                    check(&(&a | &one), m);
                    check(&(m - 1u8), m);
                    check(&(&a * 3u8 * m + 1u8), m);
                }
                check(&(&odd * 3u8), &(&a * 3u8 + 3u8)); // gcd >= 3: None
            }
        }
    }
}
