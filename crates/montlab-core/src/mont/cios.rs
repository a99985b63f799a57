//! `cios`: Coarsely Integrated Operand Scanning Montgomery multiplication.
//!
//! Citation: C. K. Koc, T. Acar, B. S. Kaliski, "Analyzing and comparing Montgomery
//! multiplication algorithms", IEEE Micro 16(3), 1996, Sec. "The CIOS method".
//!
//! Word size / radix: w = 64, W = 2^64; s = ceil(bitlen(N) / 64) limbs; R = W^s = 2^(64 s).
//! Numbers are little-endian `u64` limb slices of exactly `s` limbs.
//!
//! Inputs:  odd N > 1 (through [`MontParams`]); `0 <= x < N` and `0 <= y < N`.
//! Output:  `x * y * R^-1 mod N`, fully reduced to `0 <= out < N` (one final subtraction).
//! Scratch: [`scratch_len`]`(s)` limbs (the accumulator `t` of `s + 2` limbs, or the product
//! and the split's scratch); no allocation in [`mont_mul_into`].
//!
//! Invariant: with x, y < N the accumulator stays below 2N < 2R, so `t[s] <= 1` after
//! each of the s rounds and a single final subtraction fully reduces it. The multiplication
//! and reduction loops of each round are fused into one pass with two carry chains.
//!
//! Timing: the loops and the final subtraction do not branch on operand values (the final
//! subtraction is a mask select); whether `u128` multiplication is constant time is up to the
//! target. `mont_mul_vartime_into` alone branches on values (below). On x86-64 with BMI2/ADX, from
//! [`adx::MIN_LIMBS`] limbs, the product separates the operand scanning instead (the paper's SOS
//! method, [`sos_adx`]): w = x y on the MULX/ADX rows of [`crate::mont::adx`] (split by
//! [`karatsuba::mul`] from its threshold), then the REDC rows of [`crate::mont::sqr`] (or, from
//! 128 limbs, the sub-quadratic [`crate::mont::redc_n`]), the same output (w < R N, so one
//! subtraction still reduces); `mont_mul_vartime_into`, for variable-time callers, runs the split
//! and that REDC on `VarTime` rows (`mont::vartime`), sub-quadratic from 96 limbs there. Each
//! set of rows is one assembly loop there, where the CIOS rounds cost two calls a round, and the
//! split saves word products. Left out: squaring (see [`crate::mont::sqr`]), lazy reduction
//! (output < 2N), word sizes other than 64 (the Python model `montlab.ref.cios` covers those),
//! and SIMD.

use crate::error::MontError;
use crate::limb::{self, adc, mac, Limb};
use crate::mont::sqr::Rows;
use crate::mont::vartime::VarTime;
use crate::mont::{adx, karatsuba, sqr};
use crate::params::MontParams;

/// Length of the scratch accumulator [`mont_mul_into`] needs for `s`-limb operands.
#[must_use]
#[inline]
pub const fn scratch_len(s: usize) -> usize {
    // The portable rounds use the first s + 2; the ADX path (`sos_adx`) the 2 s-limb product,
    // then the split's or the reduction's scratch from limb 2 s + 2.
    2 * s + 2 + sqr::reduce_scratch_len(s, karatsuba::scratch_len(s))
}

/// CIOS kernel: `out = x * y * R^-1 mod N`, fully reduced.
///
/// `x`, `y`, `out` and `params.modulus()` are exactly `s` limbs, `t` is [`scratch_len`]`(s)`
/// limbs (its contents on entry do not matter). Preconditions `x < N`, `y < N` are checked by
/// `debug_assert!` only: callers validate operands once (see [`MontParams::operand`]).
///
/// Moduli of 1 to 8, 16, 32 and 64 limbs run a copy of the kernel specialised for that length
/// (the compiler unrolls it); other lengths run the same code with the length at run time.
/// From [`adx::MIN_LIMBS`] limbs on CPUs with BMI2/ADX, [`sos_adx`] runs instead: the product
/// rows (a Karatsuba product from [`karatsuba::MIN_LIMBS`] limbs), then the REDC (the rows,
/// or [`crate::mont::redc_n`]).
///
/// # Panics
/// If a slice has the wrong length (a programming error, never a value error).
pub fn mont_mul_into(
    params: &MontParams,
    x: &[Limb],
    y: &[Limb],
    out: &mut [Limb],
    t: &mut [Limb],
) {
    mul_below_n(params, x, y, out, t, false);
}

/// [`mont_mul_into`] with `x` anywhere below R (any `s` limbs) and `y < N`: the accumulator
/// still stays below (R N + R N) / R = 2N, so the one final subtraction still fully reduces.
/// For reductions of numbers longer than N (`pow::crt`).
///
/// # Panics
/// As [`mont_mul_into`].
pub fn mont_mul_wide_into(
    params: &MontParams,
    x: &[Limb],
    y: &[Limb],
    out: &mut [Limb],
    t: &mut [Limb],
) {
    mul_dispatch(params, x, y, out, t, false);
}

