//! `spectral`: McLaughlin's wrap-around Montgomery multiplication with NTT products, the
//! software form of FMLM3.
//!
//! Citation: P. McLaughlin, "New frameworks for Montgomery's modular multiplication method",
//! Math. Comp. 73, 2004 (Algorithm 1 of FMLM3 = SPEC §1.3); the spectral organisation of FMLM3
//! (SPEC §1.4: transforms of the modulus precomputed, cyclic and nega-cyclic products without
//! zero-padding, a transformed operand reused across products, squaring with one operand
//! transformed once).
//!
//! Variant (the roles of 2^l - 1 and 2^l + 1 of SPEC §1.3 swapped): the Montgomery constant is
//! R = 2^l + 1 and the auxiliary modulus Q' = 2^l - 1, with l = 64 P and P a power of two. With
//! l a power of two, R is a Fermat number, whose prime factors are all 1 mod 2^(lg l + 2): the
//! gcd(N, R) = 1 precondition holds for every N without a factor of that form, where
//! 2^l - 1 = (2^(l/2) - 1)(2^(l/2) + 1) is divisible by 3 and would rule out a third of all odd
//! moduli. With x, y < N < 2^l:
//!
//! 1. m = x y N' mod R, N' = -N^-1 mod R: two nega-cyclic products (h = x y mod R, then
//!    h N' mod R), each normalised to [0, 2^l] (2^l = -1 is kept as a flag);
//! 2. S = (x y + m N) mod Q': one cyclic product sum, N's transform precomputed, m taken mod Q';
//! 3. R = 2 mod Q', so t = S / 2 mod Q'; t = (x y + m N) / R has the parity of x y + m N
//!    (R is odd) and lies in [0, 2N) with 2N <= 2 Q', which leaves s or s + Q';
//! 4. one final subtraction: the output is fully reduced, 0 <= out < N.
//!
//! Word size / radix: digits are the 64-bit limbs (u = 64, B = 2^64), transform length P,
//! l = 64 P >= bitlen(N). The products run modulo three 50-bit NTT primes (see
//! [`super::prime`], [`super::ntt`]) and come back by CRT ([`super::crt`]); where the CPU has
//! AVX-512 IFMA, loads, transforms, pointwise products (52-bit Montgomery, its 2^-52 undone by
//! the inverse transform's scaling) and the Garner step run 8 lanes wide, with results equal
//! to the portable loops'. Transform count:
//! a product of two fresh operands costs 9 length-P transforms (4 forward for the operands,
//! forward of h and of m, 3 inverse), a squaring 7, a product with a prepared operand 5: its
//! preparation also keeps the transform of y N' mod R, so step 1 is m = x (y N' mod R) mod R,
//! one nega-cyclic product (forward of m, 2 inverse). `to_mont` and `from_mont` multiply by
//! prepared R^2 mod N and 1 (whose y N' is N' itself).
//!
//! Left out: FMLM3's Algorithm 3 (the triple product needs M > P^2 (B-1)^3, a fourth prime
//! here) and lazy (< 2N) outputs.
//!
//! Timing: no branch or memory index depends on the values (masked carry
//! folds, flag and final subtraction; wrapping arithmetic within the stated bounds), so
//! `pow_sec` runs on it ([`fixed::pow_sec_with`]); `crates/montlab-ct` checks the portable
//! and AVX2 loops under valgrind. The IFMA loops, branch-free too, are outside valgrind (no
//! AVX-512) and are checked statistically (`bench/dudect.py --kernels spectral_pow_sec`).

use num_bigint::BigUint;

use super::crt::Crt;
use super::ntt::NttTables;
use super::prime::csub;
use super::{forward, vector_len};
use crate::bigarith;
use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::params::OddModulus;
use crate::pow::fixed::{self, CtKernel};
use crate::pow::{window, MontKernel};

/// Largest transform length: l = 64 * 2^16 = 2^22 bits, inside the coefficient bounds.
pub const MAX_TRANSFORM_LEN: usize = 1 << 16;

