//! `FastModulus` against the num-bigint oracle on both sides of every threshold: the generic
//! table's cut-overs (exact sizes cut - 65 .. cut + 64, and ntt_redc_pow_bits with e = 65537,
//! where `pow` runs before anything builds spectral), tables moved down to small sizes so
//! proptest reaches the spectral kernel on 1..=64-limb moduli, edge moduli (2^k +- small,
//! all-ones) with x = y = N - 1, constant-time `pow_sec`, and the batch calls.

mod common;

use common::{big, edge_moduli, edge_operands, hexdump, limbs, oracle_pow, strip, Rng};
use montlab_core::engine::{NTT_REDC_FILL_MAX_BITS, NTT_REDC_MIN_FILL, SEC_EXP_MAX_BITS};
use montlab_core::{Cut, FastModulus, Kernel, MontError, Thresholds};
use num_bigint::BigUint;
use num_traits::One;
use proptest::prelude::*;

fn check(
    m: &FastModulus,
    n: &BigUint,
    x: &BigUint,
    y: &BigUint,
    e: &BigUint,
) -> Result<(), String> {
    let dump = || {
        format!(
            "{} kernels {:?}/{:?}",
            hexdump(&[("N", n), ("x", x), ("y", y), ("e", e)]),
            m.mul_kernel(),
            m.pow_kernel()
        )
    };
    let s = m.modulus().len();
    // pow first: before mul builds spectral, a short exponent runs on ntt_redc (from its cut).
    let want = oracle_pow(x, e, n);
    let got = m
        .pow(&limbs(x), &limbs(e))
        .map_err(|err| format!("pow: {err}"))?;
    if got.len() != s || strip(got.clone()) != limbs(&want) {
        return Err(format!("pow: got {:#x}; {}", big(&got), dump()));
    }
    let got = m
        .mul(&limbs(x), &limbs(y))
        .map_err(|err| format!("mul: {err}"))?;
    if got.len() != s || strip(got.clone()) != limbs(&(x * y % n)) {
        return Err(format!("mul: got {:#x}; {}", big(&got), dump()));
    }
    let got = m.sqr(&limbs(x)).map_err(|err| format!("sqr: {err}"))?;
    if strip(got.clone()) != limbs(&(x * x % n)) {
        return Err(format!("sqr: got {:#x}; {}", big(&got), dump()));
    }
    let got = m
        .pow_sec(&limbs(x), &limbs(e))
        .map_err(|err| format!("pow_sec: {err}"))?;
    if strip(got.clone()) != limbs(&want) {
        return Err(format!("pow_sec: got {:#x}; {}", big(&got), dump()));
    }
    Ok(())
}

/// A random modulus of exactly `bits` bits.
fn modulus_of(rng: &mut Rng, bits: u64) -> BigUint {
    let s = bits.div_ceil(64) as usize;
    let v: Vec<u64> = (0..s).map(|_| rng.next_u64()).collect();
    let x = big(&v) % (BigUint::one() << (bits - 1));
    x | (BigUint::one() << (bits - 1)) | BigUint::one()
}

/// The kernel a short exponentiation on a fresh `bits`-bit modulus runs on under `t`: the word
/// level where `spectral_pow_bits` is off or below `ntt_redc_pow_bits`, and where N would fill
/// less than `NTT_REDC_MIN_FILL` of ntt_redc's transform below twice the cut and 2^16 bits.
fn short_kernel(t: &Thresholds, bits: u64) -> Kernel {
    let s = bits.div_ceil(64) as usize;
    let (num, den) = NTT_REDC_MIN_FILL;
    let sparse = bits < 2 * t.ntt_redc_pow_bits
        && bits < NTT_REDC_FILL_MAX_BITS
        && s * den < num * montlab_core::spectral::ntt_redc::transform_len_for(s);
    if !t.spectral_pow_bits.on(bits) || bits < t.ntt_redc_pow_bits || sparse {
        Kernel::Word
    } else {
        Kernel::NttRedc
    }
}

