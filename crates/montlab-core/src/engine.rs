//! [`FastModulus`]: one modulus, the fastest exact kernel for each operation, chosen by size
//! from a [`Thresholds`] table, plus batch calls spread over all cores.
//!
//! Contract: every method takes ordinary (not Montgomery) little-endian limbs of any length,
//! rejects operands `>= N` with [`MontError::OperandOutOfRange`] (nothing is reduced
//! silently), and returns fully reduced results of exactly `s = ceil(bitlen(N) / 64)` limbs.
//! The kernels: word-level (`cios` products and `sqr` squarings, R = 2^(64 s)), spectral
//! (`spectral`, R = 2^l + 1) and spectral with a 2-adic setup (`ntt_redc`, R = 2^l); all are exact at every size, so the table only decides speed. The
//! spectral kernel is skipped (word-level used instead) for the rare N that shares a factor
//! with every Fermat number 2^l + 1 tried, see [`SpectralParams::new`].
//!
//! Short exponentiations do not build `spectral`, whose half-gcd inverse would cost more than the
//! exponentiation itself: until the exponent bits run on a modulus of a spectral size add up
//! to [`SHORT_POW_BITS`], `pow` runs on `ntt_redc` (R = 2^l, [`NttRedcParams`], a 2-adic setup)
//! from the table's `ntt_redc_pow_bits`, and on the word-level kernel below it and where N
//! would leave `ntt_redc`'s transform mostly empty ([`NTT_REDC_MIN_FILL`]). Past that total,
//! `spectral` is built and used (its setup then pays back).
//!
//! When the CPU has AVX-512 IFMA and `MONTLAB_NO_IFMA` is unset, word-level `pow` and
//! `pow_many` run on the radix-2^52 IFMA kernel ([`crate::mont::amm`]) instead of `cios` +
//! `sqr` for N in [`IFMA_POW_BITS`], and word-level `mul`, `sqr` and `mul_many` for N in
//! [`FastModulus::ifma_mul_bits`] (the table's `ifma_mul_bits`; both up to [`amm::MAX_BITS`]);
//! so does `pow_sec` (its fixed window on the IFMA kernel, constant time too) for N in
//! [`IFMA_POW_BITS`], and `pow_sec_many` runs its items two at a time on that kernel's two lanes
//! up to [`amm::PAIR_MAX_VECS`] vectors.
//!
//! Above [`SPECTRAL_MAX_BITS`] (spectral's largest transform, 2^22 bits) and up to [`MAX_BITS`]
//! (2^25 bits) every variable-time operation runs on `ntt_redc`, whatever the table says: the
//! word level would be quadratic there. `pow_sec` (word-level, constant time) is refused there.
//!
//! Per-modulus precomputation is built on first use and then shared by all threads (word
//! constants need O(s^2 64) limb operations, `spectral` a modular inverse and 3 transforms,
//! `ntt_redc` a 2-adic inverse and 3 transforms, then R^2 mod N on its second conversion).
//! Batch calls check every operand first, then run on rayon's pool; results come back in
//! input order. Variable time except [`FastModulus::pow_sec`] and
//! [`FastModulus::pow_sec_many`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use rayon::prelude::*;

use crate::barrett::BarrettParams;
use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::mont::amm::{self, IfmaParams};
use crate::params::{MontParams, OddModulus};
use crate::pow::blind::{self, Blind};
use crate::pow::fixed::CtKernel;
use crate::pow::{pair, window, MontKernel, VarTimeWord};
use crate::spectral::ntt_redc::{self, NttRedcParams};
use crate::spectral::SpectralParams;
use crate::stop::Stop;
pub use crate::thresholds::{
    generic_thresholds_text, Cut, Thresholds, GENERIC_THRESHOLDS, GENERIC_THRESHOLDS_IFMA,
    GENERIC_THRESHOLDS_PORTABLE,
};

/// Sizes of N (bits) whose word-level exponentiations run on the IFMA kernel when available:
/// from 513 bits (at 512 bits and below `cios` + `sqr` with their fixed-length loops tie or
/// win) up to the kernel's largest modulus [`amm::MAX_BITS`]; `pow_sec` on the word level
/// follows the same range. Whether `pow` is word-level at
/// all is decided by `spectral_pow_bits`, and for short exponents by `ntt_redc_pow_bits`.
pub const IFMA_POW_BITS: core::ops::RangeInclusive<u64> = 513..=amm::MAX_BITS;

/// The largest modulus (bits) [`FastModulus`] takes: `ntt_redc`'s largest transform,
/// 64 [`crate::spectral::ntt_redc::MAX_LEN`] = 2^25 bits. Larger moduli are refused, not run on
/// the quadratic word level (49 s a product at 10^7 bits).
pub const MAX_BITS: u64 = 64 * crate::spectral::ntt_redc::MAX_LEN as u64;

/// The largest modulus (bits) of `spectral` ([`crate::spectral::MAX_TRANSFORM_LEN`]: 2^22 bits)
/// and of `pow_sec`. Above it, up to [`MAX_BITS`], everything else runs on `ntt_redc`.
pub const SPECTRAL_MAX_BITS: u64 = 64 * crate::spectral::MAX_TRANSFORM_LEN as u64;

/// The longest public exponent length `pow_sec` takes when the caller states one (`exp_bits`):
/// 2^24 bits, four times the longest N `pow_sec` takes ([`SPECTRAL_MAX_BITS`]). The exponent is
/// padded to it in memory, so a larger stated length is refused rather than allocated.
pub const SEC_EXP_MAX_BITS: u64 = 1 << 24;

/// Exponent bits (summed over the calls on one modulus) that run without building `spectral`.
/// Its setup (the half-gcd inverse) makes a one-shot call with 32 to 64 exponent bits about as
/// costly as on `ntt_redc` (0.6 to 1.6 times its time from 2^13 to 2^17 bits of N:
/// `bench/short_pow.py`, `docs/short-pow.json`, one-shot calls on the word level, `ntt_redc` and
/// `spectral`, no IFMA); 64 lets a few e = 65537 calls run before it is built, at most about
/// twice the better choice made in hindsight. At 2^20 bits and up `ntt_redc`, whose
/// six transforms per step run in parallel, wins longer exponents too on two cores, and
/// `spectral` is still built past this budget.
pub const SHORT_POW_BITS: u64 = 64;

/// Least fill (limbs of N over `ntt_redc`'s transform length, a fraction) at which an
/// exponentiation without `spectral` (a short one, or any on a modulus that shares a factor
/// with 2^l + 1) below twice `ntt_redc_pow_bits` runs on `ntt_redc`. Just above a power of two
/// the transform is half empty: at 20127 bits (fill 0.62) one-shot calls with 17 to 64
/// exponent bits take 1.04–1.43 times the word level's time on `ntt_redc`, at 24576 bits (fill
/// 0.75) 0.72–0.87 (`bench/short_pow.py`, `docs/short-pow-avx2.json`, MULX/ADX rows and AVX2
/// transforms); with the word level's sub-quadratic REDC, 1.35–1.44 at 32769 bits (fill 0.50),
/// 0.95–1.04 at 40960 (0.63) and 0.79–0.90 at 49152 (0.75) (`docs/short-pow-redc-n.json`).
/// Long exponentiations on `spectral` are not affected.
pub const NTT_REDC_MIN_FILL: (usize, usize) = (7, 10);

/// The sizes [`NTT_REDC_MIN_FILL`] was measured on end here (2^16 bits, no IFMA); larger moduli
/// follow `ntt_redc_pow_bits` alone (the quadratic word level falls behind fast above).
pub const NTT_REDC_FILL_MAX_BITS: u64 = 1 << 16;

/// Checks the lengths of a batch call's two lists: both non-empty, and equal.
///
/// # Errors
/// [`MontError::EmptyBatch`], [`MontError::BatchLengthMismatch`].
pub(crate) fn batch_lengths(left: usize, right: usize) -> Result<(), MontError> {
    if left == 0 || right == 0 {
        return Err(MontError::EmptyBatch);
    }
    if left != right {
        return Err(MontError::BatchLengthMismatch { left, right });
    }
    Ok(())
}

/// `exp` as exactly `limbs` limbs, zero limbs dropped or added at the top (its value must
/// fit). Cut at the public lengths, never at the top set limb: no scan of the values.
fn pad_exponent(exp: &[Limb], limbs: usize) -> Vec<Limb> {
    let (e, above) = exp.split_at(exp.len().min(limbs));
    debug_assert!(
        above.iter().all(|&l| l == 0),
        "exponent wider than {limbs} limbs"
    );
    let mut e = e.to_vec();
    e.resize(limbs, 0);
    e
}

