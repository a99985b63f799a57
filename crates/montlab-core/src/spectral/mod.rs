//! Spectral Montgomery multiplication for large moduli: McLaughlin's wrap-around Montgomery
//! (the FMLM3 paper's framework) with cyclic and nega-cyclic number-theoretic transforms over
//! three 50-bit primes.
//!
//! * [`prime`]: the primes and their Shoup / Montgomery word products;
//! * [`ntt`]: length-P cyclic and nega-cyclic transforms (portable loops);
//! * `ifma`: the same butterflies on AVX-512 IFMA, behind runtime detection (x86-64 only);
//! * `avx2`: the same transforms on AVX2 and FMA in double precision, where IFMA is not used
//!   (x86-64 only, runtime detection);
//! * [`crt`]: Garner's CRT and the carry folding modulo 2^l -+ 1; `ifma_crt`: its Garner step
//!   on AVX-512 IFMA (x86-64 only);
//! * [`kernel`]: the `spectral` Montgomery kernel ([`SpectralParams`], R = 2^l + 1), an
//!   exponentiation kernel;
//! * [`ntt_redc`]: the `ntt_redc` kernel, Montgomery with R = 2^l on the same transforms,
//!   whose setup is 2-adic (short exponentiations).
//!
//! Why these transforms, and the measurements behind the choice: `docs/performance.md`,
//! sections "Kernels" and "Transform machinery".

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx2_crt;
pub mod crt;
#[cfg(target_arch = "x86_64")]
mod ifma;
#[cfg(target_arch = "x86_64")]
mod ifma_crt;
pub mod kernel;
pub mod ntt;
pub mod ntt_redc;
pub use ntt_redc::{NttRedcParams, NttRedcTrace};
pub mod prime;
pub mod product;

pub use kernel::{SpectralElem, SpectralParams, SpectralScratch, SpectralTrace, MAX_TRANSFORM_LEN};

/// True when the transforms run on AVX-512 IFMA (x86-64 CPUs that have it, unless the
/// environment variable `MONTLAB_NO_IFMA` is set, which forces the portable loops).
#[must_use]
pub fn uses_ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static USE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *USE.get_or_init(|| ifma::available() && std::env::var_os("MONTLAB_NO_IFMA").is_none())
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// True when the transforms run on AVX2 and FMA: x86-64 CPUs that have them, when IFMA is not
/// used, unless the environment variable `MONTLAB_NO_AVX2` is set (the portable loops). The
/// twiddle tables carry the doubles these loops read exactly when this is true.
#[must_use]
pub fn uses_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static USE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *USE.get_or_init(|| {
            !uses_ifma() && avx2::available() && std::env::var_os("MONTLAB_NO_AVX2").is_none()
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The transforms [`forward`] and [`inverse`] run on from length 16: `"ifma"`, `"avx2"` or
/// `"portable"`.
#[must_use]
pub fn transforms_id() -> &'static str {
    if uses_ifma() {
        "ifma"
    } else if uses_avx2() {
        "avx2"
    } else {
        "portable"
    }
}

/// True when the CPU has AVX-512 IFMA (whatever `MONTLAB_NO_IFMA` says): the tables then
/// carry the 52-bit constants its loops read.
#[must_use]
pub(crate) fn ifma_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        ifma::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// True when length-`p` kernels run their pointwise products, transforms and Garner's digits
/// on AVX2 ([`uses_avx2`], P at least the AVX2 transforms' least length, a multiple of 4): the
/// plain pointwise products need the AVX2 inverse ([`inverse_products`]).
#[must_use]
pub(crate) fn avx2_len(p: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        p >= avx2::MIN_LEN && p.is_multiple_of(4) && uses_avx2()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = p;
        false
    }
}

/// True when length-`p` kernels run their loads, pointwise products and transforms on IFMA.
#[must_use]
pub(crate) fn vector_len(p: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        p >= ifma::MIN_LEN && uses_ifma()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = p;
        false
    }
}

/// Position-wise products of one prime's residues (its tables `t`, `t.len` entries) for
/// [`inverse_products`]: `dst = dst (.) b` (`b = None`: `dst (.) dst`) times 2^-64
/// ([`prime::Prime::mont_mul`]), or plain (x y mod q) on AVX2 ([`avx2_len`]); inputs in
/// [0, 4q), outputs in [0, 2q).
pub(crate) fn pointwise(t: &ntt::NttTables, dst: &mut [u64], b: Option<&[u64]>) {
    assert!(dst.len() == t.len && b.is_none_or(|b| b.len() == t.len));
    let pr = &t.prime;
    #[cfg(target_arch = "x86_64")]
    if avx2_len(t.len) {
        return match b {
            Some(b) => avx2::pointwise(dst, None, b, None, pr.q),
            None => avx2::square(dst, pr.q),
        };
    }
    match b {
        Some(b) => {
            for (x, &y) in dst.iter_mut().zip(b) {
                *x = pr.mont_mul(*x, y);
            }
        }
        None => dst.iter_mut().for_each(|x| *x = pr.mont_mul(*x, *x)),
    }
}

/// Inverse transform of [`pointwise`]'s products, undoing their factor: the results of
/// [`inverse`] after the Montgomery products, on every path.
#[inline]
pub(crate) fn inverse_products(a: &mut [u64], t: &ntt::NttTables, nega: bool) {
    #[cfg(target_arch = "x86_64")]
    if avx2_len(t.len) {
        return avx2::inverse_plain(a, t, nega);
    }
    inverse(a, t, nega);
}

/// Forward transform of one prime's residues (see [`ntt::forward_portable`] for the contract).
#[inline]
pub fn forward(a: &mut [u64], t: &ntt::NttTables, nega: bool) {
    #[cfg(target_arch = "x86_64")]
    if t.len >= ifma::MIN_LEN && uses_ifma() {
        return ifma::forward(a, t, nega);
    }
    #[cfg(target_arch = "x86_64")]
    if t.len >= avx2::MIN_LEN && uses_avx2() {
        return avx2::forward(a, t, nega);
    }
    ntt::forward_portable(a, t, nega);
}

/// Inverse transform of one prime's residues (see [`ntt::inverse_portable`]).
#[inline]
pub fn inverse(a: &mut [u64], t: &ntt::NttTables, nega: bool) {
    #[cfg(target_arch = "x86_64")]
    if t.len >= ifma::MIN_LEN && uses_ifma() {
        return ifma::inverse(a, t, nega);
    }
    #[cfg(target_arch = "x86_64")]
    if t.len >= avx2::MIN_LEN && uses_avx2() {
        return avx2::inverse(a, t, nega);
    }
    ntt::inverse_portable(a, t, nega);
}
