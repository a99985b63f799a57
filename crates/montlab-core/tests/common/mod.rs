//! Shared test support: the num-bigint oracle, structured edge moduli, the seeded RNG and
//! proptest configuration. Each integration test uses a subset, hence the `dead_code` allow.
#![allow(dead_code)]

pub mod vectors;

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

/// Largest limb count the sweeps cover (4096-bit moduli).
pub const MAX_LIMBS: usize = 64;

// --- conversions and the oracle ------------------------------------------------------------

pub fn big(limbs: &[u64]) -> BigUint {
    limbs
        .iter()
        .rev()
        .fold(BigUint::zero(), |acc, &l| (acc << 64u32) + l)
}

pub fn limbs(x: &BigUint) -> Vec<u64> {
    x.to_u64_digits()
}

/// Limb count s = ceil(bitlen(N) / 64) and R = 2^(64 s).
pub fn s_and_r(n: &BigUint) -> (usize, BigUint) {
    let s = n.bits().div_ceil(64) as usize;
    (s, BigUint::one() << (64 * s))
}

/// x * y * R^-1 mod N, straight from the definition.
pub fn oracle_mont_mul(x: &BigUint, y: &BigUint, n: &BigUint) -> BigUint {
    let (_, r) = s_and_r(n);
    let r_inv = r.modinv(n).expect("R is invertible mod an odd N");
    x * y % n * r_inv % n
}

/// base^e mod N by plain right-to-left square-and-multiply with division (GMP refmpn style):
/// slow, obvious, and independent of every Montgomery routine.
pub fn oracle_pow(base: &BigUint, e: &BigUint, n: &BigUint) -> BigUint {
    let mut result = BigUint::one() % n;
    let mut b = base % n;
    for i in 0..e.bits() {
        if e.bit(i) {
            result = result * &b % n;
        }
        b = &b * &b % n;
    }
    result
}

/// The value of a limb vector with leading zeros stripped, for comparing against the oracle.
pub fn strip(mut v: Vec<u64>) -> Vec<u64> {
    while v.last() == Some(&0) {
        v.pop();
    }
    v
}

/// Hex dump of named values for assertion messages (GMP's habit when values disagree).
pub fn hexdump(values: &[(&str, &BigUint)]) -> String {
    values
        .iter()
        .map(|(k, v)| format!("{k}={v:#x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

// --- structured edge cases (FLINT / GMP random2 habits) -------------------------------------

/// Structured odd moduli > 1 of every limb count 1..=MAX_LIMBS, without duplicates:
/// N = 3, 2^k - 1 and 2^k + 1 around every limb boundary, all-ones 2^(64 s) - 1,
/// 2^(64 s) - small, 2^(64 s - 1) + 1 and alternating bit patterns.
pub fn edge_moduli() -> Vec<BigUint> {
    let one = BigUint::one();
    let mut out: Vec<BigUint> = vec![BigUint::from(3u8), BigUint::from(5u8), BigUint::from(7u8)];
    for s in 1..=MAX_LIMBS {
        let bits = 64 * s;
        let full = (&one << bits) - 1u8; // all ones, 2^(64 s) - 1
        for k in [bits - 1, bits, bits + 1] {
            out.push((&one << k) - 1u8);
            out.push((&one << k) + 1u8);
        }
        out.push(&full - 2u8); // 2^(64 s) - 3
        out.push(&full - 58u8); // 2^(64 s) - 59
        out.push((&one << (bits - 1)) + 1u8);
        let alternating = BigUint::from_bytes_le(&vec![0x55; 8 * s]) | (&one << (bits - 1)) | &one;
        out.push(alternating);
        // A run of ones over a run of zeros, and the reverse.
        out.push((&full ^ ((&one << (bits / 2)) - 1u8)) | &one);
        out.push((&one << (bits - 1)) | ((&one << (bits / 2)) - 1u8));
    }
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|n| n.bit(0) && *n > one && seen.insert(n.clone()));
    out
}

/// Operand pairs at the edges of [0, N): zeros, ones, N - 1 (x = y = N - 1 included), N / 2.
pub fn edge_operands(n: &BigUint) -> Vec<(BigUint, BigUint)> {
    let hi = n - 1u8;
    let half = n >> 1u8;
    let zero = BigUint::zero();
    let one = BigUint::one();
    vec![
        (zero.clone(), zero.clone()),
        (zero, hi.clone()),
        (one.clone(), one.clone()),
        (one, hi.clone()),
        (hi.clone(), hi.clone()),
        (half, hi),
    ]
}

// --- reproducible randomness -----------------------------------------------------------------

/// The run seed: `MONTLAB_SEED` (decimal or 0x-hex) if set, else drawn from the clock. Printed.
pub fn seed(test: &str) -> u64 {
    let seed = match std::env::var("MONTLAB_SEED") {
        Ok(v) => {
            let v = v.trim();
            let parsed = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("MONTLAB_SEED={v:?} is not an integer"))
        }
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 & 0xffff_ffff),
    };
    println!("[seed] MONTLAB_SEED={seed} test={test}");
    seed
}

