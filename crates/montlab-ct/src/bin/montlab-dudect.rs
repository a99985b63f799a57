//! `montlab-dudect KERNEL BITS SAMPLES [SEED [FIXED]]`: a dudect-style timing test of a
//! secret-exponent kernel, printing one JSON object.
//!
//! Method (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?", DATE 2017): each
//! measurement draws its class at random, class 0 a fixed exponent, class 1 a fresh random
//! exponent, both of N's full length (the length is public). The fixed exponent (`FIXED`) is
//! `zero` by default (the extreme input of a square-and-multiply: the accumulator stays at
//! the Montgomery form of 1), or `one` (the same accumulator until the last window), `ones`
//! (every bit set: every window digit the largest), `top` (only the top limb set: the
//! accumulator moves, but most windows multiply by the table's entry for 0), or `random` (one
//! random exponent drawn from the seed, dudect's classic fixed-vs-random). One
//! modulus and base are fixed per run. The kernel call alone is timed (`Instant`, no
//! conversions, inputs prepared before the clock starts). Welch's t compares
//! the classes over all samples and over the samples below each of 20 percentile thresholds
//! (dudect's cropping, which removes the slow tail of interrupts); the verdict is the largest
//! |t|. |t| above 4.5 is dudect's evidence of a leak.
//!
//! Kernels: `cios_pow_sec` (`pow::fixed::pow_sec`), `amm_pow_sec` (`pow::fixed::pow_sec_with`
//! on the AVX-512 IFMA kernel, which valgrind cannot run; refused on a CPU without IFMA),
//! `amm_pair_pow_sec` (`pow::pair::pow_sec_pair` on `amm`'s two lanes, as `pow_crt` and
//! `pow_sec_many` run it: a second modulus and base of the same size, both lanes with the
//! class's exponent), `amm_pow_sec_blind` (`FastModulus::pow_sec` with blinding on, where it
//! runs on `amm`: the pair advanced in every run and drawn afresh every `pow::blind::REFRESH`
//! runs, inside the timing), `spectral_pow_sec` (`pow_sec_with` on the spectral kernel; its
//! transforms, pointwise products and Garner step run on AVX-512 IFMA where the CPU has it, and
//! the JSON names the transforms that ran), and `vartime` (`pow::window::pow_vartime`, the
//! control a working test must flag). Progress (samples, |t| so far) goes to stderr.

use std::time::Instant;

use montlab_core::mont::amm::IfmaParams;
use montlab_core::pow::{fixed, pair, window};
use montlab_core::spectral::{self, SpectralParams};
use montlab_core::{FastModulus, Limb, MontParams, OddModulus, Stop};

/// splitmix64: a deterministic stream for moduli, bases, exponents and classes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn limbs(&mut self, n: usize) -> Vec<Limb> {
        (0..n).map(|_| self.next()).collect()
    }
}

/// Welford's running mean and variance of one class.
#[derive(Clone, Copy, Default)]
struct Moments {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn push(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }

    fn var(&self) -> f64 {
        if self.n > 1.0 {
            self.m2 / (self.n - 1.0)
        } else {
            0.0
        }
    }
}

/// Welch's t of two classes (0 while either has fewer than 2 samples).
fn welch(a: &Moments, b: &Moments) -> f64 {
    let den = (a.var() / a.n + b.var() / b.n).sqrt();
    if a.n < 2.0 || b.n < 2.0 || den == 0.0 {
        0.0
    } else {
        (a.mean - b.mean) / den
    }
}

/// One t test: the samples below `limit` ns (`f64::INFINITY`: all of them).
struct Test {
    limit: f64,
    classes: [Moments; 2],
}

/// The fixed exponents of class 0 (see the module documentation).
const FIXED_CLASSES: [&str; 5] = ["zero", "one", "ones", "top", "random"];

/// The kernel built for this run's modulus, or exit 2 saying why there is none.
fn built<T>(k: Option<T>, why: &str) -> T {
    k.unwrap_or_else(|| {
        eprintln!("montlab-dudect: {why}");
        std::process::exit(2)
    })
}

