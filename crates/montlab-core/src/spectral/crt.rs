//! From three residue vectors back to an integer: Garner's CRT per coefficient, then carry
//! propagation into 64-bit limbs with the wrap-around of the ring 2^l -+ 1 (l = 64 P).
//!
//! Citation: H. L. Garner, "The residue number system", IRE Trans. Electronic Computers, 1959
//! (mixed-radix CRT); the wrap-around folding is the "mod 2^l - 1 / mod 2^l + 1" step of
//! FMLM3, eqs. (11)-(12) (SPEC §1.4 steps 13-14), with the residue ring Q = q1 q2 q3 in place of
//! the Fermat ring M.
//!
//! Coefficient bounds (u = 64, digits < 2^64, P <= 2^16, Q > 2^149.99):
//! * cyclic sums of two products: 0 <= c_n <= 2 P (2^64 - 1)^2 < 2^145 < Q, read as is;
//! * nega-cyclic single products: |c_n| <= P (2^64 - 1)^2 < 2^144 < Q / 2, read from the
//!   symmetric range (-Q/2, Q/2]. SPEC §1.4 warns that a symmetric lift fails on a tight ring;
//!   this ring has more than 2^5 of margin, so the lift is exact.
//!
//! Output: limbs of the sum in [0, 2^l) for the cyclic ring (with 2^l - 1 read as 0), or in
//! [0, 2^l] for the nega-cyclic ring, where the value 2^l is returned as zero limbs plus a
//! `top` flag. Variable time (carry loops end early).

use std::hint::select_unpredictable;

use super::prime::{inv_mod, shoup_mul, shoup_pre, PRIMES};

/// Garner constants for the three primes.
#[derive(Clone, Debug)]
pub(crate) struct Crt {
    q: [u64; 3],
    /// q1^-1 mod q2 and its Shoup constant.
    inv12: (u64, u64),
    /// q1 mod q3 and its Shoup constant.
    q1_mod_q3: (u64, u64),
    /// (q1 q2)^-1 mod q3 and its Shoup constant.
    inv123: (u64, u64),
    /// q1 q2 as two limbs.
    q12: (u64, u64),
    /// Q = q1 q2 q3 as (low limb, the rest) and floor(Q / 2) the same way.
    big_q: (u64, u128),
    half_q: (u64, u128),
}

impl Crt {
    pub(crate) fn new() -> Self {
        let [q1, q2, q3] = PRIMES;
        let with_shoup = |w: u64, q: u64| (w, shoup_pre(w, q));
        let q12 = u128::from(q1) * u128::from(q2);
        let q12_mod_q3 = (q12 % u128::from(q3)) as u64;
        // Q = q12 q3 < 2^150: split q12 into limbs and multiply out with carries.
        let lo = u128::from(q12 as u64) * u128::from(q3);
        let hi = (q12 >> 64) * u128::from(q3) + (lo >> 64);
        let big_q = (lo as u64, hi);
        let half_q = ((big_q.0 >> 1) | ((hi as u64) << 63), hi >> 1);
        Self {
            q: PRIMES,
            inv12: with_shoup(inv_mod(q1 % q2, q2), q2),
            q1_mod_q3: with_shoup(q1 % q3, q3),
            inv123: with_shoup(inv_mod(q12_mod_q3, q3), q3),
            q12: (q12 as u64, (q12 >> 64) as u64),
            big_q,
            half_q,
        }
    }

    /// The integer v in [0, Q) with v = r_i mod q_i, as (low limb, high part < 2^86).
    /// Residues must be fully reduced (r_i < q_i).
    #[inline(always)]
    fn garner(&self, r1: u64, r2: u64, r3: u64) -> (u64, u128) {
        let [q1, q2, q3] = self.q;
        // k2 = (r2 - r1) q1^-1 mod q2; r1 < q1 < 2 q2, so r2 + 2 q2 - r1 > 0.
        let k2 = shoup_mul(r2 + 2 * q2 - r1, self.inv12.0, self.inv12.1, q2);
        let k2 = k2.min(k2.wrapping_sub(q2)); // branch-free: the residues are random
                                              // v12 = r1 + q1 k2 < q1 q2; its residue mod q3 is r1 + (q1 mod q3) k2.
        let v12 = u128::from(r1) + u128::from(q1) * u128::from(k2);
        let v12_q3 = shoup_mul(k2, self.q1_mod_q3.0, self.q1_mod_q3.1, q3) + r1; // < 2 q3 + q1 < 4 q3
                                                                                 // k3 = (r3 - v12) (q1 q2)^-1 mod q3.
        let k3 = shoup_mul(r3 + 4 * q3 - v12_q3, self.inv123.0, self.inv123.1, q3);
        let k3 = k3.min(k3.wrapping_sub(q3));
        // v = v12 + q1 q2 k3 < Q < 2^150.
        let a = v12 + u128::from(self.q12.0) * u128::from(k3);
        let hi = (a >> 64) + u128::from(self.q12.1) * u128::from(k3);
        (a as u64, hi)
    }

