//! From three residue vectors back to an integer: Garner's CRT per coefficient, then carry
//! propagation into 64-bit limbs with the wrap-around of the ring 2^l -+ 1 (l = 64 P).
//!
//! Citation: H. L. Garner, "The residue number system", IRE Trans. Electronic Computers, 1959
//! (mixed-radix CRT); the wrap-around folding is the "mod 2^l - 1 / mod 2^l + 1" step of
//! FMLM3, eqs. (11)-(12) (SPEC §1.4 steps 13-14), with the residue ring Q = q1 q2 q3 in place of
//! the Fermat ring M.
//!
//! Coefficient bounds (u = 64, digits < 2^64, Q > 2^149.99; P <= 2^16 for `spectral`, P <= 2^19
//! for `ntt_redc`):
//! * cyclic sums of two products (`spectral`): 0 <= c_n <= 2 P (2^64 - 1)^2 < 2^145 < Q, read as is;
//! * cyclic single products (`ntt_redc`): 0 <= c_n <= P (2^64 - 1)^2 < 2^147 < Q;
//! * plain products of [`super::product`] (one cyclic product, length L <= 2^21):
//!   0 <= c_n <= L (2^64 - 1)^2 < 2^149 < Q;
//! * nega-cyclic single products: |c_n| <= P (2^64 - 1)^2 < 2^147 < Q / 2, read from the
//!   symmetric range (-Q/2, Q/2]. SPEC §1.4 warns that a symmetric lift fails on a tight ring;
//!   Q / 2 exceeds the bound by a factor of almost 4 at P = 2^19 (32 at P = 2^16), so the
//!   lift is exact.
//!
//! Output: limbs of the sum in [0, 2^l) for the cyclic ring (with 2^l - 1 read as 0), or in
//! [0, 2^l] for the nega-cyclic ring, where the value 2^l is returned as zero limbs plus a
//! `top` flag. The portable read-outs are constant time: wrapping arithmetic within the
//! stated bounds, masks instead of branches, full-length carry passes. Where the CPU has
//! AVX-512 IFMA, Garner's step runs 8 coefficients wide (`super::ifma_crt`, coefficients as
//! three words) and only the carry propagation stays scalar; the portable path is the reference
//! (equal outputs).

