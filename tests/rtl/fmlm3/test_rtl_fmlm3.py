"""fmlm3: FMLM3 Algorithms 2 and 3 (ref model fmlm3), rtl/fmlm3/fmlm3.v, simulated with cocotb
against the model through montlab.hw.flow: t, T(t) and T'(t) of every vector, every phase's RAM
contents of the traced ones (every product vector, every transform before its scaling, g / z1 /
eval(w) digits, z0, the m candidates and m, X, S, s, t before step 17, t, T(t), T'(t)), and the
cycles of the schedule model montlab.hw.fmlm3_schedule.

Every set also runs a chain of products with T(t), T'(t) fed back (square-and-multiply), which
must equal pow, and a reset in the middle of a product. CI runs SPEC 6 items 2 and 3 (P = 8,
u = 4 on 2^16+1 and 2^24+1; P = 16, u = 1 and P = 32, u = 5 with A = sqrt 2) and the tight rings
(P = 8 with u = 2 and 6), with BFS 1 and 2; item 3's worked example and item 5 (the step-17
corner) as vectors; and the errata variants failing: the printed step 12, "t > N" on the corner,
a symmetric lift on a tight ring. Item 4 (near-maximal digits, 1024 bits) is slow; P = 32's
tight ring (u = 13) and the 18 Table 6 sets are rtl_wide. The microprogram ROM is regenerated and compared. Seeds: MONTLAB_SEED; counts scale
with MONTLAB_TEST_MULTIPLIER.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from montlab import spectral_params as sp
from rtl_helpers import random_vectors, run_rtl, scaled, simulate

# The cocotb tests of this top (cocotb collects them from this module's namespace).
from rtl_scenarios import checked_vectors, reset_mid_operation  # noqa: F401

ARCH = "fmlm3"
MODULE = "test_rtl_fmlm3"


def _set(p: int, u: int, ring: int, alg: int, bfs: int) -> Any:
    return pytest.param(
        {"p": p, "u": u, "ring": ring, "alg": alg, "bfs": bfs},
        id=f"P{p} u{u} K{ring} A{alg} n{bfs}",
    )


CI_SETS = [
    _set(8, 4, 24, 3, 2),  # SPEC 6 item 2, Algorithm 3 (the command)
    _set(8, 4, 16, 2, 1),  # SPEC 6 item 2, Algorithm 2
    _set(16, 1, 8, 2, 1),  # SPEC 6 item 3, A = sqrt 2 = 60 mod 257
    _set(32, 5, 16, 2, 2),  # SPEC 6 item 3, A = 2^12 - 2^4
    _set(8, 2, 8, 2, 2),  # tight: cP = v + 2u + 1
    _set(8, 6, 16, 2, 1),  # tight: cP = v + 2u + 1
]
#: P = 32's tight ring (u = 13, M = 2^32 + 1) runs in the Table 5 sweep of docs/hardware/fmlm3.md.
WIDE_SETS = [_set(32, 13, 32, 2, 1)]


def _table6() -> list[Any]:
    from montlab.hw.reports.fmlm3 import table6_points

    return [
        pytest.param(pt, id=f"{row[0]} A{pt['alg']} P{pt['p']} n{pt['bfs']} row{i + 1}")
        for i, (row, pt) in enumerate(zip(sp.FMLM3_TABLE6, table6_points(), strict=True))
    ]


@pytest.mark.parametrize("sets", CI_SETS)
def test_rtl_fmlm3(rng: random.Random, sets: dict[str, int]) -> None:
    """run_rtl checks every product, every probe and the cycles against the schedule model."""
    res = run_rtl(ARCH, sets, MODULE, rng, scaled(8), trace=2)
    assert "exponent_chain" in res["scenarios"], res["scenarios"]


@pytest.mark.rtl_wide
@pytest.mark.parametrize("sets", WIDE_SETS)
def test_rtl_fmlm3_wide(rng: random.Random, sets: dict[str, int]) -> None:
    res = run_rtl(ARCH, sets, MODULE, rng, scaled(8), trace=2)
    assert "exponent_chain" in res["scenarios"], res["scenarios"]


@pytest.mark.rtl_wide
@pytest.mark.parametrize("sets", _table6())
def test_rtl_fmlm3_table6(rng: random.Random, sets: dict[str, int]) -> None:
    """The paper's 18 sets, random and edge vectors each."""
    res = run_rtl(ARCH, sets, MODULE, rng, scaled(4), trace=1)
    print(f"[fmlm3] {sets}: {res['cycles']} cycles (schedule model; Table 6 not derivable)")


