//! Times the Montgomery kernels at a list of sizes: one product, one squaring, one full
//! exponentiation and one constant-time one (`pow_sec`'s fixed window) per kernel (medians of
//! repeated runs, seeded operands).
//!
//! * `kernel_timings [BITS ...]`: the table above, word-level and spectral kernels.
//! * `kernel_timings crossover [FROM TO STEP]`: per size, the word-level and spectral times of
//!   one product and one full exponentiation in alternating rounds (for the threshold table).
//! * `kernel_timings spectral [BITS ...]`: spectral kernel only, per size the medians of one
//!   Montgomery product of fresh operands, one ordinary-domain product as `FastModulus::mul`
//!   runs it (that product, then the conversion with R^2 mod N) and one full exponentiation
//!   (exponent as wide as N; 1 run at >= 32768 bits, 3 below), and the one-off
//!   `SpectralParams::new` (setup, single run).
//! * `kernel_timings transforms [BITS ...]`: one forward transform of a BITS-bit operand three
//!   ways: Goldilocks (p = 2^64 - 2^32 + 1, 16-bit coefficients, radix 2) and the three
//!   50-bit primes (64-bit coefficients), portable and IFMA.
//! * `kernel_timings work KERNEL BITS`: a fixed, untimed workload on `word` or `spectral`
//!   (100 products, 100 squarings, one exponentiation and one `pow_sec`, full-width exponent),
//!   for counting instructions under a tool such as callgrind.
//!
//! Run as `cargo run --release -p montlab-core --example kernel_timings -- ARGS`.

use std::hint::select_unpredictable;
use std::time::Instant;

use montlab_core::pow::fixed::{self, CtKernel};
use montlab_core::pow::{window, MontKernel};
use montlab_core::spectral::ntt::{forward_portable, NttTables};
use montlab_core::spectral::{forward, SpectralParams};
use montlab_core::{MontParams, OddModulus, Stop};

mod common;
use common::Rng;

/// A full-width odd modulus N of `s` limbs, operands x, y < N and a full-width exponent.
fn operands(rng: &mut Rng, s: usize) -> (Vec<u64>, Vec<u64>, Vec<u64>, Vec<u64>) {
    let mut n = rng.limbs(s);
    n[0] |= 1;
    n[s - 1] |= 1 << 63;
    let mut x = rng.limbs(s);
    let mut y = rng.limbs(s);
    x[s - 1] >>= 1;
    y[s - 1] >>= 1;
    let mut e = rng.limbs(s);
    e[s - 1] |= 1 << 63;
    (n, x, y, e)
}

