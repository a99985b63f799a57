//! `pow::window::pow_vartime` against plain square-and-multiply on num-bigint: proptest over
//! 1..=64-limb moduli and exponents up to 768 bits (every window size), plus structured cases.

mod common;

use common::{edge_moduli, hexdump, limbs, oracle_pow, strip, Rng};
use montlab_core::pow::window;
use montlab_core::{MontError, MontParams};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;

fn check(n: &BigUint, base: &BigUint, e: &BigUint) -> Result<(), String> {
    let p = MontParams::from_limbs(&limbs(n)).map_err(|err| format!("params: {err}"))?;
    let dump = || hexdump(&[("N", n), ("base", base), ("e", e)]);
    let got = window::pow_vartime(&p, &limbs(base), &limbs(e))
        .map_err(|err| format!("pow failed: {err}; {}", dump()))?;
    if got.len() != p.s() {
        return Err(format!(
            "pow returned {} limbs, expected s = {}; {}",
            got.len(),
            p.s(),
            dump()
        ));
    }
    let want = oracle_pow(base, e, n);
    if strip(got.clone()) != limbs(&want) {
        return Err(format!(
            "pow: got {:#x} want {want:#x}; {}",
            common::big(&got),
            dump()
        ));
    }
    Ok(())
}

/// Exponents: 0, 1, 2, small, and random up to 12 limbs (768 bits, window size 6).
fn exponent() -> impl Strategy<Value = BigUint> {
    prop_oneof![
        1 => Just(BigUint::zero()),
        1 => Just(BigUint::one()),
        1 => Just(BigUint::from(2u8)),
        2 => any::<u16>().prop_map(BigUint::from),
        6 => proptest::collection::vec(any::<u64>(), 1..=12).prop_map(|v| common::big(&v)),
    ]
}

proptest! {
    #![proptest_config(common::proptest_config(128))]

    #[test]
    fn pow_matches_square_and_multiply((n, base) in common::modulus().prop_flat_map(|n| {
        let b = common::operand(&n);
        (Just(n), b)
    }), e in exponent()) {
        if let Err(msg) = check(&n, &base, &e) {
            return Err(TestCaseError::fail(msg));
        }
    }

    #[test]
    fn pow_rejects_base_at_or_above_n(n in common::modulus(), k in 0u8..3) {
        let p = MontParams::from_limbs(&limbs(&n)).unwrap();
        let base = &n + BigUint::from(k);
        prop_assert_eq!(
            window::pow_vartime(&p, &limbs(&base), &[3]),
            Err(MontError::OperandOutOfRange { which: "base" })
        );
    }
}

#[test]
fn pow_edge_cases_on_edge_moduli() {
    let mut rng = Rng::new(
        common::seed("pow_window::pow_edge_cases_on_edge_moduli"),
        "pow-edge",
    );
    let mut checked = 0usize;
    // Every seventh edge modulus keeps the sweep quick; all limb counts stay represented.
    for n in edge_moduli().iter().step_by(7) {
        let hi = n - 1u8;
        let r = rng.below(n);
        let mut cases = Vec::new();
        // Every edge base with the short exponents 0, 1, 2.
        for b in [BigUint::zero(), BigUint::one(), hi.clone(), r.clone()] {
            for e in 0u8..3 {
                cases.push((b.clone(), BigUint::from(e)));
            }
        }
        // Long exponents: e = N - 1 (capped at 1024 bits, the naive oracle costs bits(e) big
        // products) and a 700-bit random one (window size 6).
        let full = if n.bits() <= 1024 {
            hi.clone()
        } else {
            &hi >> (n.bits() - 1024)
        };
        let long = rng.below(&(BigUint::one() << 700u32));
        cases.push((hi.clone(), full.clone()));
        cases.push((r.clone(), full));
        cases.push((r, long));
        for (b, e) in &cases {
            if let Err(msg) = check(n, b, e) {
                panic!("{msg}");
            }
            checked += 1;
        }
    }
    println!("pow edge sweep: {checked} cases");
}

#[test]
fn exponent_zero_and_base_zero() {
    let p = MontParams::from_limbs(&[3]).unwrap();
    assert_eq!(window::pow_vartime(&p, &[0], &[]).unwrap(), vec![1]); // 0^0 = 1, as Python
    assert_eq!(window::pow_vartime(&p, &[0], &[0, 0]).unwrap(), vec![1]);
    assert_eq!(window::pow_vartime(&p, &[0], &[5]).unwrap(), vec![0]);
    assert_eq!(window::pow_vartime(&p, &[2], &[1]).unwrap(), vec![2]);
    // Fermat: 2^(p-1) = 1 mod the Mersenne prime 2^521 - 1 (9 limbs).
    let mut m521 = vec![u64::MAX; 9];
    m521[8] = 0x1ff;
    let p = MontParams::from_limbs(&m521).unwrap();
    let mut e = m521.clone();
    e[0] -= 1;
    let mut one = vec![0; 9];
    one[0] = 1;
    assert_eq!(window::pow_vartime(&p, &[2], &e).unwrap(), one);
}
