"""montlab bench: the constant-time operation, the GMP binding and the native peer builds.

Nothing here builds GMP or OpenSSL (minutes): the build's cache and tool checks are tested on
prepared folders, and the GMP binding on the system's libgmp where there is one.
"""

from __future__ import annotations

import ctypes.util
from pathlib import Path
from typing import Any

import pytest
from montlab.bench import (
    DEFAULT_OPS,
    DEFAULT_PEERS,
    NATIVE_PEERS,
    make_config,
    native_peers,
    run_bench,
)
from montlab.bench import gmp as bench_gmp
from montlab.bench.core import make_case


def small(**kw: Any) -> Any:
    return make_config(rounds=1, sample_s=0.002, budget_s=1.0, **kw)


def system_gmp() -> str:
    path = ctypes.util.find_library("gmp")
    if not path:
        pytest.skip("no system libgmp")
    return path


def test_defaults_leave_out_native_builds_and_modexp_sec() -> None:
    cfg = make_config()
    assert cfg.peers == DEFAULT_PEERS and cfg.ops == DEFAULT_OPS
    assert not set(NATIVE_PEERS) & set(cfg.peers) and "modexp_sec" not in cfg.ops
    assert make_config(native_peers=True).peers == (*DEFAULT_PEERS, *NATIVE_PEERS)
    assert make_config(peers=["gmpy2"], native_peers=True).peers == ("gmpy2", *NATIVE_PEERS)
    assert "--peers gmp-native" in make_config(peers=["gmp-native"]).command()


def test_modexp_sec_is_checked_and_skipped_where_missing() -> None:
    report = run_bench(small(sizes=["256"], peers=["python", "gmpy2"], ops=["modexp_sec"]))
    assert not report.errors()
    mine = report.get("modexp_sec", 256, "montlab")
    assert mine is not None and mine.status == "ok" and mine.detail.endswith("pow_sec")
    python = report.get("modexp_sec", 256, "python")
    assert python is not None and python.status == "skipped"


def test_gmp_binding_round_trips() -> None:
    lib = bench_gmp.load(system_gmp())
    z = lib.arena()
    try:
        case = make_case("modexp", 700, 3, 2)
        n, a, e, r = z.mpz(case.n), z.mpz(case.a), z.mpz(case.e), z.new()
        assert z.to_int(n) == case.n and z.to_int(z.mpz(0)) == 0
        for name in ("__gmpz_powm", "__gmpz_powm_sec"):
            lib.fn[name](r, a, e, n)
            assert z.to_int(r) == pow(case.a, case.e, case.n), name
        with pytest.raises(ValueError):
            z.mpz(-1)
    finally:
        z.close()
        z.close()  # idempotent
    with pytest.raises(bench_gmp.Unavailable):
        bench_gmp.load("/nonexistent/libgmp.so")


def test_gmp_native_peer_runs_on_a_built_library(monkeypatch: pytest.MonkeyPatch) -> None:
    path = Path(system_gmp())
    monkeypatch.setattr(native_peers, "ensure", lambda *_: {native_peers.GMP.name: path})
    ops = ["modmul", "modexp", "batch", "modexp_sec"]
    report = run_bench(small(sizes=["256"], peers=["gmp-native"], ops=ops))
    assert not report.errors()
    for op, want in zip(ops, ["skipped", "ok", "ok", "ok"]):
        m = report.get(op, 256, "gmp-native")
        assert m is not None and m.status == want, (op, m)


def test_a_cached_build_is_reused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MONTLAB_PEER_CACHE", str(tmp_path))
    for src in (native_peers.GMP, native_peers.OPENSSL):
        lib = tmp_path / src.name / src.library
        lib.parent.mkdir(parents=True)
        lib.write_bytes(b"")

    def no_fetch(*_: Any) -> None:
        raise AssertionError("fetched although both builds are cached")

    monkeypatch.setattr(native_peers, "fetch", no_fetch)
    got = native_peers.ensure()
    assert got == {
        s.name: tmp_path / s.name / s.library for s in (native_peers.GMP, native_peers.OPENSSL)
    }


def test_a_missing_tool_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MONTLAB_PEER_CACHE", str(tmp_path))
    monkeypatch.setattr(native_peers.shutil, "which", lambda t: None if t == "m4" else "/bin/" + t)
    with pytest.raises(native_peers.BuildError, match="m4"):
        native_peers.build_gmp(tmp_path, print)
    assert not (tmp_path / native_peers.GMP.name).exists()


def test_a_failed_build_is_unavailable_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_: Any) -> Any:
        raise native_peers.BuildError("cargo could not fetch the peer sources: offline")

    monkeypatch.setattr(native_peers, "ensure", fail)
    report = run_bench(small(sizes=["128"], peers=list(NATIVE_PEERS), ops=["modexp"]))
    assert not report.errors()
    for name in NATIVE_PEERS:
        assert report.impls[name]["status"] == "skipped"
        assert "offline" in report.impls[name]["note"]


def test_openssl_x2_times_each_modexp_of_its_pair() -> None:
    """openssl-x2 runs only modexp_sec, two modexps per BN_mod_exp_mont_consttime_x2 call, each
    checked against pow; the sample is the call's time over 2."""
    cfg = small(sizes=["1024"], peers=["openssl-x2"], ops=["modexp_sec", "modexp"])
    report = run_bench(cfg)
    assert not report.errors()
    x2 = report.get("modexp_sec", 1024, "openssl-x2")
    if x2 is None:
        pytest.skip("no system libcrypto")
    if x2.status == "skipped" and "no BN_mod_exp_mont_consttime_x2" in x2.note:
        pytest.skip(x2.note)
    assert x2.status == "ok" and x2.per_call == 2 and x2.samples
    assert x2.detail.startswith("BN_mod_exp_mont_consttime_x2")
    other = report.get("modexp", 1024, "openssl-x2")
    assert other is not None and other.status == "skipped" and "modexp_sec only" in other.note
    assert "openssl-native-x2" in NATIVE_PEERS and "openssl-x2" not in DEFAULT_PEERS
