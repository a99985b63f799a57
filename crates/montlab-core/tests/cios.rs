//! `cios` against the num-bigint oracle: proptest equivalence over 1..=64 limbs, and a sweep of
//! structured edge moduli with edge and seeded random operands.

mod common;

use common::{big, edge_moduli, edge_operands, hexdump, limbs, oracle_mont_mul, strip, Rng};
use montlab_core::mont::cios;
use montlab_core::{MontError, MontParams};
use num_bigint::BigUint;
use proptest::prelude::*;

fn params(n: &BigUint) -> MontParams {
    MontParams::from_limbs(&limbs(n)).expect("test moduli are odd and > 1")
}

/// Checks mul, to_mont and from_mont for one (N, x, y) against the oracle; Err has a hex dump.
fn check(p: &MontParams, n: &BigUint, x: &BigUint, y: &BigUint) -> Result<(), String> {
    let (s, r) = common::s_and_r(n);
    let dump = || hexdump(&[("N", n), ("x", x), ("y", y)]);
    let got = cios::mont_mul(p, &limbs(x), &limbs(y))
        .map_err(|e| format!("mul failed: {e}; {}", dump()))?;
    if got.len() != s {
        return Err(format!(
            "mul returned {} limbs, expected s = {s}; {}",
            got.len(),
            dump()
        ));
    }
    let want = oracle_mont_mul(x, y, n);
    if strip(got.clone()) != limbs(&want) {
        return Err(format!(
            "mul: got {:#x} want {want:#x}; {}",
            big(&got),
            dump()
        ));
    }
    let xm = cios::to_mont(p, &limbs(x)).map_err(|e| format!("to_mont failed: {e}; {}", dump()))?;
    let want_xm = x * &r % n;
    if strip(xm.clone()) != limbs(&want_xm) {
        return Err(format!(
            "to_mont: got {:#x} want {want_xm:#x}; {}",
            big(&xm),
            dump()
        ));
    }
    let back = cios::from_mont(p, &xm).map_err(|e| format!("from_mont failed: {e}; {}", dump()))?;
    if strip(back.clone()) != limbs(x) {
        return Err(format!(
            "from_mont(to_mont(x)) = {:#x}; {}",
            big(&back),
            dump()
        ));
    }
    let y_out =
        cios::from_mont(p, &limbs(y)).map_err(|e| format!("from_mont failed: {e}; {}", dump()))?;
    let want_y = oracle_mont_mul(y, &BigUint::from(1u8), n);
    if strip(y_out.clone()) != limbs(&want_y) {
        return Err(format!(
            "from_mont(y): got {:#x} want {want_y:#x}; {}",
            big(&y_out),
            dump()
        ));
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(512))]

    #[test]
    fn mul_to_from_match_bigint((n, x, y) in common::modulus().prop_flat_map(|n| {
        let (ox, oy) = (common::operand(&n), common::operand(&n));
        (Just(n), ox, oy)
    })) {
        let p = params(&n);
        prop_assert_eq!(p.modulus(), &limbs(&n)[..]);
        if let Err(msg) = check(&p, &n, &x, &y) {
            return Err(TestCaseError::fail(msg));
        }
    }

    #[test]
    fn params_match_definitions(n in common::modulus()) {
        let p = params(&n);
        let (s, r) = common::s_and_r(&n);
        prop_assert_eq!(p.s(), s);
        prop_assert_eq!(big(p.r_mod_n()), &r % &n);
        prop_assert_eq!(big(p.r2_mod_n()), &r * &r % &n);
        // n0_inv * N = -1 mod 2^64.
        prop_assert_eq!(p.n0_inv().wrapping_mul(p.modulus()[0]), u64::MAX);
    }

    #[test]
    fn rejects_operands_at_or_above_n(n in common::modulus(), extra in any::<u64>()) {
        let p = params(&n);
        let at_or_above = &n + BigUint::from(extra % 3) * (&n >> 1u8) + extra % 2;
        prop_assert_eq!(
            cios::mont_mul(&p, &limbs(&at_or_above), &[1]),
            Err(MontError::OperandOutOfRange { which: "x" })
        );
        prop_assert_eq!(
            cios::mont_mul(&p, &[0], &limbs(&at_or_above)),
            Err(MontError::OperandOutOfRange { which: "y" })
        );
        prop_assert_eq!(cios::to_mont(&p, &limbs(&at_or_above)), Err(MontError::OperandOutOfRange { which: "x" }));
        prop_assert_eq!(cios::from_mont(&p, &limbs(&at_or_above)), Err(MontError::OperandOutOfRange { which: "x" }));
    }
}

#[test]
fn edge_moduli_with_edge_and_random_operands() {
    let mut rng = Rng::new(
        common::seed("cios::edge_moduli_with_edge_and_random_operands"),
        "cios-edge",
    );
    let random_per_modulus = common::scaled(4);
    let moduli = edge_moduli();
    let mut checked = 0usize;
    for n in &moduli {
        let p = params(n);
        let mut pairs = edge_operands(n);
        for _ in 0..random_per_modulus {
            pairs.push((rng.below(n), rng.below(n)));
        }
        for (x, y) in &pairs {
            if let Err(msg) = check(&p, n, x, y) {
                panic!("{msg}");
            }
            checked += 1;
        }
    }
    println!(
        "cios edge sweep: {} moduli, {checked} operand pairs",
        moduli.len()
    );
    assert!(
        moduli.len() > 64 * 8,
        "edge generator lost moduli: {}",
        moduli.len()
    );
}

#[test]
fn modulus_three_and_all_ones_by_hand() {
    // N = 3: R = 2^64 = 1 mod 3, so REDC(x, y) = x * y mod 3.
    let p = MontParams::from_limbs(&[3]).unwrap();
    assert_eq!(cios::mont_mul(&p, &[2], &[2]).unwrap(), vec![1]);
    // N = 2^(64 s) - 1: R = 1 mod N, so (N-1)^2 * R^-1 = 1 for every s.
    for s in 1..=64 {
        let n = vec![u64::MAX; s];
        let mut nm1 = n.clone();
        nm1[0] -= 1;
        let p = MontParams::from_limbs(&n).unwrap();
        let mut one = vec![0; s];
        one[0] = 1;
        assert_eq!(cios::mont_mul(&p, &nm1, &nm1).unwrap(), one, "s = {s}");
    }
}

#[test]
fn kernel_is_allocation_free_and_reusable() {
    // The raw kernel reuses caller buffers, whatever their previous contents.
    let n = BigUint::from(0xffff_ffff_ffff_ffc5u64) * BigUint::from(0xffff_ffff_ffff_ff59u64); // odd
    let p = params(&n);
    let s = p.s();
    let (mut out, mut t) = (vec![u64::MAX; s], vec![u64::MAX; cios::scratch_len(s)]);
    let x = p.operand(&[5], "x").unwrap();
    let y = p.operand(&[7, 1], "y").unwrap();
    cios::mont_mul_into(&p, &x, &y, &mut out, &mut t);
    let want = oracle_mont_mul(&big(&x), &big(&y), &n);
    assert_eq!(strip(out), limbs(&want));
}