#[test]
fn both_sides_of_the_generic_thresholds() {
    let seed = common::seed("engine::generic_thresholds");
    let mut rng = Rng::new(seed, "engine-generic");
    let t = Thresholds::generic();
    // Both sides of every switch point (a cut may switch the spectral kernel off again).
    let cuts = [
        t.spectral_mul_bits,
        t.spectral_pow_bits,
        t.spectral_sec_bits,
    ];
    for &cut in cuts.iter().flat_map(|c| c.points()) {
        for bits in [cut - 65, cut - 1, cut, cut + 1, cut + 64] {
            let n = modulus_of(&mut rng, bits);
            let m = FastModulus::new(&limbs(&n)).unwrap();
            let side = |c: Cut| {
                if c.on(bits) {
                    Kernel::Spectral
                } else {
                    Kernel::Word
                }
            };
            // A fresh 64-bit exponent: short, so ntt_redc or the word level, spectral not built.
            let short = short_kernel(&t, bits);
            assert_eq!(m.pow_kernel_for(64), short);
            let (x, e) = (rng.below(&n), BigUint::from(rng.next_u64()));
            check(&m, &n, &x, &(&n - 1u8), &e).unwrap();
            assert_eq!(m.mul_kernel(), side(t.spectral_mul_bits));
            assert_eq!(m.pow_kernel(), side(t.spectral_pow_bits));
            assert_eq!(m.pow_sec_kernel(), side(t.spectral_sec_bits));
        }
    }
    // Both sides of ntt_redc_pow_bits, with the short exponent 65537.
    let cut = t.ntt_redc_pow_bits;
    for bits in [cut - 1, cut, cut + 1] {
        let n = modulus_of(&mut rng, bits);
        let m = FastModulus::new(&limbs(&n)).unwrap();
        assert_eq!(m.pow_kernel_for(17), short_kernel(&t, bits), "bits={bits}");
        let x = rng.below(&n);
        let e = BigUint::from(65_537u32);
        let got = m.pow(&limbs(&x), &limbs(&e)).unwrap();
        assert_eq!(big(&got), oracle_pow(&x, &e, &n), "bits={bits}");
    }
}

#[test]
fn edge_moduli_on_both_kernels() {
    let seed = common::seed("engine::edge_moduli");
    let mut rng = Rng::new(seed, "engine-edge");
    for cut in [2u64, u64::MAX] {
        let t = Thresholds {
            spectral_mul_bits: Cut::at(cut),
            spectral_pow_bits: Cut::at(cut),
            ntt_redc_pow_bits: cut,
            spectral_sec_bits: Cut::at(cut),
            ..Thresholds::generic()
        };
        for n in edge_moduli().into_iter().filter(|n| n.bits() <= 1100) {
            let m = FastModulus::with_thresholds(&limbs(&n), t).unwrap();
            for (x, y) in edge_operands(&n) {
                let e = BigUint::from(rng.next_u64() >> 40);
                check(&m, &n, &x, &y, &e).unwrap();
            }
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(48))]

    /// Random and structured moduli with the cut-over at a random size: each case lands on one
    /// side, and over the run both kernels meet every modulus shape.
    #[test]
    fn matches_oracle_with_moved_thresholds(
        (n, x, y) in common::modulus().prop_flat_map(|n| {
            let (x, y) = (common::operand(&n), common::operand(&n));
            (Just(n), x, y)
        }),
        cut in 2u64..4096,
        e in proptest::collection::vec(any::<u64>(), 0..3),
    ) {
        let t = Thresholds {
            spectral_mul_bits: Cut::at(cut),
            spectral_pow_bits: Cut::at(cut),
            ntt_redc_pow_bits: cut,
            spectral_sec_bits: Cut::at(cut),
            ..Thresholds::generic()
        };
        let m = FastModulus::with_thresholds(&limbs(&n), t).unwrap();
        if let Err(msg) = check(&m, &n, &x, &y, &big(&e)) {
            return Err(TestCaseError::fail(msg));
        }
    }
}

