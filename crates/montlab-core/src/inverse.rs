//! Modular inverse: Lehmer's extended Euclidean algorithm, and above 2^17 bits a half-gcd
//! recursion on top of it, for per-modulus precomputation; and the inverse modulo a power of
//! two by Newton-Hensel lifting ([`inverse_mod_pow2`], O(M(n)): the `ntt_redc` setup).
//!
//! Citation: D. E. Knuth, "The Art of Computer Programming", Vol. 2, 3rd ed., Sec. 4.5.2,
//! Algorithm L (Lehmer's gcd), with the cofactors carried along (A. Menezes et al., "Handbook
//! of Applied Cryptography", Algorithm 14.57 and note 14.64). The recursion is Schönhage's
//! half-gcd in the form of N. Möller, "On Schönhage's algorithm and subquadratic integer gcd
//! computation", Math. Comp. 77, 2008: the matrix that reduces the top half of (x, y) reduces
//! (x, y) by about as many bits, so a few recursive calls on at most half the bits and a few
//! products reduce an n-bit pair to n/2 bits, in O(M(n) log n) with the products of
//! [`crate::bigarith`].
//!
//! Word size: the quotient sequence is simulated on the leading 62 bits of the two remainders
//! (single-precision cofactors of at most 2^62, kept in `i128`); one multi-precision update then
//! applies the whole batch, so a 65536-bit inverse takes a few thousand linear passes instead
//! of one long division per quotient. When the simulation cannot certify even one quotient, a
//! full-precision division step runs instead. The collected quotients are exact: a batch stops
//! as soon as the quotients from the two bounding fractions differ (Collins' condition on both
//! ends of the interval). In the recursion a matrix from truncated numbers can be off by a step;
//! every matrix is unimodular, so the gcd and the cofactor relation hold whatever it is, and a
//! sign or order it breaks is restored (rows negated or swapped) before the next step. A step
//! that does not shrink the pair is replaced by a division step, so the loop always ends.
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
    if m.bits() <= HGCD_MIN_BITS {
        lehmer_inverse(a, m)
    } else {
        half_gcd_inverse(a, m)
    }
}

/// `a^-1 mod 2^(64 w)` for odd `a` (little-endian limbs, `w >= 1`), as exactly `w` limbs.
///
/// Newton-Hensel lifting (Brent-Zimmermann, "Modern Computer Arithmetic", Sec. 2.4): from
/// x = a^-1 mod 2^(64 k), a x = 1 + h 2^(64 k) gives x' = x - x h 2^(64 k) mod 2^(128 k), so
/// each doubling costs two products of the current size and the whole O(M(64 w)). Up to
/// [`LOW_ROWS_MAX`] limbs both products are low halves on `addmul_1` rows ([`mul_low`]: a x
/// only below 2^(64 k2), x h only below 2^(64 (k2 - k))); above, full NTT products.
///
/// # Panics
/// If `a` is even or empty, or `w == 0`.
#[must_use]
pub fn inverse_mod_pow2(a: &[u64], w: usize) -> Vec<u64> {
    assert!(
        w > 0 && a.first().is_some_and(|&a0| a0 & 1 == 1),
        "odd a, w > 0"
    );
    let a0 = a[0];
    // a a = 1 mod 8 for odd a; five doublings of the correct bits reach 64.
    let mut x0 = a0;
    for _ in 0..5 {
        x0 = x0.wrapping_mul(2u64.wrapping_sub(a0.wrapping_mul(x0)));
    }
    let mut x = vec![x0];
    while x.len() < w {
        let k = x.len();
        let k2 = (2 * k).min(w);
        let low = |u: &[u64], v: &[u64], n: usize| -> Vec<u64> {
            if n <= LOW_ROWS_MAX {
                return mul_low(u, v, n);
            }
            let trunc = |v: &[u64]| crate::bigarith::from_limbs(&v[..v.len().min(n)]);
            let mut p = crate::bigarith::mul(&trunc(u), &trunc(v)).to_u64_digits();
            p.resize(n, 0);
            p
        };
        let ax = low(a, &x, k2);
        debug_assert!(ax[0] == 1 && ax[1..k].iter().all(|&l| l == 0));
        let xh = low(&x, &ax[k..], k2 - k);
        // The new limbs k..k2: -(x h) mod 2^(64 (k2 - k)).
        let mut borrow = false;
        for &v in &xh {
            let (d, b1) = 0u64.overflowing_sub(v);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            x.push(d);
            borrow = b1 || b2;
        }
    }
    x
}

