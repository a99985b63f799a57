"""ism3: ISM3 Algorithm 3 (ref model ism3), rtl/ism3/ism3.v, simulated with cocotb against the
model through montlab.hw.flow: z and FFT(z) of every vector, every phase's RAM contents of the
traced ones (T, t, g, G, U, u, m, M, Z, zc, epsilon, z, FFT(z)), and the cycles of the schedule
model montlab.hw.ism3_schedule.

Every set also runs the scenarios of this module: a chain of 20 products with FFT(z) fed back
as the next X (square-and-multiply) equals pow; a start_i during a product is ignored; a reset
in the middle abandons it; race_o stays low and the product right. With PINGPONG = 0 where the
engine's schedule races (one lane, d = 64), race_o rises and the result is wrong, and ping-pong
cures both. CI runs the (v, d, mu) = (32, 32, 13) set; (32, 64, 13) on two lanes with ping-pong
storage (covered in CI by fmlm3's sets), the racing pair (the engine's racing runs in CI in
tests/rtl/common/test_rtl_fermat_ntt.py) and the four Table III sets are rtl_wide. Seeds: MONTLAB_SEED; counts scale with MONTLAB_TEST_MULTIPLIER.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rtl_helpers import run_rtl, scaled, toolchain

# The cocotb tests of this top (cocotb collects them from this module's namespace).
from rtl_scenarios import checked_vectors, reset_mid_operation  # noqa: F401

ARCH = "ism3"
MODULE = "test_rtl_ism3"

CI_SETS = [
    pytest.param({"v": 32, "d": 32, "mu": 13}, id="l206"),
    # ping-pong storage and ORDER 1 run in CI through fmlm3's sets
    pytest.param(
        {"v": 32, "d": 64, "mu": 13, "lanes": 2, "pingpong": 1},
        id="l414 2 lanes pp",
        marks=pytest.mark.rtl_wide,
    ),
]
TABLE3 = [
    pytest.param({"v": 64, "d": 64, "mu": 29}, id="926"),
    pytest.param({"v": 64, "d": 128, "mu": 28}, id="1790"),
    pytest.param({"v": 128, "d": 128, "mu": 60}, id="3838"),
    pytest.param({"v": 128, "d": 256, "mu": 60, "pingpong": 1}, id="7678 pp"),
]


@pytest.mark.parametrize("sets", CI_SETS)
def test_rtl_ism3(rng: random.Random, sets: dict[str, int]) -> None:
    from montlab.hw import specs

    res = run_rtl(ARCH, sets, MODULE, rng, scaled(20), trace=2)
    spec = specs.get(ARCH)
    assert res["cycles"] == spec.hw(spec.resolve(sets)).cycles()
    assert set(res["scenarios"]) == {"exponent_chain", "start_while_busy", "racing"}
    assert res["scenarios"]["racing"] == {"race": 0, "right": True}
    assert res["status"] == {"race_o": 0}


@pytest.mark.rtl_wide
@pytest.mark.parametrize("sets", TABLE3)
def test_rtl_ism3_table3(rng: random.Random, sets: dict[str, int]) -> None:
    """The paper's four sets, 20 random vectors and the edge vectors each."""
    res = run_rtl(ARCH, sets, MODULE, rng, scaled(20), trace=1)
    print(f"[ism3] {sets}: {res['cycles']} cycles (paper Table III, not derivable)")


def _scenario(rng: random.Random, sets: dict[str, int], testcase: str) -> dict:
    """One cocotb scenario of this module on one parameter set (run_rtl runs them all)."""
    from montlab.hw import flow, specs

    toolchain()
    spec = specs.get(ARCH)
    ap = spec.resolve(sets)
    seed = rng.getrandbits(32)
    print(f"[rtl] {ARCH} {ap.as_dict()} {testcase} seed {seed}")
    vecs = flow.make_vectors(spec, ap, 2, seed, edge=False)
    res = flow.simulate(spec, ap, vecs, trace=0, test_module=MODULE, testcase=testcase)
    assert testcase in res["scenarios"], res
    return res


@pytest.mark.parametrize(
    ("sets", "races"),
    [
        pytest.param(
            {"v": 32, "d": 64, "mu": 13, "lanes": 1, "pingpong": 0},
            True,
            id="in place",
            marks=pytest.mark.rtl_wide,
        ),
        pytest.param(
            {"v": 32, "d": 64, "mu": 13, "lanes": 1, "pingpong": 1},
            False,
            id="pp",
            marks=pytest.mark.rtl_wide,
        ),
    ],
)
def test_rtl_ism3_racing(rng: random.Random, sets: dict[str, int], races: bool) -> None:
    """One lane at d = 64: S = 32 issue cycles a stage, S/2 = 16 > B + 2 = 8, so the in-place
    engine overwrites words before reading them; ping-pong storage does not."""
    from montlab.hw import specs

    spec = specs.get(ARCH)
    assert spec.hw(spec.resolve(sets)).engine.races == races
    _scenario(rng, sets, "racing")


# --- cocotb: the scenarios of this top (run inside the simulator) ---------------------------------

try:
    import cocotb
    from cocotb.triggers import FallingEdge, RisingEdge
    from cocotb.utils import get_sim_time
    from montlab.hw.tb import job_bench, note_scenario
