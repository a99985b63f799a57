//! `karatsuba`: full products of limb vectors by Karatsuba's split over the word rows, under
//! the Montgomery products of [`crate::mont::cios`] (MULX/ADX path) and the ordinary-domain
//! products of [`crate::barrett`].
//!
//! Citation: A. Karatsuba, Yu. Ofman, "Multiplication of multidigit numbers on automata",
//! Soviet Physics Doklady 7, 1963; in the subtractive form of D. Knuth, "The Art of Computer
//! Programming", vol. 2, 3rd ed., Sec. 4.3.3 (eq. (2)): with x = x0 + x1 W^h, y = y0 + y1 W^h,
//! h = ceil(n / 2), x y = x0 y0 + (x0 y0 + x1 y1 - (x0 - x1)(y0 - y1)) W^h + x1 y1 W^(2 h):
//! three half-size products. The interpolation adds in the order of GMP's `mpn_toom22_mul`
//! (five passes over h limbs, not nine). Below [`MIN_LIMBS`] the schoolbook rows of
//! [`crate::mont::sqr::Rows`] (MULX/ADX assembly where the CPU has it), whose add and subtract
//! passes are assembly ADC/SBB chains there too.
//!
//! Word size 64, radix W = 2^64. Inputs: any `n`-limb x and y; output: the `2 n`-limb product.
//! Scratch: [`scratch_len`]`(n)` limbs, no allocation. The signs of the differences are taken
//! by a masked select and a masked complement, and every loop runs over lengths fixed by n: no
//! branch or index on values; on `VarTime` rows (`mont::vartime`) the halves are compared first
//! and the interpolation's carries stop where they end, as in GMP's `mpn_toom22_mul`. A
//! square's sign is known, so it subtracts without the complement. Squares ([`sqr`]) split the
//! same way from [`SQR_MIN_LIMBS`] ([`VT_SQR_MIN_LIMBS`] on variable-time rows): the
//! schoolbook square takes each cross product once, so splitting pays only on long squares.
//! Left out: Toom-Cook and unbalanced operands.

use crate::limb::{self, adc, Limb};
use crate::mont::sqr::Rows;

/// Products of this many limbs or more split; below, the schoolbook rows. On a Zen 3, with the
/// split at 24, 32 and 48 limbs, splitting 32 limbs gained nothing and splitting down to 12
/// lost. On a Zen 4, splitting from 32 rather than 48 limbs made `redc_n`'s reduction at 128
/// limbs 6 % faster on the variable-time MULX/ADX rows (its short product and its product mod
/// W^128 - 1 bottom out in 32- and 16-limb products); 24 and 20 were no better at 128 limbs and
/// worse at 192 (the reductions table of `examples/word_timings.rs` at 8192 and 12288 bits;
/// the effect on `powm` is recorded in `docs/performance.md`).
pub const MIN_LIMBS: usize = 32;

/// Scratch of [`mul`] for `n` limbs: |x0 - x1|, |y0 - y1|, the other difference and their
/// product (h + h + h + 2 h limbs, h = ceil(n / 2)), then the halves' own. Inlined: the
/// residue and product calls below the split ask for it on every call.
#[inline]
pub const fn scratch_len(n: usize) -> usize {
    if n < MIN_LIMBS {
        0
    } else {
        split_scratch_len(n)
    }
}

/// [`scratch_len`] of a split product (`n >= MIN_LIMBS`).
const fn split_scratch_len(n: usize) -> usize {
    let h = n.div_ceil(2);
    5 * h + scratch_len(h)
}

