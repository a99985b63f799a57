//! `pow_crt`: the RSA private-key operation by the Chinese remainder theorem, constant time in
//! the key (p, q, dp, dq, qinv), with a variable-time sibling.
//!
//! Citation: J.-J. Quisquater, C. Couvreur, "Fast decipherment algorithm for RSA public-key
//! cryptosystem", Electronics Letters 18(21), 1982, with Garner's recombination (PKCS #1 v2.2,
//! RFC 8017, Sec. 5.1.2, RSADP step 2b): m1 = c^dp mod p, m2 = c^dq mod q,
//! h = qinv (m1 - m2) mod p, m = m2 + h q.
//!
//! Word size 64; p and q have the same limb count s (R = 2^(64 s) for both). Inputs: odd
//! p, q > 1 of s limbs each, dp, dq and qinv of at most s limbs, c of at most 2 s limbs (any
//! value: the result is c^d mod p q for the d that dp and dq come from). Output: m < p q, as
//! 2 s limbs.
//!
//! Constant time ([`CrtKey::pow_sec`]): after the public checks of [`CrtKey::new`] (limb
//! counts, oddness; they reveal only whether the key is valid), no branch or memory index
//! depends on the key or on c. The Montgomery constants of p and q come from
//! [`MontParams::new_ct`] (65 modular doublings and log2(64 s) Montgomery products, no
//! division); c mod p and m2 mod p from Montgomery products (an operand below R and one below
//! the modulus keep CIOS's bound), not a division; both exponentiations are
//! [`super::fixed`]'s fixed window over all 64 s exponent bits: on the AVX-512 IFMA kernel where
//! the CPU has it and 64 s is in [`IFMA_POW_BITS`] (its constants from
//! [`IfmaParams::new_ct`]), both halves in one call whose products pair up on the kernel's two
//! lanes ([`super::pair`]); else on CIOS + `sqr`, one half after the other. h q is a
//! schoolbook product of fixed shape. `tests/taint.rs` (crate `montlab-ct`) checks this under
//! valgrind with the key marked secret (valgrind hides AVX-512, so there the CIOS path runs).
//! [`CrtKey::prepare`] builds those constants once for many operations ([`PreparedCrtKey`]);
//! each call of [`CrtKey::pow_sec`] builds its own.
//! A prepared key blinds the exponents on request ([`PreparedCrtKey::set_blinding`]: dp +
//! r_p (p - 1) and dq + r_q (q - 1), fresh random 64-bit r each call).
//! Left out: blinding of the operands (as [`crate::pow::blind`] does for `FastModulus`).

use super::{fixed, pair};
use crate::engine::IFMA_POW_BITS;
use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::mont::amm::{self, IfmaParams};
use crate::mont::cios;
use crate::mont::sqr::addmul_1;
use crate::params::MontParams;
use crate::stop::Stop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// An RSA private key in CRT form, checked once (see the module documentation).
#[derive(Clone, Debug)]
pub struct CrtKey {
    p: Vec<Limb>,
    q: Vec<Limb>,
    dp: Vec<Limb>,
    dq: Vec<Limb>,
    qinv: Vec<Limb>,
}

/// `v` padded with zero limbs to `s`, or `None` if its value needs more than `s` limbs.
fn padded(v: &[Limb], s: usize) -> Option<Vec<Limb>> {
    let len = limb::normalized_len(v);
    (len <= s).then(|| {
        let mut out = v[..len].to_vec();
        out.resize(s, 0);
        out
    })
}

/// `v` as exactly `len` limbs, or `None` if a limb past `len` is nonzero; the limbs past `len`
/// are OR-ed together first, so a value that fits its slice reveals nothing (c, which may be
/// secret).
fn fit(v: &[Limb], len: usize) -> Option<Vec<Limb>> {
    let extra = v.iter().skip(len).fold(0, |acc, &l| acc | l);
    if extra != 0 {
        return None;
    }
    let mut out = v[..v.len().min(len)].to_vec();
    out.resize(len, 0);
    Some(out)
}

