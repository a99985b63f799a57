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
//!          [`MontKernel::from_mont`], [`MontKernel::unwrap`] and [`IfmaParams::mul_mod`]
//!          return fully reduced `s` 64-bit limbs (one conditional subtraction).
//!
//! Rounds: round i adds b_i A + y_i N to an unnormalised lane accumulator, with
//! y_i = (t_0 + a_0 b_i) (-N^-1) mod 2^52 so the low digit becomes 0 mod 2^52; the low lane
//! then shifts out and its carry moves to the next. Low halves of the 104-bit lane products
//! (`vpmadd52luq`) go in before the shift, high halves (`vpmadd52huq`) after it. y_i comes
//! from a scalar copy of lanes 0 and 1 (plus the few lane-0 and lane-1 products), so it does
//! not wait for the vector shift, as in OpenSSL's `rsaz-*-avx512`. Up to 16 vectors a copy
//! of the core compiled for each count keeps operands and accumulator in registers; above,
//! one core with a run-time count keeps them in memory and runs two rounds per pass over
//! them. A lane gains less than 2^54 + 2^12 a round (four 52-bit halves, and lane 0 the
//! carry of the lane shifted out), so k <= 1023 rounds stay below 2^64. After the k rounds
//! one lane-wise carry pass leaves digits < 2^52 + 2^12; the remaining ripples (a carry into
//! a digit 2^52 - 1) are resolved with generate/propagate lane masks and scalar additions.
//!
//! Safety boundary: `unsafe` is limited to the calls of the `#[target_feature]` cores, made
//! only after checking the CPU ([`available`]) and every length, and to aligned vector loads
//! and stores of whole 64-byte blocks.
//!
//! Timing: no branch or address depends on element values (the final subtraction is a masked
//! select), so [`crate::pow::fixed::pow_sec_with`] runs on this kernel as a [`CtKernel`].
//! valgrind has no AVX-512, so the taint test (`crates/montlab-ct`) cannot run it; the dudect
//! check (`bench/dudect.py --kernels amm_pow_sec`) measures it. Left out: a dedicated squaring,
//! subquadratic products, moduli above [`MAX_BITS`], and targets other than x86-64 (where
//! [`IfmaParams::new`] returns `None`).
#![allow(unsafe_code)]

use num_bigint::BigUint;

use crate::error::MontError;
use crate::limb::{self, Limb};
use crate::params::OddModulus;
use crate::pow::fixed::{self, CtKernel};
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

    /// The constants of an odd N > 1 of exactly `s` limbs (top limb possibly zero) computed
    /// without a branch or index on N, for secret moduli (RSA's p and q, `pow::crt`): k from
    /// the public 64 s bits, R mod N and R^2 mod N by modular doublings
    /// ([`limb::ct_double_mod`]). `None` as for [`IfmaParams::new`].
    #[must_use]
    pub(crate) fn new_ct(n: &[Limb]) -> Option<Self> {
        let s = n.len();
        let k = (64 * s + 2).div_ceil(52);
        if !available() || k > MAX_DIGITS {
            return None;
        }
        let mut x = vec![0; s];
        x[0] = 1;
        limb::ct_double_mod(&mut x, n, 52 * k);
        let r = x.clone();
        limb::ct_double_mod(&mut x, n, 52 * k);
        Some(Self::from_parts(n.to_vec(), k, &r, &x))
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
        let s = self.n64.len();
        let mut v = vec![0; s + 1];
        from_digits(d, &mut v);
        debug_assert!(self.below_2n(&v), "amm: element was not < 2N");
        let mut out = vec![0; s];
        limb::ct_reduce_once(&mut out, &v[..s], v[s], &self.n64);
        debug_assert!(limb::cmp(&out, &self.n64).is_lt());
        out
    }

    /// `x y mod N` (`y = None`: `x^2`) for ordinary `x, y < N`, fully reduced, exactly `s`
    /// limbs: an AMM gives x y R^-1, a second one with R^2 mod N cancels R^-1.
    ///
    /// # Panics
    /// If an operand is `>= N` (callers check operands).
    #[must_use]
    pub fn mul_mod(&self, x: &[Limb], y: Option<&[Limb]>) -> Vec<Limb> {
        let l = self.vecs();
        let mut buf = vec![Block::default(); 3 * l];
        let (ex, rest) = buf.split_at_mut(l);
        let (ey, t) = rest.split_at_mut(l);
        for (v, d) in [Some(x), y].into_iter().zip([&mut *ex, &mut *ey]) {
            if let Some(v) = v {
                assert!(limb::cmp(v, &self.n64).is_lt(), "amm: element must be < N");
                digits_into(v, d);
            }
        }
        amm(self, ex, if y.is_some() { ey } else { ex }, t);
        amm(self, t, &self.r2.d, ex);
        self.reduce_digits(ex)
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
}