def test_spec6_item3_worked_example() -> None:
    """SPEC 6 item 3: P = 16, u = 1, M = 2^8 + 1 (A = sqrt 2 = 60): N = 60553, x = 20828,
    y = 13246 give m = 6469, S = 45163, t = 10187 in the model, and the RTL's probes see them."""
    from montlab.hw.flow import Vector
    from montlab.ref import fmlm3 as ref

    cfg = ref.configure(60553, {"P": 16, "u": 1, "m_exp": 8, "alg": 2})
    assert cfg.ring.A == 60
    trace: list = []
    ref.mont_mul(cfg, 20828, 13246, trace)
    assert (trace[0]["m"], trace[0]["S"], trace[0]["t"]) == (6469, 45163, 10187)
    res = simulate(
        ARCH, {"p": 16, "u": 1, "ring": 8, "alg": 2, "bfs": 1}, [Vector(60553, 20828, 13246)]
    )
    assert res["mismatches"] == 0 and res["probed"] > 0, res["failures"]


@pytest.mark.slow
def test_spec6_item4_near_maximal_digits() -> None:
    """SPEC 6 item 4: 1024 bits, P = 64, u = 16, M = 2^64 + 1, Algorithm 3, N = R - 2,
    x = y = R - 3 (the eq. (12) window at near-maximal digits), traced."""
    from montlab.hw.flow import Vector

    r = (1 << 1024) - 1
    res = simulate(
        ARCH, {"p": 64, "u": 16, "ring": 64, "alg": 3, "bfs": 2}, [Vector(r - 2, r - 3, r - 3)]
    )
    assert res["mismatches"] == 0 and res["probed"] > 0, res["failures"]


def _inverse_coeffs(sets: dict[str, int], n: int, x: int, y: int) -> list[list[int]]:
    """The model's coefficient vectors entering the final-stage operators (Algorithm 2: CT^-1
    of G and of Z1, scaled; NCT^-1 of Z4, scaled and lifted)."""
    from montlab.hw import specs
    from montlab.ref import fmlm3 as ref

    arch = specs.get(ARCH)
    ap = arch.resolve(sets)
    cfg = ref.configure(n, arch.ref_params(ap))
    trace: list = []
    arch.expect(ap, cfg, x, y, trace)
    ent, m_ring = trace[0], cfg.ring.M
    g = [a * b % m_ring for a, b in zip(ent["T(x)"], cfg.t_nprime, strict=True)]
    tz0 = ref.ct(cfg, list(ent["z0"]))
    z1 = [a * b % m_ring for a, b in zip(ent["T(y)"], tz0, strict=True)]
    return [ref.ict(cfg, g), ref.ict(cfg, z1), list(ent["z4"])]