/// `MONTLAB_TEST_MULTIPLIER` (default 1) scales iteration counts.
pub fn scaled(count: u32) -> u32 {
    let mult: f64 = std::env::var("MONTLAB_TEST_MULTIPLIER")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1.0);
    ((f64::from(count) * mult) as u32).max(1)
}

/// SplitMix64: tiny, seedable, good enough to draw test operands.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64, stream: &str) -> Self {
        // Mix the test name in so each test draws its own stream from one run seed.
        let h = stream.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        Self(seed ^ h)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform-ish in [0, n) (one extra limb, then reduced: bias below 2^-64).
    pub fn below(&mut self, n: &BigUint) -> BigUint {
        let s = n.bits().div_ceil(64) as usize + 1;
        let v: Vec<u64> = (0..s).map(|_| self.next_u64()).collect();
        big(&v) % n
    }
}

// --- proptest strategies ---------------------------------------------------------------------

/// Proptest configuration with `cases` scaled by MONTLAB_TEST_MULTIPLIER; an explicit
/// PROPTEST_CASES wins.
pub fn proptest_config(cases: u32) -> ProptestConfig {
    let base = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_some() {
        return base;
    }
    ProptestConfig {
        cases: scaled(cases),
        ..base
    }
}

/// Odd moduli > 1 of 1..=64 limbs: random limbs, 2^k +- 1, 2^(64 s) - small, N = 3, and
/// GMP random2-style long runs of ones and zeros.
pub fn modulus() -> impl Strategy<Value = BigUint> {
    let one = BigUint::one();
    let random = (1..=MAX_LIMBS)
        .prop_flat_map(|s| proptest::collection::vec(any::<u64>(), s))
        .prop_map(|mut v| {
            v[0] |= 1;
            let top = v.len() - 1;
            v[top] = v[top].max(1);
            big(&v).max(BigUint::from(3u8))
        });
    let o1 = one.clone();
    let o2 = one.clone();
    let o3 = one.clone();
    prop_oneof![
        4 => random,
        1 => (2usize..=64 * MAX_LIMBS).prop_map(move |k| (&o1 << k) - 1u8),
        1 => (1usize..64 * MAX_LIMBS).prop_map(move |k| (&o2 << k) + 1u8),
        1 => (1..=MAX_LIMBS, 0u64..1024).prop_map(move |(s, c)| (&o3 << (64 * s)) - (2 * c + 1)),
        1 => Just(BigUint::from(3u8)),
        1 => runs(),
    ]
}

/// Numbers made of alternating runs of ones and zeros (top run ones), forced odd and > 1.
fn runs() -> impl Strategy<Value = BigUint> {
    (1..=MAX_LIMBS, proptest::collection::vec(1usize..200, 1..40)).prop_map(|(s, lens)| {
        let bits = 64 * s;
        let mut v = BigUint::zero();
        let (mut pos, mut ones) = (bits, true);
        for len in lens {
            let len = len.min(pos);
            if ones {
                v |= ((BigUint::one() << len) - 1u8) << (pos - len);
            }
            pos -= len;
            ones = !ones;
            if pos == 0 {
                break;
            }
        }
        (v | BigUint::one()).max(BigUint::from(3u8))
    })
}

/// An operand in [0, N), biased towards 0, 1, N - 1 and N / 2.
pub fn operand(n: &BigUint) -> BoxedStrategy<BigUint> {
    let s = n.bits().div_ceil(64) as usize;
    let n2 = n.clone();
    prop_oneof![
        1 => Just(BigUint::zero()),
        1 => Just(BigUint::one()),
        2 => Just(n - 1u8),
        1 => Just(n >> 1u8),
        8 => proptest::collection::vec(any::<u64>(), s + 1).prop_map(move |v| big(&v) % &n2),
    ]
    .boxed()
}
