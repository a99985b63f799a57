//! `redc_n`: sub-quadratic Montgomery reduction of long numbers, under the squarings and
//! products of [`crate::mont::sqr`] and [`crate::mont::cios`]: from [`MIN_LIMBS`] on the
//! variable-time rows, from [`CT_MIN_LIMBS`] on the constant-time ones. Its products mod
//! W^n - 1 also give Barrett's remainder in [`crate::barrett`] (`WrapOperand`).
//!
//! Citation: P. L. Montgomery, "Modular multiplication without trial division", Math. Comp.
//! 44(170), 1985 (REDC with the whole quotient q = T N^-1 mod R, here in the subtractive form
//! (T - q N) / R); the high half of q N taken from q N mod (W^rn - 1), s <= rn < 2 s, as GMP's
//! `mpn_redc_n` (mpn/generic/redc_n.c): q N = T mod R is known, so the wrapped product gives
//! the high half. The product mod W^rn - 1 splits as GMP's `mpn_mulmod_bnm1`:
//! W^(2h) - 1 = (W^h - 1)(W^h + 1), the first factor recursively, the two residues joined by
//! the CRT (a halving mod W^h - 1 is a one-bit rotation); rn is s rounded up to a multiple of
//! 8, so it splits at least three times (down to 16 limbs or an odd length). q is a short
//! product (the split of Mulders' short product with equal halves).
//!
//! Word size 64, radix W = 2^64; R = W^s, the R of `cios` and `sqr`: the same output as the
//! rows' REDC ([`crate::mont::sqr::rows_redc_into`]). Inputs: odd N of s >= [`MIN_LIMBS`]
//! limbs; T < R N in 2 s limbs (a product or square of residues). Output: T R^-1 mod N, fully
//! reduced. Scratch: [`scratch_len`]`(s)` limbs, no allocation. Cost: about
//! 2 M(s/2) + 2 M_lo(s/2) + (the mod W^(s/2) - 1 product) against the rows' s^2 word
//! products. Timing: every loop runs over lengths fixed by s, the signs and wrap-arounds are
//! taken by masks: no branch or index on values; on `VarTime` rows (`mont::vartime`) the small
//! carries stop where they end, the top-bit correction is skipped when both top bits are
//! clear, and N is added back by a branch. Left out: FFT products mod W^h + 1.

use crate::limb::{self, adc, Limb};
use crate::mont::karatsuba;
use crate::mont::sqr::{Portable, Rows};
use crate::mont::vartime::VarTime;
use crate::params::MontParams;

/// Moduli of this many limbs or more reduce here on variable-time rows (`mont::vartime`), and
/// have the constants ([`Consts`]); below, the rows. Chosen with the reductions table of
/// `examples/word_timings.rs` on the variable-time MULX/ADX rows of a Zen 3 (three runs): this
/// reduction took 0.91–0.95 of the rows' time at 96 limbs, 0.85–0.92 at 104 to 120 and
/// 0.84–0.86 at 128; with this threshold lowered to 64 (two runs), 1.03–1.14 at 64 to 88.
pub const MIN_LIMBS: usize = 96;

/// Moduli of this many limbs or more reduce here on the constant-time rows. Chosen as
/// [`MIN_LIMBS`], on the constant-time ADX rows: 1.00–1.14 of the rows' time at 96 and 104
/// limbs, 0.94–1.06 at 112 and 120, 0.90–0.91 at 128 and 0.94–1.03 at 129 (1.11–1.47 at 64 to
/// 88).
pub const CT_MIN_LIMBS: usize = 128;

// The constants exist wherever either kind of rows reduces here.
const _: () = assert!(MIN_LIMBS < CT_MIN_LIMBS);

/// Short products of fewer limbs run as one triangle of rows.
const MULLO_SPLIT: usize = 64;

/// Products mod W^n - 1 of fewer limbs (or odd counts) are a full product, folded. Splitting
/// below 64 limbs made the product mod W^128 - 1 and this REDC at 128 limbs faster on the
/// variable-time ADX rows of a Zen 3, alike for splits down to 32, 24 or 16 limbs (the effect
/// on `pow` is in `docs/baseline-ab.json`); 16 as GMP's `MULMOD_BNM1_THRESHOLD` (14 on Zen 3).
const BNM1_SPLIT: usize = 16;

