//! The constant-time property, tested as the field does (ctgrind, TIMECOP): each
//! secret-exponent kernel runs under valgrind memcheck with its exponent marked undefined, and
//! any branch or memory index that depends on it fails the test. A negative control (the
//! variable-time exponentiation) must be flagged, so the test is known to be able to fail.
//!
//! The harness is built with the release profile, as shipped: the test profile's debug
//! assertions (range checks by comparison) would be flagged, and they are not in the library
//! users run. Overflow checks stay on in both.
//!
//! Without valgrind (or its headers at build time) the test skips with a line saying so;
//! `MONTLAB_REQUIRE_VALGRIND=1` (set by `.ci/run`) makes that a failure.

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

/// `valgrind`'s exit code for reported errors.
const FLAGGED: i32 = 99;

/// Runs the harness on `kernel` under memcheck: (exit code, stderr, stdout).
fn under_memcheck(kernel: &str) -> Option<(i32, String, String)> {
    let have = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let marks = cfg!(valgrind);
    if !have || !marks {
        assert!(
            std::env::var_os("MONTLAB_REQUIRE_VALGRIND").is_none(),
            "MONTLAB_REQUIRE_VALGRIND is set but valgrind or its headers are missing"
        );
        eprintln!("taint: valgrind or its headers missing here, skipped");
        return None;
    }
    let out = Command::new("valgrind")
        .arg("--tool=memcheck")
        .args([
            &format!("--error-exitcode={FLAGGED}"),
            "--track-origins=yes",
            "-q",
        ])
        .arg(harness())
        .arg(kernel)
        .output()
        .expect("valgrind runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    Some((out.status.code().unwrap_or(-1), stderr, stdout))
}

/// The kernel runs clean under memcheck (skipped without valgrind); its result line.
fn assert_clean(kernel: &str, what: &str) -> Option<String> {
    under_memcheck(kernel).map(|(code, stderr, stdout)| {
        assert_eq!(code, 0, "memcheck flagged {what}:\n{stderr}");
        stdout
    })
}

/// The control is flagged under memcheck: the test can fail (skipped without valgrind).
fn assert_flagged(kernel: &str, what: &str) {
    if let Some((code, stderr, _)) = under_memcheck(kernel) {
        assert!(
            code == FLAGGED && stderr.contains("uninitialised"),
            "{what} was not flagged (exit {code}):\n{stderr}"
        );
    }
}

#[test]
fn cios_pow_sec_has_no_secret_dependent_branch_or_index() {
    let _ = assert_clean("cios_pow_sec", "pow_sec");
}

#[test]
fn the_variable_time_control_is_flagged() {
    assert_flagged("vartime", "the variable-time control");
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
    assert_flagged("crt_vartime", "the variable-time CRT control");
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
    assert_flagged("karatsuba_control", "num-bigint's product");
}

#[test]
fn redc_n_has_no_operand_dependent_branch_or_index() {
    let _ = assert_clean("redc_n", "the sub-quadratic REDC");
}

#[test]
fn the_redc_n_control_is_flagged() {
    assert_flagged("redc_n_control", "num-bigint's remainder");
}

#[test]
fn spectral_pow_sec_has_no_secret_dependent_branch_or_index() {
    let line = assert_clean("spectral_pow_sec", "the spectral pow_sec");
    // On a CPU with AVX2 (CI sets MONTLAB_REQUIRE_AVX2 there) the vector transforms ran.
    if let Some(line) = line {
        assert!(
            std::env::var_os("MONTLAB_REQUIRE_AVX2").is_none() || line.contains("avx2"),
            "MONTLAB_REQUIRE_AVX2 is set but the AVX2 transforms did not run: {line}"
        );
    }
}

#[test]
fn the_variable_time_spectral_control_is_flagged() {
    assert_flagged("spectral_vartime", "the variable-time spectral control");
}