use super::prime::{csub, inv_mod, shoup_mul, shoup_pre, PRIMES};

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
    /// The same constants for the vector paths.
    #[cfg(target_arch = "x86_64")]
    k52: super::ifma_crt::GarnerConsts52,
    #[cfg(target_arch = "x86_64")]
    kf: super::avx2_crt::GarnerConstsF64,
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
        let inv12 = with_shoup(inv_mod(q1 % q2, q2), q2);
        let q1_mod_q3 = with_shoup(q1 % q3, q3);
        let inv123 = with_shoup(inv_mod(q12_mod_q3, q3), q3);
        #[cfg(target_arch = "x86_64")]
        let k52 = {
            let s52 =
                |(w, _): (u64, u64), q: u64| (w, ((u128::from(w) << 52) / u128::from(q)) as u64);
            let m = (1u128 << 52) - 1;
            let limbs3 = |lo: u64, hi: u128| {
                let v = [lo as u128 | (hi << 64), hi >> 64]; // 150 bits: low 128, high 22
                [
                    (v[0] & m) as u64,
                    ((v[0] >> 52) & m) as u64,
                    ((v[0] >> 104) | (v[1] << 24)) as u64,
                ]
            };
            let h1 = half_q.0.overflowing_add(1);
            super::ifma_crt::GarnerConsts52 {
                q: PRIMES,
                inv12: s52(inv12, q2),
                q1_mod_q3: s52(q1_mod_q3, q3),
                inv123: s52(inv123, q3),
                q12: [(q12 & m) as u64, (q12 >> 52) as u64],
                big_q: limbs3(big_q.0, big_q.1),
                half_q1: limbs3(h1.0, half_q.1 + u128::from(h1.1)),
            }
        };
        #[cfg(target_arch = "x86_64")]
        let kf = {
            let f = |(w, _): (u64, u64), q: u64| (w as f64, w as f64 / q as f64);
            super::avx2_crt::GarnerConstsF64 {
                inv12: f(inv12, q2),
                q1_mod_q3: f(q1_mod_q3, q3),
                inv123: f(inv123, q3),
            }
        };
        Self {
            q: PRIMES,
            inv12,
            q1_mod_q3,
            inv123,
            q12: (q12 as u64, (q12 >> 64) as u64),
            big_q,
            half_q,
            #[cfg(target_arch = "x86_64")]
            k52,
            #[cfg(target_arch = "x86_64")]
            kf,
        }
    }

    /// The integer v in [0, Q) with v = r_i mod q_i, as (low limb, high part < 2^86).
    /// Residues must be fully reduced (r_i < q_i).
    #[inline(always)]
    fn garner(&self, r1: u64, r2: u64, r3: u64) -> (u64, u128) {
        let (k2, k3) = self.digits(r1, r2, r3);
        self.value(r1, k2, k3)
    }

    /// Garner's digits k2 in [0, q2) and k3 in [0, q3) of fully reduced residues, with
    /// v = r1 + q1 k2 + q1 q2 k3.
    #[inline(always)]
    fn digits(&self, r1: u64, r2: u64, r3: u64) -> (u64, u64) {
        let [_, q2, q3] = self.q;
        // k2 = (r2 - r1) q1^-1 mod q2; r1 < q1 < 2 q2, so r2 + 2 q2 - r1 > 0.
        let k2 = shoup_mul(
            r2.wrapping_add(2 * q2).wrapping_sub(r1),
            self.inv12.0,
            self.inv12.1,
            q2,
        );
        let k2 = csub(k2, q2);
        // v12 = r1 + q1 k2 < q1 q2; its residue mod q3 is r1 + (q1 mod q3) k2, below
        // 2 q3 + q1 < 4 q3.
        let v12_q3 = shoup_mul(k2, self.q1_mod_q3.0, self.q1_mod_q3.1, q3).wrapping_add(r1);
        // k3 = (r3 - v12) (q1 q2)^-1 mod q3.
        let k3 = shoup_mul(
            r3.wrapping_add(4 * q3).wrapping_sub(v12_q3),
            self.inv123.0,
            self.inv123.1,
            q3,
        );
        (k2, csub(k3, q3))
    }

    /// v = r1 + q1 k2 + q1 q2 k3 < Q < 2^150 from Garner's digits, as (low limb, high part).
    #[inline(always)]
    fn value(&self, r1: u64, k2: u64, k3: u64) -> (u64, u128) {
        let v12 = u128::from(r1).wrapping_add(u128::from(self.q[0]).wrapping_mul(u128::from(k2)));
        let a = v12.wrapping_add(u128::from(self.q12.0).wrapping_mul(u128::from(k3)));
        let hi = (a >> 64).wrapping_add(u128::from(self.q12.1).wrapping_mul(u128::from(k3)));
        (a as u64, hi)
    }

    /// Nega-cyclic read-out: `out = sum_n c_n 2^(64 n) mod 2^l + 1` with c_n the symmetric
    /// lift of the residues `(buf[n], buf[P + n], buf[2P + n])` (P = `out.len()`, `buf` 3P
    /// entries, overwritten); returns the `top` flag (value 2^l). Runs on IFMA where
    /// [`super::uses_ifma`] and 8 | P, else [`Crt::collect_nega_portable`]: equal results.
    pub(crate) fn collect_nega(&self, buf: &mut [u64], out: &mut [u64]) -> bool {
        self.collect_nega_mask(buf, out) != 0
    }

    /// [`Crt::collect_nega`] with the `top` flag as a mask (all ones or 0), for callers that
    /// must not branch on it.
    pub(crate) fn collect_nega_mask(&self, buf: &mut [u64], out: &mut [u64]) -> u64 {
        let p = out.len();
        #[cfg(target_arch = "x86_64")]
        if Self::vector(p) {
            super::ifma_crt::garner_words(&self.k52, buf, true);
            return finish_nega(fold_words(buf, out), out);
        }
        #[cfg(target_arch = "x86_64")]
        if super::avx2_len(p) {
            let [r1, k2, k3] = self.digits_avx2(buf);
            return self.nega_from(out, |n| self.value(r1[n], k2[n], k3[n]));
        }
        self.collect_nega_portable([&buf[..p], &buf[p..2 * p], &buf[2 * p..3 * p]], out)
    }

    /// Cyclic read-out (see [`Crt::collect_cyc_portable`]), `buf` as in [`Crt::collect_nega`].
    pub(crate) fn collect_cyc(&self, buf: &mut [u64], out: &mut [u64]) {
        let p = out.len();
        #[cfg(target_arch = "x86_64")]
        if Self::vector(p) {
            super::ifma_crt::garner_words(&self.k52, buf, false);
            let carry = fold_words(buf, out);
            return finish_cyc(u128::try_from(carry).expect("cyclic sums are >= 0"), out);
        }
        #[cfg(target_arch = "x86_64")]
        if super::avx2_len(p) {
            let [r1, k2, k3] = self.digits_avx2(buf);
            return self.cyc_from(out, |n| self.value(r1[n], k2[n], k3[n]));
        }
        self.collect_cyc_portable([&buf[..p], &buf[p..2 * p], &buf[2 * p..3 * p]], out);
    }

    /// Whether the IFMA Garner runs for P coefficients.
    #[cfg(target_arch = "x86_64")]
    fn vector(p: usize) -> bool {
        p.is_multiple_of(8) && super::uses_ifma()
    }

    /// Garner's digits on AVX2 in place: `buf` (3P residues) read back as its runs r1, k2, k3.
    #[cfg(target_arch = "x86_64")]
    fn digits_avx2<'a>(&self, buf: &'a mut [u64]) -> [&'a [u64]; 3] {
        super::avx2_crt::digits(&self.kf, buf);
        let p = buf.len() / 3;
        let (r1, rest) = buf.split_at(p);
        let (k2, k3) = rest.split_at(p);
        [r1, k2, k3]
    }

    /// Portable nega-cyclic read-out: `out = sum_n c_n 2^(64 n) mod 2^l + 1` with c_n the
    /// symmetric lift of the residues `(r[0][n], r[1][n], r[2][n])`; returns the `top` flag
    /// (value 2^l) as a mask.
    pub(crate) fn collect_nega_portable(&self, r: [&[u64]; 3], out: &mut [u64]) -> u64 {
        self.nega_from(out, |n| self.garner(r[0][n], r[1][n], r[2][n]))
    }

    /// The nega-cyclic read-out of the coefficients `coef(n)` = v in [0, Q) (low limb, high
    /// part), each lifted to (-Q/2, Q/2].
    #[inline(always)]
    fn nega_from(&self, out: &mut [u64], coef: impl Fn(usize) -> (u64, u128)) -> u64 {
        let mut carry: i128 = 0;
        for (n, o) in out.iter_mut().enumerate() {
            let (lo, hi) = coef(n);
            // v > Q/2 stands for v - Q < 0: subtract Q by a mask from the sign of Q/2 - v
            // (no branch on v).
            let (_, b) = self.half_q.0.overflowing_sub(lo);
            let d = (self.half_q.1 as i128).wrapping_sub(hi as i128);
            let neg = (d.wrapping_sub(i128::from(b)) >> 127) as u128; // all ones or 0
            let (lo, borrow) = lo.overflowing_sub(self.big_q.0 & neg as u64);
            let hi = (hi as i128)
                .wrapping_sub((self.big_q.1 & neg) as i128)
                .wrapping_sub(i128::from(borrow));
            let t = carry.wrapping_add(i128::from(lo));
            *o = t as u64;
            carry = (t >> 64).wrapping_add(hi);
        }
        finish_nega(carry, out)
    }

    /// Portable cyclic read-out: `out = sum_n c_n 2^(64 n) mod 2^l - 1` in [0, 2^l - 1), for
    /// residues of non-negative coefficients.
    pub(crate) fn collect_cyc_portable(&self, r: [&[u64]; 3], out: &mut [u64]) {
        self.cyc_from(out, |n| self.garner(r[0][n], r[1][n], r[2][n]));
    }

    /// The cyclic read-out of the coefficients `coef(n)` = v in [0, Q).
    #[inline(always)]
    fn cyc_from(&self, out: &mut [u64], coef: impl Fn(usize) -> (u64, u128)) {
        let mut carry: u128 = 0;
        for (n, o) in out.iter_mut().enumerate() {
            let (lo, hi) = coef(n);
            let t = carry.wrapping_add(u128::from(lo));
            *o = t as u64;
            carry = (t >> 64).wrapping_add(hi);
        }
        finish_cyc(carry, out);
    }
}

