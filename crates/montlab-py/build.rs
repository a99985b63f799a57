//! Records the compiler that builds the extension (`montlab._native.BUILD`), so a tuned
//! threshold table can say which build it was measured on, and sets PyO3's interpreter cfgs.

use std::process::Command;

fn main() {
    pyo3_build_config::use_pyo3_cfgs();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(
            || "rustc (version unknown)".to_owned(),
            |o| String::from_utf8_lossy(&o.stdout).trim().to_owned(),
        );
    let target = std::env::var("TARGET").unwrap_or_default();
    let profile = std::env::var("PROFILE").unwrap_or_default();
    println!("cargo:rustc-env=MONTLAB_RUSTC_VERSION={version}");
    println!("cargo:rustc-env=MONTLAB_TARGET={target}");
    println!("cargo:rustc-env=MONTLAB_PROFILE={profile}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