/// Whether `exp < 2^bits`, reading every limb under a mask of its public position: no branch
/// or early exit on the values (the answer alone is revealed, as an error or not).
fn fits_bits(exp: &[Limb], bits: u64) -> bool {
    let full = usize::try_from(bits / 64).unwrap_or(usize::MAX);
    let part = (1 << (bits % 64)) - 1;
    let over = exp.iter().enumerate().fold(0, |over, (i, &l)| {
        let allowed = match i.cmp(&full) {
            core::cmp::Ordering::Less => Limb::MAX,
            core::cmp::Ordering::Equal => part,
            core::cmp::Ordering::Greater => 0,
        };
        over | (l & !allowed)
    });
    over == 0
}

/// Which kernel an operation runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Word-level Montgomery: `cios` products, `sqr` squarings, R = 2^(64 s).
    Word,
    /// Spectral Montgomery: `spectral` over NTTs, R = 2^l + 1.
    Spectral,
    /// Spectral Montgomery with a 2-adic setup: `ntt_redc` over NTTs, R = 2^l (short exponents,
    /// and every operation above [`SPECTRAL_MAX_BITS`]).
    NttRedc,
}

impl Kernel {
    /// The kernel's short name (`"word"`, `"spectral"` or `"ntt_redc"`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Word => "word",
            Self::Spectral => "spectral",
            Self::NttRedc => "ntt_redc",
        }
    }
}

/// An odd modulus N > 1 with lazily built word-level and spectral kernels.
#[derive(Debug)]
pub struct FastModulus {
    modulus: OddModulus,
    thresholds: Thresholds,
    word: OnceLock<MontParams>,
    ifma: OnceLock<Option<IfmaParams>>,
    spectral: OnceLock<Option<SpectralParams>>,
    ntt_redc: OnceLock<Option<NttRedcParams>>,
    barrett: OnceLock<BarrettParams>,
    /// Exponent bits run so far without `spectral` (see [`SHORT_POW_BITS`]).
    short_bits: AtomicU64,
    /// Whether `pow_sec` blinds its operands ([`FastModulus::set_blinding`]).
    blinding: AtomicBool,
    /// `pow_sec`'s blinding pairs, one per exponent limb count, at most [`BLIND_LENGTHS`].
    blinds: Mutex<Vec<Blind>>,
}

/// Exponent lengths whose blinding pairs a [`FastModulus`] keeps (the oldest goes first).
const BLIND_LENGTHS: usize = 4;

impl FastModulus {
    /// Validates N with the generic thresholds.
    ///
    /// # Errors
    /// [`MontError::ModulusTooSmall`] if N <= 1, [`MontError::EvenModulus`] if N is even,
    /// [`MontError::ModulusTooLarge`] above [`MAX_BITS`].
    pub fn new(n: &[Limb]) -> Result<Self, MontError> {
        Self::with_thresholds(n, Thresholds::generic())
    }

    /// Validates N with a given threshold table.
    ///
    /// # Errors
    /// As [`FastModulus::new`].
    pub fn with_thresholds(n: &[Limb], thresholds: Thresholds) -> Result<Self, MontError> {
        let modulus = OddModulus::new(n)?;
        if modulus.bits() > MAX_BITS {
            return Err(MontError::ModulusTooLarge {
                bits: modulus.bits(),
                max: MAX_BITS,
            });
        }
        Ok(Self {
            modulus,
            thresholds,
            word: OnceLock::new(),
            ifma: OnceLock::new(),
            spectral: OnceLock::new(),
            ntt_redc: OnceLock::new(),
            blinding: AtomicBool::new(false),
            blinds: Mutex::new(Vec::new()),
            barrett: OnceLock::new(),
            short_bits: AtomicU64::new(0),
        })
    }

    /// N, `s` limbs.
    #[must_use]
    pub fn modulus(&self) -> &[Limb] {
        self.modulus.as_limbs()
    }

    /// Bit length of N.
    #[must_use]
    pub fn bits(&self) -> u64 {
        self.modulus.bits()
    }

    /// The table this modulus dispatches with.
    #[must_use]
    pub fn thresholds(&self) -> Thresholds {
        self.thresholds
    }

    /// The word-level constants (built on first use).
    pub fn word(&self) -> &MontParams {
        self.word
            .get_or_init(|| MontParams::new(self.modulus.clone()))
    }

    /// The IFMA constants (built on first use) if N is in `sizes`, the CPU has AVX-512 IFMA
    /// and `MONTLAB_NO_IFMA` is unset; else `None`.
    pub(crate) fn word_ifma(&self, sizes: &core::ops::RangeInclusive<u64>) -> Option<&IfmaParams> {
        if !self.ifma_size(sizes) {
            return None;
        }
        self.ifma
            .get_or_init(|| IfmaParams::new(&self.modulus))
            .as_ref()
    }

    /// True when long-exponent `pow` and `pow_many` run on the IFMA kernel
    /// ([`FastModulus::pow_kernel`] word-level, which builds `spectral` at spectral sizes; N in
    /// [`IFMA_POW_BITS`], the CPU has AVX-512 IFMA and `MONTLAB_NO_IFMA` is unset).
    pub fn pow_uses_ifma(&self) -> bool {
        self.pow_kernel() == Kernel::Word && self.word_ifma(&IFMA_POW_BITS).is_some()
    }

    /// Sizes of N (bits) whose word-level products on ints (`mul`, `sqr`, `mul_many`) run on
    /// the IFMA kernel when the CPU has it: from the table's `ifma_mul_bits` up to
    /// [`amm::MAX_BITS`]. Whether they are word-level at all is decided by `spectral_mul_bits`.
    #[must_use]
    pub fn ifma_mul_bits(&self) -> core::ops::RangeInclusive<u64> {
        self.thresholds.ifma_mul_bits..=amm::MAX_BITS
    }

    /// The sizes at which residues' products run on the IFMA kernel when the CPU has it: from
    /// the table's `ifma_residue_bits` up to [`amm::MAX_BITS`] (where residues are word-level,
    /// as `mul` is).
    #[must_use]
    pub fn ifma_residue_bits(&self) -> core::ops::RangeInclusive<u64> {
        self.thresholds.ifma_residue_bits..=amm::MAX_BITS
    }

    /// True when `mul`, `sqr` and `mul_many` run on the IFMA kernel (word-level kernel chosen,
    /// N in [`FastModulus::ifma_mul_bits`], the CPU has AVX-512 IFMA and `MONTLAB_NO_IFMA` is
    /// unset).
    pub fn mul_uses_ifma(&self) -> bool {
        self.mul_kernel() == Kernel::Word && self.word_ifma(&self.ifma_mul_bits()).is_some()
    }

    /// True when N is in `sizes` and the IFMA kernels are on: the word level runs `amm`.
    fn ifma_size(&self, sizes: &core::ops::RangeInclusive<u64>) -> bool {
        sizes.contains(&self.bits()) && amm::enabled()
    }