/// Per-modulus precomputation of the spectral kernel (built once, shared by every thread).
#[derive(Clone, Debug)]
pub struct SpectralParams {
    /// N as exactly `s` limbs, and padded to `p` limbs.
    n: Vec<Limb>,
    n_pad: Vec<Limb>,
    s: usize,
    p: usize,
    tables: [NttTables; 3],
    crt: Crt,
    /// Whether loads, pointwise products and transforms run on IFMA (then the pointwise
    /// Montgomery factor is 2^-52 and the inverse transforms scale by P^-1 2^52).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    vec: bool,
    /// Whether the pointwise products run on AVX2 and FMA ([`super::avx2_len`]: plain
    /// products, and the inverse transforms scale by P^-1).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
    /// Cyclic transform of N and nega-cyclic transform of N' (3 P residues each).
    n_cyc: Vec<u64>,
    np_nega: Vec<u64>,
    /// R mod N and R^2 mod N as `s` limbs; R^2 mod N and 1 also as prepared elements.
    r_mod_n: Vec<Limb>,
    r2_mod_n: Vec<Limb>,
    r2_elem: SpectralElem,
    one_elem: SpectralElem,
}

/// A Montgomery-domain element of the spectral kernel: `p` limbs, optionally with its cyclic
/// and nega-cyclic transforms and the nega-cyclic transform of y N' mod R (all three empty
/// until [`MontKernel::prepare`]).
#[derive(Clone, Debug)]
pub struct SpectralElem {
    limbs: Vec<Limb>,
    cyc: Vec<u64>,
    nega: Vec<u64>,
    np: Vec<u64>,
}

impl SpectralElem {
    fn is_prepared(&self) -> bool {
        !self.cyc.is_empty()
    }
}

/// The intermediate values of one product by [`SpectralParams::mont_mul_traced`], for the
/// naive model `python/montlab/ref/spectral.py`. Residues are those of a convolution's
/// coefficients after the inverse transforms, reduced to [0, q), prime by prime (3 P each).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpectralTrace {
    /// Residues of the nega-cyclic product x y (step 1a).
    pub h_residues: Vec<u64>,
    /// Residues of the nega-cyclic product h N' (step 1b).
    pub m_residues: Vec<u64>,
    /// Residues of the cyclic sum x y + m N (step 2).
    pub s_residues: Vec<u64>,
    /// h = x y mod R in [0, 2^l]: P limbs, and true for the value 2^l.
    pub h: (Vec<Limb>, bool),
    /// m = h N' mod R in [0, 2^l], the same way.
    pub m: (Vec<Limb>, bool),
    /// S = (x y + m N) mod (2^l - 1), in [0, 2^l - 1): P limbs.
    pub s: Vec<Limb>,
    /// t = (x y + m N) / R < 2N before the final subtraction: P limbs, and true for bit l.
    pub t: (Vec<Limb>, bool),
}

/// Residues of `a` (3 P, lazily reduced) in [0, q).
pub(crate) fn canonical(a: &[u64], p: usize) -> Vec<u64> {
    a.chunks_exact(p)
        .zip(super::prime::PRIMES)
        .flat_map(|(c, q)| c.iter().map(move |&v| v % q))
        .collect()
}

/// Working memory of one thread.
#[derive(Debug)]
pub struct SpectralScratch {
    xc: Vec<u64>,
    xn: Vec<u64>,
    yc: Vec<u64>,
    yn: Vec<u64>,
    a: Vec<u64>,
    h: Vec<Limb>,
    m: Vec<Limb>,
}

impl SpectralParams {
    /// Precomputes the kernel for `modulus` with the shortest transform length P (a power of
    /// two, at least 2) such that 64 P >= bitlen(N).
    ///
    /// Returns `None` when gcd(N, 2^(64P) + 1) > 1 or N is wider than 2^22 bits: callers fall
    /// back to the word-level kernel. A longer transform is never tried, because a modulus
    /// built from factors of 2^(64P) + 1, 2^(128P) + 1, ... would otherwise force a transform
    /// many times longer (20x slower at 20,127 bits) than its size needs. Cost: one modular
    /// inverse and two divisions (half-gcd and Newton from 2^17 bits, sub-quadratic; Lehmer
    /// and num-bigint below), and three transforms.
    #[must_use]
    pub fn new(modulus: &OddModulus) -> Option<Self> {
        Self::with_len(modulus, modulus.limbs().next_power_of_two().max(2))
    }

