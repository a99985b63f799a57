//! The radix-2^52 IFMA kernel (`mont::amm`) against `cios` + `sqr` and num-bigint: AMM
//! products (lazy, < 2N) and exponentiations on random moduli of 2 bits up to
//! [`amm::MAX_BITS`] (sizes on and off multiples of 52 and 64, at digit-count and vector
//! boundaries, and where the cores compiled per vector count give way to the run-time one),
//! edge moduli and operands; the constant-time fixed window (`pow_sec`) on the kernel; and the
//! `FastModulus` dispatch (`pow`, `pow_sec`, `mul`, `sqr`, `mul_many`), which must give the
//! same results on the IFMA path and on the `cios` fallback.
//! The fallback also runs in a child process with `MONTLAB_NO_IFMA=1`. Without AVX-512 IFMA
//! the kernel comparisons are skipped and only the fallback runs.

mod common;

use common::{big, edge_moduli, edge_operands, limbs, seed, strip, Rng};
use montlab_core::engine::{GENERIC_THRESHOLDS_IFMA, IFMA_POW_BITS};
use montlab_core::mont::amm::{self, IfmaParams, MAX_BITS, MAX_DIGITS};
use montlab_core::pow::blind::Blind;
use montlab_core::pow::{fixed, window, MontKernel};
use montlab_core::{Cut, FastModulus, Kernel, MontParams, OddModulus, Stop, Thresholds};
use num_bigint::BigUint;
use num_traits::One;

/// A random odd modulus of exactly `bits` bits.
fn random_modulus(rng: &mut Rng, bits: u64) -> BigUint {
    let one = BigUint::one();
    let r = rng.below(&(&one << bits));
    (r | (&one << (bits - 1)) | &one) % (&one << bits)
}

/// Exactly `s` limbs of `x`.
fn padded(x: &BigUint, s: usize) -> Vec<u64> {
    let mut v = limbs(x);
    v.resize(s, 0);
    v
}

/// The value of an element's digits.
fn digits_value(e: &amm::IfmaElem) -> BigUint {
    e.digits()
        .iter()
        .rev()
        .fold(BigUint::default(), |acc, &d| (acc << 52u32) + d)
}

fn params(n: &BigUint) -> (MontParams, Option<IfmaParams>) {
    let m = OddModulus::new(&limbs(n)).unwrap();
    (MontParams::new(m.clone()), IfmaParams::new(&m))
}

/// Bit sizes: small, around multiples of 52 and 64, and at digit-count and vector boundaries
/// (k = ceil((bits + 2) / 52) digits, 8 per vector) up to 16 vectors (the cores compiled per
/// vector count) and 17 vectors (the first of the run-time core).
fn sizes() -> Vec<u64> {
    let mut v = vec![2, 3, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 500];
    for d in [
        1u64, 2, 7, 8, 9, 16, 17, 24, 25, 40, 41, 64, 80, 81, 120, 128, 129, 136,
    ] {
        v.extend([52 * d - 3, 52 * d - 2, 52 * d - 1]);
    }
    v.extend([
        52 * 20,
        52 * 60,
        52 * 79,
        1023,
        1024,
        1025,
        2047,
        2048,
        2049,
        3072,
        4096,
        4097,
    ]);
    v.sort_unstable();
    v.dedup();
    v
}

/// Large sizes (run-time vector count), one modulus each: vector boundaries, powers of two,
/// sizes off multiples of 52 and 64, and the largest modulus.
const LARGE: [u64; 9] = [
    52 * 200 - 2,
    52 * 200 - 1,
    12_289,
    16_384,
    20_001,
    24_576,
    32_768,
    52 * 1000 + 7,
    MAX_BITS,
];

