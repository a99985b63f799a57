//! `amm`: almost Montgomery multiplication (AMM) in radix 2^52 on AVX-512 IFMA.
//!
//! Registry id `amm`; naive model `python/montlab/ref/amm.py`, whose integer it must return
//! for every product (`tests/vectors_kat.rs`, `tests/py/test_native_kernels.py`).
//!
//! Citation: S. Gueron, V. Krasnov, "Accelerating big integer arithmetic using Intel IFMA
//! extensions", ARITH 2016 (AMM with 52-bit digits, the layout of OpenSSL's
//! `ossl_rsaz_amm52x20`); S. Gueron, "Efficient software implementations of modular
//! exponentiation", J. Cryptogr. Eng. 2(1), 2012 (the AMM output bound).
//!
//! Word size / radix: digits of 52 bits in `u64` lanes, W = 2^52. For N of 2 to [`MAX_BITS`]
//! = 52830 bits, k = ceil((bits + 2) / 52) <= [`MAX_DIGITS`] digits, so R = 2^(52 k) >= 4N;
//! elements hold 8 L lanes (L = ceil(k / 8) <= 127 vectors of 8 lanes), lanes k.. zero.
//!
//! Inputs:  elements with every digit < 2^52 and value < 2N (lazy).
//! Output:  [`IfmaParams::amm`] gives `a b R^-1 mod N` up to one multiple of N: value < 2N,
//!          digits < 2^52, so outputs chain as inputs ((2N)^2 / R + N <= 2N as R >= 4N).
//!          [`IfmaParams::ams`] (the squaring) gives `a^2 R^-1 mod N` in the same range, not
//!          always the integer of `amm(a, a)`.
//!          [`MontKernel::from_mont`], [`MontKernel::unwrap`] and [`IfmaParams::mul_mod`]
//!          return fully reduced `s` 64-bit limbs (one conditional subtraction).
//!
//! Rounds: round i adds b_i A + y_i N to an unnormalised lane accumulator, with
//! y_i = (t_0 + a_0 b_i) (-N^-1) mod 2^52 so the low digit becomes 0 mod 2^52; the low lane
//! then shifts out and its carry moves to the next. Low halves of the 104-bit lane products
//! (`vpmadd52luq`) go in before the shift, high halves (`vpmadd52huq`) after it. y_i comes
//! from a scalar copy of lanes 0 and 1 (plus the few lane-0 and lane-1 products), so it does
//! not wait for the vector shift, as in OpenSSL's `rsaz-*-avx512`. Up to 16 vectors a copy
//! of the core compiled for each count keeps operands and accumulator in registers (from 7
//! vectors on a leaner round: low halves straight into the accumulator, high halves into the
//! shifted one, fewer operations for a longer chain); above, one core with a run-time count
//! keeps them in memory and runs two rounds per pass over them. [`amm_pair`] runs two
//! independent products (moduli of one digit count, up to [`PAIR_MAX_VECS`] vectors) with
//! their rounds interleaved, so each one's serial chain hides behind the other's work: on
//! 256-bit vectors with OpenSSL's round (`pair256`) where they leave fewer lanes empty, else
//! the lean 512-bit rounds. [`AmmPair`] chooses that core once for a run of pairs.
//! Squarings ([`IfmaParams::ams`], [`ams_pair`], after Drucker and Gueron, "Fast modular
//! squaring with AVX512IFMA", ITNG 2019) multiply a_i in round i by E_i, the square's row from
//! digit i (a_i, then the digits of 2A), and skip its zero vectors below digit i: about 3/4 of
//! the AMM's lane products, from [`AMS_MIN_VECS`] vectors on one lane and
//! [`AMS_PAIR_MIN_VECS`] on two where the pair runs on 512-bit vectors. A lane gains less
//! than 2^54 + 2^12 a round (four 52-bit halves, and lane 0 the carry of the lane shifted
//! out), so k <= 1023 rounds stay below 2^64.
//! After the k rounds one lane-wise carry pass leaves digits < 2^52 + 2^12; the remaining
//! ripples (a carry into a digit 2^52 - 1) are resolved with generate/propagate lane masks and
//! scalar additions.
//!
//! Radix conversions (64-bit limbs to 52-bit digits and back, at the edges of every product
//! on ints or residues) run eight lanes a step on AVX-512F (`radix`).
//!
//! Safety boundary: `unsafe` is limited to the calls of the `#[target_feature]` cores, made
//! only after checking the CPU ([`available`]) and every length, to aligned vector loads
//! and stores of whole 64-byte blocks, and to the conversions' loads and stores masked to the
//! slices' lengths.
//!
//! Timing: no branch or address depends on element values (the final subtraction is a masked
//! select; a table entry is read by a vector scan of the whole table under masks), so
//! [`crate::pow::fixed::pow_sec_with`] and [`crate::pow::pair`] run on this kernel.
//! valgrind has no AVX-512, so the taint test (`crates/montlab-ct`) checks it under
//! MemorySanitizer, natively; the dudect check (`bench/dudect.py --kernels amm_pow_sec`)
//! times it. Left out: subquadratic
//! products, moduli above [`MAX_BITS`], and targets other than x86-64 (where
//! [`IfmaParams::new`] returns `None`).
#![allow(unsafe_code)]

use num_bigint::BigUint;

use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::params::OddModulus;
use crate::pow::fixed::CtKernel;
use crate::pow::MontKernel;

/// Digit mask 2^52 - 1.
const MASK52: u64 = (1 << 52) - 1;
/// Lanes per vector.
const LANES: usize = 8;
/// Most vectors per element.
const MAX_VECS: usize = 127;
/// Vector counts up to this one run a copy of the core compiled for that count (operands
/// and accumulator in registers); larger ones run the core with a run-time count.
const FIXED_VECS: usize = 16;
/// Most digits k = 1016 (127 vectors): lanes gain less than 2^54 + 2^12 a round, so up to
/// 1023 rounds stay below 2^64.
pub const MAX_DIGITS: usize = LANES * MAX_VECS;
/// Largest modulus of the kernel in bits: 52 [`MAX_DIGITS`] - 2 = 52830, so that R >= 4N.
pub const MAX_BITS: u64 = 52 * MAX_DIGITS as u64 - 2;
const _: () = assert!(MAX_DIGITS <= 1023 && FIXED_VECS == 16 && FIXED_VECS <= MAX_VECS);

/// Eight digits, aligned to a vector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C, align(64))]
struct Block([u64; LANES]);

/// An element: 8 L digits of 52 bits, value < 2N.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IfmaElem {
    d: Vec<Block>,
}

impl IfmaElem {
    /// The digits, little-endian, 8 L of them (lanes k.. are zero).
    #[must_use]
    pub fn digits(&self) -> Vec<u64> {
        self.d.iter().flat_map(|b| b.0).collect()
    }
}

