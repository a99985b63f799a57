//! Per-modulus precomputation: the validated odd modulus and the Montgomery constants.
//!
//! Contract: `OddModulus` holds an odd N > 1 with no leading zero limbs, so every engine can
//! rely on `gcd(N, 2^64) = 1` without checking again (crypto-bigint's `Odd`). `MontParams` is
//! built once per modulus (FLINT's context object) and holds, for word size w = 64 and
//! s = ceil(bitlen(N) / 64) limbs, R = 2^(64 s):
//!
//! * `n`        the modulus as exactly `s` little-endian limbs,
//! * `n0_inv`   -N^-1 mod 2^64 (the n'_0 of Koc-Acar-Kaliski 1996, Sec. 2),
//! * `r_mod_n`  R mod N (the Montgomery form of 1),
//! * `r2_mod_n` R^2 mod N (multiplying by it with REDC converts into Montgomery form).
//!
//! Only `n0_inv` is computed up front. R mod N (one (s+1)-by-s-limb division) and R^2 mod N
//! (one division, [`crate::bigarith::pow2_rem`], sub-quadratic for large N) are computed on
//! first use, so a one-shot short exponentiation, which converts its base by one division
//! ([`MontParams::to_mont_into`]), pays for neither. The unit tests check both against plain
//! shift-and-subtract doubling. Nothing here is constant time in N (moduli are public), except
//! [`MontParams::new_ct`].

use std::sync::OnceLock;

use crate::bigarith;
use crate::error::MontError;
use crate::limb::{self, Limb, LIMB_BITS};
use crate::limbdiv;
use crate::mont::cios;
use crate::pow::MontKernel;

/// An odd modulus N > 1, stored without leading zero limbs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OddModulus {
    limbs: Vec<Limb>,
}

impl OddModulus {
    /// Validates `limbs` (little-endian, leading zero limbs allowed) as a Montgomery modulus.
    ///
    /// # Errors
    /// [`MontError::ModulusTooSmall`] if N <= 1, [`MontError::EvenModulus`] if N is even.
    pub fn new(limbs: &[Limb]) -> Result<Self, MontError> {
        let len = limb::normalized_len(limbs);
        // N = 0 and N = 1 are both "too small"; report that before parity so 0 is not "even".
        if len == 0 || (len == 1 && limbs[0] == 1) {
            return Err(MontError::ModulusTooSmall);
        }
        if limbs[0] & 1 == 0 {
            return Err(MontError::EvenModulus);
        }
        Ok(Self {
            limbs: limbs[..len].to_vec(),
        })
    }

    /// The modulus limbs, little-endian, the top limb non-zero.
    #[must_use]
    pub fn as_limbs(&self) -> &[Limb] {
        &self.limbs
    }

    /// Limb count s = ceil(bitlen(N) / 64).
    #[must_use]
    pub fn limbs(&self) -> usize {
        self.limbs.len()
    }

    /// Bit length of N.
    #[must_use]
    pub fn bits(&self) -> u64 {
        limb::bit_len(&self.limbs)
    }
}

/// Montgomery constants for one modulus, word size w = 64, R = 2^(64 s). Equality and hashing
/// are those of N (every constant is a function of it).
#[derive(Clone, Debug)]
pub struct MontParams {
    n: Vec<Limb>,
    n0_inv: Limb,
    r_mod_n: OnceLock<Vec<Limb>>,
    r2_mod_n: OnceLock<Vec<Limb>>,
    redc_n: OnceLock<crate::mont::redc_n::Consts>,
    s: usize,
}

impl PartialEq for MontParams {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n
    }
}

impl Eq for MontParams {}

impl core::hash::Hash for MontParams {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.n.hash(state);
    }
}

impl MontParams {
    /// Word size in bits of every engine built on these parameters.
    pub const W: u32 = LIMB_BITS;

    /// The constants of a validated modulus: -N^-1 mod 2^64 now, the rest on first use.
    #[must_use]
    pub fn new(modulus: OddModulus) -> Self {
        let n = modulus.limbs;
        Self {
            n0_inv: neg_inv_mod_word(n[0]),
            s: n.len(),
            n,
            r_mod_n: OnceLock::new(),
            r2_mod_n: OnceLock::new(),
            redc_n: OnceLock::new(),
        }
    }

