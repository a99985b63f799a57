//! `barrett`: ordinary-domain products `x y mod N`, one product and one Barrett reduction.
//!
//! Citation: P. Barrett, "Implementing the Rivest Shamir and Adleman public key encryption
//! algorithm on a standard digital signal processor", CRYPTO '86; as A. Menezes, P. van
//! Oorschot, S. Vanstone, "Handbook of Applied Cryptography", 1996, Algorithm 14.42, with the
//! truncated products of its Note 14.44 (ii).
//!
//! Word size / radix: b = W = 2^64; k = s limbs of N (top limb nonzero); mu = floor(b^(2k) / N),
//! k + 1 limbs, precomputed once per modulus.
//!
//! Inputs: odd N > 1; `0 <= x, y < N`, `s` limbs each. Output: `x y mod N`, fully reduced.
//! Steps: w = x y (2k limbs: [`karatsuba::mul`] or `karatsuba::sqr`, split from their
//! thresholds); q3 = floor(floor(w / b^(k-1)) mu / b^(k+1)), below [`SPLIT_LIMBS`] the product
//! taken only over digit pairs i + j >= k - 1, so q3 is at most 3 below the exact quotient (2
//! from Barrett's bound, 1 from the dropped columns, whose sum is below k b^k < b^(k+1)); r =
//! (w - q3 N) mod b^(k+1) < 4N, then at most 3 subtractions. From [`SPLIT_LIMBS`] the two
//! truncated products are sub-quadratic: q1 mu in full (`karatsuba::mul`, so q3 is at most 2
//! below), and r from q3 N mod (b^rn - 1), rn = k + 1 rounded up to a multiple of 8, as GMP's
//! `mpn_mu_div_qr` takes it: r = (w - q3 N) mod (b^rn - 1), exact because r < 4N < b^rn - 1
//! (the wrapped product is `redc_n`'s, N's residues at its splits precomputed).
//! Every row is one `r += v a` pass: the portable loop, or the MULX/ADX row of
//! [`crate::mont::adx`] from [`crate::mont::adx::MIN_LIMBS`] limbs, where each triangle's rows
//! (growing for q2, shrinking for r2) run as one assembly loop and the subtractions as ADC/SBB
//! chains. Cost about 2 k^2 word products below [`SPLIT_LIMBS`] (less the split's saving on
//! x y), one Montgomery product's worth, where the Montgomery route to x y mod N takes two;
//! from it, about two and a half Karatsuba products' worth.
//!
//! Timing: the final subtractions depend on the values, and on the ADX rows the product's split
//! runs on `VarTime` rows (`mont::vartime`): variable time. Left out: constant time, Toom-Cook
//! and FFT products, and operands at or above N (callers check them).

use num_bigint::BigUint;

use crate::bigarith;
use crate::limb::{self, Limb, LIMB_BITS};
use crate::mont::sqr::Rows;
use crate::mont::vartime::VarTime;
use crate::mont::{adx, karatsuba, redc_n, sqr};
use crate::params::OddModulus;

/// Moduli of this many limbs or more take the truncated products sub-quadratically (see the
/// module documentation). Chosen on the MULX/ADX rows of a Zen 4 with `examples/
/// barrett_timings.rs` at each setting (two runs): the split took 1.17 of the rows' time for
/// products at 64 limbs, 1.04 at 96, 1.00 at 128, 0.98 at 160, 0.97 at 176 and 0.87 at 192.
pub const SPLIT_LIMBS: usize = 160;

/// The Barrett constant of one modulus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarrettParams {
    n: Vec<Limb>,
    /// floor(b^(2k) / N), exactly k + 1 limbs.
    mu: Vec<Limb>,
    /// N for products mod b^rn - 1, from [`SPLIT_LIMBS`] limbs.
    wrap: Option<redc_n::WrapOperand>,
}