@pytest.mark.parametrize(
    ("sets", "vec", "want"),
    [
        # NCT^-1 borrows (cd = -1) from the upper half's digit 3 (found by searching the model).
        ({"p": 8, "u": 6, "ring": 16, "alg": 2, "bfs": 1},
         (0xCC8268154597, 0xCC8268154596, 0xE6C63217043), (-1, False)),
        # NCT^-1 carries (cd = 1) through 12 all-ones digits into floor(value / 2^l).
        ({"p": 32, "u": 5, "ring": 16, "alg": 2, "bfs": 2},
         ((1 << 159) - 1, 1, (1 << 159) - 2), (1, True)),
    ],
    ids=["borrow", "carry to the top"],
)  # fmt: skip
def test_fso_merge_carries(sets: dict[str, int], vec: tuple[int, int, int], want: Any) -> None:
    """The merge of the two final-stage operators' halves, on vectors whose carry out of the
    merged digits is nonzero (rare on random operands): the model's merge sees it, and the RTL's
    digits as the next pass reads them match at every position."""
    from montlab.hw.flow import Vector
    from montlab.hw.specs.fmlm3 import fso_merge

    merges = [fso_merge(c, sets["p"], sets["u"], sets["ring"]) for c in _inverse_coeffs(sets, *vec)]
    assert want in merges, merges
    res = simulate(ARCH, sets, [Vector(*vec)])
    assert res["mismatches"] == 0 and res["probed"] > 0, res["failures"]


def test_erratum1_printed_step12_fails(rng: random.Random) -> None:
    """Step 12 as printed (NCT^-1 of T'(z1), here the step-8 transform T'(m)) gives wrong
    products; the corrected design's run of the same vectors is the CI set above."""
    sets = {"p": 8, "u": 4, "ring": 24, "alg": 3, "bfs": 2, "step12": 1}
    vecs = random_vectors(ARCH, sets, scaled(8), rng.getrandbits(32))
    res = simulate(ARCH, sets, vecs)
    assert res["mismatches"] >= len(vecs) - 1, res["mismatches"]


def test_erratum2_step17_corner(rng: random.Random) -> None:
    """SPEC 6 item 5: u = 8, v = 3, N = (2^32 - 5)(2^32 - 17), x = 2^32 - 5, y = 2^32 - 17: t
    before step 17 is N. The corrected design returns 0; the printed "t > N" returns N (and is
    right on random vectors)."""
    from montlab.hw.flow import Vector

    p_, q_ = (1 << 32) - 5, (1 << 32) - 17
    corner = Vector(p_ * q_, p_, q_)
    base = {"p": 8, "u": 8, "alg": 2, "bfs": 1}
    good = simulate(ARCH, base, [corner])
    assert good["mismatches"] == 0, good["failures"]
    vecs = random_vectors(ARCH, base, scaled(4), rng.getrandbits(32))
    bad = simulate(ARCH, {**base, "gt_n": 1}, [corner, *vecs])
    assert bad["mismatches"] == 1 and f"m={p_ * q_:#x}" in bad["failures"][0], bad["failures"]


def test_symmetric_lift_fails_on_a_tight_ring() -> None:
    """SPEC 1.4: on a tight ring (cP = v + 2u + 1: P = 8, u = 6, M = 2^16 + 1) near-maximal
    digits (N close to R, x = y = N - 1) need the eq. (12) window: a symmetric lift fails some,
    the window none."""
    from montlab.hw.flow import Vector
    from montlab.testing import accepts

    sets = {"p": 8, "u": 6, "ring": 16, "alg": 2, "bfs": 1}
    r = (1 << 48) - 1
    params = {"P": 8, "u": 6, "m_exp": 16, "alg": 2}
    moduli = [n for n in range(r - 2, r - 200, -2) if accepts("fmlm3", n, params)][:4]
    vecs = [Vector(n, x, x) for n in moduli for x in (n - 1, n - 2)]
    good = simulate(ARCH, sets, vecs, trace=0)
    assert good["mismatches"] == 0, good["failures"]
    bad = simulate(ARCH, {**sets, "sym_lift": 1}, vecs, trace=0)
    assert bad["mismatches"] >= 1, "the symmetric lift passed every near-maximal vector"
    print(f"[fmlm3] symmetric lift: {bad['mismatches']} of {len(vecs)} near-maximal vectors fail")


def test_ucode_is_generated() -> None:
    """rtl/fmlm3/fmlm3_ucode.v is what montlab.hw.fmlm3_ucode renders now."""
    from montlab.hw import fmlm3_ucode

    assert fmlm3_ucode.ROM.read_text() == fmlm3_ucode.render(), (
        "run python -m montlab.hw.fmlm3_ucode"
    )