/// The larger of `a` and `b` in a `const fn` (`Ord::max` is not one).
pub(crate) const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

const fn mullo_scratch(n: usize) -> usize {
    if n < MULLO_SPLIT {
        0
    } else {
        let (l, h) = (n / 2, n - n / 2);
        let low = if l == h { 0 } else { 2 * h };
        max(low + karatsuba::scratch_len(h), l + mullo_scratch(l))
    }
}

/// The length of the wrapped product for s limbs: s rounded up to a multiple of 8, so that
/// from 96 limbs it splits at least three times (s <= rn < 2 s).
pub(crate) const fn wrap_len(s: usize) -> usize {
    s.div_ceil(8) * 8
}

/// Scratch of [`mulmod_bnm1`] for `n` limbs.
pub(crate) const fn bnm1_scratch(n: usize) -> usize {
    if n < BNM1_SPLIT || n % 2 == 1 {
        2 * n + max(karatsuba::scratch_len(n), n)
    } else {
        let h = n / 2;
        8 * h + max(bnm1_scratch(h), karatsuba::scratch_len(h))
    }
}

/// Scratch of [`redc_into`] for `s` limbs: q and the wrapped product (rn + rn limbs, rn =
/// `wrap_len(s)`), then the larger of the short product's and the wrapped product's own.
#[must_use]
pub const fn scratch_len(s: usize) -> usize {
    let rn = wrap_len(s);
    2 * rn + max(mullo_scratch(s), bnm1_scratch(rn))
}

/// True when an `s`-limb modulus has the constants: it reduces here on variable-time rows.
#[must_use]
#[inline]
pub const fn applies(s: usize) -> bool {
    s >= MIN_LIMBS
}

/// True when an `s`-limb modulus reduces here on `rows`: from [`MIN_LIMBS`] on variable-time
/// rows, from [`CT_MIN_LIMBS`] on constant-time ones.
#[inline]
pub(crate) fn applies_on(s: usize, rows: impl Rows) -> bool {
    s >= rows.threshold(MIN_LIMBS, CT_MIN_LIMBS)
}

/// N's residues at one split of the product mod W^(2 h) - 1: N mod (W^h - 1) (`m`, h limbs)
/// and N mod (W^h + 1) (`p`, h limbs, and its top bit `top`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Split {
    m: Vec<Limb>,
    p: Vec<Limb>,
    top: Limb,
}

/// The constants of [`redc_into`] for one modulus: N^-1 mod R, and N as the fixed operand of
/// the products mod W^rn - 1 (`wrap_len`).
#[derive(Clone, Debug)]
pub struct Consts {
    ip: Vec<Limb>,
    n: WrapOperand,
}

impl Consts {
    /// The constants of odd N (`n0_inv` = -N^-1 mod W), empty where [`applies`] is false.
    /// Quadratic (the rows' REDC of 1), no branch or index on N's value.
    #[must_use]
    pub fn new(n: &[Limb], n0_inv: Limb) -> Self {
        if !applies(n.len()) {
            return Self {
                ip: Vec::new(),
                n: WrapOperand::new(&[], 0),
            };
        }
        Self {
            ip: inverse(n, n0_inv),
            n: WrapOperand::new(n, wrap_len(n.len())),
        }
    }
}

/// A fixed operand b of products mod W^n - 1 ([`mulmod_bnm1`]), with its residues at each
/// split: N in [`redc_into`] and in Barrett's q3 N (`crate::barrett`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WrapOperand {
    b: Vec<Limb>,
    splits: Vec<Split>,
}

impl WrapOperand {
    /// `b` (at most `n` limbs) for products mod W^n - 1.
    pub(crate) fn new(b: &[Limb], n: usize) -> Self {
        let mut b = b.to_vec();
        b.resize(n, 0);
        Self {
            splits: splits(&b),
            b,
        }
    }

    /// n, the length of the products.
    pub(crate) fn len(&self) -> usize {
        self.b.len()
    }

    /// `r = a b mod (W^n - 1)` in [0, W^n - 1] for `a` of n limbs; `sc`
    /// [`bnm1_scratch`]`(n)` limbs.
    pub(crate) fn mulmod(&self, r: &mut [Limb], a: &[Limb], sc: &mut [Limb], rows: impl Rows) {
        mulmod_bnm1(r, a, &self.b, &self.splits, sc, rows);
    }
}

