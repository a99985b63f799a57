//! The constant-time property, tested as the field does (ctgrind, TIMECOP): each
//! secret-exponent kernel runs with its secrets marked undefined, and any branch or memory
//! index that depends on them fails the test. Two tools read the marks:
//! * valgrind memcheck, on the release harness as shipped (valgrind has no AVX-512: the
//!   portable, ADX and AVX2 paths);
//! * MemorySanitizer, on the harness built with nightly `-Zsanitizer=memory` and
//!   `-Zbuild-std` (`target/msan`): native, so on a CPU with AVX-512 IFMA it checks `amm`'s
//!   one- and two-lane kernels and the spectral IFMA loops, which memcheck cannot run. Its
//!   runs set `MONTLAB_NO_ADX` (it cannot follow values through the ADX rows' assembly).
//!
//! A negative control (a variable-time exponentiation) must be flagged by each tool, so the
//! test is known to be able to fail.
//!
//! The harness is built with the release profile, as shipped: the test profile's debug
//! assertions (range checks by comparison) would be flagged, and they are not in the library
//! users run. Overflow checks stay on in both.
//!
//! Without valgrind (or its headers at build time), or without the nightly toolchain with
//! `rust-src`, that tool's half of each test skips with a line saying so;
//! `MONTLAB_REQUIRE_VALGRIND=1` and `MONTLAB_REQUIRE_MSAN=1` (both set by `.ci/run`) make
//! that a failure. Under `MONTLAB_REQUIRE_IFMA` the MemorySanitizer runs must have run the
//! IFMA kernels.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The harness binary built with `--release` (once per test process).
fn harness() -> &'static PathBuf {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "--release",
                "-q",
                "-p",
                "montlab-ct",
                "--bin",
                "montlab-ct",
            ])
            .current_dir(&root)
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the release harness failed");
        let target =
            std::env::var_os("CARGO_TARGET_DIR").map_or(root.join("target"), PathBuf::from);
        target.join("release").join("montlab-ct")
    })
}

/// The exit code both tools give for reported errors.
const FLAGGED: i32 = 99;

/// The tools that read the harness's marks.
#[derive(Clone, Copy, Debug)]
enum Tool {
    Memcheck,
    Msan,
}

/// The nightly sysroot, if it has `rust-src` (for `-Zbuild-std`) and MemorySanitizer's
/// runtime for x86-64 Linux.
fn nightly_with_msan() -> Option<PathBuf> {
    if !cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        return None;
    }
    let out = Command::new("rustup")
        .args(["run", "nightly", "rustc", "--print", "sysroot"])
        .env_remove("RUSTUP_TOOLCHAIN")
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let root = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let lib = root.join("lib/rustlib");
    (lib.join("src/rust/library/Cargo.toml").exists()
        && lib
            .join("x86_64-unknown-linux-gnu/lib/librustc-nightly_rt.msan.a")
            .exists())
    .then_some(root)
}

/// The harness built with MemorySanitizer (once per test process), or `None` where the
/// nightly toolchain, its `rust-src` or its MemorySanitizer runtime is missing. Eager checks
/// are off: passing a secret to a function by value is not a leak. `compiler_builtins` is
/// left uninstrumented, as C runtimes leave theirs: the backend calls it for 128-bit
/// division without passing shadow state.
fn msan_harness() -> Option<&'static PathBuf> {
    static EXE: OnceLock<Option<PathBuf>> = OnceLock::new();
    EXE.get_or_init(|| {
        nightly_with_msan()?;
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map_or(root.join("target"), PathBuf::from)
            .join("msan");
        let eager = r#"["-Cllvm-args=-msan-eager-checks=0"]"#;
        let status = Command::new("rustup")
            .args(["run", "nightly", "cargo", "build", "--release", "-q"])
            .args(["-Zbuild-std", "-Zprofile-rustflags"])
            .args(["--target", "x86_64-unknown-linux-gnu"])
            .args(["-p", "montlab-ct", "--bin", "montlab-ct"])
            .args(["--config", &format!("profile.release.rustflags={eager}")])
            .args([
                "--config",
                &format!(r#"profile.release.package."*".rustflags={eager}"#),
            ])
            .args([
                "--config",
                "profile.release.package.compiler_builtins.rustflags=[]",
            ])
            .env(
                "RUSTFLAGS",
                "-Zsanitizer=memory -Zsanitizer-memory-track-origins --cfg montlab_msan",
            )
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("RUSTC")
            .env_remove("RUSTC_WRAPPER")
            .env_remove("RUSTC_WORKSPACE_WRAPPER")
            .current_dir(&root)
            .status()
            .expect("rustup runs");
        assert!(
            status.success(),
            "building the MemorySanitizer harness failed"
        );
        Some(
            target
                .join("x86_64-unknown-linux-gnu")
                .join("release")
                .join("montlab-ct"),
        )
    })
    .as_ref()
}