    /// The constants of an odd N > 1 of exactly `s` limbs, the top one nonzero, computed
    /// without a branch or index on N's value (its limb count is public): for secret moduli
    /// (RSA's p and q, `pow::crt`). R mod N: 2^(64 (s - 1)) < N, then 64 modular doublings, each
    /// a shift and a masked subtraction. R^2 mod N: one more doubling gives 2 R mod N, the
    /// Montgomery form of 2, which Montgomery squarings (and products by it at the set bits of
    /// the public exponent 64 s) raise to 2^(64 s) R = R^2 mod N. In all 65 doublings (s limbs
    /// each) and about log2(64 s) products (about 1.5 s^2 word products each), where doubling
    /// alone takes 128 s doublings: at s = 16, 65 doublings and 10 squarings against 2048
    /// doublings.
    #[must_use]
    pub(crate) fn new_ct(n: &[Limb]) -> Self {
        let s = n.len();
        debug_assert!(s >= 1 && n[0] & 1 == 1 && n[s - 1] != 0 && (s > 1 || n[0] > 1));
        let mut x = vec![0; s];
        x[s - 1] = 1; // 2^(64 (s - 1)) < N: N is odd and its top limb nonzero (1 < N if s = 1)
        limb::ct_double_mod(&mut x, n, 64);
        let params = Self {
            n: n.to_vec(),
            n0_inv: neg_inv_mod_word(n[0]),
            r_mod_n: OnceLock::from(x.clone()),
            r2_mod_n: OnceLock::new(),
            redc_n: OnceLock::new(),
            s,
        };
        limb::ct_double_mod(&mut x, n, 1);
        let two = x;
        let e = 64 * s;
        let (mut acc, mut tmp, mut sc) = (two.clone(), vec![0; s], params.scratch());
        for i in (0..e.ilog2()).rev() {
            params.sqr(&acc, &mut tmp, &mut sc);
            std::mem::swap(&mut acc, &mut tmp);
            if (e >> i) & 1 == 1 {
                params.mul(&acc, &two, &mut tmp, &mut sc);
                std::mem::swap(&mut acc, &mut tmp);
            }
        }
        let _ = params.r2_mod_n.set(acc);
        params
    }

    /// Validates `limbs` as an odd modulus > 1 and precomputes its constants.
    ///
    /// # Errors
    /// As [`OddModulus::new`].
    pub fn from_limbs(limbs: &[Limb]) -> Result<Self, MontError> {
        OddModulus::new(limbs).map(Self::new)
    }

    /// N as exactly `s` limbs (top limb non-zero).
    #[must_use]
    pub fn modulus(&self) -> &[Limb] {
        &self.n
    }

    /// -N^-1 mod 2^64.
    #[must_use]
    pub fn n0_inv(&self) -> Limb {
        self.n0_inv
    }

    /// The constants of [`crate::mont::redc_n`] (N^-1 mod R and N's residues), computed on
    /// first use without a branch or index on N's value.
    #[must_use]
    pub fn redc_n(&self) -> &crate::mont::redc_n::Consts {
        self.redc_n
            .get_or_init(|| crate::mont::redc_n::Consts::new(&self.n, self.n0_inv))
    }

    /// R mod N as `s` limbs: the Montgomery form of 1 (computed on first use).
    #[must_use]
    pub fn r_mod_n(&self) -> &[Limb] {
        self.r_mod_n.get_or_init(|| {
            let mut r = vec![0; self.s + 1];
            r[self.s] = 1;
            limbdiv::rem(&r, &self.n)
        })
    }

    /// R^2 mod N as `s` limbs (computed on first use).
    #[must_use]
    pub fn r2_mod_n(&self) -> &[Limb] {
        self.r2_mod_n.get_or_init(|| {
            let r2 = bigarith::pow2_rem(
                2 * self.s as u64 * u64::from(LIMB_BITS),
                &bigarith::from_limbs(&self.n),
            );
            let mut r2 = r2.to_u64_digits();
            r2.resize(self.s, 0);
            r2
        })
    }