#[test]
fn availability_and_limits() {
    assert_eq!(
        amm::enabled(),
        amm::available() && std::env::var_os("MONTLAB_NO_IFMA").is_none()
    );
    assert_eq!(MAX_BITS, 52 * MAX_DIGITS as u64 - 2);
    const { assert!(MAX_BITS >= 32_768) };
    let one = BigUint::one();
    let largest = (&one << MAX_BITS) - 1u8;
    let (_, k) = params(&largest);
    assert_eq!(k.is_some(), amm::available());
    if let Some(k) = k {
        assert_eq!((k.digits(), k.vecs()), (MAX_DIGITS, MAX_DIGITS / 8));
    }
    let (_, k) = params(&((&one << (MAX_BITS + 1)) - 1u8));
    assert!(k.is_none(), "more than MAX_DIGITS digits");
    assert_eq!(*IFMA_POW_BITS.end(), MAX_BITS);
    let m = FastModulus::new(&limbs(&((&one << 2048) - 1u8))).unwrap();
    assert_eq!(*m.ifma_mul_bits().end(), MAX_BITS);
    assert_eq!(
        *m.ifma_mul_bits().start(),
        Thresholds::generic().ifma_mul_bits
    );
}

/// One random modulus of `bits` bits against the definition of the AMM, num-bigint (mul, sqr,
/// conversions, `pow` with an exponent below 2^`exp_bits`) and, if `cios`, the word kernel.
fn check_random(rng: &mut Rng, bits: u64, exp_bits: u64, cios: bool) {
    let n = random_modulus(rng, bits);
    if n <= BigUint::one() {
        return;
    }
    let (word, k) = params(&n);
    let k = k.expect("IFMA present and N small enough");
    let s = word.s();
    let ctx = format!("bits={bits} N={n:#x}");
    assert_eq!(k.digits() as u64, (bits + 2).div_ceil(52), "{ctx}");
    let r_inv = (BigUint::one() << (52 * k.digits() as u64))
        .modinv(&n)
        .unwrap();
    let (x, y) = (rng.below(&n), rng.below(&n));
    let (xl, yl) = (padded(&x, s), padded(&y, s));

    // One AMM on plain values, then the same in Montgomery form through the trait.
    let (ex, ey) = (k.elem(&xl), k.elem(&yl));
    let mut out = ex.clone();
    k.amm(&ex, &ey, &mut out);
    let got = digits_value(&out);
    assert!(got < &n * 2u8, "{ctx}: AMM output not below 2N");
    assert_eq!(got % &n, &x * &y * &r_inv % &n, "{ctx}: AMM");
    let mut sc = ();
    let (xm, ym) = (k.to_mont(&xl, &mut sc), k.to_mont(&yl, &mut sc));
    let mut pm = xm.clone();
    k.mul(&xm, &ym, &mut pm, &mut sc);
    let mut sq = xm.clone();
    k.sqr(&xm, &mut sq, &mut sc);
    let (xy, xx) = (padded(&(&x * &y % &n), s), padded(&(&x * &x % &n), s));
    assert_eq!(k.from_mont(&pm, &mut sc), xy, "{ctx}: mul");
    assert_eq!(k.from_mont(&sq, &mut sc), xx, "{ctx}: sqr");
    assert_eq!(k.mul_mod(&xl, Some(&yl)), xy, "{ctx}: mul_mod");
    assert_eq!(k.mul_mod(&xl, None), xx, "{ctx}: mul_mod, square");
    assert_eq!(k.from_mont(&xm, &mut sc), xl, "{ctx}: round trip");
    assert_eq!(k.unwrap(&k.wrap(&xl)), xl, "{ctx}: wrap");

    let e = rng.below(&(BigUint::one() << exp_bits));
    let want = padded(&x.modpow(&e, &n), s);
    let got = window::pow_vartime_with(&k, &xl, &limbs(&e));
    assert_eq!(got, want, "{ctx} e={e:#x}");
    // The constant-time fixed window on this kernel, with a leading zero limb (processed too).
    let mut e_sec = limbs(&e);
    e_sec.push(0);
    let got = fixed::pow_sec_with(&k, &xl, &e_sec, Stop::never()).unwrap();
    assert_eq!(got, want, "{ctx} e={e:#x}: pow_sec");
    if cios {
        assert_eq!(
            window::pow_vartime_with(&word, &xl, &limbs(&e)),
            want,
            "{ctx}"
        );
    }
}