impl CrtKey {
    /// Checks the key's public shape: p and q odd, above 1, of one limb count s (leading zero
    /// limbs dropped); dp, dq and qinv of at most s limbs. Nothing else is checked (a
    /// consistent key is the caller's): these checks reveal the limb counts and validity only.
    ///
    /// # Errors
    /// [`MontError::InvalidCrtKey`] naming what is wrong.
    pub fn new(
        p: &[Limb],
        q: &[Limb],
        dp: &[Limb],
        dq: &[Limb],
        qinv: &[Limb],
    ) -> Result<Self, MontError> {
        let bad = |reason| Err(MontError::InvalidCrtKey { reason });
        let s = limb::normalized_len(p);
        if s == 0 || limb::normalized_len(q) != s {
            return bad("p and q must be nonzero and have the same number of 64-bit limbs");
        }
        if p[0] & q[0] & 1 == 0 {
            return bad("p and q must be odd");
        }
        if s == 1 && (p[0] == 1 || q[0] == 1) {
            return bad("p and q must be greater than 1");
        }
        let (Some(dp), Some(dq), Some(qinv)) = (padded(dp, s), padded(dq, s), padded(qinv, s))
        else {
            return bad("dp, dq and qinv must be no longer than p and q");
        };
        Ok(Self {
            p: p[..s].to_vec(),
            q: q[..s].to_vec(),
            dp,
            dq,
            qinv,
        })
    }

    /// Limb count s of p and q.
    #[must_use]
    pub fn limbs(&self) -> usize {
        self.p.len()
    }

    /// The key's limbs (p, q, dp, dq, qinv), for a harness that marks them secret.
    #[must_use]
    pub fn secret_limbs(&self) -> [&[Limb]; 5] {
        [&self.p, &self.q, &self.dp, &self.dq, &self.qinv]
    }

    /// `c^d mod p q` in constant time in the key and in c (see the module documentation). The
    /// primes' constants are built for this call; [`CrtKey::prepare`] builds them once.
    ///
    /// # Errors
    /// [`MontError::OperandTooLong`] naming `c` if its value needs more than 2 s limbs
    /// (checked without a branch on c's limbs when the slice is no longer);
    /// [`MontError::Interrupted`] once `stop` is requested.
    pub fn pow_sec(&self, c: &[Limb], stop: &Stop) -> Result<Vec<Limb>, MontError> {
        self.pow_sec_with(&SecConsts::new(self), [&self.dp, &self.dq], c, stop)
    }

    /// [`CrtKey::pow_sec`] on constants built from this key, with the exponents `d` (dp and
    /// dq, or their blinded forms).
    fn pow_sec_with(
        &self,
        k: &SecConsts,
        d: [&[Limb]; 2],
        c: &[Limb],
        stop: &Stop,
    ) -> Result<Vec<Limb>, MontError> {
        let c = self.fit_c(c)?;
        let (cp, cq) = (reduce_ct(&k.mp, &c), reduce_ct(&k.mq, &c));
        let (m1, m2) = match &k.ifma {
            // Both halves in one call, their products interleaved on amm's two lanes.
            Some([ip, iq]) => {
                let [m1, m2] = pair::pow_sec_pair([ip, iq], [&cp, &cq], d, None, stop)?;
                (m1, m2)
            }
            None => (
                fixed::pow_sec_reduced(&k.mp, &cp, d[0], stop)?,
                fixed::pow_sec_reduced(&k.mq, &cq, d[1], stop)?,
            ),
        };
        Ok(self.recombine(&k.mp, &m1, &m2))
    }

    /// dp + r_p (p - 1) and dq + r_q (q - 1) for fresh random 64-bit r_p and r_q
    /// ([`blind_exponent`]).
    ///
    /// # Errors
    /// [`MontError::Randomness`] if the operating system gives no random bytes.
    fn blinded_exponents(&self) -> Result<[Vec<Limb>; 2], MontError> {
        Ok([
            blind_exponent(&self.dp, &self.p)?,
            blind_exponent(&self.dq, &self.q)?,
        ])
    }

    /// `c` as exactly 2 s limbs ([`fit`]), or the error naming it.
    fn fit_c(&self, c: &[Limb]) -> Result<Vec<Limb>, MontError> {
        let s = self.limbs();
        fit(c, 2 * s).ok_or(MontError::OperandTooLong {
            which: "c",
            limbs: 2 * s,
        })
    }

    /// `c^d mod p q` in variable time (the constants and reductions branch on the key): for
    /// public or test keys, and as the reference of [`CrtKey::pow_sec`]. Where both primes
    /// have `amm`'s two-lane kernel ([`crate::FastModulus::pair_ifma`]) of one digit count,
    /// both halves run in one call of the pair's fixed window, which there takes less time
    /// than two one-lane sliding windows (`docs/amm-pair-timings-zen4-256.txt`: 0.74 of them
    /// at 1024 bits, 0.89-0.93 from 1536 to 2304); otherwise by sliding windows one after the
    /// other.
    ///
    /// # Errors
    /// As [`CrtKey::pow_sec`].
    pub fn pow_vartime(&self, c: &[Limb], stop: &Stop) -> Result<Vec<Limb>, MontError> {
        self.pow_vartime_with(&VarConsts::new(self)?, c, stop)
    }

