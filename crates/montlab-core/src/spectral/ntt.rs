//! Radix-2 number-theoretic transforms of length P modulo one NTT prime, cyclic (mod X^P - 1)
//! and nega-cyclic (mod X^P + 1), with no zero-padding and no bit-reversal pass.
//!
//! Citation: the negacyclic transform merges the twist by powers of a 2P-th root psi into the
//! butterflies (P. Longa, M. Naehrig, "Speeding up the number theoretic transform for faster
//! ideal lattice-based cryptography", CANS 2016, Algs. 1-2; the layout of Kyber's reference
//! `ntt`/`invntt`); the butterflies are Harvey's lazy ones ("Faster arithmetic for
//! number-theoretic transforms", J. Symb. Comp. 60, 2014, Algs. 4 and 3): forward
//! Cooley-Tukey on inputs in [0, 4q), inverse Gentleman-Sande on inputs in [0, 2q).
//!
//! Both kinds share one twiddle table z[k] = psi^brv(k), k < P (brv over lg P bits): level j
//! of the forward transform multiplies block b by z[2^j + b] (nega-cyclic: node X^len - z^2
//! splits into X^(len/2) -+ z) or by z[b] (cyclic: the tree of X^P - 1). The forward output is
//! in bit-reversed order, which the inverse expects; products are taken position-wise.
//!
//! Ranges: [`forward`] takes residues in [0, 4q) and returns [0, 4q). [`inverse`] takes
//! [0, 2q) and returns the fully reduced coefficients times `scale` (P^-1 2^64, so that a
//! Montgomery product per position in between is undone). The portable loops here are the
//! reference; `super::ifma` runs the same butterflies 8 lanes wide where the CPU has it, and
//! `super::avx2` 4 lanes wide in double precision on CPUs with AVX2 and FMA but no IFMA.
//! Conditional subtractions are [`csub`]: the sign of `x - b` as a mask, with no branch (the
//! residues are random, and secret in `pow_sec`). Butterfly sums stay below 4q < 2^54 and
//! u + 2q - v above 0 (v < 2q), so they are written wrapping: no overflow-check branch
//! depends on a value.

use super::prime::{csub, inv_mod, mul_mod, pow_mod, shoup_mul, shoup_pre, Prime, GENERATORS};

/// Twiddle tables for one prime and one transform length P (a power of two >= 2).
#[derive(Clone, Debug)]
pub struct NttTables {
    /// The prime and its constants.
    pub(crate) prime: Prime,
    /// Transform length P.
    pub(crate) len: usize,
    /// z[k] = psi^brv(k) and its Shoup constant (64-bit).
    pub(crate) z: Vec<u64>,
    pub(crate) zs: Vec<u64>,
    /// zi[k] = z[k]^-1 and its Shoup constant.
    pub(crate) zi: Vec<u64>,
    pub(crate) zis: Vec<u64>,
    /// P^-1 2^64 mod q and its Shoup constant: the inverse transform's final factor.
    pub(crate) scale: u64,
    pub(crate) scale_s: u64,
    /// P^-1 mod q: the AVX2 inverse's final factor after plain (not Montgomery) pointwise
    /// products ([`super::inverse_products`]).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) scale_plain: u64,
    /// 52-bit Shoup constants floor(w 2^52 / q) of z and zi, for the IFMA path.
    pub(crate) zs52: Vec<u64>,
    pub(crate) zis52: Vec<u64>,
    /// For the IFMA inverse's last level, which takes in the final factor s:
    /// `last52[i][k]` = [s, s', zi[k] s, (zi[k] s)'] (52-bit Shoup constants ') with
    /// s = `scale` (i = 0) or P^-1 2^52 mod q (i = 1, after the 52-bit Montgomery products
    /// of `super::ifma::pointwise`), k = 0 (cyclic) or 1 (nega-cyclic).
    pub(crate) last52: [[[u64; 4]; 2]; 2],
    /// z / q and zi / q as doubles, for the AVX2 path (empty where it cannot run; the loops
    /// convert z and zi themselves).
    pub(crate) zfq: Vec<f64>,
    pub(crate) zifq: Vec<f64>,
}