/// AMM products (value < 2N, = x y R^-1 mod N with R = 2^(52 k)), conversions and
/// exponentiations against cios and num-bigint at every size of [`sizes`] (exponents of up
/// to 1100 bits, 300 bits at least: the window table stays full).
#[test]
fn random_moduli_match_cios_and_num_bigint() {
    if !amm::ifma_or_skip("random_moduli_match_cios_and_num_bigint") {
        return;
    }
    let mut rng = Rng::new(seed("random_moduli_match_cios_and_num_bigint"), "ifma");
    for bits in sizes() {
        for _ in 0..2 {
            check_random(&mut rng, bits, bits.clamp(300, 1100), true);
        }
    }
}

/// The same at the sizes of [`LARGE`] (run-time vector count) with 70-bit exponents, `cios`
/// up to 16384 bits.
#[test]
fn large_moduli_match_num_bigint() {
    if !amm::ifma_or_skip("large_moduli_match_num_bigint") {
        return;
    }
    let mut rng = Rng::new(seed("large_moduli_match_num_bigint"), "ifma-large");
    for bits in LARGE {
        check_random(&mut rng, bits, 70, bits <= 16_384);
    }
}

/// Sizes whose edge moduli also take the exponent N - 1 with the bases 0, 1 and N - 1, whose
/// powers are known (0, 1 and (-1)^(N-1) = 1): num-bigint would be too slow there.
const FULL_EXP_BITS: [u64; 5] = [1025, 2048, 4097, 52 * 128 - 1, 52 * 200 - 1];

/// Edge moduli (2^k +- 1, all-ones, 2^(64 s - 1) + 1, ...) of 1 to 64 limbs, and 2^k - 1,
/// 2^(k-1) + 1 at every size of [`sizes`] and [`LARGE`], with edge operands (0, 1, N - 1,
/// N / 2; x = y = N - 1 included) and exponents 0, 1, 2, 3 and N - 1 up to 1024 bits; above,
/// the top 64 bits of N instead of N - 1 (up to 8192 bits; none above), and N - 1 at the
/// sizes of [`FULL_EXP_BITS`].
#[test]
fn edge_moduli_and_operands() {
    if !amm::ifma_or_skip("edge_moduli_and_operands") {
        return;
    }
    let one = BigUint::one();
    let mut moduli = edge_moduli();
    for bits in sizes().into_iter().chain(LARGE) {
        moduli.push((&one << bits) - 1u8);
        moduli.push((&one << (bits - 1)) + 1u8);
    }
    moduli.retain(|n| n.bit(0) && *n > one);
    for n in &moduli {
        let bits = n.bits();
        let n_1 = n - 1u8;
        let big_e = match bits {
            ..=1024 => Some(n_1.clone()),
            1025..=8192 => Some(n >> (bits - 64)),
            _ => None,
        };
        let (word, k) = params(n);
        let k = k.expect("IFMA present and N small enough");
        let s = word.s();
        let mut bases = vec![];
        for (x, y) in edge_operands(n) {
            let (xl, yl) = (padded(&x, s), padded(&y, s));
            let mut sc = ();
            let (xm, ym) = (k.to_mont(&xl, &mut sc), k.to_mont(&yl, &mut sc));
            let mut pm = xm.clone();
            k.mul(&xm, &ym, &mut pm, &mut sc);
            let want = padded(&(&x * &y % n), s);
            let ctx = format!("N={n:#x} x={x:#x} y={y:#x}");
            assert_eq!(k.from_mont(&pm, &mut sc), want, "{ctx}");
            assert_eq!(k.mul_mod(&xl, Some(&yl)), want, "{ctx}");
            if !bases.contains(&x) {
                bases.push(x);
            }
        }
        // Bases 0, 1, N - 1 and N / 2.
        for x in &bases {
            let xl = padded(x, s);
            // x^0 .. x^3 by products (num-bigint's modpow is slow on large N).
            let mut want = one.clone();
            for e in 0..4u64 {
                let got = window::pow_vartime_with(&k, &xl, &[e]);
                assert_eq!(strip(got), limbs(&want), "N={n:#x} x={x:#x} e={e}");
                let got = fixed::pow_sec_with(&k, &xl, &[e], Stop::never()).unwrap();
                assert_eq!(strip(got), limbs(&want), "N={n:#x} x={x:#x} e={e}: pow_sec");
                want = want * x % n;
            }
            if let Some(big_e) = &big_e {
                let got = window::pow_vartime_with(&k, &xl, &limbs(big_e));
                assert_eq!(
                    strip(got),
                    limbs(&x.modpow(big_e, n)),
                    "N={n:#x} x={x:#x} e={big_e:#x}"
                );
                let e = limbs(big_e);
                assert_eq!(
                    window::pow_vartime_with(&k, &xl, &e),
                    window::pow_vartime_with(&word, &xl, &e),
                    "N={n:#x} x={x:#x}"
                );
                assert_eq!(
                    fixed::pow_sec_with(&k, &xl, &e, Stop::never()).unwrap(),
                    fixed::pow_sec(&word, &xl, &e).unwrap(),
                    "N={n:#x} x={x:#x}: pow_sec"
                );
            }
            if FULL_EXP_BITS.contains(&bits) && (x <= &one || x == &n_1) {
                let want = u64::from(x.bits() != 0);
                let got = strip(window::pow_vartime_with(&k, &xl, &limbs(&n_1)));
                assert_eq!(got, strip(vec![want]), "N={n:#x} x={x:#x} e=N-1");
            }
        }
    }
}

