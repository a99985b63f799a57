"""Build and run helpers for the unit tests of the carry-save library in rtl/common/.

Contract:
  * :func:`run` builds one module of rtl/common at one parameter set with Verilator through
    ``cocotb_tools.runner`` (cached under ``build/rtl/common/<module>/<paramkey>/``, keyed by a
    digest of the sources, the parameters and the tool versions) and runs one cocotb test of
    :data:`TEST_MODULE` on it. The job (module, parameters, seed, mode, count) reaches the cocotb
    side as JSON in the environment variable :data:`JOB_ENV`; :func:`load_job` reads it there.
    A failing cocotb test raises AssertionError with its failure messages and the log's path.
  * The Python mirrors of the RTL's elaboration-time rules (:func:`tree_counts`,
    :func:`tree_latency`) and the expected values of every block are here, so that the pytest
    sweeps and the cocotb checkers share them. The per-column and word-level models of the 6:3
    counter are imported from montlab.ref.drmmm, never copied.

Importable inside the simulator (no pytest import at module level).
"""

from __future__ import annotations

import json
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Mapping

REPO = Path(__file__).resolve().parents[3]
RTL = REPO / "rtl"
#: The library's sources, in rtl/common/files.f order (paths there are relative to rtl/).
SOURCES = [RTL / line for line in (RTL / "common" / "files.f").read_text().split()]
#: The files each module needs (a build is keyed and compiled on these only).
DEPS = {
    "csa_3to2": ["csa_3to2"],
    "counter63": ["counter63"],
    "csa_tree": ["csa_3to2", "counter63", "csa_tree"],
    "add_sub_sel": ["add_sub_sel"],
}


def sources(top: str) -> list[Path]:
    return [f for f in SOURCES if f.stem in DEPS[top]]


#: The module holding the cocotb tests (tests/rtl/common/test_rtl_common.py).
TEST_MODULE = "test_rtl_common"
JOB_ENV = "MONTLAB_COMMON_JOB"
BUILD_ARGS = ["-O3", "--x-assign", "fast", "--x-initial", "fast"]
TIMESCALE = ("1ns", "1ps")


# --- the RTL's rules, mirrored -------------------------------------------------------------------


def tree_next(n: int, cell: int) -> int:
    """Words after one csa_tree level that starts with n words (see the csa_tree header)."""
    g6 = 0 if cell == 0 else n // 6
    r = n - 6 * g6
    return 3 * g6 + 2 * (r // 3) + r % 3


def tree_counts(nin: int, nout: int, cell: int) -> list[int]:
    """Words at every level, inputs first: [NIN, ..., NOUT] (just [NIN] when NIN <= NOUT)."""
    counts = [nin]
    while counts[-1] > nout:
        counts.append(tree_next(counts[-1], cell))
    return counts


def tree_latency(nin: int, nout: int, cell: int, reg_every: int, stages: int = 0) -> int:
    """csa_tree's LATENCY: STAGES when given, else ceil(LEVELS / REG_EVERY), 0 when
    combinational."""
    if stages > 0:
        return stages
    levels = len(tree_counts(nin, nout, cell)) - 1
    return 0 if reg_every <= 0 else -(-levels // reg_every)


def tree_modulus(w: int, eac: int) -> int:
    return (1 << w) - 1 if eac else 1 << w


def add_sub_sel_expect(w: int, a: int, b: int, cin: int, m: int) -> int:
    """z = s >= m ? s - m : s with s = a + b + cin (< 2^w by the contract)."""
    s = a + b + cin
    assert s < 1 << w, "operands outside the contract"
    return s - m if s >= m else s


# --- build and run ------------------------------------------------------------------------------


def param_key(params: Mapping[str, int]) -> str:
    return "_".join(f"{k}{v}" for k, v in params.items())


def _versions() -> str:
    from importlib.metadata import version

    return " ".join(f"{p} {version(p)}" for p in ("cocotb", "verilator"))


def build(top: str, params: Mapping[str, int]) -> Path:
    """Build ``top`` (a module of rtl/common) at ``params`` with Verilator (cached)."""
    from cocotb_tools.runner import get_runner
    from montlab.hw.flow import VLT, build_root, tool_env

    tool_env()
    bdir = build_root() / "common" / top / param_key(params)
    srcs = [*sources(top), VLT]
    from montlab.hw.flow import _digest

    digest = _digest([json.dumps(dict(params)), _versions()] + [f.read_bytes() for f in srcs])
    stamp = bdir / "montlab.stamp"
    if stamp.is_file() and stamp.read_text() == digest and (bdir / top).is_file():
        return bdir
    bdir.mkdir(parents=True, exist_ok=True)
    log = bdir / "build.log"
    try:
        get_runner("verilator").build(
            sources=srcs,
            hdl_toplevel=top,
            parameters=dict(params),
            build_dir=bdir,
            build_args=BUILD_ARGS,
            timescale=TIMESCALE,
            log_file=log,
        )
    except (RuntimeError, subprocess.CalledProcessError, SystemExit) as exc:
        raise AssertionError(f"{top} {dict(params)}: the Verilator build failed ({exc}); see {log}")
    stamp.write_text(digest)
    return bdir


def _failures(results: Path, log: Path) -> tuple[int, list[str]]:
    """(tests run, failure messages) from a cocotb results file."""
    if not results.is_file():
        return 0, [f"no results file; see {log}"]
    cases = ET.parse(results).getroot().iter("testcase")
    ran, bad = 0, []
    for case in cases:
        ran += 1
        for fail in [*case.iter("failure"), *case.iter("error")]:
            bad.append(f"{case.get('name')}: {fail.get('message') or ''} {fail.text or ''}".strip())
    return ran, bad


def run(
    top: str,
    params: Mapping[str, int],
    testcase: str,
    seed: int,
    **job: Any,
) -> None:
    """Run the cocotb test ``testcase`` of :data:`TEST_MODULE` on ``top`` at ``params``."""
    from cocotb_tools.runner import get_runner

    bdir = build(top, params)
    run_dir = bdir / "runs" / f"{testcase}-{os.getpid()}"
    run_dir.mkdir(parents=True, exist_ok=True)
    results, log = run_dir / "results.xml", run_dir / "sim.log"
    results.unlink(missing_ok=True)
    payload = {"top": top, "params": dict(params), "seed": seed, **job}
    try:
        get_runner("verilator").test(
            test_module=TEST_MODULE,
            hdl_toplevel=top,
            hdl_toplevel_lang="verilog",
            testcase=testcase,
            build_dir=bdir,
            test_dir=run_dir,
            parameters=dict(params),
            extra_env={JOB_ENV: json.dumps(payload)},
            results_xml=str(results),
            timescale=TIMESCALE,
            log_file=log,
        )
    except (RuntimeError, subprocess.CalledProcessError, SystemExit):
        pass  # the results file says what failed
    ran, bad = _failures(results, log)
    assert ran == 1 and not bad, (
        f"{top} {dict(params)} {testcase}: {bad or 'did not run'}; see {log}"
    )


def load_job() -> dict[str, Any]:
    """The job :func:`run` passed to the cocotb side."""
    job: dict[str, Any] = json.loads(os.environ[JOB_ENV])
    return job
