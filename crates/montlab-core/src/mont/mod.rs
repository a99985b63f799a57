//! Montgomery multiplication kernels, one algorithm per file, named by its algorithm id
//! (the same id as `python/montlab/algorithms.toml`, `montlab/ref/<id>.py` and the docs).
//! [`sqr`] is the squaring kernel that shares the Montgomery domain of [`cios`]; [`amm`] is
//! a radix-2^52 AVX-512 IFMA kernel with its own R, used by the word-level dispatch of
//! products and exponentiations.

/// Tests: `$check(rows, name)` on every kind of rows, the portable ones and (where the CPU has
/// BMI2/ADX, else skipped as [`adx::adx_or_skip`] says) the MULX/ADX ones, each constant-time
/// and as `VarTime`. `$what` names the check in the skip line.
#[cfg(test)]
macro_rules! on_every_rows {
    ($check:ident, $what:expr) => {{
        use crate::mont::{adx, sqr::Portable, vartime::VarTime};
        $check(Portable, "portable");
        $check(VarTime(Portable), "portable vt");
        if adx::adx_or_skip($what) {
            $check(adx::Adx::new().expect("checked"), "adx");
            $check(VarTime(adx::Adx::new().expect("checked")), "adx vt");
        }
    }};
}

pub mod adx;
pub mod amm;
pub mod cios;
pub mod karatsuba;
pub mod redc_n;
pub mod sqr;
pub(crate) mod vartime;

/// The gate of every test of a CPU-specific kernel: `on` when it runs here. Otherwise the test
/// is skipped with a line naming `what` and `why`, unless the environment variable `require` is
/// set: then it panics, so that a run that must cover the kernel (CI on such a CPU) cannot pass
/// by skipping it.
///
/// # Panics
/// When `on` is false and `require` is set.
pub(crate) fn run_or_skip(on: bool, require: &str, what: &str, why: &str) -> bool {
    if !on {
        assert!(
            std::env::var_os(require).is_none(),
            "{what}: {require} is set but {why}"
        );
        eprintln!("{what}: {why}, skipped");
    }
    on
}