impl BarrettParams {
    /// The constant of a validated modulus (odd, N > 1, no leading zero limb); one division.
    #[must_use]
    pub fn new(modulus: &OddModulus) -> Self {
        let n = modulus.as_limbs();
        let k = n.len();
        let b2k = BigUint::from(1u8) << (2 * k * LIMB_BITS as usize);
        let mut mu = bigarith::div_rem(&b2k, &bigarith::from_limbs(n))
            .0
            .to_u64_digits();
        debug_assert!(mu.len() <= k + 1);
        mu.resize(k + 1, 0); // N >= b^(k-1) and N != b^(k-1), so mu < b^(k+1)
        let wrap = (k >= SPLIT_LIMBS).then(|| redc_n::WrapOperand::new(n, redc_n::wrap_len(k + 1)));
        Self {
            n: n.to_vec(),
            mu,
            wrap,
        }
    }

    /// `x y mod N` (`y = None`: `x^2`) for `x, y < N` of exactly `s` limbs (checked by
    /// `debug_assert!` only: callers validate operands).
    ///
    /// # Panics
    /// If an operand is not `s` limbs.
    #[must_use]
    pub fn mul_mod(&self, x: &[Limb], y: Option<&[Limb]>) -> Vec<Limb> {
        let k = self.n.len();
        assert!(
            x.len() == k && y.is_none_or(|y| y.len() == k),
            "barrett: operands must be s limbs"
        );
        match adx::Adx::for_limbs(k) {
            Some(adx) => self.mul_mod_with(x, y, VarTime(adx)),
            None => self.mul_mod_with(x, y, sqr::Portable),
        }
    }

