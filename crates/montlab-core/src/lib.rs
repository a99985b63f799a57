//! montlab-core: Montgomery modular multiplication and exponentiation in Rust: word-level
//! kernels on 64-bit limbs ([`mont`]), a spectral kernel for large moduli ([`spectral`]),
//! exponentiation ([`pow`]) and the size-dispatching [`FastModulus`] ([`engine`]).
//!
//! Numbers are little-endian `u64` limb slices (limb 0 least significant). A modulus is
//! validated once into an [`OddModulus`] and precomputed once into [`MontParams`]; every kernel
//! takes the parameters by reference. Kernels live one per file under [`mont`], named by the
//! algorithm id of `python/montlab/algorithms.toml`; exponentiation lives under [`pow`].
//!
//! Errors: every fallible public function returns `Result<_, MontError>` and none panics on
//! user input. Functions suffixed `_vartime` run in time that depends on their inputs.
//!
//! ```
//! use montlab_core::{mont::cios, pow::window, MontParams};
//!
//! let p = MontParams::from_limbs(&[0xffff_ffff_ffff_ffc5])?; // a 64-bit prime
//! let x = cios::to_mont(&p, &[3])?;
//! assert_eq!(cios::from_mont(&p, &x)?, vec![3]);
//! assert_eq!(window::pow_vartime(&p, &[3], &[4])?, vec![81]);
//! # Ok::<(), montlab_core::MontError>(())
//! ```

pub mod barrett;
pub mod bigarith;
pub mod engine;
pub mod error;
pub mod inverse;
pub mod limb;
pub mod limbdiv;
pub mod mont;
pub mod params;
pub mod pow;
pub mod residue;
pub mod spectral;
pub mod stop;
pub mod thresholds;

pub use engine::{FastModulus, Kernel};
pub use error::MontError;
pub use limb::Limb;
pub use params::{MontParams, OddModulus};
pub use residue::Residue;
pub use stop::Stop;
pub use thresholds::{Cut, Thresholds};

/// Algorithm ids with a native engine in this crate.
///
/// Must equal the ids whose `layers` contain `"native"` in `python/montlab/algorithms.toml`;
/// `tests/algorithms.rs` checks both directions.
pub const NATIVE_ALGORITHMS: &[&str] = &["amm", "cios", "ntt_redc", "spectral"];