/// Median seconds per call of `f`, over `rounds` rounds of `reps` calls.
fn median<F: FnMut()>(rounds: usize, reps: usize, mut f: F) -> f64 {
    let mut v: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time_kernel<K: CtKernel>(name: &str, k: &K, x: &[u64], y: &[u64], e: &[u64], bits: usize) {
    let mut sc = k.scratch();
    let xm = k.to_mont(x, &mut sc);
    let mut ym = k.to_mont(y, &mut sc);
    let mut out = xm.clone();
    let reps = (4_000_000 / (bits * bits / 4096 + 1)).clamp(1, 20_000);
    let mul = median(7, reps, || k.mul(&xm, &ym, &mut out, &mut sc));
    let sqr = median(7, reps, || k.sqr(&xm, &mut out, &mut sc));
    k.prepare(&mut ym, &mut sc);
    let mulp = median(7, reps, || k.mul(&xm, &ym, &mut out, &mut sc));
    let (pow, sec) = if bits <= 65536 {
        let rounds = if bits >= 32768 { 1 } else { 3 };
        let pow = median(rounds, 1, || {
            std::hint::black_box(window::pow_vartime_with(k, x, e));
        });
        let sec = median(rounds, 1, || {
            std::hint::black_box(fixed::pow_sec_with(k, x, e, Stop::never()).expect("no stop"));
        });
        (pow, sec)
    } else {
        (f64::NAN, f64::NAN)
    };
    println!(
        "{bits:>6} {name:<8} mul {:>10.2} us  sqr {:>10.2} us  mul(prepared) {:>10.2} us  pow {:>10.3} ms  pow_sec {:>10.3} ms",
        mul * 1e6,
        sqr * 1e6,
        mulp * 1e6,
        pow * 1e3,
        sec * 1e3
    );
}

/// The fixed workload of `work` on kernel `k`.
fn work<K: CtKernel>(k: &K, x: &[u64], y: &[u64], e: &[u64]) {
    let mut sc = k.scratch();
    let mut acc = k.to_mont(x, &mut sc);
    let ym = k.to_mont(y, &mut sc);
    let mut out = acc.clone();
    for _ in 0..100 {
        k.mul(&acc, &ym, &mut out, &mut sc);
        std::mem::swap(&mut acc, &mut out);
        k.sqr(&acc, &mut out, &mut sc);
        std::mem::swap(&mut acc, &mut out);
    }
    std::hint::black_box(&acc);
    std::hint::black_box(window::pow_vartime_with(k, x, e));
    std::hint::black_box(fixed::pow_sec_with(k, x, e, Stop::never()).expect("no stop"));
}

/// Alternating rounds of word-level and spectral timings, medians per size.
fn crossover(from: usize, to: usize, step: usize) {
    let mut rng = Rng(0xc055);
    println!("  bits   word mul   spec mul   word pow   spec pow   (us, us, ms, ms)");
    let mut bits = from;
    while bits <= to {
        let s = bits.div_ceil(64);
        let mut n = rng.limbs(s);
        n[0] |= 1;
        n[s - 1] |= 1 << 63;
        n[s - 1] >>= (64 * s - bits) as u32;
        let mut x = rng.limbs(s);
        x[s - 1] = 0;
        let mut e = rng.limbs(s);
        e[s - 1] |= 1 << 63;
        let m = OddModulus::new(&n).unwrap();
        let w = MontParams::new(m.clone());
        let sp = SpectralParams::new(&m).unwrap();
        let (mut ws, mut ss) = (w.scratch(), sp.scratch());
        let (xw, xs) = (w.to_mont(&x, &mut ws), sp.to_mont(&x, &mut ss));
        let (mut ow, mut os) = (xw.clone(), xs.clone());
        let mut t = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..5 {
            t[0].push(median(3, 200, || w.mul(&xw, &xw, &mut ow, &mut ws)));
            t[1].push(median(3, 200, || sp.mul(&xs, &xs, &mut os, &mut ss)));
            t[2].push(median(1, 1, || drop(window::pow_vartime_with(&w, &x, &e))));
            t[3].push(median(1, 1, || drop(window::pow_vartime_with(&sp, &x, &e))));
        }
        let med = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        println!(
            "{bits:>6} {:>10.2} {:>10.2} {:>10.3} {:>10.3}",
            med(&mut t[0]) * 1e6,
            med(&mut t[1]) * 1e6,
            med(&mut t[2]) * 1e3,
            med(&mut t[3]) * 1e3
        );
        bits += step;
    }
}

/// Goldilocks p = 2^64 - 2^32 + 1.
const GP: u64 = 0xffff_ffff_0000_0001;

/// x mod p for any 128-bit x, into [0, 2^64) (2^64 = 2^32 - 1 and 2^96 = -1 mod p).
#[inline(always)]
fn g_reduce(x: u128) -> u64 {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let (hh, hl) = (hi >> 32, hi & 0xffff_ffff);
    // Branch-free corrections: these carries are random, a branch would mispredict half the time.
    let (t, borrow) = lo.overflowing_sub(hh);
    let t = select_unpredictable(borrow, t.wrapping_sub(0xffff_ffff), t);
    let (r, carry) = t.overflowing_add(hl.wrapping_mul(0xffff_ffff));
    select_unpredictable(carry, r.wrapping_add(0xffff_ffff), r)
}

#[inline(always)]
fn g_add(a: u64, b: u64) -> u64 {
    let (r, c) = a.overflowing_add(b);
    select_unpredictable(c, r.wrapping_add(0xffff_ffff), r)
}

#[inline(always)]
fn g_sub(a: u64, b: u64) -> u64 {
    let (r, c) = a.overflowing_sub(b);
    select_unpredictable(c, r.wrapping_sub(0xffff_ffff), r)
}

/// Radix-2 Goldilocks forward transform (Cooley-Tukey, one twiddle per block, bit-reversed
/// output), the baseline of the NTT64 design; twiddles are general field elements.
fn goldilocks_forward(a: &mut [u64], z: &[u64]) {
    let n = a.len();
    let (mut blocks, mut half) = (1, n / 2);
    while half >= 1 {
        for b in 0..blocks {
            let w = z[blocks + b];
            let (lo, hi) = a[2 * b * half..2 * (b + 1) * half].split_at_mut(half);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = g_reduce(u128::from(*y).wrapping_mul(u128::from(w)));
                (*x, *y) = (g_add(*x, t), g_sub(*x, t));
            }
        }
        blocks *= 2;
        half /= 2;
    }
}

