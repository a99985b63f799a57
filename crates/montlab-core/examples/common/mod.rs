//! Seeded operands and timing helpers shared by the timing examples.

use std::time::Instant;

/// SplitMix64, seeded: the same operands every run.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `s` random limbs.
    pub fn limbs(&mut self, s: usize) -> Vec<u64> {
        (0..s).map(|_| self.next()).collect()
    }

    /// A `bits`-bit number with the top bit set.
    #[allow(dead_code)]
    pub fn bits(&mut self, bits: usize) -> Vec<u64> {
        let s = bits.div_ceil(64);
        let mut v = self.limbs(s);
        let top = (bits - 1) % 64;
        v[s - 1] &= u64::MAX >> (63 - top);
        v[s - 1] |= 1 << top;
        v
    }
}

/// Bit sizes from the command line (`args`), or `default` when none are given.
///
/// # Panics
/// If an argument is not a number.
#[allow(dead_code)]
pub fn sizes_or<S: AsRef<str>>(args: impl IntoIterator<Item = S>, default: &[usize]) -> Vec<usize> {
    let sizes: Vec<usize> = args
        .into_iter()
        .map(|a| a.as_ref().parse().expect("sizes are bit counts"))
        .collect();
    if sizes.is_empty() {
        default.to_vec()
    } else {
        sizes
    }
}

/// The median of `v` (the upper one of an even count).
#[allow(dead_code)]
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Seconds per call of `f` over `reps` calls.
#[allow(dead_code)]
pub fn once<F: FnMut()>(reps: usize, mut f: F) -> f64 {
    let t = Instant::now();
    for _ in 0..reps {
        f();
    }
    t.elapsed().as_secs_f64() / reps as f64
}