/// b's residues at each split of [`mulmod_bnm1`] (b mod (W^h - 1) is split again).
fn splits(b: &[Limb]) -> Vec<Split> {
    let mut out = Vec::new();
    let mut b = b.to_vec();
    while b.len() >= BNM1_SPLIT && b.len().is_multiple_of(2) {
        let h = b.len() / 2;
        let mut z = vec![0; h];
        let (mut m, mut p) = (vec![0; h], vec![0; h]);
        fold_minus(&mut m, &b[..h], &b[h..], &mut z, Portable);
        let top = fold_plus(&mut p, &b[..h], &b[h..], &mut z, Portable);
        b.clone_from(&m);
        out.push(Split { m, p, top });
    }
    out
}

/// N^-1 mod W^s for odd N (`n0_inv` = -N^-1 mod W): the quotient limbs of the rows' REDC of
/// 1 give Q with 1 + Q N = 0 mod W^s, and N^-1 = -Q. Quadratic (s^2 / 2 word products, on the
/// MULX/ADX rows where the CPU has them: a one-shot short exponentiation pays it), for a
/// modulus's setup.
#[must_use]
pub fn inverse(n: &[Limb], n0_inv: Limb) -> Vec<Limb> {
    match crate::mont::adx::Adx::for_limbs(n.len()) {
        Some(adx) => inverse_on(n, n0_inv, adx),
        None => inverse_on(n, n0_inv, Portable),
    }
}

fn inverse_on(n: &[Limb], n0_inv: Limb, rows: impl Rows) -> Vec<Limb> {
    let s = n.len();
    let mut t: Vec<Limb> = vec![0; s];
    t[0] = 1;
    let mut q: Vec<Limb> = vec![0; s];
    for i in 0..s {
        q[i] = t[i].wrapping_mul(n0_inv);
        rows.addmul_1(&mut t[i..], &n[..s - i], q[i]);
    }
    // -Q = !Q + 1.
    let mut c = 1;
    for qi in &mut q {
        (*qi, c) = adc(!*qi, 0, c);
    }
    q
}

/// All ones for `bit` = 1, else 0. The bit goes through `black_box`: seen through, the
/// compiler turns a masked pass into a branch to a `memset` or `memcpy`.
fn mask(bit: Limb) -> Limb {
    core::hint::black_box(bit).wrapping_neg()
}

/// `r += d` (a small d) over all of `r`, returning the carry out of the top: `z` (as long as
/// `r`) is zero on entry and exit and carries d in its limb 0 meanwhile, so the rows' ADC
/// chain propagates it. Variable-time rows stop where the carry does.
fn add_small(r: &mut [Limb], z: &mut [Limb], d: Limb, rows: impl Rows) -> Limb {
    if rows.variable_time() {
        return limb::add_1_vartime(r, d);
    }
    let z = &mut z[..r.len()];
    z[0] = d;
    let c = rows.add_assign_n(r, z, 0);
    z[0] = 0;
    c
}

/// `r -= d` (a small d) over all of `r`, returning the borrow; `z` as in [`add_small`].
fn sub_small(r: &mut [Limb], z: &mut [Limb], d: Limb, rows: impl Rows) -> Limb {
    if rows.variable_time() {
        return limb::sub_1_vartime(r, d);
    }
    let z = &mut z[..r.len()];
    z[0] = d;
    let b = rows.sub_assign_n(r, z, 0);
    z[0] = 0;
    b
}

/// `r = lo + hi mod (W^h - 1)`, a value in [0, W^h - 1] (W^h - 1 stands for 0 too).
pub(crate) fn fold_minus(
    r: &mut [Limb],
    lo: &[Limb],
    hi: &[Limb],
    z: &mut [Limb],
    rows: impl Rows,
) {
    let c = rows.add_n(r, lo, hi, 0);
    // After a carry r <= W^h - 2, so adding it back carries no further.
    add_small(r, z, c, rows);
}

