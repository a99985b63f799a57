//! `montlab-ct KERNEL`: runs one secret-exponent kernel with its secrets marked, then checks
//! the result against the variable-time exponentiation. Two tools read the marks:
//! * valgrind memcheck (the ctgrind method): the secrets are marked undefined by client
//!   requests; under `valgrind --error-exitcode=N`, any branch or memory address that depends
//!   on them is an error ("Conditional jump or move depends on uninitialised value(s)", "Use
//!   of uninitialised value"). valgrind has no AVX-512: the harness runs the portable, ADX
//!   and AVX2 paths there.
//! * MemorySanitizer (built with `--cfg montlab_msan`, nightly `-Zsanitizer=memory` and
//!   `-Zbuild-std`, eager checks off): the secrets are poisoned, and a branch or address on
//!   them ends the run with "use-of-uninitialized-value". It runs natively, so on a CPU with
//!   AVX-512 IFMA it checks `amm`'s one- and two-lane kernels and the spectral IFMA loops.
//!   MemorySanitizer cannot see into inline assembly (it checks the operands and clears the
//!   results), so its runs set `MONTLAB_NO_ADX` (the ADX rows are memcheck's), and the one
//!   empty scheduling barrier of `amm`'s 256-bit pair is compiled out under `montlab_msan`.
//!
//! `tests/taint.rs` runs each kernel under both. Kernels:
//! * `cios_pow_sec`: `pow::fixed::pow_sec` (fixed window, masked table scan, CIOS + `sqr`);
//! * `vartime`: `pow::window::pow_vartime`, the negative control, which must be flagged;
//! * `crt_sec`: `pow::crt::CrtKey::pow_sec`, the RSA private operation, with the whole key
//!   (p, q, dp, dq, qinv) and the ciphertext marked secret after the key's public checks;
//! * `crt_prepared`: `CrtKey::prepare` and the prepared key's `pow_sec`, the key marked secret
//!   before its constants are built; `crt_blinded` the same with exponent blinding on;
//! * `crt_vartime`: `CrtKey::pow_vartime`, its control, which must be flagged;
//! * `karatsuba_mul`: `mont::karatsuba::mul_portable`, the split product under the MULX/ADX
//!   Montgomery products from `MIN_LIMBS` (32) limbs (here on the portable rows), with both
//!   operands marked secret; `karatsuba_sqr`: `karatsuba::sqr_portable`, the split square
//!   under the squarings from `SQR_MIN_LIMBS` (64) limbs, its operand secret;
//!   `karatsuba_control` (num-bigint's product, which trims zero limbs) must be flagged;
//! * `redc_n`: `mont::redc_n::redc_portable`, the sub-quadratic REDC under the squarings and
//!   products of long moduli (here on the portable rows), with T marked secret;
//!   `redc_n_control` (num-bigint's remainder) must be flagged;
//! * `spectral_pow_sec`: `pow::fixed::pow_sec_with` on the spectral kernel (transform
//!   lengths 2 to 32: from 16 on, the AVX2 or IFMA transforms where the CPU has them), with
//!   `spectral_vartime` (its sliding window) as the control. The result line names the
//!   transforms that ran (`avx2`, `ifma` or `portable`).
//! * `engine_pow_sec`: `FastModulus::pow_sec`, the call users make, at 1024, 2048, 3072 and
//!   8192 bits (on IFMA: `amm`'s one-lane round, from 7 vectors its lean round and squaring,
//!   and above 16 vectors the cores that keep the numbers in memory);
//!   `engine_pow_sec_many`: `FastModulus::pow_sec_many` on two bases (on IFMA: the two-lane
//!   pairs on 256- and 512-bit vectors); `engine_vartime` (`FastModulus::pow`) must be
//!   flagged. The result line names the kernel of each size (`amm`, `cios`; `pair` where
//!   the batch ran two lanes).
//! * `product_branch`: the tools' own control, a branch on the result of `pow_sec_with` with a
//!   secret exponent (on `amm` with IFMA): it must be flagged, which shows the marks follow
//!   the secret through the masked table scan and the vector products.
//!
//! The moduli and bases are public (an RSA ciphertext is); the exponent's length is public
//! (a modulus-length exponent: all its limbs are processed). Without `cfg(valgrind)` (no
//! headers at build time) or `montlab_msan` the marks are no-ops and the binary says so.
#![allow(unsafe_code)]