/// True when this CPU runs AVX-512 F and IFMA (checked once by std, then cached).
#[must_use]
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// True when the dispatch should use this kernel: [`available`] and `MONTLAB_NO_IFMA` unset
/// (read once).
#[must_use]
pub fn enabled() -> bool {
    static USE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *USE.get_or_init(|| available() && std::env::var_os("MONTLAB_NO_IFMA").is_none())
}

/// The gate of every test of an IFMA kernel: true when the kernels run here ([`enabled`]: the
/// CPU has AVX-512 IFMA and `MONTLAB_NO_IFMA` is unset). Otherwise the test is skipped with a
/// line naming `what`, unless `MONTLAB_REQUIRE_IFMA` is set: then it panics, so that a run that
/// must cover the IFMA kernels (CI on an IFMA machine) cannot pass by skipping them.
///
/// # Panics
/// When the kernels are off and `MONTLAB_REQUIRE_IFMA` is set.
#[must_use]
pub fn ifma_or_skip(what: &str) -> bool {
    super::run_or_skip(
        enabled(),
        "MONTLAB_REQUIRE_IFMA",
        what,
        "the IFMA kernels are off (no AVX-512 IFMA, or MONTLAB_NO_IFMA set)",
    )
}

/// Per-modulus constants of the radix-2^52 kernel.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IfmaParams {
    /// N as `s` 64-bit limbs.
    n64: Vec<Limb>,
    /// N as 8 L digits.
    n: Vec<Block>,
    /// -N^-1 mod 2^52.
    k0: u64,
    /// Digit count k; R = 2^(52 k).
    k: usize,
    /// R mod N and R^2 mod N as elements.
    r: IfmaElem,
    r2: IfmaElem,
    /// The element of value 1 (not in Montgomery form).
    unit: IfmaElem,
}

impl IfmaParams {
    /// The constants for N, or `None` if the CPU lacks AVX-512 IFMA ([`available`]) or N has
    /// more than [`MAX_BITS`] bits. O(s^2) once per modulus.
    #[must_use]
    pub fn new(modulus: &OddModulus) -> Option<Self> {
        let bits = usize::try_from(modulus.bits()).ok()?;
        let k = (bits + 2).div_ceil(52);
        if !available() || k > MAX_DIGITS {
            return None;
        }
        let n64 = modulus.as_limbs().to_vec();
        let n_big = crate::bigarith::from_limbs(&n64);
        let r = (BigUint::from(1u8) << (52 * k)) % &n_big;
        let r2 = &r * &r % &n_big;
        Some(Self::from_parts(
            n64,
            k,
            &r.to_u64_digits(),
            &r2.to_u64_digits(),
        ))
    }

    /// The constants from N's limbs, k, R mod N and R^2 mod N (limbs, any length up to N's).
    fn from_parts(n64: Vec<Limb>, k: usize, r: &[Limb], r2: &[Limb]) -> Self {
        let vecs = k.div_ceil(LANES);
        let elem = |x: &[u64]| IfmaElem {
            d: to_digits(x, vecs),
        };
        Self {
            n: to_digits(&n64, vecs),
            k0: neg_inv_mod_2_64(n64[0]) & MASK52,
            k,
            r: elem(r),
            r2: elem(r2),
            unit: elem(&[1]),
            n64,
        }
    }

    /// The constants of an odd N > 1 of exactly `s` limbs, its top limb nonzero (s, the limb
    /// count, is public), computed without a branch or index on N, for secret moduli (RSA's p
    /// and q, `pow::crt`): k from the public 64 s bits; R mod N by 52 k - 64 (s - 1) modular
    /// doublings ([`limb::ct_double_mod`]) of 2^(64 (s - 1)) < N; R^2 mod N = 2^(52 k) R mod N
    /// by left-to-right binary exponentiation of 2R mod N (about log2(52 k) AMMs, the bits of
    /// 52 k public). `None` as for [`IfmaParams::new`].
    #[must_use]
    pub(crate) fn new_ct(n: &[Limb]) -> Option<Self> {
        let s = n.len();
        debug_assert!(s >= 1 && n[0] & 1 == 1 && n[s - 1] != 0 && (s > 1 || n[0] > 1));
        let k = (64 * s + 2).div_ceil(52);
        if !available() || k > MAX_DIGITS {
            return None;
        }
        let mut x = vec![0; s];
        x[s - 1] = 1;
        limb::ct_double_mod(&mut x, n, 52 * k - 64 * (s - 1));
        let r = x.clone();
        limb::ct_double_mod(&mut x, n, 1);
        // R^2 mod N is a placeholder until the exponentiation below, which does not read it.
        let mut params = Self::from_parts(n.to_vec(), k, &r, &r);
        let two = params.wrap(&x);
        let e = 52 * k;
        let (mut acc, mut tmp) = (two.clone(), two.clone());
        for i in (0..e.ilog2()).rev() {
            params.amm(&acc, &acc, &mut tmp);
            core::mem::swap(&mut acc, &mut tmp);
            if (e >> i) & 1 == 1 {
                params.amm(&acc, &two, &mut tmp);
                core::mem::swap(&mut acc, &mut tmp);
            }
        }
        params.r2 = params.wrap(&params.reduce(&acc));
        Some(params)
    }

    /// Digit count k; R = 2^(52 k).
    #[must_use]
    pub fn digits(&self) -> usize {
        self.k
    }

    /// Vectors of 8 lanes per element.
    #[must_use]
    pub fn vecs(&self) -> usize {
        self.n.len()
    }

    /// The element of value `x` (`x < N`, any length), no conversion into Montgomery form.
    ///
    /// # Panics
    /// If `x >= N` (a programming error: callers check operands).
    #[must_use]
    pub fn elem(&self, x: &[Limb]) -> IfmaElem {
        assert!(limb::cmp(x, &self.n64).is_lt(), "amm: element must be < N");
        self.wrap(x)
    }

    /// The element of a lazy value `x < 2N` (any length), the full input range of
    /// [`IfmaParams::amm`].
    ///
    /// # Panics
    /// If `x >= 2N`.
    #[must_use]
    pub fn lazy_elem(&self, x: &[Limb]) -> IfmaElem {
        assert!(self.below_2n(x), "amm: element must be < 2N");
        IfmaElem {
            d: to_digits(x, self.vecs()),
        }
    }

    /// Checks an operand `x < N` and returns it as exactly `s` limbs.
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `which` if `x >= N`.
    pub fn operand(&self, x: &[Limb], which: &'static str) -> Result<Vec<Limb>, MontError> {
        limb::operand(x, &self.n64, which)
    }