except ImportError:  # pragma: no cover - the sweeps above skip through toolchain()
    cocotb = None


def _test(func: Any) -> Any:
    return func if cocotb is None else cocotb.test()(func)


async def _load_spectra(bench: Any, port: str, vec: list[int]) -> None:
    from montlab.hw.specs.base import Load, RamWrite

    await bench.driver.write_rams(Load({}, [RamWrite(port, i, e) for i, e in enumerate(vec)]))


async def _run_one(bench: Any) -> tuple[int, list[int], int]:
    """Start with the RAMs as loaded, wait for done_o (bounded), read z and FFT(z); returns
    (z, FFT(z), cycles)."""
    from montlab.hw.specs.base import Load

    await bench.driver.start(Load({}, []))
    t0 = get_sim_time("ns") - bench.clock_ns / 2
    res = await bench.monitor.wait_done(t0, None)
    await FallingEdge(bench.dut.clk_i)
    words = await bench.driver.read_words(bench.readout, 16)
    s, mu = bench.ap["s"], bench.ap["mu"]
    z = sum(w << (mu * j) for j, w in enumerate(words[:s]))
    return z, words[s:], res.cycles


@_test
async def exponent_chain(dut: Any) -> None:
    """Square-and-multiply on the RTL: X <- FFT(z) after every product, Y <- FFT(z) (square) or
    FFT(x r mod n) (multiply); the last z, out of Montgomery form, equals pow(x, e, n)."""
    job, bench = await job_bench(dut)
    from montlab.ref import ism3 as ref

    m = int(job["vectors"][0][0], 16)
    rng = random.Random(job["vectors"][0][2])  # the vectors' seed decides the chain too
    x = rng.randrange(2, m)
    steps = int(job.get("steps", 20))
    cfg = bench.model.config(m)
    r = cfg.r
    xr = x * r % m
    fx = ref.fft(cfg, xr)
    await _load_spectra(bench, "n", list(cfg.fft_n))
    await _load_spectra(bench, "np", list(cfg.fft_nprime))
    # e: 1, then per step a squaring or a multiplication by x (the first product squares).
    e, z_spec, z = 1, fx, xr
    for k in range(steps):
        square = k == 0 or rng.random() < 0.6
        await _load_spectra(bench, "x", list(z_spec))
        await _load_spectra(bench, "y", list(z_spec if square else fx))
        want_z, want_spec = ref.mont_mul_spectral(cfg, list(z_spec), list(z_spec if square else fx))
        z, z_spec, cycles = await _run_one(bench)
        assert z == want_z and z_spec == want_spec, f"step {k}: z = {z:#x}, model {want_z:#x}"
        assert z < 2 * m and cycles == bench.expected_cycles
        e = 2 * e if square else e + 1
    got = z * pow(r, -1, m) % m
    assert got == pow(x, e, m), f"x^{e}: got {got:#x}, want {pow(x, e, m):#x}"
    dut._log.info(f"chain of {steps} products: x^{e} mod n matches pow")
    note_scenario(job, "exponent_chain", {"products": steps, "exponent": e})


@_test
async def start_while_busy(dut: Any) -> None:
    """start_i in the middle of a product is ignored: the product and its cycles are exact."""
    job, bench = await job_bench(dut)
    m, x, y = (int(v, 16) for v in job["vectors"][0][:3])
    want = bench.model.expect(m, x, y)
    await bench.start(m, x, y)
    t0 = get_sim_time("ns") - bench.clock_ns / 2
    await bench.wait_cycles(bench.expected_cycles // 3)
    dut.start_i.value = 1
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    dut.start_i.value = 0
    res = await bench.monitor.wait_done(t0, None)
    await FallingEdge(dut.clk_i)
    words = await bench.driver.read_words(bench.readout, 16)
    got = bench.spec.assemble(bench.ap, words)
    assert got == want and res.cycles == bench.expected_cycles, (res.cycles, got == want)
    await bench.wait_cycles(bench.expected_cycles + 4)
    assert not int(dut.busy_o.value), "a second product started from the ignored start_i"
    note_scenario(job, "start_while_busy", {"ok": True})


@_test
async def racing(dut: Any) -> None:
    """One product: race_o rises exactly where the schedule model says the engine races, and
    then the product is wrong; without racing it is right."""
    job, bench = await job_bench(dut)
    races = bench.spec.hw(bench.ap).engine.races
    m, x, y = (int(v, 16) for v in job["vectors"][-1][:3])  # a random vector, not an edge one
    want = bench.model.expect(m, x, y)
    await bench.start(m, x, y)
    t0 = get_sim_time("ns") - bench.clock_ns / 2
    await bench.monitor.wait_done(t0, None)
    await FallingEdge(dut.clk_i)
    raced = int(dut.race_o.value)
    words = await bench.driver.read_words(bench.readout, 16)
    right = bench.spec.assemble(bench.ap, words) == want
    assert raced == int(races), f"race_o = {raced}, the schedule model says {races}"
    assert right != races, f"racing {races}, result right: {right}"
    note_scenario(job, "racing", {"race": raced, "right": right})