/// `d = |a - b|` over `h = d.len()` limbs for `a` of h limbs and `b` of at most h, returning
/// 1 when a < b: both differences, then a masked select (`t` is h limbs of scratch); on
/// variable-time rows, a comparison and one difference.
fn abs_diff(d: &mut [Limb], a: &[Limb], b: &[Limb], t: &mut [Limb], rows: impl Rows) -> Limb {
    let (h, lb) = (d.len(), b.len());
    let t = &mut t[..h];
    if rows.variable_time() {
        // Compared first: one difference, in the order that does not borrow.
        let less = limb::cmp(a, b).is_lt();
        let b = if lb == h {
            b
        } else {
            t[..lb].copy_from_slice(b);
            t[lb..].fill(0);
            &t[..]
        };
        if less {
            rows.sub_n(d, b, a, 0);
        } else {
            rows.sub_n(d, a, b, 0);
        }
        return Limb::from(less);
    }
    if lb == h {
        let borrow = rows.sub_n(d, a, b, 0);
        rows.sub_n(t, b, a, 0);
        limb::ct_select_assign(d, t, borrow);
        return borrow;
    }
    t[..lb].copy_from_slice(b);
    t[lb..].fill(0);
    let borrow = rows.sub_n(d, a, t, 0);
    rows.sub_assign_n(t, a, 0);
    limb::ct_select_assign(d, t, borrow);
    borrow
}

/// Interpolation: `out = z0 + (z0 + z2 -+ zd) W^h + z2 W^(2 h)` in place, for `out = z0 | z2`
/// (`z0` the low 2 h limbs, `z2` the rest) and `zd` (2 h limbs) subtracted, or added when
/// `add = 1`. With z0 = L0 + H0 W^h and z2 = L2 + H2 W^h, as GMP's `mpn_toom22_mul`: limbs h..2 h
/// become L0 + H0 + L2 and limbs 2 h..3 h H0 + L2 + H2 (H0 + L2 added once), then `zd` goes in
/// over 2 h limbs and the carries are taken up to the top in one more pass (an addend built
/// in `zd`). `zd` is clobbered (off the `public` path, complemented when subtracted: no branch
/// on the sign). A `public` sign (a square's, or any on variable-time rows) is taken by a
/// branch instead, and variable-time rows add the two carries only as far as they run.
fn interpolate(
    out: &mut [Limb],
    h: usize,
    zd: &mut [Limb],
    add: Limb,
    public: bool,
    rows: impl Rows,
) {
    let n2 = out.len();
    let (low, high) = out.split_at_mut(2 * h);
    let (l0, h0) = low.split_at_mut(h);
    let (l2, h2) = high.split_at_mut(h.min(n2 - 2 * h));
    // l2 = H0 + L2 (carry cy at 3 h).
    let mut cy = rows.add_assign_n(l2, h0, 0);
    // h0 = L0 + (H0 + L2) (carry cy2 at 2 h, with cy).
    let cy2 = cy.wrapping_add(rows.add_n(h0, l2, l0, 0));
    // l2 = H0 + L2 + H2.
    let k = h2.len().min(h);
    let mut c = rows.add_assign_n(&mut l2[..k], &h2[..k], 0);
    for t in &mut l2[k..] {
        (*t, c) = adc(*t, 0, c);
    }
    cy = cy.wrapping_add(c);
    // limbs h..3 h -+= zd: by a branch on a public sign, else d's two's complement under a
    // mask (all ones to subtract).
    let mid = &mut out[h..3 * h];
    if public {
        cy = if add == 1 {
            cy.wrapping_add(rows.add_assign_n(mid, zd, 0))
        } else {
            cy.wrapping_sub(rows.sub_assign_n(mid, zd, 0))
        };
    } else {
        let mask = add.wrapping_sub(1);
        for d in zd.iter_mut() {
            *d ^= mask;
        }
        cy = cy
            .wrapping_add(rows.add_assign_n(mid, zd, mask & 1))
            .wrapping_add(mask);
    }
    let top = &mut out[2 * h..];
    if rows.variable_time() {
        limb::add_1_vartime(top, cy2);
        if let Some(above) = top.get_mut(h..) {
            if (cy as i64) < 0 {
                limb::sub_1_vartime(above, cy.wrapping_neg());
            } else {
                limb::add_1_vartime(above, cy);
            }
        }
        return;
    }
    // cy2 at limb 2 h and cy (signed: -1 to 3, sign-extended above) at limb 3 h, as one
    // addend in zd (free now) over limbs 2 h.. and one carry chain, modulo W^(2 n). Limb 3 h
    // exists for every n of 4 or more (2 n - 2 h > h); below, what falls outside the product
    // is dropped (branches on lengths only).
    let z = &mut zd[..top.len()];
    let (low, high) = z.split_at_mut(h.min(z.len()));
    low.fill(0);
    if let Some(first) = low.first_mut() {
        *first = cy2;
    }
    if let Some((at, above)) = high.split_first_mut() {
        *at = cy;
        above.fill(((cy as i64) >> 63) as Limb);
    }
    rows.add_assign_n(top, z, 0);
}

