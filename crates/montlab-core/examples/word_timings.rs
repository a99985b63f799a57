//! Times the word-level kernels, `cios` + `sqr` (R = 2^(64 s)) against the radix-2^52 AVX-512
//! IFMA kernel (`mont::amm`), in alternating rounds, medians of the rounds, seeded operands.
//!
//! Run as `cargo run --release -p montlab-core --example word_timings -- [BITS ...]`
//! (default 1024 2048 3072 4096 8192). Two tables per size list:
//! - products: chained Montgomery products and squarings on each kernel, and one ordinary
//!   `x y mod N` as `FastModulus::mul` computes it on each (two Montgomery products and the
//!   conversions), then `FastModulus::mul` as dispatched (`*` where not on IFMA);
//! - exponentiations (exponent as long as N): `cios` + `sqr` (left out above 8192 bits),
//!   IFMA, the spectral kernel (`FastModulus` with `spectral_pow_bits = 0`), and
//!   `FastModulus::pow` as dispatched by the generic table (`*` where not on IFMA);
//! - reductions of a product T < R N (2 s limbs): the REDC rows against the sub-quadratic
//!   `mont::redc_n` on the same rows where it has its constants (from `redc_n::MIN_LIMBS`
//!   limbs), on the constant-time rows (which reduce by it from `redc_n::CT_MIN_LIMBS`) and on
//!   the variable-time ones (from `redc_n::MIN_LIMBS`), best of the rounds, with their ratios.
//!
//! Prints "-" for IFMA on a CPU without it.

use std::time::Instant;

use montlab_core::engine::{Cut, Thresholds};
use montlab_core::mont::amm::IfmaParams;
use montlab_core::mont::{redc_n, sqr};
use montlab_core::pow::{window, MontKernel};
use montlab_core::{bigarith, FastModulus, Kernel, MontParams, OddModulus};

mod common;
use common::{median, once, Rng};

/// Calls per sample of a product-sized operation at `bits` bits.
fn product_reps(bits: usize) -> usize {
    (4_000_000 / (bits * bits / 4096 + 1)).clamp(10, 20_000)
}

fn us(v: f64) -> String {
    format!("{:.3}us", v * 1e6)
}

/// Chained Montgomery products and squarings (each takes the previous output, as in an
/// exponentiation), then one ordinary `x y mod N` as `FastModulus::mul` computes it on a
/// `MontKernel` (product, then a product with R^2 mod N): seconds per call, one round.
fn products<K: MontKernel>(k: &K, x: &[u64], y: &[u64], reps: usize) -> [f64; 3] {
    let mut sc = k.scratch();
    let ym = k.to_mont(y, &mut sc);
    let mut acc = k.to_mont(x, &mut sc);
    let mut out = acc.clone();
    let t = Instant::now();
    for _ in 0..reps {
        k.mul(&acc, &ym, &mut out, &mut sc);
        std::mem::swap(&mut acc, &mut out);
    }
    let mul = t.elapsed().as_secs_f64() / reps as f64;
    let t = Instant::now();
    for _ in 0..reps {
        k.sqr(&acc, &mut out, &mut sc);
        std::mem::swap(&mut acc, &mut out);
    }
    let sqr = t.elapsed().as_secs_f64() / reps as f64;
    std::hint::black_box(&acc);
    let ordinary = once(reps, || {
        let xw = k.wrap(x);
        let mut t = xw.clone();
        k.mul(&xw, &k.wrap(y), &mut t, &mut sc);
        std::hint::black_box(k.unwrap(&k.to_mont(&k.unwrap(&t), &mut sc)));
    });
    [mul, sqr, ordinary]
}