use montlab_core::bigarith;
use montlab_core::mont::amm::{self, IfmaParams};
use montlab_core::pow::crt::CrtKey;
use montlab_core::pow::{fixed, window};
use montlab_core::spectral::SpectralParams;
use montlab_core::{FastModulus, Limb, MontParams, OddModulus, Stop};
use num_bigint::BigUint;

#[cfg(all(valgrind, not(montlab_msan)))]
extern "C" {
    fn montlab_ct_secret(p: *const core::ffi::c_void, n: usize);
    fn montlab_ct_public(p: *const core::ffi::c_void, n: usize);
}

#[cfg(montlab_msan)]
extern "C" {
    fn __msan_poison(p: *const core::ffi::c_void, n: usize);
    fn __msan_unpoison(p: *const core::ffi::c_void, n: usize);
}

/// Whether this build marks secrets (for memcheck or MemorySanitizer).
const MARKS: bool = cfg!(any(valgrind, montlab_msan));

/// Marks `v` secret: undefined for memcheck, poisoned for MemorySanitizer.
fn secret(v: &[Limb]) {
    let (p, n) = (v.as_ptr().cast(), std::mem::size_of_val(v));
    // SAFETY: `p` and `n` describe `v`'s initialised memory; the calls only change the
    // tool's shadow state.
    #[cfg(all(valgrind, not(montlab_msan)))]
    unsafe {
        montlab_ct_secret(p, n);
    }
    // SAFETY: as above.
    #[cfg(montlab_msan)]
    unsafe {
        __msan_poison(p, n);
    }
    let _ = (p, n);
}

/// Marks `v` public (defined) again.
fn public(v: &[Limb]) {
    let (p, n) = (v.as_ptr().cast(), std::mem::size_of_val(v));
    // SAFETY: as in `secret`.
    #[cfg(all(valgrind, not(montlab_msan)))]
    unsafe {
        montlab_ct_public(p, n);
    }
    // SAFETY: as in `secret`.
    #[cfg(montlab_msan)]
    unsafe {
        __msan_unpoison(p, n);
    }
    let _ = (p, n);
}