/// `w / q` as doubles, correctly rounded (w < q < 2^50 are exact doubles).
pub(super) fn over_q(w: &[u64], q: u64) -> Vec<f64> {
    let qf = q as f64;
    w.iter().map(|&x| x as f64 / qf).collect()
}

/// Shoup's constant floor(w 2^52 / q) for 52-bit lanes.
fn shoup_pre52(w: u64, q: u64) -> u64 {
    ((u128::from(w) << 52) / u128::from(q)) as u64
}

/// Shoup's constant floor(w 2^64 / q) for w < q without a division per call: from
/// v = floor(2^128 / q), floor(w v / 2^64) is the constant or one less, and the remainder
/// w 2^64 - c q (below 2q) tells which.
fn shoup_pre_with(q: u64) -> impl Fn(u64) -> u64 {
    let v = u128::MAX / u128::from(q); // floor(2^128 / q): q is odd, so never exact
    let (vh, vl) = ((v >> 64) as u64, v as u64);
    move |w: u64| {
        debug_assert!(w < q);
        let (w128, q128) = (u128::from(w), u128::from(q));
        let mut c = (w128 * u128::from(vh) + ((w128 * u128::from(vl)) >> 64)) as u64;
        if (w128 << 64) - u128::from(c) * q128 >= q128 {
            c += 1;
        }
        debug_assert_eq!(c, shoup_pre(w, q));
        c
    }
}

/// Bit reversal of the low `bits` bits of `k`.
fn brv(k: usize, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        k.reverse_bits() >> (usize::BITS - bits)
    }
}