/// Carry propagation over coefficients given as words c_n = w0 + w1 2^64 + w2 2^128 (`buf`
/// holds w0, w1, w2 (signed) as three runs of P = `out.len()`): `out` gets the low l bits of
/// sum_n c_n 2^(64 n), the return value the rest (sum div 2^l).
#[cfg(target_arch = "x86_64")]
fn fold_words(buf: &[u64], out: &mut [u64]) -> i128 {
    let p = out.len();
    debug_assert!(p.is_multiple_of(2) && buf.len() == 3 * p);
    let (w0, rest) = buf.split_at(p);
    let (w1, w2) = rest.split_at(p);
    // Two limbs per step: the pair's own part lo = a0 + (a1 + b0) 2^64 (mod 2^128, overflow
    // ov) and the rest hi = b1 + c0 + c1 2^64 + ov (units of 2^128) do not depend on the carry,
    // which then costs one 128-bit addition per pair.
    let mut carry: i128 = 0;
    let pairs = out
        .chunks_exact_mut(2)
        .zip(w0.chunks_exact(2))
        .zip(w1.chunks_exact(2))
        .zip(w2[..p].chunks_exact(2));
    for (((o, a), b), c) in pairs {
        let pair = u128::from(a[0]) | (u128::from(a[1]) << 64);
        let (lo, ov) = pair.overflowing_add(u128::from(b[0]) << 64);
        // |c| <= Q / 2 < 2^149 (primes below 2^50), so |w2| < 2^21, |hi| < 2^86 and the
        // carry stays below 2^87: exact in wrapping arithmetic, written so (no checked branch
        // on the coefficients).
        let hi = (i128::from(c[1] as i64) << 64)
            .wrapping_add(i128::from(b[1]))
            .wrapping_add(i128::from(c[0] as i64))
            .wrapping_add(i128::from(ov));
        // lo + carry = s + 2^128 (wrapped - (carry < 0)), carry read as two's complement.
        let (s, wrapped) = lo.overflowing_add(carry as u128);
        o[0] = s as u64;
        o[1] = (s >> 64) as u64;
        carry = hi
            .wrapping_add(i128::from(wrapped))
            .wrapping_sub(i128::from(carry < 0));
    }
    carry
}

