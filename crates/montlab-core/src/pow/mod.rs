//! Modular exponentiation built on the Montgomery kernels.
//!
//! The exponentiation loops are written once, against [`MontKernel`]: what a Montgomery
//! multiplier must offer (products and squarings in its own Montgomery domain, conversions in
//! and out). The word-level kernels ([`MontParams`]: `cios` products and `sqr` squarings) and
//! the spectral kernel ([`crate::spectral::SpectralParams`]) both implement it.

pub mod blind;
pub mod crt;
pub mod fixed;
pub mod pair;
pub mod window;

use crate::limb::Limb;
use crate::mont::{cios, sqr};
use crate::params::MontParams;

/// A Montgomery multiplier with a Montgomery constant R of its own choosing.
///
/// Elements are values `a R mod N` in `[0, N)`, possibly carrying precomputed data
/// ([`MontKernel::prepare`]) that speeds up later products with them as the right operand.
pub trait MontKernel: Sync {
    /// An element of the Montgomery domain.
    type Elem: Clone + Send;
    /// Reusable working memory for one thread.
    type Scratch: Send;

    /// Fresh scratch memory.
    fn scratch(&self) -> Self::Scratch;
    /// The Montgomery form of 1 (R mod N).
    fn one(&self) -> Self::Elem;
    /// `x R mod N` for an ordinary `x < N` given as exactly `s` limbs (`s` of the kernel).
    fn to_mont(&self, x: &[Limb], sc: &mut Self::Scratch) -> Self::Elem;
    /// `a R^-1 mod N` as exactly `s` limbs, fully reduced.
    #[allow(
        clippy::wrong_self_convention,
        reason = "the name pairs with to_mont, as in the cios module"
    )]
    fn from_mont(&self, a: &Self::Elem, sc: &mut Self::Scratch) -> Vec<Limb>;
    /// `out = a b R^-1 mod N`. `b` may carry data from [`MontKernel::prepare`].
    fn mul(&self, a: &Self::Elem, b: &Self::Elem, out: &mut Self::Elem, sc: &mut Self::Scratch);
    /// `out = a^2 R^-1 mod N`.
    fn sqr(&self, a: &Self::Elem, out: &mut Self::Elem, sc: &mut Self::Scratch);
    /// Precomputes what makes `b` cheaper as the right operand of later products (for a
    /// spectral kernel, its transforms). The default does nothing.
    fn prepare(&self, _b: &mut Self::Elem, _sc: &mut Self::Scratch) {}
    /// Limb count of the ordinary-domain numbers this kernel takes and returns.
    fn limbs(&self) -> usize;
    /// The element whose value is `x` itself (`x < N`, exactly `s` limbs), no conversion.
    fn wrap(&self, x: &[Limb]) -> Self::Elem;
    /// The value of an element as exactly `s` limbs, no conversion.
    fn unwrap(&self, a: &Self::Elem) -> Vec<Limb>;
}

/// The word-level kernel of variable-time exponentiation: [`MontParams`]' products and
/// squarings with the variable-time shortcuts of the Karatsuba split and `redc_n` on the
/// MULX/ADX rows (`crate::mont::vartime`), the same values. [`crate::FastModulus::pow`] and
/// [`crate::pow::window::pow_vartime`] run on it; the constant-time `pow_sec` runs on
/// [`MontParams`] itself.
#[derive(Clone, Copy, Debug)]
pub struct VarTimeWord<'a>(pub &'a MontParams);

impl MontKernel for VarTimeWord<'_> {
    type Elem = Vec<Limb>;
    type Scratch = WordScratch;

    fn scratch(&self) -> WordScratch {
        self.0.scratch()
    }

    fn one(&self) -> Vec<Limb> {
        self.0.one()
    }

    fn to_mont(&self, x: &[Limb], sc: &mut WordScratch) -> Vec<Limb> {
        self.0.to_mont(x, sc)
    }

    fn from_mont(&self, a: &Vec<Limb>, sc: &mut WordScratch) -> Vec<Limb> {
        self.0.from_mont(a, sc)
    }

    fn mul(&self, a: &Vec<Limb>, b: &Vec<Limb>, out: &mut Vec<Limb>, sc: &mut WordScratch) {
        cios::mont_mul_vartime_into(self.0, a, b, out, &mut sc.t);
    }

    fn sqr(&self, a: &Vec<Limb>, out: &mut Vec<Limb>, sc: &mut WordScratch) {
        sqr::mont_sqr_vartime_into(self.0, a, out, &mut sc.w);
    }

    fn limbs(&self) -> usize {
        self.0.limbs()
    }

    fn wrap(&self, x: &[Limb]) -> Vec<Limb> {
        self.0.wrap(x)
    }

    fn unwrap(&self, a: &Vec<Limb>) -> Vec<Limb> {
        self.0.unwrap(a)
    }
}

/// Scratch of the word-level kernel: one buffer for `cios`, one for `sqr`.
#[derive(Debug)]
pub struct WordScratch {
    t: Vec<Limb>,
    w: Vec<Limb>,
}

/// The word-level kernel: `cios` products, `sqr` squarings, R = 2^(64 s).
impl MontKernel for MontParams {
    type Elem = Vec<Limb>;
    type Scratch = WordScratch;

    fn scratch(&self) -> WordScratch {
        WordScratch {
            t: vec![0; cios::scratch_len(self.s())],
            w: vec![0; sqr::scratch_len(self.s())],
        }
    }

    fn one(&self) -> Vec<Limb> {
        self.r_mod_n().to_vec()
    }

    fn to_mont(&self, x: &[Limb], sc: &mut WordScratch) -> Vec<Limb> {
        let mut out = vec![0; self.s()];
        self.to_mont_into(x, &mut out, &mut sc.t);
        out
    }

    fn from_mont(&self, a: &Vec<Limb>, sc: &mut WordScratch) -> Vec<Limb> {
        let mut out = vec![0; self.s()];
        sqr::mont_redc_into(self, a, &mut out, &mut sc.w);
        out
    }

    fn mul(&self, a: &Vec<Limb>, b: &Vec<Limb>, out: &mut Vec<Limb>, sc: &mut WordScratch) {
        cios::mont_mul_into(self, a, b, out, &mut sc.t);
    }

    fn sqr(&self, a: &Vec<Limb>, out: &mut Vec<Limb>, sc: &mut WordScratch) {
        sqr::mont_sqr_into(self, a, out, &mut sc.w);
    }

    fn limbs(&self) -> usize {
        self.s()
    }

    fn wrap(&self, x: &[Limb]) -> Vec<Limb> {
        x.to_vec()
    }

    fn unwrap(&self, a: &Vec<Limb>) -> Vec<Limb> {
        a.clone()
    }
}