    /// `out = x R mod N` for `x < N` (exactly `s` limbs; `t` as for
    /// [`cios::mont_mul_into`]): a product with R^2 mod N once that is built, else one
    /// division of x R, which costs no more than the product and spares building R^2 mod N.
    /// The division's corrections branch on x: the constant-time paths (`pow::fixed`,
    /// `pow::crt`) multiply by R^2 mod N instead and never call this.
    pub fn to_mont_into(&self, x: &[Limb], out: &mut [Limb], t: &mut [Limb]) {
        if let Some(r2) = self.r2_mod_n.get() {
            cios::mont_mul_into(self, x, r2, out, t);
        } else {
            let mut xr = vec![0; 2 * self.s];
            xr[self.s..].copy_from_slice(x);
            out.copy_from_slice(&limbdiv::rem(&xr, &self.n));
        }
    }

    /// Limb count s; R = 2^(64 s).
    #[must_use]
    pub fn s(&self) -> usize {
        self.s
    }

    /// Bit length of N.
    #[must_use]
    pub fn bits(&self) -> u64 {
        limb::bit_len(&self.n)
    }

    /// Checks `0 <= x < N` for an operand of any length and returns it as exactly `s` limbs.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `which` if `x >= N`.
    pub fn operand(&self, x: &[Limb], which: &'static str) -> Result<Vec<Limb>, MontError> {
        limb::operand(x, &self.n, which)
    }
}

