//! `sqr`: Montgomery squaring, a product-scanning square followed by word-by-word REDC.
//!
//! Citation: C. K. Koc, T. Acar, B. S. Kaliski, "Analyzing and comparing Montgomery
//! multiplication algorithms", IEEE Micro 16(3), 1996, Sec. "The SOS method" (square first,
//! then reduce), with the squaring shortcut of Menezes et al., Handbook of Applied
//! Cryptography, Alg. 14.16 (each cross product x_i x_j, i < j, computed once and doubled), and
//! GMP's `mpn_redc_1` carry handling (the carry of reduction row i is parked in the limb that
//! row i has just zeroed and added back at the end).
//!
//! Word size / radix: w = 64, W = 2^64; s limbs; R = W^s, the same R as [`crate::mont::cios`],
//! so squarings and CIOS products mix freely in one Montgomery domain.
//!
//! Inputs:  odd N > 1 (through [`MontParams`]); `0 <= x < N`, exactly `s` limbs.
//! Output:  `x^2 * R^-1 mod N`, fully reduced to `0 <= out < N` (one final subtraction).
//! Scratch: `w` of [`scratch_len`]`(s)` limbs (the square's 2 s, then the ADX rows' carries,
//! the split square's or the sub-quadratic REDC's); no allocation.
//!
//! Cost: s(s-1)/2 + s word products for the square and s^2 for the reduction, against 2 s^2
//! for a CIOS product of x with itself. Every row is one `r += v a` pass: the portable loop, or
//! from [`adx::MIN_LIMBS`] limbs on CPUs with BMI2/ADX the assembly row of [`adx`]. Timing: no
//! branch on operand values (the final subtraction is a mask select), but for
//! `mont_sqr_vartime_into` (below). From [`karatsuba::SQR_MIN_LIMBS`] the square splits
//! ([`karatsuba::sqr`]), and from [`redc_n::CT_MIN_LIMBS`] limbs the reduction is sub-quadratic
//! ([`redc_n`], the same output). `mont_sqr_vartime_into`, for variable-time callers, runs
//! those two on `VarTime` rows (`mont::vartime`), where the square splits from
//! [`karatsuba::VT_SQR_MIN_LIMBS`] and the reduction is sub-quadratic from
//! [`redc_n::MIN_LIMBS`]. Left out: lazy reduction.

use crate::limb::{self, adc, mac, Limb};
use crate::mont::vartime::VarTime;
use crate::mont::{adx, karatsuba, redc_n};
use crate::params::MontParams;

/// Length of the scratch buffer [`mont_sqr_into`] needs for `s`-limb operands.
#[must_use]
#[inline]
pub const fn scratch_len(s: usize) -> usize {
    2 * s + reduce_scratch_len(s, karatsuba::sqr_scratch_len(s))
}

/// The larger of `other` and the scratch of the REDC for `s` limbs ([`redc_n::scratch_len`]
/// where it applies, none for the rows).
#[must_use]
#[inline]
pub const fn reduce_scratch_len(s: usize, other: usize) -> usize {
    if redc_n::applies(s) {
        redc_n::max(redc_n::scratch_len(s), other)
    } else {
        other
    }
}

// `sqr_core` reduces by `reduce` only where the square splits: `redc_n` must not apply below.
const _: () = assert!(
    redc_n::MIN_LIMBS >= karatsuba::VT_SQR_MIN_LIMBS
        && redc_n::CT_MIN_LIMBS >= karatsuba::SQR_MIN_LIMBS
);

/// REDC of `w < R N` (2 s limbs, clobbered) into `out`, fully reduced: [`redc_n::redc`] where
/// it applies (`sc` then has [`redc_n::scratch_len`]`(s)` limbs), else the rows ([`redc`]).
#[inline]
pub(crate) fn reduce(
    params: &MontParams,
    w: &mut [Limb],
    out: &mut [Limb],
    sc: &mut [Limb],
    rows: impl Rows,
) {
    let (n, s) = (params.modulus(), params.s());
    if redc_n::applies_on(s, rows) {
        redc_n::redc(n, params.redc_n(), w, out, sc, rows);
    } else {
        redc::<0>(n, params.n0_inv(), w, out, rows);
    }
}