/// [`mont_mul_into`] for variable-time callers (`pow`, residues): the same result; on the
/// MULX/ADX rows the Karatsuba product and `redc_n` run on `VarTime` rows, which branch on
/// values.
///
/// # Panics
/// As [`mont_mul_into`].
pub(crate) fn mont_mul_vartime_into(
    params: &MontParams,
    x: &[Limb],
    y: &[Limb],
    out: &mut [Limb],
    t: &mut [Limb],
) {
    mul_below_n(params, x, y, out, t, true);
}

/// [`mul_dispatch`] for `x < N` (checked by `debug_assert!`).
#[inline]
fn mul_below_n(
    params: &MontParams,
    x: &[Limb],
    y: &[Limb],
    out: &mut [Limb],
    t: &mut [Limb],
    vartime: bool,
) {
    debug_assert!(
        limb::cmp(x, params.modulus()).is_lt(),
        "cios: x must be < N"
    );
    mul_dispatch(params, x, y, out, t, vartime);
}

/// [`mont_mul_wide_into`], on `VarTime` rows where `vartime` is set and the CPU has MULX/ADX.
#[inline]
fn mul_dispatch(
    params: &MontParams,
    x: &[Limb],
    y: &[Limb],
    out: &mut [Limb],
    t: &mut [Limb],
    vartime: bool,
) {
    let n = params.modulus();
    let s = params.s();
    assert!(
        x.len() == s && y.len() == s && out.len() == s && t.len() == scratch_len(s),
        "cios: operand, output and scratch lengths must be s, s, s and scratch_len(s)",
    );
    debug_assert!(limb::cmp(y, n).is_lt(), "cios: y must be < N");
    let n0_inv = params.n0_inv();
    macro_rules! fixed {
        ($($k:literal)*) => {
            match s {
                $($k => cios_core::<$k>(n, n0_inv, x, y, out, t),)*
                _ => cios_core::<0>(n, n0_inv, x, y, out, t),
            }
        };
    }
    match adx::Adx::for_limbs(s) {
        Some(adx) if vartime => sos_adx(params, x, y, out, t, VarTime(adx)),
        Some(adx) => sos_adx(params, x, y, out, t, adx),
        None => fixed!(1 2 3 4 5 6 7 8 16 32 64),
    }
    debug_assert!(limb::cmp(out, n).is_lt(), "cios: output not fully reduced");
}

/// The product on the MULX/ADX rows (`rows`: the ADX token, or it as `VarTime` rows), any `s`:
/// operand scanning separated (Koc et al.'s SOS), w = x y ([`karatsuba::mul`]: the product
/// rows, split from its threshold), then the REDC rows of [`crate::mont::sqr`]
/// ([`sqr::reduce`]: [`crate::mont::redc_n`] for long moduli).
/// w < R N, so the REDC's one subtraction fully reduces, as in the CIOS rounds. `t` is
/// [`scratch_len`]`(s)` limbs.
pub(crate) fn sos_adx(
    params: &MontParams,
    x: &[Limb],
    y: &[Limb],
    out: &mut [Limb],
    t: &mut [Limb],
    rows: impl Rows,
) {
    let s = params.s();
    let (w, sc) = t.split_at_mut(2 * s);
    let sc = &mut sc[2..];
    karatsuba::mul(x, y, w, sc, rows);
    sqr::reduce(params, w, out, sc, rows);
}

/// [`mont_mul_wide_into`] on the portable rounds whatever the CPU (the oracle of the ADX
/// products in tests). Same contract.
#[cfg(test)]
pub(crate) fn mul_portable(
    p: &MontParams,
    x: &[Limb],
    y: &[Limb],
    out: &mut [Limb],
    t: &mut [Limb],
) {
    cios_core::<0>(p.modulus(), p.n0_inv(), x, y, out, t);
}