    /// Precomputes the kernel with transform length `p` (a power of two, `64 p >= bitlen(N)`),
    /// or `None` if gcd(N, 2^(64p) + 1) > 1 or `p` is out of range.
    #[must_use]
    pub fn with_len(modulus: &OddModulus, p: usize) -> Option<Self> {
        let s = modulus.limbs();
        if !p.is_power_of_two() || !(2..=MAX_TRANSFORM_LEN).contains(&p) || p < s {
            return None;
        }
        let n_big = crate::bigarith::from_limbs(modulus.as_limbs());
        let r_big = (BigUint::from(1u8) << (64 * p)) + 1u8;
        let n_inv = crate::inverse::mod_inverse(&n_big, &r_big)?;
        let n_prime = &r_big - n_inv; // -N^-1 mod R, in [1, R) and below 2^l because N > 1
        let r_mod_n = bigarith::div_rem(&r_big, &n_big).1;
        let r2_mod_n = bigarith::div_rem(&bigarith::mul(&r_mod_n, &r_mod_n), &n_big).1;
        let (r_mod_n, r2_mod_n) = (from_big(&r_mod_n, s), from_big(&r2_mod_n, s));

        let tables = [
            NttTables::new(0, p),
            NttTables::new(1, p),
            NttTables::new(2, p),
        ];
        let mut n_pad = modulus.as_limbs().to_vec();
        n_pad.resize(p, 0);
        let mut params = Self {
            n: modulus.as_limbs().to_vec(),
            n_pad,
            s,
            p,
            tables,
            crt: Crt::new(),
            vec: vector_len(p),
            avx2: super::avx2_len(p),
            n_cyc: vec![0; 3 * p],
            np_nega: vec![0; 3 * p],
            r_mod_n,
            r2_mod_n: r2_mod_n.clone(),
            r2_elem: SpectralElem {
                limbs: Vec::new(),
                cyc: Vec::new(),
                nega: Vec::new(),
                np: Vec::new(),
            },
            one_elem: SpectralElem {
                limbs: Vec::new(),
                cyc: Vec::new(),
                nega: Vec::new(),
                np: Vec::new(),
            },
        };
        let mut n_cyc = vec![0; 3 * p];
        params.load(&params.n_pad, 0, 0, &mut n_cyc);
        params.forward_all(&mut n_cyc, false);
        let mut np_nega = vec![0; 3 * p];
        params.load(&from_big(&n_prime, p), 0, 0, &mut np_nega);
        params.forward_all(&mut np_nega, true);
        params.n_cyc = n_cyc;
        params.np_nega = np_nega;

        let mut sc = params.scratch();
        let mut r2_elem = params.elem(&r2_mod_n);
        params.prepare(&mut r2_elem, &mut sc);
        let mut one = vec![0; s];
        one[0] = 1;
        let mut one_elem = params.elem(&one);
        params.prepare(&mut one_elem, &mut sc);
        params.r2_elem = r2_elem;
        params.one_elem = one_elem;
        Some(params)
    }

    /// N as `s` limbs.
    #[must_use]
    pub fn modulus(&self) -> &[Limb] {
        &self.n
    }

    /// Transform length P.
    #[must_use]
    pub fn transform_len(&self) -> usize {
        self.p
    }

    /// l = 64 P: the Montgomery constant is R = 2^l + 1.
    #[must_use]
    pub fn l_bits(&self) -> u64 {
        64 * self.p as u64
    }

    /// R mod N as `s` limbs (the Montgomery form of 1).
    #[must_use]
    pub fn r_mod_n(&self) -> &[Limb] {
        &self.r_mod_n
    }

    /// R^2 mod N as `s` limbs.
    #[must_use]
    pub fn r2_mod_n(&self) -> &[Limb] {
        &self.r2_mod_n
    }