    /// Nega-cyclic read-out: `out = sum_n c_n 2^(64 n) mod 2^l + 1` with c_n the symmetric
    /// lift of the residues `(r[0][n], r[1][n], r[2][n])`; returns the `top` flag (value 2^l).
    pub(crate) fn collect_nega(&self, r: [&[u64]; 3], out: &mut [u64]) -> bool {
        let mut carry: i128 = 0;
        for (n, o) in out.iter_mut().enumerate() {
            let (lo, hi) = self.garner(r[0][n], r[1][n], r[2][n]);
            // v > Q/2 stands for v - Q < 0; the sign is random, so select without a branch.
            let (l, borrow) = lo.overflowing_sub(self.big_q.0);
            let h = hi as i128 - self.big_q.1 as i128 - i128::from(borrow);
            let neg = (hi, lo) > (self.half_q.1, self.half_q.0);
            let (lo, hi) = select_unpredictable(neg, (l, h), (lo, hi as i128));
            let t = carry + i128::from(lo);
            *o = t as u64;
            carry = (t >> 64) + hi;
        }
        // The sum is L + carry 2^l = L - carry (mod 2^l + 1), with 0 <= L < 2^l.
        if carry > 0 {
            // L - carry: borrow out means the limbs hold L - carry + 2^l; add the missing 1.
            if sub_small(out, carry as u128) {
                return add_small(out, 1);
            }
            false
        } else if carry < 0 {
            // L + |carry|: a carry out means the limbs hold L + |carry| - 2^l and 2^l = -1,
            // so subtract 1. From zero limbs that is -1 = 2^l: zero limbs and the top flag.
            if add_small(out, carry.unsigned_abs()) && sub_small(out, 1) {
                out.fill(0);
                return true;
            }
            false
        } else {
            false
        }
    }

    /// Cyclic read-out: `out = sum_n c_n 2^(64 n) mod 2^l - 1` in [0, 2^l - 1), for residues
    /// of non-negative coefficients.
    pub(crate) fn collect_cyc(&self, r: [&[u64]; 3], out: &mut [u64]) {
        let mut carry: u128 = 0;
        for (n, o) in out.iter_mut().enumerate() {
            let (lo, hi) = self.garner(r[0][n], r[1][n], r[2][n]);
            let t = carry + u128::from(lo);
            *o = t as u64;
            carry = (t >> 64) + hi;
        }
        // 2^l = 1: add the carry back at the bottom, end-around.
        let mut c = carry;
        while c != 0 {
            c = u128::from(add_small(out, c));
        }
        // 2^l - 1 (all ones) is 0.
        if out.iter().all(|&l| l == u64::MAX) {
            out.fill(0);
        }
    }
}

/// `a += c` (c < 2^128) over the limbs of `a`; returns the carry out of the top.
pub(crate) fn add_small(a: &mut [u64], c: u128) -> bool {
    let mut c = c;
    for l in a.iter_mut() {
        if c == 0 {
            return false;
        }
        let t = u128::from(*l) + (c & u128::from(u64::MAX));
        *l = t as u64;
        c = (c >> 64) + (t >> 64);
    }
    c != 0
}

/// `a -= c` (c < 2^128) over the limbs of `a`; returns the borrow out of the top.
pub(crate) fn sub_small(a: &mut [u64], c: u128) -> bool {
    let mut c = c;
    for l in a.iter_mut() {
        if c == 0 {
            return false;
        }
        let sub = c as u64;
        let (d, borrow) = l.overflowing_sub(sub);
        *l = d;
        c = (c >> 64) + u128::from(borrow);
    }
    c != 0
}

#[cfg(test)]
mod tests {
    use super::super::prime::mul_mod;
    use super::*;

    #[test]
    fn garner_roundtrip() {
        let crt = Crt::new();
        let [q1, q2, q3] = PRIMES;
        // v = (1 << 140) + 12345, Q - 1, 0, q1 q2.
        let cases: [(u64, u128); 4] = [
            (12345, 1u128 << 76),
            (
                crt.big_q.0.wrapping_sub(1),
                crt.big_q.1 - u128::from(crt.big_q.0 == 0),
            ),
            (0, 0),
            (crt.q12.0, u128::from(crt.q12.1)),
        ];
        for (lo, hi) in cases {
            let res = |q: u64| {
                // (hi 2^64 + lo) mod q
                let h = (hi % u128::from(q)) as u64;
                ((u128::from(mul_mod(h, ((1u128 << 64) % u128::from(q)) as u64, q))
                    + u128::from(lo))
                    % u128::from(q)) as u64
            };
            assert_eq!(crt.garner(res(q1), res(q2), res(q3)), (lo, hi));
        }
    }

    #[test]
    fn small_add_sub() {
        let mut a = [u64::MAX, u64::MAX, 0];
        assert!(!add_small(&mut a, 1));
        assert_eq!(a, [0, 0, 1]);
        assert!(!sub_small(&mut a, 1));
        assert_eq!(a, [u64::MAX, u64::MAX, 0]);
        let mut b = [0u64, 0];
        assert!(sub_small(&mut b, 1));
        assert_eq!(b, [u64::MAX, u64::MAX]);
        assert!(add_small(&mut b, 1 << 64));
        assert_eq!(b, [u64::MAX, 0]);
    }
}