/// The CIOS rounds with the multiplication and reduction steps fused into one pass per word
/// of `x` (two carry chains, as in Koc-Acar-Kaliski's CIOS with the inner loops merged).
/// `S` is the limb count when it is a compile-time constant, or 0 for "take it from `n`".
#[inline(always)]
fn cios_core<const S: usize>(
    n: &[Limb],
    n0_inv: Limb,
    x: &[Limb],
    y: &[Limb],
    out: &mut [Limb],
    t: &mut [Limb],
) {
    let s = if S == 0 { n.len() } else { S };
    // Re-slicing to the common length lets the compiler drop the bounds checks below.
    let (n, x, y, out) = (&n[..s], &x[..s], &y[..s], &mut out[..s]);
    let t = &mut t[..s + 1];
    t.fill(0);
    for &xi in x {
        // Column 0 fixes the quotient digit m that makes t + xi*y + m*N divisible by W.
        let (lo, mut c1) = mac(xi, y[0], t[0], 0);
        let m = lo.wrapping_mul(n0_inv);
        let (low, mut c2) = mac(m, n[0], lo, 0);
        debug_assert_eq!(low, 0, "cios: n0_inv is not -N^-1 mod 2^64");
        // Columns 1..s: add xi*y_j (carry c1) and m*n_j (carry c2), store one limb lower.
        for j in 1..s {
            let (lo, c) = mac(xi, y[j], t[j], c1);
            c1 = c;
            // j >= 1, so j - 1 cannot wrap; the checked form kept a test in this loop for a
            // run-time s (+1.86 % instructions on an 8192-bit workload, docs/overflow-checks.json).
            (t[j.wrapping_sub(1)], c2) = mac(m, n[j], lo, c2);
        }
        let (lo, hi) = adc(t[s], c1, 0);
        let (top, c) = adc(lo, c2, 0);
        t[s - 1] = top;
        // t < 2N < 2R after the shift, so the new top limb is 0 or 1: hi and c are never both 1.
        t[s] = hi | c;
        debug_assert!(hi & c == 0, "cios: accumulator exceeded 2R");
    }
    // Final subtraction, branch-free: out = t - N unless t < N (no carry limb and a borrow).
    limb::ct_reduce_once(out, &t[..s], t[s], n);
}

/// Montgomery product `x * y * R^-1 mod N` as `s` limbs (leading zero limbs kept).
///
/// Operands may have any length (leading zero limbs are ignored) but must be `< N`.
///
/// # Errors
/// [`MontError::OperandOutOfRange`] naming `x` or `y` if it is not below N.
pub fn mont_mul(params: &MontParams, x: &[Limb], y: &[Limb]) -> Result<Vec<Limb>, MontError> {
    let x = params.operand(x, "x")?;
    let y = params.operand(y, "y")?;
    Ok(mul_checked(params, &x, &y))
}

/// Converts into Montgomery form: `x * R mod N` = REDC(x * (R^2 mod N)).
///
/// # Errors
/// [`MontError::OperandOutOfRange`] naming `x` if `x >= N`.
pub fn to_mont(params: &MontParams, x: &[Limb]) -> Result<Vec<Limb>, MontError> {
    let x = params.operand(x, "x")?;
    Ok(mul_checked(params, &x, params.r2_mod_n()))
}

/// Converts out of Montgomery form: `x * R^-1 mod N` = REDC(x * 1).
///
/// # Errors
/// [`MontError::OperandOutOfRange`] naming `x` if `x >= N`.
pub fn from_mont(params: &MontParams, x: &[Limb]) -> Result<Vec<Limb>, MontError> {
    let x = params.operand(x, "x")?;
    let mut one = vec![0; params.s()];
    one[0] = 1; // 1 < N since N > 1
    Ok(mul_checked(params, &x, &one))
}

/// Allocating kernel call on operands already checked to be `s` limbs and `< N`.
fn mul_checked(params: &MontParams, x: &[Limb], y: &[Limb]) -> Vec<Limb> {
    let s = params.s();
    let mut out = vec![0; s];
    let mut t = vec![0; scratch_len(s)];
    mont_mul_into(params, x, y, &mut out, &mut t);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_limb_by_hand() {
        // N = 7, R = 2^64 = 2 mod 7, R^-1 = 4 mod 7: mont_mul(3, 5) = 15 * 4 mod 7 = 4.
        let p = MontParams::from_limbs(&[7]).unwrap();
        assert_eq!(mont_mul(&p, &[3], &[5]).unwrap(), vec![4]);
        assert_eq!(to_mont(&p, &[3]).unwrap(), vec![6]);
        assert_eq!(from_mont(&p, &[6]).unwrap(), vec![3]);
    }

    #[test]
    fn top_limb_carry_path() {
        // N = 2^128 - 1 (s = 2, divisible by 3 but odd): R = 2^128 = 1 mod N, so REDC is x*y mod N.
        let p = MontParams::from_limbs(&[Limb::MAX, Limb::MAX]).unwrap();
        let nm1 = [Limb::MAX - 1, Limb::MAX];
        // (N-1)^2 = 1 mod N.
        assert_eq!(mont_mul(&p, &nm1, &nm1).unwrap(), vec![1, 0]);
    }

    #[test]
    fn rejects_out_of_range() {
        let p = MontParams::from_limbs(&[7]).unwrap();
        assert_eq!(
            mont_mul(&p, &[7], &[1]),
            Err(MontError::OperandOutOfRange { which: "x" })
        );
        assert_eq!(
            mont_mul(&p, &[1], &[0, 1]),
            Err(MontError::OperandOutOfRange { which: "y" })
        );
        assert_eq!(
            to_mont(&p, &[8]),
            Err(MontError::OperandOutOfRange { which: "x" })
        );
        assert_eq!(
            from_mont(&p, &[9]),
            Err(MontError::OperandOutOfRange { which: "x" })
        );
    }
}