/// Forced word-level dispatch (spectral thresholds out of reach), so `FastModulus` runs IFMA
/// wherever the IFMA ranges say, `cios` elsewhere.
fn word_only(n: &BigUint) -> FastModulus {
    let t = Thresholds {
        spectral_mul_bits: Cut::NEVER,
        spectral_pow_bits: Cut::NEVER,
        ntt_redc_pow_bits: u64::MAX,
        spectral_sec_bits: Cut::NEVER,
        ..Thresholds::generic()
    };
    FastModulus::with_thresholds(&limbs(n), t).unwrap()
}

/// `FastModulus::pow` / `pow_many` on the IFMA path where it applies, else on `cios`: same
/// results as num-bigint either way, and the path is the documented one.
#[test]
fn fast_modulus_dispatch_and_fallback() {
    let mut rng = Rng::new(seed("fast_modulus_dispatch_and_fallback"), "dispatch");
    for bits in [64, 512, 513, 640, 1024, 1500, 2048, 3072, 3583] {
        let n = random_modulus(&mut rng, bits);
        let m = FastModulus::new(&limbs(&n)).unwrap();
        let expect_ifma =
            amm::enabled() && IFMA_POW_BITS.contains(&bits) && m.pow_kernel() == Kernel::Word;
        assert_eq!(m.pow_uses_ifma(), expect_ifma, "bits={bits}");
        if std::env::var_os("MONTLAB_NO_IFMA").is_some() {
            assert!(!m.pow_uses_ifma());
        }
        let bases: Vec<BigUint> = (0..3).map(|_| rng.below(&n)).collect();
        let exps: Vec<BigUint> = (0..3).map(|_| rng.below(&n)).collect();
        for (b, e) in bases.iter().zip(&exps) {
            let got = m.pow(&limbs(b), &limbs(e)).unwrap();
            assert_eq!(big(&got), b.modpow(e, &n), "bits={bits}");
        }
        let got = m
            .pow_many(
                &bases.iter().map(limbs).collect::<Vec<_>>(),
                &exps.iter().map(limbs).collect::<Vec<_>>(),
            )
            .unwrap();
        for ((g, b), e) in got.iter().zip(&bases).zip(&exps) {
            assert_eq!(big(g), b.modpow(e, &n), "pow_many bits={bits}");
        }
        // pow_sec runs on the IFMA kernel in the same range (constant time too), else cios.
        let want_id = if amm::enabled() && IFMA_POW_BITS.contains(&bits) {
            "amm"
        } else {
            "cios"
        };
        assert_eq!(m.pow_sec_kernel_id(), want_id, "bits={bits}");
        for (b, e) in bases.iter().zip(&exps) {
            assert_eq!(
                big(&m.pow_sec(&limbs(b), &limbs(e)).unwrap()),
                b.modpow(e, &n),
                "pow_sec bits={bits}"
            );
        }
    }
    // Word-level pow up to the IFMA limit and one bit above it (cios), short exponents.
    for bits in [6655, 16_384, MAX_BITS, MAX_BITS + 1] {
        let n = random_modulus(&mut rng, bits);
        let m = word_only(&n);
        assert_eq!(
            m.pow_uses_ifma(),
            amm::enabled() && bits <= MAX_BITS,
            "bits={bits}"
        );
        let (b, e) = (rng.below(&n), rng.below(&(BigUint::one() << 40u8)));
        let n_1 = &n - 1u8;
        let got = m.pow_many(&[limbs(&b), limbs(&n_1)], &[limbs(&e), vec![3]]);
        let got = got.unwrap();
        assert_eq!(big(&got[0]), b.modpow(&e, &n), "bits={bits}");
        assert_eq!(
            big(&got[1]),
            n_1.modpow(&BigUint::from(3u8), &n),
            "bits={bits}"
        );
    }
}

