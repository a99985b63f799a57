//! Compiles `src/shim.c` (valgrind's memcheck client requests) when valgrind's headers are
//! installed, and sets `cfg(valgrind)`; without them the harness builds but cannot taint, and
//! `tests/taint.rs` skips (or fails under `MONTLAB_REQUIRE_VALGRIND`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(valgrind)");
    println!("cargo::rerun-if-changed=src/shim.c");
    let header = [
        "/usr/include/valgrind/memcheck.h",
        "/usr/local/include/valgrind/memcheck.h",
    ]
    .iter()
    .any(|p| std::path::Path::new(p).exists());
    if header {
        cc::Build::new()
            .file("src/shim.c")
            .compile("montlab_ct_shim");
        println!("cargo::rustc-cfg=valgrind");
    } else {
        println!(
            "cargo::warning=valgrind/memcheck.h not found: the taint harness cannot mark secrets"
        );
    }
}