/// The result line's note of the spectral transforms that ran (`avx2`, `ifma` or `portable`).
fn transforms() -> String {
    format!("transforms: {}", montlab_core::spectral::transforms_id())
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

/// The split product on t, t + 1, 2 t and 3 t + 1 limbs for t = `MIN_LIMBS` (one and two
/// levels, even and odd halves), or
/// the split square (`karatsuba_sqr`, of x alone) on t, t + 1 and 2 t limbs for t =
/// `SQR_MIN_LIMBS` (one and two levels, even and odd halves): random operands
/// and operands whose low half is below the high one (both signs of the middle term), marked
/// secret, against num-bigint on public copies.
fn karatsuba(kernel: &str, seed: &mut u64) -> String {
    let square = kernel == "karatsuba_sqr";
    let sizes: Vec<usize> = if square {
        let t = montlab_core::mont::karatsuba::SQR_MIN_LIMBS;
        vec![t, t + 1, 2 * t]
    } else {
        let t = montlab_core::mont::karatsuba::MIN_LIMBS;
        vec![t, t + 1, 2 * t, 3 * t + 1]
    };
    for &n in &sizes {
        let mut low_first = vec![0; n];
        low_first[n - 1] = Limb::MAX;
        for (x, y) in [
            (limbs(seed, n), limbs(seed, n)),
            (low_first.clone(), limbs(seed, n)),
            (limbs(seed, n), low_first),
        ] {
            let product = |a: &[Limb], b: &[Limb]| {
                (bigarith::from_limbs(a) * bigarith::from_limbs(b)).to_u64_digits()
            };
            let mut want = product(&x, if square { &x } else { &y });
            let (xs, ys) = (x.clone(), y.clone());
            secret(&xs);
            secret(&ys);
            let mut got = match kernel {
                "karatsuba_mul" => montlab_core::mont::karatsuba::mul_portable(&xs, &ys),
                "karatsuba_sqr" => montlab_core::mont::karatsuba::sqr_portable(&xs),
                _ => product(&xs, &ys),
            };
            public(&got);
            got.resize(2 * n, 0);
            want.resize(2 * n, 0);
            assert_eq!(got, want, "{kernel}: wrong product at {n} limbs");
        }
    }
    transforms()
}

/// The sub-quadratic REDC on s = `redc_n::CT_MIN_LIMBS` (where the constant-time calls start
/// to use it: four splits), one limb more (odd: the wrapped product longer than s, an odd
/// short product) and 2 `CT_MIN_LIMBS` limbs, for a random N and N = W^s - 1 (public):
/// T = x y for random x, y < N and T = (N - 1)^2, marked secret; checked as out R = T mod N
/// on public copies.
fn redc_n(kernel: &str, seed: &mut u64) -> String {
    let t = montlab_core::mont::redc_n::CT_MIN_LIMBS;
    for s in [t, t + 1, 2 * t] {
        let mut random = limbs(seed, s);
        random[0] |= 1;
        random[s - 1] |= 1 << 63;
        for n in [random, vec![Limb::MAX; s]] {
            let p = MontParams::from_limbs(&n).expect("odd modulus");
            let nb = bigarith::from_limbs(&n);
            let below = |seed: &mut u64| bigarith::from_limbs(&limbs(seed, s)) % &nb;
            let n1 = &nb - 1u8;
            for prod in [below(seed) * below(seed), &n1 * &n1] {
                let mut tl = prod.to_u64_digits();
                tl.resize(2 * s, 0);
                let ts = tl.clone();
                secret(&ts);
                let got = match kernel {
                    "redc_n" => montlab_core::mont::redc_n::redc_portable(&p, &ts),
                    _ => (bigarith::from_limbs(&ts) % &nb).to_u64_digits(),
                };
                public(&got);
                let got = bigarith::from_limbs(&got);
                if kernel == "redc_n" {
                    assert!(got < nb, "{kernel}: not fully reduced at {s} limbs");
                    assert_eq!(
                        (got << (64 * s)) % &nb,
                        prod % &nb,
                        "{kernel}: wrong at {s}"
                    );
                } else {
                    assert_eq!(got, prod % &nb, "{kernel}: wrong remainder at {s} limbs");
                }
            }
        }
    }
    transforms()
}

/// The CRT kernels on keys of 1, 2, 9 and 16 limbs a prime, random exponents and ciphertexts.
fn crt(kernel: &str, seed: &mut u64) -> String {
    let pairs = montlab_core::pow::crt::prime_pairs();
    for (p, q) in pairs {
        let s = p.to_u64_digits().len();
        let below = |seed: &mut u64, m: &BigUint| bigarith::from_limbs(&limbs(seed, s)) % m;
        let (dp, dq) = (below(seed, &(&p - 1u8)), below(seed, &(&q - 1u8)));
        let qinv = montlab_core::inverse::mod_inverse(&q, &p).expect("p, q distinct primes");
        let key = CrtKey::new(
            &p.to_u64_digits(),
            &q.to_u64_digits(),
            &dp.to_u64_digits(),
            &dq.to_u64_digits(),
            &qinv.to_u64_digits(),
        )
        .expect("a valid key");
        for c in [limbs(seed, 2 * s), vec![0; 2 * s], vec![Limb::MAX; 2 * s]] {
            let want = key.pow_vartime(&c, Stop::never()).expect("c fits");
            for v in key.secret_limbs() {
                secret(v);
            }
            secret(&c);
            let got = match kernel {
                "crt_sec" => key.pow_sec(&c, Stop::never()),
                "crt_prepared" => key.clone().prepare().pow_sec(&c, Stop::never()),
                "crt_blinded" => {
                    let prepared = key.clone().prepare();
                    prepared.set_blinding(true);
                    prepared.pow_sec(&c, Stop::never())
                }
                _ => key.pow_vartime(&c, Stop::never()),
            }
            .expect("c fits");
            public(&got);
            for v in key.secret_limbs() {
                public(v);
            }
            public(&c);
            assert_eq!(got, want, "{kernel}: wrong result at {s} limbs");
        }
    }
    transforms()
}

/// The spectral kernels on moduli of 1, 2, 3, 5, 9 and 17 limbs (P = 2, 2, 4, 8, 16, 32).
fn spectral(kernel: &str, seed: &mut u64) -> String {
    for s in [1usize, 2, 3, 5, 9, 17] {
        let mut n = limbs(seed, s);
        n[0] |= 1;
        n[s - 1] |= 1 << 63;
        let m = OddModulus::new(&n).expect("odd modulus");
        // Seeded moduli, none sharing a factor with 2^l + 1: every size runs.
        let k = SpectralParams::new(&m).expect("a spectral kernel for the seeded modulus");
        let mut base = limbs(seed, s);
        base[s - 1] >>= 1; // below N
        for exp in [limbs(seed, s), vec![0; s], vec![Limb::MAX; s]] {
            let want = window::pow_vartime_with(&k, &base, &exp);
            let e = exp.clone();
            secret(&e);
            let got = match kernel {
                "spectral_pow_sec" => {
                    fixed::pow_sec_with(&k, &base, &e, Stop::never()).expect("never stopped")
                }
                _ => window::pow_vartime_with(&k, &base, &e),
            };
            public(&got);
            assert_eq!(got, want, "{kernel}: wrong result at {s} limbs");
        }
    }
    transforms()
}

/// `FastModulus::pow_sec` / `pow_sec_many` (or the variable-time `pow`, the control) on
/// random moduli of 1024, 2048, 3072 and 8192 bits: two bases, exponent pairs random and
/// (zero, all ones), the exponents marked secret. Returns the kernel of each size.
fn engine(kernel: &str, seed: &mut u64) -> String {
    let mut ran = Vec::new();
    for bits in [1024usize, 2048, 3072, 8192] {
        let s = bits / 64;
        let mut n = limbs(seed, s);
        n[0] |= 1;
        n[s - 1] |= 1 << 63;
        let m = FastModulus::new(&n).expect("odd modulus");
        let bases = [limbs(seed, s), limbs(seed, s)].map(|mut b| {
            b[s - 1] >>= 1; // below N
            b
        });
        for exps in [
            [limbs(seed, s), limbs(seed, s)],
            [vec![0; s], vec![Limb::MAX; s]],
        ] {
            let want: Vec<BigUint> = bases
                .iter()
                .zip(&exps)
                .map(|(b, e)| bigarith::from_limbs(&m.pow(b, e).expect("base < N")))
                .collect();
            let es = exps.clone();
            es.iter().for_each(|e| secret(e));
            let got = match kernel {
                "engine_pow_sec" => bases
                    .iter()
                    .zip(&es)
                    .map(|(b, e)| m.pow_sec(b, e))
                    .collect(),
                "engine_pow_sec_many" => m.pow_sec_many(&bases, &es, None),
                _ => bases
                    .iter()
                    .zip(&es)
                    .map(|(b, e)| m.pow(b, e))
                    .collect::<Result<Vec<_>, _>>(),
            }
            .expect("base < N");
            got.iter().for_each(|g| public(g));
            let got: Vec<BigUint> = got.iter().map(|g| bigarith::from_limbs(g)).collect();
            assert_eq!(got, want, "{kernel}: wrong result at {bits} bits");
        }
        let pair = kernel == "engine_pow_sec_many" && m.pair_ifma().is_some();
        let id = m.pow_sec_kernel_id();
        ran.push(format!("{bits}: {id}{}", if pair { " pair" } else { "" }));
    }
    format!("kernels: {}", ran.join(", "))
}

/// The tools' own control: a branch on the result of a constant-time exponentiation with a
/// secret exponent (on `amm` where the CPU has IFMA, else CIOS), which must be flagged: the
/// marks follow the secret through the masked table scan and the vector products. Names the
/// kernel on stderr before the branch.
fn product_branch(seed: &mut u64) {
    let s = 16;
    let mut n = limbs(seed, s);
    n[0] |= 1;
    n[s - 1] |= 1 << 63;
    let modulus = OddModulus::new(&n).expect("odd modulus");
    let mut base = limbs(seed, s);
    base[s - 1] >>= 1; // below N
    let e = limbs(seed, s);
    secret(&e);
    let power = match IfmaParams::new(&modulus).filter(|_| amm::enabled()) {
        Some(p) => {
            eprintln!("montlab-ct product_branch: amm");
            fixed::pow_sec_with(&p, &base, &e, Stop::never())
        }
        None => {
            eprintln!("montlab-ct product_branch: cios");
            fixed::pow_sec_with(&MontParams::new(modulus), &base, &e, Stop::never())
        }
    }
    .expect("never stopped");
    // The branch on the secret result (two different calls, which no select can merge).
    if power[0] & 1 == 1 {
        println!("montlab-ct product_branch: the power is odd");
    } else {
        eprintln!("montlab-ct product_branch: the power is even");
    }
}

fn main() {
    let kernel = std::env::args().nth(1).unwrap_or_default();
    if !MARKS {
        eprintln!("montlab-ct: built without valgrind headers: secrets are not marked");
    }
    if kernel == "product_branch" {
        product_branch(&mut 0x0070_726f_6475_6374);
        return;
    }
    // The families with their own drivers: (prefix, kernels, driver, seed). A driver returns
    // what its result line names.
    type Driver = fn(&str, &mut u64) -> String;
    let families: [(&str, &[&str], Driver, u64); 5] = [
        (
            "redc_n",
            &["redc_n", "redc_n_control"],
            redc_n,
            0x0072_6564_635f_6e00,
        ),
        (
            "karatsuba_",
            &["karatsuba_mul", "karatsuba_sqr", "karatsuba_control"],
            karatsuba,
            0x006b_6172_6174_7375,
        ),
        (
            "spectral_",
            &["spectral_pow_sec", "spectral_vartime"],
            spectral,
            0x0073_7065_6374_7261,
        ),
        (
            "crt_",
            &["crt_sec", "crt_prepared", "crt_blinded", "crt_vartime"],
            crt,
            0x0063_7274_6b65_7973,
        ),
        (
            "engine_",
            &["engine_pow_sec", "engine_pow_sec_many", "engine_vartime"],
            engine,
            0x0065_6e67_696e_6573,
        ),
    ];
    for (prefix, kernels, driver, mut seed) in families {
        if kernel.starts_with(prefix) {
            if !kernels.contains(&kernel.as_str()) {
                eprintln!("montlab-ct: unknown kernel {kernel:?}");
                std::process::exit(2);
            }
            let detail = driver(&kernel, &mut seed);
            println!("montlab-ct {kernel}: results correct ({detail})");
            return;
        }
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
                    let known: Vec<&str> = ["cios_pow_sec", "vartime", "product_branch"]
                        .into_iter()
                        .chain(families.iter().flat_map(|f| f.1.iter().copied()))
                        .collect();
                    eprintln!(
                        "montlab-ct: unknown kernel {other:?} ({})",
                        known.join(", ")
                    );
                    std::process::exit(2);
                }
            };
            public(&got);
            assert_eq!(got, want, "{kernel}: wrong result at {s} limbs");
        }
    }
    println!("montlab-ct {kernel}: results correct");
}