/// `out = x^2 * R^-1 mod N`, fully reduced.
///
/// `x`, `out` are exactly `s` limbs, `w` is [`scratch_len`]`(s)` limbs (contents on entry do
/// not matter). `x < N` is checked by `debug_assert!` only.
///
/// # Panics
/// If a slice has the wrong length (a programming error, never a value error).
pub fn mont_sqr_into(params: &MontParams, x: &[Limb], out: &mut [Limb], w: &mut [Limb]) {
    sqr_dispatch(params, x, out, w, false);
}

/// [`mont_sqr_into`] for variable-time callers (`pow`, residues): the same result; on the
/// MULX/ADX rows the split square and `redc_n` run on `VarTime` rows, which branch on values.
///
/// # Panics
/// As [`mont_sqr_into`].
pub(crate) fn mont_sqr_vartime_into(
    params: &MontParams,
    x: &[Limb],
    out: &mut [Limb],
    w: &mut [Limb],
) {
    sqr_dispatch(params, x, out, w, true);
}

/// [`mont_sqr_into`], on `VarTime` rows where `vartime` is set and the CPU has MULX/ADX.
#[inline]
fn sqr_dispatch(params: &MontParams, x: &[Limb], out: &mut [Limb], w: &mut [Limb], vartime: bool) {
    let n = params.modulus();
    let s = params.s();
    assert!(
        x.len() == s && out.len() == s && w.len() == scratch_len(s),
        "sqr: operand, output and scratch lengths must be s, s and scratch_len(s)",
    );
    debug_assert!(limb::cmp(x, n).is_lt(), "sqr: x must be < N");
    macro_rules! fixed {
        ($($k:literal)*) => {
            match s {
                $($k => sqr_core::<$k>(params, x, out, w, Portable),)*
                _ => sqr_core::<0>(params, x, out, w, Portable),
            }
        };
    }
    match adx::Adx::for_limbs(s) {
        Some(adx) if vartime => sqr_core::<0>(params, x, out, w, VarTime(adx)),
        Some(adx) => sqr_core::<0>(params, x, out, w, adx),
        None => fixed!(1 2 3 4 5 6 7 8 16 32 64),
    }
    debug_assert!(limb::cmp(out, n).is_lt(), "sqr: output not fully reduced");
}

/// `out = a R^-1 mod N` for `a < N` of `s` limbs: the REDC of [`mont_sqr_into`] alone, out of
/// the Montgomery domain at half a product's work (a CIOS product with 1 costs a whole one).
/// `w` is [`scratch_len`]`(s)` limbs; same timing and rows as [`mont_sqr_into`].
///
/// # Panics
/// If a slice has the wrong length (a programming error, never a value error).
pub fn mont_redc_into(params: &MontParams, a: &[Limb], out: &mut [Limb], w: &mut [Limb]) {
    let (n, s) = (params.modulus(), params.s());
    assert!(
        a.len() == s && out.len() == s && w.len() == scratch_len(s),
        "redc: operand, output and scratch lengths must be s, s and scratch_len(s)",
    );
    debug_assert!(limb::cmp(a, n).is_lt(), "redc: a must be < N");
    let (w, sc) = w.split_at_mut(2 * s);
    w[..s].copy_from_slice(a);
    w[s..].fill(0);
    match adx::Adx::for_limbs(s) {
        Some(adx) => reduce(params, w, out, sc, adx),
        None => reduce(params, w, out, sc, Portable),
    }
}

/// `out = t R^-1 mod N` for `t < R N` (2 s limbs, clobbered) by the REDC rows alone (MULX/ADX
/// where the CPU has them), even where the squarings reduce by [`redc_n`]: the baseline of
/// [`redc_n::redc_into`] in `examples/word_timings.rs`.
///
/// # Panics
/// If `t` is not 2 s limbs or `out` not s.
pub fn rows_redc_into(params: &MontParams, t: &mut [Limb], out: &mut [Limb]) {
    rows_redc_on(params, t, out, false);
}

/// [`rows_redc_into`] on the variable-time rows of `mont_sqr_vartime_into` (`VarTime` on
/// MULX/ADX, the plain rows elsewhere): the baseline of [`redc_n::redc_vartime_into`] in
/// `examples/word_timings.rs`. Branches on values.
///
/// # Panics
/// As [`rows_redc_into`].
pub fn rows_redc_vartime_into(params: &MontParams, t: &mut [Limb], out: &mut [Limb]) {
    rows_redc_on(params, t, out, true);
}