    /// N as `s` limbs.
    #[must_use]
    pub fn modulus(&self) -> &[Limb] {
        &self.n64
    }

    /// -N^-1 mod 2^52.
    #[must_use]
    pub fn n0_inv(&self) -> u64 {
        self.k0
    }

    /// The element of an operand `x < 2N` given by a caller (any length), the full input
    /// range of [`IfmaParams::amm`].
    ///
    /// # Errors
    /// [`MontError::OperandOutOfRange`] naming `which` if `x >= 2N`.
    pub fn lazy_operand(&self, x: &[Limb], which: &'static str) -> Result<IfmaElem, MontError> {
        if !self.below_2n(x) {
            return Err(MontError::OperandOutOfRange { which });
        }
        Ok(self.lazy_elem(x))
    }

    /// `x < 2N`, that is floor(x / 2) < N.
    fn below_2n(&self, x: &[Limb]) -> bool {
        let half: Vec<Limb> = (0..x.len())
            .map(|i| (x[i] >> 1) | x.get(i + 1).map_or(0, |h| h << 63))
            .collect();
        limb::cmp(&half, &self.n64).is_lt()
    }

    /// The value of `a` (< 2N) as `s + 1` limbs, not reduced.
    #[must_use]
    pub fn value(&self, a: &IfmaElem) -> Vec<Limb> {
        let mut v = vec![0; self.n64.len() + 1];
        from_digits(&a.d, &mut v);
        v
    }

    /// The value of `a` (< 2N) reduced mod N, as exactly `s` limbs.
    #[must_use]
    pub fn reduce(&self, a: &IfmaElem) -> Vec<Limb> {
        self.reduce_digits(&a.d)
    }

    /// The one final subtraction, without a branch on the value (a masked select, as the
    /// word level's): `pow_sec` on this kernel ends here.
    fn reduce_digits(&self, d: &[Block]) -> Vec<Limb> {
        let mut out = vec![0; self.n64.len()];
        self.reduce_into(d, &mut out);
        out
    }

    /// [`IfmaParams::reduce_digits`] into `out` (`s` limbs), its value on the stack up to 4096
    /// bits.
    fn reduce_into(&self, d: &[Block], out: &mut [Limb]) {
        let s = self.n64.len();
        // s + 1 limbs, which `from_digits` fills: on the stack up to 4096 bits (a small array
        // up to 1024 bits), else on the heap.
        let mut reduce = |v: &mut [Limb]| {
            from_digits(d, v);
            debug_assert!(self.below_2n(v), "amm: element was not < 2N");
            limb::ct_reduce_once(out, &v[..s], v[s], &self.n64);
        };
        if s < 17 {
            reduce(&mut [0; 17][..=s]);
        } else if s < 8 * INLINE_VECS {
            reduce(&mut [0; 8 * INLINE_VECS][..=s]);
        } else {
            reduce(&mut vec![0; s + 1]);
        }
        debug_assert!(limb::cmp(out, &self.n64).is_lt());
    }

    /// The AMM of `a, b < N` (`b = None`: the squaring of `a`), each `s` limbs, into `buf`'s
    /// last third: `buf` holds 3 L blocks, the two operands' digits then the product.
    ///
    /// # Panics
    /// If a length differs from N's limb count or `buf`'s from 3 L; an operand `>= N` only in
    /// debug builds (residues never hold one; [`IfmaParams::mul_mod`] checks its operands).
    fn product_digits(&self, a: &[Limb], b: Option<&[Limb]>, buf: &mut [Block]) {
        let (l, s) = (self.vecs(), self.n64.len());
        assert!(
            a.len() == s && b.is_none_or(|b| b.len() == s) && buf.len() == 3 * l,
            "amm: operand lengths differ from the modulus"
        );
        debug_assert!(
            [Some(a), b]
                .iter()
                .flatten()
                .all(|x| limb::cmp(x, &self.n64).is_lt()),
            "amm: element must be < N"
        );
        let (da, rest) = buf.split_at_mut(l);
        let (db, t) = rest.split_at_mut(l);
        digits_into(a, da);
        match b {
            Some(b) => {
                digits_into(b, db);
                amm(self, da, db, t);
            }
            None => ams(self, da, t),
        }
    }

    /// `out = a b R^-1 mod N` (`b = None`: `a^2 R^-1`), fully reduced, for `a, b < N` as `s`
    /// limbs each (Montgomery forms, as residues hold them): one AMM (or the squaring) between
    /// the radix conversions, on stack buffers up to [`INLINE_VECS`] vectors (no allocation).
    /// Variable time only in the lengths.
    ///
    /// # Panics
    /// If a length differs from N's limb count (an operand `>= N`: in debug builds).
    pub fn mont_product_into(&self, a: &[Limb], b: Option<&[Limb]>, out: &mut [Limb]) {
        assert_eq!(out.len(), self.n64.len(), "amm: output length");
        let l = self.vecs();
        with_blocks(3 * l, |buf| {
            self.product_digits(a, b, buf);
            self.reduce_into(&buf[2 * l..], out);
        });
    }

    /// `x y mod N` (`y = None`: `x^2`) for ordinary `x, y < N` (`s` limbs each), fully
    /// reduced, exactly `s` limbs: an AMM gives x y R^-1, a second one with R^2 mod N cancels
    /// R^-1.
    ///
    /// # Panics
    /// If a length differs from N's limb count, or an operand is `>= N` (callers check).
    #[must_use]
    pub fn mul_mod(&self, x: &[Limb], y: Option<&[Limb]>) -> Vec<Limb> {
        for v in [Some(x), y].into_iter().flatten() {
            assert!(limb::cmp(v, &self.n64).is_lt(), "amm: element must be < N");
        }
        let l = self.vecs();
        with_blocks(3 * l, |buf| {
            self.product_digits(x, y, buf);
            let (ex, rest) = buf.split_at_mut(l);
            amm(self, &rest[l..], &self.r2.d, ex);
            self.reduce_digits(ex)
        })
    }

    /// `out = a b R^-1 mod N` up to one N (see the module contract), for elements of this
    /// modulus (others give a wrong value, never undefined behaviour).
    ///
    /// # Panics
    /// If an element has the wrong length, or the CPU lacks AVX-512 IFMA (then no
    /// `IfmaParams` exists).
    pub fn amm(&self, a: &IfmaElem, b: &IfmaElem, out: &mut IfmaElem) {
        amm(self, &a.d, &b.d, &mut out.d);
    }

    /// `out = a^2 R^-1 mod N` up to one N, for an element `a` of this modulus: the range of
    /// [`IfmaParams::amm`] (value < 2N, digits < 2^52), not always its integer (the rounds
    /// add the square's products in another order, so their quotient digits differ).
    ///
    /// # Panics
    /// As [`IfmaParams::amm`].
    pub fn ams(&self, a: &IfmaElem, out: &mut IfmaElem) {
        ams(self, &a.d, &mut out.d);
    }
}

