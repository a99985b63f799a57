//! Left-to-right sliding-window modular exponentiation on a Montgomery kernel (`cios` by default).
//!
//! Citation: A. Menezes, P. van Oorschot, S. Vanstone, "Handbook of Applied Cryptography",
//! 1996, Algorithm 14.85 (sliding-window exponentiation), with every product a CIOS
//! Montgomery product (Koc-Acar-Kaliski 1996).
//!
//! Word size / radix: w = 64, R = 2^(64 s) as in [`MontParams`]. The exponent is a
//! little-endian `u64` limb slice of any length (leading zero limbs allowed).
//!
//! Inputs:  `0 <= base < N` in the ordinary (not Montgomery) domain; any exponent `e >= 0`.
//! Output:  `base^e mod N`, fully reduced, ordinary domain, exactly `s` limbs.
//! Edge cases: `e = 0` gives 1 (also for base 0: 0^0 = 1, as Python's `pow`); base 0 with
//! `e > 0` gives 0. N = 1 never reaches here ([`MontParams`] requires N > 1), so 1 mod N = 1.
//!
//! Window size k comes from the exponent's bit length ([`window_bits`]); the table holds the
//! 2^(k-1) odd powers base^1, base^3, ..., base^(2^k - 1) in Montgomery form. The loop runs on
//! any [`MontKernel`]: [`pow_vartime`] is the word-level instance (`cios` products, `sqr`
//! squarings, through [`VarTimeWord`]), [`pow_vartime_with`] takes any kernel, spectral ones
//! included.
//!
//! `_vartime`: the sequence of squarings and multiplications and the table index follow the
//! exponent bits, so timing and memory access leak the exponent; the word-level base
//! conversion (a division while R^2 mod N is not built) branches on the base, and so do the
//! word level's Karatsuba split and sub-quadratic REDC ([`VarTimeWord`]). Do not use it with
//! secret exponents or bases. Left out: constant-time fixed windows, exponent recoding, and CRT.

use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::params::MontParams;
use crate::pow::{MontKernel, VarTimeWord};
use crate::stop::Stop;

/// Largest window size [`window_bits`] returns (a table of 128 odd powers).
pub const MAX_WINDOW_BITS: u32 = 8;

/// Window size for an exponent of `exp_bits` bits.
///
/// Up to 6 bits the cut points are the classical ones (OpenSSL's
/// `BN_window_bits_for_exponent_size`); above, k grows where 2^(k-1) + bits/(k+1) products
/// (table plus main loop) is smallest, up to [`MAX_WINDOW_BITS`], which bounds the table of
/// a large spectral modulus (each entry keeps its transforms).
#[must_use]
pub const fn window_bits(exp_bits: u64) -> u32 {
    match exp_bits {
        4608.. => 8,
        1792..=4607 => 7,
        672..=1791 => 6,
        240..=671 => 5,
        80..=239 => 4,
        24..=79 => 3,
        _ => 1,
    }
}

/// `base^exp mod N` by left-to-right sliding windows over CIOS products and `sqr` squarings
/// ([`VarTimeWord`]). Variable time in `exp`, and on the MULX/ADX rows from 32 limbs in the
/// values too.
///
/// # Errors
/// [`MontError::OperandOutOfRange`] naming `base` if `base >= N`.
pub fn pow_vartime(
    params: &MontParams,
    base: &[Limb],
    exp: &[Limb],
) -> Result<Vec<Limb>, MontError> {
    let base = params.operand(base, "base")?;
    Ok(pow_vartime_with(&VarTimeWord(params), &base, exp))
}

/// `base^exp mod N` by left-to-right sliding windows on any [`MontKernel`].
///
/// `base` is exactly `kernel.limbs()` limbs and `< N` (checked by the caller). Every table
/// entry goes through [`MontKernel::prepare`], so a spectral kernel transforms each odd power
/// of the base once and reuses the transforms for every product with it.
pub fn pow_vartime_with<K: MontKernel>(kernel: &K, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    match pow_vartime_until(kernel, base, exp, Stop::never()) {
        Ok(out) => out,
        Err(_) => unreachable!("a flag nobody sets never stops the loop"),
    }
}