/// `FastModulus::mul`, `sqr` and `mul_many` (IFMA from the table's `ifma_mul_bits` when
/// word-level, else
/// `cios`) against num-bigint, random and edge operands (x = y = N - 1 included), exactly `s`
/// limbs each.
#[test]
fn fast_modulus_mul_sqr_mul_many() {
    let mut rng = Rng::new(seed("fast_modulus_mul_sqr_mul_many"), "mul");
    // The IFMA table's cut (this CPU's table has none without IFMA).
    let lo = Thresholds::parse(GENERIC_THRESHOLDS_IFMA)
        .unwrap()
        .ifma_mul_bits;
    let sizes = [
        2,
        64,
        lo - 1,
        lo,
        lo + 63,
        1024,
        2048,
        4096,
        52 * 128 - 2,
        52 * 128 - 1,
        8192,
        16_384,
        32_768,
        MAX_BITS,
        MAX_BITS + 1,
    ];
    for bits in sizes {
        for n in [
            random_modulus(&mut rng, bits),
            (BigUint::one() << bits) - 1u8,
            (BigUint::one() << (bits - 1)) + 1u8,
        ] {
            let m = word_only(&n);
            let s = m.modulus().len();
            assert_eq!(
                m.mul_uses_ifma(),
                amm::enabled() && m.ifma_mul_bits().contains(&bits),
                "bits={bits}"
            );
            let mut pairs = edge_operands(&n);
            pairs.push((rng.below(&n), rng.below(&n)));
            let (xs, ys): (Vec<_>, Vec<_>) =
                pairs.iter().map(|(x, y)| (limbs(x), limbs(y))).unzip();
            let many = m.mul_many(&xs, &ys).unwrap();
            for (((x, y), xl), got_many) in pairs.iter().zip(&xs).zip(many) {
                let ctx = format!("N={n:#x} x={x:#x} y={y:#x}");
                let want = padded(&(x * y % &n), s);
                assert_eq!(m.mul(xl, &limbs(y)).unwrap(), want, "{ctx}");
                assert_eq!(got_many, want, "{ctx}: mul_many");
                assert_eq!(m.sqr(xl).unwrap(), padded(&(x * x % &n), s), "{ctx}: sqr");
            }
        }
    }
}

/// The `cios` fallback: the dispatch tests once more in a child process with
/// `MONTLAB_NO_IFMA=1` (skipped inside that child).
#[test]
fn no_ifma_fallback_in_child_process() {
    if std::env::var_os("MONTLAB_NO_IFMA").is_some() {
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "fast_modulus_dispatch_and_fallback",
            "fast_modulus_mul_sqr_mul_many",
            "availability_and_limits",
        ])
        .env("MONTLAB_NO_IFMA", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "child failed:\n{text}");
    assert!(text.contains("3 passed"), "child ran other tests:\n{text}");
}

