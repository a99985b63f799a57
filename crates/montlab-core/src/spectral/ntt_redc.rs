//! `ntt_redc`: Montgomery multiplication (REDC) with R = 2^l and three-prime NTT products.
//!
//! Registry id `ntt_redc`; naive model `python/montlab/ref/ntt_redc.py`, which it must match on
//! every intermediate value (`tests/py/test_native_kernels.py`).
//!
//! Citation: NTT64 paper, Algorithm 1 (corrected statement, SPEC §4.3): Montgomery's REDC with
//! R a power of two, N' = -N^-1 mod R, and each of its three products (T = x y, m = T N' mod R,
//! m N) computed by NTT. Software organisation (not the hardware's single prime
//! p = 2^64 - 2^32 + 1 with zero-padded b-bit samples): the products run on the three 50-bit
//! primes and Garner read-out of [`super::kernel`], without zero-padding. A product below
//! 2^(2l) - 1 is read from its cyclic (mod 2^l - 1) and nega-cyclic (mod 2^l + 1) halves and
//! the CRT T = d + (2^l + 1) ((c - d) / 2 mod 2^l - 1). The third product is needed only
//! modulo 2^l - 1, because the low half of T + m N is known (the wrap-around of GMP's
//! `mpn_redc_n`): with m N = H 2^l + L, L = -T_lo mod 2^l and H = (m N - L) mod 2^l - 1.
//!
//! Why beside `spectral`: the setup is 2-adic. N' comes from Newton-Hensel lifting
//! ([`crate::inverse::inverse_mod_pow2`], O(M(l))), where spectral's R = 2^l + 1 needs a
//! modular inverse by half-gcd (O(M(l) log l): most of a one-shot short exponentiation's time,
//! `docs/performance.md`, "Per-modulus setup"). Its products cost more transforms than
//! spectral's (a squaring 10 against 7, a product with a prepared operand 10 against 5), so
//! [`crate::FastModulus`] runs only short exponents on it, while spectral is not built.
//!
//! Ranges: N odd, 1 < N < 2^l with l = 64 P, P the least power of two >= s limbs (P >= 2,
//! at most [`MAX_LEN`], so N up to 2^25 bits, eight times spectral's range); inputs x, y < N;
//! output x y R^-1 mod N, fully reduced (t = T_hi + H + [T_lo != 0] < 2N, one subtraction).
//! Word size 64, radix 2^64.
//! Transforms per operation (each a length-P transform for the three primes): squaring 10
//! (x forward in both rings 2, T back 2, T_lo forward 2, m back 2, m forward 1, m N back 1);
//! product with a prepared right operand 10, unprepared 12; `from_mont` 6. From P = 4096 the
//! six (ring, prime) transforms of a step run on rayon's pool.
//!
//! Left out: constant time (carry loops and the final subtraction branch on data); the
//! shorter product with a prepared y N' mod R; the hardware's b-bit samples and schedule
//! (`rtl/ntt64`).

use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::crt::{add_small, sub_small, Crt};
use super::kernel::canonical;
use super::ntt::NttTables;
use super::{forward, inverse_products, pointwise};
use crate::bigarith;
use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::params::OddModulus;
use crate::pow::MontKernel;

/// Largest transform length: l = 64 * 2^19 = 2^25 bits. Every product here is one product of
/// two P-digit operands, so a coefficient is below P 2^128 <= 2^147: cyclic ones below
/// Q = q1 q2 q3 > 2^149.99, nega-cyclic ones of absolute value below Q / 2 (the symmetric
/// read-out of [`super::crt`]); the primes' 2^22 | q - 1 gives the 2P-th roots. The setup's
/// products (transforms of length at most 4 P) stay on [`super::product`]'s NTTs (up to 2^21).
pub const MAX_LEN: usize = 1 << 19;

/// The transform length P of an `s`-limb modulus: the least power of two >= s, at least 2
/// (R = 2^(64 P)); above [`MAX_LEN`] there is no kernel.
#[must_use]
pub const fn transform_len_for(s: usize) -> usize {
    let p = s.next_power_of_two();
    if p < 2 {
        2
    } else {
        p
    }
}

/// From this transform length the six (ring, prime) transforms of a step run in parallel.
/// Below it, handing them to a second thread costs more than it saves: on a 2-core AMD EPYC
/// (AVX2 transforms) one squaring took 0.16 ms alone against 0.39-0.44 ms on two threads at
/// P = 1024, and 0.33 against 0.51-0.57 ms at P = 2048; at P = 4096 and 8192 two threads won
/// (0.61-0.76 against 0.71-1.02 ms, 1.12 against 1.48 ms).
const PARALLEL_LEN: usize = 4096;