    /// [`CrtKey::pow_vartime`] on constants built from this key.
    fn pow_vartime_with(
        &self,
        k: &VarConsts,
        c: &[Limb],
        stop: &Stop,
    ) -> Result<Vec<Limb>, MontError> {
        let c = self.fit_c(c)?;
        let [fp, fq] = &k.0;
        let (mp, mq) = (fp.word(), fq.word());
        let (cp, cq) = (reduce_ct(mp, &c), reduce_ct(mq, &c));
        let (m1, m2) = match (fp.pair_ifma(), fq.pair_ifma()) {
            (Some(ip), Some(iq)) if ip.digits() == iq.digits() => {
                let [m1, m2] =
                    pair::pow_sec_pair([ip, iq], [&cp, &cq], [&self.dp, &self.dq], None, stop)?;
                (m1, m2)
            }
            _ => (
                fp.pow_until(&cp, &self.dp, stop)?,
                fq.pow_until(&cq, &self.dq, stop)?,
            ),
        };
        Ok(self.recombine(mp, &m1, &m2))
    }

    /// The key with its primes' constants built once, in constant time, for repeated private
    /// operations (as an RSA implementation keeps its Montgomery contexts with the key).
    #[must_use]
    pub fn prepare(self) -> PreparedCrtKey {
        PreparedCrtKey {
            sec: SecConsts::new(&self),
            var: OnceLock::new(),
            blinding: AtomicBool::new(false),
            key: self,
        }
    }

    /// Garner: m2 + q (qinv (m1 - m2) mod p), as 2 s limbs; `m1 < p`, `m2 < q`.
    fn recombine(&self, mp: &MontParams, m1: &[Limb], m2: &[Limb]) -> Vec<Limb> {
        let s = self.limbs();
        let mut wide = m2.to_vec();
        wide.resize(2 * s, 0);
        let m2p = reduce_ct(mp, &wide);
        // diff = m1 - m2 mod p: add p back under a mask when the subtraction borrowed.
        let mut diff = vec![0; s];
        let borrow = limb::ct_sub(&mut diff, m1, &m2p);
        let mut back = vec![0; s];
        limb::ct_add(&mut back, &diff, &self.p);
        limb::ct_select_assign(&mut diff, &back, borrow);
        // h = diff qinv mod p: qinv < R and diff < p keep CIOS's bound; R^2 undoes R^-1.
        let (mut t, mut h, mut tmp) = (vec![0; cios::scratch_len(s)], vec![0; s], vec![0; s]);
        cios::mont_mul_wide_into(mp, &self.qinv, &diff, &mut tmp, &mut t);
        cios::mont_mul_into(mp, &tmp, mp.r2_mod_n(), &mut h, &mut t);
        // m = m2 + h q (< p q, so 2 s limbs hold it): a schoolbook product of fixed shape.
        let mut m = wide;
        for (i, &hi) in h.iter().enumerate() {
            let mut c = addmul_1(&mut m[i..i + s], &self.q, hi);
            for mk in &mut m[i + s..] {
                (*mk, c) = limb::adc(*mk, c, 0);
            }
        }
        m
    }
}

/// The constants of a key's two primes for [`CrtKey::pow_sec`], built without a branch or
/// index on them: [`MontParams::new_ct`] for the reductions and the recombination, and
/// [`IfmaParams::new_ct`] for both where the exponentiations run on `amm` ([`ifma_ct`]).
#[derive(Clone, Debug)]
struct SecConsts {
    mp: MontParams,
    mq: MontParams,
    ifma: Option<[IfmaParams; 2]>,
}

impl SecConsts {
    fn new(key: &CrtKey) -> Self {
        let ifma = match (ifma_ct(&key.p), ifma_ct(&key.q)) {
            (Some(ip), Some(iq)) => Some([ip, iq]),
            _ => None,
        };
        Self {
            mp: MontParams::new_ct(&key.p),
            mq: MontParams::new_ct(&key.q),
            ifma,
        }
    }
}