fn rows_redc_on(params: &MontParams, t: &mut [Limb], out: &mut [Limb], vartime: bool) {
    let (n, s) = (params.modulus(), params.s());
    assert!(t.len() == 2 * s && out.len() == s, "redc: lengths 2 s, s");
    match adx::Adx::for_limbs(s) {
        Some(adx) if vartime => redc::<0>(n, params.n0_inv(), t, out, VarTime(adx)),
        Some(adx) => redc::<0>(n, params.n0_inv(), t, out, adx),
        None => redc::<0>(n, params.n0_inv(), t, out, Portable),
    }
}

/// The portable row: `r += v a` (equal lengths), returning the carry limb.
#[inline(always)]
pub(crate) fn addmul_1(r: &mut [Limb], a: &[Limb], v: Limb) -> Limb {
    let mut c = 0;
    for (ri, &ai) in r.iter_mut().zip(a) {
        (*ri, c) = mac(v, ai, *ri, c);
    }
    c
}

/// The rows under the squaring, the REDC, `karatsuba` and `barrett`, and the add and subtract
/// passes of `karatsuba`: [`Portable`] Rust, or the MULX/ADX assembly ([`adx::Adx`]), which
/// runs each loop of rows as one assembly loop.
pub(crate) trait Rows: Copy {
    /// `r += v a` (equal lengths), returning the carry limb.
    fn addmul_1(self, r: &mut [Limb], a: &[Limb], v: Limb) -> Limb;

    /// False: the passes over these rows take no branch or index on values. True only for
    /// `VarTime` rows (the variable-time `pow`, residues, Barrett's products): `karatsuba` then
    /// compares before it subtracts, and it and `redc_n` stop their small carries where they
    /// end and take other branches on values, as GMP does.
    #[inline(always)]
    fn variable_time(self) -> bool {
        false
    }

    /// `vt` on variable-time rows, `ct` on the others: a size threshold that depends on them.
    #[inline(always)]
    fn threshold(self, vt: usize, ct: usize) -> usize {
        if self.variable_time() {
            vt
        } else {
            ct
        }
    }

    /// A schoolbook product: `w[i..i + s] += x_i y` with the carry at `w[i + s]`, for i in
    /// 0..x.len(); `w` (`x.len() + s` limbs, s = `y.len()`) is 0 below limb s on entry.
    #[inline(always)]
    fn mul_rows(self, x: &[Limb], y: &[Limb], w: &mut [Limb]) {
        let s = y.len();
        for (i, &xi) in x.iter().enumerate() {
            w[i + s] = self.addmul_1(&mut w[i..i + s], y, xi);
        }
    }

    /// `w = x y` (`x.len() + y.len()` limbs, overwritten): [`Rows::product_straight`] where
    /// the rows have it for these lengths, else [`Rows::mul_rows`] on a zeroed low part.
    #[inline(always)]
    fn product(self, x: &[Limb], y: &[Limb], w: &mut [Limb]) {
        if !self.product_straight(x, y, w) {
            w[..y.len()].fill(0);
            self.mul_rows(x, y, w);
        }
    }

    /// `w = x y` written out whole for the lengths the rows have it for (the ADX rows: 16 x 16
    /// limbs, the first row storing), returning false (and leaving `w`) for others.
    #[inline(always)]
    fn product_straight(self, _x: &[Limb], _y: &[Limb], _w: &mut [Limb]) -> bool {
        false
    }

    /// Rows growing by a limb each (the high triangle of a product): for t in 0..v.len(),
    /// `r[..l0 + t] += v_t a[a.len() - l0 - t..]`, the carry stored at `r[l0 + t]` (no
    /// earlier row has written it). Needs `r.len() >= l0 + v.len()`, `a.len() + 1 >= l0 +
    /// v.len()` and `l0 >= 1`.
    #[inline(always)]
    fn rows_up(self, r: &mut [Limb], a: &[Limb], v: &[Limb], l0: usize) {
        let m = a.len();
        for (t, &vt) in v.iter().enumerate() {
            let l = l0 + t;
            r[l] = self.addmul_1(&mut r[..l], &a[m - l..], vt);
        }
    }

    /// Rows shrinking by a limb each (the low triangle of a product, truncated): for t in
    /// 0..v.len(), `r[t..l0] += v_t a[..l0 - t]`, the carries dropped. Needs `l0 >= v.len()`,
    /// `r.len() >= l0` and `a.len() >= l0`.
    #[inline(always)]
    fn rows_down(self, r: &mut [Limb], a: &[Limb], v: &[Limb], l0: usize) {
        for (t, &vt) in v.iter().enumerate() {
            self.addmul_1(&mut r[t..l0], &a[..l0 - t], vt);
        }
    }