/// `MONTLAB_REQUIRE_IFMA` turns a skipped IFMA test into a failure: this binary's
/// `large_moduli_match_num_bigint`, run again with the kernels forced off
/// (`MONTLAB_NO_IFMA`), fails with the requirement set and passes (skipping) without it.
#[test]
fn require_ifma_fails_when_the_kernels_are_off() {
    let run = |require: bool| {
        let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
        cmd.args(["--exact", "large_moduli_match_num_bigint", "--nocapture"])
            .env("MONTLAB_NO_IFMA", "1")
            .env_remove("MONTLAB_REQUIRE_IFMA");
        if require {
            cmd.env("MONTLAB_REQUIRE_IFMA", "1");
        }
        let out = cmd.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    };
    let (ok, text) = run(true);
    assert!(
        !ok && text.contains("MONTLAB_REQUIRE_IFMA is set"),
        "required but off: {text}"
    );
    let (ok, text) = run(false);
    assert!(ok && text.contains("skipped"), "not required: {text}");
}

/// The two-lane product (`amm_pair`) gives each lane's one-lane AMM, digit for digit, on
/// pairs of moduli of one size (the interleaved cores up to `PAIR_MAX_VECS` vectors: on
/// 256-bit vectors for k <= 36 and 41..44, on 512-bit ones at k = 37..40 and 45..48; and the
/// one-lane fallback past them) and of two sizes (the fallback), with lazy edge operands (0,
/// 1, N - 1, N, 2N - 1) in either lane, and so do `AmmPair`'s products and squarings (against
/// each lane's `amm` and `ams`); and the paired fixed window (`pow::pair`) gives
/// num-bigint's powers for exponents of different lengths (the shorter padded with zero
/// limbs), bases 0, 1, N - 1 and random ones.
#[test]
fn pair_matches_one_lane_products_and_num_bigint() {
    if !amm::ifma_or_skip("pair_matches_one_lane_products_and_num_bigint") {
        return;
    }
    let mut rng = Rng::new(
        seed("pair_matches_one_lane_products_and_num_bigint"),
        "pair",
    );
    let one = BigUint::one();
    // Digit counts 1 to 8 vectors (k = 8 v - 1, 8 v, 8 v + 1) and RSA's halves.
    let mut bits: Vec<u64> = vec![2, 64, 512, 1024, 1536, 2048, 2049, 3072];
    for v in 1..=(amm::PAIR_MAX_VECS as u64 + 2) {
        bits.extend([52 * (8 * v - 1) - 2, 52 * 8 * v - 2, 52 * (8 * v + 1) - 2]);
    }
    let pairs: Vec<(u64, u64)> = bits
        .iter()
        .map(|&b| (b, b))
        .chain([(1024, 2048), (1023, 1025), (3072, 64)])
        .collect();
    for (b0, b1) in pairs {
        let n = [random_modulus(&mut rng, b0), random_modulus(&mut rng, b1)];
        if n.iter().any(|n| *n <= one) {
            continue;
        }
        let k = [0, 1].map(|i| params(&n[i]).1.expect("IFMA present"));
        let s = [0, 1].map(|i| params(&n[i]).0.s());
        let ctx = format!("N0={:#x} N1={:#x}", n[0], n[1]);
        let lazy = |i: usize| {
            let n = &n[i];
            [
                BigUint::default(),
                one.clone(),
                n - 1u8,
                n.clone(),
                n * 2u8 - 1u8,
            ]
        };
        let (l0, l1) = (lazy(0), lazy(1));
        for (x0, y1) in l0.iter().zip(l1.iter().rev()) {
            let ex = [k[0].lazy_elem(&limbs(x0)), k[1].lazy_elem(&limbs(y1))];
            let ey = [
                k[0].lazy_elem(&limbs(&rng.below(&n[0]))),
                k[1].lazy_elem(&limbs(&(&n[1] * 2u8 - 1u8))),
            ];
            let mut want = ex.clone();
            for i in 0..2 {
                k[i].amm(&ex[i], &ey[i], &mut want[i]);
            }
            let mut got = ex.clone();
            let [g0, g1] = &mut got;
            amm::amm_pair([&k[0], &k[1]], [&ex[0], &ex[1]], [&ey[0], &ey[1]], [g0, g1]);
            assert_eq!(got, want, "{ctx}: x0={x0:#x} x1={y1:#x}");
            // The pair with its core chosen once: the same digits, and its squarings those
            // of `ams_pair`, which are each lane's `ams`.
            let pair = amm::AmmPair::new([&k[0], &k[1]]);
            let [g0, g1] = &mut got;
            pair.mul([&ex[0], &ex[1]], [&ey[0], &ey[1]], [g0, g1]);
            assert_eq!(got, want, "{ctx}: AmmPair x0={x0:#x} x1={y1:#x}");
            for i in 0..2 {
                k[i].ams(&ex[i], &mut want[i]);
            }
            let [g0, g1] = &mut got;
            pair.sqr([&ex[0], &ex[1]], [g0, g1]);
            assert_eq!(got, want, "{ctx}: AmmPair squares x0={x0:#x} x1={y1:#x}");
            let [g0, g1] = &mut got;
            amm::ams_pair([&k[0], &k[1]], [&ex[0], &ex[1]], [g0, g1]);
            assert_eq!(got, want, "{ctx}: ams_pair x0={x0:#x} x1={y1:#x}");
            for i in 0..2 {
                assert!(digits_value(&got[i]) < &n[i] * 2u8, "{ctx}: lane {i} >= 2N");
            }
        }
        // Exponents: lane 0 one limb longer than lane 1 (N - 1's length plus one limb).
        for base in [0usize, 1, 2, 3] {
            let b = [0, 1].map(|i| match base {
                0 => BigUint::default(),
                1 => one.clone(),
                2 => &n[i] - 1u8,
                _ => rng.below(&n[i]),
            });
            let e = [
                rng.below(&(&one << (64 * (s[0] as u64 + 1)))),
                rng.below(&(&one << (64 * s[1] as u64 - 1))),
            ];
            // Unblinded, and blinded by pairs for the longer exponent's limb count.
            let el = [limbs(&e[0]), limbs(&e[1])];
            let len = (s[0] + 1).max(el[0].len()).max(el[1].len());
            let el = [0, 1].map(|i| {
                let mut v = el[i].clone();
                v.resize(len.max(v.len()), 0);
                v
            });
            let blinds = [0, 1].map(|i| {
                let sigma = padded(&(rng.below(&(&n[i] - 1u8)) + 1u8), s[i]);
                let inv = |v: &[u64]| {
                    let vb = v
                        .iter()
                        .rev()
                        .fold(BigUint::default(), |a, &l| (a << 64u32) + l);
                    vb.modinv(&n[i]).map(|t| padded(&t, s[i]))
                };
                Blind::new(&k[i], sigma, len, inv)
            });
            let blinds = match &blinds {
                [Some(b0), Some(b1)] => Some([b0, b1]),
                _ => None, // a sigma shared a factor with its modulus
            };
            // Variable time, one exponent for both lanes of N0: lane 0's exponent, 0 and 1.
            let pb = [padded(&b[0], s[0]), padded(&rng.below(&n[0]), s[0])];
            for ev in [e[0].clone(), BigUint::default(), one.clone()] {
                let got = montlab_core::pow::pair::pow_pair_vartime(
                    &k[0],
                    [&pb[0], &pb[1]],
                    &limbs(&ev),
                    Stop::never(),
                )
                .unwrap();
                for i in 0..2 {
                    let want = padded(&big(&pb[i]).modpow(&ev, &n[0]), s[0]);
                    assert_eq!(got[i], want, "{ctx}: vartime pair lane {i} e={ev:#x}");
                }
            }
            for blind in [None, blinds] {
                let got = montlab_core::pow::pair::pow_sec_pair(
                    [&k[0], &k[1]],
                    [&padded(&b[0], s[0]), &padded(&b[1], s[1])],
                    [&el[0], &el[1]],
                    blind,
                    Stop::never(),
                )
                .unwrap();
                for i in 0..2 {
                    let want = padded(&b[i].modpow(&e[i], &n[i]), s[i]);
                    let blinded = blind.is_some();
                    assert_eq!(
                        got[i], want,
                        "{ctx}: lane {i} b={:#x} e={:#x} {blinded}",
                        b[i], e[i]
                    );
                }
            }
        }
    }
}