/// Per-modulus precomputation of the `ntt_redc` kernel.
#[derive(Clone, Debug)]
pub struct NttRedcParams {
    /// N padded to `p` limbs.
    n_pad: Vec<Limb>,
    s: usize,
    p: usize,
    tables: Arc<[NttTables; 3]>,
    crt: Crt,
    /// Cyclic transform of N; cyclic and nega-cyclic transforms of N' (3 P residues each).
    n_cyc: Vec<u64>,
    np_cyc: Vec<u64>,
    np_nega: Vec<u64>,
    /// R^2 mod N, prepared, built by the second conversion into the Montgomery domain (the
    /// first divides instead, for the same cost: a one-shot exponentiation converts once).
    r2: OnceLock<NttRedcElem>,
    /// Set by the first conversion into the Montgomery domain.
    converted: OnceLock<()>,
    /// R mod N as at most `s` limbs, built on first use (an exponentiation reads it only for a
    /// zero exponent, which returns before).
    r_mod_n: OnceLock<Vec<Limb>>,
}

/// An element: `p` limbs, with its cyclic and nega-cyclic transforms once prepared.
#[derive(Clone, Debug)]
pub struct NttRedcElem {
    limbs: Vec<Limb>,
    cyc: Vec<u64>,
    nega: Vec<u64>,
}

/// The intermediate values of one product by [`NttRedcParams::mont_mul_traced`], for the naive
/// model `python/montlab/ref/ntt_redc.py`. Residues are those of T = x y's coefficients after
/// the inverse transforms, reduced to [0, q), prime by prime (3 P each).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NttRedcTrace {
    /// Residues of T's cyclic half (mod x^P - 1).
    pub t_cyc_residues: Vec<u64>,
    /// Residues of T's nega-cyclic half (mod x^P + 1).
    pub t_nega_residues: Vec<u64>,
    /// T mod 2^l (P limbs).
    pub t_lo: Vec<Limb>,
    /// T div 2^l.
    pub t_hi: Vec<Limb>,
    /// m = T_lo N' mod 2^l.
    pub m: Vec<Limb>,
    /// U = m N mod (2^l - 1), in [0, 2^l - 1).
    pub u: Vec<Limb>,
    /// H = (m N) div 2^l, from U and T_lo.
    pub h: Vec<Limb>,
    /// t = (T + m N) / 2^l < 2N before the final subtraction: P limbs, and true for bit l.
    pub t: (Vec<Limb>, bool),
}

/// Working memory of one thread.
#[derive(Debug)]
pub struct NttRedcScratch {
    /// Residue buffers of the cyclic and nega-cyclic halves (3 P each).
    c: Vec<u64>,
    n: Vec<u64>,
    /// The operand's transforms when it is not prepared.
    xc: Vec<u64>,
    xn: Vec<u64>,
    /// Limb buffers (P each): T_lo, T_hi, m, and m's high half, then H.
    lo: Vec<Limb>,
    hi: Vec<Limb>,
    m: Vec<Limb>,
    u: Vec<Limb>,
}

