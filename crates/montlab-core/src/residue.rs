//! Residues: elements of Z/NZ kept in the Montgomery form of one [`FastModulus`], so a chain of
//! operations pays the conversions only at its two ends.
//!
//! Citation: P. L. Montgomery, "Modular multiplication without trial division", Math. Comp. 44,
//! 1985: the map x -> x R mod N is a ring isomorphism for the Montgomery product, so sums,
//! differences and products of forms are forms of the results.
//!
//! Representation: a [`Residue`] holds x R mod N, fully reduced (in [0, N)), as exactly `s`
//! limbs (inline up to 1024-bit moduli, else on the heap), where R is the constant of the
//! modulus's residue kernel ([`FastModulus::residue_kernel_id`]: that of `mul`, the word level
//! on `amm` from the table's `ifma_residue_bits`): 2^(64 s) for `cios`, 2^(52 k) for `amm`,
//! 2^l + 1 for `spectral`, 2^l for `ntt_redc`. The kernel is fixed by N and the
//! threshold table when the modulus is made, so every residue of one [`FastModulus`] has the
//! same R and equal values have equal limbs.
//!
//! Ranges: every input and output residue is in [0, N); `from_int` takes any x < N.
//! Operations: a product or squaring is one Montgomery product on that kernel (a squaring on
//! the word level runs the dedicated `sqr`); a sum,
//! difference or negation is limb arithmetic mod N (sums and differences on the MULX/ADX rows'
//! ADC/SBB chains where the CPU has them); a power runs the exponentiation kernel of
//! [`FastModulus::pow`] (which may be another kernel) between two conversions; an inverse is
//! one extended gcd between two conversions.
//!
//! Left out: constant time (every operation here is variable time, like `pow`, and the word
//! level's products run its variable-time entries, `cios::mont_mul_vartime_into` and
//! `sqr::mont_sqr_vartime_into`), and a check that a residue belongs to the modulus it is used
//! with: [`Residue`] values carry no modulus, and the caller (the binding) keeps each with its
//! own. A residue of the wrong length panics (a programming error); one of another modulus of
//! the same length gives a wrong answer.

use crate::bigarith::from_limbs as to_big;
use crate::engine::{FastModulus, Kernel};
use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::mont::sqr::Rows;
use crate::mont::{adx, cios, sqr};
use crate::pow::MontKernel;
use crate::stop::Stop;
use smallvec::SmallVec;

/// Limbs a residue holds without a heap allocation (1024-bit moduli): at that size the
/// allocation and its free cost a few percent of a product called from Python.
const INLINE_LIMBS: usize = 16;

/// A residue's limbs: inline up to [`INLINE_LIMBS`], else on the heap.
type Limbs = SmallVec<[Limb; INLINE_LIMBS]>;

/// x R mod N as exactly `s` limbs, fully reduced (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Residue {
    limbs: Limbs,
}

impl Residue {
    /// The Montgomery form's limbs (x R mod N, `s` of them).
    #[must_use]
    pub fn limbs(&self) -> &[Limb] {
        &self.limbs
    }

    /// True for the residue of 0 (whose form is 0 for every R).
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.limbs.iter().all(|&l| l == 0)
    }
}

/// `s` zero limbs for a result: inline up to [`INLINE_LIMBS`], else one plain allocation (not a
/// calloc, which skips the allocator's per-thread cache).
fn zeroed(s: usize) -> Limbs {
    if s <= INLINE_LIMBS {
        Limbs::from_elem(0, s)
    } else {
        #[expect(clippy::slow_vector_initialization, reason = "not a calloc")]
        let mut v = Vec::with_capacity(s);
        v.resize(s, 0);
        Limbs::from_vec(v)
    }
}

/// `a + b mod N` (`add`) or `a - b mod N` on `rows`, for a, b < N: an ADC chain, then one
/// subtraction when the sum reaches N (a + b < 2N) or overflowed the limbs; or an SBB chain,
/// then N added back after a borrow.
fn add_sub<R: Rows>(rows: R, add: bool, out: &mut [Limb], a: &[Limb], b: &[Limb], n: &[Limb]) {
    if add {
        let carry = rows.add_n(out, a, b, 0);
        if carry != 0 || limb::cmp(out, n).is_ge() {
            rows.sub_assign_n(out, n, 0);
        }
    } else if rows.sub_n(out, a, b, 0) != 0 {
        rows.add_assign_n(out, n, 0);
    }
}