fn usage() -> ! {
    eprintln!(
        "usage: montlab-dudect \
         (cios_pow_sec|amm_pow_sec|amm_pair_pow_sec|amm_pow_sec_blind|spectral_pow_sec|vartime) \
         BITS SAMPLES \
         [SEED [zero|one|ones|top|random]]"
    );
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kernel = args.get(1).cloned().unwrap_or_else(|| usage());
    let bits: usize = args
        .get(2)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| usage());
    let samples: u64 = args
        .get(3)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| usage());
    let seed: u64 = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(1);
    let fixed_class = args.get(5).map_or("zero", String::as_str);
    let kernels = [
        "cios_pow_sec",
        "amm_pow_sec",
        "amm_pair_pow_sec",
        "amm_pow_sec_blind",
        "spectral_pow_sec",
        "vartime",
    ];
    if bits < 2
        || samples < 100
        || !kernels.contains(&kernel.as_str())
        || !FIXED_CLASSES.contains(&fixed_class)
    {
        usage();
    }
    let mut rng = Rng(seed);
    let s = bits.div_ceil(64);
    let mut n = rng.limbs(s);
    let top = (bits - 1) % 64;
    n[s - 1] &= u64::MAX >> (63 - top);
    n[s - 1] |= 1 << top;
    n[0] |= 1;
    let p = MontParams::from_limbs(&n).expect("an odd modulus > 1");
    let m = OddModulus::new(&n).expect("an odd modulus > 1");
    let ifma = (kernel == "amm_pow_sec" || kernel == "amm_pair_pow_sec").then(|| {
        built(
            IfmaParams::new(&m),
            "the amm kernels need AVX-512 IFMA (and N <= 52830 bits)",
        )
    });
    let spectral = (kernel == "spectral_pow_sec").then(|| {
        built(
            SpectralParams::new(&m),
            "no spectral kernel for this seed's modulus (another seed)",
        )
    });
    let mut base = rng.limbs(s);
    base[s - 1] &= (1u64 << top) - 1; // below 2^(bits - 1) <= N

    // `amm_pair_pow_sec`'s second lane: another modulus of the same size, and a base below it.
    let second = (kernel == "amm_pair_pow_sec").then(|| {
        let mut n2 = rng.limbs(s);
        n2[s - 1] &= u64::MAX >> (63 - top);
        n2[s - 1] |= 1 << top;
        n2[0] |= 1;
        let m2 = OddModulus::new(&n2).expect("an odd modulus > 1");
        let mut b2 = rng.limbs(s);
        b2[s - 1] &= (1u64 << top) - 1;
        let k2 = built(IfmaParams::new(&m2), "amm_pair_pow_sec needs AVX-512 IFMA");
        (k2, b2)
    });
    let mut fixed_exp = vec![0; s];
    match fixed_class {
        "one" => fixed_exp[0] = 1,
        "ones" => fixed_exp.fill(u64::MAX),
        "top" => fixed_exp[s - 1] = u64::MAX,
        "random" => fixed_exp = rng.limbs(s),
        _ => {}
    }
    // `amm_pow_sec_blind`: the engine's pow_sec with blinding on, which advances its pair in
    // each run and draws a fresh one every `REFRESH` runs (inside the timing, as users see it).
    let fast = (kernel == "amm_pow_sec_blind").then(|| {
        let m = FastModulus::new(&n).expect("an odd modulus > 1");
        m.set_blinding(true);
        if m.pow_sec_kernel_id() != "amm" {
            eprintln!("montlab-dudect: amm_pow_sec_blind needs pow_sec on amm at this size");
            std::process::exit(2);
        }
        m
    });
    let run = |e: &[Limb]| -> Vec<Limb> {
        match kernel.as_str() {
            "amm_pow_sec_blind" => fast
                .as_ref()
                .expect("built above")
                .pow_sec(&base, e)
                .expect("base < N"),
            "cios_pow_sec" => fixed::pow_sec(&p, &base, e).expect("base < N"),
            "amm_pow_sec" => {
                let k = ifma.as_ref().expect("built above");
                fixed::pow_sec_with(k, &base, e, Stop::never()).expect("never stopped")
            }
            "amm_pair_pow_sec" => {
                let k = ifma.as_ref().expect("built above");
                let (k2, b2) = second.as_ref().expect("built above");
                let [x, _] = pair::pow_sec_pair([k, k2], [&base, b2], [e, e], None, Stop::never())
                    .expect("never stopped");
                x
            }
            "spectral_pow_sec" => {
                let k = spectral.as_ref().expect("built above");
                fixed::pow_sec_with(k, &base, e, Stop::never()).expect("never stopped")
            }
            _ => window::pow_vartime(&p, &base, e).expect("base < N"),
        }
    };
    // Warm-up: caches, frequency, and the percentile thresholds from 1% of the budget.
    let warm = (samples / 100).clamp(50, 10_000);
    let mut pilot: Vec<f64> = Vec::new();
    for _ in 0..warm {
        let e = rng.limbs(s);
        let t = Instant::now();
        std::hint::black_box(run(std::hint::black_box(&e)));
        pilot.push(t.elapsed().as_nanos() as f64);
    }
    pilot.sort_by(f64::total_cmp);
    let mut tests: Vec<Test> = std::iter::once(f64::INFINITY)
        .chain((1..=20).map(|k| {
            // dudect's crops: 1 - 0.5^(10 k / 20) of the pilot distribution.
            let q = 1.0 - 0.5f64.powf(10.0 * f64::from(k) / 20.0);
            pilot[((pilot.len() - 1) as f64 * q) as usize]
        }))
        .map(|limit| Test {
            limit,
            classes: [Moments::default(); 2],
        })
        .collect();
    let started = Instant::now();
    let report = (samples / 20).max(1);
    for i in 0..samples {
        let class = (rng.next() & 1) as usize;
        let e = if class == 0 {
            fixed_exp.clone()
        } else {
            rng.limbs(s)
        };
        let t = Instant::now();
        std::hint::black_box(run(std::hint::black_box(&e)));
        let dt = t.elapsed().as_nanos() as f64;
        for test in &mut tests {
            if dt < test.limit {
                test.classes[class].push(dt);
            }
        }
        if (i + 1) % report == 0 {
            let max = tests
                .iter()
                .map(|t| welch(&t.classes[0], &t.classes[1]).abs())
                .fold(0.0, f64::max);
            eprintln!(
                "montlab-dudect {kernel} {bits} bits: {} samples, max |t| = {max:.2}",
                i + 1
            );
        }
    }
    let ts: Vec<f64> = tests
        .iter()
        .map(|t| welch(&t.classes[0], &t.classes[1]))
        .collect();
    let max = ts.iter().map(|t| t.abs()).fold(0.0, f64::max);
    let all = &tests[0].classes;
    // The spectral kernel's loops (the word-level kernels name themselves).
    let transforms = if kernel == "spectral_pow_sec" {
        spectral::transforms_id()
    } else {
        "none"
    };
    println!(
        "{{\"kernel\": \"{kernel}\", \"bits\": {bits}, \"samples\": {samples}, \"seed\": {seed}, \
         \"fixed\": \"{fixed_class}\", \"transforms\": \"{transforms}\", \
         \"seconds\": {:.1}, \"fixed_mean_ns\": {:.0}, \"random_mean_ns\": {:.0}, \
         \"fixed_n\": {}, \"random_n\": {}, \"t_all\": {:.3}, \"max_abs_t\": {max:.3}, \
         \"t_cropped\": [{}]}}",
        started.elapsed().as_secs_f64(),
        all[0].mean,
        all[1].mean,
        all[0].n,
        all[1].n,
        ts[0],
        ts[1..]
            .iter()
            .map(|t| format!("{t:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welch_separates_shifted_classes_only() {
        let mut rng = Rng(7);
        let (mut a, mut b, mut c) = (Moments::default(), Moments::default(), Moments::default());
        for _ in 0..20_000 {
            let noise = |r: &mut Rng| (r.next() % 1000) as f64;
            a.push(1000.0 + noise(&mut rng));
            b.push(1000.0 + noise(&mut rng));
            c.push(1030.0 + noise(&mut rng)); // a 3 % shift under uniform noise of 1000
        }
        assert!(
            welch(&a, &b).abs() < 4.5,
            "same distribution: {}",
            welch(&a, &b)
        );
        assert!(welch(&a, &c) < -4.5, "shifted: {}", welch(&a, &c));
        assert_eq!(welch(&Moments::default(), &a), 0.0);
    }
}