/// Low products of at most this many limbs run on rows in [`inverse_mod_pow2`]; longer ones
/// on the NTT (whole products). With it a 256-limb inverse (a 16384-bit `ntt_redc` setup) took
/// 33-36 us against 91 us with whole products only (num-bigint's below 512 limbs), 121-127
/// against 187 us at 512 limbs (MULX/ADX rows, AMD EPYC Zen 3).
const LOW_ROWS_MAX: usize = 256;

/// The low `n` limbs of u v (missing limbs are 0), by rows `r[j..n] += v_j u[..n - j]` on
/// the MULX/ADX `addmul_1` where the CPU has it, else the portable row; the carries past
/// limb n are dropped.
fn mul_low(u: &[u64], v: &[u64], n: usize) -> Vec<u64> {
    let mut u = u[..u.len().min(n)].to_vec();
    u.resize(n, 0);
    let mut r = vec![0u64; n];
    let adx = crate::mont::adx::Adx::for_limbs(n);
    for (j, &vj) in v.iter().enumerate().take(n) {
        let (row, src) = (&mut r[j..], &u[..n - j]);
        match adx {
            Some(adx) => adx.addmul_1(row, src, vj),
            None => crate::mont::sqr::addmul_1(row, src, vj),
        };
    }
    r
}

/// The half-gcd recursion (any size; [`mod_inverse`] uses it above [`HGCD_MIN_BITS`]).
#[must_use]
pub fn half_gcd_inverse(a: &BigUint, m: &BigUint) -> Option<BigUint> {
    if *m <= BigUint::from(1u8) {
        return None;
    }
    let x = BigInt::from(m.clone());
    let y = BigInt::from(crate::bigarith::div_rem(a, m).1);
    let (g, s) = gcd_cofactor(x, y);
    if g != BigInt::from(1u8) {
        return None;
    }
    let m = BigInt::from(m.clone());
    (((s % &m) + &m) % &m).to_biguint()
}

