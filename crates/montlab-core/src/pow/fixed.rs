//! `pow_sec`: constant-time fixed-window modular exponentiation on the word-level kernel.
//!
//! Citation: A. Menezes, P. van Oorschot, S. Vanstone, "Handbook of Applied Cryptography",
//! 1996, Algorithm 14.82 (left-to-right k-ary exponentiation), with every product a CIOS
//! Montgomery product and every squaring the `sqr` kernel (Koc-Acar-Kaliski 1996), and the
//! table read by a full masked scan (the "scatter/gather" defence of OpenSSL's
//! `BN_mod_exp_mont_consttime`, here as a select over every entry).
//!
//! Word size / radix: w = 64, R = 2^(64 s) as in [`MontParams`]; window k = [`SEC_WINDOW_BITS`].
//! Inputs:  `0 <= base < N` (ordinary domain), exactly `s` limbs after the range check;
//!          exponent of any length: all `64 * exp.len()` bits are processed, leading zero
//!          limbs included, so only the exponent's limb count (public) shapes the run.
//! Output:  `base^e mod N`, fully reduced, exactly `s` limbs.
//!
//! Timing: the sequence of operations depends only on `exp.len()` and `s`. Every window does k
//! squarings and one product (also for a zero digit, with the table entry 1); the table entry
//! is gathered by reading all 2^k entries and keeping one with a mask computed without a
//! branch; both kernels end in a masked final subtraction. What is assumed: the target's
//! 64x64->128 multiply is constant time (true of x86-64 and AArch64). Left out: blinding of
//! the base or the exponent, and the spectral kernel (whose carry handling branches on data).

use crate::error::MontError;
use crate::limb::Limb;
use crate::mont::{cios, sqr};
use crate::params::MontParams;
use crate::stop::Stop;

/// Window size of [`pow_sec`]: a table of 32 entries.
pub const SEC_WINDOW_BITS: u32 = 5;

/// `base^exp mod N` in constant time with respect to `base` and the bits of `exp`.
///
/// # Errors
/// [`MontError::OperandOutOfRange`] naming `base` if `base >= N` (this range check itself is
/// not constant time: it reveals only whether the input was valid).
pub fn pow_sec(params: &MontParams, base: &[Limb], exp: &[Limb]) -> Result<Vec<Limb>, MontError> {
    pow_sec_until(params, base, exp, Stop::never())
}

/// [`pow_sec`] that checks `stop` (a public flag) once per table entry and once per window.
///
/// # Errors
/// As [`pow_sec`], and [`MontError::Interrupted`] once `stop` is requested.
pub fn pow_sec_until(
    params: &MontParams,
    base: &[Limb],
    exp: &[Limb],
    stop: &Stop,
) -> Result<Vec<Limb>, MontError> {
    let base = params.operand(base, "base")?;
    pow_sec_reduced(params, &base, exp, stop)
}