/// -n0^-1 mod 2^64 for odd n0, by Newton-Hensel lifting: each step doubles the correct bits.
fn neg_inv_mod_word(n0: Limb) -> Limb {
    debug_assert!(n0 & 1 == 1, "n0 must be odd");
    // n0 * n0 = 1 mod 8 for odd n0, so inv = n0 is right to 3 bits; 5 steps give 96 >= 64.
    let mut inv = n0;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(n0.wrapping_mul(inv)));
    }
    debug_assert_eq!(n0.wrapping_mul(inv), 1);
    inv.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x = 2x mod N in place, for x < N, both exactly `n.len()` limbs. Variable time.
    fn double_mod(x: &mut [Limb], n: &[Limb]) {
        debug_assert!(x.len() == n.len() && limb::cmp(x, n).is_lt());
        let mut carry = 0;
        for l in x.iter_mut() {
            let top = *l >> (LIMB_BITS - 1);
            *l = (*l << 1) | carry;
            carry = top;
        }
        // 2x < 2N: one subtraction suffices. With a carry out, 2x >= 2^(64 s) > N and the
        // subtraction's borrow cancels that carry.
        if carry == 1 || limb::cmp(x, n).is_ge() {
            let borrow = limb::sub_assign(x, n);
            debug_assert_eq!(borrow, carry);
        }
    }

    #[test]
    fn constants_match_doubling() {
        for n in [
            vec![3u64],
            vec![u64::MAX],
            vec![1, 1],
            vec![0x1234_5678_9abc_def1, 0xffff_0000_ffff_0000, 3],
        ] {
            let p = MontParams::from_limbs(&n).unwrap();
            let mut x = vec![0; p.s()];
            x[0] = 1;
            for _ in 0..64 * p.s() {
                double_mod(&mut x, p.modulus());
            }
            assert_eq!(x, p.r_mod_n());
            for _ in 0..64 * p.s() {
                double_mod(&mut x, p.modulus());
            }
            assert_eq!(x, p.r2_mod_n());
        }
    }

    #[test]
    fn to_mont_by_division_equals_the_product_with_r2() {
        let mut seed = 0x7e57_0f70_4d0d_1715;
        for s in 1..=24 {
            for n in limb::edge_moduli(&mut seed, s) {
                let fresh = MontParams::from_limbs(&n).unwrap();
                let s = fresh.s();
                let mut nm1 = fresh.modulus().to_vec();
                nm1[0] -= 1; // N odd: N - 1 without a borrow
                let rnd = limb::xorshift_limbs(&mut seed, s);
                let rnd = bigarith::from_limbs(&rnd) % bigarith::from_limbs(&n);
                let mut rnd = rnd.to_u64_digits();
                rnd.resize(s, 0);
                let mut one = vec![0; s];
                one[0] = 1;
                for x in [vec![0; s], one, nm1, rnd] {
                    let (mut by_div, mut by_mul) = (vec![0; s], vec![0; s]);
                    let mut t = vec![0; cios::scratch_len(s)];
                    fresh.to_mont_into(&x, &mut by_div, &mut t);
                    assert!(
                        fresh.r2_mod_n.get().is_none(),
                        "the division built R^2 mod N"
                    );
                    let built = MontParams::from_limbs(&n).unwrap();
                    let _ = built.r2_mod_n();
                    built.to_mont_into(&x, &mut by_mul, &mut t);
                    let want = (bigarith::from_limbs(&x) << (64 * s)) % bigarith::from_limbs(&n);
                    assert_eq!(bigarith::from_limbs(&by_div), want, "division, s {s}");
                    assert_eq!(by_mul, by_div, "product with R^2, s {s}");
                }
            }
        }
    }

    /// The constant-time constants equal the division's on the edge moduli of 1 to 40 limbs:
    /// all-ones, a random one with a top limb of 1, W^(s-1) + 1 (3 at s = 1), and random with
    /// the top bit set (RSA's shape).
    #[test]
    fn new_ct_equals_new() {
        let mut seed = 0x6e65_775f_6374_0001;
        for s in 1..=40 {
            for n in limb::edge_moduli(&mut seed, s) {
                let (ct, want) = (MontParams::new_ct(&n), MontParams::from_limbs(&n).unwrap());
                assert_eq!(ct.r_mod_n(), want.r_mod_n(), "R mod N, s {s}");
                assert_eq!(ct.r2_mod_n(), want.r2_mod_n(), "R^2 mod N, s {s}");
                assert_eq!(ct.n0_inv(), want.n0_inv(), "s {s}");
            }
        }
    }

    #[test]
    fn rejects_bad_moduli() {
        assert_eq!(OddModulus::new(&[]), Err(MontError::ModulusTooSmall));
        assert_eq!(OddModulus::new(&[0, 0]), Err(MontError::ModulusTooSmall));
        assert_eq!(OddModulus::new(&[1, 0]), Err(MontError::ModulusTooSmall));
        assert_eq!(OddModulus::new(&[2]), Err(MontError::EvenModulus));
        assert_eq!(OddModulus::new(&[0, 1]), Err(MontError::EvenModulus));
        assert_eq!(OddModulus::new(&[3, 0, 0]).unwrap().as_limbs(), &[3]);
    }

    #[test]
    fn constants_for_small_moduli() {
        // N = 3, s = 1: R = 2^64 = 1 mod 3, R^2 = 1 mod 3, -3^-1 mod 2^64 = 0x5555...5555.
        let p = MontParams::from_limbs(&[3]).unwrap();
        assert_eq!((p.r_mod_n(), p.r2_mod_n(), p.s()), (&[1][..], &[1][..], 1));
        assert_eq!(p.n0_inv(), 0x5555_5555_5555_5555);
        // N = 2^64 + 1, s = 2: R = 2^128 = 1 mod N (since 2^64 = -1).
        let p = MontParams::from_limbs(&[1, 1]).unwrap();
        assert_eq!((p.r_mod_n(), p.r2_mod_n()), (&[1, 0][..], &[1, 0][..]));
        assert_eq!(p.n0_inv(), Limb::MAX);
    }

    #[test]
    fn operand_range() {
        let p = MontParams::from_limbs(&[7]).unwrap();
        assert_eq!(p.operand(&[6, 0, 0], "x"), Ok(vec![6]));
        assert_eq!(p.operand(&[], "x"), Ok(vec![0]));
        assert_eq!(
            p.operand(&[7], "y"),
            Err(MontError::OperandOutOfRange { which: "y" })
        );
        assert_eq!(
            p.operand(&[0, 1], "x"),
            Err(MontError::OperandOutOfRange { which: "x" })
        );
    }
}