def test_ucode_transform_counts() -> None:
    """Algorithm 2 runs seven transforms and Algorithm 3 five (Table 5's counts)."""
    from montlab.cycles.fmlm3 import COUNTS
    from montlab.hw.fmlm3_ucode import PROGRAMS

    for alg, prog in PROGRAMS.items():
        kinds = [str(f["kind"]) for op, f in prog if op == "NTT"]
        assert {k: kinds.count(k) for k in COUNTS[alg]} == COUNTS[alg], alg


# --- cocotb: the scenarios of this top (run inside the simulator) ---------------------------------

try:
    import cocotb
    from cocotb.triggers import FallingEdge
    from cocotb.utils import get_sim_time
    from montlab.hw.tb import job_bench, note_scenario
except ImportError:  # pragma: no cover - the sweeps above skip through toolchain()
    cocotb = None


def _test(func: Any) -> Any:
    return func if cocotb is None else cocotb.test()(func)


@_test
async def exponent_chain(dut: Any) -> None:
    """Square-and-multiply on the RTL: T(x), T'(x) <- T(t), T'(t) after every product, T(y),
    T'(y) <- the same (square) or those of x R mod N (multiply); x0y0 from the digits read back.
    The last t, out of Montgomery form, equals pow(x, e, N)."""
    from montlab.hw.specs.base import Load, RamWrite
    from montlab.ref import fmlm3 as ref

    job, bench = await job_bench(dut)
    m = int(job["vectors"][-1][0], 16)
    rng = random.Random(job["vectors"][-1][2])  # the vectors' seed decides the chain too
    x = rng.randrange(2, m)
    steps = int(job.get("steps", 8))
    cfg = bench.model.config(m)
    r = cfg.r
    xr = x * r % m
    fx = ref.spectral(cfg, xr)
    consts = [RamWrite("tnp", i, e) for i, e in enumerate(cfg.t_nprime)]
    consts += [RamWrite("tn", i, e) for i, e in enumerate(cfg.t_n)]
    consts += [RamWrite("dn", i, e) for i, e in enumerate(ref.digits(cfg, m))]
    await bench.driver.write_rams(Load({}, consts))
    e, t_spec, t = 1, fx, xr
    p = bench.ap["p"]
    for k in range(steps):
        square = k == 0 or rng.random() < 0.6
        y_spec, y = (t_spec, t) if square else (fx, xr)
        writes = [RamWrite("tx", i, v) for i, v in enumerate(t_spec[0])]
        writes += [RamWrite("txn", i, v) for i, v in enumerate(t_spec[1])]
        writes += [RamWrite("ty", i, v) for i, v in enumerate(y_spec[0])]
        writes += [RamWrite("tyn", i, v) for i, v in enumerate(y_spec[1])]
        await bench.driver.write_rams(Load({}, writes))
        want_t, want_spec = ref.mont_mul_spectral(cfg, t_spec, y_spec, t & y & 1)
        await bench.driver.start(Load({"x0y0_i": t & y & 1}, []))
        t0 = get_sim_time("ns") - bench.clock_ns / 2
        res = await bench.monitor.wait_done(t0, None)
        await FallingEdge(bench.dut.clk_i)
        words = await bench.driver.read_words(bench.readout, 16)
        t = sum(w << (bench.ap["u"] * j) for j, w in enumerate(words[:p]))
        t_spec = (words[p : 2 * p], words[2 * p :])
        assert t == want_t and t_spec == (list(want_spec[0]), list(want_spec[1])), (
            f"step {k}: t = {t:#x}, model {want_t:#x}"
        )
        assert res.cycles == bench.expected_cycles
        e = 2 * e if square else e + 1
    got = t * pow(r, -1, m) % m
    assert got == pow(x, e, m), f"x^{e}: got {got:#x}, want {pow(x, e, m):#x}"
    dut._log.info(f"chain of {steps} products: x^{e} mod N matches pow")
    note_scenario(job, "exponent_chain", {"products": steps, "exponent": e})