/// The constants of a key's two primes for [`CrtKey::pow_vartime`]: each prime's
/// [`crate::FastModulus`] (variable time in the primes).
#[derive(Debug)]
struct VarConsts([crate::FastModulus; 2]);

impl VarConsts {
    fn new(key: &CrtKey) -> Result<Self, MontError> {
        Ok(Self([
            crate::FastModulus::new(&key.p)?,
            crate::FastModulus::new(&key.q)?,
        ]))
    }
}

/// A [`CrtKey`] with its primes' constants ([`CrtKey::prepare`]): the constant-time ones
/// built with it, the variable-time ones at the first [`PreparedCrtKey::pow_vartime`].
#[derive(Debug)]
pub struct PreparedCrtKey {
    key: CrtKey,
    sec: SecConsts,
    var: OnceLock<Result<VarConsts, MontError>>,
    /// Whether `pow_sec` blinds the exponents ([`PreparedCrtKey::set_blinding`]).
    blinding: AtomicBool,
}

impl PreparedCrtKey {
    /// The key.
    #[must_use]
    pub fn key(&self) -> &CrtKey {
        &self.key
    }

    /// As [`CrtKey::pow_sec`], on the constants built with this key, on blinded exponents when
    /// [`PreparedCrtKey::set_blinding`] turned that on.
    ///
    /// # Errors
    /// As [`CrtKey::pow_sec`]; with blinding on, [`MontError::Randomness`] if the operating
    /// system gives no random bytes.
    pub fn pow_sec(&self, c: &[Limb], stop: &Stop) -> Result<Vec<Limb>, MontError> {
        let k = &self.key;
        if self.blinding() {
            let [dp, dq] = k.blinded_exponents()?;
            return k.pow_sec_with(&self.sec, [&dp, &dq], c, stop);
        }
        k.pow_sec_with(&self.sec, [&k.dp, &k.dq], c, stop)
    }

    /// Turns exponent blinding on or off for [`PreparedCrtKey::pow_sec`]: each call then runs
    /// on dp + r_p (p - 1) and dq + r_q (q - 1) for fresh random 64-bit r_p and r_q, so that no
    /// two runs use the same exponent bits (the result is the same for every key with dp,
    /// dq >= 1, as RSA keys have). The exponents are one limb longer (a public length), which
    /// costs one limb's windows in each half.
    pub fn set_blinding(&self, on: bool) {
        self.blinding.store(on, Ordering::Relaxed);
    }

    /// Whether [`PreparedCrtKey::pow_sec`] blinds the exponents.
    #[must_use]
    pub fn blinding(&self) -> bool {
        self.blinding.load(Ordering::Relaxed)
    }

    /// As [`CrtKey::pow_vartime`], on constants built at the first call.
    ///
    /// # Errors
    /// As [`CrtKey::pow_vartime`].
    pub fn pow_vartime(&self, c: &[Limb], stop: &Stop) -> Result<Vec<Limb>, MontError> {
        match self.var.get_or_init(|| VarConsts::new(&self.key)) {
            Ok(k) => self.key.pow_vartime_with(k, c, stop),
            Err(e) => Err(*e),
        }
    }
}

/// `d + r (m - 1)` for a fresh random 64-bit r, as `m.len() + 1` limbs (it fits: below
/// 2^(64 s) + (2^64 - 1)(2^(64 s) - 1)), by one portable row of fixed shape
/// ([`addmul_1`]): constant time in d and m. m is odd, so m - 1 is m with its low bit cleared. `d` has at most `m.len()` limbs.
///
/// # Errors
/// [`MontError::Randomness`] if the operating system gives no random bytes.
fn blind_exponent(d: &[Limb], m: &[Limb]) -> Result<Vec<Limb>, MontError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|_| MontError::Randomness)?;
    let r = Limb::from_le_bytes(bytes);
    let mut m1 = m.to_vec();
    m1[0] &= !1;
    let mut out = d.to_vec();
    out.resize(m.len(), 0);
    let carry = addmul_1(&mut out, &m1, r);
    out.push(carry);
    Ok(out)
}

/// The IFMA kernel of a secret prime of `s` limbs, built in constant time, where `pow_sec` runs
/// there: 64 s bits in [`IFMA_POW_BITS`] (public), the CPU has AVX-512 IFMA and
/// `MONTLAB_NO_IFMA` is unset.
fn ifma_ct(p: &[Limb]) -> Option<IfmaParams> {
    let bits = 64 * p.len() as u64;
    (IFMA_POW_BITS.contains(&bits) && amm::enabled())
        .then(|| IfmaParams::new_ct(p))
        .flatten()
}

