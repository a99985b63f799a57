"""montlab as users install it: the wheel carries the RTL, and its `hw` extra the tools.

Builds the wheel from this checkout, installs it with ``[hw]`` into a fresh virtual environment
and runs the RTL flow from a folder outside the checkout, with HOME and the cache pointed at empty
folders, so nothing can come from the source tree or an earlier build.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, SEED, scaled

TIMEOUT_S = 900


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    res = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
    )
    assert res.returncode == 0, f"{' '.join(cmd)}: rc {res.returncode}\n{res.stdout}\n{res.stderr}"
    return res.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    """(the venv's montlab, an environment with an empty HOME, a folder outside the checkout)."""
    base = tmp_path_factory.mktemp("wheel")
    wheels = base / "dist"
    _run(
        [sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", str(wheels)],
        base,
    )
    (whl,) = wheels.glob("montlab-*.whl")
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], base)
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", f"{whl}[hw]"], base)
    home = base / "home"
    home.mkdir()
    # A user's shell: nothing this test run set up (Verilator's root, MAKEFLAGS, caches) leaks in.
    env = {k: os.environ[k] for k in ("LANG", "LC_ALL", "TMPDIR", "USER") if k in os.environ}
    env.update(HOME=str(home), PATH=f"{venv / 'bin'}:/usr/bin:/bin", VIRTUAL_ENV=str(venv))
    work = base / "elsewhere"
    work.mkdir()
    return venv / "bin" / "montlab", env, work


def test_wheel_carries_the_rtl(installed: tuple[Path, dict[str, str], Path]) -> None:
    montlab, env, work = installed
    out = json.loads(_run([str(montlab), "rtl", "list", "--json"], work, env))
    archs = {a["arch"]: a for a in out["archs"]}
    assert "mwr2mm_arch2" in archs and "fmlm3" in archs, sorted(archs)
    assert all(f.startswith("rtl/") for a in archs.values() for f in a["files"])
    # The package it runs is the installed one, not this checkout's.
    where = _run(
        [str(montlab.parent / "python"), "-c", "import montlab; print(montlab.__file__)"], work, env
    )
    assert not Path(where.strip()).is_relative_to(REPO), where


def test_wheel_simulates_outside_the_checkout(installed: tuple[Path, dict[str, str], Path]) -> None:
    montlab, env, work = installed
    vectors = scaled(100)
    print(f"[seed] MONTLAB_SEED={SEED}")
    cmd = [str(montlab), "rtl", "sim", "mwr2mm_arch2", "--set", "n=64", "--set", "w=16"]
    cmd += ["--vectors", str(vectors), "--seed", str(SEED), "--json"]
    res = json.loads(_run(cmd, work, env))
    assert res["mismatches"] == 0 and res["failures"] == [], res
    assert res["vectors"] >= vectors and res["probed"] > 0, res
    assert res["cycles"] == res["cycle_model"], res
    # The build went to the user's cache, not into the checkout or the working folder.
    assert (Path(env["HOME"]) / ".cache" / "montlab" / "build" / "rtl" / "mwr2mm_arch2").is_dir()
    assert list(work.iterdir()) == []


def test_wheel_names_the_missing_extra(tmp_path: Path) -> None:
    """Without the hw extra, the flow says which extra to install, in one line."""
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    code = (
        "import sys; sys.modules['cocotb_tools'] = None; sys.modules['cocotb_tools.runner'] = None\n"
        "from montlab.hw.flow import check_simulator\n"
        "try:\n    check_simulator('verilator')\nexcept Exception as e:\n    print(e)\n"
    )
    out = _run([sys.executable, "-c", code], tmp_path, env).strip()
    assert out == "cocotb is not installed: pip install 'montlab[hw]'", out
