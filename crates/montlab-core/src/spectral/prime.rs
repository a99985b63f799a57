//! The three NTT primes and their word arithmetic (Shoup and Montgomery products).
//!
//! Contract: each prime q satisfies 2^49 < q < 2^50 and 2^22 | q - 1, so it has primitive
//! 2P-th roots of unity for every transform length P <= 2^21; their product Q = q1 q2 q3 lies
//! just below 2^150 (see [`super::crt`] for the coefficient bounds this gives). Residues are
//! `u64` values kept lazily in [0, 2q) or [0, 4q) as each function states; 4q < 2^52, so the
//! same residues also fit the 52-bit lanes of AVX-512 IFMA.
//!
//! Shoup's product (V. Shoup, NTL; D. Harvey, "Faster arithmetic for number-theoretic
//! transforms", J. Symb. Comp. 60, 2014, Alg. 2) multiplies by a constant w < q with the
//! precomputed w' = floor(w 2^64 / q). Montgomery's product (Montgomery 1985, REDC with
//! R = 2^64) multiplies two variable residues and leaves a factor 2^-64 that the inverse
//! transform's scaling removes. Nothing here is constant time.

/// The primes, largest first: c 2^22 + 1 just below 2^50.
pub const PRIMES: [u64; 3] = [0x3_ffff_fb80_0001, 0x3_ffff_fac0_0001, 0x3_ffff_f540_0001];
/// A generator of the multiplicative group of each prime (checked in the tests).
pub const GENERATORS: [u64; 3] = [3, 3, 5];

/// One NTT prime with the constants its products need.
#[derive(Clone, Debug)]
pub struct Prime {
    /// The prime q.
    pub(crate) q: u64,
    /// 2q, the bound of lazily reduced residues.
    pub(crate) q2: u64,
    /// -q^-1 mod 2^64, for Montgomery's REDC.
    pub(crate) qinv_neg: u64,
    /// floor(2^64 / q): Shoup's constant of w = 1, which reduces any u64 into [0, 2q).
    pub(crate) one_shoup: u64,
}

impl Prime {
    pub(crate) fn new(q: u64) -> Self {
        // Newton-Hensel: q q = 1 mod 8 for odd q; five doublings of the correct bits reach 64.
        let mut inv = q;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(q.wrapping_mul(inv)));
        }
        debug_assert_eq!(q.wrapping_mul(inv), 1);
        Self {
            q,
            q2: 2 * q,
            qinv_neg: inv.wrapping_neg(),
            one_shoup: shoup_pre(1, q),
        }
    }

    /// `x mod q` into [0, 2q) for any u64 `x` (Shoup with w = 1).
    #[inline(always)]
    pub(crate) fn reduce_lazy(&self, x: u64) -> u64 {
        let qhat = ((u128::from(x) * u128::from(self.one_shoup)) >> 64) as u64;
        x.wrapping_sub(qhat.wrapping_mul(self.q))
    }

    /// Montgomery product `a b 2^-64 mod q` in [0, 2q), for `a, b < 4q`.
    ///
    /// With a b < 16 q^2 the REDC sum is below 16 q^2 + 2^64 q, and 16 q < 2^54, so the
    /// quotient by 2^64 is below 2q.
    #[inline(always)]
    pub(crate) fn mont_mul(&self, a: u64, b: u64) -> u64 {
        let t = u128::from(a).wrapping_mul(u128::from(b));
        let m = (t as u64).wrapping_mul(self.qinv_neg);
        let u = t.wrapping_add(u128::from(m).wrapping_mul(u128::from(self.q)));
        (u >> 64) as u64
    }
}

/// `x - b` if `x >= b`, else `x`, for `x < b + 2^63` and `0 < b < 2^63`, from the sign of the
/// wrapping difference: no branch depends on `x` (the compiler may emit a conditional move,
/// which is data flow to the CPU and to valgrind's constant-time check).
#[inline(always)]
pub(crate) fn csub(x: u64, b: u64) -> u64 {
    let d = x.wrapping_sub(b);
    d.wrapping_add(b & ((d as i64 >> 63) as u64))
}

/// `a b mod q` by 128-bit division: setup only, never in a hot loop.
pub(crate) fn mul_mod(a: u64, b: u64, q: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(q)) as u64
}

/// `a^e mod q`, square and multiply: setup only.
pub(crate) fn pow_mod(mut a: u64, mut e: u64, q: u64) -> u64 {
    let mut r = 1 % q;
    a %= q;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, a, q);
        }
        a = mul_mod(a, a, q);
        e >>= 1;
    }
    r
}

/// `a^-1 mod q` for prime q and `a` not divisible by q (Fermat).
pub(crate) fn inv_mod(a: u64, q: u64) -> u64 {
    pow_mod(a, q - 2, q)
}

/// Shoup's precomputed constant floor(w 2^64 / q) for `w < q`.
pub(crate) fn shoup_pre(w: u64, q: u64) -> u64 {
    debug_assert!(w < q);
    ((u128::from(w) << 64) / u128::from(q)) as u64
}

/// Shoup product `y w mod q` in [0, 2q) for any u64 `y`, with `ws = shoup_pre(w, q)`.
///
/// The true quotient of y w / q exceeds qhat = floor(y ws / 2^64) by less than 2, so the
/// wrapping difference y w - qhat q is the exact remainder plus 0 or q.
#[inline(always)]
pub(crate) fn shoup_mul(y: u64, w: u64, ws: u64, q: u64) -> u64 {
    let qhat = ((u128::from(y) * u128::from(ws)) >> 64) as u64;
    y.wrapping_mul(w).wrapping_sub(qhat.wrapping_mul(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_and_generators() {
        for (&q, &g) in PRIMES.iter().zip(&GENERATORS) {
            assert!(q > 1 << 49 && q < 1 << 50 && (q - 1) % (1 << 22) == 0);
            // q is prime: Fermat test to several bases plus the generator's full order.
            for a in [2, 3, 5, 7, 11, 13] {
                assert_eq!(pow_mod(a, q - 1, q), 1);
            }
            // g generates: g^((q-1)/f) != 1 for each prime factor f of q - 1 (found by trial
            // division, which is fast for these q - 1 = c 2^22).
            let mut rest = (q - 1) >> 22;
            let mut factors = vec![2u64];
            let mut f = 3;
            while f * f <= rest {
                if rest % f == 0 {
                    factors.push(f);
                    while rest % f == 0 {
                        rest /= f;
                    }
                }
                f += 2;
            }
            if rest > 1 {
                factors.push(rest);
            }
            for f in factors {
                assert_ne!(pow_mod(g, (q - 1) / f, q), 1, "q={q:#x} f={f}");
            }
        }
    }

    #[test]
    fn products() {
        let p = Prime::new(PRIMES[1]);
        let q = p.q;
        for &(a, b) in &[
            (0, 0),
            (1, 1),
            (q - 1, q - 1),
            (4 * q - 1, 4 * q - 1),
            (12345, 4 * q - 7),
        ] {
            let m = p.mont_mul(a, b);
            assert!(m < 2 * q);
            // m 2^64 = a b (mod q)
            let r64 = pow_mod(2, 64, q);
            assert_eq!(mul_mod(m % q, r64, q), mul_mod(a % q, b % q, q));
            let w = b % q;
            let s = shoup_mul(a, w, shoup_pre(w, q), q);
            assert!(s < 2 * q);
            assert_eq!(s % q, mul_mod(a % q, w, q));
        }
        assert_eq!(p.reduce_lazy(u64::MAX) % q, u64::MAX % q);
        assert!(p.reduce_lazy(u64::MAX) < 2 * q);
    }
}