    /// The registry id of `kernel` at this size for an operation whose IFMA range is `sizes`:
    /// `"amm"` or `"cios"` for [`Kernel::Word`], else the kernel's name.
    pub(crate) fn kernel_id(
        &self,
        kernel: Kernel,
        sizes: &core::ops::RangeInclusive<u64>,
    ) -> &'static str {
        match kernel {
            Kernel::Word if self.ifma_size(sizes) => "amm",
            Kernel::Word => "cios",
            k => k.name(),
        }
    }

    /// The registry id (`"amm"`, `"cios"`, `"spectral"` or `"ntt_redc"`) of the kernel of
    /// `mul`, `sqr` and `mul_many`.
    pub fn mul_kernel_id(&self) -> &'static str {
        self.kernel_id(self.mul_kernel(), &self.ifma_mul_bits())
    }

    /// How [`FastModulus::mul`], [`FastModulus::sqr`] and [`FastModulus::mul_many`] reduce:
    /// `"barrett"` on the word level without IFMA ([`BarrettParams::mul_mod`]), else
    /// `"montgomery"` (a Montgomery product, then one with R^2 mod N).
    pub fn mul_reduction(&self) -> &'static str {
        if self.int_mul_is_barrett() {
            "barrett"
        } else {
            "montgomery"
        }
    }

    /// True when products on ints reduce by Barrett ([`FastModulus::mul_reduction`]): the word
    /// level without IFMA, where [`FastModulus::mul_checked`] takes [`FastModulus::barrett`].
    fn int_mul_is_barrett(&self) -> bool {
        self.mul_kernel() == Kernel::Word && self.word_ifma(&self.ifma_mul_bits()).is_none()
    }

    /// The Barrett constant, built on first use.
    fn barrett(&self) -> &BarrettParams {
        self.barrett
            .get_or_init(|| BarrettParams::new(&self.modulus))
    }

    /// The registry id of [`FastModulus::pow_kernel`] (which may build `spectral`).
    pub fn pow_kernel_id(&self) -> &'static str {
        self.kernel_id(self.pow_kernel(), &IFMA_POW_BITS)
    }

    /// The registry id of [`FastModulus::pow_kernel_for`]: what the next `pow` with an
    /// `exp_bits`-bit exponent runs on. A query that builds nothing.
    pub fn pow_kernel_id_for(&self, exp_bits: u64) -> &'static str {
        self.kernel_id(self.pow_kernel_for(exp_bits), &IFMA_POW_BITS)
    }

    /// The spectral constants (built on first use), or `None` if N has no spectral kernel.
    pub fn spectral(&self) -> Option<&SpectralParams> {
        self.spectral
            .get_or_init(|| SpectralParams::new(&self.modulus))
            .as_ref()
    }

    /// The `ntt_redc` constants (built on first use); `None` only above [`MAX_BITS`].
    pub fn ntt_redc(&self) -> Option<&NttRedcParams> {
        self.ntt_redc
            .get_or_init(|| NttRedcParams::new(&self.modulus))
            .as_ref()
    }

    /// The kernel `pow` and `pow_many` run on for long exponents (`spectral` built if needed;
    /// a modulus that shares a factor with 2^l + 1 runs `ntt_redc` from `ntt_redc_pow_bits`,
    /// under the fill rule of [`NTT_REDC_MIN_FILL`]).
    pub fn pow_kernel(&self) -> Kernel {
        if self.ntt_redc_only() {
            return Kernel::NttRedc;
        }
        match self.pick(self.thresholds.spectral_pow_bits) {
            Kernel::Word if self.thresholds.spectral_pow_bits.on(self.bits()) => {
                self.short_kernel()
            }
            k => k,
        }
    }

    /// The kernel the next exponentiation with `exp_bits` exponent bits (summed over a batch)
    /// runs on; a query that builds nothing. At a spectral size while `spectral` is not built,
    /// and while the exponent bits run on this modulus stay within [`SHORT_POW_BITS`]:
    /// [`Kernel::NttRedc`] from the table's `ntt_redc_pow_bits`, [`Kernel::Word`] below. Else the
    /// long-exponent kernel ([`FastModulus::pow_kernel`]), predicted as [`Kernel::Spectral`]
    /// while `spectral` is not built (a modulus that shares a factor with 2^l + 1 turns out
    /// otherwise once it is).
    pub fn pow_kernel_for(&self, exp_bits: u64) -> Kernel {
        let bits = self.bits();
        if self.ntt_redc_only() {
            return Kernel::NttRedc;
        }
        if !self.thresholds.spectral_pow_bits.on(bits) {
            return Kernel::Word;
        }
        match self.spectral.get() {
            Some(Some(_)) => Kernel::Spectral,
            Some(None) => self.short_kernel(),
            None => {
                let spent = self.short_bits.load(Ordering::Relaxed);
                if spent.saturating_add(exp_bits) <= SHORT_POW_BITS {
                    self.short_kernel()
                } else {
                    Kernel::Spectral
                }
            }
        }
    }

    /// The kernel of an exponentiation without `spectral` (a short one, or any on a modulus
    /// that shares a factor with 2^l + 1): `ntt_redc` from `ntt_redc_pow_bits` (it takes every
    /// odd N up to [`MAX_BITS`]), the word level below; and below twice `ntt_redc_pow_bits` and
    /// below [`NTT_REDC_FILL_MAX_BITS`], a modulus that would fill less than
    /// [`NTT_REDC_MIN_FILL`] of `ntt_redc`'s transform stays on the word level.
    fn short_kernel(&self) -> Kernel {
        let (t, bits) = (self.thresholds.ntt_redc_pow_bits, self.bits());
        let s = self.modulus.limbs();
        let (fill_num, fill_den) = NTT_REDC_MIN_FILL;
        let sparse = bits < t.saturating_mul(2)
            && bits < NTT_REDC_FILL_MAX_BITS
            && s * fill_den < fill_num * ntt_redc::transform_len_for(s);
        if bits >= t && !sparse {
            Kernel::NttRedc
        } else {
            Kernel::Word
        }
    }

    /// The kernel this exponentiation runs on ([`FastModulus::pow_kernel_for`]): reserves its
    /// exponent bits from the short budget (atomically, so concurrent calls cannot overrun
    /// it) or builds `spectral`.
    fn take_pow_kernel(&self, exp_bits: u64) -> Kernel {
        if self.ntt_redc_only() {
            return Kernel::NttRedc;
        }
        if !self.thresholds.spectral_pow_bits.on(self.bits()) {
            return Kernel::Word;
        }
        if self.spectral.get().is_none() {
            let reserved = self
                .short_bits
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |spent| {
                    let total = spent.saturating_add(exp_bits);
                    (total <= SHORT_POW_BITS).then_some(total)
                })
                .is_ok();
            if reserved {
                return self.short_kernel();
            }
        }
        self.pow_kernel()
    }

    /// The kernel `mul`, `sqr` and `mul_many` run on.
    pub fn mul_kernel(&self) -> Kernel {
        if self.ntt_redc_only() {
            return Kernel::NttRedc;
        }
        self.pick(self.thresholds.spectral_mul_bits)
    }

    /// True above [`SPECTRAL_MAX_BITS`], where only `ntt_redc` is sub-quadratic.
    fn ntt_redc_only(&self) -> bool {
        self.bits() > SPECTRAL_MAX_BITS
    }

    fn pick(&self, cut: Cut) -> Kernel {
        if cut.on(self.bits()) && self.spectral().is_some() {
            Kernel::Spectral
        } else {
            Kernel::Word
        }
    }

    /// 1 as exactly `s` limbs.
    fn one_limbs(&self) -> Vec<Limb> {
        let mut one = vec![0; self.modulus.limbs()];
        one[0] = 1;
        one
    }

    /// Checks `x < N` and returns it as exactly `s` limbs.
    fn operand(&self, x: &[Limb], which: &'static str) -> Result<Vec<Limb>, MontError> {
        limb::operand(x, self.modulus.as_limbs(), which)
    }

    /// [`FastModulus::operand`] without the copy when `x` is already `s` limbs (the binding's
    /// operands are).
    fn operand_ref<'a>(
        &self,
        x: &'a [Limb],
        which: &'static str,
    ) -> Result<std::borrow::Cow<'a, [Limb]>, MontError> {
        limb::operand_ref(x, self.modulus.as_limbs(), which)
    }

    /// `x y mod N` (ordinary domain).
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `x` or `y`.
    pub fn mul(&self, x: &[Limb], y: &[Limb]) -> Result<Vec<Limb>, MontError> {
        let (x, y) = (self.operand_ref(x, "x")?, self.operand_ref(y, "y")?);
        Ok(self.mul_checked(&x, Some(&y)))
    }

    /// `x^2 mod N` (ordinary domain).
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `x`.
    pub fn sqr(&self, x: &[Limb]) -> Result<Vec<Limb>, MontError> {
        let x = self.operand_ref(x, "x")?;
        Ok(self.mul_checked(&x, None))
    }

    /// `x y mod N` (`y = None`: `x^2`) on checked operands. Spectral kernels: a Montgomery
    /// product gives x y R^-1, and the conversion into the domain (a product with R^2 mod N)
    /// cancels R^-1. Word level: on IFMA ([`IfmaParams::mul_mod`]) for N in
    /// [`FastModulus::ifma_mul_bits`], else one product and a Barrett reduction
    /// ([`BarrettParams::mul_mod`], the constant built on first use).
    fn mul_checked(&self, x: &[Limb], y: Option<&[Limb]>) -> Vec<Limb> {
        fn run<K: MontKernel>(k: &K, x: &[Limb], y: Option<&[Limb]>) -> Vec<Limb> {
            let mut sc = k.scratch();
            let xw = k.wrap(x);
            let mut t = xw.clone();
            match y {
                Some(y) => k.mul(&xw, &k.wrap(y), &mut t, &mut sc),
                None => k.sqr(&xw, &mut t, &mut sc),
            }
            let xy = k.to_mont(&k.unwrap(&t), &mut sc);
            k.unwrap(&xy)
        }
        match self.mul_kernel() {
            Kernel::Spectral => run(self.spectral().expect("mul_kernel checked it"), x, y),
            Kernel::NttRedc => run(
                self.ntt_redc().expect("every N up to MAX_BITS has it"),
                x,
                y,
            ),
            Kernel::Word => match self.word_ifma(&self.ifma_mul_bits()) {
                Some(k) => k.mul_mod(x, y),
                None => self.barrett().mul_mod(x, y),
            },
        }
    }

    /// `base^exp mod N`, sliding windows on the kernel of [`FastModulus::pow_kernel_for`].
    /// Variable time in `exp`, and on the word level's MULX/ADX rows from 32 limbs in the
    /// values too ([`crate::pow::VarTimeWord`]).
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `base`.
    pub fn pow(&self, base: &[Limb], exp: &[Limb]) -> Result<Vec<Limb>, MontError> {
        self.pow_until(base, exp, Stop::never())
    }

    /// [`FastModulus::pow`], ended early with [`MontError::Interrupted`] once `stop` is
    /// requested (checked once per window, see [`window::pow_vartime_until`]).
    ///
    /// # Errors
    /// As [`FastModulus::pow`], and [`MontError::Interrupted`].
    pub fn pow_until(
        &self,
        base: &[Limb],
        exp: &[Limb],
        stop: &Stop,
    ) -> Result<Vec<Limb>, MontError> {
        let base = self.operand(base, "base")?;
        if limb::bit_len(exp) == 0 {
            return Ok(self.one_limbs()); // x^0 = 1, no kernel needed
        }
        let kernel = self.take_pow_kernel(limb::bit_len(exp));
        self.pow_checked(kernel, &base, exp, stop)
    }

    fn pow_checked(
        &self,
        kernel: Kernel,
        base: &[Limb],
        exp: &[Limb],
        stop: &Stop,
    ) -> Result<Vec<Limb>, MontError> {
        match kernel {
            Kernel::NttRedc => window::pow_vartime_until(
                self.ntt_redc().expect("every N up to MAX_BITS has it"),
                base,
                exp,
                stop,
            ),
            Kernel::Spectral => window::pow_vartime_until(
                self.spectral().expect("pow_kernel checked it"),
                base,
                exp,
                stop,
            ),
            Kernel::Word => match self.word_ifma(&IFMA_POW_BITS) {
                Some(k) => window::pow_vartime_until(k, base, exp, stop),
                None => window::pow_vartime_until(&VarTimeWord(self.word()), base, exp, stop),
            },
        }
    }

    /// `base^exp mod N` in constant time in `base` and the bits of `exp`: the fixed window of
    /// [`crate::pow::fixed::pow_sec_with`] on the word level (the IFMA kernel for N in
    /// [`IFMA_POW_BITS`] where the CPU has it), or on the spectral kernel from the table's
    /// `spectral_sec_bits` ([`FastModulus::pow_sec_kernel`]), up to [`SPECTRAL_MAX_BITS`];
    /// blinded where [`FastModulus::set_blinding`] turned it on.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `base`; [`MontError::SecModulusTooLarge`] above
    /// [`SPECTRAL_MAX_BITS`] (a quadratic product there takes seconds).
    pub fn pow_sec(&self, base: &[Limb], exp: &[Limb]) -> Result<Vec<Limb>, MontError> {
        self.pow_sec_until(base, exp, Stop::never())
    }

    /// The exponent limbs `pow_sec` processes, from a public length: `bits` when the caller
    /// states it (zero limbs added up to `ceil(bits / 64)`; a longer exponent is refused),
    /// else N's limb count, or the exponent's own if longer. Never trimmed to its top set
    /// bit, so the run does not reveal the exponent's length below the stated one.
    ///
    /// # Errors
    /// [`MontError::ExponentTooLong`] when the exponent has more than `bits` bits;
    /// [`MontError::ExpBitsTooLarge`] when `bits` is above [`SEC_EXP_MAX_BITS`].
    pub fn sec_exponent(&self, exp: &[Limb], bits: Option<u64>) -> Result<Vec<Limb>, MontError> {
        let len = self.sec_limbs(exp.len(), &[exp], bits)?;
        Ok(pad_exponent(exp, len))
    }

    /// The public exponent length in limbs for exponents `exps` of at most `limbs` limbs:
    /// `bits` when stated (checked against [`SEC_EXP_MAX_BITS`], and each exponent against it
    /// by [`fits_bits`], which reads every limb whatever its value), else N's limb count or
    /// `limbs` if longer. Only a refused exponent's bit length is measured, for the error.
    /// Shared by one exponent and a batch.
    fn sec_limbs(
        &self,
        limbs: usize,
        exps: &[&[Limb]],
        bits: Option<u64>,
    ) -> Result<usize, MontError> {
        let Some(max) = bits else {
            return Ok(limbs.max(self.modulus.limbs()));
        };
        if max > SEC_EXP_MAX_BITS {
            return Err(MontError::ExpBitsTooLarge {
                bits: max,
                max: SEC_EXP_MAX_BITS,
            });
        }
        if let Some(e) = exps.iter().find(|e| !fits_bits(e, max)) {
            return Err(MontError::ExponentTooLong {
                bits: limb::bit_len(e),
                max,
            });
        }
        Ok(max.div_ceil(64) as usize) // at most 2^18
    }

    /// [`FastModulus::pow_sec`], ended early once `stop` is requested (a public flag, checked
    /// once per window: the run stays constant time).
    ///
    /// # Errors
    /// As [`FastModulus::pow_sec`], and [`MontError::Interrupted`].
    pub fn pow_sec_until(
        &self,
        base: &[Limb],
        exp: &[Limb],
        stop: &Stop,
    ) -> Result<Vec<Limb>, MontError> {
        if self.ntt_redc_only() {
            return Err(MontError::SecModulusTooLarge {
                bits: self.bits(),
                max: SPECTRAL_MAX_BITS,
            });
        }
        self.pow_sec_checked(&self.operand(base, "base")?, exp, stop)
    }

    /// [`FastModulus::pow_sec_until`] on a base already checked (`s` limbs, below N) and an N
    /// `pow_sec` takes: the kernel dispatch alone.
    fn pow_sec_checked(
        &self,
        base: &[Limb],
        exp: &[Limb],
        stop: &Stop,
    ) -> Result<Vec<Limb>, MontError> {
        fn run<K: CtKernel>(
            m: &FastModulus,
            k: &K,
            base: &[Limb],
            exp: &[Limb],
            stop: &Stop,
        ) -> Result<Vec<Limb>, MontError> {
            if exp.is_empty() || !m.blinding() {
                // (No window: the result is 1 whatever the base, nothing to blind.)
                return crate::pow::fixed::pow_sec_with(k, base, exp, stop);
            }
            let b = m.take_blind(k, exp.len())?;
            blind::pow_sec_blinded_with(k, base, exp, &b, stop)
        }
        // A predicted spectral kernel that N turns out not to have falls back to the word level.
        if self.pow_sec_kernel() == Kernel::Spectral {
            if let Some(k) = self.spectral() {
                return run(self, k, base, exp, stop);
            }
        }
        match self.word_ifma(&IFMA_POW_BITS) {
            Some(k) => run(self, k, base, exp, stop),
            None => run(self, self.word(), base, exp, stop),
        }
    }

    /// Turns the blinding of `pow_sec` and `pow_sec_many` on or off (off by default): with it
    /// every table entry and the starting accumulator of the fixed window carry a random factor
    /// (see [`blind`]), so that no product's operands stay at values the exponent sets, such
    /// as the Montgomery form of 1 through a zero exponent's windows. The results are the same.
    /// Cost: a fresh pair, drawn on the first blinded run for an exponent length and every
    /// [`blind::REFRESH`] runs, takes one more exponentiation and an inversion; each run then
    /// takes about 10 more products.
    pub fn set_blinding(&self, on: bool) {
        self.blinding.store(on, Ordering::Relaxed);
    }

    /// Whether `pow_sec` blinds its operands ([`FastModulus::set_blinding`]).
    pub fn blinding(&self) -> bool {
        self.blinding.load(Ordering::Relaxed)
    }

    /// The blinding pair of one `pow_sec` run with exponents of `len` limbs ([`blind`]): the
    /// pair kept for `len`, which is then advanced for the next run; a fresh one on the first
    /// run and every [`blind::REFRESH`] runs. N is public, so tau comes from a gcd inversion,
    /// of sigma^E z for a random z (the inversion's run depends on that product, not on
    /// sigma).
    ///
    /// # Errors
    /// [`MontError::Randomness`].
    fn take_blind<K: CtKernel>(&self, kernel: &K, len: usize) -> Result<Blind, MontError> {
        let mut kept = self.blinds.lock().unwrap_or_else(PoisonError::into_inner);
        let i = match kept.iter().position(|b| b.exp_limbs() == len) {
            Some(i) if !kept[i].spent() => i,
            Some(i) => {
                kept[i] = self.fresh_blind(kernel, len)?;
                i
            }
            None => {
                if kept.len() == BLIND_LENGTHS {
                    kept.remove(0);
                }
                kept.push(self.fresh_blind(kernel, len)?);
                kept.len() - 1
            }
        };
        let out = kept[i].clone();
        kept[i].advance(kernel);
        Ok(out)
    }

    /// A fresh blinding pair for exponents of `len` limbs (sigma uniform in [1, N), drawn
    /// again in the rare case it shares a factor with N).
    fn fresh_blind<K: CtKernel>(&self, kernel: &K, len: usize) -> Result<Blind, MontError> {
        let n = self.modulus.as_limbs();
        let nb = crate::bigarith::from_limbs(n);
        loop {
            let (sigma, z) = (blind::random_below(n)?, blind::random_below(n)?);
            let invert = |v: &[Limb]| {
                let vz = crate::bigarith::from_limbs(&self.mul_checked(v, Some(&z)));
                let w = crate::inverse::mod_inverse(&vz, &nb)?;
                let mut w = w.to_u64_digits();
                w.resize(n.len(), 0);
                Some(self.mul_checked(&w, Some(&z)))
            };
            if let Some(b) = Blind::new(kernel, sigma, len, invert) {
                return Ok(b);
            }
        }
    }

    /// The kernel `pow_sec` runs on: [`Kernel::Spectral`] where `spectral_sec_bits` is on (once
    /// built, if N has a spectral kernel; a query before that predicts it), else the word
    /// level. Constant time either way. With AVX-512 IFMA the spectral kernel's transforms,
    /// pointwise products and Garner step run 8 lanes wide: valgrind has no AVX-512, so the
    /// taint test checks them under MemorySanitizer (`crates/montlab-ct`), as it does `amm`,
    /// and `montlab-dudect spectral_pow_sec` times them.
    pub fn pow_sec_kernel(&self) -> Kernel {
        if !self.thresholds.spectral_sec_bits.on(self.bits()) || self.ntt_redc_only() {
            return Kernel::Word;
        }
        match self.spectral.get() {
            Some(None) => Kernel::Word,
            _ => Kernel::Spectral,
        }
    }

    /// The registry id of [`FastModulus::pow_sec_kernel`]: `"amm"` (the word level on IFMA,
    /// N in [`IFMA_POW_BITS`]), `"cios"` or `"spectral"`.
    pub fn pow_sec_kernel_id(&self) -> &'static str {
        match self.pow_sec_kernel() {
            Kernel::Spectral => "spectral",
            _ => self.kernel_id(Kernel::Word, &IFMA_POW_BITS),
        }
    }

    /// `[x_i y_i mod N]` in input order, in parallel.
    ///
    /// # Errors
    /// [`MontError::EmptyBatch`], [`MontError::BatchLengthMismatch`], or
    /// [`MontError::OperandOutOfRange`] naming `x` or `y` (checked before any work).
    pub fn mul_many<T: AsRef<[Limb]> + Sync>(
        &self,
        xs: &[T],
        ys: &[T],
    ) -> Result<Vec<Vec<Limb>>, MontError> {
        self.mul_many_until(xs, ys, Stop::never())
    }

    /// [`FastModulus::mul_many`], ended early once `stop` is requested (checked per product).
    ///
    /// # Errors
    /// As [`FastModulus::mul_many`], and [`MontError::Interrupted`].
    pub fn mul_many_until<T: AsRef<[Limb]> + Sync>(
        &self,
        xs: &[T],
        ys: &[T],
        stop: &Stop,
    ) -> Result<Vec<Vec<Limb>>, MontError> {
        let (xs, ys) = self.batch(xs, ys, "x", "y")?;
        // The constants the products need, once, before the workers start.
        if self.int_mul_is_barrett() {
            let _ = self.barrett();
        } else {
            self.prepare_kernel(self.mul_kernel(), &self.ifma_mul_bits());
        }
        map_indices(xs.len(), self.min_chunk(), |i| {
            stop.check()
                .map(|()| self.mul_checked(&xs[i], Some(&ys[i])))
        })
    }

    /// `[bases_i ^ exps_i mod N]` in input order, in parallel. Variable time. On `amm`,
    /// consecutive items with one exponent run as pairs on its two lanes by one sliding window
    /// ([`pair::pow_pair_vartime`]) when N has [`FastModulus::pair_ifma`] and the batch has
    /// two items per worker thread.
    ///
    /// # Errors
    /// [`MontError::EmptyBatch`], [`MontError::BatchLengthMismatch`], or
    /// [`MontError::OperandOutOfRange`] naming `base` (checked before any work).
    pub fn pow_many<B: AsRef<[Limb]> + Sync, E: AsRef<[Limb]> + Sync>(
        &self,
        bases: &[B],
        exps: &[E],
    ) -> Result<Vec<Vec<Limb>>, MontError> {
        self.pow_many_until(bases, exps, Stop::never())
    }

    /// [`FastModulus::pow_many`], ended early once `stop` is requested (checked once per
    /// window of every exponentiation).
    ///
    /// # Errors
    /// As [`FastModulus::pow_many`], and [`MontError::Interrupted`].
    pub fn pow_many_until<B: AsRef<[Limb]> + Sync, E: AsRef<[Limb]> + Sync>(
        &self,
        bases: &[B],
        exps: &[E],
        stop: &Stop,
    ) -> Result<Vec<Vec<Limb>>, MontError> {
        batch_lengths(bases.len(), exps.len())?;
        let bases: Vec<Vec<Limb>> = bases
            .iter()
            .map(|b| self.operand(b.as_ref(), "base"))
            .collect::<Result<_, _>>()?;
        let total_bits: u64 = exps.iter().map(|e| limb::bit_len(e.as_ref())).sum();
        if total_bits == 0 {
            return Ok(vec![self.one_limbs(); bases.len()]); // every x^0 = 1
        }
        let kernel = self.take_pow_kernel(total_bits);
        self.prepare_kernel(kernel, &IFMA_POW_BITS);
        if let Some(k) = self.pair_kernel(kernel, bases.len()) {
            // Consecutive items with one exponent as pairs on the kernel's two lanes, by one
            // sliding window; the others (and an odd last item) alone.
            let chunks = map_indices(bases.len().div_ceil(2), 1, |i| {
                let b = &bases[2 * i..(2 * i + 2).min(bases.len())];
                let e = &exps[2 * i..2 * i + b.len()];
                match (b, e) {
                    ([b0, b1], [e0, e1]) if limb::cmp(e0.as_ref(), e1.as_ref()).is_eq() => {
                        pair::pow_pair_vartime(k, [b0, b1], e0.as_ref(), stop).map(Vec::from)
                    }
                    _ => b
                        .iter()
                        .zip(e)
                        .map(|(b, e)| self.pow_checked(kernel, b, e.as_ref(), stop))
                        .collect(),
                }
            })?;
            return Ok(chunks.into_iter().flatten().collect());
        }
        map_indices(bases.len(), 1, |i| {
            self.pow_checked(kernel, &bases[i], exps[i].as_ref(), stop)
        })
    }

    /// The IFMA kernel when a batch of `count` exponentiations on `kernel` runs in pairs on
    /// its two lanes ([`amm::amm_pair`]): `kernel` word-level, N with
    /// [`FastModulus::pair_ifma`], and at least two exponentiations per worker thread (with
    /// fewer, the threads run them side by side, which is faster than a pair on one of them).
    fn pair_kernel(&self, kernel: Kernel, count: usize) -> Option<&IfmaParams> {
        if kernel != Kernel::Word || count < 2 * rayon::current_num_threads() {
            return None;
        }
        self.pair_ifma()
    }

    /// The IFMA kernel when a `pow_sec_many` batch of `count` runs in pairs on its two lanes
    /// ([`pair::pow_sec_pair`]), as [`FastModulus::pair_kernel`] for `pow_sec`'s kernel.
    fn sec_pair_kernel(&self, count: usize) -> Option<&IfmaParams> {
        self.pair_kernel(self.pow_sec_kernel(), count)
    }

    /// The IFMA kernel where two constant-time word-level exponentiations of N run faster as a
    /// pair on its two lanes than one after the other: N in [`IFMA_POW_BITS`] with the IFMA
    /// kernels on, and at most [`amm::PAIR_MAX_VECS`] vectors.
    #[must_use]
    pub fn pair_ifma(&self) -> Option<&IfmaParams> {
        self.word_ifma(&IFMA_POW_BITS)
            .filter(|k| k.vecs() <= amm::PAIR_MAX_VECS)
    }

    /// `[bases_i ^ exps_i mod N]` in input order, in parallel, each as
    /// [`FastModulus::pow_sec`] (constant time in every base and exponent bit, on
    /// [`FastModulus::pow_sec_kernel`]). Every exponent runs to one public length: `exp_bits`
    /// when stated, else N's length or the longest exponent's if longer. On `amm`, items run
    /// two at a time on its two lanes where that is faster ([`pair::pow_sec_pair`]).
    ///
    /// # Errors
    /// [`MontError::SecModulusTooLarge`] as `pow_sec`; as [`FastModulus::sec_batch_limbs`];
    /// [`MontError::OperandOutOfRange`] naming `base`. All checked before any work.
    pub fn pow_sec_many<B: AsRef<[Limb]> + Sync, E: AsRef<[Limb]> + Sync>(
        &self,
        bases: &[B],
        exps: &[E],
        exp_bits: Option<u64>,
    ) -> Result<Vec<Vec<Limb>>, MontError> {
        self.pow_sec_many_until(bases, exps, exp_bits, Stop::never())
    }

    /// [`FastModulus::pow_sec_many`], ended early once `stop` is requested (a public flag,
    /// checked once per window of every exponentiation).
    ///
    /// # Errors
    /// As [`FastModulus::pow_sec_many`], and [`MontError::Interrupted`].
    pub fn pow_sec_many_until<B: AsRef<[Limb]> + Sync, E: AsRef<[Limb]> + Sync>(
        &self,
        bases: &[B],
        exps: &[E],
        exp_bits: Option<u64>,
        stop: &Stop,
    ) -> Result<Vec<Vec<Limb>>, MontError> {
        if self.ntt_redc_only() {
            return Err(MontError::SecModulusTooLarge {
                bits: self.bits(),
                max: SPECTRAL_MAX_BITS,
            });
        }
        let limbs = self.sec_batch_limbs(bases.len(), exps, exp_bits)?;
        let bases: Vec<Vec<Limb>> = bases
            .iter()
            .map(|b| self.operand(b.as_ref(), "base"))
            .collect::<Result<_, _>>()?;
        self.prepare_kernel(self.pow_sec_kernel(), &IFMA_POW_BITS);
        if let Some(k) = self.sec_pair_kernel(bases.len()) {
            // Consecutive items as pairs on the kernel's two lanes (an odd last one alone).
            let chunks = map_indices(bases.len().div_ceil(2), 1, |i| {
                let b = &bases[2 * i..(2 * i + 2).min(bases.len())];
                let e: Vec<Vec<Limb>> = exps[2 * i..2 * i + b.len()]
                    .iter()
                    .map(|e| pad_exponent(e.as_ref(), limbs))
                    .collect();
                match (b, &e[..]) {
                    ([b0, b1], [e0, e1]) => {
                        let blinds = if limbs == 0 || !self.blinding() {
                            None
                        } else {
                            Some([self.take_blind(k, limbs)?, self.take_blind(k, limbs)?])
                        };
                        let blinds = blinds.as_ref().map(|[x, y]| [x, y]);
                        pair::pow_sec_pair([k, k], [b0, b1], [e0, e1], blinds, stop).map(Vec::from)
                    }
                    _ => b
                        .iter()
                        .zip(&e)
                        .map(|(b, e)| self.pow_sec_checked(b, e, stop))
                        .collect(),
                }
            })?;
            return Ok(chunks.into_iter().flatten().collect());
        }
        // Each worker pads its own exponent: one padded copy per thread at a time.
        map_indices(bases.len(), 1, |i| {
            self.pow_sec_checked(&bases[i], &pad_exponent(exps[i].as_ref(), limbs), stop)
        })
    }

    /// The one public exponent length, in limbs, of a constant-time batch of `count` bases
    /// (see [`FastModulus::pow_sec_many`]): `exp_bits` when stated, else N's length or the
    /// longest exponent's if longer.
    ///
    /// # Errors
    /// [`MontError::EmptyBatch`], [`MontError::BatchLengthMismatch`],
    /// [`MontError::ExpBitsTooLarge`], or [`MontError::ExponentTooLong`] for an exponent
    /// longer than `exp_bits`.
    pub fn sec_batch_limbs<E: AsRef<[Limb]>>(
        &self,
        count: usize,
        exps: &[E],
        exp_bits: Option<u64>,
    ) -> Result<usize, MontError> {
        batch_lengths(count, exps.len())?;
        let longest = exps.iter().map(|e| e.as_ref().len()).max().unwrap_or(0);
        let exps: Vec<&[Limb]> = exps.iter().map(AsRef::as_ref).collect();
        self.sec_limbs(longest, &exps, exp_bits)
    }

    /// Checks the two lists of a batch and every operand in them.
    #[allow(clippy::type_complexity)]
    fn batch<T: AsRef<[Limb]>>(
        &self,
        xs: &[T],
        ys: &[T],
        wx: &'static str,
        wy: &'static str,
    ) -> Result<(Vec<Vec<Limb>>, Vec<Vec<Limb>>), MontError> {
        batch_lengths(xs.len(), ys.len())?;
        let xs = xs
            .iter()
            .map(|x| self.operand(x.as_ref(), wx))
            .collect::<Result<_, _>>()?;
        let ys = ys
            .iter()
            .map(|y| self.operand(y.as_ref(), wy))
            .collect::<Result<_, _>>()?;
        Ok((xs, ys))
    }

    /// Builds the kernel's constants before the pool starts, so threads do not wait on it.
    /// (`ifma_sizes`: the IFMA range of the operation; the word-level kernel runs on IFMA
    /// there when the CPU has it, else on `cios`.)
    fn prepare_kernel(&self, k: Kernel, ifma_sizes: &core::ops::RangeInclusive<u64>) {
        match k {
            Kernel::Spectral => {
                let _ = self.spectral();
            }
            Kernel::NttRedc => {
                let _ = self.ntt_redc();
            }
            Kernel::Word => {
                if self.word_ifma(ifma_sizes).is_none() {
                    let _ = self.word();
                }
            }
        }
    }

    /// Builds the constants of residues' product kernel (see `prepare_kernel`).
    pub(crate) fn prepare_residue_kernel(&self) {
        self.prepare_kernel(self.mul_kernel(), &self.ifma_residue_bits());
    }

    /// Products per rayon task: enough work per task to amortise the scheduling.
    pub(crate) fn min_chunk(&self) -> usize {
        let limbs = self.modulus.limbs();
        (4096 / (limbs * limbs)).max(1)
    }
}