/// `r = lo - hi mod (W^h + 1)` as h limbs and the returned top bit (1 only for W^h, r = 0).
fn fold_plus(r: &mut [Limb], lo: &[Limb], hi: &[Limb], z: &mut [Limb], rows: impl Rows) -> Limb {
    let b = rows.sub_n(r, lo, hi, 0);
    // A borrow means r - W^h = r + 1 mod (W^h + 1); r + 1 carries only from W^h - 1, to W^h.
    add_small(r, z, b, rows)
}

/// `r = a b mod W^n` (`n = r.len() = a.len() = b.len()`), `sc` [`mullo_scratch`]`(n)` limbs:
/// one triangle of rows, or from [`MULLO_SPLIT`] the full product of the low h = ceil(n / 2)
/// limbs and two short products of the other l = n - h for the middle.
fn mullo(r: &mut [Limb], a: &[Limb], b: &[Limb], sc: &mut [Limb], rows: impl Rows) {
    let n = r.len();
    if n < MULLO_SPLIT {
        r.fill(0);
        rows.low_product(r, &a[..n], &b[..n]);
        return;
    }
    let (l, h) = (n / 2, n - n / 2);
    if l == h {
        karatsuba::mul(&a[..h], &b[..h], r, sc, rows);
    } else {
        let (p, sc) = sc.split_at_mut(2 * h);
        karatsuba::mul(&a[..h], &b[..h], p, sc, rows);
        r.copy_from_slice(&p[..n]);
    }
    let (t, sc) = sc.split_at_mut(l);
    mullo(t, &a[..l], &b[h..], sc, rows);
    rows.add_assign_n(&mut r[h..], t, 0);
    mullo(t, &a[h..], &b[..l], sc, rows);
    rows.add_assign_n(&mut r[h..], t, 0);
}

/// `r = a b mod (W^n - 1)` in [0, W^n - 1] for any `a`, `b` of `n = r.len()` limbs; `sc`
/// [`bnm1_scratch`]`(n)` limbs; `splits` are b's residues ([`Consts`]), or empty to fold b
/// here. Even n from [`BNM1_SPLIT`]: the residues mod W^h - 1 (recursively) and mod W^h + 1
/// (a full h-limb product and the corrections of the top bits), joined by the CRT; else the
/// full product, folded.
fn mulmod_bnm1(
    r: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
    splits: &[Split],
    sc: &mut [Limb],
    rows: impl Rows,
) {
    let n = r.len();
    if n < BNM1_SPLIT || n % 2 == 1 {
        let (p, sc) = sc.split_at_mut(2 * n);
        karatsuba::mul(a, b, p, sc, rows);
        let (lo, hi) = p.split_at(n);
        let c = rows.add_n(r, lo, hi, 0);
        // The carry back in: r + 1 after a carry is at most W^n - 1.
        let (z, _) = sc.split_at_mut(n);
        z.fill(0);
        add_small(r, z, c, rows);
        return;
    }
    let h = n / 2;
    let (am, sc) = sc.split_at_mut(h);
    let (bm, sc) = sc.split_at_mut(h);
    let (r1, sc) = sc.split_at_mut(h);
    let (ap, sc) = sc.split_at_mut(h);
    let (bp, sc) = sc.split_at_mut(h);
    let (z, sc) = sc.split_at_mut(h);
    let (p, sc) = sc.split_at_mut(2 * h);
    z.fill(0);
    let (bm, bp, be, below) = match splits.split_first() {
        Some((at, below)) => (&at.m[..], &at.p[..], at.top, below),
        None => {
            fold_minus(bm, &b[..h], &b[h..], z, rows);
            let be = fold_plus(bp, &b[..h], &b[h..], z, rows);
            (&bm[..], &bp[..], be, &[][..])
        }
    };
    // Mod W^h - 1.
    fold_minus(am, &a[..h], &a[h..], z, rows);
    mulmod_bnm1(r1, am, bm, below, sc, rows);
    // Mod W^h + 1: (ap + al W^h)(bp + be W^h) = ap bp - al bp - be ap + al be, where al = 1
    // only with ap = 0 (and be likewise), so al bp + be ap = (bp & -al) | (ap & -be).
    let al = fold_plus(ap, &a[..h], &a[h..], z, rows);
    karatsuba::mul(ap, bp, p, sc, rows);
    let (lo, hi) = p.split_at_mut(h);
    let b1 = rows.sub_assign_n(lo, hi, 0);
    let b2 = if rows.variable_time() && (al | be) == 0 {
        0 // both top bits clear, as almost always: nothing to subtract
    } else {
        let (ma, mb) = (mask(al), mask(be));
        for ((t, &x), &y) in am.iter_mut().zip(bp.iter()).zip(ap.iter()) {
            *t = (x & ma) | (y & mb);
        }
        rows.sub_assign_n(lo, am, 0)
    };
    // lo - (b1 + b2) W^h + al be = lo + b1 + b2 + al be: add it (carry k: lo + k W^h = lo - k),
    // subtract k (a borrow only from lo = 0 with k = 1, leaving all ones: -1 = W^h). The
    // residue r2 in [0, W^h] is then lo + top, top = that borrow.
    let k = add_small(lo, z, b1 + b2 + (al & be), rows);
    let top = sub_small(lo, z, k, rows);
    // CRT: r2 + k' (W^h + 1) with k' = (r1 - r2) / 2 mod (W^h - 1): t = r1 - lo - top, and
    // each wrap below 0 adds W^h - 1, one less than the W^h the borrow took. At most two
    // borrows (the second only from t = 0 or 1), and after them t >= W^h - 2: the third pass
    // cannot borrow.
    let t = am;
    let bb = rows.sub_n(t, r1, lo, 0);
    let e1 = sub_small(t, z, bb + top, rows);
    sub_small(t, z, e1, rows);
    // Halving mod W^h - 1 (2^(64 h) = 1): a rotation right by one bit.
    limb::half_mod_mersenne(t);
    // r = r2 + k' + k' W^h (r2 = lo + top; top = 1 only with lo all ones): at most
    // W^n + W^h - 1, so one wrap-around of the carry.
    let (rl, rh) = r.split_at_mut(h);
    let c1 = rows.add_n(rl, lo, t, top);
    let c2 = rows.add_n(rh, t, z, c1);
    let c3 = add_small(rl, z, c2, rows);
    add_small(rh, z, c3, rows);
}