    /// `r = a v mod W^n` for n = `r.len()` = `a.len()` = `v.len()`, `r` zeroed on entry: the
    /// short product's triangle, [`Rows::rows_down`] of n rows.
    #[inline(always)]
    fn low_product(self, r: &mut [Limb], a: &[Limb], v: &[Limb]) {
        self.rows_down(r, a, v, r.len());
    }

    /// `r = a + b + cin` (equal lengths), returning the carry.
    #[inline(always)]
    fn add_n(self, r: &mut [Limb], a: &[Limb], b: &[Limb], cin: Limb) -> Limb {
        let mut c = cin;
        for ((ri, &ai), &bi) in r.iter_mut().zip(a).zip(b) {
            (*ri, c) = adc(ai, bi, c);
        }
        c
    }

    /// `r += b + cin` (equal lengths), returning the carry.
    #[inline(always)]
    fn add_assign_n(self, r: &mut [Limb], b: &[Limb], cin: Limb) -> Limb {
        let mut c = cin;
        for (ri, &bi) in r.iter_mut().zip(b) {
            (*ri, c) = adc(*ri, bi, c);
        }
        c
    }

    /// `r = a - b - bin` (equal lengths), returning the borrow.
    #[inline(always)]
    fn sub_n(self, r: &mut [Limb], a: &[Limb], b: &[Limb], bin: Limb) -> Limb {
        let mut c = bin;
        for ((ri, &ai), &bi) in r.iter_mut().zip(a).zip(b) {
            (*ri, c) = limb::sbb(ai, bi, c);
        }
        c
    }

    /// `r -= a + bin` (equal lengths), returning the borrow.
    #[inline(always)]
    fn sub_assign_n(self, r: &mut [Limb], a: &[Limb], bin: Limb) -> Limb {
        let mut c = bin;
        for (ri, &ai) in r.iter_mut().zip(a) {
            (*ri, c) = limb::sbb(*ri, ai, c);
        }
        c
    }

    /// Steps 1 to 3 of the squaring: `w = x^2` in `2 s` limbs (overwritten) for `x` of s >= 1
    /// limbs; `buf` (s + 1 limbs) is scratch for the ADX rows. Also the square of `barrett`'s
    /// ordinary-domain product and `karatsuba`'s basecase. Portable: the cross products
    /// `w[2 i + 1..i + s] += x_i x[i + 1..]`, row i's carry stored at `w[i + s]`, then one
    /// pass `w = 2 w + sum x_i^2 W^(2 i)`.
    #[inline(always)]
    fn square<const S: usize>(self, x: &[Limb], w: &mut [Limb], _buf: &mut [Limb]) {
        let s = if S == 0 { x.len() } else { S };
        let (x, w) = (&x[..s], &mut w[..2 * s]);
        w[..s].fill(0);
        w[2 * s - 1] = 0;
        for i in 0..s.saturating_sub(1) {
            w[i + s] = self.addmul_1(&mut w[2 * i + 1..i + s], &x[i + 1..s], x[i]);
        }
        // x^2 < W^(2s), so the bit shifted out of the top is 0 and so is the last carry.
        let (mut top, mut c) = (0, 0);
        for (i, &xi) in x.iter().enumerate() {
            let (lo, hi) = mac(xi, xi, 0, 0);
            let (w0, w1) = (w[2 * i], w[2 * i + 1]);
            (w[2 * i], c) = adc((w0 << 1) | top, lo, c);
            (w[2 * i + 1], c) = adc((w1 << 1) | (w0 >> 63), hi, c);
            top = w1 >> 63;
        }
        debug_assert_eq!(top, 0);
        debug_assert_eq!(c, 0);
    }

    /// The REDC rows: for each i, `w[i..i + s] += (w[i] N' mod W) N`, which zeroes `w[i]`,
    /// and the row's carry (due at limb i + s) parked in `w[i]`.
    #[inline(always)]
    fn redc_rows<const S: usize>(self, n: &[Limb], n0_inv: Limb, w: &mut [Limb]) {
        let s = if S == 0 { n.len() } else { S };
        for i in 0..s {
            let r = &mut w[i..i + s];
            let m = r[0].wrapping_mul(n0_inv);
            let c = self.addmul_1(r, &n[..s], m);
            debug_assert_eq!(r[0], 0, "sqr: n0_inv is not -N^-1 mod 2^64");
            r[0] = c;
        }
    }
}