/// The nega-cyclic wrap: limbs L (in `out`) plus `carry` 2^l, reduced mod 2^l + 1 into
/// [0, 2^l]; returns the `top` flag (value 2^l) as a mask, all ones or 0. Constant time: two
/// full passes and masks, no branch on the values.
fn finish_nega(carry: i128, out: &mut [u64]) -> u64 {
    // L + carry 2^l = L - carry (mod 2^l + 1). First L - carry = D + k 2^l with D in
    // [0, 2^l) and k in {-1, 0, 1} (|carry| is far below 2^l), ...
    debug_assert!(carry.unsigned_abs() < 1 << 126);
    let mut acc = carry.wrapping_neg();
    for l in out.iter_mut() {
        acc = acc.wrapping_add(i128::from(*l));
        *l = acc as u64;
        acc >>= 64;
    }
    // ... then D - k = D + k 2^l (mod 2^l + 1), in [-1, 2^l]: both ends are 2^l (-1 = 2^l),
    // which leave the pass with a borrow or a carry: zero limbs and the flag.
    let mut acc2 = acc.wrapping_neg();
    for l in out.iter_mut() {
        acc2 = acc2.wrapping_add(i128::from(*l));
        *l = acc2 as u64;
        acc2 >>= 64;
    }
    debug_assert!((-1..=1).contains(&acc2));
    let top = ((acc2 | acc2.wrapping_neg()) >> 64) as u64; // all ones iff acc2 != 0
    for l in out.iter_mut() {
        *l &= !top;
    }
    top
}

