//! Blinding of the fixed window's operands: a random factor in every table entry and in the
//! starting accumulator, removed by one product at the end.
//!
//! Why: without it, an exponent with zero window digits keeps the accumulator at the Montgomery
//! form of 1 and multiplies by the table's entry for 0, the same values on every run; on an
//! AMD Zen 4 the IFMA kernel's time then differs from random exponents' (`docs/performance.md`,
//! "dudect on `amm`"), which we read as timing that depends on operand values. With the factor
//! sigma every operand is a random residue whatever the exponent; dudect shows the effect
//! weakened, not removed in every run (a constant window digit still multiplies by one entry
//! at every window), so blinding is an option (`FastModulus::set_blinding`).
//!
//! Method: the entries are base^d sigma R (d < 2^k) and the accumulator starts at sigma R, so
//! after W windows of k squarings and one product it holds base^e sigma^E R with
//! E = 2^(k W) + sum_{w < W} 2^(k w) ([`sigma_exponent`]); tau = sigma^-E mod N removes the
//! factor. A pair (sigma, tau) serves one run, then both are squared (tau stays sigma^-E), as
//! RSA blinding pairs are updated, and a fresh pair is drawn every [`REFRESH`] runs. sigma^E
//! comes from the blinded window itself run on the exponent 0 (every window multiplies by the
//! entry sigma): one exponentiation's work per fresh pair, plus one inversion.
//!
//! Inputs: N's kernel, a unit sigma < N (s limbs), the exponent's public limb count.
//! Left out: exponent blinding (it needs the group order, which only a key holder has).

use num_bigint::BigUint;

use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::pow::fixed::{fixed_window, CtKernel, SEC_WINDOW_BITS};
use crate::pow::MontKernel;
use crate::stop::Stop;

/// Runs a pair serves, by squaring, before a fresh one is drawn (each fresh pair costs one
/// exponentiation).
pub const REFRESH: u32 = 256;

/// E of a fixed window of `windows` windows: 2^(k W) + sum_{w < W} 2^(k w), k =
/// [`SEC_WINDOW_BITS`] (the power of sigma the blinded window leaves in its result).
#[must_use]
pub fn sigma_exponent(windows: usize) -> BigUint {
    let k = SEC_WINDOW_BITS as usize;
    let mut e = BigUint::from(1u8) << (k * windows);
    for w in 0..windows {
        e += BigUint::from(1u8) << (k * w);
    }
    e
}

/// A blinding pair (sigma, tau = sigma^-E mod N) for exponents of `len` limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blind {
    sigma: Vec<Limb>,
    tau: Vec<Limb>,
    len: usize,
    uses: u32,
}

impl Blind {
    /// The pair for N (through `kernel`) and exponents of `len >= 1` limbs from a unit
    /// `sigma < N` (exactly `s` limbs): sigma^E by the blinded window on the exponent 0, and
    /// tau = (sigma^E)^-1 by `invert`; `None` where `invert` finds no inverse.
    ///
    /// # Panics
    /// If `len` is 0 or `sigma` is not of the kernel's limb count.
    pub fn new<K: CtKernel>(
        kernel: &K,
        sigma: Vec<Limb>,
        len: usize,
        invert: impl FnOnce(&[Limb]) -> Option<Vec<Limb>>,
    ) -> Option<Self> {
        let s = kernel.limbs();
        assert!(len >= 1 && sigma.len() == s, "blind: lengths");
        let mut one = vec![0; s];
        one[0] = 1;
        let zero = vec![0; s];
        let v = fixed_window(
            kernel,
            &zero,
            &vec![0; len],
            Some((&sigma, &one)),
            Stop::never(),
        )
        .expect("never stopped");
        let tau = invert(&v)?;
        Some(Self {
            sigma,
            tau,
            len,
            uses: 0,
        })
    }

    /// (sigma, tau), ordinary residues below N.
    #[must_use]
    pub fn pair(&self) -> (&[Limb], &[Limb]) {
        (&self.sigma, &self.tau)
    }

    /// The exponent limb count the pair is for.
    #[must_use]
    pub fn exp_limbs(&self) -> usize {
        self.len
    }

    /// True once the pair has served [`REFRESH`] runs.
    #[must_use]
    pub fn spent(&self) -> bool {
        self.uses >= REFRESH
    }

    /// The pair of the next run: sigma^2 and tau^2 mod N (tau stays sigma^-E).
    pub fn advance<K: MontKernel>(&mut self, kernel: &K) {
        let mut sc = kernel.scratch();
        for x in [&mut self.sigma, &mut self.tau] {
            let m = kernel.to_mont(x, &mut sc);
            let mut t = m.clone();
            kernel.sqr(&m, &mut t, &mut sc);
            *x = kernel.from_mont(&t, &mut sc);
        }
        self.uses += 1;
    }
}