/// Vectors [`IfmaParams::mont_product_into`] keeps on the stack (4096-bit moduli).
pub const INLINE_VECS: usize = 10;

/// `f` on `n` zeroed blocks: a stack array up to 3 [`INLINE_VECS`] (a small one up to 9
/// blocks, 1024-bit moduli, where zeroing the large one shows), else a vector.
fn with_blocks<T>(n: usize, f: impl FnOnce(&mut [Block]) -> T) -> T {
    if n <= 9 {
        f(&mut [Block::default(); 9][..n])
    } else if n <= 3 * INLINE_VECS {
        f(&mut [Block::default(); 3 * INLINE_VECS][..n])
    } else {
        f(&mut vec![Block::default(); n])
    }
}

/// Radix 2^64 to radix 2^52: `vecs` blocks; `x` must be below 2^(52 * 8 vecs).
fn to_digits(x: &[u64], vecs: usize) -> Vec<Block> {
    let mut d = vec![Block::default(); vecs];
    digits_into(x, &mut d);
    d
}

/// -n0^-1 mod 2^64 for odd n0 (Newton-Hensel: each step doubles the correct bits).
fn neg_inv_mod_2_64(n0: u64) -> u64 {
    let mut inv = n0; // right to 3 bits
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(n0.wrapping_mul(inv)));
    }
    debug_assert_eq!(n0.wrapping_mul(inv), 1);
    inv.wrapping_neg()
}

/// `$body` with the constant `$v` equal to the vector count `$l`, one of the listed counts:
/// a copy of the body for each count, as the cores compiled per count need.
#[cfg(target_arch = "x86_64")]
macro_rules! by_vecs {
    ($l:expr, [$($n:literal)*], $v:ident => $body:block) => {
        match $l {
            $($n => {
                const $v: usize = $n;
                $body
            })*
            l => unreachable!("amm: no core compiled for {l} vectors here"),
        }
    };
}

/// `$body` with the constant `$w` equal to `$n`, a vector count of [`pair256`] (1 to 12).
#[cfg(target_arch = "x86_64")]
macro_rules! by_w {
    ($n:expr, $w:ident => $body:block) => {
        by_vecs!($n, [1 2 3 4 5 6 7 8 9 10 11 12], $w => $body)
    };
}

/// Most vectors per number of the two-lane cores: above, two products' registers no longer
/// fit and a pair is no faster than two one-lane products (`examples/amm_pair_timings` on an
/// AMD Zen 4, `docs/amm-pair-timings-zen4-256.txt`: 0.63-0.89 of their time at 3 to 6
/// vectors; the 512-bit pair measured 0.99-1.00 of them at 8 and 10 when this was set).
pub const PAIR_MAX_VECS: usize = 6;
// `amm_pair` compiles its core for 1 to 6 vectors.
const _: () = assert!(PAIR_MAX_VECS == 6 && PAIR_MAX_VECS <= FIXED_VECS);

/// Whether two moduli's products run interleaved in one core: the same digit count k and at
/// most [`PAIR_MAX_VECS`] vectors.
fn interleaved(p: [&IfmaParams; 2]) -> bool {
    p[0].k == p[1].k && p[1].vecs() == p[0].vecs() && p[0].vecs() <= PAIR_MAX_VECS
}

