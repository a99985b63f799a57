//! Left-to-right sliding-window modular exponentiation on the `cios` kernel.
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
//! 2^(k-1) odd powers base^1, base^3, ..., base^(2^k - 1) in Montgomery form.
//!
//! `_vartime`: the sequence of squarings and multiplications and the table index follow the
//! exponent bits, so timing and memory access leak the exponent. Do not use it with secret
//! exponents. Left out: constant-time fixed windows, exponent recoding, and CRT.

use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::mont::cios;
use crate::params::MontParams;

/// Largest window size [`window_bits`] returns (a table of 32 odd powers).
pub const MAX_WINDOW_BITS: u32 = 6;

/// Window size for an exponent of `exp_bits` bits.
///
/// The thresholds are the classical ones that minimise table plus main-loop products
/// (the same cut points as OpenSSL's `BN_window_bits_for_exponent_size`).
#[must_use]
pub const fn window_bits(exp_bits: u64) -> u32 {
    match exp_bits {
        672.. => 6,
        240..=671 => 5,
        80..=239 => 4,
        24..=79 => 3,
        _ => 1,
    }
}

/// `base^exp mod N` by left-to-right sliding windows over CIOS products. Variable time in `exp`.
///
/// # Errors
/// [`MontError::OperandOutOfRange`] naming `base` if `base >= N`.
pub fn pow_vartime(
    params: &MontParams,
    base: &[Limb],
    exp: &[Limb],
) -> Result<Vec<Limb>, MontError> {
    let base = params.operand(base, "base")?;
    let s = params.s();
    let bits = limb::bit_len(exp);
    if bits == 0 {
        // e = 0: the empty product, 1 mod N = 1 because N > 1.
        let mut one = vec![0; s];
        one[0] = 1;
        return Ok(one);
    }
    let k = window_bits(bits);

    // Scratch for every product: one accumulator, one output buffer.
    let mut t = vec![0; cios::scratch_len(s)];
    let mut tmp = vec![0; s];

    // table[i] = base^(2i+1) * R mod N. table[0] = REDC(base * R^2).
    let mut table: Vec<Vec<Limb>> = Vec::with_capacity(1 << (k - 1));
    let mut b_m = vec![0; s];
    cios::mont_mul_into(params, &base, params.r2_mod_n(), &mut b_m, &mut t);
    if k > 1 {
        let mut b2_m = vec![0; s];
        cios::mont_mul_into(params, &b_m, &b_m, &mut b2_m, &mut t);
        table.push(b_m);
        for i in 1..(1usize << (k - 1)) {
            cios::mont_mul_into(params, &table[i - 1], &b2_m, &mut tmp, &mut t);
            table.push(tmp.clone());
        }
    } else {
        table.push(b_m);
    }

    // Scan from the top bit. `acc` is None until the first window, which saves the squarings
    // of Montgomery 1 (and makes base 0 need no special case: the table entry is 0).
    let mut acc: Option<Vec<Limb>> = None;
    let mut i = bits; // bits i-1, i-2, ... remain
    while i > 0 {
        if !limb::bit(exp, i - 1) {
            if let Some(a) = acc.as_mut() {
                square(params, a, &mut tmp, &mut t);
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
                    square(params, a, &mut tmp, &mut t);
                }
                cios::mont_mul_into(params, a, entry, &mut tmp, &mut t);
                core::mem::swap(a, &mut tmp);
            }
        }
        i = l;
    }

    // bits > 0 means the top bit opened a window, so acc is set; leave Montgomery form.
    let acc = acc.unwrap_or_else(|| params.r_mod_n().to_vec());
    let mut one = vec![0; s];
    one[0] = 1;
    cios::mont_mul_into(params, &acc, &one, &mut tmp, &mut t);
    Ok(tmp)
}

/// `a = a^2` in Montgomery form, through the buffer `tmp`.
fn square(params: &MontParams, a: &mut Vec<Limb>, tmp: &mut Vec<Limb>, t: &mut [Limb]) {
    cios::mont_mul_into(params, a, a, tmp, t);
    core::mem::swap(a, tmp);
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