/// `x mod N` for any `x` of 2 s limbs, in constant time: with x = x_hi R + x_lo,
/// x_hi R = MM(x_hi, R^2) and x_lo = MM(MM(x_lo, 1), R^2) (MM a CIOS product: one operand
/// below R, the other below N, keeps its output below 2N), then one masked modular addition.
fn reduce_ct(p: &MontParams, x: &[Limb]) -> Vec<Limb> {
    let s = p.s();
    debug_assert_eq!(x.len(), 2 * s);
    let (lo, hi) = x.split_at(s);
    let mut t = vec![0; cios::scratch_len(s)];
    let mut one = vec![0; s];
    one[0] = 1;
    let (mut a, mut b, mut c) = (vec![0; s], vec![0; s], vec![0; s]);
    cios::mont_mul_wide_into(p, hi, p.r2_mod_n(), &mut a, &mut t);
    cios::mont_mul_wide_into(p, lo, &one, &mut b, &mut t);
    cios::mont_mul_into(p, &b, p.r2_mod_n(), &mut c, &mut t);
    // a + c < 2N: subtract N under a mask unless that borrows with no carry out.
    let carry = limb::ct_add(&mut b, &a, &c);
    limb::ct_reduce_once(&mut a, &b, carry, p.modulus());
    a
}