/// REDC: `out = T R^-1 mod N` for `T = w < R N` (2 s limbs, `s = n.len()`, [`applies`]),
/// fully reduced; `consts` are N's ([`Consts`]), `sc` [`scratch_len`]`(s)` limbs. With
/// q = T mod R times N^-1 (mod R), q N = T mod R, so T - q N = (T_hi - (q N)_hi) R; q N's
/// limbs e.. (e = 2 s - rn) are (q N mod (W^rn - 1)) - T's low e limbs, mod W^rn - 1, in
/// the order of a rotation by e limbs.
///
/// # Panics
/// If the lengths disagree.
pub(crate) fn redc(
    n: &[Limb],
    consts: &Consts,
    w: &[Limb],
    out: &mut [Limb],
    sc: &mut [Limb],
    rows: impl Rows,
) {
    let s = n.len();
    let ip = &consts.ip[..];
    assert!(
        applies(s) && ip.len() == s && w.len() == 2 * s && out.len() == s,
        "redc_n: lengths must be s (applies(s)), s, 2 s, s"
    );
    let (rn, th) = (consts.n.len(), &w[s..]);
    // q N = Y + H W^rn with Y < W^rn and H < W^e, e = 2 s - rn <= s; y = Y + H mod W^rn - 1.
    let e = 2 * s - rn;
    let (q, sc) = sc.split_at_mut(rn);
    let (y, sc) = sc.split_at_mut(rn);
    mullo(&mut q[..s], &w[..s], ip, sc, rows);
    q[s..].fill(0);
    consts.n.mulmod(y, q, sc, rows);
    // q N = T mod W^s, so Y's low e limbs are T's: y - T[..e] = (Y - T[..e]) + H, whose low e
    // limbs are H (q N's limbs rn..2 s) and the rest Y's limbs e..rn (q N's limbs e..rn).
    let z = &mut sc[..rn];
    if !rows.variable_time() {
        z.fill(0); // the zero addend of the constant-time small carries (`sub_small`)
    }
    let b1 = rows.sub_assign_n(&mut y[..e], &w[..e], 0);
    let borrow = if rn > e {
        sub_small(&mut y[e..], z, b1, rows)
    } else {
        b1
    };
    // A borrow adds W^rn - 1: one less; y >= 1 there (y - T[..e] > -W^rn + 1), so it stops.
    sub_small(y, z, borrow, rows);
    // y is now D = q N's limbs e..2 s rotated (H below), mod W^rn - 1, in [0, W^rn - 1], and
    // D itself: D < W^rn - 1 (all ones would make q N >= W^(2 s) - W^e > (W^s - 1)^2, as
    // e <= s), and y all ones would need T[..e] = 0 and y = W^rn - 1 = 0 mod W^rn - 1, so
    // D = 0, q N = T[..e] = 0 and q = 0, whose wrapped product is 0, not all ones.
    // (q N)_hi = q N's limbs s..rn (y's limbs s..rn), then its limbs rn..2 s (y's 0..e).
    // out = T_hi - (q N)_hi, in (-N, N); N added back under the borrow's mask (on variable-time
    // rows, by a branch).
    let k = rn - s;
    let (out_lo, out_hi) = out.split_at_mut(k);
    let b = rows.sub_n(out_lo, &th[..k], &y[s..], 0);
    let borrow = rows.sub_n(out_hi, &th[k..], &y[..e], b);
    if rows.variable_time() {
        if borrow == 1 {
            rows.add_assign_n(out, n, 0);
        }
    } else {
        let (borrow, nm) = (mask(borrow), &mut y[..s]);
        for (v, &ni) in nm.iter_mut().zip(n) {
            *v = ni & borrow;
        }
        rows.add_assign_n(out, nm, 0);
    }
    debug_assert!(
        limb::cmp(out, n).is_lt(),
        "redc_n: output not fully reduced"
    );
}