    /// Montgomery product `x y R^-1 mod N` (R = 2^l + 1) as `s` limbs, fully reduced.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `x` or `y` if it is not below N.
    pub fn mont_mul(&self, x: &[Limb], y: &[Limb]) -> Result<Vec<Limb>, MontError> {
        let x = self.elem(&self.operand(x, "x")?);
        let y = self.elem(&self.operand(y, "y")?);
        let mut sc = self.scratch();
        let mut out = x.clone();
        self.mul(&x, &y, &mut out, &mut sc);
        Ok(out.limbs[..self.s].to_vec())
    }

    /// [`Self::mont_mul`] with its intermediate values ([`SpectralTrace`]); both operands
    /// unprepared, so step 1 runs as two nega-cyclic products.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `x` or `y` if it is not below N.
    pub fn mont_mul_traced(
        &self,
        x: &[Limb],
        y: &[Limb],
    ) -> Result<(Vec<Limb>, SpectralTrace), MontError> {
        let x = self.elem(&self.operand(x, "x")?);
        let y = self.elem(&self.operand(y, "y")?);
        let mut sc = self.scratch();
        let mut out = x.clone();
        let mut trace = SpectralTrace::default();
        self.mont_core(&x, Some(&y), &mut out.limbs, &mut sc, Some(&mut trace));
        Ok((out.limbs[..self.s].to_vec(), trace))
    }

    /// `base^exp mod N` by sliding windows over this kernel. Variable time.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `base` if `base >= N`.
    pub fn pow_vartime(&self, base: &[Limb], exp: &[Limb]) -> Result<Vec<Limb>, MontError> {
        let base = self.operand(base, "base")?;
        Ok(window::pow_vartime_with(self, &base, exp))
    }

    /// Checks an operand `x < N` and returns it as exactly `s` limbs.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `which` if `x >= N`.
    pub fn operand(&self, x: &[Limb], which: &'static str) -> Result<Vec<Limb>, MontError> {
        limb::operand(x, &self.n, which)
    }

    /// An unprepared element from `s` (or fewer) limbs.
    fn elem(&self, x: &[Limb]) -> SpectralElem {
        let mut limbs = x.to_vec();
        limbs.resize(self.p, 0);
        SpectralElem {
            limbs,
            cyc: Vec::new(),
            nega: Vec::new(),
            np: Vec::new(),
        }
    }

