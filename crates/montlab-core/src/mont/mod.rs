//! Montgomery multiplication kernels, one algorithm per file, named by its algorithm id
//! (the same id as `python/montlab/algorithms.toml`, `montlab/ref/<id>.py` and the docs).
//! [`sqr`] is the squaring kernel that shares the Montgomery domain of [`cios`]; [`amm`] is
//! a radix-2^52 AVX-512 IFMA kernel with its own R, used by the word-level dispatch of
//! products and exponentiations.

pub mod adx;
pub mod amm;
pub mod cios;
pub mod sqr;