/// [`pow_vartime_with`] that checks `stop` once per table entry and once per exponent bit or
/// window, so a request ends it within one window of products.
///
/// # Errors
/// [`MontError::Interrupted`] once `stop` is requested.
pub fn pow_vartime_until<K: MontKernel>(
    kernel: &K,
    base: &[Limb],
    exp: &[Limb],
    stop: &Stop,
) -> Result<Vec<Limb>, MontError> {
    let bits = limb::bit_len(exp);
    if bits == 0 {
        // e = 0: the empty product, the kernel's 1 out of its form (1 mod N = 1 as N > 1), in
        // whatever layout the kernel's numbers have.
        return Ok(kernel.from_mont(&kernel.one(), &mut kernel.scratch()));
    }
    let k = window_bits(bits);
    let mut sc = kernel.scratch();

    // table[i] = base^(2i+1) in Montgomery form, each prepared as a right operand.
    let mut table: Vec<K::Elem> = Vec::with_capacity(1 << (k - 1));
    let mut b_m = kernel.to_mont(base, &mut sc);
    kernel.prepare(&mut b_m, &mut sc);
    if k > 1 {
        let mut b2_m = b_m.clone();
        kernel.sqr(&b_m, &mut b2_m, &mut sc);
        kernel.prepare(&mut b2_m, &mut sc);
        table.push(b_m);
        for i in 1..(1usize << (k - 1)) {
            stop.check()?;
            let mut next = table[i - 1].clone();
            kernel.mul(&table[i - 1], &b2_m, &mut next, &mut sc);
            kernel.prepare(&mut next, &mut sc);
            table.push(next);
        }
    } else {
        table.push(b_m);
    }

    // Scan from the top bit. `acc` is None until the first window, which saves the squarings
    // of Montgomery 1 (and makes base 0 need no special case: the table entry is 0).
    let mut acc: Option<K::Elem> = None;
    let mut tmp = table[0].clone();
    let mut i = bits; // bits i-1, i-2, ... remain
    while i > 0 {
        stop.check()?;
        if !limb::bit(exp, i - 1) {
            if let Some(a) = acc.as_mut() {
                kernel.sqr(a, &mut tmp, &mut sc);
                core::mem::swap(a, &mut tmp);
            }
            i -= 1;
            continue;
        }
        // Longest window [l, i-1] of at most k bits whose lowest bit l is set.
        let mut l = i.saturating_sub(u64::from(k));
        while !limb::bit(exp, l) {
            l += 1;
        }
        let width = i - l;
        let mut value = 0usize;
        for j in (l..i).rev() {
            value = (value << 1) | usize::from(limb::bit(exp, j));
        }
        debug_assert!(value & 1 == 1 && value < (1 << k));
        let entry = &table[value >> 1];
        match acc.as_mut() {
            None => acc = Some(entry.clone()),
            Some(a) => {
                for _ in 0..width {
                    kernel.sqr(a, &mut tmp, &mut sc);
                    core::mem::swap(a, &mut tmp);
                }
                kernel.mul(a, entry, &mut tmp, &mut sc);
                core::mem::swap(a, &mut tmp);
            }
        }
        i = l;
    }

    // bits > 0 means the top bit opened a window, so acc is set; leave Montgomery form.
    let acc = acc.unwrap_or_else(|| kernel.one());
    Ok(kernel.from_mont(&acc, &mut sc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pow_u64(b: u64, e: u64, n: u64) -> u64 {
        let (mut r, mut b, mut e) = (1u128, u128::from(b) % u128::from(n), e);
        while e > 0 {
            if e & 1 == 1 {
                r = r * b % u128::from(n);
            }
            b = b * b % u128::from(n);
            e >>= 1;
        }
        (r % u128::from(n)) as u64
    }

    #[test]
    fn window_sizes() {
        assert_eq!(
            (window_bits(0), window_bits(23), window_bits(24)),
            (1, 1, 3)
        );
        assert_eq!(
            (window_bits(79), window_bits(80), window_bits(239)),
            (3, 4, 4)
        );
        assert_eq!(
            (window_bits(240), window_bits(671), window_bits(672)),
            (5, 5, 6)
        );
        assert_eq!(
            (window_bits(1791), window_bits(1792), window_bits(4608)),
            (6, 7, 8)
        );
        assert_eq!(window_bits(u64::MAX), MAX_WINDOW_BITS);
    }

    #[test]
    fn small_cases_match_square_and_multiply() {
        let n = 0xffff_ffff_ffff_ffc5; // largest 64-bit prime
        let p = MontParams::from_limbs(&[n]).unwrap();
        for &(b, e) in &[
            (0, 0),
            (0, 5),
            (1, 0),
            (2, 1),
            (3, 1 << 40),
            (n - 1, 3),
            (12345, u64::MAX),
        ] {
            assert_eq!(
                pow_vartime(&p, &[b], &[e]).unwrap(),
                vec![pow_u64(b, e, n)],
                "b={b} e={e}"
            );
        }
        // A long exponent with leading zero limbs: 131 bits, so a 4-bit window.
        let e = [
            u64::MAX,
            0x8000_0000_0000_0001,
            7,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        ];
        assert_eq!(window_bits(limb::bit_len(&e)), 4);
        // 5^e = 5^e0 * (5^e1)^(2^64) * (5^7)^(2^128), with x^(2^k) as k squarings.
        let sq = |mut x: u64, k: u32| {
            for _ in 0..k {
                x = pow_u64(x, 2, n);
            }
            x
        };
        let mulmod = |a: u64, b: u64| (u128::from(a) * u128::from(b) % u128::from(n)) as u64;
        let want = mulmod(
            mulmod(
                pow_u64(5, u64::MAX, n),
                sq(pow_u64(5, 0x8000_0000_0000_0001, n), 64),
            ),
            sq(pow_u64(5, 7, n), 128),
        );
        assert_eq!(pow_vartime(&p, &[5], &e).unwrap(), vec![want]);
    }

    #[test]
    fn rejects_base_out_of_range() {
        let p = MontParams::from_limbs(&[9]).unwrap();
        assert_eq!(
            pow_vartime(&p, &[9], &[1]),
            Err(MontError::OperandOutOfRange { which: "base" })
        );
    }
}
