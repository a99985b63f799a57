//! Sub-quadratic big-integer products and division for the per-modulus setup (R mod N,
//! R^2 mod N, the steps of [`crate::inverse`]).
//!
//! Citation: products by three-prime NTTs ([`crate::spectral::product`]); division by a
//! reciprocal from Newton's iteration x' = x + x (1 - b x) at doubling precision, then one
//! product and a final correction (R. Brent, P. Zimmermann, "Modern Computer Arithmetic",
//! Cambridge 2010, Secs. 3.4.1 and 1.4.1).
//!
//! Ranges: any non-negative operands (signed ones in [`imul`]); products up to
//! [`crate::spectral::product::MAX_PRODUCT_LIMBS`] limbs use the NTT, longer ones and short
//! ones num-bigint. Word size 64 bits. Results are exact: the approximate quotient is corrected
//! by comparison, and falls back to schoolbook division ([`crate::limbdiv`], also the base case
//! below [`DIV_BASE_BITS`]) if it were ever off by more than a few units. Costs O(M(n)) per
//! division, against schoolbook's O(n^2).
//!
//! Left out: constant time (setup only, on public moduli).

use num_bigint::{BigInt, BigUint, Sign};

use crate::spectral::product::{self, MAX_PRODUCT_LIMBS};

/// Products multiply on the NTT when the shorter operand has this many limbs and both
/// together [`NTT_MIN_TOTAL`]; below, num-bigint's schoolbook or Karatsuba is faster.
const NTT_MIN_LIMBS: usize = 32;
const NTT_MIN_TOTAL: usize = 512;
/// Quotients or divisors up to this many bits divide by schoolbook (faster there).
const DIV_BASE_BITS: u64 = 1 << 17;
/// Reciprocal precision (bits) computed directly rather than by a Newton step.
const RECIP_BASE_BITS: u64 = 1024;

/// A `BigUint` from little-endian `u64` limbs.
#[must_use]
pub fn from_limbs(limbs: &[u64]) -> BigUint {
    BigUint::new(
        limbs
            .iter()
            .flat_map(|&l| [l as u32, (l >> 32) as u32])
            .collect(),
    )
}

/// a * b.
#[must_use]
pub fn mul(a: &BigUint, b: &BigUint) -> BigUint {
    let (da, db) = (a.to_u64_digits(), b.to_u64_digits());
    let total = da.len() + db.len();
    if da.len().min(db.len()) < NTT_MIN_LIMBS
        || !(NTT_MIN_TOTAL..=MAX_PRODUCT_LIMBS).contains(&total)
    {
        return a * b;
    }
    from_limbs(&product::mul(&da, &db))
}

/// a * b, signed.
#[must_use]
pub fn imul(a: &BigInt, b: &BigInt) -> BigInt {
    let sign = a.sign() * b.sign();
    BigInt::from_biguint(sign, mul(a.magnitude(), b.magnitude()))
}

/// b * 2^k for k >= 0, floor(b / 2^-k) for k < 0.
fn shift(b: &BigUint, k: i64) -> BigUint {
    if k >= 0 {
        b << k.unsigned_abs()
    } else {
        b >> k.unsigned_abs()
    }
}

/// An approximation of 2^(n - 1 + l) / b within a few units, n = bits(b) > 0.
fn recip(b: &BigUint, l: u64) -> BigUint {
    let n = b.bits();
    // b's top bits suffice: the relative error they add is 2^-(l + 63).
    let t = l + 64;
    let bt = shift(b, t as i64 - n as i64); // b 2^(t - n), t bits
    if l <= RECIP_BASE_BITS {
        return (BigUint::from(1u8) << (t - 1 + l)) / bt;
    }
    // y ~ 2^(n - 1 + h) / b to h bits; one Newton step doubles that to l bits:
    // X = y 2^(l - h) + y E 2^(l - h - (t - 1 + h)), E = 2^(t - 1 + h) - bt y.
    let h = l / 2 + 64;
    let y = recip(b, h);
    let e = BigInt::from(BigUint::from(1u8) << (t - 1 + h)) - BigInt::from(mul(&bt, &y));
    let corr = imul(&BigInt::from(y.clone()), &e) >> (t - 1 + 2 * h - l);
    let x = BigInt::from(y << (l - h)) + corr;
    x.to_biguint().unwrap_or_default()
}

