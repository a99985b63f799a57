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
//! Scratch: `w` of [`scratch_len`]`(s) = 2 s` limbs; no allocation.
//!
//! Cost: s(s-1)/2 + s word products for the square and s^2 for the reduction, against 2 s^2
//! for a CIOS product of x with itself. Every row is one `r += v a` pass: the portable loop, or
//! from [`adx::MIN_LIMBS`] limbs on CPUs with BMI2/ADX the assembly row of [`adx`]. Timing: no
//! branch on operand values (the final subtraction is a mask select). Left out: Karatsuba
//! squaring and lazy reduction.

use crate::limb::{self, adc, mac, Limb};
use crate::mont::adx;
use crate::params::MontParams;

/// Length of the scratch buffer [`mont_sqr_into`] needs for `s`-limb operands.
#[must_use]
pub const fn scratch_len(s: usize) -> usize {
    2 * s
}

/// `out = x^2 * R^-1 mod N`, fully reduced.
///
/// `x`, `out` are exactly `s` limbs, `w` is [`scratch_len`]`(s)` limbs (contents on entry do
/// not matter). `x < N` is checked by `debug_assert!` only.
///
/// # Panics
/// If a slice has the wrong length (a programming error, never a value error).
pub fn mont_sqr_into(params: &MontParams, x: &[Limb], out: &mut [Limb], w: &mut [Limb]) {
    let n = params.modulus();
    let s = params.s();
    assert!(
        x.len() == s && out.len() == s && w.len() == scratch_len(s),
        "sqr: operand, output and scratch lengths must be s, s and 2 s",
    );
    debug_assert!(limb::cmp(x, n).is_lt(), "sqr: x must be < N");
    let n0_inv = params.n0_inv();
    macro_rules! fixed {
        ($($k:literal)*) => {
            match s {
                $($k => sqr_core::<$k>(n, n0_inv, x, out, w, addmul_1),)*
                _ => sqr_core::<0>(n, n0_inv, x, out, w, addmul_1),
            }
        };
    }
    if let Some(adx) = adx::Adx::for_limbs(s) {
        sqr_core::<0>(n, n0_inv, x, out, w, |r, a, v| adx.addmul_1(r, a, v));
    } else {
        fixed!(1 2 3 4 5 6 7 8 16 32 64);
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
        "redc: operand, output and scratch lengths must be s, s and 2 s",
    );
    debug_assert!(limb::cmp(a, n).is_lt(), "redc: a must be < N");
    w[..s].copy_from_slice(a);
    w[s..].fill(0);
    match adx::Adx::for_limbs(s) {
        Some(adx) => redc::<0>(n, params.n0_inv(), w, out, |r, a, v| adx.addmul_1(r, a, v)),
        None => redc::<0>(n, params.n0_inv(), w, out, addmul_1),
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
        None => sqr_core::<0>(p.modulus(), p.n0_inv(), x, out, w, addmul_1),
        Some(adx) => sqr_core::<0>(p.modulus(), p.n0_inv(), x, out, w, |r, a, v| {
            adx.addmul_1(r, a, v)
        }),
    }
}

/// Square then reduce; `S` is the limb count when known at compile time, else 0. `row` is
/// `r += v a` returning the carry: [`addmul_1`] or [`adx::Adx::addmul_1`].
#[inline(always)]
fn sqr_core<const S: usize>(
    n: &[Limb],
    n0_inv: Limb,
    x: &[Limb],
    out: &mut [Limb],
    w: &mut [Limb],
    row: impl Fn(&mut [Limb], &[Limb], Limb) -> Limb,
) {
    let s = if S == 0 { n.len() } else { S };
    let (n, x, out) = (&n[..s], &x[..s], &mut out[..s]);
    square::<S>(x, &mut w[..2 * s], &row);
    redc::<S>(n, n0_inv, w, out, row);
}

/// Steps 1 to 3 of the squaring: `w = x^2` in `2 s` limbs (`w` fully overwritten), for `x`
/// of `s` limbs; also the square of `barrett`'s ordinary-domain product. `S` and `row` as in
/// [`sqr_core`].
#[inline(always)]
pub(crate) fn square<const S: usize>(
    x: &[Limb],
    w: &mut [Limb],
    row: &impl Fn(&mut [Limb], &[Limb], Limb) -> Limb,
) {
    let s = if S == 0 { x.len() } else { S };
    let x = &x[..s];
    let w = &mut w[..2 * s];
    w.fill(0);

    // 1. Cross products: w = sum_{i < j} x_i x_j W^(i+j) (row i covers limbs 2i+1 .. i+s).
    for i in 0..s {
        w[i + s] = row(&mut w[2 * i + 1..i + s], &x[i + 1..], x[i]);
    }
    // 2. Double them (x^2 < W^(2s), so the bit shifted out of the top is 0) ...
    let mut top = 0;
    for wi in w.iter_mut() {
        let next = *wi >> 63;
        *wi = (*wi << 1) | top;
        top = next;
    }
    debug_assert_eq!(top, 0);
    // 3. ... and add the squares x_i^2 W^(2i) on the diagonal.
    let mut c = 0;
    for i in 0..s {
        let (lo, hi) = mac(x[i], x[i], 0, 0);
        (w[2 * i], c) = adc(w[2 * i], lo, c);
        (w[2 * i + 1], c) = adc(w[2 * i + 1], hi, c);
    }
    debug_assert_eq!(c, 0);
}

/// Word-by-word REDC, steps 4 to 6 of the squaring: `out = w R^-1 mod N` for `w < R N` in
/// `2 s` limbs, fully reduced; `w` is clobbered. `S` and `row` as in [`sqr_core`].
#[inline(always)]
fn redc<const S: usize>(
    n: &[Limb],
    n0_inv: Limb,
    w: &mut [Limb],
    out: &mut [Limb],
    row: impl Fn(&mut [Limb], &[Limb], Limb) -> Limb,
) {
    let s = if S == 0 { n.len() } else { S };
    let (n, out) = (&n[..s], &mut out[..s]);
    let w = &mut w[..2 * s];
    // 4. REDC: row i adds m_i N W^i, which zeroes limb i; its carry (due at limb i + s) is
    //    parked in limb i and added in step 5.
    for i in 0..s {
        let r = &mut w[i..i + s];
        let m = r[0].wrapping_mul(n0_inv);
        let c = row(r, n, m);
        debug_assert_eq!(r[0], 0, "sqr: n0_inv is not -N^-1 mod 2^64");
        r[0] = c;
    }
    // 5. t = high half + parked carries < 2N: at most one carry out of s limbs.
    let (carries, high) = w.split_at_mut(s);
    let mut c = 0;
    for (h, &k) in high.iter_mut().zip(carries.iter()) {
        (*h, c) = adc(*h, k, c);
    }
    // 6. Final subtraction, branch-free, as in CIOS.
    limb::ct_reduce_once(out, high, c, n);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mont::cios;

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
