//! Times what a residue product on `amm` costs beyond its AMM: `IfmaParams::mont_product_into`
//! (two 64-to-52 radix conversions, the AMM and the 52-to-64 conversion with the final
//! subtraction, as a residue product runs) against `IfmaParams::amm` on elements already in
//! radix 2^52. The difference also holds the overlap that back-to-back AMMs get and a product
//! between conversions does not. Medians of 7 alternating rounds, seeded operands below N.
//! Needs AVX-512 IFMA.
//!
//! Run as `cargo run --release -p montlab-core --example amm_conversion_timings -- [BITS ...]`
//! (default 1024 2048 4096).

use std::hint::black_box;

use montlab_core::mont::amm::{self, IfmaParams};
use montlab_core::OddModulus;

mod common;
use common::{median, once, Rng};

fn main() {
    if !amm::available() {
        eprintln!("amm_conversion_timings: this CPU has no AVX-512 IFMA");
        std::process::exit(2);
    }
    let sizes = common::sizes_or(std::env::args().skip(1), &[1024, 2048, 4096]);
    let mut rng = Rng(0x5eed_c0de);
    println!(
        "{:>6} {:>12} {:>10} {:>12}",
        "bits", "product ns", "amm ns", "rest ns"
    );
    for bits in sizes {
        let mut n = rng.bits(bits);
        n[0] |= 1;
        let p = IfmaParams::new(&OddModulus::new(&n).expect("odd")).expect("IFMA checked");
        let s = n.len();
        let below = |rng: &mut Rng| {
            let mut x = rng.limbs(s);
            x[s - 1] = n[s - 1] >> 1;
            x
        };
        let (a, b) = (below(&mut rng), below(&mut rng));
        let (ea, eb) = (p.elem(&a), p.elem(&b));
        let (mut eo, mut out) = (p.elem(&a), vec![0; s]);
        let reps = (2_000_000 * 1024 / bits).max(1000);
        let (mut full, mut bare) = (Vec::new(), Vec::new());
        for _ in 0..7 {
            full.push(once(reps, || {
                p.mont_product_into(black_box(&a), Some(black_box(&b)), &mut out);
                black_box(&out);
            }));
            bare.push(once(reps, || {
                p.amm(black_box(&ea), black_box(&eb), &mut eo);
                black_box(&eo);
            }));
        }
        let (f, b) = (median(full) * 1e9, median(bare) * 1e9);
        println!("{bits:>6} {f:>12.1} {b:>10.1} {:>12.1}", f - b);
    }
}