/// Batches on the IFMA kernel run in pairs on its two lanes where N has at most
/// `PAIR_MAX_VECS` vectors (`FastModulus::pair_ifma`) and the batch has two items per worker:
/// `pow_sec_many` (and `pow_many` beside it) against num-bigint with batches of odd and even
/// counts (the last item alone), full, short and zero exponents padded to one length, and
/// bases 0 and N - 1; `pow_many` with one exponent for the whole batch and for every other
/// pair (the pairs that share it run one sliding window); at sizes on both sides of
/// `PAIR_MAX_VECS`.
#[test]
fn batches_pair_up_on_the_two_lanes() {
    if !amm::ifma_or_skip("batches_pair_up_on_the_two_lanes") {
        return;
    }
    let mut rng = Rng::new(seed("batches_pair_up_on_the_two_lanes"), "pairs");
    let one = BigUint::one();
    let pair_bits = 52 * 8 * amm::PAIR_MAX_VECS as u64 - 2;
    for bits in [600, 1024, 2048, pair_bits, pair_bits + 1] {
        let n = random_modulus(&mut rng, bits);
        let m = FastModulus::new(&limbs(&n)).unwrap();
        assert_eq!(m.pair_ifma().is_some(), bits <= pair_bits, "bits={bits}");
        let count = 2 * rayon::current_num_threads() + 3;
        let mut bases: Vec<BigUint> = (0..count).map(|_| rng.below(&n)).collect();
        bases[0] = BigUint::default();
        bases[1] = &n - 1u8;
        let mut exps: Vec<BigUint> = (0..count).map(|_| rng.below(&n)).collect();
        exps[2] = BigUint::from(65_537u32);
        exps[4] = BigUint::default();
        exps[5] = &one << 200u32;
        // One exponent shared by consecutive items (variable-time pairs on one sliding window):
        // the whole batch, and every other pair.
        let shared = rng.below(&n);
        let all_one: Vec<BigUint> = vec![shared.clone(); count];
        let some: Vec<BigUint> = (0..count)
            .map(|i| {
                if i % 4 < 2 {
                    shared.clone()
                } else {
                    exps[i].clone()
                }
            })
            .collect();
        for e in [&all_one, &some] {
            let el: Vec<Vec<u64>> = e.iter().map(limbs).collect();
            let bl: Vec<Vec<u64>> = bases.iter().map(limbs).collect();
            let got = m.pow_many(&bl, &el).unwrap();
            for i in 0..count {
                let want = bases[i].modpow(&e[i], &n);
                assert_eq!(big(&got[i]), want, "pow_many shared bits={bits} [{i}]");
            }
        }
        for len in [count, count - 1] {
            let (b, e) = (&bases[..len], &exps[..len]);
            let bl: Vec<Vec<u64>> = b.iter().map(limbs).collect();
            let el: Vec<Vec<u64>> = e.iter().map(limbs).collect();
            let got = m.pow_many(&bl, &el).unwrap();
            let sec = m.pow_sec_many(&bl, &el, None).unwrap();
            for i in 0..len {
                let want = b[i].modpow(&e[i], &n);
                assert_eq!(big(&got[i]), want, "pow_many bits={bits} [{i}] of {len}");
                assert_eq!(
                    big(&sec[i]),
                    want,
                    "pow_sec_many bits={bits} [{i}] of {len}"
                );
            }
        }
    }
}
