//! Two exponentiations in lockstep on `amm`'s two-lane product: fixed windows for two
//! exponents ([`pow_sec_pair`]), sliding windows for one exponent ([`pow_pair_vartime`]).
//!
//! Citation: the window of [`crate::pow::fixed`] (Menezes et al., HAC 1996, Algorithm 14.82,
//! the table read by a full masked scan); two independent exponentiations run as one, every
//! product of one paired with the same product of the other, as OpenSSL's
//! `BN_mod_exp_mont_consttime_x2` does on IFMA (`crypto/bn/asm/rsaz-2k-avx512.pl`).
//!
//! Word size / radix: `amm`'s 52-bit digits, R = 2^(52 k) for each modulus; window k =
//! [`SEC_WINDOW_BITS`].
//! Inputs:  two moduli (their [`IfmaParams`], possibly different, possibly of different
//!          lengths), bases `< N_i` of exactly each modulus's `s_i` limbs, and exponents of
//!          any length: both run to the longer one's `64 len` bits, so only the limb counts
//!          (public) shape the run.
//! Output:  `base_i ^ exp_i mod N_i`, fully reduced, `s_i` limbs each.
//!
//! Timing: as [`crate::pow::fixed::pow_sec_with`] on `amm`: the sequence of operations depends
//! only on the limb counts; each lane's table entry is gathered by a full masked scan with its
//! own digit. Products and squarings run on [`amm::AmmPair`], its core chosen once per
//! exponentiation; the squarings as [`amm::ams_pair`] (its dedicated core where the pair runs
//! on 512-bit vectors from 5 of them, the AMM of each number by itself elsewhere). Where the
//! two moduli have different digit counts, or more than [`amm::PAIR_MAX_VECS`] vectors, the
//! two products run one after the other, on the same path for the same lengths. With
//! blinding pairs ([`crate::pow::blind`]) every table entry and each starting accumulator
//! carry a random factor. Sliding windows run only where both numbers share the exponent
//! ([`pow_pair_vartime`], variable time): two exponents' windows would not line up.

use crate::error::MontError;
use crate::limb::Limb;
use crate::mont::amm::{self, IfmaElem, IfmaParams};
use crate::pow::blind::Blind;
use crate::pow::fixed::{window_digit, CtKernel, SEC_WINDOW_BITS};
use crate::pow::{window, MontKernel};
use crate::stop::Stop;

/// `amm` as a kernel whose elements are pairs of numbers mod the same N, both run by every
/// product and squaring ([`amm::AmmPair`]). Its ordinary-domain numbers are the two
/// operands packed, lane 0's `s` limbs first: [`MontKernel::limbs`] is 2 s.
#[derive(Clone, Copy, Debug)]
pub struct PairKernel<'a>(amm::AmmPair<'a>);

impl<'a> PairKernel<'a> {
    /// The kernel for N's parameters.
    #[must_use]
    pub fn new(p: &'a IfmaParams) -> Self {
        Self(amm::AmmPair::new([p, p]))
    }

    /// N's parameters (both lanes').
    fn p(&self) -> &'a IfmaParams {
        self.0.params()[0]
    }

    /// `f` on lane 0's and lane 1's halves of the packed `x` (2 s limbs).
    fn lanes<T>(&self, x: &[Limb], f: impl Fn(&[Limb]) -> T) -> [T; 2] {
        let (x0, x1) = x.split_at(self.p().limbs());
        [f(x0), f(x1)]
    }
}

impl MontKernel for PairKernel<'_> {
    type Elem = [IfmaElem; 2];
    type Scratch = ();

    fn scratch(&self) {}

    fn one(&self) -> [IfmaElem; 2] {
        let one = self.p().one();
        [one.clone(), one]
    }

    fn to_mont(&self, x: &[Limb], _sc: &mut ()) -> [IfmaElem; 2] {
        self.lanes(x, |x| self.p().to_mont(x, &mut ()))
    }

    fn from_mont(&self, a: &[IfmaElem; 2], _sc: &mut ()) -> Vec<Limb> {
        [
            self.p().from_mont(&a[0], &mut ()),
            self.p().from_mont(&a[1], &mut ()),
        ]
        .concat()
    }

    fn mul(&self, a: &[IfmaElem; 2], b: &[IfmaElem; 2], out: &mut [IfmaElem; 2], _sc: &mut ()) {
        let [o0, o1] = out;
        self.0.mul([&a[0], &a[1]], [&b[0], &b[1]], [o0, o1]);
    }

    fn sqr(&self, a: &[IfmaElem; 2], out: &mut [IfmaElem; 2], _sc: &mut ()) {
        let [o0, o1] = out;
        self.0.sqr([&a[0], &a[1]], [o0, o1]);
    }

    fn limbs(&self) -> usize {
        2 * self.p().limbs()
    }

    fn wrap(&self, x: &[Limb]) -> [IfmaElem; 2] {
        self.lanes(x, |x| self.p().wrap(x))
    }

    fn unwrap(&self, a: &[IfmaElem; 2]) -> Vec<Limb> {
        [self.p().unwrap(&a[0]), self.p().unwrap(&a[1])].concat()
    }
}

