//! Montgomery multiplication kernels, one algorithm per file, named by its algorithm id
//! (the same id as `python/montlab/algorithms.toml`, `montlab/ref/<id>.py` and the docs).
//! [`sqr`] is the squaring kernel that shares the Montgomery domain of [`cios`].

pub mod cios;
pub mod sqr;
