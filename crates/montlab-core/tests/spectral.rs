//! `spectral::kernel` against the num-bigint oracle: Montgomery products with R = 2^l + 1 and
//! exponentiation, on proptest moduli of 1..=64 limbs, structured edge moduli, forced longer
//! transforms, moduli that share a factor with 2^l + 1, and long transforms (P up to 1024,
//! where the IFMA loads, products, transforms and CRT run when the CPU has them).

mod common;

use common::{big, edge_moduli, edge_operands, hexdump, limbs, oracle_pow, strip, Rng};
use montlab_core::spectral::SpectralParams;
use montlab_core::{MontError, OddModulus};
use num_bigint::BigUint;
use num_traits::One;
use proptest::prelude::*;

fn params(n: &BigUint) -> SpectralParams {
    SpectralParams::new(&OddModulus::new(&limbs(n)).unwrap())
        .unwrap_or_else(|| panic!("no spectral kernel for N={n:#x}"))
}

/// x y R^-1 mod N with R = 2^l + 1.
fn oracle(x: &BigUint, y: &BigUint, n: &BigUint, l: u64) -> BigUint {
    let r = (BigUint::one() << l) + 1u8;
    let r_inv = r.modinv(n).expect("gcd(N, R) = 1");
    x * y % n * r_inv % n
}

fn check_mul(p: &SpectralParams, n: &BigUint, x: &BigUint, y: &BigUint) -> Result<(), String> {
    let got = p
        .mont_mul(&limbs(x), &limbs(y))
        .map_err(|e| format!("mont_mul: {e}"))?;
    let want = oracle(x, y, n, p.l_bits());
    if strip(got.clone()) != limbs(&want) {
        return Err(format!(
            "spectral mont_mul: got {:#x} want {want:#x}; P={} {}",
            big(&got),
            p.transform_len(),
            hexdump(&[("N", n), ("x", x), ("y", y)])
        ));
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(96))]

    #[test]
    fn mont_mul_matches_oracle((n, x, y) in common::modulus().prop_flat_map(|n| {
        let (x, y) = (common::operand(&n), common::operand(&n));
        (Just(n), x, y)
    })) {
        // Moduli sharing a factor with 2^l + 1 take a longer transform; the oracle uses its l.
        let p = params(&n);
        if let Err(msg) = check_mul(&p, &n, &x, &y) {
            return Err(TestCaseError::fail(msg));
        }
    }
}

#[test]
fn edge_moduli_and_operands() {
    let seed = common::seed("spectral::edge_moduli_and_operands");
    let mut rng = Rng::new(seed, "spectral-edge");
    for n in edge_moduli() {
        let p = params(&n);
        for (x, y) in edge_operands(&n) {
            check_mul(&p, &n, &x, &y).unwrap();
        }
        let (x, y) = (rng.below(&n), rng.below(&n));
        check_mul(&p, &n, &x, &y).unwrap();
    }
}

#[test]
fn longer_transforms_and_near_maximal_inputs() {
    // N = 2^l - 1 - small fills every digit; forcing P up to 8x the minimum checks the
    // zero-padded digits and the wider rings.
    let seed = common::seed("spectral::longer_transforms");
    let mut rng = Rng::new(seed, "spectral-long");
    for s in [1usize, 2, 3, 8, 16] {
        for k in [1u8, 3, 59] {
            let n = (BigUint::one() << (64 * s)) - k;
            let m = OddModulus::new(&limbs(&n)).unwrap();
            let minimum = s.next_power_of_two().max(2);
            for p_len in [minimum, 2 * minimum, 8 * minimum] {
                let Some(p) = SpectralParams::with_len(&m, p_len) else {
                    continue;
                };
                let hi = &n - 1u8;
                check_mul(&p, &n, &hi, &hi).unwrap();
                check_mul(&p, &n, &rng.below(&n), &hi).unwrap();
            }
        }
    }
}

#[test]
fn fermat_factor_moduli_have_no_spectral_kernel() {
    // 2^128 + 1 = 59649589127497217 * 5704689200685129054721, and P = 2 gives R = 2^128 + 1:
    // no kernel at N's own length (the engine runs the word-level kernel), although a longer
    // transform would work.
    let f7 = 59_649_589_127_497_217u64;
    let m = OddModulus::new(&[f7]).unwrap();
    assert!(SpectralParams::with_len(&m, 2).is_none());
    assert!(SpectralParams::new(&m).is_none());
    let p = SpectralParams::with_len(&m, 4).unwrap();
    assert_eq!(p.transform_len(), 4);
    let n = BigUint::from(f7);
    check_mul(&p, &n, &BigUint::from(f7 - 1), &BigUint::from(12345u32)).unwrap();
    // N = 2^128 + 1 itself (three limbs) needs P = 4 anyway: R = 2^256 + 1 is coprime to it.
    let n = (BigUint::one() << 128) + 1u8;
    let p = params(&n);
    check_mul(&p, &n, &(&n - 1u8), &(&n - 2u8)).unwrap();
}