/// `out = t R^-1 mod N` for `t < R N` (2 s limbs) by `redc` on the rows the squarings and
/// products use (MULX/ADX where the CPU has them); `sc` has [`scratch_len`]`(s)` limbs.
///
/// # Panics
/// If [`applies`] is false for N's limb count, or a length is wrong.
pub fn redc_into(params: &MontParams, t: &[Limb], out: &mut [Limb], sc: &mut [Limb]) {
    redc_on(params, t, out, sc, false);
}

/// [`redc_into`] on the variable-time rows of the variable-time calls (`VarTime` on MULX/ADX,
/// the plain rows elsewhere), which reduce here from [`MIN_LIMBS`]. Branches on values.
///
/// # Panics
/// As [`redc_into`].
pub fn redc_vartime_into(params: &MontParams, t: &[Limb], out: &mut [Limb], sc: &mut [Limb]) {
    redc_on(params, t, out, sc, true);
}

fn redc_on(params: &MontParams, t: &[Limb], out: &mut [Limb], sc: &mut [Limb], vartime: bool) {
    let (n, s) = (params.modulus(), params.s());
    assert!(
        sc.len() >= scratch_len(s),
        "redc_n: scratch of scratch_len(s)"
    );
    match crate::mont::adx::Adx::for_limbs(s) {
        Some(adx) if vartime => redc(n, params.redc_n(), t, out, sc, VarTime(adx)),
        Some(adx) => redc(n, params.redc_n(), t, out, sc, adx),
        None => redc(n, params.redc_n(), t, out, sc, Portable),
    }
}