/// Radix 2^64 to radix 2^52: `vecs` blocks; `x` must be below 2^(52 * 8 vecs).
fn to_digits(x: &[u64], vecs: usize) -> Vec<Block> {
    let mut d = vec![Block::default(); vecs];
    digits_into(x, &mut d);
    d
}

/// Radix 2^64 to radix 2^52 into `d` (all of it written); `x` must fit.
fn digits_into(x: &[u64], d: &mut [Block]) {
    let vecs = d.len();
    d.fill(Block::default());
    for i in 0..LANES * vecs {
        let bit = 52 * i;
        let (w, off) = (bit / 64, bit % 64);
        if w >= x.len() {
            break;
        }
        let mut v = x[w] >> off;
        if off > 12 && w + 1 < x.len() {
            v |= x[w + 1] << (64 - off);
        }
        d[i / LANES].0[i % LANES] = v & MASK52;
    }
    debug_assert!(
        limb::bit_len(x) <= 52 * (LANES * vecs) as u64,
        "amm: value too large"
    );
}

/// Radix 2^52 to radix 2^64 into `out` (digits past `out` must be zero).
fn from_digits(d: &[Block], out: &mut [u64]) {
    out.fill(0);
    for (i, &v) in d.iter().flat_map(|b| b.0.iter()).enumerate() {
        let bit = 52 * i;
        let (w, off) = (bit / 64, bit % 64);
        if w >= out.len() {
            debug_assert_eq!(v, 0, "amm: value does not fit");
            continue;
        }
        out[w] |= v << off;
        if off > 12 {
            if w + 1 < out.len() {
                out[w + 1] |= v >> (64 - off);
            } else {
                debug_assert_eq!(v >> (64 - off), 0, "amm: value does not fit");
            }
        }
    }
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

/// The AMM on checked lengths: the safe boundary around the vector core.
fn amm(p: &IfmaParams, a: &[Block], b: &[Block], out: &mut [Block]) {
    let l = p.n.len();
    assert!(
        available() && a.len() == l && b.len() == l && out.len() == l && p.k <= LANES * l,
        "amm: CPU without AVX-512 IFMA, or element lengths differ from the modulus",
    );
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! fixed {
            ($($v:literal)*) => {
                match l {
                    $($v => {
                        let (a, b, n) = (as_arr::<$v>(a), as_arr::<$v>(b), as_arr::<$v>(&p.n));
                        let out: &mut [Block; $v] = out.try_into().expect("length checked");
                        // SAFETY: `available()` returned true above, so the CPU runs every
                        // instruction the core is compiled for; all arrays have $v blocks.
                        unsafe { simd::amm_core::<$v>(a, b, n, p.k0, p.k, out) }
                    })*
                    _ => unreachable!("1 <= l <= FIXED_VECS = 16 here"),
                }
            };
        }
        if l > FIXED_VECS {
            // SAFETY: `available()` returned true above, so the CPU runs every instruction the
            // core is compiled for; all slices have l blocks and k <= 8 l (asserted above).
            unsafe { simd::amm_dyn(a, b, &p.n, p.k0, p.k, out) }
        } else {
            fixed!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
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

#[cfg(target_arch = "x86_64")]
fn as_arr<const V: usize>(x: &[Block]) -> &[Block; V] {
    x.try_into().expect("length checked")
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use core::arch::x86_64::{
        __m512i, _mm512_add_epi64, _mm512_alignr_epi64, _mm512_and_si512, _mm512_castsi512_si128,
        _mm512_cmpeq_epu64_mask, _mm512_cmpgt_epu64_mask, _mm512_load_si512, _mm512_madd52hi_epu64,
        _mm512_madd52lo_epu64, _mm512_mask_add_epi64, _mm512_maskz_srli_epi64, _mm512_set1_epi64,
        _mm512_setzero_si512, _mm512_srli_epi64, _mm512_store_si512, _mm_cvtsi128_si64,
        _mm_extract_epi64,
    };

    use super::{Block, LANES, MASK52, MAX_VECS};

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn load(b: &Block) -> __m512i {
        // SAFETY: `b` is a valid reference to 64 bytes aligned to 64 (`Block`'s layout).
        unsafe { _mm512_load_si512(b.0.as_ptr().cast()) }
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn store(b: &mut Block, v: __m512i) {
        // SAFETY: as in `load`, and the reference is unique.
        unsafe { _mm512_store_si512(b.0.as_mut_ptr().cast(), v) }
    }

    /// k AMM rounds and the final normalisation, `V` vectors per number.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn amm_core<const V: usize>(
        a: &[Block; V],
        b: &[Block; V],
        n: &[Block; V],
        k0: u64,
        k: usize,
        out: &mut [Block; V],
    ) {
        let zero = _mm512_setzero_si512();
        let va: [__m512i; V] = core::array::from_fn(|j| load(&a[j]));
        let vn: [__m512i; V] = core::array::from_fn(|j| load(&n[j]));
        // Digits 0 and 1 of a and N for the scalar copy of the accumulator's lane 0.
        let (a0, a1, n0, n1) = (a[0].0[0], a[0].0[1], n[0].0[0], n[0].0[1]);
        let mut acc = [zero; V];
        // Lane 0 of the accumulator, kept in a scalar register.
        let mut t0 = 0u64;
        for i in 0..k {
            let bi = b[i / LANES].0[i % LANES];
            let vb = _mm512_set1_epi64(bi as i64);
            // Lane 1 before this round: with this round's lane-1 products and the carry out of
            // lane 0, it gives the next t_0 without waiting for the vector shift.
            let t1 = _mm_extract_epi64::<1>(_mm512_castsi512_si128(acc[0])) as u64;
            // The products with b_i do not depend on the accumulator: issue them first.
            let mut hi = [zero; V];
            let mut acc_lo = acc;
            for j in 0..V {
                acc_lo[j] = _mm512_add_epi64(acc[j], _mm512_madd52lo_epu64(zero, va[j], vb));
                hi[j] = _mm512_madd52hi_epu64(zero, va[j], vb);
            }
            // y_i = (t_0 + a_0 b_i) k0 mod 2^52. Lanes stay below 2^64 (k <= MAX_DIGITS), so
            // no sum overflows: the sums on these secret values wrap by name, so the release
            // profile's overflow checks add no branch on them.
            let ab = u128::from(a0).wrapping_mul(u128::from(bi));
            let t = t0.wrapping_add(ab as u64 & MASK52);
            let y = t.wrapping_mul(k0) & MASK52;
            let vy = _mm512_set1_epi64(y as i64);
            for j in 0..V {
                acc[j] = _mm512_madd52lo_epu64(acc_lo[j], vn[j], vy);
                hi[j] = _mm512_madd52hi_epu64(hi[j], vn[j], vy);
            }
            let ny = u128::from(n0).wrapping_mul(u128::from(y));
            let carry = t.wrapping_add(ny as u64 & MASK52) >> 52;
            t0 = t1
                .wrapping_add(a1.wrapping_mul(bi) & MASK52)
                .wrapping_add(n1.wrapping_mul(y) & MASK52)
                .wrapping_add((ab >> 52) as u64)
                .wrapping_add((ny >> 52) as u64)
                .wrapping_add(carry);
            // Lane 0 is now 0 mod 2^52: shift it out, keep its carry, add the high halves.
            hi[0] = _mm512_add_epi64(hi[0], _mm512_maskz_srli_epi64(1, acc[0], 52));
            for j in 0..V {
                let up = if j + 1 < V { acc[j + 1] } else { zero };
                acc[j] = _mm512_add_epi64(_mm512_alignr_epi64::<1>(up, acc[j]), hi[j]);
            }
            debug_assert_eq!(t0, _mm_cvtsi128_si64(_mm512_castsi512_si128(acc[0])) as u64);
        }
        finish(&mut acc, out);
    }

    /// Carries of an unnormalised result `acc` (value < 2^(52 8 V), lanes < 2^64), written
    /// to `out` with every digit < 2^52.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn finish(acc: &mut [__m512i], out: &mut [Block]) {
        // Lane-wise carries: digits < 2^52 + 2^12 afterwards. The top lane's carry is 0
        // because the value is below 2^(52 k).
        let (zero, mask) = (_mm512_setzero_si512(), _mm512_set1_epi64(MASK52 as i64));
        let mut prev = zero;
        for x in acc.iter_mut() {
            let c = _mm512_srli_epi64(*x, 52);
            *x = _mm512_add_epi64(
                _mm512_and_si512(*x, mask),
                _mm512_alignr_epi64::<7>(c, prev),
            );
            prev = c;
        }
        // Ripples: lanes > 2^52 - 1 generate a carry, lanes == 2^52 - 1 pass one on; the
        // carry-in bits are ((G << 1) + P) ^ P over the lane bits of all vectors.
        // Eight vectors (64 lanes) per 64-bit word of lane bits.
        let one = _mm512_set1_epi64(1);
        let (mut g_top, mut ripple) = (0u64, false);
        for (acc, out) in acc.chunks(8).zip(out.chunks_mut(8)) {
            let (mut g, mut p) = (0u64, 0u64);
            for (j, &x) in acc.iter().enumerate() {
                g |= u64::from(_mm512_cmpgt_epu64_mask(x, mask)) << (8 * j);
                p |= u64::from(_mm512_cmpeq_epu64_mask(x, mask)) << (8 * j);
            }
            let (s1, o1) = ((g << 1) | g_top).overflowing_add(p);
            let (s2, o2) = s1.overflowing_add(u64::from(ripple));
            (g_top, ripple) = (g >> 63, o1 | o2);
            let cin = s2 ^ p;
            for (j, (&x, o)) in acc.iter().zip(out).enumerate() {
                let x = _mm512_mask_add_epi64(x, (cin >> (8 * j)) as u8, x, one);
                store(o, _mm512_and_si512(x, mask));
            }
        }
    }

    /// The core of [`amm_core`] for any vector count V = `acc.len()`: operands and the
    /// accumulator stay in memory (the accumulator in `acc`, which ends as the output), and
    /// each pass over them runs two rounds, so every vector is loaded and stored once per two.
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn amm_dyn(
        a: &[Block],
        b: &[Block],
        n: &[Block],
        k0: u64,
        k: usize,
        acc: &mut [Block],
    ) {
        let v = acc.len();
        assert!(
            v > 0 && a.len() == v && b.len() == v && n.len() == v && k <= LANES * v,
            "amm: element lengths differ"
        );
        let zero = _mm512_setzero_si512();
        acc.fill(Block::default());
        let low = Low {
            a0: a[0].0[0],
            a1: a[0].0[1],
            n0: n[0].0[0],
            n1: n[0].0[1],
            k0,
        };
        let digit = |i: usize| b[i / LANES].0[i % LANES];
        let mut i = 0;
        // The y of the next pass's two rounds, found from lanes 0 and 1 as soon as the current
        // pass has written them, so the scalar work overlaps the vector loop.
        let mut next_y: Option<(u64, u64)> = None;
        while i + 1 < k {
            let (b0, b1) = (digit(i), digit(i + 1));
            let (y0, y1) = next_y
                .take()
                .unwrap_or_else(|| low.two_rounds(acc[0].0[0], acc[0].0[1], b0, b1));
            let (vb0, vy0) = (_mm512_set1_epi64(b0 as i64), _mm512_set1_epi64(y0 as i64));
            let (vb1, vy1) = (_mm512_set1_epi64(b1 as i64), _mm512_set1_epi64(y1 as i64));
            // Round one gives x, h for vector j + 1, hence vector j of the shifted sum; round
            // two gives x2, h2 for vector j, hence vector j - 1 of the result.
            let (mut va, mut vn) = (load(&a[0]), load(&n[0]));
            let (mut x, mut h) = lo_hi(load(&acc[0]), va, vn, vb0, vy0);
            h = _mm512_add_epi64(h, _mm512_maskz_srli_epi64(1, x, 52));
            let (mut x2, mut h2) = (zero, zero);
            for j in 0..v {
                let (va_up, vn_up, x_up, h_up) = if j + 1 < v {
                    let (va_up, vn_up) = (load(&a[j + 1]), load(&n[j + 1]));
                    let (x_up, h_up) = lo_hi(load(&acc[j + 1]), va_up, vn_up, vb0, vy0);
                    (va_up, vn_up, x_up, h_up)
                } else {
                    (zero, zero, zero, zero)
                };
                let mid = _mm512_add_epi64(_mm512_alignr_epi64::<1>(x_up, x), h);
                let (x2_j, mut h2_j) = lo_hi(mid, va, vn, vb1, vy1);
                if j == 0 {
                    h2_j = _mm512_add_epi64(h2_j, _mm512_maskz_srli_epi64(1, x2_j, 52));
                } else {
                    let out = _mm512_add_epi64(_mm512_alignr_epi64::<1>(x2_j, x2), h2);
                    store(&mut acc[j - 1], out);
                    if j == 1 && i + 3 < k {
                        let low2 = _mm512_castsi512_si128(out);
                        let (t0, t1) = (_mm_cvtsi128_si64(low2), _mm_extract_epi64::<1>(low2));
                        next_y =
                            Some(low.two_rounds(t0 as u64, t1 as u64, digit(i + 2), digit(i + 3)));
                    }
                }
                (va, vn, x, h, x2, h2) = (va_up, vn_up, x_up, h_up, x2_j, h2_j);
            }
            store(
                &mut acc[v - 1],
                _mm512_add_epi64(_mm512_alignr_epi64::<1>(zero, x2), h2),
            );
            i += 2;
        }
        if i < k {
            let bi = digit(i);
            let (y, _) = low.round(acc[0].0[0], acc[0].0[1], bi);
            let (vb, vy) = (_mm512_set1_epi64(bi as i64), _mm512_set1_epi64(y as i64));
            let (mut x, mut h) = lo_hi(load(&acc[0]), load(&a[0]), load(&n[0]), vb, vy);
            h = _mm512_add_epi64(h, _mm512_maskz_srli_epi64(1, x, 52));
            for j in 1..v {
                let (x_j, h_j) = lo_hi(load(&acc[j]), load(&a[j]), load(&n[j]), vb, vy);
                store(
                    &mut acc[j - 1],
                    _mm512_add_epi64(_mm512_alignr_epi64::<1>(x_j, x), h),
                );
                (x, h) = (x_j, h_j);
            }
            store(
                &mut acc[v - 1],
                _mm512_add_epi64(_mm512_alignr_epi64::<1>(zero, x), h),
            );
        }
        let mut regs = [zero; MAX_VECS];
        for (r, x) in regs.iter_mut().zip(acc.iter()) {
            *r = load(x);
        }
        finish(&mut regs[..v], acc);
    }

    /// `acc + lo(a b) + lo(n y)` and `hi(a b) + hi(n y)`, lane-wise.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn lo_hi(acc: __m512i, a: __m512i, n: __m512i, vb: __m512i, vy: __m512i) -> (__m512i, __m512i) {
        let zero = _mm512_setzero_si512();
        (
            _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(acc, a, vb), n, vy),
            _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, a, vb), n, vy),
        )
    }

    /// Digits 0 and 1 of A and N, and -N^-1 mod 2^52: the scalar part of a round.
    struct Low {
        a0: u64,
        a1: u64,
        n0: u64,
        n1: u64,
        k0: u64,
    }

    impl Low {
        /// The y of two rounds with digits `b0`, `b1` from lanes 0 and 1 before them.
        #[inline(always)]
        fn two_rounds(&self, t0: u64, t1: u64, b0: u64, b1: u64) -> (u64, u64) {
            let (y0, t0) = self.round(t0, t1, b0);
            (y0, self.round(t0, 0, b1).0)
        }

        /// For lanes 0 and 1 `t0`, `t1` of the accumulator before a round with digit `bi`:
        /// that round's y and lane 0 after it.
        #[inline(always)]
        fn round(&self, t0: u64, t1: u64, bi: u64) -> (u64, u64) {
            // As in the one-round core: below 2^64, wrapping by name (no checked branch).
            let ab = u128::from(self.a0).wrapping_mul(u128::from(bi));
            let t = t0.wrapping_add(ab as u64 & MASK52);
            let y = t.wrapping_mul(self.k0) & MASK52;
            let ny = u128::from(self.n0).wrapping_mul(u128::from(y));
            let carry = t.wrapping_add(ny as u64 & MASK52) >> 52;
            let next = t1
                .wrapping_add(self.a1.wrapping_mul(bi) & MASK52)
                .wrapping_add(self.n1.wrapping_mul(y) & MASK52)
                .wrapping_add((ab >> 52) as u64)
                .wrapping_add((ny >> 52) as u64)
                .wrapping_add(carry);
            (y, next)
        }
    }
}

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
        self.amm(a, a, out);
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
        for (j, o) in out.d.iter_mut().enumerate() {
            fixed::gather(table.iter().map(|e| &e.d[j].0[..]), digit, &mut o.0);
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

    /// The constant-time constants (k from 64 s, R and R^2 mod N by doublings) of moduli with
    /// and without a zero top limb: R mod N and R^2 mod N as num-bigint has them, and the
    /// fixed window on them gives num-bigint's powers.
    #[test]
    fn new_ct_constants_and_pow_sec() {
        if !ifma_or_skip("new_ct_constants_and_pow_sec") {
            return;
        }
        let mut seed = 0x00c7_1f3a_5eed_0001;
        for s in [1usize, 2, 8, 9, 16, 17, 40] {
            for mut n in crate::limb::edge_moduli(&mut seed, s) {
                n.push(0); // a top limb of zero: s + 1 limbs, 64 (s + 1) public bits
                for n in [&n[..s], &n[..]] {
                    let p = IfmaParams::new_ct(n).expect("IFMA present, N small enough");
                    let nb = big(n);
                    assert_eq!(p.k, (64 * n.len() + 2).div_ceil(52));
                    let r = (BigUint::from(1u8) << (52 * p.k)) % &nb;
                    assert_eq!(big_digits(&p.r), r, "N = {nb:#x}");
                    assert_eq!(big_digits(&p.r2), &r * &r % &nb, "N = {nb:#x}");
                    let b = crate::limb::xorshift_limbs(&mut seed, n.len() - 1);
                    let e = crate::limb::xorshift_limbs(&mut seed, 3);
                    let mut bl = b.clone();
                    bl.resize(n.len(), 0);
                    let got = fixed::pow_sec_with(&p, &bl, &e, crate::Stop::never()).unwrap();
                    assert_eq!(big(&got), big(&b).modpow(&big(&e), &nb), "N = {nb:#x}");
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