/// Runs the harness on `kernel` under `tool`: (exit code, stderr, stdout), or `None` (the
/// tool is missing here; a failure where `.ci/run` requires it).
fn under(tool: Tool, kernel: &str) -> Option<(i32, String, String)> {
    let out = match tool {
        Tool::Memcheck => {
            let have = Command::new("valgrind")
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success());
            if !have || !cfg!(valgrind) {
                assert!(
                    std::env::var_os("MONTLAB_REQUIRE_VALGRIND").is_none(),
                    "MONTLAB_REQUIRE_VALGRIND is set but valgrind or its headers are missing"
                );
                eprintln!("taint: valgrind or its headers missing here, memcheck skipped");
                return None;
            }
            Command::new("valgrind")
                .arg("--tool=memcheck")
                .args([
                    &format!("--error-exitcode={FLAGGED}"),
                    "--track-origins=yes",
                    "-q",
                ])
                .arg(harness())
                .arg(kernel)
                .output()
                .expect("valgrind runs")
        }
        Tool::Msan => {
            let Some(exe) = msan_harness() else {
                assert!(
                    std::env::var_os("MONTLAB_REQUIRE_MSAN").is_none(),
                    "MONTLAB_REQUIRE_MSAN is set but the nightly toolchain with rust-src is missing"
                );
                eprintln!(
                    "taint: no nightly toolchain with rust-src here, MemorySanitizer skipped"
                );
                return None;
            };
            Command::new(exe)
                .arg(kernel)
                .env("MONTLAB_NO_ADX", "1")
                .env("MSAN_OPTIONS", format!("exitcode={FLAGGED}"))
                .output()
                .expect("the MemorySanitizer harness runs")
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    Some((out.status.code().unwrap_or(-1), stderr, stdout))
}

/// The kernel runs clean under both tools (each skipped where missing); their result lines,
/// memcheck's then MemorySanitizer's.
fn assert_clean(kernel: &str, what: &str) -> [Option<String>; 2] {
    [Tool::Memcheck, Tool::Msan].map(|tool| {
        under(tool, kernel).map(|(code, stderr, stdout)| {
            assert_eq!(code, 0, "{tool:?} flagged {what}:\n{stderr}");
            stdout
        })
    })
}

/// The control is flagged by both tools: the test can fail (each skipped where missing);
/// their reports, memcheck's then MemorySanitizer's.
fn assert_flagged(kernel: &str, what: &str) -> [Option<String>; 2] {
    [Tool::Memcheck, Tool::Msan].map(|tool| {
        under(tool, kernel).map(|(code, stderr, _)| {
            let said = match tool {
                Tool::Memcheck => "uninitialised",
                Tool::Msan => "MemorySanitizer: use-of-uninitialized-value",
            };
            assert!(
                code == FLAGGED && stderr.contains(said),
                "{tool:?} did not flag {what} (exit {code}):\n{stderr}"
            );
            stderr
        })
    })
}

/// Under `MONTLAB_REQUIRE_IFMA`, MemorySanitizer's result line shows the IFMA kernels ran.
fn assert_ifma_ran(lines: &[Option<String>; 2], want: &str) {
    if let Some(line) = &lines[1] {
        assert!(
            std::env::var_os("MONTLAB_REQUIRE_IFMA").is_none() || line.contains(want),
            "MONTLAB_REQUIRE_IFMA is set but MemorySanitizer's run lacks {want:?}: {line}"
        );
    }
}

#[test]
fn cios_pow_sec_has_no_secret_dependent_branch_or_index() {
    let _ = assert_clean("cios_pow_sec", "pow_sec");
}

#[test]
fn the_variable_time_control_is_flagged() {
    let _ = assert_flagged("vartime", "the variable-time control");
}

#[test]
fn crt_pow_sec_has_no_key_dependent_branch_or_index() {
    let _ = assert_clean("crt_sec", "CrtKey::pow_sec");
}

#[test]
fn prepared_crt_key_has_no_key_dependent_branch_or_index() {
    let _ = assert_clean("crt_prepared", "CrtKey::prepare and its pow_sec");
}

#[test]
fn blinded_crt_key_has_no_key_dependent_branch_or_index() {
    let _ = assert_clean(
        "crt_blinded",
        "the prepared key's pow_sec with blinded exponents",
    );
}

#[test]
fn the_variable_time_crt_control_is_flagged() {
    let _ = assert_flagged("crt_vartime", "the variable-time CRT control");
}

#[test]
fn karatsuba_product_has_no_operand_dependent_branch_or_index() {
    let _ = assert_clean("karatsuba_mul", "the Karatsuba product");
}

#[test]
fn karatsuba_square_has_no_operand_dependent_branch_or_index() {
    let _ = assert_clean("karatsuba_sqr", "the Karatsuba square");
}

#[test]
fn the_karatsuba_control_is_flagged() {
    let _ = assert_flagged("karatsuba_control", "num-bigint's product");
}

#[test]
fn redc_n_has_no_operand_dependent_branch_or_index() {
    let _ = assert_clean("redc_n", "the sub-quadratic REDC");
}

#[test]
fn the_redc_n_control_is_flagged() {
    let _ = assert_flagged("redc_n_control", "num-bigint's remainder");
}

#[test]
fn spectral_pow_sec_has_no_secret_dependent_branch_or_index() {
    let lines = assert_clean("spectral_pow_sec", "the spectral pow_sec");
    // On a CPU with AVX2 (CI sets MONTLAB_REQUIRE_AVX2 there) memcheck ran the vector
    // transforms; with IFMA, MemorySanitizer ran the IFMA ones.
    if let Some(line) = &lines[0] {
        assert!(
            std::env::var_os("MONTLAB_REQUIRE_AVX2").is_none() || line.contains("avx2"),
            "MONTLAB_REQUIRE_AVX2 is set but the AVX2 transforms did not run: {line}"
        );
    }
    assert_ifma_ran(&lines, "transforms: ifma");
}

#[test]
fn the_variable_time_spectral_control_is_flagged() {
    let _ = assert_flagged("spectral_vartime", "the variable-time spectral control");
}

#[test]
fn engine_pow_sec_has_no_secret_dependent_branch_or_index() {
    let lines = assert_clean("engine_pow_sec", "FastModulus::pow_sec");
    assert_ifma_ran(&lines, "1024: amm, 2048: amm, 3072: amm, 8192: amm");
}

#[test]
fn engine_pow_sec_many_has_no_secret_dependent_branch_or_index() {
    let lines = assert_clean("engine_pow_sec_many", "FastModulus::pow_sec_many");
    assert_ifma_ran(&lines, "1024: amm pair, 2048: amm pair");
}

#[test]
fn the_variable_time_engine_control_is_flagged() {
    let _ = assert_flagged("engine_vartime", "FastModulus::pow");
}

#[test]
fn a_branch_on_a_secret_power_is_flagged() {
    let reports = assert_flagged(
        "product_branch",
        "a branch on a power with a secret exponent",
    );
    // With IFMA the power MemorySanitizer followed was amm's.
    if let Some(report) = &reports[1] {
        assert!(
            std::env::var_os("MONTLAB_REQUIRE_IFMA").is_none()
                || report.contains("product_branch: amm"),
            "MONTLAB_REQUIRE_IFMA is set but the power was not amm's:\n{report}"
        );
    }
}