fn main() {
    let sizes = common::sizes_or(std::env::args().skip(1), &[1024, 2048, 3072, 4096, 8192]);
    let ms = |v: f64| format!("{:.3}ms", v * 1e3);
    let cases: Vec<_> = sizes.iter().map(|&bits| case(bits)).collect();

    println!(
        "{:>6} {:>10} {:>10} {:>10} {:>10} {:>11} {:>11} {:>7} {:>11}",
        "bits",
        "cios mul",
        "ifma mul",
        "cios sqr",
        "ifma sqr",
        "cios x*y",
        "ifma x*y",
        "x*y x",
        "engine mul"
    );
    for c in &cases {
        let bits = c.bits;
        let reps = product_reps(bits);
        let (mut tw, mut ti, mut tf): (Vec<[f64; 3]>, Vec<[f64; 3]>, Vec<f64>) =
            (vec![], vec![], vec![]);
        let _ = c.fast.mul(&c.x, &c.y);
        for _ in 0..9 {
            tw.push(products(&c.word, &c.x, &c.y, reps));
            if let Some(k) = &c.ifma {
                ti.push([
                    0.0,
                    0.0,
                    once(reps, || {
                        std::hint::black_box(k.mul_mod(&c.x, Some(&c.y)));
                    }),
                ]);
                let p = products(k, &c.x, &c.y, reps);
                let last = ti.last_mut().expect("pushed");
                (last[0], last[1]) = (p[0], p[1]);
            }
            tf.push(once(reps, || {
                std::hint::black_box(c.fast.mul(&c.x, &c.y).expect("x, y < N"));
            }));
        }
        let med = |t: &[[f64; 3]], i: usize| median(t.iter().map(|r| r[i]).collect());
        let col = |i: usize| {
            if ti.is_empty() {
                "-".to_string()
            } else {
                us(med(&ti, i))
            }
        };
        let ratio = if ti.is_empty() {
            "-".into()
        } else {
            format!("{:.2}", med(&tw, 2) / med(&ti, 2))
        };
        let engine = format!(
            "{}{}",
            us(median(tf)),
            if c.fast.mul_uses_ifma() { "" } else { "*" }
        );
        println!(
            "{bits:>6} {:>10} {:>10} {:>10} {:>10} {:>11} {:>11} {:>7} {:>11}",
            us(med(&tw, 0)),
            col(0),
            us(med(&tw, 1)),
            col(1),
            us(med(&tw, 2)),
            col(2),
            ratio,
            engine
        );
    }

    println!(
        "\n{:>6} {:>12} {:>12} {:>12} {:>9} {:>12}",
        "bits", "cios pow", "ifma pow", "spectral pow", "spec/ifma", "engine pow"
    );
    for c in &cases {
        let bits = c.bits;
        let rounds = if bits >= 8192 { 3 } else { 9 };
        let reps = (4_000_000 / (bits * bits / 4096 + 1) / 2000).max(1);
        let spectral = FastModulus::with_thresholds(
            &c.n,
            Thresholds {
                spectral_mul_bits: Cut::NEVER,
                spectral_pow_bits: Cut::at(0),
                ntt_redc_pow_bits: u64::MAX,
                spectral_sec_bits: Cut::NEVER,
                ..Thresholds::generic()
            },
        )
        .expect("odd modulus");
        let spectral = (spectral.pow_kernel() == Kernel::Spectral).then_some(spectral);
        // Results agree: cios (up to 8192 bits), IFMA, spectral and the dispatched pow.
        let mut results = vec![c.fast.pow(&c.x, &c.e).expect("x < N")];
        if bits <= 8192 {
            results.push(window::pow_vartime_with(&c.word, &c.x, &c.e));
        }
        if let Some(k) = &c.ifma {
            results.push(window::pow_vartime_with(k, &c.x, &c.e));
        }
        if let Some(sp) = &spectral {
            results.push(sp.pow(&c.x, &c.e).expect("x < N"));
        }
        assert!(
            results.iter().all(|r| *r == results[0]),
            "kernels disagree at {bits} bits"
        );
        let mut t: [Vec<f64>; 4] = Default::default();
        for _ in 0..rounds {
            if bits <= 8192 {
                t[0].push(once(reps, || {
                    std::hint::black_box(window::pow_vartime_with(&c.word, &c.x, &c.e));
                }));
            }
            if let Some(k) = &c.ifma {
                t[1].push(once(reps, || {
                    std::hint::black_box(window::pow_vartime_with(k, &c.x, &c.e));
                }));
            }
            if let Some(sp) = &spectral {
                t[2].push(once(reps, || {
                    std::hint::black_box(sp.pow(&c.x, &c.e).expect("x < N"));
                }));
            }
            t[3].push(once(reps, || {
                std::hint::black_box(c.fast.pow(&c.x, &c.e).expect("x < N"));
            }));
        }
        let [tc, ti, ts, tf] = t.map(|v| (!v.is_empty()).then(|| median(v)));
        let show = |v: Option<f64>| v.map_or("-".to_string(), ms);
        let ratio = match (ts, ti) {
            (Some(s), Some(i)) => format!("{:.2}", s / i),
            _ => "-".into(),
        };
        let engine = format!(
            "{}{}",
            show(tf),
            if c.fast.pow_uses_ifma() { "" } else { "*" }
        );
        println!(
            "{bits:>6} {:>12} {:>12} {:>12} {:>9} {:>12}",
            show(tc),
            show(ti),
            show(ts),
            ratio,
            engine
        );
    }
    reductions(&cases);
}