impl NttTables {
    /// Tables for the prime of index `which` and length `len` (a power of two, 2 <= len <= 2^21).
    ///
    /// # Panics
    /// If `len` is not a power of two in 2..=2^21 or `which > 2`.
    #[must_use]
    pub fn new(which: usize, len: usize) -> Self {
        let q = super::prime::PRIMES[which];
        assert!(len.is_power_of_two() && len >= 2 && (q - 1).is_multiple_of(2 * len as u64));
        let prime = Prime::new(q);
        let psi = pow_mod(GENERATORS[which], (q - 1) / (2 * len as u64), q);
        debug_assert_eq!(pow_mod(psi, len as u64, q), q - 1, "psi must have order 2P");
        let bits = len.trailing_zeros();
        // Built in O(P) products, no division per entry (a first call's cost at 2^20 bits).
        let pre = shoup_pre_with(q);
        let psi_s = shoup_pre(psi, q);
        // psi^j for j < P by successive products; psi^-j = -psi^(P - j) since psi^P = -1.
        let mut pw = vec![1u64; len];
        for j in 1..len {
            let r = shoup_mul(pw[j - 1], psi, psi_s, q);
            pw[j] = r.min(r.wrapping_sub(q));
        }
        let z: Vec<u64> = (0..len).map(|k| pw[brv(k, bits)]).collect();
        let zi: Vec<u64> = (0..len)
            .map(|k| match brv(k, bits) {
                0 => 1,
                j => q - pw[len - j],
            })
            .collect();
        debug_assert!(z.iter().zip(&zi).all(|(&w, &wi)| mul_mod(w, wi, q) == 1));
        let zs: Vec<u64> = z.iter().map(|&w| pre(w)).collect();
        let zis: Vec<u64> = zi.iter().map(|&w| pre(w)).collect();
        let (scale, scale52, scale_plain) = final_factors(len, q);
        let last52 = last52(&zi, scale, scale52, q);
        // floor(w 2^52 / q) = floor(floor(w 2^64 / q) / 2^12); only IFMA CPUs read them.
        let (zs52, zis52) = if super::ifma_available() {
            (
                zs.iter().map(|&c| c >> 12).collect(),
                zis.iter().map(|&c| c >> 12).collect(),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        // Only where the AVX2 loops run (not with IFMA): the doubles are theirs.
        let (zfq, zifq) = if super::uses_avx2() {
            (over_q(&z, q), over_q(&zi, q))
        } else {
            Default::default()
        };
        Self {
            zfq,
            zifq,
            last52,
            zs52,
            zis52,
            scale_s: shoup_pre(scale, q),
            scale_plain,
            prime,
            len,
            z,
            zs,
            zi,
            zis,
            scale,
        }
    }
}

impl NttTables {
    /// The tables of length `len` (a power of two, 2 <= len <= `self.len`) for the same prime,
    /// copied out of these: with psi_L = psi_2L^2 and brv over lg 2L bits equal to twice brv
    /// over lg L bits for k < L, z_L[k] = z_2L[k], so every table is a prefix of a longer one
    /// (the inverses and Shoup constants too). Only the final factor depends on `len`. O(len)
    /// copies, no product per entry.
    ///
    /// # Panics
    /// If `len` is not a power of two in 2..=`self.len`.
    #[must_use]
    pub fn prefix(&self, len: usize) -> Self {
        assert!(len.is_power_of_two() && (2..=self.len).contains(&len));
        let q = self.prime.q;
        let cut = |v: &Vec<u64>| v.get(..len).map_or_else(Vec::new, <[u64]>::to_vec);
        let cutf = |v: &Vec<f64>| v.get(..len).map_or_else(Vec::new, <[f64]>::to_vec);
        let (scale, scale52, scale_plain) = final_factors(len, q);
        Self {
            prime: self.prime.clone(),
            len,
            z: cut(&self.z),
            zs: cut(&self.zs),
            zi: cut(&self.zi),
            zis: cut(&self.zis),
            scale,
            scale_s: shoup_pre(scale, q),
            scale_plain,
            zs52: cut(&self.zs52),
            zis52: cut(&self.zis52),
            last52: last52(&self.zi, scale, scale52, q),
            zfq: cutf(&self.zfq),
            zifq: cutf(&self.zifq),
        }
    }
}

/// P^-1 2^64, P^-1 2^52 and P^-1 mod q: the inverse transform's final factors.
fn final_factors(len: usize, q: u64) -> (u64, u64, u64) {
    let inv = inv_mod(len as u64 % q, q);
    (
        mul_mod(inv, pow_mod(2, 64, q), q),
        mul_mod(inv, pow_mod(2, 52, q), q),
        inv,
    )
}

/// The IFMA inverse's last-level constants (see [`NttTables::last52`]).
fn last52(zi: &[u64], scale: u64, scale52: u64, q: u64) -> [[[u64; 4]; 2]; 2] {
    let last = |s: u64, k: usize| {
        let ws = mul_mod(zi[k], s, q);
        [s, shoup_pre52(s, q), ws, shoup_pre52(ws, q)]
    };
    [
        [last(scale, 0), last(scale, 1)],
        [last(scale52, 0), last(scale52, 1)],
    ]
}

/// In-place forward transform, portable loops. `a.len() == t.len`, entries in [0, 4q) on
/// entry, in [0, 4q) and bit-reversed order on return.
pub fn forward_portable(a: &mut [u64], t: &NttTables, nega: bool) {
    let n = t.len;
    let (q, q2) = (t.prime.q, t.prime.q2);
    let a = &mut a[..n];
    let mut blocks = 1;
    let mut half = n / 2;
    while half >= 1 {
        // Block b's twiddle is z[k0 + b]: k0 = blocks (nega-cyclic) or 0 (cyclic).
        let k0 = if nega { blocks } else { 0 };
        let tw = t.z[k0..k0 + blocks].iter().zip(&t.zs[k0..k0 + blocks]);
        if half == 1 {
            // The last level: one butterfly per block, on adjacent entries.
            for (pair, (&w, &ws)) in a.chunks_exact_mut(2).zip(tw) {
                let u = csub(pair[0], q2);
                let v = shoup_mul(pair[1], w, ws, q);
                pair[0] = u.wrapping_add(v);
                pair[1] = u.wrapping_add(q2).wrapping_sub(v);
            }
            break;
        }
        for (block, (&w, &ws)) in a.chunks_exact_mut(2 * half).zip(tw) {
            let (lo, hi) = block.split_at_mut(half);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let u = csub(*x, q2); // u mod 2q
                let v = shoup_mul(*y, w, ws, q);
                *x = u.wrapping_add(v);
                *y = u.wrapping_add(q2).wrapping_sub(v);
            }
        }
        blocks *= 2;
        half /= 2;
    }
}

/// In-place inverse transform, portable loops: entries in [0, 2q) and bit-reversed order on
/// entry; on return the coefficients in natural order, times P^-1 2^64, fully reduced.
pub fn inverse_portable(a: &mut [u64], t: &NttTables, nega: bool) {
    let n = t.len;
    let (q, q2) = (t.prime.q, t.prime.q2);
    let a = &mut a[..n];
    let mut blocks = n / 2;
    let mut half = 1;
    while blocks >= 1 {
        let k0 = if nega { blocks } else { 0 };
        let tw = t.zi[k0..k0 + blocks].iter().zip(&t.zis[k0..k0 + blocks]);
        if half == 1 {
            // The first level: one butterfly per block, on adjacent entries.
            for (pair, (&w, &ws)) in a.chunks_exact_mut(2).zip(tw) {
                let (u, v) = (pair[0], pair[1]);
                let s = u.wrapping_add(v);
                pair[0] = csub(s, q2);
                pair[1] = shoup_mul(u.wrapping_add(q2).wrapping_sub(v), w, ws, q);
            }
            blocks /= 2;
            half *= 2;
            continue;
        }
        for (block, (&w, &ws)) in a.chunks_exact_mut(2 * half).zip(tw) {
            let (lo, hi) = block.split_at_mut(half);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*x, *y);
                let s = u.wrapping_add(v);
                *x = csub(s, q2);
                *y = shoup_mul(u.wrapping_add(q2).wrapping_sub(v), w, ws, q);
            }
        }
        blocks /= 2;
        half *= 2;
    }
    for x in a.iter_mut() {
        let r = shoup_mul(*x, t.scale, t.scale_s, q);
        *x = csub(r, q);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Naive cyclic / nega-cyclic convolution mod q.
    fn naive(a: &[u64], b: &[u64], q: u64, nega: bool) -> Vec<u64> {
        let n = a.len();
        let mut c = vec![0u64; n];
        for (i, &ai) in a.iter().enumerate() {
            for (j, &bj) in b.iter().enumerate() {
                let p = mul_mod(ai, bj, q);
                let k = (i + j) % n;
                if nega && i + j >= n {
                    c[k] = (c[k] + q - p) % q;
                } else {
                    c[k] = (c[k] + p) % q;
                }
            }
        }
        c
    }

    #[test]
    fn convolutions_match_naive() {
        let mut seed = 0x1234_5678u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 11
        };
        for which in 0..3 {
            for len in [2usize, 4, 8, 32, 64] {
                let t = NttTables::new(which, len);
                let q = t.prime.q;
                for nega in [false, true] {
                    let a: Vec<u64> = (0..len).map(|_| next() % q).collect();
                    let b: Vec<u64> = (0..len).map(|_| next() % q).collect();
                    let (mut fa, mut fb) = (a.clone(), b.clone());
                    forward_portable(&mut fa, &t, nega);
                    forward_portable(&mut fb, &t, nega);
                    let mut c: Vec<u64> = fa
                        .iter()
                        .zip(&fb)
                        .map(|(&x, &y)| t.prime.mont_mul(x, y))
                        .collect();
                    inverse_portable(&mut c, &t, nega);
                    assert_eq!(
                        c,
                        naive(&a, &b, q, nega),
                        "prime {which} len {len} nega {nega}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_prefix_is_the_shorter_table() {
        for which in 0..3 {
            let big = NttTables::new(which, 1 << 10);
            for len in [2usize, 4, 64, 512, 1 << 10] {
                let (a, b) = (big.prefix(len), NttTables::new(which, len));
                assert_eq!(
                    (&a.z, &a.zs, &a.zi, &a.zis, &a.zs52, &a.zis52),
                    (&b.z, &b.zs, &b.zi, &b.zis, &b.zs52, &b.zis52),
                    "prime {which} len {len}"
                );
                assert_eq!(
                    (&a.zfq, &a.zifq),
                    (&b.zfq, &b.zifq),
                    "prime {which} len {len}"
                );
                assert_eq!(
                    (a.len, a.scale, a.scale_s, a.scale_plain, a.last52),
                    (b.len, b.scale, b.scale_s, b.scale_plain, b.last52)
                );
            }
        }
    }
}