/// `[f(0), f(1), .., f(n - 1)]`, on the worker threads (at least `min_len` items a job), or in
/// order on the calling thread when the pool has one thread: handing the work to a lone
/// worker and waiting for it only adds its wake-up. The first error ends the batch.
fn map_indices<R: Send>(
    n: usize,
    min_len: usize,
    f: impl Fn(usize) -> Result<R, MontError> + Sync + Send,
) -> Result<Vec<R>, MontError> {
    if rayon::current_num_threads() <= 1 {
        (0..n).map(f).collect()
    } else {
        (0..n)
            .into_par_iter()
            .with_min_len(min_len)
            .map(f)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pow_sec_exponents_run_to_a_public_length() {
        let m = FastModulus::new(&[0x1234_5678_9abc_def1, 0xffff_ffff_0000_0001]).unwrap();
        assert_eq!(m.sec_exponent(&[5], None).unwrap(), vec![5, 0]); // N's two limbs
        assert_eq!(
            m.sec_exponent(&[5, 0, 0, 7], None).unwrap(),
            vec![5, 0, 0, 7]
        );
        assert_eq!(m.sec_exponent(&[5], Some(130)).unwrap(), vec![5, 0, 0]);
        assert_eq!(
            m.sec_exponent(&[5], Some(SEC_EXP_MAX_BITS + 1)),
            Err(MontError::ExpBitsTooLarge {
                bits: SEC_EXP_MAX_BITS + 1,
                max: SEC_EXP_MAX_BITS
            })
        );
        assert_eq!(
            m.sec_exponent(&[5], Some(SEC_EXP_MAX_BITS)).unwrap().len(),
            1 << 18
        );
        assert_eq!(m.sec_exponent(&[5, 0, 0], Some(3)).unwrap(), vec![5]);
        assert_eq!(m.sec_exponent(&[], Some(0)).unwrap(), Vec::<Limb>::new());
        assert_eq!(
            m.sec_exponent(&[8], Some(3)),
            Err(MontError::ExponentTooLong { bits: 4, max: 3 })
        );
        assert_eq!(
            m.sec_exponent(&[0, 2], Some(65)),
            Err(MontError::ExponentTooLong { bits: 66, max: 65 })
        );
        let b = [3, 1];
        let want = m.pow(&b, &[5]).unwrap();
        for bits in [3, 64, 65, 1000] {
            let e = m.sec_exponent(&[5], Some(bits)).unwrap();
            assert_eq!(m.pow_sec(&b, &e).unwrap(), want, "exp_bits = {bits}");
        }
    }

    /// `fits_bits` agrees with the bit length on zero, one limb, limb edges (2^64k - 1, 2^64k)
    /// and random exponents, at every bound around them.
    #[test]
    fn fits_bits_matches_bit_length() {
        let mut x = 0x5eed_f175_0000_0001_u64;
        let mut exps: Vec<Vec<Limb>> = vec![vec![], vec![0], vec![1], vec![0, 0, 1]];
        for k in 1..4 {
            exps.push(vec![Limb::MAX; k]);
            let mut e = vec![0; k + 1];
            e[k] = 1;
            exps.push(e);
        }
        for len in 1..5 {
            for shift in [0, 1, 31, 63] {
                exps.push(
                    (0..len)
                        .map(|_| {
                            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                            x >> shift
                        })
                        .collect(),
                );
            }
        }
        for e in &exps {
            let top = limb::bit_len(e);
            for bits in [0, 1, 63, 64, 65, 127, 128, 129, 300].into_iter().chain([
                top.saturating_sub(1),
                top,
                top + 1,
            ]) {
                assert_eq!(fits_bits(e, bits), top <= bits, "{e:x?} in {bits} bits");
            }
        }
    }

    /// With blinding on, `pow_sec` and `pow_sec_many` (pairs on IFMA included) give `pow`'s
    /// values on the word level, on `amm` where the CPU has it, and on the spectral kernel,
    /// for exponents zero, one, all-ones and random, through more runs than a pair serves.
    #[test]
    fn blinded_pow_sec_matches_pow() {
        let mut seed = 0x0b11_0d00_0000_0002;
        for (s, cut) in [
            (2usize, u64::MAX),
            (16, u64::MAX),
            (48, u64::MAX),
            (3, 2),
            (17, 2),
        ] {
            let mut n = crate::limb::xorshift_limbs(&mut seed, s);
            n[0] |= 1;
            n[s - 1] |= 1 << 63;
            let t = Thresholds {
                spectral_sec_bits: Cut::at(cut),
                ..Thresholds::generic()
            };
            let m = FastModulus::with_thresholds(&n, t).unwrap();
            assert!(!m.blinding());
            m.set_blinding(true);
            let mut b = crate::limb::xorshift_limbs(&mut seed, s);
            b[s - 1] >>= 1;
            let mut one = vec![0; s];
            one[0] = 1;
            let exps = [
                vec![0; s],
                one.clone(),
                vec![Limb::MAX; s],
                crate::limb::xorshift_limbs(&mut seed, s),
            ];
            let runs = if s <= 3 {
                blind::REFRESH as usize + 2
            } else {
                2
            };
            for r in 0..runs {
                let e = &exps[r % exps.len()];
                let want = m.pow(&b, e).unwrap();
                assert_eq!(m.pow_sec(&b, e).unwrap(), want, "s={s} run {r}");
            }
            let bases = vec![b.clone(), one.clone(), vec![0; s], b.clone(), b];
            let es: Vec<Vec<Limb>> = (0..bases.len())
                .map(|i| exps[i % exps.len()].clone())
                .collect();
            let got = m.pow_sec_many(&bases, &es, None).unwrap();
            for ((g, x), e) in got.iter().zip(&bases).zip(&es) {
                assert_eq!(g, &m.pow(x, e).unwrap(), "s={s} batch");
            }
        }
    }

    #[test]
    fn pow_sec_runs_spectral_from_its_cut() {
        // Edge moduli of 2, 3 and 5 limbs, the cut below and above each: the same values as the
        // variable-time pow, on the kernel the table names (word level where N has no
        // spectral kernel).
        let mut seed = 0x5ec5_5ec5_0000_0001;
        let mut on_spectral = 0;
        for s in [2usize, 3, 5] {
            for n in crate::limb::edge_moduli(&mut seed, s) {
                for cut in [2, u64::MAX] {
                    let t = Thresholds {
                        spectral_sec_bits: Cut::at(cut),
                        ..Thresholds::generic()
                    };
                    let m = FastModulus::with_thresholds(&n, t).unwrap();
                    let spectral = cut == 2 && m.spectral().is_some();
                    on_spectral += usize::from(spectral);
                    let want = if spectral { "spectral" } else { "cios" };
                    assert_eq!(m.pow_sec_kernel_id(), want, "N {n:x?} cut {cut}");
                    let mut nm1 = n.clone();
                    nm1[0] -= 1;
                    let b = crate::limb::xorshift_limbs(&mut seed, s - 1);
                    for e in [
                        vec![0; s],
                        vec![Limb::MAX; s],
                        crate::limb::xorshift_limbs(&mut seed, s),
                    ] {
                        for base in [&b[..], &nm1[..], &[0][..], &[1][..]] {
                            assert_eq!(
                                m.pow_sec(base, &e).unwrap(),
                                m.pow(base, &e).unwrap(),
                                "N {n:x?} base {base:x?} e {e:x?} cut {cut}"
                            );
                        }
                    }
                    assert_eq!(
                        m.pow_sec(&n, &[3]),
                        Err(MontError::OperandOutOfRange { which: "base" })
                    );
                }
            }
        }
        assert!(on_spectral > 0);
    }

    #[test]
    fn dispatch_by_size() {
        let t = Thresholds {
            spectral_mul_bits: Cut::at(128),
            spectral_pow_bits: Cut::at(129),
            ntt_redc_pow_bits: 1,
            spectral_sec_bits: Cut::NEVER,
            ..Thresholds::generic()
        };
        let m = FastModulus::with_thresholds(&[u64::MAX, u64::MAX], t).unwrap();
        assert_eq!(
            (m.mul_kernel(), m.pow_kernel()),
            (Kernel::Spectral, Kernel::Word)
        );
        let m = FastModulus::with_thresholds(&[u64::MAX], t).unwrap();
        assert_eq!(
            (m.mul_kernel(), m.pow_kernel()),
            (Kernel::Word, Kernel::Word)
        );
        assert_eq!(Kernel::Spectral.name(), "spectral");
        assert_eq!(Kernel::NttRedc.name(), "ntt_redc");
    }

    #[test]
    fn short_exponents_skip_the_spectral_setup() {
        let big = |l: &[u64]| crate::bigarith::from_limbs(l);
        let t = Thresholds {
            spectral_mul_bits: Cut::at(64),
            spectral_pow_bits: Cut::at(64),
            ntt_redc_pow_bits: 32768,
            spectral_sec_bits: Cut::NEVER,
            ..Thresholds::generic()
        };
        // 769 limbs: above ntt_redc_pow_bits, transform length 1024, fill 0.75.
        let mut next = crate::bigarith::tests::rng(17);
        let mut n: Vec<u64> = (0..769).map(|_| next()).collect();
        n[0] |= 1;
        let x: Vec<u64> = n.iter().map(|&l| l >> 1).collect();
        let m = FastModulus::with_thresholds(&n, t).unwrap();
        let short = Kernel::NttRedc;
        let e17 = [0x1_0001u64];
        let want = big(&x).modpow(&big(&e17), &big(&n));
        assert_eq!(m.pow_kernel_for(17), short);
        assert_eq!(big(&m.pow(&x, &e17).unwrap()), want);
        assert!(
            m.spectral.get().is_none(),
            "a short pow must not build spectral"
        );
        // 17 + 17 + 20 bits stay short; 10 more reach SHORT_POW_BITS, 11 pass it.
        assert_eq!(big(&m.pow(&x, &e17).unwrap()), want);
        let e20 = [0xf_ffffu64];
        let want20 = big(&x).modpow(&big(&e20), &big(&n));
        assert_eq!(big(&m.pow(&x, &e20).unwrap()), want20);
        assert!(m.spectral.get().is_none());
        assert_eq!(m.pow_kernel_for(10), short);
        assert_eq!(m.pow_kernel_for(11), Kernel::Spectral);
        let e23 = [0x40_0001u64];
        let want23 = big(&x).modpow(&big(&e23), &big(&n));
        assert_eq!(big(&m.pow(&x, &e23).unwrap()), want23);
        assert!(m.spectral.get().is_some());
        // A long exponent is predicted on spectral (its call builds it); below ntt_redc_pow_bits short
        // ones run word-level.
        let m = FastModulus::with_thresholds(&n, t).unwrap();
        assert_eq!(m.pow_kernel_for(65), Kernel::Spectral);
        // 513 and 716 limbs (fill 0.50 and 0.70) keep short exponents on the word level, 717
        // do not; twice ntt_redc_pow_bits and up, any fill runs on ntt_redc.
        for (limbs, want) in [(513, Kernel::Word), (716, Kernel::Word), (717, short)] {
            let m = FastModulus::with_thresholds(&n[..limbs], t).unwrap();
            assert_eq!(m.pow_kernel_for(17), want, "{limbs} limbs");
        }
        let m = FastModulus::with_thresholds(&n[..513], t).unwrap();
        let want513 = big(&x[..513]).modpow(&big(&e17), &big(&n[..513]));
        assert_eq!(big(&m.pow(&x[..513], &e17).unwrap()), want513);
        assert!(m.spectral.get().is_none() && m.ntt_redc.get().is_none());
        assert_eq!(m.pow_kernel_for(65), Kernel::Spectral);
        let t2 = Thresholds {
            ntt_redc_pow_bits: 16384,
            spectral_sec_bits: Cut::NEVER,
            ..t
        };
        let m = FastModulus::with_thresholds(&n[..513], t2).unwrap();
        assert_eq!(m.pow_kernel_for(17), short, "513 limbs >= 2 x 16384 bits");
        // From NTT_REDC_FILL_MAX_BITS the fill is not looked at: 1025 limbs fill 0.5 of 2048.
        let t3 = Thresholds {
            ntt_redc_pow_bits: 40000,
            spectral_sec_bits: Cut::NEVER,
            ..t
        };
        let wide: Vec<u64> = (0..1025).map(|i| next() | u64::from(i == 0)).collect();
        let m = FastModulus::with_thresholds(&wide, t3).unwrap();
        assert_eq!(
            m.pow_kernel_for(17),
            short,
            "1025 limbs >= NTT_REDC_FILL_MAX_BITS"
        );
        let m = FastModulus::with_thresholds(&n[..100], t).unwrap();
        assert_eq!(m.pow_kernel_for(17), Kernel::Word);
        assert!(m.spectral.get().is_none());
        let (xs, es) = (vec![x[..100].to_vec(); 2], vec![e17.to_vec(); 2]);
        let batch = m.pow_many(&xs, &es).unwrap();
        let want = big(&x[..100]).modpow(&big(&e17), &big(&n[..100]));
        assert!(batch.iter().all(|r| big(r) == want));
        assert_eq!(m.short_bits.load(Ordering::Relaxed), 34);
    }

    #[test]
    fn a_requested_stop_ends_every_long_call() {
        let m = FastModulus::new(&[101]).unwrap();
        let stop = Stop::new();
        assert_eq!(m.pow_until(&[3], &[5], &stop).unwrap(), vec![41]);
        stop.request();
        let xs = [vec![3u64]];
        assert_eq!(m.pow_until(&[3], &[5], &stop), Err(MontError::Interrupted));
        assert_eq!(
            m.pow_sec_until(&[3], &[5], &stop),
            Err(MontError::Interrupted)
        );
        assert_eq!(
            m.mul_many_until(&xs, &xs, &stop),
            Err(MontError::Interrupted)
        );
        assert_eq!(
            m.pow_many_until(&xs, &xs, &stop),
            Err(MontError::Interrupted)
        );
        // e = 0 does no product: nothing to interrupt
        assert_eq!(m.pow_until(&[3], &[], &stop).unwrap(), vec![1]);
    }

    #[test]
    fn above_spectral_everything_but_pow_sec_runs_ntt_redc() {
        // Whatever the table says: the word level would be quadratic there.
        let t = Thresholds {
            spectral_mul_bits: Cut::NEVER,
            spectral_pow_bits: Cut::NEVER,
            ntt_redc_pow_bits: u64::MAX,
            spectral_sec_bits: Cut::NEVER,
            ..Thresholds::generic()
        };
        let mut n = vec![0u64; (SPECTRAL_MAX_BITS / 64) as usize];
        n[0] = 1;
        *n.last_mut().unwrap() = 1 << 63; // exactly SPECTRAL_MAX_BITS bits
        let m = FastModulus::with_thresholds(&n, t).unwrap();
        assert_eq!(
            (m.mul_kernel(), m.pow_kernel()),
            (Kernel::Word, Kernel::Word)
        );
        n.push(1);
        for m in [
            FastModulus::new(&n).unwrap(),
            FastModulus::with_thresholds(&n, t).unwrap(),
        ] {
            assert_eq!(m.bits(), SPECTRAL_MAX_BITS + 1);
            assert_eq!(
                (
                    m.mul_kernel(),
                    m.pow_kernel(),
                    m.pow_kernel_for(1),
                    m.pow_kernel_for(1 << 20)
                ),
                (
                    Kernel::NttRedc,
                    Kernel::NttRedc,
                    Kernel::NttRedc,
                    Kernel::NttRedc
                )
            );
            assert_eq!(m.take_pow_kernel(1 << 20), Kernel::NttRedc);
            assert_eq!(
                m.pow_sec(&[3], &[5]),
                Err(MontError::SecModulusTooLarge {
                    bits: SPECTRAL_MAX_BITS + 1,
                    max: SPECTRAL_MAX_BITS
                })
            );
            // Nothing quadratic or spectral was built by asking.
            assert!(m.word.get().is_none() && m.spectral.get().is_none());
        }
    }

    #[test]
    fn sizes_above_the_ntt_redc_range_are_refused() {
        let mut n = vec![0u64; (MAX_BITS / 64) as usize];
        n[0] = 1;
        *n.last_mut().unwrap() = 1 << 63; // exactly MAX_BITS bits
        assert_eq!(FastModulus::new(&n).unwrap().bits(), MAX_BITS);
        n.push(1);
        assert_eq!(
            FastModulus::new(&n).err(),
            Some(MontError::ModulusTooLarge {
                bits: MAX_BITS + 1,
                max: MAX_BITS
            })
        );
    }

    #[test]
    fn batches() {
        let m = FastModulus::new(&[101]).unwrap();
        let xs = [vec![3u64], vec![100]];
        let ys = [vec![5u64], vec![100]];
        assert_eq!(m.mul_many(&xs, &ys).unwrap(), vec![vec![15], vec![1]]);
        assert_eq!(
            m.pow_many(&xs, &[vec![2u64], vec![0]]).unwrap(),
            vec![vec![9], vec![1]]
        );
        let empty: [Vec<u64>; 0] = [];
        assert_eq!(m.mul_many(&empty, &empty), Err(MontError::EmptyBatch));
        assert_eq!(
            m.pow_many(&xs, &[vec![1u64]]),
            Err(MontError::BatchLengthMismatch { left: 2, right: 1 })
        );
        assert_eq!(
            m.mul_many(&xs, &[vec![1u64], vec![101]]),
            Err(MontError::OperandOutOfRange { which: "y" })
        );
    }
}
