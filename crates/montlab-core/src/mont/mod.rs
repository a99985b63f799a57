//! Montgomery multiplication kernels, one algorithm per file, named by its algorithm id
//! (the same id as `python/montlab/algorithms.toml`, `montlab/ref/<id>.py` and the docs).

pub mod cios;