/// [`crate::pow::fixed::pow_sec_with`] blinded by `blind`'s pair (which must be for this N
/// and `exp.len()` limbs): the same result, every product on operands that carry sigma.
///
/// # Errors
/// [`MontError::Interrupted`] once `stop` is requested.
///
/// # Panics
/// If `blind` is for another exponent length.
pub fn pow_sec_blinded_with<K: CtKernel>(
    kernel: &K,
    base: &[Limb],
    exp: &[Limb],
    blind: &Blind,
    stop: &Stop,
) -> Result<Vec<Limb>, MontError> {
    assert_eq!(
        blind.len,
        exp.len(),
        "blind: a pair for another exponent length"
    );
    fixed_window(kernel, base, exp, Some(blind.pair()), stop)
}

/// A uniformly random `x` in [1, N) as exactly N's limb count, by rejection sampling from the
/// operating system's generator (a draw of N's bit length is kept when below N; at most half
/// are rejected).
///
/// # Errors
/// [`MontError::Randomness`] if the operating system gives no random bytes.
///
/// # Panics
/// Never: the bytes come in whole limbs.
pub fn random_below(n: &[Limb]) -> Result<Vec<Limb>, MontError> {
    let s = n.len();
    let bits = limb::bit_len(n);
    let top_mask = if bits.is_multiple_of(64) {
        Limb::MAX
    } else {
        (1 << (bits % 64)) - 1
    };
    let mut buf = vec![0u8; 8 * s];
    loop {
        getrandom::fill(&mut buf).map_err(|_| MontError::Randomness)?;
        let mut x: Vec<Limb> = buf
            .chunks_exact(8)
            .map(|c| Limb::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        x[s - 1] &= top_mask;
        if limb::cmp(&x, n).is_lt() && x.iter().any(|&l| l != 0) {
            return Ok(x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::MontParams;

    use crate::bigarith::from_limbs as big;

    fn limbs(x: &BigUint, s: usize) -> Vec<Limb> {
        let mut v = x.to_u64_digits();
        v.resize(s, 0);
        v
    }

    /// tau = sigma^-E for E of `sigma_exponent`, through several advances, and the blinded
    /// window gives num-bigint's powers (exponents 0, 1, all-ones and random; bases 0, 1,
    /// N - 1 and random) on the word level and, where the CPU has it, on `amm`.
    #[test]
    fn blinded_window_matches_num_bigint() {
        let mut seed = 0x0b11_0d00_0000_0001;
        for s in [1usize, 2, 5, 16, 33] {
            for n in crate::limb::edge_moduli(&mut seed, s) {
                let nb = big(&n);
                let p = MontParams::from_limbs(&n).unwrap();
                let amm = crate::mont::amm::IfmaParams::new(&crate::OddModulus::new(&n).unwrap());
                let inv = |v: &[Limb]| big(v).modinv(&nb).map(|t| limbs(&t, s));
                let mut sigma = crate::limb::xorshift_limbs(&mut seed, s);
                sigma[s - 1] %= n[s - 1].max(1);
                if big(&sigma) == BigUint::default() {
                    sigma[0] = 1;
                }
                for len in [1usize, s] {
                    let Some(mut b) = Blind::new(&p, sigma.clone(), len, inv) else {
                        continue; // sigma shares a factor with N
                    };
                    let e_sigma = sigma_exponent((64 * len).div_ceil(SEC_WINDOW_BITS as usize));
                    let mut nm1 = n.clone();
                    nm1[0] -= 1;
                    let mut one = vec![0; s];
                    one[0] = 1;
                    let r = limbs(&(big(&crate::limb::xorshift_limbs(&mut seed, s)) % &nb), s);
                    for (round, base) in [vec![0; s], one, nm1, r].into_iter().enumerate() {
                        let (sg, tau) = b.pair();
                        assert_eq!(
                            big(sg).modpow(&e_sigma, &nb) * big(tau) % &nb,
                            BigUint::from(1u8)
                        );
                        let mut exps = vec![vec![0; len], vec![Limb::MAX; len]];
                        exps.push(crate::limb::xorshift_limbs(&mut seed, len));
                        let mut e1 = vec![0; len];
                        e1[0] = 1;
                        exps.push(e1);
                        for e in &exps {
                            let want = big(&base).modpow(&big(e), &nb);
                            let got = pow_sec_blinded_with(&p, &base, e, &b, Stop::never());
                            assert_eq!(big(&got.unwrap()), want, "N={nb:#x} round {round}");
                            if let Some(k) = &amm {
                                let got = pow_sec_blinded_with(k, &base, e, &b, Stop::never());
                                assert_eq!(big(&got.unwrap()), want, "amm N={nb:#x}");
                            }
                        }
                        b.advance(&p);
                    }
                }
            }
        }
    }

    #[test]
    fn random_below_stays_below() {
        for n in [vec![3u64], vec![u64::MAX, 1], vec![5, 0, 1 << 63]] {
            for _ in 0..64 {
                let x = random_below(&n).unwrap();
                assert_eq!(x.len(), n.len());
                assert!(limb::cmp(&x, &n).is_lt() && x.iter().any(|&l| l != 0));
            }
        }
    }
}