/// One forward transform of a `bits`-bit operand: Goldilocks with 16-bit coefficients
/// against the three primes with 64-bit coefficients.
fn transforms(bits: usize) {
    let mut rng = Rng(0x7f);
    let g_len = (bits / 16).next_power_of_two();
    let z: Vec<u64> = (0..g_len).map(|_| rng.next() % GP).collect();
    let mut g: Vec<u64> = (0..g_len).map(|_| rng.next() & 0xffff).collect();
    let p_len = bits.div_ceil(64).next_power_of_two();
    let tables: Vec<NttTables> = (0..3).map(|i| NttTables::new(i, p_len)).collect();
    let mut r: Vec<u64> = (0..p_len).map(|_| rng.next() >> 14).collect();
    let reps = (2_000_000 / bits).max(1);
    let mut t = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..7 {
        t[0].push(median(1, reps, || goldilocks_forward(&mut g, &z)));
        t[1].push(median(1, reps, || {
            for tb in &tables {
                forward_portable(&mut r, tb, true);
            }
        }));
        t[2].push(median(1, reps, || {
            for tb in &tables {
                forward(&mut r, tb, true);
            }
        }));
        for v in r.iter_mut() {
            *v %= 1 << 50;
        }
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2] * 1e6
    };
    let vector = montlab_core::spectral::transforms_id();
    println!(
        "{bits:>6} bits: goldilocks {g_len}-point {:.2} us | 3 primes x {p_len}-point portable {:.2} us, {vector} {:.2} us",
        med(&mut t[0]),
        med(&mut t[1]),
        med(&mut t[2]),
    );
}

/// The spectral kernel alone: Montgomery product, ordinary-domain product, exponentiation.
fn spectral_only(bits: usize) {
    let mut rng = Rng(0x5eed);
    let s = bits.div_ceil(64);
    let (n, x, y, e) = operands(&mut rng, s);
    let m = OddModulus::new(&n).unwrap();
    let t = Instant::now();
    let sp = SpectralParams::new(&m).unwrap();
    let setup = t.elapsed().as_secs_f64();
    let mut sc = sp.scratch();
    let (xw, yw) = (sp.wrap(&x), sp.wrap(&y));
    let mut out = xw.clone();
    let reps = (4_000_000 / (bits * bits / 4096 + 1)).clamp(20, 20_000);
    let mul = median(9, reps, || sp.mul(&xw, &yw, &mut out, &mut sc));
    let fast = median(9, reps, || {
        sp.mul(&xw, &yw, &mut out, &mut sc);
        std::hint::black_box(sp.to_mont(&sp.unwrap(&out), &mut sc));
    });
    let pow = median(if bits >= 32768 { 1 } else { 3 }, 1, || {
        std::hint::black_box(window::pow_vartime_with(&sp, &x, &e));
    });
    println!(
        "{bits:>6} spectral mont_mul {:>9.2} us  mul(x y mod N) {:>9.2} us  pow {:>10.3} ms  setup {:>8.2} ms  (transforms {})",
        mul * 1e6,
        fast * 1e6,
        pow * 1e3,
        setup * 1e3,
        montlab_core::spectral::transforms_id()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("spectral") {
        for a in args.iter().skip(1) {
            spectral_only(a.parse().expect("a bit count"));
        }
        return;
    }
    if args.first().map(String::as_str) == Some("transforms") {
        for a in args.iter().skip(1) {
            transforms(a.parse().expect("a bit count"));
        }
        if args.len() == 1 {
            for bits in [8192, 65536] {
                transforms(bits);
            }
        }
        return;
    }
    if args.first().map(String::as_str) == Some("work") {
        let kernel = args.get(1).expect("work KERNEL BITS");
        let bits: usize = args
            .get(2)
            .and_then(|a| a.parse().ok())
            .expect("a bit count");
        let (n, x, y, e) = operands(&mut Rng(0x5eed), bits.div_ceil(64));
        let modulus = OddModulus::new(&n).unwrap();
        match kernel.as_str() {
            "word" => work(&MontParams::new(modulus), &x, &y, &e),
            "spectral" => work(&SpectralParams::new(&modulus).unwrap(), &x, &y, &e),
            other => panic!("work: unknown kernel {other} (word or spectral)"),
        }
        return;
    }
    if args.first().map(String::as_str) == Some("crossover") {
        let num = |i: usize, d: usize| args.get(i).map_or(d, |a| a.parse().expect("a number"));
        return crossover(num(1, 1024), num(2, 8192), num(3, 512));
    }
    let sizes = common::sizes_or(&args, &[2048, 4096, 8192, 16384, 32768, 65536]);
    let mut rng = Rng(0x5eed);
    for bits in sizes {
        let s = bits.div_ceil(64);
        let (n, x, y, e) = operands(&mut rng, s);
        let modulus = OddModulus::new(&n).unwrap();
        let words = MontParams::new(modulus.clone());
        if bits <= 16384 || std::env::var_os("ALL").is_some() {
            time_kernel("word", &words, &x, &y, &e, bits);
        }
        if let Some(sp) = SpectralParams::new(&modulus) {
            time_kernel("spectral", &sp, &x, &y, &e, bits);
        }
    }
}
