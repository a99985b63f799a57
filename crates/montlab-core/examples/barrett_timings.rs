//! Times `BarrettParams::mul_mod` (the product on ints of the word level without IFMA) and its
//! square, by limb count: medians of 7 alternating rounds, seeded operands below N. With
//! `barrett::SPLIT_LIMBS` edited (to 96, or past every size), it times the split truncated
//! products against the rows at each size, which is how that constant was chosen.
//!
//! Run as `cargo run --release -p montlab-core --example barrett_timings -- [LIMBS ...]`
//! (default 64 96 128 160 192 224 256 320 384).

use std::hint::black_box;

use montlab_core::barrett::{BarrettParams, SPLIT_LIMBS};
use montlab_core::OddModulus;

mod common;
use common::{median, once, Rng};

fn main() {
    let sizes = common::sizes_or(
        std::env::args().skip(1),
        &[64, 96, 128, 160, 192, 224, 256, 320, 384],
    );
    let mut rng = Rng(0x5eed_ba77);
    println!("SPLIT_LIMBS = {SPLIT_LIMBS}");
    println!("{:>6} {:>10} {:>10}", "limbs", "mul us", "sqr us");
    for k in sizes {
        let mut n = rng.bits(64 * k);
        n[0] |= 1;
        let p = BarrettParams::new(&OddModulus::new(&n).expect("odd"));
        let below = |rng: &mut Rng| {
            let mut x = rng.limbs(k);
            x[k - 1] = n[k - 1] >> 1;
            x
        };
        let (x, y) = (below(&mut rng), below(&mut rng));
        let reps = (20_000_000 / (k * k)).max(10);
        let (mut mul, mut sqr) = (Vec::new(), Vec::new());
        for _ in 0..7 {
            mul.push(once(reps, || {
                black_box(p.mul_mod(black_box(&x), Some(black_box(&y))));
            }));
            sqr.push(once(reps, || {
                black_box(p.mul_mod(black_box(&x), None));
            }));
        }
        let (m, s) = (median(mul) * 1e6, median(sqr) * 1e6);
        println!("{k:>6} {m:>10.2} {s:>10.2}");
    }
}
