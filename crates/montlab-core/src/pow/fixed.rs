//! `pow_sec`: constant-time fixed-window modular exponentiation on a [`CtKernel`].
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
//! branch; every kernel ends in a masked final subtraction. What is assumed: the target's
//! 64x64->128 multiply is constant time (true of x86-64 and AArch64). [`pow_sec_with`] runs
//! the same window on any [`CtKernel`]: `cios` + `sqr`, the IFMA kernel `amm`, or the spectral
//! kernel. `crates/montlab-ct` checks `cios` and the spectral kernel (portable and AVX2 loops)
//! under valgrind, and `amm` and the spectral kernel's IFMA loops under MemorySanitizer
//! (valgrind has no AVX-512); `bench/dudect.py` times them. Operand blinding (a random factor
//! in the table and the accumulator) is [`crate::pow::blind`], which
//! `FastModulus::set_blinding` turns on. Left out: exponent blinding.

use crate::error::MontError;
use crate::limb::Limb;
use crate::params::MontParams;
use crate::pow::MontKernel;
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
    pow_sec_with(params, base, exp, stop)
}

/// A Montgomery kernel [`pow_sec_with`] runs on: its products and squarings take one path
/// through code and memory whatever the values, and it reads a table entry by a full masked
/// scan. The word level (`cios` + `sqr`, or `amm` on IFMA CPUs) and the spectral kernel are
/// such kernels.
pub trait CtKernel: MontKernel {
    /// R^2 mod N as an element, ready as a right operand: the factor into the domain.
    fn r2(&self) -> Self::Elem;
    /// `out = table[digit]` as a right operand of [`MontKernel::mul`], reading every entry and
    /// keeping one by mask; a kernel may leave out of `out` what only a left operand uses. All
    /// entries went through [`MontKernel::prepare`] (a public fact, so they have one shape).
    fn gather(&self, table: &[Self::Elem], digit: Limb, out: &mut Self::Elem);
}

impl CtKernel for MontParams {
    fn r2(&self) -> Vec<Limb> {
        self.r2_mod_n().to_vec()
    }

    fn gather(&self, table: &[Vec<Limb>], digit: Limb, out: &mut Vec<Limb>) {
        gather(table.iter().map(Vec::as_slice), digit, out);
    }
}

/// [`pow_sec`]'s fixed window on any [`CtKernel`], for `base < N` of exactly the kernel's `s`
/// limbs (not checked here). The table's entries are prepared right operands.
///
/// # Errors
/// [`MontError::Interrupted`] once `stop` is requested.
pub fn pow_sec_with<K: CtKernel>(
    kernel: &K,
    base: &[Limb],
    exp: &[Limb],
    stop: &Stop,
) -> Result<Vec<Limb>, MontError> {
    fixed_window(kernel, base, exp, None, stop)
}

/// The fixed window of [`pow_sec_with`]; with `blind = Some((sigma, tau))` (ordinary residues
/// below N, `s` limbs each) every table entry and the starting accumulator carry a factor
/// sigma, so no operand of a product stays at a value the exponent sets (1 for a zero window
/// digit), and the result is multiplied by tau, which must be sigma^-E mod N with E =
/// [`crate::pow::blind::sigma_exponent`] of the window count ([`crate::pow::blind::Blind`]).
pub(crate) fn fixed_window<K: CtKernel>(
    kernel: &K,
    base: &[Limb],
    exp: &[Limb],
    blind: Option<(&[Limb], &[Limb])>,
    stop: &Stop,
) -> Result<Vec<Limb>, MontError> {
    let k = SEC_WINDOW_BITS as usize;
    let mut sc = kernel.scratch();

    // table[d] = base^d sigma R mod N for every digit d in [0, 2^k) (sigma = 1 unblinded).
    let mut table: Vec<K::Elem> = Vec::with_capacity(1 << k);
    let first = match blind {
        Some((sigma, _)) => kernel.to_mont(sigma, &mut sc),
        None => kernel.one(),
    };
    let mut entry = first.clone();
    kernel.prepare(&mut entry, &mut sc);
    table.push(entry);
    let b = kernel.wrap(base);
    let mut b_m = b.clone();
    kernel.mul(&b, &kernel.r2(), &mut b_m, &mut sc);
    kernel.prepare(&mut b_m, &mut sc);
    for d in 1..(1usize << k) {
        stop.check()?;
        let mut next = b_m.clone();
        if d > 1 || blind.is_some() {
            kernel.mul(&table[d - 1], &b_m, &mut next, &mut sc);
            kernel.prepare(&mut next, &mut sc);
        }
        table.push(next);
    }

    // Windows from the top: the exponent's 64 * len bits, padded at the top to a multiple of k.
    let windows = (64 * exp.len()).div_ceil(k);
    let mut acc = first;
    let mut tmp = acc.clone();
    let mut sel = table[0].clone();
    for win in (0..windows).rev() {
        stop.check()?;
        for _ in 0..k {
            kernel.sqr(&acc, &mut tmp, &mut sc);
            core::mem::swap(&mut acc, &mut tmp);
        }
        kernel.gather(&table, window_digit(exp, win * k, k), &mut sel);
        kernel.mul(&acc, &sel, &mut tmp, &mut sc);
        core::mem::swap(&mut acc, &mut tmp);
    }
    if let Some((_, tau)) = blind {
        let mut t = kernel.to_mont(tau, &mut sc);
        kernel.prepare(&mut t, &mut sc);
        kernel.mul(&acc, &t, &mut tmp, &mut sc);
        core::mem::swap(&mut acc, &mut tmp);
    }
    Ok(kernel.from_mont(&acc, &mut sc))
}

/// Bits `[lo, lo + k)` of `exp` as a number, bits past the end reading 0. The positions are
/// public; the value is computed with shifts and masks only.
pub(crate) fn window_digit(exp: &[Limb], lo: usize, k: usize) -> Limb {
    let mut d = 0;
    for j in 0..k {
        let i = lo + j;
        let limb = exp.get(i / 64).copied().unwrap_or(0);
        d |= ((limb >> (i % 64)) & 1) << j;
    }
    d
}

/// `out = entries[digit]`, reading every entry (each `out.len()` limbs) and keeping the wanted
/// one by mask: the table scan of every [`CtKernel`].
pub(crate) fn gather<'a>(entries: impl Iterator<Item = &'a [Limb]>, digit: Limb, out: &mut [Limb]) {
    out.fill(0);
    for (i, entry) in entries.enumerate() {
        debug_assert_eq!(entry.len(), out.len());
        let mask = ct_eq_mask(i as Limb, digit);
        for (o, &e) in out.iter_mut().zip(entry) {
            *o |= e & mask;
        }
    }
}

/// All ones if `a == b`, else 0, without a branch.
#[inline]
pub(crate) fn ct_eq_mask(a: Limb, b: Limb) -> Limb {
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