/// Distinct prime pairs (p, q) of one limb count each, for tests and the constant-time
/// harness: 1 limb; 2 limbs (Mersenne primes); 9 limbs, one with a short top limb; 16 limbs
/// (RSA-2048's halves). 2^575 + 0x3335, 2^1023 + 2^700 + 0x10d and 2^1024 - 2^900 + 0x79 are
/// the first primes above 2^575 + 12345, 2^1023 + 2^700 and 2^1024 - 2^900 (gmpy2.next_prime).
#[must_use]
pub fn prime_pairs() -> [(num_bigint::BigUint, num_bigint::BigUint); 4] {
    let one = num_bigint::BigUint::from(1u8);
    [
        (
            (&one << 61u32) - 1u8,
            num_bigint::BigUint::from(0xffff_ffff_ffff_ffc5u64),
        ),
        ((&one << 127u32) - 1u8, (&one << 107u32) - 1u8),
        ((&one << 521u32) - 1u8, (&one << 575u32) + 0x3335u32),
        (
            (&one << 1023u32) + (&one << 700u32) + 0x10du32,
            (&one << 1024u32) - (&one << 900u32) + 0x79u32,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bigarith::from_limbs as big;
    use num_bigint::BigUint;

    fn limbs(x: &BigUint) -> Vec<Limb> {
        x.to_u64_digits()
    }

    /// A key from two primes: the result is checked mod p and mod q against direct powers.
    fn check(p: &BigUint, q: &BigUint, c: &BigUint, dp: &BigUint, dq: &BigUint) {
        let qinv = q.modpow(&(p - 2u8), p); // p prime: Fermat inverse
        let key = CrtKey::new(&limbs(p), &limbs(q), &limbs(dp), &limbs(dq), &limbs(&qinv)).unwrap();
        let n = p * q;
        let m = big(&key.pow_sec(&limbs(c), Stop::never()).unwrap());
        assert!(m < n);
        assert_eq!(&m % p, c.modpow(dp, p), "mod p");
        assert_eq!(&m % q, c.modpow(dq, q), "mod q");
        let v = big(&key.pow_vartime(&limbs(c), Stop::never()).unwrap());
        assert_eq!(v, m);
        // The prepared key, twice each (its constants reused; the variable-time ones built at
        // the first call).
        let prepared = key.clone().prepare();
        for _ in 0..2 {
            let got = prepared.pow_sec(&limbs(c), Stop::never()).unwrap();
            assert_eq!(big(&got), m, "prepared pow_sec");
            let got = prepared.pow_vartime(&limbs(c), Stop::never()).unwrap();
            assert_eq!(big(&got), m, "prepared pow_vartime");
        }
        // Blinded exponents (fresh ones each call): the same result.
        assert!(!prepared.blinding());
        prepared.set_blinding(true);
        assert!(prepared.blinding());
        for _ in 0..2 {
            let got = prepared.pow_sec(&limbs(c), Stop::never()).unwrap();
            assert_eq!(big(&got), m, "blinded pow_sec");
        }
    }

    /// A blinded exponent is d + r (m - 1) for some r < 2^64, one limb longer than m, and two
    /// draws differ (with probability 1 - 2^-64).
    #[test]
    fn blinded_exponents() {
        for (p, _) in prime_pairs() {
            let s = p.to_u64_digits().len();
            let pm1 = &p - 1u8;
            for d in [BigUint::from(1u8), &p - 2u8, BigUint::from(3u8)] {
                let a = blind_exponent(&limbs(&d), &limbs(&p)).unwrap();
                let b = blind_exponent(&limbs(&d), &limbs(&p)).unwrap();
                assert_eq!(a.len(), s + 1);
                assert_ne!(a, b, "two draws gave one exponent");
                for x in [a, b] {
                    let x = big(&x);
                    assert!(x >= d);
                    let r = (&x - &d) / &pm1;
                    assert_eq!(&d + &r * &pm1, x, "not d + r (p - 1)");
                    assert!(r < BigUint::from(1u8) << 64u32);
                }
            }
        }
    }

    #[test]
    fn small_and_multi_limb_primes() {
        let one = BigUint::from(1u8);
        let pairs = prime_pairs();
        for (p, q) in pairs {
            let n = &p * &q;
            let bound = &one << (128 * p.to_u64_digits().len()) as u32;
            for c in [
                BigUint::default(),
                one.clone(),
                &n - 1u8,
                &n >> 3u32,
                &n + 5u8,
                &bound - 1u8,
            ] {
                let c = &c % &bound;
                for (dp, dq) in [(&p - 2u8, &q - 2u8), (one.clone(), BigUint::from(3u8))] {
                    check(&p, &q, &c, &dp, &dq);
                }
            }
        }
    }

    /// Where the IFMA kernels run, both halves of a key whose primes are 513 to 52830 bits wide
    /// go to `amm` (the 9- and 16-limb pairs), and the others stay on `cios`: a silent fall
    /// back to `cios` fails here (skipped without IFMA unless `MONTLAB_REQUIRE_IFMA` is set).
    #[test]
    fn ifma_halves_where_the_cpu_has_it() {
        if !amm::ifma_or_skip("crt::ifma_halves_where_the_cpu_has_it") {
            return;
        }
        for (p, q) in prime_pairs() {
            let bits = 64 * p.to_u64_digits().len() as u64;
            let want = IFMA_POW_BITS.contains(&bits);
            assert_eq!(ifma_ct(&limbs(&p)).is_some(), want, "p of {bits} bits");
            assert_eq!(ifma_ct(&limbs(&q)).is_some(), want, "q of {bits} bits");
        }
    }

    #[test]
    fn public_checks() {
        let bad = |r: Result<CrtKey, MontError>| match r {
            Err(MontError::InvalidCrtKey { reason }) => reason,
            other => panic!("accepted: {other:?}"),
        };
        assert!(bad(CrtKey::new(&[7], &[9, 1], &[1], &[1], &[1])).contains("same number"));
        assert!(bad(CrtKey::new(&[8], &[9], &[1], &[1], &[1])).contains("odd"));
        assert!(bad(CrtKey::new(&[1], &[9], &[1], &[1], &[1])).contains("greater than 1"));
        assert!(bad(CrtKey::new(&[7], &[9], &[1, 1], &[1], &[1])).contains("no longer"));
        assert!(bad(CrtKey::new(&[], &[9], &[1], &[1], &[1])).contains("nonzero"));
        let key = CrtKey::new(&[7, 0], &[11], &[1], &[1], &[2]).unwrap();
        assert_eq!(key.limbs(), 1);
        let too_long = Err(MontError::OperandTooLong {
            which: "c",
            limbs: 2,
        });
        assert_eq!(key.pow_sec(&[1, 1, 1], Stop::never()), too_long);
        assert_eq!(key.pow_vartime(&[1, 1, 1], Stop::never()), too_long);
        let prepared = key.prepare();
        assert_eq!(prepared.key().limbs(), 1);
        assert_eq!(prepared.pow_sec(&[1, 1, 1], Stop::never()), too_long);
        assert_eq!(prepared.pow_vartime(&[1, 1, 1], Stop::never()), too_long);
        // A stop already requested ends both.
        let stop = Stop::new();
        stop.request();
        for got in [
            prepared.pow_sec(&[3], &stop),
            prepared.pow_vartime(&[3], &stop),
        ] {
            assert_eq!(got, Err(MontError::Interrupted));
        }
    }
}