/// `[base_i ^ exp mod N]` for i = 0, 1 by one left-to-right sliding window
/// ([`window::pow_vartime_until`]) on [`PairKernel`]: the same sequence of products for both,
/// each pair of them in one two-lane call. Variable time, as `pow`. The bases are exactly `s`
/// limbs and below N (checked by the caller).
///
/// # Errors
/// [`MontError::Interrupted`] once `stop` is requested.
pub fn pow_pair_vartime(
    p: &IfmaParams,
    base: [&[Limb]; 2],
    exp: &[Limb],
    stop: &Stop,
) -> Result<[Vec<Limb>; 2], MontError> {
    let packed = [base[0], base[1]].concat();
    let mut out = window::pow_vartime_until(&PairKernel::new(p), &packed, exp, stop)?;
    let hi = out.split_off(p.limbs());
    Ok([out, hi])
}

/// `[base_i ^ exp_i mod N_i]` for i = 0, 1 in constant time in the bases and the exponents'
/// bits (see the module contract), blinded by `blind`'s pairs when given (each for its
/// modulus and the longer exponent's limb count; see [`crate::pow::blind`]). The bases are
/// not range-checked here (a check would branch on a secret modulus): callers pass values
/// below N_i, as `FastModulus::operand` or `pow::crt`'s reduction give them.
///
/// # Errors
/// [`MontError::Interrupted`] once `stop` is requested (checked once per table entry and
/// once per window).
///
/// # Panics
/// If a blinding pair is for another exponent length.
pub fn pow_sec_pair(
    p: [&IfmaParams; 2],
    base: [&[Limb]; 2],
    exp: [&[Limb]; 2],
    blind: Option<[&Blind; 2]>,
    stop: &Stop,
) -> Result<[Vec<Limb>; 2], MontError> {
    let k = SEC_WINDOW_BITS as usize;
    let pair = amm::AmmPair::new(p);
    let mul = |a: [&IfmaElem; 2], b: [&IfmaElem; 2], out: &mut [IfmaElem; 2]| {
        let [o0, o1] = out;
        pair.mul(a, b, [o0, o1]);
    };

    let len = exp[0].len().max(exp[1].len());
    if let Some(b) = blind {
        assert!(
            b.iter().all(|b| b.exp_limbs() == len),
            "pair: blinding pairs for another length"
        );
    }
    // tables[i][d] = base_i^d sigma_i R mod N_i for every digit d in [0, 2^k) (sigma_i = 1
    // unblinded; see `pow::blind`).
    let first = [0, 1].map(|i| match blind {
        Some(b) => p[i].to_mont(b[i].pair().0, &mut ()),
        None => p[i].one(),
    });
    let mut tables: [Vec<IfmaElem>; 2] = [0, 1].map(|i| {
        let mut t = Vec::with_capacity(1 << k);
        t.push(first[i].clone());
        t
    });
    let b = [0, 1].map(|i| p[i].wrap(base[i]));
    let r2 = [p[0].r2(), p[1].r2()];
    let mut b_m = b.clone();
    mul([&b[0], &b[1]], [&r2[0], &r2[1]], &mut b_m);
    let mut next = b_m.clone();
    for d in 1..(1usize << k) {
        if d > 1 || blind.is_some() {
            // base^d sigma R = (base^(d-1) sigma R) (base R) R^-1.
            stop.check()?;
            let (t0, t1) = (&tables[0], &tables[1]);
            mul([&t0[d - 1], &t1[d - 1]], [&b_m[0], &b_m[1]], &mut next);
        }
        for (t, n) in tables.iter_mut().zip(&next) {
            t.push(n.clone());
        }
    }

    // Windows from the top: 64 len bits of the longer exponent, padded to a multiple of k.
    let windows = (64 * len).div_ceil(k);
    let mut acc = first;
    let mut tmp = acc.clone();
    let mut sel = acc.clone();
    for win in (0..windows).rev() {
        stop.check()?;
        for _ in 0..k {
            let [t0, t1] = &mut tmp;
            pair.sqr([&acc[0], &acc[1]], [t0, t1]);
            core::mem::swap(&mut acc, &mut tmp);
        }
        for i in 0..2 {
            p[i].gather(&tables[i], window_digit(exp[i], win * k, k), &mut sel[i]);
        }
        mul([&acc[0], &acc[1]], [&sel[0], &sel[1]], &mut tmp);
        core::mem::swap(&mut acc, &mut tmp);
    }
    if let Some(b) = blind {
        let tau = [0, 1].map(|i| p[i].to_mont(b[i].pair().1, &mut ()));
        mul([&acc[0], &acc[1]], [&tau[0], &tau[1]], &mut tmp);
        core::mem::swap(&mut acc, &mut tmp);
    }
    Ok([0, 1].map(|i| p[i].from_mont(&acc[i], &mut ())))
}