#[test]
fn pow_matches_oracle() {
    let seed = common::seed("spectral::pow_matches_oracle");
    let mut rng = Rng::new(seed, "spectral-pow");
    for _ in 0..common::scaled(12) {
        let s = 1 + (rng.next_u64() % 40) as usize;
        let mut v: Vec<u64> = (0..s).map(|_| rng.next_u64()).collect();
        v[0] |= 1;
        v[s - 1] |= 1 << 63;
        let n = big(&v);
        let p = params(&n);
        let base = rng.below(&n);
        let e_limbs = 1 + (rng.next_u64() % 6) as usize;
        let e = big(&(0..e_limbs).map(|_| rng.next_u64()).collect::<Vec<_>>());
        let got = p.pow_vartime(&limbs(&base), &limbs(&e)).unwrap();
        let want = oracle_pow(&base, &e, &n);
        assert_eq!(
            strip(got),
            limbs(&want),
            "{}",
            hexdump(&[("N", &n), ("base", &base), ("e", &e)])
        );
    }
    let p = params(&BigUint::from(101u8));
    assert_eq!(p.pow_vartime(&[100], &[0]).unwrap(), vec![1]);
    assert_eq!(p.pow_vartime(&[0], &[7]).unwrap(), vec![0]);
    assert_eq!(
        p.pow_vartime(&[101], &[1]),
        Err(MontError::OperandOutOfRange { which: "base" })
    );
}

#[test]
fn long_transforms_random_and_extreme_operands() {
    let seed = common::seed("spectral::long_transforms");
    let mut rng = Rng::new(seed, "spectral-long-p");
    for s in [96usize, 256, 1024] {
        let mut v: Vec<u64> = (0..s).map(|_| rng.next_u64()).collect();
        v[0] |= 1;
        v[s - 1] |= 1 << 63;
        let n = big(&v);
        let p = params(&n);
        let hi = &n - 1u8;
        let ops = [
            (rng.below(&n), rng.below(&n)),
            (hi.clone(), hi.clone()),
            (BigUint::one(), hi.clone()),
            (BigUint::from(0u8), rng.below(&n)),
            ((BigUint::one() << (64 * s - 1)) - 1u8, hi.clone()),
        ];
        for (x, y) in &ops {
            check_mul(&p, &n, x, y).unwrap();
        }
        // Exponentiation: prepared table entries, to_mont and from_mont.
        let base = rng.below(&n);
        let e = big(&[rng.next_u64(), rng.next_u64()]);
        let got = p.pow_vartime(&limbs(&base), &limbs(&e)).unwrap();
        assert_eq!(strip(got), limbs(&oracle_pow(&base, &e, &n)), "s={s}");
    }
}

/// `pow_sec`'s table scan leaves out the nega-cyclic transform, which only a left operand reads:
/// the gathered entry multiplies correctly as a right operand, and is refused as a left one
/// rather than read short.
#[test]
fn gathered_entry_is_a_right_operand_only() {
    use montlab_core::pow::fixed::CtKernel;
    use montlab_core::pow::MontKernel;
    let test = "gathered_entry_is_a_right_operand_only";
    let mut rng = Rng::new(common::seed(test), test);
    let mut n = rng.below(&(BigUint::one() << 3000u32)) | (BigUint::one() << 2999u32);
    n |= BigUint::one();
    let p = params(&n);
    let s = limbs(&n).len();
    let operand = |rng: &mut Rng| {
        let mut v = limbs(&rng.below(&n));
        v.resize(s, 0);
        v
    };
    let mut sc = p.scratch();
    let table: Vec<_> = (0..4)
        .map(|_| {
            let mut e = p.wrap(&operand(&mut rng));
            p.prepare(&mut e, &mut sc);
            e
        })
        .collect();
    let x = p.wrap(&operand(&mut rng));
    let mut sel = table[0].clone();
    p.gather(&table, 2, &mut sel);
    let mut out = x.clone();
    p.mul(&x, &sel, &mut out, &mut sc);
    let mut want = x.clone();
    p.mul(&x, &table[2], &mut want, &mut sc);
    assert_eq!(p.unwrap(&out), p.unwrap(&want));
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        p.mul(&sel, &x, &mut out, &mut sc);
    }));
    assert!(
        refused.is_err(),
        "a gathered entry was taken as a left operand"
    );
}