/// `T R^-1 mod N` for `T < R N` (2 s limbs) by `redc` on the portable rows and passes,
/// whatever the CPU: the entry of the valgrind taint harness (`montlab-ct`), under which the
/// ADX rows do not run.
///
/// # Panics
/// If [`applies`] is false for N's limb count or `t` is not 2 s limbs.
#[must_use]
pub fn redc_portable(params: &MontParams, t: &[Limb]) -> Vec<Limb> {
    let s = params.s();
    let mut out = vec![0; s];
    let mut sc = vec![0; scratch_len(s)];
    redc(
        params.modulus(),
        params.redc_n(),
        t,
        &mut out,
        &mut sc,
        Portable,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bigarith::from_limbs;
    use crate::mont::sqr;
    use crate::mont::{adx, cios};
    use num_bigint::BigUint;

    fn limbs_of(b: &BigUint, n: usize) -> Vec<Limb> {
        let mut d = b.to_u64_digits();
        d.resize(n, 0);
        d
    }

    /// Operands of `n` limbs: random, all ones, zero, and a high half one above the low half
    /// (a = -1 mod W^(n/2) + 1: the top bit of the split's second residue).
    fn operands(seed: &mut u64, n: usize) -> Vec<Vec<Limb>> {
        let mut above = limb::xorshift_limbs(seed, n);
        let h = n / 2;
        if h > 0 {
            above[..h].fill(7);
            above[h..2 * h].fill(7);
            above[h] = 8;
        }
        vec![
            limb::xorshift_limbs(seed, n),
            vec![Limb::MAX; n],
            vec![0; n],
            above,
        ]
    }

    fn parts(rows: impl Rows, name: &str) {
        let mut seed = 0x7265_6463_5f6e_0001;
        for n in (1..=160).chain([255, 256, 257, 300]) {
            let wn = BigUint::from(1u8) << (64 * n);
            let ops = operands(&mut seed, n);
            for (i, a) in ops.iter().enumerate() {
                for (j, b) in ops.iter().enumerate() {
                    let (ab, bb) = (from_limbs(a), from_limbs(b));
                    let mut r = vec![Limb::MAX; n];
                    mullo(&mut r, a, b, &mut vec![0; mullo_scratch(n)], rows);
                    assert_eq!(
                        r,
                        limbs_of(&(&ab * &bb % &wn), n),
                        "{name} mullo n {n} ({i}, {j})"
                    );
                    let m = &wn - 1u8;
                    for given in [&[][..], &splits(b)[..]] {
                        r.fill(Limb::MAX);
                        let sc = &mut vec![Limb::MAX; bnm1_scratch(n)];
                        mulmod_bnm1(&mut r, a, b, given, sc, rows);
                        let got = from_limbs(&r);
                        assert!(got < wn, "{name} bnm1 n {n}");
                        assert_eq!(got % &m, &ab * &bb % &m, "{name} bnm1 n {n} ({i}, {j})");
                    }
                }
            }
        }
    }

    /// Short products and products mod W^n - 1 of every length 1 to 160 and at 255 to 257 and
    /// 300 (both sides of both splits, odd lengths, two and more levels) on the portable and
    /// the ADX rows, constant and variable time.
    #[test]
    fn parts_equal_biguint() {
        on_every_rows!(parts, "redc_n on ADX rows");
    }

    /// Variable-time rows reduce here from `MIN_LIMBS`, constant-time ones from
    /// `CT_MIN_LIMBS`, and the constants and the squarings' scratch exist for both.
    #[test]
    fn thresholds_by_rows() {
        let adx = adx::available().then(|| adx::Adx::new().expect("checked"));
        for (s, vt, ct) in [
            (MIN_LIMBS - 1, false, false),
            (MIN_LIMBS, true, false),
            (CT_MIN_LIMBS - 1, true, false),
            (CT_MIN_LIMBS, true, true),
        ] {
            assert_eq!(applies_on(s, VarTime(Portable)), vt, "vartime s {s}");
            assert_eq!(applies_on(s, Portable), ct, "portable s {s}");
            if let Some(adx) = adx {
                assert_eq!(applies_on(s, VarTime(adx)), vt, "adx vartime s {s}");
                assert_eq!(applies_on(s, adx), ct, "adx s {s}");
            }
            assert_eq!(applies(s), vt, "constants s {s}");
            if vt {
                assert!(
                    sqr::reduce_scratch_len(s, 0) >= scratch_len(s),
                    "scratch s {s}"
                );
            }
        }
    }

    /// N^-1 mod R times N is 1 mod R, for the edge moduli.
    #[test]
    fn inverse_inverts() {
        let mut seed = 0x7265_6463_5f6e_0002;
        for s in [1, 2, 3, 96, 128] {
            for n in limb::edge_moduli(&mut seed, s) {
                let p = MontParams::from_limbs(&n).unwrap();
                let r = BigUint::from(1u8) << (64 * s);
                let prod = from_limbs(&inverse(&n, p.n0_inv())) * from_limbs(&n) % r;
                assert_eq!(prod, BigUint::from(1u8), "s {s}");
            }
        }
    }

    fn reductions(rows: impl Rows, name: &str) {
        let mut seed = 0x7265_6463_5f6e_0003;
        for s in [
            96, 97, 100, 104, 120, 128, 129, 130, 131, 133, 140, 162, 192, 197, 256,
        ] {
            for n in limb::edge_moduli(&mut seed, s) {
                let p = MontParams::from_limbs(&n).unwrap();
                let nb = from_limbs(&n);
                let below = |seed: &mut u64| {
                    limbs_of(&(from_limbs(&limb::xorshift_limbs(seed, s)) % &nb), s)
                };
                let (x, y) = (below(&mut seed), below(&mut seed));
                let n1 = limbs_of(&(&nb - 1u8), s);
                let mut t_lo_zero = vec![0; 2 * s];
                t_lo_zero[s..].copy_from_slice(&x);
                let cases = [
                    limbs_of(&(from_limbs(&x) * from_limbs(&y)), 2 * s),
                    limbs_of(&(from_limbs(&n1) * from_limbs(&n1)), 2 * s),
                    vec![0; 2 * s],
                    t_lo_zero,
                    limbs_of(&(from_limbs(&x) * from_limbs(&n1)), 2 * s),
                    limbs_of(&nb, 2 * s),
                ];
                for (case, t) in cases.iter().enumerate() {
                    let mut want = vec![0; s];
                    sqr::redc::<0>(&n, p.n0_inv(), &mut t.clone(), &mut want, Portable);
                    let mut got = vec![Limb::MAX; s];
                    let mut sc = vec![Limb::MAX; scratch_len(s)];
                    redc(&n, p.redc_n(), t, &mut got, &mut sc, rows);
                    assert_eq!(got, want, "{name} s {s} N {:x} case {case}", n[s - 1]);
                }
            }
        }
    }

    /// The same outputs as the rows' REDC on products, (N - 1)^2, 0, T mod R = 0, products
    /// with N - 1 and T = N (q = 1: a high half of 0), for s from 96 to 256 (three to five
    /// splits, odd lengths below), odd s and s off the multiples of 8 (rn > s), and the edge
    /// moduli, on constant- and variable-time rows.
    #[test]
    fn equals_rows_redc() {
        on_every_rows!(reductions, "redc_n on ADX rows");
    }

    /// The squarings and products that reduce here (from `MIN_LIMBS` on variable-time rows,
    /// from `CT_MIN_LIMBS` on constant-time ones) equal the portable CIOS rounds: both sides of
    /// both thresholds, odd and even lengths off the multiples of 8, and 197 limbs.
    #[test]
    fn products_equal_cios_rounds() {
        let mut seed = 0x7265_6463_5f6e_0004;
        let around = |m: usize| [m - 1, m, m + 1, m + 2];
        for s in around(MIN_LIMBS)
            .into_iter()
            .chain(around(CT_MIN_LIMBS))
            .chain([197])
        {
            for n in limb::edge_moduli(&mut seed, s) {
                let p = MontParams::from_limbs(&n).unwrap();
                let nb = from_limbs(&n);
                let x = limbs_of(&(from_limbs(&limb::xorshift_limbs(&mut seed, s)) % &nb), s);
                let y = limbs_of(&(from_limbs(&limb::xorshift_limbs(&mut seed, s)) % &nb), s);
                let mut t = vec![0; cios::scratch_len(s)];
                let mut want = vec![0; s];
                cios::mul_portable(&p, &x, &y, &mut want, &mut t);
                let mut got = vec![0; s];
                cios::mont_mul_into(&p, &x, &y, &mut got, &mut t);
                assert_eq!(got, want, "mul s {s}");
                cios::mul_portable(&p, &x, &x, &mut want, &mut t);
                let mut w = vec![0; sqr::scratch_len(s)];
                sqr::mont_sqr_into(&p, &x, &mut got, &mut w);
                assert_eq!(got, want, "sqr s {s}");
                sqr::sqr_with(&p, &x, &mut got, &mut w, None);
                assert_eq!(got, want, "portable sqr s {s}");
                got.fill(Limb::MAX);
                sqr::mont_sqr_vartime_into(&p, &x, &mut got, &mut w);
                assert_eq!(got, want, "vartime sqr s {s}");
                cios::mul_portable(&p, &x, &y, &mut want, &mut t);
                got.fill(Limb::MAX);
                cios::mont_mul_vartime_into(&p, &x, &y, &mut got, &mut t);
                assert_eq!(got, want, "vartime mul s {s}");
            }
        }
    }
}
