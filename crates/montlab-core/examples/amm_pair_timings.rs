//! Times `amm`'s two lanes against one: chained AMMs on one lane and as pairs
//! (`amm::AmmPair`, as the paired windows call it; two moduli of one size), and
//! exponentiations with full-length exponents: `pow` (sliding window, one lane), `pow_sec`
//! (fixed window, one lane) and the pair's fixed window (`pow::pair::pow_sec_pair`, time per
//! exponentiation). Medians of 7 alternating rounds, seeded operands. Needs AVX-512 IFMA.
//!
//! Run as `cargo run --release -p montlab-core --example amm_pair_timings -- [BITS ...]`
//! (default 1024 1536 2048 2304 3072 4096).

use montlab_core::mont::amm::{self, IfmaParams};
use montlab_core::pow::{fixed, pair, window};
use montlab_core::{OddModulus, Stop};

mod common;
use common::{median, once, Rng};

fn main() {
    if !amm::available() {
        eprintln!("amm_pair_timings: this CPU has no AVX-512 IFMA");
        std::process::exit(2);
    }
    let sizes = common::sizes_or(
        std::env::args().skip(1),
        &[1024, 1536, 2048, 2304, 3072, 4096],
    );
    let mut rng = Rng(0x5eed_a11a);
    println!(
        "{:>6} {:>5} {:>11} {:>11} {:>6} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "bits",
        "vecs",
        "amm ns",
        "pair ns",
        "ratio",
        "pow us",
        "sec us",
        "pair us",
        "pair/sec",
        "pair/pow"
    );
    for bits in sizes {
        let s = bits.div_ceil(64);
        let n = [rng.bits(bits), rng.bits(bits)].map(|mut n| {
            n[0] |= 1;
            n
        });
        let p = n.map(|n| IfmaParams::new(&OddModulus::new(&n).expect("odd")).expect("IFMA"));
        let mut x = rng.bits(bits - 1);
        x.resize(s, 0);
        let e = rng.bits(bits);
        let ex = [p[0].elem(&x), p[1].elem(&x)];
        let pair = amm::AmmPair::new([&p[0], &p[1]]);
        let (mut a, mut o) = (ex.clone(), ex.clone());
        let reps = (400_000_000 / (bits * bits)).max(10);
        let exp_reps = (reps / (bits + bits / 4)).max(2);
        let mut t: [Vec<f64>; 5] = Default::default();
        for _ in 0..7 {
            t[0].push(once(reps, || {
                let [a0, _] = &mut a;
                let [o0, _] = &mut o;
                p[0].amm(a0, a0, o0);
                std::mem::swap(a0, o0);
            }));
            t[1].push(
                once(reps, || {
                    let [a0, a1] = &a;
                    let [o0, o1] = &mut o;
                    pair.mul([a0, a1], [a0, a1], [o0, o1]);
                    std::mem::swap(&mut a, &mut o);
                }) / 2.0,
            );
            t[2].push(once(exp_reps, || {
                std::hint::black_box(window::pow_vartime_with(&p[0], &x, &e));
            }));
            t[3].push(once(exp_reps, || {
                std::hint::black_box(fixed::pow_sec_with(&p[0], &x, &e, Stop::never()).ok());
            }));
            t[4].push(
                once(exp_reps, || {
                    let got =
                        pair::pow_sec_pair([&p[0], &p[1]], [&x, &x], [&e, &e], None, Stop::never());
                    std::hint::black_box(got.ok());
                }) / 2.0,
            );
        }
        let [one, two, pow, sec, pr] = t.map(median);
        println!(
            "{bits:>6} {:>5} {:>11.1} {:>11.1} {:>6.3} {:>10.1} {:>10.1} {:>10.1} {:>8.3} {:>8.3}",
            p[0].vecs(),
            one * 1e9,
            two * 1e9,
            two / one,
            pow * 1e6,
            sec * 1e6,
            pr * 1e6,
            pr / sec,
            pr / pow
        );
    }
}
