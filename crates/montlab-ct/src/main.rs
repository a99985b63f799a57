//! `montlab-ct KERNEL`: runs one secret-exponent kernel with the exponent marked secret for
//! valgrind memcheck, then checks the result against the variable-time exponentiation.
//!
//! Under `valgrind --error-exitcode=N`, any branch or memory address that depends on the
//! exponent is an error ("Conditional jump or move depends on uninitialised value(s)", "Use of
//! uninitialised value"): `tests/taint.rs` runs each kernel that way. Kernels:
//! * `cios_pow_sec`: `pow::fixed::pow_sec` (fixed window, masked table scan, CIOS + `sqr`);
//! * `vartime`: `pow::window::pow_vartime`, the negative control, which must be flagged.
//!
//! The moduli and bases are public (an RSA ciphertext is); the exponent's length is public
//! (a modulus-length exponent: all its limbs are processed). Without `cfg(valgrind)` (no
//! headers at build time) the marks are no-ops and the binary says so.
#![allow(unsafe_code)]

use montlab_core::pow::{fixed, window};
use montlab_core::{Limb, MontParams};

#[cfg(valgrind)]
extern "C" {
    fn montlab_ct_secret(p: *const core::ffi::c_void, n: usize);
    fn montlab_ct_public(p: *const core::ffi::c_void, n: usize);
}

/// Marks `v` secret (undefined for memcheck).
fn secret(v: &[Limb]) {
    #[cfg(valgrind)]
    // SAFETY: the pointer and length describe `v`'s initialised memory; the request only
    // changes memcheck's shadow state.
    unsafe {
        montlab_ct_secret(v.as_ptr().cast(), std::mem::size_of_val(v));
    }
    #[cfg(not(valgrind))]
    let _ = v;
}

/// Marks `v` public (defined) again.
fn public(v: &[Limb]) {
    #[cfg(valgrind)]
    // SAFETY: as in `secret`.
    unsafe {
        montlab_ct_public(v.as_ptr().cast(), std::mem::size_of_val(v));
    }
    #[cfg(not(valgrind))]
    let _ = v;
}

/// A deterministic pseudo-random limb stream (splitmix64).
fn limbs(seed: &mut u64, n: usize) -> Vec<Limb> {
    (0..n)
        .map(|_| {
            *seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = *seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

fn main() {
    let kernel = std::env::args().nth(1).unwrap_or_default();
    if !cfg!(valgrind) {
        eprintln!("montlab-ct: built without valgrind headers: secrets are not marked");
    }
    let mut seed = 0x006d_6f6e_746c_6162;
    // Sizes: one limb, an unrolled length (8), and lengths off the unrolled copies (5, 17).
    for s in [1usize, 5, 8, 17] {
        let mut n = limbs(&mut seed, s);
        n[0] |= 1;
        n[s - 1] |= 1 << 63;
        let p = MontParams::from_limbs(&n).expect("odd modulus");
        let mut base = limbs(&mut seed, s);
        base[s - 1] >>= 1; // below N
        for exp in [limbs(&mut seed, s), vec![0; s], vec![Limb::MAX; s]] {
            let want = window::pow_vartime(&p, &base, &exp).expect("base < N");
            let e = exp.clone();
            secret(&e);
            let got = match kernel.as_str() {
                "cios_pow_sec" => fixed::pow_sec(&p, &base, &e).expect("base < N"),
                "vartime" => window::pow_vartime(&p, &base, &e).expect("base < N"),
                other => {
                    eprintln!("montlab-ct: unknown kernel {other:?} (cios_pow_sec, vartime)");
                    std::process::exit(2);
                }
            };
            public(&got);
            assert_eq!(got, want, "{kernel}: wrong result at {s} limbs");
        }
    }
    println!("montlab-ct {kernel}: results correct");
}