/// Batches keep input order and match the oracle, on the worker threads and on a one-thread
/// pool (where they run on the calling thread).
#[test]
fn batches_keep_input_order() {
    let seed = common::seed("engine::batches");
    let mut rng = Rng::new(seed, "engine-batch");
    for cut in [2u64, u64::MAX] {
        let t = Thresholds {
            spectral_mul_bits: Cut::at(cut),
            spectral_pow_bits: Cut::at(cut),
            ntt_redc_pow_bits: cut,
            spectral_sec_bits: Cut::at(cut),
            ..Thresholds::generic()
        };
        let n = modulus_of(&mut rng, 1000);
        let m = FastModulus::with_thresholds(&limbs(&n), t).unwrap();
        let k = common::scaled(9) as usize;
        let xs: Vec<Vec<u64>> = (0..k).map(|_| limbs(&rng.below(&n))).collect();
        let ys: Vec<Vec<u64>> = (0..k).map(|_| limbs(&rng.below(&n))).collect();
        let es: Vec<Vec<u64>> = (0..k).map(|i| vec![rng.next_u64(); i % 3]).collect();
        let prods = m.mul_many(&xs, &ys).unwrap();
        let pows = m.pow_many(&xs, &es).unwrap();
        let secs = m.pow_sec_many(&xs, &es, None).unwrap();
        let secs_stated = m.pow_sec_many(&xs, &es, Some(130)).unwrap();
        for i in 0..k {
            let (x, y, e) = (big(&xs[i]), big(&ys[i]), big(&es[i]));
            assert_eq!(
                strip(prods[i].clone()),
                limbs(&(&x * &y % &n)),
                "mul_many[{i}]"
            );
            assert_eq!(
                strip(pows[i].clone()),
                limbs(&oracle_pow(&x, &e, &n)),
                "pow_many[{i}]"
            );
            assert_eq!(
                strip(secs[i].clone()),
                strip(pows[i].clone()),
                "pow_sec_many[{i}]"
            );
            assert_eq!(secs_stated[i], secs[i], "pow_sec_many[{i}], exp_bits = 130");
        }
        // On a one-thread pool the batches run on the calling thread (and pair up on `amm`
        // where the CPU has IFMA: two items per thread), with the same results; one shared
        // exponent pairs every two items in `pow_many`.
        let shared = vec![es[2].clone(); k];
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let (prods1, pows1, secs1, shared1) = one.install(|| {
            (
                m.mul_many(&xs, &ys).unwrap(),
                m.pow_many(&xs, &es).unwrap(),
                m.pow_sec_many(&xs, &es, None).unwrap(),
                m.pow_many(&xs, &shared).unwrap(),
            )
        });
        assert_eq!((prods1, pows1, secs1), (prods, pows, secs), "one thread");
        for (i, got) in shared1.into_iter().enumerate() {
            let want = oracle_pow(&big(&xs[i]), &big(&shared[i]), &n);
            assert_eq!(
                strip(got),
                limbs(&want),
                "pow_many[{i}], one thread, shared exponent"
            );
        }
        assert_eq!(
            m.pow_many(&xs, &es[..1]),
            Err(MontError::BatchLengthMismatch { left: k, right: 1 })
        );
        assert_eq!(
            m.pow_sec_many(&xs, &es[..1], None),
            Err(MontError::BatchLengthMismatch { left: k, right: 1 })
        );
        let none: [Vec<u64>; 0] = [];
        assert_eq!(
            m.pow_sec_many(&none, &none, None),
            Err(MontError::EmptyBatch)
        );
        assert_eq!(
            m.pow_sec_many(&xs[..1], &[vec![0, 1]], Some(64)),
            Err(MontError::ExponentTooLong { bits: 65, max: 64 })
        );
        assert_eq!(
            m.pow_sec_many(&xs[..1], &[vec![1]], Some(1 << 40)),
            Err(MontError::ExpBitsTooLarge {
                bits: 1 << 40,
                max: SEC_EXP_MAX_BITS
            })
        );
        assert_eq!(
            m.pow_sec_many(&[limbs(&n)], &[vec![1]], None),
            Err(MontError::OperandOutOfRange { which: "base" })
        );
    }
}