/// The left factor of one (ring, prime) slice: limbs to load and transform, or a spectrum.
#[derive(Clone, Copy)]
enum Left<'a> {
    Limbs(&'a [Limb]),
    Spectrum(&'a [u64]),
}

/// What a slice does after its left factor is in the transform domain.
#[derive(Clone, Copy)]
enum Right<'a> {
    /// Nothing: the forward transform is the result.
    Keep,
    /// Square position-wise, then transform back.
    Square,
    /// Multiply position-wise by this spectrum, then transform back.
    By(&'a [u64]),
}

impl<'a> Left<'a> {
    /// Prime `j`'s share (a spectrum holds P residues per prime).
    fn part(self, j: usize, p: usize) -> Self {
        match self {
            Left::Spectrum(s) => Left::Spectrum(&s[j * p..(j + 1) * p]),
            l @ Left::Limbs(_) => l,
        }
    }
}

impl<'a> Right<'a> {
    /// Prime `j`'s share.
    fn part(self, j: usize, p: usize) -> Self {
        match self {
            Right::By(s) => Right::By(&s[j * p..(j + 1) * p]),
            r => r,
        }
    }
}

impl NttRedcParams {
    /// Precomputes the kernel for `modulus`: transform length P, the least power of two
    /// (at least 2) with 64 P >= bitlen(N). `None` above 2^25 bits ([`MAX_LEN`]).
    ///
    /// Cost: N' by Newton-Hensel lifting and 3 transforms; R^2 mod N (one reciprocal,
    /// [`bigarith::pow2_rem`], Newton from 2^17 bits) is built on demand.
    #[must_use]
    pub fn new(modulus: &OddModulus) -> Option<Self> {
        let s = modulus.limbs();
        let p = transform_len_for(s);
        if p > MAX_LEN {
            return None;
        }
        // The longest products of this setup and of the first conversion (x R mod N's or
        // R^2 mod N's reciprocal) have length 4 P.
        let _longest = super::product::reserve(4 * p);
        let n = modulus.as_limbs().to_vec();
        let mut n_pad = n.clone();
        n_pad.resize(p, 0);
        // N' = -N^-1 mod 2^l.
        let mut np = crate::inverse::inverse_mod_pow2(&n, p);
        let mut neg = vec![0; p];
        limb::sub_assign(&mut neg, &np);
        np = neg;

        let tables = super::product::tables(p);
        let mut params = Self {
            n_pad,
            s,
            p,
            tables,
            crt: Crt::new(),
            n_cyc: vec![0; 3 * p],
            np_cyc: vec![0; 3 * p],
            np_nega: vec![0; 3 * p],
            r2: OnceLock::new(),
            converted: OnceLock::new(),
            r_mod_n: OnceLock::new(),
        };
        let (mut n_cyc, mut np_cyc, mut np_nega) = (vec![0; 3 * p], vec![0; 3 * p], vec![0; 3 * p]);
        params.run(
            &mut n_cyc,
            None,
            Left::Limbs(&params.n_pad),
            None,
            Right::Keep,
        );
        params.spectra(&np, &mut np_cyc, &mut np_nega);
        (params.n_cyc, params.np_cyc, params.np_nega) = (n_cyc, np_cyc, np_nega);
        Some(params)
    }

    /// N as `s` limbs.
    #[must_use]
    pub fn modulus(&self) -> &[Limb] {
        &self.n_pad[..self.s]
    }

    /// N as a big integer.
    fn n_big(&self) -> num_bigint::BigUint {
        bigarith::from_limbs(self.modulus())
    }

    /// R^2 mod N, prepared (built on first use).
    fn r2(&self) -> &NttRedcElem {
        self.r2.get_or_init(|| {
            let r2 = bigarith::pow2_rem(128 * self.p as u64, &self.n_big()).to_u64_digits();
            let mut r2 = self.wrap(&r2);
            self.prepare_elem(&mut r2);
            r2
        })
    }

    /// Transform length P.
    #[must_use]
    pub fn transform_len(&self) -> usize {
        self.p
    }

    /// Montgomery product `x y R^-1 mod N` (R = 2^l) as `s` limbs, fully reduced.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `x` or `y` if it is not below N.
    pub fn mont_mul(&self, x: &[Limb], y: &[Limb]) -> Result<Vec<Limb>, MontError> {
        Ok(self.mont_mul_traced(x, y)?.0)
    }

    /// [`Self::mont_mul`] with its intermediate values ([`NttRedcTrace`]).
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `x` or `y` if it is not below N.
    pub fn mont_mul_traced(
        &self,
        x: &[Limb],
        y: &[Limb],
    ) -> Result<(Vec<Limb>, NttRedcTrace), MontError> {
        let x = self.wrap(&self.operand(x, "x")?);
        let y = self.wrap(&self.operand(y, "y")?);
        let mut sc = self.scratch();
        let mut out = vec![0; self.p];
        let mut trace = NttRedcTrace::default();
        self.mont_core(&x, Some(&y), &mut out, &mut sc, Some(&mut trace));
        out.truncate(self.s);
        Ok((out, trace))
    }

    /// `base^exp mod N` by sliding windows over this kernel. Variable time.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `base` if `base >= N`.
    pub fn pow_vartime(&self, base: &[Limb], exp: &[Limb]) -> Result<Vec<Limb>, MontError> {
        let base = self.operand(base, "base")?;
        Ok(crate::pow::window::pow_vartime_with(self, &base, exp))
    }

    /// Checks an operand `x < N` and returns it as exactly `s` limbs.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `which` if `x >= N`.
    pub fn operand(&self, x: &[Limb], which: &'static str) -> Result<Vec<Limb>, MontError> {
        limb::operand(x, self.modulus(), which)
    }

    /// l = 64 P: the Montgomery constant is R = 2^l.
    #[must_use]
    pub fn l_bits(&self) -> u64 {
        64 * self.p as u64
    }

    /// One (ring, prime) slice: `out` = the transform of `left`, then `right` applied.
    fn slice(&self, j: usize, nega: bool, left: Left<'_>, right: Right<'_>, out: &mut [u64]) {
        let t = &self.tables[j];
        let pr = &t.prime;
        match left {
            Left::Limbs(x) => {
                debug_assert_eq!(x.len(), out.len(), "ntt_redc: operands are P limbs");
                for (d, &v) in out.iter_mut().zip(x) {
                    *d = pr.reduce_lazy(v); // [0, 2q), within the forward's [0, 4q)
                }
                forward(out, t, nega);
            }
            Left::Spectrum(sp) => out.copy_from_slice(sp),
        }
        match right {
            Right::Keep => return,
            Right::Square => pointwise(t, out, None),
            Right::By(b) => pointwise(t, out, Some(b)),
        }
        // The products' factor (2^-64, or 1 on AVX2) is undone by their inverse transform.
        inverse_products(out, t, nega);
    }

    /// Runs the slices of the cyclic half into `cyc` and, with `nega`, of the nega-cyclic
    /// half (3 P residues each). `left_n` / `right_n` default to `left` / `right` for Limbs
    /// and Square; spectra are per ring.
    fn run(
        &self,
        cyc: &mut [u64],
        nega: Option<&mut [u64]>,
        left: Left<'_>,
        left_n: Option<Left<'_>>,
        right: Right<'_>,
    ) {
        self.run2(cyc, nega, (left, left_n.unwrap_or(left)), (right, right));
    }

    /// As [`Self::run`] with each ring's factors given.
    fn run2(
        &self,
        cyc: &mut [u64],
        nega: Option<&mut [u64]>,
        (lc, ln): (Left<'_>, Left<'_>),
        (rc, rn): (Right<'_>, Right<'_>),
    ) {
        let p = self.p;
        let mut jobs: Vec<(usize, bool, &mut [u64])> = cyc
            .chunks_exact_mut(p)
            .enumerate()
            .map(|(j, c)| (j, false, c))
            .collect();
        if let Some(nega) = nega {
            jobs.extend(
                nega.chunks_exact_mut(p)
                    .enumerate()
                    .map(|(j, c)| (j, true, c)),
            );
        }
        let work = |(j, ng, out): (usize, bool, &mut [u64])| {
            let (l, r) = if ng { (ln, rn) } else { (lc, rc) };
            self.slice(j, ng, l.part(j, p), r.part(j, p), out);
        };
        if p >= PARALLEL_LEN {
            jobs.into_par_iter().for_each(work);
        } else {
            jobs.into_iter().for_each(work);
        }
    }

    /// Keeps the cyclic and nega-cyclic transforms of `b` in it.
    fn prepare_elem(&self, b: &mut NttRedcElem) {
        if b.cyc.is_empty() {
            let (mut c, mut n) = (vec![0; 3 * self.p], vec![0; 3 * self.p]);
            self.spectra(&b.limbs, &mut c, &mut n);
            (b.cyc, b.nega) = (c, n);
        }
    }

    /// The cyclic and nega-cyclic transforms of `x` (P limbs).
    fn spectra(&self, x: &[Limb], c: &mut [u64], n: &mut [u64]) {
        self.run(c, Some(n), Left::Limbs(x), None, Right::Keep);
    }

    /// From the inverse-transformed halves of a product T < 2^(2l) - 1 (buffers `c`, `n`,
    /// overwritten), its low and high halves: `lo` = T mod 2^l, `hi` = T div 2^l.
    fn read_full(&self, c: &mut [u64], n: &mut [u64], lo: &mut [Limb], hi: &mut [Limb]) {
        // hi = c = T mod 2^l - 1 in [0, 2^l - 1); lo = d = T mod 2^l + 1 in [0, 2^l] (top flag).
        let top = if self.p >= PARALLEL_LEN {
            rayon::join(
                || self.crt.collect_cyc(c, hi),
                || self.crt.collect_nega(n, lo),
            )
            .1
        } else {
            self.crt.collect_cyc(c, hi);
            self.crt.collect_nega(n, lo)
        };
        // d mod 2^l - 1: 2^l is 1; 2^l - 1 (all ones) is 0.
        let d_is_ones = !top && lo.iter().all(|&w| w == u64::MAX);
        // k = (c - d) mod 2^l - 1, into hi.
        let borrow = if top {
            sub_small(hi, 1)
        } else if d_is_ones {
            false
        } else {
            limb::sub_assign(hi, lo) == 1
        };
        if borrow {
            // The limbs hold c - d + 2^l; c - d + 2^l - 1 >= 0 needs one more unit off.
            sub_small(hi, 1);
        }
        // k / 2 mod 2^l - 1: an odd k becomes (k + 2^l - 1) / 2 = (k >> 1) + 2^(l - 1).
        limb::half_mod_mersenne(hi);
        // T = d + (2^l + 1) k: lo = (d + k) mod 2^l, hi = k + carry.
        let carry = limb::add_assign(lo, hi) == 1 || top;
        if carry {
            add_small(hi, 1);
        }
    }

    /// The kernel: `out` (`p` limbs) = x y R^-1 mod N, fully reduced; `y = None` squares.
    fn mont_core(
        &self,
        x: &NttRedcElem,
        y: Option<&NttRedcElem>,
        out: &mut [Limb],
        sc: &mut NttRedcScratch,
        mut trace: Option<&mut NttRedcTrace>,
    ) {
        // T = x y, both halves; operands not prepared are transformed here.
        if x.cyc.is_empty() {
            self.spectra(&x.limbs, &mut sc.xc, &mut sc.xn);
        }
        let (xc, xn): (&[u64], &[u64]) = if x.cyc.is_empty() {
            (&sc.xc, &sc.xn)
        } else {
            (&x.cyc, &x.nega)
        };
        let fresh_y;
        let right = match y {
            None => (Right::Square, Right::Square),
            Some(y) if !y.cyc.is_empty() => (Right::By(&y.cyc), Right::By(&y.nega)),
            Some(y) => {
                let mut y = y.clone();
                self.prepare_elem(&mut y);
                fresh_y = y;
                (Right::By(&fresh_y.cyc), Right::By(&fresh_y.nega))
            }
        };
        self.run2(
            &mut sc.c,
            Some(&mut sc.n),
            (Left::Spectrum(xc), Left::Spectrum(xn)),
            right,
        );
        if let Some(tr) = trace.as_deref_mut() {
            tr.t_cyc_residues = canonical(&sc.c, self.p);
            tr.t_nega_residues = canonical(&sc.n, self.p);
        }
        self.read_full(&mut sc.c, &mut sc.n, &mut sc.lo, &mut sc.hi);
        if let Some(tr) = trace.as_deref_mut() {
            (tr.t_lo, tr.t_hi) = (sc.lo.clone(), sc.hi.clone());
        }
        self.reduce(out, sc, trace);
    }

    /// REDC of T = `sc.hi` 2^l + `sc.lo` (`hi` < N, so T < N 2^l): `out` = T R^-1 mod N.
    fn reduce(&self, out: &mut [Limb], sc: &mut NttRedcScratch, trace: Option<&mut NttRedcTrace>) {
        let NttRedcScratch {
            c, n, lo, hi, m, u, ..
        } = sc;
        // m = T_lo N' mod 2^l (the low half of a full product).
        self.run2(
            c,
            Some(n),
            (Left::Limbs(lo), Left::Limbs(lo)),
            (Right::By(&self.np_cyc), Right::By(&self.np_nega)),
        );
        self.read_full(c, n, m, u);
        // U = m N mod 2^l - 1.
        self.run(c, None, Left::Limbs(m), None, Right::By(&self.n_cyc));
        self.crt.collect_cyc(c, u);
        let u_trace = trace.is_some().then(|| u.clone());
        // H = (U - L) mod 2^l - 1 with L = m N mod 2^l = -T_lo mod 2^l; t = T_hi + H + [T_lo != 0].
        let lo_nonzero = lo.iter().any(|&w| w != 0);
        // With T_lo != 0: U - (2^l - T_lo) = U + T_lo - 1 (mod 2^l - 1, where 2^l = 1), and a
        // carry out of U + T_lo is that 2^l, which already pays the - 1.
        if lo_nonzero && limb::add_assign(u, lo) == 0 {
            sub_small(u, 1); // U + T_lo >= 1
        }
        // Both branches leave u = H in [0, 2^l - 2]: H < N <= 2^l - 1 is its residue itself.
        debug_assert!(u.iter().any(|&w| w != u64::MAX), "ntt_redc: H = 2^l - 1");
        out.copy_from_slice(hi);
        let c1 = limb::add_assign(out, u) == 1;
        let c2 = lo_nonzero && add_small(out, 1);
        if let Some(tr) = trace {
            (tr.m, tr.u, tr.h) = (m.clone(), u_trace.unwrap_or_default(), u.clone());
            tr.t = (out.to_vec(), c1 || c2);
        }
        // t < 2N: one subtraction.
        if c1 || c2 || limb::cmp(out, &self.n_pad).is_ge() {
            let borrow = limb::sub_assign(out, &self.n_pad);
            debug_assert_eq!(borrow == 1, c1 || c2, "ntt_redc: t >= 2N");
        }
        debug_assert!(limb::cmp(out, &self.n_pad).is_lt(), "ntt_redc: not reduced");
    }
}

impl MontKernel for NttRedcParams {
    type Elem = NttRedcElem;
    type Scratch = NttRedcScratch;

    fn scratch(&self) -> NttRedcScratch {
        let r = || vec![0u64; 3 * self.p];
        NttRedcScratch {
            c: r(),
            n: r(),
            xc: r(),
            xn: r(),
            lo: vec![0; self.p],
            hi: vec![0; self.p],
            m: vec![0; self.p],
            u: vec![0; self.p],
        }
    }

    fn one(&self) -> NttRedcElem {
        let r = self
            .r_mod_n
            .get_or_init(|| bigarith::pow2_rem(64 * self.p as u64, &self.n_big()).to_u64_digits());
        self.wrap(r)
    }

    fn to_mont(&self, x: &[Limb], sc: &mut NttRedcScratch) -> NttRedcElem {
        if self.r2.get().is_none() && self.converted.set(()).is_ok() {
            // The first conversion: x R mod N by one division, as dear as building R^2 mod N.
            let xr = bigarith::from_limbs(x) << (64 * self.p);
            return self.wrap(&bigarith::div_rem(&xr, &self.n_big()).1.to_u64_digits());
        }
        let x = self.wrap(x);
        let mut out = x.clone();
        self.mont_core(&x, Some(self.r2()), &mut out.limbs, sc, None);
        out
    }

    fn from_mont(&self, a: &NttRedcElem, sc: &mut NttRedcScratch) -> Vec<Limb> {
        // T = a: T_lo = a, T_hi = 0.
        sc.lo.copy_from_slice(&a.limbs);
        sc.hi.fill(0);
        let mut out = vec![0; self.p];
        self.reduce(&mut out, sc, None);
        out.truncate(self.s);
        out
    }

    fn mul(
        &self,
        a: &NttRedcElem,
        b: &NttRedcElem,
        out: &mut NttRedcElem,
        sc: &mut NttRedcScratch,
    ) {
        out.limbs.resize(self.p, 0);
        out.cyc.clear();
        out.nega.clear();
        self.mont_core(a, Some(b), &mut out.limbs, sc, None);
    }

    fn sqr(&self, a: &NttRedcElem, out: &mut NttRedcElem, sc: &mut NttRedcScratch) {
        out.limbs.resize(self.p, 0);
        out.cyc.clear();
        out.nega.clear();
        self.mont_core(a, None, &mut out.limbs, sc, None);
    }

    /// Keeps the cyclic and nega-cyclic transforms of `b` (2 fewer transforms per product).
    fn prepare(&self, b: &mut NttRedcElem, _sc: &mut NttRedcScratch) {
        self.prepare_elem(b);
    }

    fn limbs(&self) -> usize {
        self.s
    }

    fn wrap(&self, x: &[Limb]) -> NttRedcElem {
        debug_assert!(x.len() <= self.p, "ntt_redc: an element is at most P limbs");
        let mut limbs = x.to_vec();
        limbs.resize(self.p, 0);
        NttRedcElem {
            limbs,
            cyc: Vec::new(),
            nega: Vec::new(),
        }
    }

    fn unwrap(&self, a: &NttRedcElem) -> Vec<Limb> {
        a.limbs[..self.s].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pow::window;
    use num_bigint::BigUint;

    fn big(l: &[u64]) -> BigUint {
        bigarith::from_limbs(l)
    }

    /// Montgomery products, squarings, conversions and exponentiations against num-bigint.
    fn check(n: &[u64], xs: &[Vec<u64>]) {
        let m = OddModulus::new(n).unwrap();
        let k = NttRedcParams::new(&m).unwrap();
        let nb = big(n);
        let r = BigUint::from(1u8) << k.l_bits();
        // out = a R^-1 mod N, fully reduced: out < N and out R = a (mod N) (no R^-1 needed,
        // whose num-bigint inverse takes seconds at the largest size here).
        let is_mont = |out: &[u64], a: BigUint| {
            let o = big(out);
            o < nb && (o * &r) % &nb == a % &nb
        };
        let mut sc = k.scratch();
        let one = k.one();
        assert_eq!(big(&k.unwrap(&one)), &r % &nb, "R mod N");
        // Operands as exactly s limbs (longer ones are cut: only the moduli's own sizes matter).
        let pad = |v: &Vec<u64>| -> Vec<u64> {
            let mut v = v.clone();
            v.resize(k.s, 0);
            v
        };
        for x in xs {
            let x = pad(x);
            let xb = big(&x);
            let (xw, mut out) = (k.wrap(&x), k.wrap(&x));
            k.sqr(&xw, &mut out, &mut sc);
            assert!(is_mont(&k.unwrap(&out), &xb * &xb), "sqr");
            for y in xs {
                let y = pad(y);
                let mut yw = k.wrap(&y);
                k.mul(&xw, &yw, &mut out, &mut sc);
                assert!(is_mont(&k.unwrap(&out), &xb * big(&y)), "mul");
                k.prepare(&mut yw, &mut sc);
                k.mul(&xw, &yw, &mut out, &mut sc);
                assert!(is_mont(&k.unwrap(&out), &xb * big(&y)), "mul, prepared");
            }
            let xm = k.to_mont(&x, &mut sc);
            assert_eq!(big(&k.unwrap(&xm)), &xb * &r % &nb, "to_mont");
            assert_eq!(k.from_mont(&xm, &mut sc), x, "from_mont");
            // A 17-bit exponent at the parallel sizes (num-bigint's modpow is slow there).
            let e: &[u64] = if n.len() > 2000 {
                &[0x1_0001]
            } else {
                &[0x1_0001, 0xdead_beef_0000_0001]
            };
            assert_eq!(
                big(&window::pow_vartime_with(&k, &x, e)),
                xb.modpow(&big(e), &nb),
                "pow"
            );
        }
        // The first to_mont divided, the later ones (the pow's too) multiplied by R^2 mod N:
        // both were checked.
        assert_eq!(
            k.r2.get().is_some(),
            !xs.is_empty(),
            "R^2 mod N built by the second"
        );
    }

    #[test]
    fn products_and_powers_equal_num_bigint() {
        let mut next = bigarith::tests::rng(0x6464);
        // Sizes: the smallest (1 limb, P = 2), odd limb counts, just above a power of two,
        // P = 1024 and 2048, and P = 4096 (the parallel path, from PARALLEL_LEN).
        for s in [1usize, 2, 3, 5, 8, 9, 33, 1000, 1025, 2049] {
            let mut n: Vec<u64> = (0..s).map(|_| next()).collect();
            n[0] |= 1;
            n[s - 1] |= 1 << 63;
            let mut x: Vec<u64> = (0..s).map(|_| next()).collect();
            x[s - 1] >>= 1;
            let mut nm1 = n.clone();
            nm1[0] -= 1;
            let mut sparse = vec![0u64; s];
            sparse[0] = 1;
            sparse[s - 1] |= 1 << 62;
            let xs = [x, nm1, vec![0], vec![1], sparse];
            check(
                &n,
                &xs[..if s > 2000 {
                    2
                } else if s > 100 {
                    3
                } else {
                    5
                }],
            );
        }
        // Structured moduli: all ones (N = 2^l - 1 for P = s), 2^k + 1, 3, small in a
        // long transform (s = 3 limbs, P = 4).
        for n in [
            vec![u64::MAX; 4],
            vec![1, 0, 0, 1 << 20],
            vec![3],
            vec![0xffff_ffff_ffff_ffc5, 1, 1],
        ] {
            let mut nm1 = n.clone();
            nm1[0] -= 1;
            check(&n, &[nm1, vec![2], vec![0, 1]]);
        }
    }
}