/// `out = x y` (`2 n` limbs, fully overwritten) for `x`, `y` of `n` limbs; `sc` has at least
/// [`scratch_len`]`(n)` limbs.
///
/// # Panics
/// If the lengths disagree.
pub(crate) fn mul(x: &[Limb], y: &[Limb], out: &mut [Limb], sc: &mut [Limb], rows: impl Rows) {
    let n = x.len();
    assert!(
        y.len() == n && out.len() == 2 * n,
        "karatsuba: lengths must be n, n, 2 n"
    );
    if n < MIN_LIMBS {
        rows.product(x, y, out);
        return;
    }
    let h = n.div_ceil(2);
    let ((x0, x1), (y0, y1)) = (x.split_at(h), y.split_at(h));
    let (dx, sc) = sc.split_at_mut(h);
    let (dy, sc) = sc.split_at_mut(h);
    let (t, sc) = sc.split_at_mut(h);
    let (d, sc) = sc.split_at_mut(2 * h);
    // (x0 - x1)(y0 - y1) = +-|x0 - x1| |y0 - y1|, negative when exactly one difference is.
    let negative = abs_diff(dx, x0, x1, t, rows) ^ abs_diff(dy, y0, y1, t, rows);
    mul(dx, dy, d, sc, rows);
    let (lo, hi) = out.split_at_mut(2 * h);
    mul(x0, y0, lo, sc, rows);
    mul(x1, y1, hi, sc, rows);
    interpolate(out, h, d, negative, rows.variable_time(), rows);
}

/// Squares of this many limbs or more split; below, the schoolbook square of
/// [`crate::mont::sqr`]. Chosen on the MULX/ADX rows of a Zen 3 by timing the square alone
/// with the split at 48 to 96 limbs: it lost below 64 and gained from 64, whose 32-limb halves
/// are squared by the written-out rows of [`crate::mont::adx`] (`bench/baseline_ab.py`
/// records its effect on exponentiations).
pub const SQR_MIN_LIMBS: usize = 64;

/// Squares on variable-time rows (`mont::vartime`) split from this many limbs (the halves of
/// 48 are the written-out 24-limb squares). On a Zen 4 it took `powm` to 0.990 of the build
/// before at 3072 bits and 0.989 at 6144 (`docs/baseline-ab-vtsqr48-noifma.json`); on the
/// constant-time rows a 48-limb square alone was slower split, so they keep
/// [`SQR_MIN_LIMBS`].
pub const VT_SQR_MIN_LIMBS: usize = 48;
const _: () = assert!(VT_SQR_MIN_LIMBS <= SQR_MIN_LIMBS);

/// True when a square of `n` limbs splits on `rows`: from [`VT_SQR_MIN_LIMBS`] on
/// variable-time rows, from [`SQR_MIN_LIMBS`] on the others.
#[inline]
pub(crate) fn square_splits(n: usize, rows: impl Rows) -> bool {
    n >= rows.threshold(VT_SQR_MIN_LIMBS, SQR_MIN_LIMBS)
}

/// Scratch of [`sqr`] for `n` limbs on any rows: |x0 - x1|, a difference's scratch and its
/// square (h + h + 2 h limbs), then the halves' own; the schoolbook square's n + 1 carries
/// below. Inlined, as [`scratch_len`].
#[inline]
pub const fn sqr_scratch_len(n: usize) -> usize {
    if n < VT_SQR_MIN_LIMBS {
        n + 1
    } else {
        split_sqr_scratch_len(n)
    }
}

/// [`sqr_scratch_len`] of a split square (`n >= VT_SQR_MIN_LIMBS`), which covers the
/// schoolbook square's n + 1 limbs too.
const fn split_sqr_scratch_len(n: usize) -> usize {
    let h = n.div_ceil(2);
    4 * h + sqr_scratch_len(h)
}