/// The portable rows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Rows for Portable {
    #[inline(always)]
    fn addmul_1(self, r: &mut [Limb], a: &[Limb], v: Limb) -> Limb {
        addmul_1(r, a, v)
    }
}

impl Rows for adx::Adx {
    #[inline(always)]
    fn addmul_1(self, r: &mut [Limb], a: &[Limb], v: Limb) -> Limb {
        adx::Adx::addmul_1(self, r, a, v)
    }

    #[inline(always)]
    fn add_n(self, r: &mut [Limb], a: &[Limb], b: &[Limb], cin: Limb) -> Limb {
        adx::Adx::add_n(self, r, a, b, cin)
    }

    #[inline(always)]
    fn add_assign_n(self, r: &mut [Limb], b: &[Limb], cin: Limb) -> Limb {
        adx::Adx::add_assign_n(self, r, b, cin)
    }

    #[inline(always)]
    fn sub_n(self, r: &mut [Limb], a: &[Limb], b: &[Limb], bin: Limb) -> Limb {
        adx::Adx::sub_n(self, r, a, b, bin)
    }

    #[inline(always)]
    fn sub_assign_n(self, r: &mut [Limb], a: &[Limb], bin: Limb) -> Limb {
        adx::Adx::sub_assign_n(self, r, a, bin)
    }

    #[inline(always)]
    fn mul_rows(self, x: &[Limb], y: &[Limb], w: &mut [Limb]) {
        adx::Adx::mul_rows(self, x, y, w);
    }

    #[inline(always)]
    fn product_straight(self, x: &[Limb], y: &[Limb], w: &mut [Limb]) -> bool {
        adx::Adx::product_straight(self, x, y, w)
    }

    #[inline(always)]
    fn rows_up(self, r: &mut [Limb], a: &[Limb], v: &[Limb], l0: usize) {
        adx::Adx::rows_up(self, r, a, v, l0);
    }

    #[inline(always)]
    fn rows_down(self, r: &mut [Limb], a: &[Limb], v: &[Limb], l0: usize) {
        adx::Adx::rows_down(self, r, a, v, l0);
    }

    #[inline(always)]
    fn low_product(self, r: &mut [Limb], a: &[Limb], v: &[Limb]) {
        adx::Adx::low_product(self, r, a, v);
    }

    #[inline(always)]
    fn square<const S: usize>(self, x: &[Limb], w: &mut [Limb], buf: &mut [Limb]) {
        adx::Adx::square(self, x, w, buf);
    }

    #[inline(always)]
    fn redc_rows<const S: usize>(self, n: &[Limb], n0_inv: Limb, w: &mut [Limb]) {
        adx::Adx::redc_rows(self, n, n0_inv, w);
    }
}

/// [`mont_sqr_into`] on the portable rows (`adx = None`) or the ADX rows, whatever the
/// dispatch would pick (tests compare the two). Same contract.
#[cfg(test)]
pub(crate) fn sqr_with(
    p: &MontParams,
    x: &[Limb],
    out: &mut [Limb],
    w: &mut [Limb],
    adx: Option<adx::Adx>,
) {
    match adx {
        None => sqr_core::<0>(p, x, out, w, Portable),
        Some(adx) => sqr_core::<0>(p, x, out, w, adx),
    }
}

/// Square then reduce; `S` is the limb count when known at compile time, else 0; `rows` are
/// [`Portable`], the ADX rows, or those as `VarTime` rows.
#[inline(always)]
fn sqr_core<const S: usize>(
    p: &MontParams,
    x: &[Limb],
    out: &mut [Limb],
    w: &mut [Limb],
    rows: impl Rows,
) {
    let s = if S == 0 { p.s() } else { S };
    let (n, x, out) = (&p.modulus()[..s], &x[..s], &mut out[..s]);
    let (w, sc) = w.split_at_mut(2 * s);
    if S == 0 && karatsuba::square_splits(s, rows) {
        karatsuba::sqr(x, w, sc, rows);
        reduce(p, w, out, sc, rows);
    } else {
        rows.square::<S>(x, w, sc);
        redc::<S>(n, p.n0_inv(), w, out, rows);
    }
}

