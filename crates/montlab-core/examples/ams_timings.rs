//! Times `amm`'s dedicated squaring against the AMM of a number by itself: chained squarings
//! (`IfmaParams::ams` against `IfmaParams::amm(a, a)`), the same on two lanes
//! (`amm::ams_pair` against `amm::amm_pair`, time per squaring, up to `PAIR_MAX_VECS`), and
//! `pow` / `pow_sec` with full-length exponents, whose squarings take the dedicated core where
//! `amm` uses it. Medians of 7 alternating rounds, seeded operands. Needs AVX-512 IFMA.
//!
//! Run as `cargo run --release -p montlab-core --example ams_timings -- [BITS ...]`
//! (default 1024 2048 3072 4096 6144 8192).

use montlab_core::mont::amm::{self, IfmaParams};
use montlab_core::pow::{fixed, window};
use montlab_core::{OddModulus, Stop};

mod common;
use common::{median, once, Rng};

fn main() {
    if !amm::available() {
        eprintln!("ams_timings: this CPU has no AVX-512 IFMA");
        std::process::exit(2);
    }
    let sizes = common::sizes_or(
        std::env::args().skip(1),
        &[1024, 2048, 3072, 4096, 6144, 8192],
    );
    let mut rng = Rng(0x5eed_0a35);
    println!(
        "{:>6} {:>5} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6} {:>10} {:>10}",
        "bits",
        "vecs",
        "amm ns",
        "ams ns",
        "ratio",
        "amm2 ns",
        "ams2 ns",
        "ratio",
        "pow us",
        "sec us"
    );
    for bits in sizes {
        let s = bits.div_ceil(64);
        let mut n = rng.bits(bits);
        n[0] |= 1;
        let p = IfmaParams::new(&OddModulus::new(&n).expect("odd")).expect("IFMA");
        let mut x = rng.bits(bits - 1);
        x.resize(s, 0);
        let e = rng.bits(bits);
        let ex = p.elem(&x);
        let (mut a, mut o) = (ex.clone(), ex.clone());
        let (mut a2, mut o2) = ([ex.clone(), ex.clone()], [ex.clone(), ex.clone()]);
        let pair = p.vecs() <= amm::PAIR_MAX_VECS;
        let reps = (400_000_000 / (bits * bits)).max(10);
        let exp_reps = (reps / (bits + bits / 4)).max(2);
        let mut t: [Vec<f64>; 6] = Default::default();
        for _ in 0..7 {
            t[0].push(once(reps, || {
                p.amm(&a, &a, &mut o);
                std::mem::swap(&mut a, &mut o);
            }));
            t[1].push(once(reps, || {
                p.ams(&a, &mut o);
                std::mem::swap(&mut a, &mut o);
            }));
            if pair {
                t[4].push(
                    once(reps, || {
                        let [o0, o1] = &mut o2;
                        amm::amm_pair([&p, &p], [&a2[0], &a2[1]], [&a2[0], &a2[1]], [o0, o1]);
                        std::mem::swap(&mut a2, &mut o2);
                    }) / 2.0,
                );
                t[5].push(
                    once(reps, || {
                        let [o0, o1] = &mut o2;
                        amm::ams_pair([&p, &p], [&a2[0], &a2[1]], [o0, o1]);
                        std::mem::swap(&mut a2, &mut o2);
                    }) / 2.0,
                );
            } else {
                t[4].push(f64::NAN);
                t[5].push(f64::NAN);
            }
            t[2].push(once(exp_reps, || {
                std::hint::black_box(window::pow_vartime_with(&p, &x, &e));
            }));
            t[3].push(once(exp_reps, || {
                std::hint::black_box(fixed::pow_sec_with(&p, &x, &e, Stop::never()).ok());
            }));
        }
        let [mm, sq, pow, sec, mm2, sq2] = t.map(median);
        println!(
            "{bits:>6} {:>5} {:>10.1} {:>10.1} {:>6.3} {:>10.1} {:>10.1} {:>6.3} {:>10.1} {:>10.1}",
            p.vecs(),
            mm * 1e9,
            sq * 1e9,
            sq / mm,
            mm2 * 1e9,
            sq2 * 1e9,
            sq2 / mm2,
            pow * 1e6,
            sec * 1e6,
        );
    }
}