/// `out = x^2` (`2 n` limbs, fully overwritten) for `x` of `n` limbs; `sc` has at least
/// [`sqr_scratch_len`]`(n)` limbs. As [`mul`] with y = x: the middle term is
/// x0^2 + x1^2 - (x0 - x1)^2, always subtracted.
///
/// # Panics
/// If the lengths disagree.
pub(crate) fn sqr(x: &[Limb], out: &mut [Limb], sc: &mut [Limb], rows: impl Rows) {
    let n = x.len();
    assert!(out.len() == 2 * n, "karatsuba: lengths must be n, 2 n");
    if !square_splits(n, rows) {
        rows.square::<0>(x, out, &mut sc[..=n]);
        return;
    }
    let h = n.div_ceil(2);
    let (x0, x1) = x.split_at(h);
    let (dx, sc) = sc.split_at_mut(h);
    let (t, sc) = sc.split_at_mut(h);
    let (d, sc) = sc.split_at_mut(2 * h);
    abs_diff(dx, x0, x1, t, rows);
    sqr(dx, d, sc, rows);
    let (lo, hi) = out.split_at_mut(2 * h);
    sqr(x0, lo, sc, rows);
    sqr(x1, hi, sc, rows);
    interpolate(out, h, d, 0, true, rows);
}

/// `x y` (`2 n` limbs) by [`mul`] on the portable rows and passes, whatever the CPU: the
/// entry of the valgrind taint harness (`montlab-ct`), under which the ADX rows do not run.
/// The split's own steps (the differences' signs, the select, the interpolation) are the same
/// code on both rows.
///
/// # Panics
/// If the lengths differ.
#[must_use]
pub fn mul_portable(x: &[Limb], y: &[Limb]) -> Vec<Limb> {
    assert_eq!(x.len(), y.len(), "karatsuba: operands of different lengths");
    let n = x.len();
    let (mut out, mut sc) = (vec![0; 2 * n], vec![0; scratch_len(n)]);
    mul(x, y, &mut out, &mut sc, crate::mont::sqr::Portable);
    out
}