    /// Residues of the `p` digits of `x` for the three primes into `dst` (3 P entries, in
    /// [0, 4q)), minus 1 on digit 0 where `minus` is all ones and plus 1 where `plus` is: the
    /// flagged value 2^l enters a nega-cyclic product as -1 and a cyclic one as +1 (masks, so
    /// that no branch depends on the flag).
    fn load(&self, x: &[Limb], minus: u64, plus: u64, dst: &mut [u64]) {
        for (t, chunk) in self.tables.iter().zip(dst.chunks_exact_mut(self.p)) {
            let pr = &t.prime;
            #[cfg(target_arch = "x86_64")]
            if self.vec {
                super::ifma::load(chunk, &x[..self.p], pr.q);
            } else {
                for (d, &v) in chunk.iter_mut().zip(x) {
                    *d = pr.reduce_lazy(v);
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            for (d, &v) in chunk.iter_mut().zip(x) {
                *d = pr.reduce_lazy(v);
            }
            // Below 4q: a lazy residue under 2q plus at most 2q - 1.
            chunk[0] = chunk[0].wrapping_add(((pr.q2 - 1) & minus) | (1 & plus));
        }
    }

    fn forward_all(&self, a: &mut [u64], nega: bool) {
        for (t, chunk) in self.tables.iter().zip(a.chunks_exact_mut(self.p)) {
            forward(chunk, t, nega);
        }
    }

    /// Inverse transforms after pointwise products (scaling as `vec` requires, else as
    /// [`super::inverse_products`], which pairs with `avx2`).
    fn inverse_all(&self, a: &mut [u64], nega: bool) {
        for (t, chunk) in self.tables.iter().zip(a.chunks_exact_mut(self.p)) {
            #[cfg(target_arch = "x86_64")]
            if self.vec {
                super::ifma::inverse52(chunk, t, nega);
                continue;
            }
            super::inverse_products(chunk, t, nega);
        }
    }

    /// The cyclic and nega-cyclic transforms of `x` into `c` and `n`.
    fn transform(&self, x: &[Limb], c: &mut [u64], n: &mut [u64]) {
        self.load(x, 0, 0, c);
        n.copy_from_slice(c);
        self.forward_all(c, false);
        self.forward_all(n, true);
    }

    /// `a = a (.) b` position-wise, in [0, 2q): Montgomery products (factor 2^-64, or 2^-52
    /// with `vec`) or plain ones with `avx2`, the factor undone by [`Self::inverse_all`].
    fn pointwise(&self, a: &mut [u64], b: &[u64]) {
        let p = self.p;
        for (j, (ca, cb)) in a.chunks_exact_mut(p).zip(b.chunks_exact(p)).enumerate() {
            self.pointwise_prime(j, ca, None, cb, None);
        }
    }

    /// `dst = a (.) b`, position-wise.
    fn pointwise_into(&self, dst: &mut [u64], a: &[u64], b: &[u64]) {
        let p = self.p;
        let runs = dst
            .chunks_exact_mut(p)
            .zip(a.chunks_exact(p))
            .zip(b.chunks_exact(p));
        for (j, ((d, ca), cb)) in runs.enumerate() {
            self.pointwise_prime(j, d, Some(ca), cb, None);
        }
    }

    /// `acc = a (.) b + acc (.) c`, reduced to [0, 2q): the spectral sum x y + m N.
    fn pointwise_sum(&self, acc: &mut [u64], a: &[u64], b: &[u64], c: &[u64]) {
        let p = self.p;
        let runs = acc.chunks_exact_mut(p).zip(a.chunks_exact(p));
        for (j, ((d, ca), (cb, cc))) in runs
            .zip(b.chunks_exact(p).zip(c.chunks_exact(p)))
            .enumerate()
        {
            self.pointwise_prime(j, d, Some(ca), cb, Some(cc));
        }
    }

    /// The pointwise products of prime `j` on this kernel's path (IFMA, AVX2 or portable):
    /// `dst = a (.) b` (`a = None`: `dst` itself), and with `c`, `+ dst (.) c` (the old
    /// `dst`), in [0, 2q).
    fn pointwise_prime(
        &self,
        j: usize,
        dst: &mut [u64],
        a: Option<&[u64]>,
        b: &[u64],
        c: Option<&[u64]>,
    ) {
        let t = &self.tables[j];
        let pr = &t.prime;
        #[cfg(target_arch = "x86_64")]
        if self.vec {
            return super::ifma::pointwise(dst, a, b, c, pr.q);
        }
        match (a, c) {
            (None, None) => super::pointwise(t, dst, Some(b)),
            #[cfg(target_arch = "x86_64")]
            (a, c) if self.avx2 => super::avx2::pointwise(dst, a, b, c, pr.q),
            (Some(a), None) => {
                for ((o, &x), &y) in dst.iter_mut().zip(a).zip(b) {
                    *o = pr.mont_mul(x, y);
                }
            }
            (Some(a), Some(c)) => {
                for (((o, &x), &y), &z) in dst.iter_mut().zip(a).zip(b).zip(c) {
                    let v = pr.mont_mul(x, y).wrapping_add(pr.mont_mul(*o, z)); // < 4q
                    *o = csub(v, pr.q2);
                }
            }
            (None, Some(_)) => unreachable!("spectral: no sum is taken in place"),
        }
    }

    /// The kernel: `out = x y R^-1 mod N` (`y = None`: `x^2 R^-1 mod N`), `p` limbs each.
    fn mont_core(
        &self,
        x: &SpectralElem,
        y: Option<&SpectralElem>,
        out: &mut [Limb],
        sc: &mut SpectralScratch,
        mut trace: Option<&mut SpectralTrace>,
    ) {
        let p = self.p;
        let SpectralScratch {
            xc,
            xn,
            yc,
            yn,
            a,
            h,
            m,
        } = sc;
        // Transforms of the operands: prepared ones are reused, fresh ones computed once.
        let (xc, xn): (&[u64], &[u64]) = if x.is_prepared() {
            assert_eq!(
                x.nega.len(),
                3 * p,
                "spectral: a gathered operand is a right operand"
            );
            (&x.cyc, &x.nega)
        } else {
            self.transform(&x.limbs, xc, xn);
            (xc, xn)
        };
        let (yc, yn): (&[u64], &[u64]) = match y {
            None => (xc, xn),
            // y.nega is read below only where y N' mod R is not prepared.
            Some(y) if y.is_prepared() => (&y.cyc, &y.nega),
            Some(y) => {
                self.transform(&y.limbs, yc, yn);
                (yc, yn)
            }
        };
        let y_low = y.map_or(x.limbs[0], |y| y.limbs[0]);

        let m_top = match y {
            // Step 1 with y N' mod R prepared: m = x (y N' mod R) mod R, one product.
            Some(y) if !y.np.is_empty() => {
                self.pointwise_into(a, xn, &y.np);
                self.inverse_all(a, true);
                self.crt.collect_nega_mask(a, m)
            }
            _ => {
                // Step 1a: h = x y mod R (nega-cyclic product).
                self.pointwise_into(a, xn, yn);
                self.inverse_all(a, true);
                if let Some(tr) = trace.as_deref_mut() {
                    tr.h_residues = canonical(a, p);
                }
                let h_top = self.crt.collect_nega_mask(a, h);
                // Step 1b: m = h N' mod R.
                self.load(h, h_top, 0, a);
                self.forward_all(a, true);
                self.pointwise(a, &self.np_nega);
                self.inverse_all(a, true);
                if let Some(tr) = trace.as_deref_mut() {
                    tr.h = (h.clone(), h_top != 0);
                    tr.m_residues = canonical(a, p);
                }
                self.crt.collect_nega_mask(a, m)
            }
        };
        if let Some(tr) = trace.as_deref_mut() {
            tr.m = (m.clone(), m_top != 0);
        }
        // Step 2: S = (x y + m N) mod Q' (cyclic; m = 2^l is 1 mod Q').
        self.load(m, 0, m_top, a);
        self.forward_all(a, false);
        self.pointwise_sum(a, xc, yc, &self.n_cyc);
        self.inverse_all(a, false);
        if let Some(tr) = trace.as_deref_mut() {
            tr.s_residues = canonical(a, p);
        }
        let sv = &mut out[..p];
        self.crt.collect_cyc(a, sv);
        if let Some(tr) = trace.as_deref_mut() {
            tr.s = sv.to_vec();
        }

        // Step 3: s = S / 2 mod Q' (S odd: (S + 2^l - 1) / 2 = (S - 1) / 2 + 2^(l-1)).
        limb::half_mod_mersenne(sv);
        // t = s or s + Q', whichever has the parity of x y + m N (N is odd; m = 2^l is even):
        // s + 2^l - 1 sets the top bit and subtracts 1 (s = 0 gives 2^l - 1, no top). Every
        // limb is subtracted from, so that no branch depends on the values.
        let parity = (x.limbs[0] & y_low & 1) ^ (m[0] & 1);
        let odd = (sv[0] ^ parity) & 1;
        let mut borrow = odd;
        for l in sv.iter_mut() {
            let (v, b) = l.overflowing_sub(borrow);
            *l = v;
            borrow = Limb::from(b);
        }
        let top = odd & (borrow ^ 1);
        if let Some(tr) = trace {
            tr.t = (sv.to_vec(), top == 1);
        }
        // Step 4: t < 2N, one subtraction, by mask.
        let t = &mut h[..p];
        t.copy_from_slice(sv);
        limb::ct_reduce_once(sv, t, top, &self.n_pad);
        debug_assert!(
            limb::cmp(sv, &self.n_pad).is_lt(),
            "spectral: output not reduced"
        );
    }
}

impl MontKernel for SpectralParams {
    type Elem = SpectralElem;
    type Scratch = SpectralScratch;

    fn scratch(&self) -> SpectralScratch {
        let r = || vec![0u64; 3 * self.p];
        SpectralScratch {
            xc: r(),
            xn: r(),
            yc: r(),
            yn: r(),
            a: r(),
            h: vec![0; self.p],
            m: vec![0; self.p],
        }
    }

    fn one(&self) -> SpectralElem {
        self.elem(&self.r_mod_n)
    }

    fn to_mont(&self, x: &[Limb], sc: &mut SpectralScratch) -> SpectralElem {
        let x = self.elem(x);
        let mut out = x.clone();
        self.mont_core(&x, Some(&self.r2_elem), &mut out.limbs, sc, None);
        out
    }

    fn from_mont(&self, a: &SpectralElem, sc: &mut SpectralScratch) -> Vec<Limb> {
        let mut out = vec![0; self.p];
        self.mont_core(a, Some(&self.one_elem), &mut out, sc, None);
        out.truncate(self.s);
        out
    }

    fn mul(
        &self,
        a: &SpectralElem,
        b: &SpectralElem,
        out: &mut SpectralElem,
        sc: &mut SpectralScratch,
    ) {
        out.limbs.resize(self.p, 0);
        out.cyc.clear();
        out.nega.clear();
        out.np.clear();
        self.mont_core(a, Some(b), &mut out.limbs, sc, None);
    }

    fn sqr(&self, a: &SpectralElem, out: &mut SpectralElem, sc: &mut SpectralScratch) {
        out.limbs.resize(self.p, 0);
        out.cyc.clear();
        out.nega.clear();
        out.np.clear();
        self.mont_core(a, None, &mut out.limbs, sc, None);
    }

    /// Computes the transforms of `b` and of b N' mod R (one more nega-cyclic product), so
    /// that a product with `b` as the right operand costs 5 transforms instead of 7.
    fn prepare(&self, b: &mut SpectralElem, sc: &mut SpectralScratch) {
        if !b.is_prepared() {
            let mut c = vec![0; 3 * self.p];
            let mut n = vec![0; 3 * self.p];
            self.transform(&b.limbs, &mut c, &mut n);
            b.cyc = c;
            b.nega = n;
        }
        if b.np.is_empty() {
            let mut np = vec![0; 3 * self.p];
            self.pointwise_into(&mut sc.a, &b.nega, &self.np_nega);
            self.inverse_all(&mut sc.a, true);
            let top = self.crt.collect_nega_mask(&mut sc.a, &mut sc.h);
            self.load(&sc.h, top, 0, &mut np);
            self.forward_all(&mut np, true);
            b.np = np;
        }
    }

    fn limbs(&self) -> usize {
        self.s
    }

    fn wrap(&self, x: &[Limb]) -> SpectralElem {
        self.elem(x)
    }

    fn unwrap(&self, a: &SpectralElem) -> Vec<Limb> {
        a.limbs[..self.s].to_vec()
    }
}

/// The spectral kernel's products are branch-free in the values (masked carry folds, flags
/// and final subtraction; transforms and Garner's step by [`csub`]), so `pow_sec` runs on it.
impl CtKernel for SpectralParams {
    fn r2(&self) -> SpectralElem {
        self.r2_elem.clone()
    }

    /// Gathers the limbs, the cyclic transform and that of y N' mod R of the entry, each by a
    /// full masked scan. A right operand with y N' mod R prepared never reads its nega-cyclic
    /// transform ([`SpectralParams::mont_core`]), so `out` is left without one: the scan
    /// reads 7 P words an entry rather than 10 P (the table outgrows the caches from P = 512).
    fn gather(&self, table: &[SpectralElem], digit: Limb, out: &mut SpectralElem) {
        assert!(
            table.iter().all(SpectralElem::is_prepared) && table.iter().all(|e| !e.np.is_empty()),
            "spectral: gather needs a table of prepared entries"
        );
        let (p, t) = (self.p, 3 * self.p);
        out.limbs.resize(p, 0);
        out.cyc.resize(t, 0);
        out.nega.clear();
        out.np.resize(t, 0);
        fixed::gather(table.iter().map(|e| &e.limbs[..]), digit, &mut out.limbs);
        fixed::gather(table.iter().map(|e| &e.cyc[..]), digit, &mut out.cyc);
        fixed::gather(table.iter().map(|e| &e.np[..]), digit, &mut out.np);
    }
}

fn from_big(x: &BigUint, len: usize) -> Vec<Limb> {
    let mut v = x.to_u64_digits();
    debug_assert!(v.len() <= len);
    v.resize(len, 0);
    v
}