/// The cyclic wrap: limbs L plus `carry` 2^l, reduced mod 2^l - 1 into [0, 2^l - 1).
/// Constant time: four full end-around passes (2^l = 1) absorb any carry below 2^128, then
/// 2^l - 1 (all ones) becomes 0 by a mask.
fn finish_cyc(carry: u128, out: &mut [u64]) {
    let mut c = carry;
    for _ in 0..4 {
        let mut acc = c;
        for l in out.iter_mut() {
            acc = acc.wrapping_add(u128::from(*l));
            *l = acc as u64;
            acc >>= 64;
        }
        c = acc;
    }
    debug_assert_eq!(c, 0);
    let all_ones = out.iter().fold(u64::MAX, |a, &l| a & l);
    // The mask goes through black_box: seen through, the compiler turns the masked stores
    // into a branch to a memset.
    let mask = core::hint::black_box(u64::from(all_ones == u64::MAX)).wrapping_neg();
    for l in out.iter_mut() {
        *l &= !mask;
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

    /// Residues mod (q1, q2, q3) of the integer hi 2^64 + lo.
    fn residues_of(lo: u64, hi: u128) -> [u64; 3] {
        PRIMES.map(|q| {
            let h = (hi % u128::from(q)) as u64;
            let r64 = ((1u128 << 64) % u128::from(q)) as u64;
            ((u128::from(mul_mod(h, r64, q)) + u128::from(lo)) % u128::from(q)) as u64
        })
    }

    /// Residue buffers (3P entries) of random and extreme coefficients (around Q/2 and Q - 1,
    /// 0, all-max residues), P = `lens`, each passed to `f` with P.
    #[cfg(target_arch = "x86_64")]
    fn for_each_case(crt: &Crt, lens: &[usize], mut f: impl FnMut(usize, &[u64])) {
        let (hq, bq) = (crt.half_q, crt.big_q);
        // Integers around Q/2 and Q - 1, as (lo, hi).
        let near = |(lo, hi): (u64, u128), d: i64| {
            let (l, c) = lo.overflowing_add_signed(d);
            let hi = match (c, d < 0) {
                (false, _) => hi,
                (true, true) => hi - 1,
                (true, false) => hi + 1,
            };
            (l, hi)
        };
        let mut special: Vec<[u64; 3]> = vec![[0; 3], PRIMES.map(|q| q - 1), [1, 1, 1]];
        for d in [-2i64, -1, 0, 1, 2, 3] {
            let (lo, hi) = near(hq, d);
            special.push(residues_of(lo, hi));
        }
        for d in [-3i64, -2, -1] {
            let (lo, hi) = near(bq, d);
            special.push(residues_of(lo, hi));
        }
        special.push(residues_of(u64::MAX, (1u128 << 80) - 1)); // 2^144 - 1
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1442695040888963407);
            seed ^ (seed >> 29)
        };
        for &p in lens {
            // Patterns: uniform special value, random, random specials, all-max residues.
            let mut cases: Vec<Vec<[u64; 3]>> = special.iter().map(|&r| vec![r; p]).collect();
            cases.push((0..p).map(|_| PRIMES.map(|q| next() % q)).collect());
            cases.push(
                (0..p)
                    .map(|_| special[(next() % special.len() as u64) as usize])
                    .collect(),
            );
            cases.push(
                (0..p)
                    .map(|n| if n % 2 == 0 { special[3] } else { special[7] })
                    .collect(),
            );
            for case in cases {
                let mut buf = vec![0u64; 3 * p];
                for (n, r) in case.iter().enumerate() {
                    for i in 0..3 {
                        buf[i * p + n] = r[i];
                    }
                }
                f(p, &buf);
            }
        }
    }

    /// The portable read-outs of `buf` (nega-cyclic with its top mask, cyclic), and a check
    /// that the dispatching entry points give them too.
    #[cfg(target_arch = "x86_64")]
    fn portable_and_dispatch(crt: &Crt, p: usize, buf: &[u64]) -> (u64, Vec<u64>, Vec<u64>) {
        let r = [&buf[..p], &buf[p..2 * p], &buf[2 * p..]];
        let (mut want_n, mut want_c) = (vec![0u64; p], vec![0u64; p]);
        let top = crt.collect_nega_portable(r, &mut want_n);
        crt.collect_cyc_portable(r, &mut want_c);
        let (mut w, mut o) = (buf.to_vec(), vec![0u64; p]);
        assert_eq!(crt.collect_nega_mask(&mut w, &mut o), top, "dispatch p={p}");
        assert_eq!(o, want_n, "dispatch nega p={p}");
        let mut w = buf.to_vec();
        crt.collect_cyc(&mut w, &mut o);
        assert_eq!(o, want_c, "dispatch cyc p={p}");
        (top, want_n, want_c)
    }

    /// The IFMA read-outs against the portable ones on random and extreme residues.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn ifma_garner_matches_portable() {
        if !crate::mont::amm::ifma_or_skip("ifma_garner_matches_portable") {
            return;
        }
        let crt = Crt::new();
        for_each_case(&crt, &[8, 16, 64, 256, 1024], |p, buf| {
            let (top, want_n, want_c) = portable_and_dispatch(&crt, p, buf);
            let (mut got, mut w) = (vec![0u64; p], buf.to_vec());
            super::super::ifma_crt::garner_words(&crt.k52, &mut w, true);
            let got_top = finish_nega(fold_words(&w, &mut got), &mut got);
            assert_eq!((got_top, &got), (top, &want_n), "nega p={p}");
            let mut w = buf.to_vec();
            super::super::ifma_crt::garner_words(&crt.k52, &mut w, false);
            let carry = fold_words(&w, &mut got);
            finish_cyc(u128::try_from(carry).unwrap(), &mut got);
            assert_eq!(got, want_c, "cyc p={p}");
        });
    }

    /// Garner's digits on AVX2 equal the scalar ones, and the read-outs built on them the
    /// portable read-outs, on the same residues. Runs wherever the CPU has AVX2 and FMA.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_garner_matches_portable() {
        if !crate::mont::run_or_skip(
            super::super::avx2::available(),
            "MONTLAB_REQUIRE_AVX2",
            "avx2_garner_matches_portable",
            "this CPU lacks AVX2 or FMA",
        ) {
            return;
        }
        let crt = Crt::new();
        for_each_case(&crt, &[4, 8, 12, 64, 256, 1024], |p, buf| {
            let (top, want_n, want_c) = portable_and_dispatch(&crt, p, buf);
            let mut w = buf.to_vec();
            let [r1, k2, k3] = crt.digits_avx2(&mut w);
            for n in 0..p {
                let want = crt.digits(buf[n], buf[p + n], buf[2 * p + n]);
                assert_eq!((k2[n], k3[n]), want, "digits p={p} n={n}");
            }
            let mut got = vec![0u64; p];
            let got_top = crt.nega_from(&mut got, |n| crt.value(r1[n], k2[n], k3[n]));
            assert_eq!((got_top, &got), (top, &want_n), "nega p={p}");
            crt.cyc_from(&mut got, |n| crt.value(r1[n], k2[n], k3[n]));
            assert_eq!(got, want_c, "cyc p={p}");
        });
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