/// Lehmer's algorithm alone (quadratic): [`mod_inverse`] up to [`HGCD_MIN_BITS`].
#[must_use]
pub fn lehmer_inverse(a: &BigUint, m: &BigUint) -> Option<BigUint> {
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

/// Moduli up to this many bits invert by Lehmer's algorithm alone (measured: the recursion
/// wins from about 2^17 bits).
const HGCD_MIN_BITS: u64 = 1 << 17;
/// Pairs up to this many bits reduce by Lehmer's batches alone.
const HGCD_BASE_BITS: u64 = 4096;
/// Bits kept above the half in a recursive call, so that its matrix is exact for the full pair
/// but for rare last steps (its entries stay 2^-2G below the remainders).
const GUARD: u64 = 64;

/// A unimodular 2x2 matrix [a, b; c, d] acting on pairs: (x', y') = (a x + b y, c x + d y).
#[derive(Clone, Debug, PartialEq)]
struct Mat([BigInt; 4]);

impl Mat {
    fn identity() -> Self {
        Self([1u8, 0, 0, 1].map(BigInt::from))
    }

    /// `self` then `next`: the product next * self.
    fn then(&self, next: &Self) -> Self {
        let [a, b, c, d] = &self.0;
        let [e, f, g, h] = &next.0;
        let mul = crate::bigarith::imul;
        Self([
            mul(e, a) + mul(f, c),
            mul(e, b) + mul(f, d),
            mul(g, a) + mul(h, c),
            mul(g, b) + mul(h, d),
        ])
    }

    fn apply(&self, x: &BigInt, y: &BigInt) -> (BigInt, BigInt) {
        let [a, b, c, d] = &self.0;
        let mul = crate::bigarith::imul;
        (mul(a, x) + mul(b, y), mul(c, x) + mul(d, y))
    }

    /// Applies the small matrix [a, b; c, d] after `self`.
    fn then_small(&mut self, (a, b, c, d): (i128, i128, i128, i128)) {
        let [m0, m1, m2, m3] = &self.0;
        self.0 = [
            m0 * a + m2 * b,
            m1 * a + m3 * b,
            m0 * c + m2 * d,
            m1 * c + m3 * d,
        ];
    }

    /// Applies one Euclid step (x, y) -> (y, x - q y) after `self`.
    fn then_step(&mut self, q: &BigInt) {
        let [m0, m1, m2, m3] = std::mem::replace(&mut self.0, [0u8, 0, 0, 0].map(BigInt::from));
        let mul = crate::bigarith::imul;
        let (r2, r3) = (&m0 - mul(q, &m2), &m1 - mul(q, &m3));
        self.0 = [m2, m3, r2, r3];
    }
}

/// One division step on (x, y), y > 0.
fn division_step(x: &mut BigInt, y: &mut BigInt, m: &mut Mat) {
    let (q, r) = crate::bigarith::div_rem(x.magnitude(), y.magnitude());
    let q = BigInt::from(q);
    m.then_step(&q);
    *x = std::mem::replace(y, BigInt::from(r));
}

/// Restores x >= y >= 0 by negating or swapping rows (unimodular, so nothing is lost).
fn normalize(x: &mut BigInt, y: &mut BigInt, m: &mut Mat) {
    if x.sign() == Sign::Minus {
        *x = -std::mem::take(x);
        m.0[0] = -std::mem::take(&mut m.0[0]);
        m.0[1] = -std::mem::take(&mut m.0[1]);
    }
    if y.sign() == Sign::Minus {
        *y = -std::mem::take(y);
        m.0[2] = -std::mem::take(&mut m.0[2]);
        m.0[3] = -std::mem::take(&mut m.0[3]);
    }
    if *x < *y {
        std::mem::swap(x, y);
        m.0.swap(0, 2);
        m.0.swap(1, 3);
    }
}

/// Lehmer's batches on (x, y), x >= y >= 0, until y < 2^target or y = 0.
fn lehmer_reduce(x: &mut BigInt, y: &mut BigInt, target: u64, m: &mut Mat) {
    while y.sign() != Sign::NoSign && y.bits() > target {
        let bits = x.bits();
        if bits <= 62 {
            division_step(x, y, m);
            continue;
        }
        let shift = bits - 62;
        let batch = simulate(top_bits(x, shift), top_bits(y, shift));
        if batch.1 == 0 {
            division_step(x, y, m);
            continue;
        }
        let (a0, b0, c0, d0) = batch;
        let nx = &*x * a0 + &*y * b0;
        let ny = &*x * c0 + &*y * d0;
        (*x, *y) = (nx, ny);
        m.then_small(batch);
    }
}

/// One reduction of (x, y), x >= y > 0, bits(x) > [`HGCD_BASE_BITS`], towards y < 2^target:
/// the matrix of the top half applied to the whole pair, or a division step where that does
/// not shrink it. Returns the (normalized) matrix applied.
fn big_step(x: &mut BigInt, y: &mut BigInt, target: u64) -> Mat {
    // The top t bits reduced to t/2 + GUARD bits reduce (x, y) by about t/2 - GUARD bits:
    // t = 2 (d + GUARD) drops the d bits still wanted, capped at half of x (so an n-bit
    // reduction to n/2 recurses on about n/2, 3n/8 and n/8 bits: O(M(n) log n) in all).
    let n = x.bits();
    let d = n.saturating_sub(target);
    let t = (2 * (d + GUARD)).min(n.div_ceil(2));
    let p = n - t;
    let top_target = t / 2 + GUARD;
    let (m1, _, _) = reduce(&*x >> p, &*y >> p, top_target);
    if m1 != Mat::identity() {
        let (mut nx, mut ny) = m1.apply(x, y);
        let mut m1 = m1;
        normalize(&mut nx, &mut ny, &mut m1);
        if ny < *y {
            (*x, *y) = (nx, ny);
            return m1;
        }
    }
    // The top of y vanished (a long quotient), or the matrix did not help.
    let mut m = Mat::identity();
    division_step(x, y, &mut m);
    m
}

/// Reduces (x, y), x >= y >= 0, by unimodular steps until y < 2^target or y = 0: returns the
/// matrix M with (x', y') = M (x, y), and x' >= y' >= 0.
fn reduce(mut x: BigInt, mut y: BigInt, target: u64) -> (Mat, BigInt, BigInt) {
    let mut m = Mat::identity();
    while y.sign() != Sign::NoSign && y.bits() > target {
        if x.bits() <= HGCD_BASE_BITS || x.bits() <= target + 4 * GUARD {
            // Small, or close to the target: a few linear Lehmer batches finish it.
            lehmer_reduce(&mut x, &mut y, target, &mut m);
            break;
        }
        let m1 = big_step(&mut x, &mut y, target);
        m = m.then(&m1);
    }
    (m, x, y)
}

/// gcd(x, y) and its cofactor s for y, x >= y >= 0 (gcd = s y mod x): the top level keeps
/// only that column, not the whole matrix, whose entries grow to the size of x.
fn gcd_cofactor(mut x: BigInt, mut y: BigInt) -> (BigInt, BigInt) {
    let (mut sx, mut sy) = (BigInt::from(0u8), BigInt::from(1u8));
    while y.sign() != Sign::NoSign {
        let m1 = if x.bits() <= HGCD_BASE_BITS {
            let (m1, nx, ny) = reduce(std::mem::take(&mut x), std::mem::take(&mut y), 0);
            (x, y) = (nx, ny);
            m1
        } else {
            big_step(&mut x, &mut y, 0)
        };
        (sx, sy) = m1.apply(&sx, &sy);
    }
    (x, sx)
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
    fn inverses_modulo_powers_of_two() {
        let mut next = crate::bigarith::tests::rng(0x2ad1_c0de);
        for w in [1usize, 2, 3, 5, 8, 9, 100, 256, 257, 2500] {
            let mut a: Vec<u64> = (0..w + 3).map(|_| next()).collect();
            a[0] |= 1;
            for a in [a.clone(), vec![1], vec![u64::MAX; w], vec![3]] {
                let x = inverse_mod_pow2(&a, w);
                assert_eq!(x.len(), w);
                let m = BigUint::from(1u8) << (64 * w);
                let prod = crate::bigarith::from_limbs(&a) * crate::bigarith::from_limbs(&x);
                assert_eq!(prod % &m, BigUint::from(1u8), "w = {w}");
            }
        }
    }

    #[test]
    fn large_against_num_bigint() {
        // SplitMix64 operands: Fermat-style moduli 2^l + 1, odd moduli, shared factors.
        let mut next = crate::bigarith::tests::rng(0x1234_5678_9abc_def0u64);
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

    #[test]
    fn half_gcd_equals_lehmer() {
        // Above HGCD_BASE_BITS: random, Fermat-style (the spectral setup's R = 2^l + 1),
        // sparse and all-ones operands, shared factors, and a quotient of thousands of bits.
        let mut next = crate::bigarith::tests::rng(0x0bad_5eed_u64);
        let one = BigUint::from(1u8);
        for limbs in [65usize, 100, 257, 600, 2100] {
            let rand = |next: &mut dyn FnMut() -> u64, l: usize| {
                BigUint::new((0..2 * l).map(|_| next() as u32).collect())
            };
            let fermat = (&one << (64 * limbs)) + 1u8;
            let odd = rand(&mut next, limbs) | &one;
            let a = rand(&mut next, limbs);
            let short = rand(&mut next, limbs / 3) | &one;
            let sparse = (&one << (64 * limbs - 5)) | BigUint::from(0x2d1fu32);
            let ones = (&one << (64 * limbs - 1)) - 1u8;
            for (m, x) in [
                (&fermat, &odd),
                (&fermat, &short),
                (&fermat, &sparse),
                (&fermat, &ones),
                (&odd, &a),
                (&odd, &(&odd - 1u8)),
                (&ones, &sparse),
            ] {
                let fast = half_gcd_inverse(x, m);
                assert_eq!(fast, lehmer_inverse(x, m), "{limbs} limbs");
                assert_eq!(fast, mod_inverse(x, m));
                if let Some(inv) = fast {
                    assert_eq!(x * inv % m, one);
                }
            }
            let shared = &odd * 3u8;
            assert_eq!(half_gcd_inverse(&(&a * 3u8), &shared), None);
        }
    }
}