    /// [`BarrettParams::mul_mod`] on the given rows ([`sqr::Portable`], the ADX rows, or
    /// either as `VarTime` rows: the dispatch takes the ADX rows that way).
    pub(crate) fn mul_mod_with(
        &self,
        x: &[Limb],
        y: Option<&[Limb]>,
        rows: impl Rows,
    ) -> Vec<Limb> {
        let (n, mu, k) = (&self.n[..], &self.mu[..], self.n.len());
        debug_assert!(limb::cmp(x, n).is_lt() && y.is_none_or(|y| limb::cmp(y, n).is_lt()));
        // One zeroed scratch (on the stack up to 64 limbs): w, q2, r, then the product's or
        // the square's, and from SPLIT_LIMBS the split truncated products'; w = x y.
        let product_sc = match y {
            Some(_) => karatsuba::scratch_len(k),
            None => karatsuba::sqr_scratch_len(k),
        };
        let sc_len = match &self.wrap {
            Some(wrap) => {
                let rn = wrap.len();
                let wrapped = 3 * rn + redc_n::bnm1_scratch(rn);
                let quotient = karatsuba::scratch_len(k + 1);
                redc_n::max(product_sc, redc_n::max(quotient, wrapped))
            }
            None => product_sc,
        };
        limb::with_scratch(5 * k + 3 + sc_len, |scratch| {
            let (w, q2) = scratch.split_at_mut(2 * k);
            let (q2, rest) = q2.split_at_mut(2 * k + 2);
            let (r, sc) = rest.split_at_mut(k + 1);
            match y {
                Some(y) => karatsuba::mul(x, y, w, sc, rows),
                None => karatsuba::sqr(x, w, sc, rows),
            }
            let q1 = &w[k - 1..];
            let d = if let Some(wrap) = &self.wrap {
                // q2 = q1 mu in full; r = (w mod M - q3 N mod M) mod M, M = b^rn - 1.
                karatsuba::mul(q1, mu, q2, sc, rows);
                let (q2, q3) = q2.split_at_mut(k + 1);
                let rn = wrap.len();
                let (a, sc) = sc.split_at_mut(rn);
                let (p, sc) = sc.split_at_mut(rn);
                let (t, sc) = sc.split_at_mut(rn);
                a[..=k].copy_from_slice(q3);
                a[k + 1..].fill(0);
                wrap.mulmod(p, a, sc, rows);
                // w mod M: its high limbs (2 k - rn < rn of them) padded, then folded.
                let (lo, hi) = w.split_at(rn);
                a[..hi.len()].copy_from_slice(hi);
                a[hi.len()..].fill(0);
                let z = &mut sc[..rn];
                z.fill(0);
                redc_n::fold_minus(t, lo, a, z, rows);
                // t - p mod M: a borrow wraps by b^rn, one more than M.
                if rows.sub_assign_n(t, p, 0) != 0 {
                    limb::sub_1_vartime(t, 1);
                }
                if t.iter().all(|&l| l == Limb::MAX) {
                    t.fill(0); // M stands for 0
                }
                debug_assert!(t[k + 1..].iter().all(|&l| l == 0), "barrett: r >= b^(k+1)");
                q2.copy_from_slice(&t[..=k]);
                q2
            } else {
                // q2 = q1 mu over the digit pairs i + j >= k - 1, q1 = w / b^(k-1) (k + 1
                // digits); row i starts at column k - 1 (or at i) and its carry lands in
                // q2[i + k + 1]. Rows 0 to k - 2 are i + 2 limbs long (one loop), rows k - 1
                // and k all of mu.
                rows.rows_up(&mut q2[k - 1..], mu, &q1[..k - 1], 2);
                for i in k - 1..=k {
                    q2[i + k + 1] = rows.addmul_1(&mut q2[i..i + k + 1], mu, q1[i]);
                }
                let q3 = &q2[k + 1..];
                // r2 = q3 N mod b^(k+1): row i keeps columns up to k (row 0's carry is limb
                // k; rows 2 to k are k + 1 - i limbs long, one loop).
                r[k] = rows.addmul_1(&mut r[..k], n, q3[0]);
                rows.addmul_1(&mut r[1..=k], n, q3[1]);
                rows.rows_down(&mut r[2..], n, &q3[2..], k - 1);
                // d = (w - r2) mod b^(k+1) (in q2's low limbs, free now).
                let d = &mut q2[..=k];
                rows.sub_n(d, &w[..=k], r, 0);
                d
            };
            // d < 4N: subtract N while d >= N.
            let mut subtractions = 0;
            while limb::cmp(d, n).is_ge() {
                d[k] = d[k].wrapping_sub(rows.sub_assign_n(&mut d[..k], n, 0));
                subtractions += 1;
                debug_assert!(
                    subtractions <= 3,
                    "barrett: quotient estimate off by more than 3"
                );
            }
            d[..k].to_vec()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length 1 to 70, both sides of [`SPLIT_LIMBS`] and longer ones, portable and ADX
    /// rows (constant and variable time), against `BigUint`: all-ones, random, short-top-limb
    /// and b^(k-1) + 1 moduli; random, N - 1 and 0 operands; products and squares.
    #[test]
    fn equals_biguint() {
        let adx =
            adx::adx_or_skip("barrett on ADX rows").then(|| adx::Adx::new().expect("checked"));
        let mut seed = 0x5eed_0bad_f00d_1234;
        for k in (1..=70).chain([96, 159, 160, 161, 200, 257, 384]) {
            for (case, n) in limb::edge_moduli(&mut seed, k).into_iter().enumerate() {
                let p = BarrettParams::new(&OddModulus::new(&n).unwrap());
                let nb = bigarith::from_limbs(&n);
                let below = |v: Vec<Limb>| {
                    let mut v = bigarith::from_limbs(&v) % &nb;
                    let mut d = std::mem::take(&mut v).to_u64_digits();
                    d.resize(k, 0);
                    d
                };
                let mut nm1 = n.clone();
                nm1[0] -= 1;
                let ops = [
                    (
                        below(limb::xorshift_limbs(&mut seed, k)),
                        below(limb::xorshift_limbs(&mut seed, k)),
                    ),
                    (nm1.clone(), nm1.clone()),
                    (vec![0; k], nm1.clone()),
                ];
                for (x, y) in ops {
                    let (xb, yb) = (bigarith::from_limbs(&x), bigarith::from_limbs(&y));
                    for (yy, want) in [(Some(&y[..]), &xb * &yb % &nb), (None, &xb * &xb % &nb)] {
                        let mut want = want.to_u64_digits();
                        want.resize(k, 0);
                        assert_eq!(
                            p.mul_mod_with(&x, yy, sqr::Portable),
                            want,
                            "k {k} case {case}"
                        );
                        if let Some(adx) = adx {
                            let got = p.mul_mod_with(&x, yy, adx);
                            assert_eq!(got, want, "adx: k {k} case {case}");
                            let got = p.mul_mod_with(&x, yy, VarTime(adx));
                            assert_eq!(got, want, "adx vt: k {k} case {case}");
                        }
                        assert_eq!(p.mul_mod(&x, yy), want, "dispatch: k {k} case {case}");
                    }
                }
            }
        }
    }
}