/// [`pow_sec_until`] on a base already known to be below N (exactly `s` limbs), without the
/// range check, whose comparison would branch on N: for a secret modulus (`pow::crt`).
///
/// # Errors
/// [`MontError::Interrupted`] once `stop` is requested.
pub(crate) fn pow_sec_reduced(
    params: &MontParams,
    base: &[Limb],
    exp: &[Limb],
    stop: &Stop,
) -> Result<Vec<Limb>, MontError> {
    let s = params.s();
    let k = SEC_WINDOW_BITS as usize;
    let mut t = vec![0; cios::scratch_len(s)];
    let mut w = vec![0; sqr::scratch_len(s)];

    // table[d] = base^d R mod N for every digit d in [0, 2^k).
    let mut table: Vec<Vec<Limb>> = Vec::with_capacity(1 << k);
    table.push(params.r_mod_n().to_vec());
    let mut b_m = vec![0; s];
    cios::mont_mul_into(params, base, params.r2_mod_n(), &mut b_m, &mut t);
    table.push(b_m);
    for d in 2..(1usize << k) {
        stop.check()?;
        let mut next = vec![0; s];
        cios::mont_mul_into(params, &table[d - 1], &table[1], &mut next, &mut t);
        table.push(next);
    }

    // Windows from the top: the exponent's 64 * len bits, padded at the top to a multiple of k.
    let total_bits = 64 * exp.len();
    let windows = total_bits.div_ceil(k);
    let mut acc = params.r_mod_n().to_vec();
    let mut tmp = vec![0; s];
    let mut sel = vec![0; s];
    for win in (0..windows).rev() {
        stop.check()?;
        for _ in 0..k {
            sqr::mont_sqr_into(params, &acc, &mut tmp, &mut w);
            core::mem::swap(&mut acc, &mut tmp);
        }
        let digit = window_digit(exp, win * k, k);
        gather(&table, digit, &mut sel);
        cios::mont_mul_into(params, &acc, &sel, &mut tmp, &mut t);
        core::mem::swap(&mut acc, &mut tmp);
    }

    let mut one = vec![0; s];
    one[0] = 1;
    cios::mont_mul_into(params, &acc, &one, &mut tmp, &mut t);
    Ok(tmp)
}

/// Bits `[lo, lo + k)` of `exp` as a number, bits past the end reading 0. The positions are
/// public; the value is computed with shifts and masks only.
fn window_digit(exp: &[Limb], lo: usize, k: usize) -> Limb {
    let mut d = 0;
    for j in 0..k {
        let i = lo + j;
        let limb = exp.get(i / 64).copied().unwrap_or(0);
        d |= ((limb >> (i % 64)) & 1) << j;
    }
    d
}

/// `out = table[digit]`, reading every entry and keeping the wanted one by mask.
fn gather(table: &[Vec<Limb>], digit: Limb, out: &mut [Limb]) {
    out.fill(0);
    for (i, entry) in table.iter().enumerate() {
        let mask = ct_eq_mask(i as Limb, digit);
        for (o, &e) in out.iter_mut().zip(entry) {
            *o |= e & mask;
        }
    }
}

/// All ones if `a == b`, else 0, without a branch.
#[inline]
fn ct_eq_mask(a: Limb, b: Limb) -> Limb {
    let x = a ^ b;
    // (x | -x) has its top bit set exactly when x != 0.
    let nonzero = (x | x.wrapping_neg()) >> 63;
    core::hint::black_box(nonzero).wrapping_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pow::window;

    #[test]
    fn masks_and_digits() {
        assert_eq!(ct_eq_mask(3, 3), Limb::MAX);
        assert_eq!(ct_eq_mask(3, 4), 0);
        assert_eq!(ct_eq_mask(0, 1 << 63), 0);
        assert_eq!(window_digit(&[0b1011_0110], 1, 5), 0b11011);
        assert_eq!(window_digit(&[1 << 63, 1], 63, 5), 0b11);
        assert_eq!(window_digit(&[1], 64, 5), 0);
    }

    #[test]
    fn agrees_with_sliding_window() {
        let p = MontParams::from_limbs(&[0x1234_5678_9abc_def1, 0xffff_ffff_0000_0001]).unwrap();
        for (b, e) in [
            (vec![0u64], vec![0u64]),
            (vec![0], vec![5]),
            (vec![7, 1], vec![]),
            (vec![7, 1], vec![u64::MAX, 3, 0]),
            (vec![u64::MAX, 0xffff_0000], vec![0x8000_0000_0000_0001]),
        ] {
            assert_eq!(
                pow_sec(&p, &b, &e).unwrap(),
                window::pow_vartime(&p, &b, &e).unwrap(),
                "b={b:x?} e={e:x?}"
            );
        }
        assert_eq!(
            pow_sec(&p, p.modulus(), &[1]),
            Err(MontError::OperandOutOfRange { which: "base" })
        );
    }
}