/// [`add_sub`] as a new residue's limbs, on the MULX/ADX rows' ADC/SBB chains where the CPU
/// has them for N's length, else on the portable rows.
fn add_sub_limbs(add: bool, a: &[Limb], b: &[Limb], n: &[Limb]) -> Limbs {
    let mut out = zeroed(n.len());
    match adx::Adx::for_limbs(n.len()) {
        Some(rows) => add_sub(rows, add, &mut out, a, b, n),
        None => add_sub(sqr::Portable, add, &mut out, a, b, n),
    }
    out
}

/// One kernel operation on residues' limbs.
enum Op<'a> {
    ToForm(&'a [Limb]),
    FromForm(&'a [Limb]),
    Mul(&'a [Limb], &'a [Limb]),
    Sqr(&'a [Limb]),
}

/// Runs `op` on kernel `k`; every result is fully reduced, `s` limbs (`unwrap` of each kernel
/// returns its canonical value: `amm`'s reduces its lazy element).
fn run<K: MontKernel>(k: &K, op: &Op<'_>) -> Limbs {
    let mut sc = k.scratch();
    Limbs::from_vec(match *op {
        Op::ToForm(x) => k.unwrap(&k.to_mont(x, &mut sc)),
        Op::FromForm(a) => k.from_mont(&k.wrap(a), &mut sc),
        Op::Mul(a, b) => {
            let (a, b) = (k.wrap(a), k.wrap(b));
            let mut t = a.clone();
            k.mul(&a, &b, &mut t, &mut sc);
            k.unwrap(&t)
        }
        Op::Sqr(a) => {
            let a = k.wrap(a);
            let mut t = a.clone();
            k.sqr(&a, &mut t, &mut sc);
            k.unwrap(&t)
        }
    })
}

impl FastModulus {
    /// The registry id of the kernel residues live on ("amm", "cios", "spectral" or
    /// "ntt_redc"): `mul`'s kernel, with the word level on `amm` from
    /// [`FastModulus::ifma_residue_bits`].
    pub fn residue_kernel_id(&self) -> &'static str {
        self.kernel_id(self.mul_kernel(), &self.ifma_residue_bits())
    }

    /// Runs `op` on the product kernel. The portable word level calls `cios` (and `sqr` for
    /// squarings) directly with one scratch buffer: the common case at small sizes, where
    /// allocations show.
    fn residue_op(&self, op: &Op<'_>) -> Limbs {
        match self.mul_kernel() {
            Kernel::Spectral => run(self.spectral().expect("mul_kernel checked it"), op),
            Kernel::NttRedc => run(self.ntt_redc().expect("every N up to MAX_BITS has it"), op),
            Kernel::Word => match self.word_ifma(&self.ifma_residue_bits()) {
                // Products and squarings without an allocation but the result's.
                Some(k) => {
                    let (a, b) = match *op {
                        Op::Mul(a, b) => (a, Some(b)),
                        Op::Sqr(a) => (a, None),
                        _ => return run(k, op),
                    };
                    let mut out = zeroed(k.limbs());
                    k.mont_product_into(a, b, &mut out);
                    out
                }
                None => {
                    let p = self.word();
                    let s = p.s();
                    // Scratch on the stack up to 4096 bits, sized to the modulus and the
                    // operation (it is zeroed).
                    let len = match *op {
                        Op::ToForm(_) | Op::Mul(..) => cios::scratch_len(s),
                        Op::FromForm(_) | Op::Sqr(_) => sqr::scratch_len(s),
                    };
                    let mut out = zeroed(s);
                    limb::with_scratch(len, |t| match *op {
                        Op::ToForm(x) => cios::mont_mul_vartime_into(
                            p,
                            x,
                            p.r2_mod_n(),
                            &mut out,
                            &mut t[..cios::scratch_len(s)],
                        ),
                        Op::FromForm(a) => {
                            sqr::mont_redc_into(p, a, &mut out, &mut t[..sqr::scratch_len(s)]);
                        }
                        Op::Mul(a, b) => {
                            let t = &mut t[..cios::scratch_len(s)];
                            cios::mont_mul_vartime_into(p, a, b, &mut out, t);
                        }
                        Op::Sqr(a) => {
                            let t = &mut t[..sqr::scratch_len(s)];
                            sqr::mont_sqr_vartime_into(p, a, &mut out, t);
                        }
                    });
                    out
                }
            },
        }
    }

    /// Checks that `a` is a residue of this modulus's length.
    fn check_len(&self, a: &Residue) {
        assert_eq!(
            a.limbs.len(),
            self.modulus().len(),
            "residue: limb count differs from the modulus's"
        );
        debug_assert!(limb::cmp(&a.limbs, self.modulus()).is_lt());
    }

    /// The residue of `x`, for `0 <= x < N` (one Montgomery product by R^2 mod N).
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `x` when `x >= N`.
    pub fn residue(&self, x: &[Limb]) -> Result<Residue, MontError> {
        let x = limb::operand(x, self.modulus(), "x")?;
        Ok(Residue {
            limbs: self.residue_op(&Op::ToForm(&x)),
        })
    }

    /// The residue whose Montgomery form is `form` (`form < N`), no conversion: the inverse of
    /// [`Residue::limbs`], for residues stored or sent in Montgomery form.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `form` when `form >= N`.
    pub fn residue_from_form(&self, form: &[Limb]) -> Result<Residue, MontError> {
        Ok(Residue {
            limbs: Limbs::from_vec(limb::operand(form, self.modulus(), "form")?),
        })
    }

    /// The ordinary value of `a` in [0, N), `s` limbs (one Montgomery product by 1).
    ///
    /// # Panics
    /// If `a` has another limb count than N.
    pub fn residue_value(&self, a: &Residue) -> Vec<Limb> {
        self.check_len(a);
        self.residue_op(&Op::FromForm(&a.limbs)).into_vec()
    }

    /// `a b` (one Montgomery product).
    ///
    /// # Panics
    /// If a residue has another limb count than N.
    pub fn residue_mul(&self, a: &Residue, b: &Residue) -> Residue {
        self.check_len(a);
        self.check_len(b);
        let op = if a == b {
            Op::Sqr(&a.limbs)
        } else {
            Op::Mul(&a.limbs, &b.limbs)
        };
        Residue {
            limbs: self.residue_op(&op),
        }
    }

    /// `a^2` (one Montgomery squaring).
    ///
    /// # Panics
    /// If `a` has another limb count than N.
    pub fn residue_sqr(&self, a: &Residue) -> Residue {
        self.check_len(a);
        Residue {
            limbs: self.residue_op(&Op::Sqr(&a.limbs)),
        }
    }

    /// `a + b mod N`.
    ///
    /// # Panics
    /// If a residue has another limb count than N.
    pub fn residue_add(&self, a: &Residue, b: &Residue) -> Residue {
        self.check_len(a);
        self.check_len(b);
        Residue {
            limbs: add_sub_limbs(true, &a.limbs, &b.limbs, self.modulus()),
        }
    }

    /// `a - b mod N`.
    ///
    /// # Panics
    /// If a residue has another limb count than N.
    pub fn residue_sub(&self, a: &Residue, b: &Residue) -> Residue {
        self.check_len(a);
        self.check_len(b);
        Residue {
            limbs: add_sub_limbs(false, &a.limbs, &b.limbs, self.modulus()),
        }
    }

    /// `-a mod N`.
    ///
    /// # Panics
    /// If `a` has another limb count than N.
    pub fn residue_neg(&self, a: &Residue) -> Residue {
        self.check_len(a);
        if a.is_zero() {
            return a.clone();
        }
        let mut out = Limbs::from_slice(self.modulus());
        limb::sub_assign(&mut out, &a.limbs); // N - a for 0 < a < N
        Residue { limbs: out }
    }

    /// The residue of 0.
    #[must_use]
    pub fn residue_zero(&self) -> Residue {
        Residue {
            limbs: Limbs::from_elem(0, self.modulus().len()),
        }
    }

    /// The residue of 1 (R mod N for the product kernel's R).
    #[must_use]
    pub fn residue_one(&self) -> Residue {
        let mut one = vec![0; self.modulus().len()];
        one[0] = 1;
        Residue {
            limbs: self.residue_op(&Op::ToForm(&one)),
        }
    }

    /// `a^exp` for `exp >= 0` (variable time): [`FastModulus::pow_until`] on the ordinary
    /// value, so the size table picks the exponentiation kernel as for `pow`. Exponents 0, 1
    /// and 2 take no conversion.
    ///
    /// # Errors
    /// [`MontError::Interrupted`] once `stop` is requested.
    ///
    /// # Panics
    /// If `a` has another limb count than N.
    pub fn residue_pow(
        &self,
        a: &Residue,
        exp: &[Limb],
        stop: &Stop,
    ) -> Result<Residue, MontError> {
        self.check_len(a);
        match limb::bit_len(exp) {
            0 => return Ok(self.residue_one()),
            1 => return Ok(a.clone()),
            2 if exp[0] == 2 => return Ok(self.residue_sqr(a)),
            _ => {}
        }
        let x = self.residue_value(a);
        let y = self.pow_until(&x, exp, stop)?;
        self.residue(&y)
    }

    /// `a^-1`, or [`MontError::NotInvertible`] when gcd(a, N) > 1 (0 included).
    ///
    /// # Errors
    /// [`MontError::NotInvertible`].
    ///
    /// # Panics
    /// If `a` has another limb count than N.
    pub fn residue_inverse(&self, a: &Residue) -> Result<Residue, MontError> {
        let x = to_big(&self.residue_value(a));
        let inv = crate::inverse::mod_inverse(&x, &to_big(self.modulus()))
            .ok_or(MontError::NotInvertible)?;
        self.residue(&inv.to_u64_digits())
    }

    /// `[a_i b_i]` in input order, in parallel (one product each).
    ///
    /// # Errors
    /// [`MontError::EmptyBatch`], [`MontError::BatchLengthMismatch`],
    /// [`MontError::Interrupted`].
    ///
    /// # Panics
    /// If a residue has another limb count than N.
    pub fn residue_mul_many(
        &self,
        a: &[Residue],
        b: &[Residue],
        stop: &Stop,
    ) -> Result<Vec<Residue>, MontError> {
        use rayon::prelude::*;
        crate::engine::batch_lengths(a.len(), b.len())?;
        self.prepare_residue_kernel();
        a.par_iter()
            .zip(b.par_iter())
            .with_min_len(self.min_chunk())
            .map(|(x, y)| stop.check().map(|()| self.residue_mul(x, y)))
            .collect()
    }

    /// `[a_i ^ exps_i]` in input order, in parallel, on the kernel of
    /// [`FastModulus::pow_many`]. Variable time.
    ///
    /// # Errors
    /// As [`FastModulus::pow_many_until`].
    ///
    /// # Panics
    /// If a residue has another limb count than N.
    pub fn residue_pow_many<E: AsRef<[Limb]> + Sync>(
        &self,
        a: &[Residue],
        exps: &[E],
        stop: &Stop,
    ) -> Result<Vec<Residue>, MontError> {
        let values: Vec<Vec<Limb>> = a.iter().map(|r| self.residue_value(r)).collect();
        let out = self.pow_many_until(&values, exps, stop)?;
        out.iter().map(|y| self.residue(y)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Cut, Thresholds};
    use num_bigint::BigUint;
    use to_big as big;

    fn limbs(x: &BigUint, s: usize) -> Vec<Limb> {
        let mut v = x.to_u64_digits();
        v.resize(s, 0);
        v
    }

    /// A deterministic stream of numbers below `n` (xorshift), with the edge values first.
    fn values(n: &BigUint, count: usize, seed: u64) -> Vec<BigUint> {
        let one = BigUint::from(1u8);
        let mut out = vec![BigUint::default(), one.clone(), n - &one, n >> 1u32];
        let mut state = seed | 1;
        let words = n.to_u64_digits().len();
        while out.len() < count {
            let mut w = Vec::with_capacity(words);
            for _ in 0..words {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                w.push(state);
            }
            out.push(big(&w) % n);
        }
        out
    }

    /// Every operation against BigUint arithmetic, on the kernel the table picks for `n`.
    fn check(n: &BigUint, t: Thresholds, kernel: &str) {
        let m = FastModulus::with_thresholds(&n.to_u64_digits(), t).unwrap();
        assert_eq!(
            m.residue_kernel_id(),
            kernel,
            "kernel for {} bits",
            n.bits()
        );
        let s = m.modulus().len();
        let vals = values(n, 12, n.bits());
        let res: Vec<Residue> = vals
            .iter()
            .map(|x| m.residue(&x.to_u64_digits()).unwrap())
            .collect();
        for (x, a) in vals.iter().zip(&res) {
            assert_eq!(big(&m.residue_value(a)), *x);
            assert_eq!(a.is_zero(), *x == BigUint::default());
            assert_eq!(big(&m.residue_value(&m.residue_neg(a))), (n - x) % n);
            assert_eq!(big(&m.residue_value(&m.residue_sqr(a))), x * x % n, "sqr");
            for (y, b) in vals.iter().zip(&res).take(6) {
                let ctx = format!("{} bits, x={x:x}, y={y:x}", n.bits());
                assert_eq!(
                    big(&m.residue_value(&m.residue_mul(a, b))),
                    x * y % n,
                    "{ctx}"
                );
                assert_eq!(
                    big(&m.residue_value(&m.residue_add(a, b))),
                    (x + y) % n,
                    "{ctx}"
                );
                assert_eq!(
                    big(&m.residue_value(&m.residue_sub(a, b))),
                    (x + n - y) % n,
                    "{ctx}"
                );
            }
            for e in [0u64, 1, 2, 3, 65537] {
                let p = m.residue_pow(a, &[e], Stop::never()).unwrap();
                assert_eq!(big(&m.residue_value(&p)), x.modpow(&BigUint::from(e), n));
            }
            match m.residue_inverse(a) {
                Ok(inv) => assert_eq!(
                    big(&m.residue_value(&m.residue_mul(a, &inv))),
                    BigUint::from(1u8) % n
                ),
                Err(e) => {
                    assert_eq!(e, MontError::NotInvertible);
                    assert!(crate::inverse::mod_inverse(x, n).is_none());
                }
            }
        }
        // The form of 1 is R mod N, which from_form reproduces without conversion.
        let one = m.residue_one();
        assert_eq!(big(&m.residue_value(&one)), BigUint::from(1u8));
        assert_eq!(m.residue_from_form(one.limbs()).unwrap(), one);
        assert_eq!(m.residue_zero().limbs(), &vec![0; s][..]);
        assert_eq!(
            m.residue(&limbs(n, s)),
            Err(MontError::OperandOutOfRange { which: "x" })
        );
        assert_eq!(
            m.residue_from_form(&limbs(n, s)),
            Err(MontError::OperandOutOfRange { which: "form" })
        );
        let many = m.residue_mul_many(&res, &res, Stop::never()).unwrap();
        for ((x, a), p) in vals.iter().zip(&res).zip(&many) {
            assert_eq!(*p, m.residue_sqr(a));
            assert_eq!(big(&m.residue_value(p)), x * x % n);
        }
        let pows = m
            .residue_pow_many(&res, &vec![[5u64]; res.len()], Stop::never())
            .unwrap();
        for (x, p) in vals.iter().zip(&pows) {
            assert_eq!(big(&m.residue_value(p)), x.modpow(&BigUint::from(5u8), n));
        }
        assert_eq!(
            m.residue_mul_many(&res[..1], &res[..2], Stop::never()),
            Err(MontError::BatchLengthMismatch { left: 1, right: 2 })
        );
        assert_eq!(
            m.residue_mul_many(&[], &[], Stop::never()),
            Err(MontError::EmptyBatch)
        );
    }

    fn table(mul: u64) -> Thresholds {
        Thresholds {
            spectral_mul_bits: Cut::at(mul),
            ..Thresholds::generic()
        }
    }

    #[test]
    fn word_level_residues_match_biguint() {
        // 1024 and 1025 bits: the last limb count held inline and the first on the heap; and
        // both sides of this CPU's `ifma_residue_bits` (where it is a size to test).
        let cut = Thresholds::generic().ifma_residue_bits;
        let mut sizes = vec![2u32, 3, 63, 64, 65, 127, 128, 500, 1024, 1025, 2048];
        if let Ok(cut @ 2..=4096) = u32::try_from(cut) {
            sizes.extend([cut - 1, cut]);
        }
        for bits in sizes {
            let n = (BigUint::from(1u8) << bits) - 1u8; // 2^k - 1: all ones, odd
            let ifma = cut..=crate::mont::amm::MAX_BITS;
            let word = if ifma.contains(&u64::from(bits)) && crate::mont::amm::enabled() {
                "amm"
            } else {
                "cios"
            };
            check(&n, table(u64::MAX), word);
            if bits > 2 {
                check(&(&n - 2u8), table(u64::MAX), word); // 2^k - 3
            }
        }
    }

    #[test]
    fn spectral_residues_match_biguint() {
        // 2^k + 1 shares no factor with spectral's R for these sizes (checked by the kernel
        // id: a modulus that did would fall back to the word level).
        for bits in [130u32, 700, 3000] {
            let n = (BigUint::from(1u8) << bits) + 1u8 + (BigUint::from(1u8) << 77);
            check(&n, table(1), "spectral");
        }
    }

    #[test]
    fn every_kernel_returns_canonical_forms() {
        // `run` on each kernel type directly (ntt_redc is the product kernel only above
        // SPECTRAL_MAX_BITS, too large for a test): forms of x are x R mod N, fully reduced.
        use crate::spectral::ntt_redc::NttRedcParams;
        use crate::spectral::SpectralParams;
        let n = (BigUint::from(1u8) << 700u32) - 33u8;
        let odd = crate::params::OddModulus::new(&n.to_u64_digits()).unwrap();
        let s = odd.limbs();
        let vals = values(&n, 8, 7);
        fn all<K: MontKernel>(k: &K, n: &BigUint, r: &BigUint, vals: &[BigUint], s: usize) {
            for x in vals {
                let form = run(k, &Op::ToForm(&limbs(x, s)));
                assert_eq!(big(&form), x * r % n);
                assert_eq!(big(&run(k, &Op::FromForm(&form))), *x);
                for y in vals {
                    let fy = limbs(&(y * r % n), s);
                    let p = run(k, &Op::Mul(&form, &fy));
                    assert_eq!(big(&p), x * y % n * r % n);
                }
                assert_eq!(big(&run(k, &Op::Sqr(&form))), x * x % n * r % n);
            }
        }
        let one = BigUint::from(1u8);
        let ntt = NttRedcParams::new(&odd).unwrap();
        let l = 64 * ntt.transform_len() as u32;
        all(&ntt, &n, &((&one << l) % &n), &vals, s);
        let spec = SpectralParams::new(&odd).unwrap();
        let l = 64 * spec.transform_len() as u32;
        all(&spec, &n, &(((&one << l) + 1u8) % &n), &vals, s);
        let word = crate::params::MontParams::new(odd.clone());
        all(&word, &n, &((&one << (64 * s as u32)) % &n), &vals, s);
        if crate::mont::amm::enabled() {
            let k = crate::mont::amm::IfmaParams::new(&odd).unwrap();
            all(&k, &n, &((&one << (52 * k.digits() as u32)) % &n), &vals, s);
        }
    }

    #[test]
    fn not_invertible_and_wrong_lengths() {
        let n = BigUint::from(15u8);
        let m = FastModulus::new(&n.to_u64_digits()).unwrap();
        for x in [0u64, 3, 5, 6, 9, 10, 12] {
            let a = m.residue(&[x]).unwrap();
            assert_eq!(m.residue_inverse(&a), Err(MontError::NotInvertible));
        }
        let a = m.residue(&[7]).unwrap();
        assert_eq!(m.residue_value(&m.residue_inverse(&a).unwrap()), vec![13]);
        let long = Residue {
            limbs: Limbs::from_slice(&[1, 0]),
        };
        assert!(std::panic::catch_unwind(|| m.residue_value(&long)).is_err());
    }
}