/// The reductions table: rows against `redc_n` on the product x y (each call copies it in
/// first, as the rows clobber it), on the constant-time rows and on the variable-time ones, the
/// best of 25 alternating rounds (the least disturbed: the two differ by less than the medians'
/// spread on a shared machine).
fn reductions(cases: &[Case]) {
    println!(
        "\n{:>6} {:>12} {:>12} {:>10} {:>12} {:>12} {:>10}",
        "bits", "rows redc", "redc_n", "n / rows", "rows vt", "redc_n vt", "n / rows"
    );
    type Redc = fn(&MontParams, &[u64], &mut [u64], &mut [u64]);
    type RowsRedc = fn(&MontParams, &mut [u64], &mut [u64]);
    let rows: [RowsRedc; 2] = [sqr::rows_redc_into, sqr::rows_redc_vartime_into];
    let subq: [Redc; 2] = [redc_n::redc_into, redc_n::redc_vartime_into];
    for c in cases {
        let s = c.word.s();
        let reps = product_reps(c.bits);
        let mut t = vec![0; 2 * s];
        let mut out = vec![0; s];
        let mut sc = vec![0; redc_n::scratch_len(s)];
        let mut product = (bigarith::from_limbs(&c.x) * bigarith::from_limbs(&c.y)).to_u64_digits();
        product.resize(2 * s, 0);
        let applies = redc_n::applies(s);
        let mut line = format!("{:>6}", c.bits);
        for (rows, subq) in rows.iter().zip(subq) {
            if applies {
                let mut a = vec![0; s];
                rows(&c.word, &mut product.clone(), &mut a);
                subq(&c.word, &product, &mut out, &mut sc);
                assert_eq!(a, out, "reductions disagree at {} bits", c.bits);
            }
            let (mut tr, mut tn) = (vec![], vec![]);
            for _ in 0..25 {
                tr.push(once(reps, || {
                    t.copy_from_slice(&product);
                    rows(&c.word, &mut t, &mut out);
                }));
                if applies {
                    tn.push(once(reps, || {
                        t.copy_from_slice(&product);
                        subq(&c.word, &t, &mut out, &mut sc);
                    }));
                }
            }
            let best = |v: Vec<f64>| v.into_iter().fold(f64::INFINITY, f64::min);
            let (r, n) = (best(tr), (!tn.is_empty()).then(|| best(tn)));
            line += &format!(
                " {:>12} {:>12} {:>10}",
                us(r),
                n.map_or("-".into(), us),
                n.map_or("-".into(), |n| format!("{:.2}", n / r))
            );
        }
        println!("{line}");
    }
}

/// One size: modulus, kernels and seeded operands.
struct Case {
    bits: usize,
    n: Vec<u64>,
    word: MontParams,
    ifma: Option<IfmaParams>,
    fast: FastModulus,
    x: Vec<u64>,
    y: Vec<u64>,
    e: Vec<u64>,
}

fn case(bits: usize) -> Case {
    let mut rng = Rng(bits as u64);
    let mut n = rng.bits(bits);
    n[0] |= 1;
    let m = OddModulus::new(&n).expect("odd modulus");
    let mut x = rng.bits(bits - 1);
    let mut y = rng.bits(bits - 1);
    x.resize(n.len(), 0);
    y.resize(n.len(), 0);
    let e = rng.bits(bits);
    Case {
        bits,
        word: MontParams::new(m.clone()),
        ifma: IfmaParams::new(&m),
        fast: FastModulus::new(&n).expect("odd modulus"),
        n,
        x,
        y,
        e,
    }
}