/// With no stated length an exponent longer than 2^24 bits runs to its own length, as in
/// `pow_sec`: only a stated `exp_bits` has the cap (a one-limb N keeps it fast).
#[test]
fn pow_sec_many_takes_an_unstated_long_exponent() {
    let n = 0xffff_ffff_ffff_ffc5_u64; // the largest 64-bit prime
    let m = FastModulus::new(&[n]).unwrap();
    let long: Vec<u64> = (0..(SEC_EXP_MAX_BITS / 64 + 1)).map(|i| i | 1).collect();
    let got = m
        .pow_sec_many(&[vec![3]], std::slice::from_ref(&long), None)
        .unwrap();
    // n is prime: 3^e = 3^(e mod (n - 1)) mod n (Fermat), a short oracle call.
    let e = big(&long) % BigUint::from(n - 1);
    let want = oracle_pow(&BigUint::from(3u8), &e, &BigUint::from(n));
    assert_eq!(
        strip(got[0].clone()),
        limbs(&want),
        "2^24 + 64-bit exponent"
    );
}

#[test]
fn rejects_bad_input() {
    assert_eq!(
        FastModulus::new(&[]).err(),
        Some(MontError::ModulusTooSmall)
    );
    assert_eq!(FastModulus::new(&[4]).err(), Some(MontError::EvenModulus));
    let m = FastModulus::new(&[7]).unwrap();
    assert_eq!(
        m.mul(&[7], &[1]),
        Err(MontError::OperandOutOfRange { which: "x" })
    );
    assert_eq!(
        m.sqr(&[0, 1]),
        Err(MontError::OperandOutOfRange { which: "x" })
    );
    assert_eq!(
        m.pow(&[9], &[1]),
        Err(MontError::OperandOutOfRange { which: "base" })
    );
    assert_eq!(
        m.pow_sec(&[9], &[1]),
        Err(MontError::OperandOutOfRange { which: "base" })
    );
    let none: [Vec<u64>; 0] = [];
    assert_eq!(m.pow_many(&none, &none), Err(MontError::EmptyBatch));
}

#[test]
fn fermat_factor_moduli_skip_spectral() {
    // A 20,127-bit N that is a multiple of a factor of each of 2^(64P) + 1 for P = 512, 1024,
    // 2048 and 4096 (F15 .. F18): the spectral kernel at N's own length P = 512 does not
    // exist, and no longer transform is tried (it would take P = 8192, 20x slower), so every
    // product runs on the word-level kernel.
    let seed = common::seed("engine::fermat_factor_moduli");
    let mut rng = Rng::new(seed, "engine-fermat");
    let factors = [
        1_214_251_009u64,
        825_753_601,
        31_065_037_602_817,
        13_631_489,
    ];
    let f: BigUint = factors.iter().map(|&p| BigUint::from(p)).product();
    let k = modulus_of(&mut rng, 20_127 - f.bits());
    let n = &f * k;
    assert!((20_126..=20_127).contains(&n.bits()));
    let t = Thresholds {
        spectral_mul_bits: Cut::at(2),
        spectral_pow_bits: Cut::at(2),
        ntt_redc_pow_bits: 2,
        spectral_sec_bits: Cut::NEVER,
        ..Thresholds::generic()
    };
    let m = FastModulus::with_thresholds(&limbs(&n), t).unwrap();
    assert!(m.spectral().is_none());
    // Exponentiations run on ntt_redc (R = 2^l takes every odd N) from ntt_redc_pow_bits.
    assert_eq!(
        (m.mul_kernel(), m.pow_kernel()),
        (Kernel::Word, Kernel::NttRedc)
    );
    let (x, e) = (rng.below(&n), BigUint::from(rng.next_u64()));
    check(&m, &n, &x, &(&n - 1u8), &e).unwrap();
    let t = Thresholds {
        ntt_redc_pow_bits: u64::MAX,
        spectral_sec_bits: Cut::NEVER,
        ..t
    };
    let m = FastModulus::with_thresholds(&limbs(&n), t).unwrap();
    assert_eq!(
        (m.mul_kernel(), m.pow_kernel()),
        (Kernel::Word, Kernel::Word)
    );
    check(&m, &n, &x, &(&n - 1u8), &e).unwrap();
}