/// Word-by-word REDC, steps 4 to 6 of the squaring: `out = w R^-1 mod N` for `w < R N` in
/// `2 s` limbs, fully reduced; `w` is clobbered. `S` and `rows` as in [`sqr_core`].
#[inline(always)]
pub(crate) fn redc<const S: usize>(
    n: &[Limb],
    n0_inv: Limb,
    w: &mut [Limb],
    out: &mut [Limb],
    rows: impl Rows,
) {
    let s = if S == 0 { n.len() } else { S };
    let (n, out) = (&n[..s], &mut out[..s]);
    let w = &mut w[..2 * s];
    // 4. REDC: row i adds m_i N W^i, which zeroes limb i; its carry (due at limb i + s) is
    //    parked in limb i and added in step 5.
    rows.redc_rows::<S>(n, n0_inv, w);
    // 5. t = high half + parked carries < 2N: at most one carry out of s limbs.
    let (carries, high) = w.split_at_mut(s);
    let c = rows.add_assign_n(high, carries, 0);
    // 6. Final subtraction: on variable-time rows by a comparison (from the top limb, where it
    //    almost always ends) and a branch; else branch-free, as in CIOS (`limb::ct_reduce_once`
    //    on the rows' subtraction pass).
    if rows.variable_time() {
        if c == 1 || limb::cmp(high, n).is_ge() {
            rows.sub_n(out, high, n, 0);
        } else {
            out.copy_from_slice(high);
        }
        return;
    }
    let borrow = rows.sub_n(out, high, n, 0);
    limb::ct_select_assign(out, high, (c ^ 1) & borrow);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bigarith::from_limbs;
    use crate::mont::cios;
    use num_bigint::BigUint;

    fn rows_redc(rows: impl Rows, name: &str) {
        let mut seed = 0x7265_6463_5f72_6f77;
        for s in [1, 2, 3, 15, 16, 17, 24, 32, 48, 64, 65, 96] {
            for n in limb::edge_moduli(&mut seed, s) {
                let p = MontParams::from_limbs(&n).unwrap();
                let (nb, r) = (from_limbs(&n), BigUint::from(1u8) << (64 * s));
                let limbs_of = |b: &BigUint| {
                    let mut d = b.to_u64_digits();
                    d.resize(2 * s, 0);
                    d
                };
                let x = from_limbs(&limb::xorshift_limbs(&mut seed, s)) % &nb;
                // 0; N and N (R - 1) (t = N: out 0); (N - 1)^2; a product; R N - 1 (t near 2 N,
                // a carry out of s limbs when N is near R).
                let cases = [
                    BigUint::from(0u8),
                    nb.clone(),
                    &nb * (&r - 1u8),
                    (&nb - 1u8) * (&nb - 1u8),
                    &x * (&nb - 1u8),
                    &r * &nb - 1u8,
                ];
                for (case, t) in cases.iter().enumerate() {
                    let mut w = limbs_of(t);
                    let mut out = vec![Limb::MAX; s];
                    redc::<0>(&n, p.n0_inv(), &mut w, &mut out, rows);
                    let got = from_limbs(&out);
                    assert!(got < nb, "{name} s {s} case {case}: not reduced");
                    assert_eq!(got * &r % &nb, t % &nb, "{name} s {s} case {case}");
                }
            }
        }
    }

    /// The rows' REDC, its final subtraction branch-free or (variable-time rows) by a branch,
    /// is T R^-1 mod N, fully reduced, on the edge moduli at both ends of that subtraction.
    #[test]
    fn rows_redc_reduces_fully() {
        on_every_rows!(rows_redc, "rows redc on ADX rows");
    }

    #[test]
    fn matches_cios_product_with_itself() {
        for modulus in [
            vec![7u64],
            vec![Limb::MAX],
            vec![Limb::MAX, Limb::MAX],
            vec![1, 1],
            vec![0x1234_5678_9abc_def1, 0xffff_0000_ffff_0000, 3],
        ] {
            let p = MontParams::from_limbs(&modulus).unwrap();
            let s = p.s();
            let mut x = p.modulus().to_vec();
            x[0] -= 1; // N - 1
            let mut out = vec![0; s];
            let mut w = vec![0; scratch_len(s)];
            mont_sqr_into(&p, &x, &mut out, &mut w);
            assert_eq!(out, cios::mont_mul(&p, &x, &x).unwrap(), "N={modulus:x?}");
        }
    }
}