/// `x^2` (`2 n` limbs) by [`sqr`] on the portable rows and passes, whatever the CPU: the
/// taint harness's entry, as [`mul_portable`].
#[must_use]
pub fn sqr_portable(x: &[Limb]) -> Vec<Limb> {
    let n = x.len();
    let (mut out, mut sc) = (vec![0; 2 * n], vec![0; sqr_scratch_len(n)]);
    sqr(x, &mut out, &mut sc, crate::mont::sqr::Portable);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bigarith;
    use crate::mont::vartime::VarTime;
    use crate::mont::{adx, sqr};

    /// `x y` and `x^2` on `rows` against `want_mul` and `want_sqr`.
    fn check(x: &[Limb], y: &[Limb], want: (&[Limb], &[Limb]), rows: impl Rows, name: &str) {
        let n = x.len();
        let mut sc = vec![Limb::MAX; scratch_len(n)];
        let mut out = vec![Limb::MAX; 2 * n];
        mul(x, y, &mut out, &mut sc, rows);
        assert_eq!(out, want.0, "{name} mul");
        let mut sc = vec![Limb::MAX; sqr_scratch_len(n)];
        out.fill(Limb::MAX);
        sqr(x, &mut out, &mut sc, rows);
        assert_eq!(out, want.1, "{name} sqr");
    }

    /// Products and squares of every length 1 to 240 (both sides of `MIN_LIMBS`, one and two
    /// levels of splitting, both sides of `SQR_MIN_LIMBS`, odd and even halves) on random,
    /// all-ones (carries through every limb), x0 < x1 (either operand: both signs of the
    /// middle term), equal halves (for even n) and zero operands, on the portable and ADX
    /// rows, constant and variable time, against num-bigint.
    #[test]
    fn equals_biguint() {
        let adx =
            adx::adx_or_skip("karatsuba on ADX rows").then(|| adx::Adx::new().expect("checked"));
        let mut seed = 0x6b61_7261_7473_7562;
        for n in 1..=240 {
            let mut low_first = vec![0; n];
            low_first[n - 1] = Limb::MAX; // x0 < x1: the negative difference
            let cases = [
                (
                    limb::xorshift_limbs(&mut seed, n),
                    limb::xorshift_limbs(&mut seed, n),
                ),
                (vec![Limb::MAX; n], vec![Limb::MAX; n]),
                (low_first.clone(), limb::xorshift_limbs(&mut seed, n)),
                (limb::xorshift_limbs(&mut seed, n), low_first),
                (vec![7; n], limb::xorshift_limbs(&mut seed, n)),
                (vec![0; n], vec![Limb::MAX; n]),
            ];
            for (case, (x, y)) in cases.iter().enumerate() {
                let want = |b: num_bigint::BigUint| {
                    let mut d = b.to_u64_digits();
                    d.resize(2 * n, 0);
                    d
                };
                let (xb, yb) = (bigarith::from_limbs(x), bigarith::from_limbs(y));
                let (wm, ws) = (want(&xb * &yb), want(&xb * &xb));
                let w = (&wm[..], &ws[..]);
                check(x, y, w, sqr::Portable, &format!("n {n} case {case}"));
                check(
                    x,
                    y,
                    w,
                    VarTime(sqr::Portable),
                    &format!("vt n {n} case {case}"),
                );
                if let Some(adx) = adx {
                    check(x, y, w, adx, &format!("adx n {n} case {case}"));
                    check(x, y, w, VarTime(adx), &format!("adx vt n {n} case {case}"));
                }
            }
        }
    }

    /// Halves of extreme shapes (0, 1, all ones, all ones below a zero top limb, a top limb
    /// alone, random) in every combination for x0, x1, y0 and y1, at lengths on both sides of
    /// one and two splits, on every rows: the interpolation's carries of -1 to 3 at limb 3 h,
    /// which random operands almost never reach (-1 from x1 = y1 = 0 with L0 + H0 >= W^h).
    #[test]
    fn extreme_halves_equal_biguint() {
        let adx =
            adx::adx_or_skip("karatsuba on ADX rows").then(|| adx::Adx::new().expect("checked"));
        let mut seed = 0x6b61_7261_7473_7563;
        let mut shape = |k: usize, which: usize| -> Vec<Limb> {
            let mut v = vec![0; k];
            match which {
                0 => {}
                1 => v[0] = 1,
                2 => v.fill(Limb::MAX),
                3 => {
                    v.fill(Limb::MAX);
                    v[k - 1] = 0;
                }
                4 => v[k - 1] = 1 << 63,
                _ => v = limb::xorshift_limbs(&mut seed, k),
            }
            v
        };
        for n in [48usize, 49, 50, 51, 64, 65, 96, 97, 131] {
            let h = n.div_ceil(2);
            for c in 0..6usize.pow(4) {
                let d = [c % 6, c / 6 % 6, c / 36 % 6, c / 216];
                let x = [shape(h, d[0]), shape(n - h, d[1])].concat();
                let y = [shape(h, d[2]), shape(n - h, d[3])].concat();
                let (xb, yb) = (bigarith::from_limbs(&x), bigarith::from_limbs(&y));
                let want = |b: num_bigint::BigUint| {
                    let mut v = b.to_u64_digits();
                    v.resize(2 * n, 0);
                    v
                };
                let (wm, ws) = (want(&xb * &yb), want(&xb * &xb));
                let w = (&wm[..], &ws[..]);
                check(&x, &y, w, sqr::Portable, &format!("n {n} shapes {d:?}"));
                check(
                    &x,
                    &y,
                    w,
                    VarTime(sqr::Portable),
                    &format!("vt n {n} shapes {d:?}"),
                );
                if let Some(adx) = adx {
                    check(&x, &y, w, adx, &format!("adx n {n} shapes {d:?}"));
                    check(
                        &x,
                        &y,
                        w,
                        VarTime(adx),
                        &format!("adx vt n {n} shapes {d:?}"),
                    );
                }
            }
        }
    }
}