/// Two independent AMMs, `out[i] = a[i] b[i] R^-1 mod N_i` up to one N_i, each as
/// [`IfmaParams::amm`]. Where the two moduli have the same digit count k and at most
/// [`PAIR_MAX_VECS`] vectors, their rounds run interleaved in one core (each product's serial
/// quotient chain hides behind the other's lane products); otherwise one after the other.
/// The result is the same either way, and so is the path taken for given lengths.
///
/// # Panics
/// As [`IfmaParams::amm`].
pub fn amm_pair(
    p: [&IfmaParams; 2],
    a: [&IfmaElem; 2],
    b: [&IfmaElem; 2],
    out: [&mut IfmaElem; 2],
) {
    let [o0, o1] = out;
    let l = p[0].vecs();
    if !interleaved(p) {
        p[0].amm(a[0], b[0], o0);
        p[1].amm(a[1], b[1], o1);
        return;
    }
    let lens_ok = (0..2).all(|i| a[i].d.len() == l && b[i].d.len() == l);
    assert!(
        available() && lens_ok && o0.d.len() == l && o1.d.len() == l && p[0].k <= LANES * l,
        "amm: CPU without AVX-512 IFMA, or element lengths differ from the modulus",
    );
    #[cfg(target_arch = "x86_64")]
    {
        let (k0, k) = ([p[0].k0, p[1].k0], p[0].k);
        if let Some(core) = pair256_core(k.div_ceil(4)) {
            // SAFETY: `available()` returned true above; all elements have the moduli's l
            // blocks (asserted).
            unsafe { run_core2(core, p, a, b, [o0, o1]) };
            return;
        }
        by_vecs!(l, [1 2 3 4 5 6], V => {
            let arr = |i: usize| {
                let n = as_arr::<V>(&p[i].n);
                (as_arr::<V>(&a[i].d), as_arr::<V>(&b[i].d), n)
            };
            let ((a0, b0, n0), (a1, b1, n1)) = (arr(0), arr(1));
            let o0: &mut [Block; V] = (&mut o0.d[..]).try_into().expect("length checked");
            let o1: &mut [Block; V] = (&mut o1.d[..]).try_into().expect("length checked");
            // SAFETY: `available()` returned true above, so the CPU runs every instruction the
            // core is compiled for; all arrays have V blocks.
            unsafe { simd::amm2_core::<V>([a0, a1], [b0, b1], [n0, n1], k0, k, [o0, o1]) }
        });
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("available() is false off x86-64: {:?}", (a, b, o0, o1));
}

/// [`amm_pair`] and [`ams_pair`] for two moduli, with the core chosen once: where the pair
/// runs on 256-bit vectors, each call goes straight to that core's instance for the moduli's
/// vector count; elsewhere each call goes through [`amm_pair`] and [`ams_pair`]. The results
/// and the path for given lengths are theirs. Skipping the per-call choice took `pow_many`
/// to 0.965 of its time at 1024 bits on an AMD Zen 4 (`docs/baseline-ab-ammpair.json`).
#[derive(Clone, Copy, Debug)]
pub struct AmmPair<'a> {
    p: [&'a IfmaParams; 2],
    #[cfg(target_arch = "x86_64")]
    core: Option<Core2>,
}

/// A 256-bit pair core's instance for one vector count (`pair256::amm2`).
#[cfg(target_arch = "x86_64")]
type Core2 =
    unsafe fn([&[Block]; 2], [&[Block]; 2], [&[Block]; 2], [u64; 2], usize, [&mut [Block]; 2]);

impl<'a> AmmPair<'a> {
    /// The pair for moduli with these parameters (possibly the same).
    #[must_use]
    pub fn new(p: [&'a IfmaParams; 2]) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            let core = (interleaved(p) && available())
                .then(|| pair256_core(p[0].k.div_ceil(4)))
                .flatten();
            Self { p, core }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Self { p }
    }

    /// The moduli's parameters.
    #[must_use]
    pub fn params(&self) -> [&'a IfmaParams; 2] {
        self.p
    }

    /// As [`amm_pair`].
    ///
    /// # Panics
    /// As [`IfmaParams::amm`].
    pub fn mul(&self, a: [&IfmaElem; 2], b: [&IfmaElem; 2], out: [&mut IfmaElem; 2]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(core) = self.core {
            let l = self.p[0].vecs();
            assert!(
                (0..2).all(|i| a[i].d.len() == l && b[i].d.len() == l && out[i].d.len() == l),
                "amm: element lengths differ from the modulus",
            );
            // SAFETY: `new` chose the core where `available()` was true, for the moduli's
            // common digit count; every element has their l blocks (asserted).
            unsafe { run_core2(core, self.p, a, b, out) };
            return;
        }
        amm_pair(self.p, a, b, out);
    }

    /// As [`ams_pair`].
    ///
    /// # Panics
    /// As [`IfmaParams::amm`].
    pub fn sqr(&self, a: [&IfmaElem; 2], out: [&mut IfmaElem; 2]) {
        #[cfg(target_arch = "x86_64")]
        if self.core.is_some() {
            // Where the core is set, `ams_pair` runs the AMM of each number by itself.
            self.mul(a, a, out);
            return;
        }
        ams_pair(self.p, a, out);
    }
}

/// The 256-bit pair core's instance for W vectors of four digits, where the pair runs there
/// ([`pair256_applies`]).
#[cfg(target_arch = "x86_64")]
fn pair256_core(w: usize) -> Option<Core2> {
    pair256_applies(w).then(|| by_w!(w, W => { pair256::amm2::<W> as Core2 }))
}

/// `core` on two products mod `p`'s moduli.
///
/// # Safety
/// The CPU runs AVX-512 IFMA, `core` is [`pair256_core`] of the moduli's common digit count,
/// and every element has their vector count of blocks.
#[cfg(target_arch = "x86_64")]
unsafe fn run_core2(
    core: Core2,
    p: [&IfmaParams; 2],
    a: [&IfmaElem; 2],
    b: [&IfmaElem; 2],
    out: [&mut IfmaElem; 2],
) {
    let ([p0, p1], [o0, o1]) = (p, out);
    // SAFETY: the caller's.
    unsafe {
        core(
            [&a[0].d, &a[1].d],
            [&b[0].d, &b[1].d],
            [&p0.n, &p1.n],
            [p0.k0, p1.k0],
            p0.k,
            [&mut o0.d, &mut o1.d],
        );
    }
}

/// Whether a pair of W vectors of four digits runs on the 256-bit core (`pair256`) rather
/// than the 512-bit one: up to 8 of them, and where the 512-bit vectors would leave four
/// lanes empty (W odd). On an AMD Zen 4 (`examples/amm_pair_timings` with either core) the
/// 256-bit pair was the faster for W <= 9 and W = 11, the slower for W = 10 and 12.
#[cfg(target_arch = "x86_64")]
fn pair256_applies(w: usize) -> bool {
    w <= 8 || (w % 2 == 1 && w <= pair256::MAX_W)
}

/// Two independent squarings, `out[i] = a[i]^2 R^-1 mod N_i` up to one N_i, each as
/// [`IfmaParams::ams`]: interleaved in one core (`simd::ams2_core`) where [`amm_pair`]
/// would interleave the products on 512-bit vectors and the squaring core is faster than that
/// pair of AMMs (from [`AMS_PAIR_MIN_VECS`]); elsewhere, as [`amm_pair`] of each number by
/// itself (on 256-bit vectors that was the faster: `pow_sec_many` took 0.94 and 0.98 of the
/// 512-bit squaring core's time at 1800 and 2200 bits on an AMD Zen 4,
/// `docs/baseline-ab-ams-pair256.json`); where [`amm_pair`] would not interleave, one
/// [`IfmaParams::ams`] after the other.
///
/// # Panics
/// As [`IfmaParams::amm`].
pub fn ams_pair(p: [&IfmaParams; 2], a: [&IfmaElem; 2], out: [&mut IfmaElem; 2]) {
    let [o0, o1] = out;
    let l = p[0].vecs();
    if !interleaved(p) {
        p[0].ams(a[0], o0);
        p[1].ams(a[1], o1);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if l < AMS_PAIR_MIN_VECS || pair256_applies(p[0].k.div_ceil(4)) {
        amm_pair(p, a, a, [o0, o1]);
        return;
    }
    assert!(
        available() && a.iter().all(|a| a.d.len() == l) && o0.d.len() == l && o1.d.len() == l,
        "amm: CPU without AVX-512 IFMA, or element lengths differ from the modulus",
    );
    #[cfg(target_arch = "x86_64")]
    {
        by_vecs!(l, [1 2 3 4 5 6], V => {
            let (a0, a1) = (as_arr::<V>(&a[0].d), as_arr::<V>(&a[1].d));
            let n = [as_arr::<V>(&p[0].n), as_arr::<V>(&p[1].n)];
            let o0: &mut [Block; V] = (&mut o0.d[..]).try_into().expect("length checked");
            let o1: &mut [Block; V] = (&mut o1.d[..]).try_into().expect("length checked");
            // SAFETY: `available()` returned true above, so the CPU runs every instruction the
            // core is compiled for; all arrays have V blocks.
            unsafe { simd::ams2_core::<V>([a0, a1], n, [p[0].k0, p[1].k0], p[0].k, [o0, o1]) }
        });
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("available() is false off x86-64: {:?}", (a, o0, o1));
}

/// Fewest vectors whose paired squarings run `simd::ams2_core`: on an AMD Zen 4 it took 0.93
/// of [`amm_pair`]'s time at 5 and 6 vectors and 1.05 at 3 (`docs/ams-timings-zen4.txt`).
pub const AMS_PAIR_MIN_VECS: usize = 5;

/// The AMM on checked lengths: the safe boundary around the vector core.
fn amm(p: &IfmaParams, a: &[Block], b: &[Block], out: &mut [Block]) {
    let l = p.n.len();
    assert!(
        available() && a.len() == l && b.len() == l && out.len() == l && p.k <= LANES * l,
        "amm: CPU without AVX-512 IFMA, or element lengths differ from the modulus",
    );
    #[cfg(target_arch = "x86_64")]
    {
        if l > FIXED_VECS {
            // SAFETY: `available()` returned true above, so the CPU runs every instruction the
            // core is compiled for; all slices have l blocks and k <= 8 l (asserted above).
            unsafe { simd::amm_dyn(a, b, &p.n, p.k0, p.k, out) }
        } else {
            by_vecs!(l, [1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16], V => {
                let (a, b, n) = (as_arr::<V>(a), as_arr::<V>(b), as_arr::<V>(&p.n));
                let out: &mut [Block; V] = out.try_into().expect("length checked");
                // SAFETY: `available()` returned true above, so the CPU runs every instruction
                // the core is compiled for; all arrays have V blocks.
                unsafe { simd::amm_core::<V>(a, b, n, p.k0, p.k, out) }
            });
        }
        debug_assert!(
            out.iter()
                .flat_map(|b| b.0)
                .enumerate()
                .all(|(i, v)| v <= MASK52 && (i < p.k || v == 0)),
            "amm: output digits not normalised"
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("available() is false off x86-64: {:?}", (a, b, out));
}

/// The squaring on checked lengths: [`simd::ams_core`] for vector counts in
/// [`AMS_VECS`], else the AMM of `a` by itself.
fn ams(p: &IfmaParams, a: &[Block], out: &mut [Block]) {
    let l = p.n.len();
    if l < AMS_MIN_VECS {
        amm(p, a, a, out);
        return;
    }
    assert!(
        available() && a.len() == l && out.len() == l && p.k <= LANES * l,
        "amm: CPU without AVX-512 IFMA, or element lengths differ from the modulus",
    );
    #[cfg(target_arch = "x86_64")]
    if l > FIXED_VECS {
        let mut d = [Block::default(); MAX_VECS + 1];
        // SAFETY: `available()` returned true above, so the CPU runs every instruction the
        // core is compiled for; all slices have l blocks (d l + 1) and k <= 8 l.
        unsafe { simd::ams_dyn(a, &p.n, p.k0, p.k, &mut d[..=l], out) }
    } else {
        by_vecs!(l, [7 8 9 10 11 12 13 14 15 16], V => {
            let (a, n) = (as_arr::<V>(a), as_arr::<V>(&p.n));
            let out: &mut [Block; V] = out.try_into().expect("length checked");
            // SAFETY: `available()` returned true above, so the CPU runs every instruction
            // the core is compiled for; all arrays have V blocks.
            unsafe { simd::ams_core::<V>(a, n, p.k0, p.k, out) }
        });
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("available() is false off x86-64: {:?}", (a, out));
}

/// Fewest vectors whose squarings run the dedicated cores (`simd::ams_core`,
/// `simd::ams_dyn`); below, where a round waits on its serial chain rather than on its
/// lane products, the AMM of a number by itself is as fast.
pub const AMS_MIN_VECS: usize = 7;

#[cfg(target_arch = "x86_64")]
fn as_arr<const V: usize>(x: &[Block]) -> &[Block; V] {
    x.try_into().expect("length checked")
}

#[cfg(target_arch = "x86_64")]
mod pair256;
mod radix;
#[cfg(target_arch = "x86_64")]
mod simd;

use radix::{digits_into, from_digits};

/// The radix-2^52 kernel: AMM products and squarings, R = 2^(52 k), lazy elements < 2N.
impl MontKernel for IfmaParams {
    type Elem = IfmaElem;
    type Scratch = ();

    fn scratch(&self) {}

    fn one(&self) -> IfmaElem {
        self.r.clone()
    }

    fn to_mont(&self, x: &[Limb], _sc: &mut ()) -> IfmaElem {
        let x = self.elem(x);
        let mut out = x.clone();
        self.amm(&x, &self.r2, &mut out);
        out
    }

    fn from_mont(&self, a: &IfmaElem, _sc: &mut ()) -> Vec<Limb> {
        // (a + m N) / R < 2N / R + N <= N + 1: at most N, which `reduce` maps to 0.
        let mut out = a.clone();
        self.amm(a, &self.unit, &mut out);
        self.reduce(&out)
    }

    fn mul(&self, a: &IfmaElem, b: &IfmaElem, out: &mut IfmaElem, _sc: &mut ()) {
        self.amm(a, b, out);
    }

    fn sqr(&self, a: &IfmaElem, out: &mut IfmaElem, _sc: &mut ()) {
        self.ams(a, out);
    }

    fn limbs(&self) -> usize {
        self.n64.len()
    }

    /// No comparison with N (callers check operands; `pow_sec`'s base may be secret).
    fn wrap(&self, x: &[Limb]) -> IfmaElem {
        debug_assert!(limb::cmp(x, &self.n64).is_lt(), "amm: element must be < N");
        IfmaElem {
            d: to_digits(x, self.vecs()),
        }
    }

    fn unwrap(&self, a: &IfmaElem) -> Vec<Limb> {
        self.reduce(a)
    }
}

/// The constant-time side of the kernel, for [`crate::pow::fixed::pow_sec_with`]: every AMM
/// takes one path through code and memory (the scalar quotient digits, the lane products, the
/// carry masks of `finish`), the table is read by a full masked scan, and the final
/// subtraction is a masked select ([`IfmaParams::reduce`]).
impl CtKernel for IfmaParams {
    fn r2(&self) -> IfmaElem {
        self.r2.clone()
    }

    fn gather(&self, table: &[IfmaElem], digit: Limb, out: &mut IfmaElem) {
        out.d.resize(self.vecs(), Block::default());
        assert!(available(), "amm: CPU without AVX-512 IFMA");
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `available()` returned true above, so the CPU runs AVX-512 F; the core
            // checks the table's size and every entry's length against `out`'s.
            unsafe { simd::gather(table, digit, &mut out.d) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(x: &[u64]) -> BigUint {
        x.iter()
            .rev()
            .fold(BigUint::default(), |acc, &l| (acc << 64u32) + l)
    }

    fn big_digits(e: &IfmaElem) -> BigUint {
        e.digits()
            .iter()
            .rev()
            .fold(BigUint::default(), |acc, &l| (acc << 52u32) + l)
    }

    #[test]
    fn radix_conversions_round_trip() {
        let x = [u64::MAX, 0x0123_4567_89ab_cdef, 0xfeed_face_dead_beef, 7];
        for len in 1..=x.len() {
            let d = to_digits(&x[..len], 1);
            let e = IfmaElem { d: d.clone() };
            assert_eq!(big_digits(&e), big(&x[..len]));
            let mut back = vec![0; len];
            from_digits(&d, &mut back);
            assert_eq!(back, &x[..len]);
        }
        assert_eq!(neg_inv_mod_2_64(3).wrapping_mul(3), u64::MAX);
    }

    #[test]
    fn amm_matches_definition() {
        if !ifma_or_skip("amm_matches_definition") {
            return;
        }
        let p = IfmaParams::new(&OddModulus::new(&[u64::MAX, u64::MAX, 1]).unwrap()).unwrap();
        // 129-bit N: k = 3 digits, one vector.
        assert_eq!((p.digits(), p.vecs()), (3, 1));
        let n = big(&p.n64);
        let r_inv = (BigUint::from(1u8) << (52 * p.k)).modinv(&n).unwrap();
        // Lazy inputs up to 2N - 1, including digits equal to 2^52 - 1.
        let two_n_1 = &n * 2u8 - 1u8;
        let vals = [
            BigUint::default(),
            BigUint::from(1u8),
            &n - 1u8,
            n.clone(),
            two_n_1.clone(),
        ];
        for x in &vals {
            for y in &vals {
                let ex = IfmaElem {
                    d: to_digits(&x.to_u64_digits(), 1),
                };
                let ey = IfmaElem {
                    d: to_digits(&y.to_u64_digits(), 1),
                };
                let mut out = ex.clone();
                p.amm(&ex, &ey, &mut out);
                let got = big_digits(&out);
                assert!(got < &n * 2u8, "x={x:#x} y={y:#x}: {got:#x} >= 2N");
                assert_eq!(got % &n, x * y * &r_inv % &n, "x={x:#x} y={y:#x}");
            }
        }
    }

    /// `mont_product_into` and `mul_mod` against num-bigint on both sides of the stack buffers
    /// (INLINE_VECS vectors, 65 limbs of value), edge operands (0, 1, N - 1) included.
    #[test]
    fn mont_product_into_matches_definition() {
        if !ifma_or_skip("mont_product_into_matches_definition") {
            return;
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for limbs in [2usize, 16, 24, 63, 64, 65, 80] {
            let mut n = limb::xorshift_limbs(&mut state, limbs);
            n[0] |= 1;
            n[limbs - 1] |= 1 << 63;
            let p = IfmaParams::new(&OddModulus::new(&n).unwrap()).unwrap();
            let nb = big(&n);
            let r_inv = (BigUint::from(1u8) << (52 * p.k)).modinv(&nb).unwrap();
            let pad = |x: BigUint| {
                let mut v = x.to_u64_digits();
                v.resize(limbs, 0);
                v
            };
            let random = pad(big(&limb::xorshift_limbs(&mut state, limbs)) % &nb);
            let vals = [
                pad(BigUint::default()),
                pad(BigUint::from(1u8)),
                pad(&nb - 1u8),
                random,
            ];
            for a in &vals {
                for b in [None, Some(&vals[2]), Some(&vals[3])] {
                    let mut out = vec![0; limbs];
                    p.mont_product_into(a, b.map(Vec::as_slice), &mut out);
                    let (x, y) = (big(a), big(b.unwrap_or(a)));
                    assert_eq!(big(&out), &x * &y * &r_inv % &nb, "{limbs} limbs");
                    let want = pad(&x * &y % &nb);
                    assert_eq!(p.mul_mod(a, b.map(Vec::as_slice)), want, "{limbs} limbs");
                }
            }
        }
    }

    /// The constant-time constants (k from 64 s, R mod N by doublings, R^2 mod N by AMMs) of
    /// edge moduli of 1 to 40 limbs: R mod N and R^2 mod N as num-bigint has them, and the
    /// fixed window on them gives num-bigint's powers.
    #[test]
    fn new_ct_constants_and_pow_sec() {
        if !ifma_or_skip("new_ct_constants_and_pow_sec") {
            return;
        }
        let mut seed = 0x00c7_1f3a_5eed_0001;
        for s in [1usize, 2, 8, 9, 16, 17, 40] {
            for n in crate::limb::edge_moduli(&mut seed, s) {
                let p = IfmaParams::new_ct(&n).expect("IFMA present, N small enough");
                let nb = big(&n);
                assert_eq!(p.k, (64 * s + 2).div_ceil(52));
                let r = (BigUint::from(1u8) << (52 * p.k)) % &nb;
                assert_eq!(big_digits(&p.r), r, "N = {nb:#x}");
                assert_eq!(big_digits(&p.r2), &r * &r % &nb, "N = {nb:#x}");
                let b = crate::limb::xorshift_limbs(&mut seed, s - 1);
                let e = crate::limb::xorshift_limbs(&mut seed, 3);
                let mut bl = b.clone();
                bl.resize(s, 0);
                let got =
                    crate::pow::fixed::pow_sec_with(&p, &bl, &e, crate::Stop::never()).unwrap();
                assert_eq!(big(&got), big(&b).modpow(&big(&e), &nb), "N = {nb:#x}");
            }
        }
    }

    /// The squaring against its definition and against the AMM of `a` by itself (equal mod N,
    /// both < 2N) at every digit count k from 2 to 8 * 17 (past the last register core) and
    /// at k of 18, 40 and 127 vectors (the core in memory, up to `MAX_DIGITS`), on edge
    /// moduli and lazy operands 0, 1, N - 1, N, 2N - 1 and random ones below 2N.
    #[test]
    fn ams_matches_definition() {
        if !ifma_or_skip("ams_matches_definition") {
            return;
        }
        let mut seed = 0x0a35_0a35_0000_0001;
        let dyn_k = [8 * 18 - 3, 8 * 40 - 4, MAX_DIGITS];
        for k in (2..=8 * (FIXED_VECS + 1)).chain(dyn_k) {
            // All-ones, 2^(b-1) + 1 and random moduli of the largest and smallest b with k digits.
            let mut moduli = Vec::new();
            for b in [52 * k - 2, 52 * k - 53] {
                let ones = (BigUint::from(1u8) << b) - 1u8;
                let sparse = (BigUint::from(1u8) << (b - 1)) + 1u8;
                let r = big(&crate::limb::xorshift_limbs(&mut seed, b.div_ceil(64)));
                let random = (r % (BigUint::from(1u8) << (b - 1))) | &sparse;
                moduli.extend([ones, sparse, random].map(|m| m.to_u64_digits()));
            }
            let s = (52 * k - 2).div_ceil(64);
            for n in &moduli {
                let p = IfmaParams::new(&OddModulus::new(n).unwrap()).unwrap();
                assert_eq!(p.k, k);
                let nb = big(n);
                let r_inv = (BigUint::from(1u8) << (52 * k)).modinv(&nb).unwrap();
                let two_n = &nb * 2u8;
                let mut vals = vec![
                    BigUint::default(),
                    BigUint::from(1u8),
                    &nb - 1u8,
                    nb.clone(),
                    &two_n - 1u8,
                ];
                for _ in 0..3 {
                    vals.push(big(&crate::limb::xorshift_limbs(&mut seed, s + 1)) % &two_n);
                }
                for x in &vals {
                    let ex = p.lazy_elem(&x.to_u64_digits());
                    let (mut sq, mut mm) = (ex.clone(), ex.clone());
                    p.ams(&ex, &mut sq);
                    p.amm(&ex, &ex, &mut mm);
                    let (got, want) = (big_digits(&sq), big_digits(&mm));
                    assert!(got < two_n, "k={k} N={nb:#x} x={x:#x}: {got:#x} >= 2N");
                    assert!(sq.digits().iter().all(|&d| d <= MASK52), "k={k}");
                    assert_eq!(&got % &nb, x * x * &r_inv % &nb, "k={k} N={nb:#x} x={x:#x}");
                    assert_eq!(got % &nb, want % &nb, "k={k}");
                }
            }
        }
    }

    /// The paired squaring on two moduli of one digit count, k from 2 to 8 `PAIR_MAX_VECS`,
    /// against the definition, with lazy edge operands in either lane.
    #[test]
    fn ams_pair_matches_definition() {
        if !ifma_or_skip("ams_pair_matches_definition") {
            return;
        }
        let mut seed = 0x0a35_0a35_0000_0002;
        for k in 2..=8 * PAIR_MAX_VECS {
            let b = 52 * k - 2 - (k % 3) * 20;
            let m: [BigUint; 2] = [0, 1].map(|_| {
                let r = big(&crate::limb::xorshift_limbs(&mut seed, b.div_ceil(64)));
                (r % (BigUint::from(1u8) << (b - 1)))
                    | (BigUint::from(1u8) << (b - 1))
                    | BigUint::from(1u8)
            });
            let p = m
                .clone()
                .map(|n| IfmaParams::new(&OddModulus::new(&n.to_u64_digits()).unwrap()).unwrap());
            assert_eq!((p[0].k, p[1].k), (k, k));
            let edge = |n: &BigUint, seed: &mut u64| {
                let two_n = n * 2u8;
                let r = big(&crate::limb::xorshift_limbs(seed, b.div_ceil(64) + 1)) % &two_n;
                [
                    BigUint::default(),
                    BigUint::from(1u8),
                    n - 1u8,
                    n.clone(),
                    &two_n - 1u8,
                    r,
                ]
            };
            let (v0, v1) = (edge(&m[0], &mut seed), edge(&m[1], &mut seed));
            for (x0, x1) in v0.iter().zip(v1.iter().rev()) {
                let e = [
                    p[0].lazy_elem(&x0.to_u64_digits()),
                    p[1].lazy_elem(&x1.to_u64_digits()),
                ];
                let mut out = e.clone();
                let [o0, o1] = &mut out;
                ams_pair([&p[0], &p[1]], [&e[0], &e[1]], [o0, o1]);
                for (i, x) in [x0, x1].into_iter().enumerate() {
                    let r_inv = (BigUint::from(1u8) << (52 * k)).modinv(&m[i]).unwrap();
                    let got = big_digits(&out[i]);
                    assert!(got < &m[i] * 2u8, "k={k} lane {i}");
                    assert_eq!(
                        got % &m[i],
                        x * x * &r_inv % &m[i],
                        "k={k} lane {i} x={x:#x}"
                    );
                }
            }
        }
    }

    /// Exponentiations whose squarings run the dedicated cores: sliding and fixed windows at
    /// 7 and 16 vectors (register cores), 17 and 40 (the core in memory), against num-bigint,
    /// with bases 0, 1, N - 1 and random, and exponents 0, all-ones and random.
    #[test]
    fn ams_in_exponentiations() {
        if !ifma_or_skip("ams_in_exponentiations") {
            return;
        }
        let mut seed = 0x0a35_0a35_0000_0003;
        for bits in [52 * 56 - 2, 52 * 128 - 2, 52 * 129 - 40, 16384usize] {
            let s = bits.div_ceil(64);
            let mut n = crate::limb::xorshift_limbs(&mut seed, s);
            n[0] |= 1;
            n[s - 1] &= u64::MAX >> (64 * s - bits);
            n[s - 1] |= 1 << ((bits - 1) % 64);
            let p = IfmaParams::new(&OddModulus::new(&n).unwrap()).unwrap();
            assert!(p.vecs() >= AMS_MIN_VECS);
            let nb = big(&n);
            let mut nm1 = n.clone();
            nm1[0] -= 1;
            let mut r = crate::limb::xorshift_limbs(&mut seed, s);
            r[s - 1] >>= 1 + (64 * s - bits);
            for base in [
                vec![0; s],
                {
                    let mut one = vec![0; s];
                    one[0] = 1;
                    one
                },
                nm1,
                r,
            ] {
                for e in [
                    vec![0],
                    vec![u64::MAX; 2],
                    crate::limb::xorshift_limbs(&mut seed, 3),
                ] {
                    let want = big(&base).modpow(&big(&e), &nb);
                    let got = crate::pow::window::pow_vartime_with(&p, &base, &e);
                    assert_eq!(big(&got), want, "bits={bits} vartime");
                    let got = crate::pow::fixed::pow_sec_with(&p, &base, &e, crate::Stop::never())
                        .unwrap();
                    assert_eq!(big(&got), want, "bits={bits} sec");
                }
            }
        }
    }

    #[test]
    fn ripple_carries() {
        // N = 2^(52 * 8 * 2 - 2) - 1: all digits but the top are 2^52 - 1 in a lazy element.
        let bits: usize = 52 * 16 - 2;
        let n_big: BigUint = (BigUint::from(1u8) << bits) - 1u8;
        if !ifma_or_skip("ripple_carries") {
            return;
        }
        let p = IfmaParams::new(&OddModulus::new(&n_big.to_u64_digits()).unwrap()).unwrap();
        assert_eq!((p.digits(), p.vecs()), (16, 2));
        let r_inv = (BigUint::from(1u8) << (52 * p.k)).modinv(&n_big).unwrap();
        for x in [
            &n_big - 1u8,
            n_big.clone(),
            &n_big * 2u8 - 1u8,
            BigUint::from(3u8),
        ] {
            let ex = IfmaElem {
                d: to_digits(&x.to_u64_digits(), 2),
            };
            let mut out = ex.clone();
            p.amm(&ex, &ex, &mut out);
            let got = big_digits(&out);
            assert!(got < &n_big * 2u8);
            assert_eq!(got % &n_big, &x * &x * &r_inv % &n_big);
        }
    }
}