/// (a / b, a mod b) for b > 0.
///
/// # Panics
/// If b = 0.
#[must_use]
pub fn div_rem(a: &BigUint, b: &BigUint) -> (BigUint, BigUint) {
    assert!(b.bits() > 0, "division by zero");
    let (na, nb) = (a.bits(), b.bits());
    if na < nb {
        return (BigUint::default(), a.clone());
    }
    let qbits = na - nb + 1;
    if qbits <= DIV_BASE_BITS || nb <= DIV_BASE_BITS {
        return small_div_rem(a, b);
    }
    let l = qbits + 2;
    let x = recip(b, l);
    let q = mul(&(a >> (nb - 1)), &x) >> l;
    correct(a, q, b)
}

/// 2^k mod b for b > 0. The quotient floor(2^k / b) is itself a reciprocal of b, so this
/// costs one Newton reciprocal and one product, against [`div_rem`]'s two products.
///
/// # Panics
/// If b = 0.
#[must_use]
pub fn pow2_rem(k: u64, b: &BigUint) -> BigUint {
    assert!(b.bits() > 0, "division by zero");
    let nb = b.bits();
    let a = BigUint::from(1u8) << k;
    if k < nb {
        return small_div_rem(&a, b).1;
    }
    let qbits = k - nb + 1;
    if qbits <= DIV_BASE_BITS || nb <= DIV_BASE_BITS {
        return small_div_rem(&a, b).1;
    }
    // recip(b, qbits) is within a few units of 2^(nb - 1 + qbits) / b = 2^k / b.
    correct(&a, recip(b, qbits), b).1
}

/// (q, a - q b) from an approximate quotient q of a / b, corrected by a few units.
fn correct(a: &BigUint, q: BigUint, b: &BigUint) -> (BigUint, BigUint) {
    let (mut q, mut r) = (
        BigInt::from(q.clone()),
        BigInt::from(a.clone()) - BigInt::from(mul(&q, b)),
    );
    let bi = BigInt::from(b.clone());
    for _ in 0..8 {
        if r.sign() == Sign::Minus {
            r += &bi;
            q -= 1u8;
        } else if r >= bi {
            r -= &bi;
            q += 1u8;
        } else {
            let (q, r) = (q.to_biguint(), r.to_biguint());
            if let (Some(q), Some(r)) = (q, r) {
                return (q, r);
            }
            break;
        }
    }
    debug_assert!(false, "reciprocal off by more than 8 units");
    small_div_rem(a, b)
}

/// Schoolbook division ([`crate::limbdiv`]; quotient and remainder in one pass).
fn small_div_rem(a: &BigUint, b: &BigUint) -> (BigUint, BigUint) {
    let (q, r) = crate::limbdiv::div_rem(&a.to_u64_digits(), &b.to_u64_digits());
    (from_limbs(&q), from_limbs(&r))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// SplitMix64 from `seed`: the operands of the setup-arithmetic tests.
    pub(crate) fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
    }

    fn random(next: &mut impl FnMut() -> u64, limbs: usize) -> BigUint {
        from_limbs(&(0..limbs).map(|_| next()).collect::<Vec<_>>())
    }

    #[test]
    fn products_and_divisions_equal_num_bigint() {
        let mut next = rng(7);
        let one = BigUint::from(1u8);
        for &(la, lb) in &[
            (2, 1),
            (100, 60),
            (300, 100),
            (400, 390),
            (1000, 130),
            (2000, 1000),
            (3000, 2999),
            (7000, 2100), // Newton division: divisor and quotient above DIV_BASE_BITS
        ] {
            let a = random(&mut next, la);
            let b = random(&mut next, lb) | &one;
            assert_eq!(mul(&a, &b), &a * &b);
            let neg = BigInt::from(a.clone()) * -1;
            assert_eq!(
                imul(&neg, &BigInt::from(b.clone())),
                &neg * BigInt::from(b.clone())
            );
            let structured = [
                a.clone(),
                (&one << (64 * la)) - &one,              // all ones
                (&one << (64 * la)) + &one,              // 2^k + 1
                &b * &b - &one,                          // just below b^2
                &b * (&one << (64 * (la - lb.min(la)))), // an exact multiple
            ];
            for (i, x) in structured.iter().enumerate() {
                for d in [
                    &b,
                    &((&one << (64 * lb - 1)) | &one),
                    &((&one << (64 * lb)) - &one),
                ] {
                    assert_eq!(div_rem(x, d), (x / d, x % d), "case {i}: {la} / {lb} limbs");
                    let k = x.bits() + 3;
                    assert_eq!(pow2_rem(k, d), (&one << k) % d, "2^{k} mod {lb} limbs");
                }
            }
        }
    }
}
