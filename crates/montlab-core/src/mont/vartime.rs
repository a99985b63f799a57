//! `VarTime`: rows of [`Rows`] for variable-time arithmetic, under the word level's
//! variable-time calls: `pow` ([`crate::pow::VarTimeWord`]), residue products and squarings, and
//! Barrett's products.
//!
//! The wrapped rows do the same word products and passes; [`Rows::variable_time`] is true, so
//! the Karatsuba split ([`crate::mont::karatsuba`]) compares its halves before it subtracts
//! (one pass, not two and a select) and adds its interpolation's carries where they fall, and
//! the sub-quadratic REDC ([`crate::mont::redc_n`]) stops each small carry where it ends, skips
//! the W^h + 1 residue's top-bit correction when both top bits are clear and adds N back by a
//! branch, as GMP's `mpn_toom22_mul`, `MPN_INCR_U` and `mpn_redc_n`; the rows' REDC
//! ([`crate::mont::sqr`]) takes its final subtraction by a comparison and a branch. Results
//! are the same as on the wrapped rows. Timing: branches on values. The constant-time entries
//! (`mont_mul_into`, `mont_sqr_into`, `mont_redc_into`, and so `pow_sec` and `pow_crt`) pass a
//! literal `false` to their dispatch and run on the plain [`crate::mont::sqr::Portable`] or
//! [`crate::mont::adx::Adx`] rows; the taint harness checks the portable ones. A method added
//! to [`Rows`] must be forwarded here, or an override of the ADX rows is lost under `VarTime`.

use crate::limb::Limb;
use crate::mont::sqr::Rows;

/// `R`'s rows, marked variable time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VarTime<R>(pub(crate) R);

impl<R: Rows> Rows for VarTime<R> {
    #[inline(always)]
    fn addmul_1(self, r: &mut [Limb], a: &[Limb], v: Limb) -> Limb {
        self.0.addmul_1(r, a, v)
    }

    #[inline(always)]
    fn variable_time(self) -> bool {
        true
    }

    #[inline(always)]
    fn mul_rows(self, x: &[Limb], y: &[Limb], w: &mut [Limb]) {
        self.0.mul_rows(x, y, w);
    }

    #[inline(always)]
    fn product_straight(self, x: &[Limb], y: &[Limb], w: &mut [Limb]) -> bool {
        self.0.product_straight(x, y, w)
    }

    #[inline(always)]
    fn rows_up(self, r: &mut [Limb], a: &[Limb], v: &[Limb], l0: usize) {
        self.0.rows_up(r, a, v, l0);
    }

    #[inline(always)]
    fn rows_down(self, r: &mut [Limb], a: &[Limb], v: &[Limb], l0: usize) {
        self.0.rows_down(r, a, v, l0);
    }

    #[inline(always)]
    fn low_product(self, r: &mut [Limb], a: &[Limb], v: &[Limb]) {
        self.0.low_product(r, a, v);
    }

    #[inline(always)]
    fn add_n(self, r: &mut [Limb], a: &[Limb], b: &[Limb], cin: Limb) -> Limb {
        self.0.add_n(r, a, b, cin)
    }

    #[inline(always)]
    fn add_assign_n(self, r: &mut [Limb], b: &[Limb], cin: Limb) -> Limb {
        self.0.add_assign_n(r, b, cin)
    }

    #[inline(always)]
    fn sub_n(self, r: &mut [Limb], a: &[Limb], b: &[Limb], bin: Limb) -> Limb {
        self.0.sub_n(r, a, b, bin)
    }

    #[inline(always)]
    fn sub_assign_n(self, r: &mut [Limb], a: &[Limb], bin: Limb) -> Limb {
        self.0.sub_assign_n(r, a, bin)
    }

    #[inline(always)]
    fn square<const S: usize>(self, x: &[Limb], w: &mut [Limb], buf: &mut [Limb]) {
        self.0.square::<S>(x, w, buf);
    }

    #[inline(always)]
    fn redc_rows<const S: usize>(self, n: &[Limb], n0_inv: Limb, w: &mut [Limb]) {
        self.0.redc_rows::<S>(n, n0_inv, w);
    }
}
