"""rtl/common, the carry-save library: csa_3to2, counter63, csa_tree, add_sub_sel and cla_add,
each simulated with cocotb against Python integers and the DRMMM model's counters.

The pytest functions sweep the HDL parameters (common_helpers.run builds each parameter set once
with Verilator); the cocotb tests below run inside the simulator, read their job (parameters,
seed, mode) from the environment, and check every output:
  * csa_3to2: s_o, c_o against montlab.ref.drmmm.full_adder and the sum identity mod 2^W;
    exhaustive at W = 3 (and W = 1), random at W = 64 (rtl_wide: the cell has no logic that
    depends on W beyond the dropped carry, which W = 3 covers).
  * counter63 (both forms): whole words against drmmm.compress_6_3, every column against
    drmmm.counter_6_3 (eq. (31)), and w0 + w1 + w2 = x0 + ... + x5; exhaustive at W = 2 (and
    W = 1 under rtl_wide), random at W = 64.
  * csa_tree: sum(out) = sum(in) mod 2^W or 2^W - 1, the padding when NIN <= NOUT, and, with
    REG_EVERY > 0, one new input per clock checked LATENCY clocks later (LATENCY read from the
    DUT and compared with the Python rule).
  * add_sub_sel: z = s >= m ? s - m : s, valid_o exactly F edges after the edge that took
    valid_i, z_o held between results; back-to-back and gapped streams (pipelined), valid_i
    while busy_o is high ignored (serial), and reset in the middle of operations.
  * cla_add: {cout, s} = a + b + cin, one operation per clock checked 2 clocks later; all
    operands at W = 4 (one-bit segments, three prefix levels), edge and random words at widths
    with a partial top segment; rtl_wide adds one segment and 768 bits.
  * const_mul: y = C x mod 2^W for every x at W = 6 (C = 45; C = 0, 1, 6 rtl_wide) and edge
    and random words at W = 32 (C = 2^15 + 1; C = 18 rtl_wide), and no DSP48 after Yosys (the
    reason it exists).
Besides: `verilator --lint-only -Wall` at several parameter sets per module, illegal parameters
stopping elaboration, files.f, the Python mirror of csa_tree's level rule, and Yosys mapping one
csa_tree and one add_sub_sel to xc7 cells. The default run builds 10 parameter sets; the larger
sweeps are marked rtl_wide. Seeds: the ``rng`` fixture (MONTLAB_SEED) derives each cocotb seed,
printed with the parameters; counts scale with MONTLAB_TEST_MULTIPLIER.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from common_helpers import (
    CLOCK_NS,
    DEPS,
    REPO,
    Checker,
    add_sub_sel_expect,
    assert_lint_clean,
    assert_stops,
    cocotb_test,
    edge_words,
    go,
    load_job,
    param_id,
    tree_counts,
    tree_latency,
    tree_modulus,
    word,
    yosys_cells,
)
from rtl_helpers import scaled

# --- pytest: the parameter sweeps ------------------------------------------------------------------


CSA_3TO2 = [({"W": 3}, "exhaustive")]
CSA_3TO2_WIDE = [({"W": 64}, "random"), ({"W": 1}, "exhaustive")]


@pytest.mark.parametrize(
    ("params", "mode"), [pytest.param(p, m, id=param_id(p)) for p, m in CSA_3TO2]
)
def test_rtl_csa_3to2(rng: random.Random, params: dict[str, int], mode: str) -> None:
    go(rng, "csa_3to2", params, "csa_3to2_vectors", mode=mode, count=scaled(500))


@pytest.mark.rtl_wide
@pytest.mark.parametrize(
    ("params", "mode"), [pytest.param(p, m, id=param_id(p)) for p, m in CSA_3TO2_WIDE]
)
def test_rtl_csa_3to2_wide(rng: random.Random, params: dict[str, int], mode: str) -> None:
    go(rng, "csa_3to2", params, "csa_3to2_vectors", mode=mode, count=scaled(500))


COUNTER63 = [
    ({"W": 2, "FORM": 0}, "exhaustive"),
    ({"W": 2, "FORM": 1}, "exhaustive"),
    ({"W": 64, "FORM": 1}, "random"),
]
COUNTER63_WIDE = [
    ({"W": 1, "FORM": 0}, "exhaustive"),
    ({"W": 1, "FORM": 1}, "exhaustive"),
    ({"W": 64, "FORM": 0}, "random"),
]


@pytest.mark.parametrize(
    ("params", "mode"), [pytest.param(p, m, id=param_id(p)) for p, m in COUNTER63]
)
def test_rtl_counter63(rng: random.Random, params: dict[str, int], mode: str) -> None:
    go(rng, "counter63", params, "counter63_vectors", mode=mode, count=scaled(500))


@pytest.mark.rtl_wide
@pytest.mark.parametrize(
    ("params", "mode"), [pytest.param(p, m, id=param_id(p)) for p, m in COUNTER63_WIDE]
)
def test_rtl_counter63_wide(rng: random.Random, params: dict[str, int], mode: str) -> None:
    go(rng, "counter63", params, "counter63_vectors", mode=mode, count=scaled(500))


def _tree(
    w: int, nin: int, nout: int, cell: int, eac: int, reg_every: int, stages: int = 0
) -> dict[str, int]:
    p = {"W": w, "NIN": nin, "NOUT": nout, "CELL": cell, "EAC": eac, "REG_EVERY": reg_every}
    return {**p, "STAGES": stages} if stages else p


# (parameters, exhaustive?) The CI sets cover every CELL, both EAC and NOUT, REG_EVERY 0, 1, 2
# and STAGES above LEVELS (STAGES spread over the levels: the wide set, and every DRMMM test
# with t >= 3).
CSA_TREE = [
    (_tree(2, 5, 2, 0, 0, 0), True),  # Wallace, 3 levels, all 1024 inputs
    (_tree(3, 7, 3, 1, 1, 1), False),  # eq. (31) counters + 3:2 leftovers, EAC, LATENCY 2
    (_tree(13, 36, 2, 2, 0, 2), False),  # Fig. 8(a) counters, 6 levels, LATENCY 3
    (_tree(2, 4, 2, 0, 1, 0, 4), True),  # STAGES 4 > LEVELS 2: two delay ranks
]
CSA_TREE_WIDE = [
    (_tree(4, 1, 2, 0, 0, 0), True),  # padding only
    (_tree(4, 2, 3, 1, 1, 1), True),  # padding, REG_EVERY without levels: LATENCY 0
    (_tree(3, 3, 3, 2, 0, 2), True),  # NIN = NOUT
    (_tree(2, 3, 2, 0, 1, 1), True),  # one 3:2 row, EAC
    (_tree(1, 5, 2, 1, 0, 1), True),
    (_tree(2, 5, 3, 2, 1, 0), True),
    (_tree(2, 6, 3, 1, 0, 0), True),  # one 6:3 counter
    (_tree(2, 6, 2, 2, 1, 1), True),
    (_tree(2, 6, 2, 0, 1, 2), True),
    (_tree(2, 7, 2, 2, 0, 1), False),
    (_tree(5, 12, 2, 0, 1, 1), False),
    (_tree(5, 12, 3, 1, 0, 2), False),
    (_tree(8, 12, 2, 2, 1, 0), False),
    (_tree(16, 24, 2, 0, 0, 2), False),
    (_tree(16, 24, 3, 1, 1, 1), False),
    (_tree(16, 24, 2, 2, 1, 2), False),
    (_tree(64, 36, 3, 0, 1, 1), False),
    (_tree(9, 17, 2, 0, 0, 0, 3), False),  # STAGES 3 spread over 6 levels
    (_tree(3, 2, 2, 0, 0, 0, 2), True),  # STAGES without levels: delay ranks only
    (_tree(16, 65, 2, 1, 0, 0, 2), False),  # the DRMMM q tree at k = 16, t = 4
    (_tree(32, 36, 2, 1, 1, 0), False),
    (_tree(32, 36, 3, 2, 1, 1), False),
    (_tree(1, 36, 2, 0, 0, 2), False),  # W = 1: mod 2 (mod 2^1 - 1 = 1 would check nothing)
]


@pytest.mark.parametrize(
    ("params", "exhaustive"), [pytest.param(p, e, id=param_id(p)) for p, e in CSA_TREE]
)
def test_rtl_csa_tree(rng: random.Random, params: dict[str, int], exhaustive: bool) -> None:
    mode = "exhaustive" if exhaustive else "random"
    go(rng, "csa_tree", params, "csa_tree_vectors", mode=mode, count=scaled(300))


@pytest.mark.rtl_wide
@pytest.mark.parametrize(
    ("params", "exhaustive"), [pytest.param(p, e, id=param_id(p)) for p, e in CSA_TREE_WIDE]
)
def test_rtl_csa_tree_wide(rng: random.Random, params: dict[str, int], exhaustive: bool) -> None:
    mode = "exhaustive" if exhaustive else "random"
    go(rng, "csa_tree", params, "csa_tree_vectors", mode=mode, count=scaled(300))


def test_files_f() -> None:
    """rtl/common/files.f lists one file per library module, named after it, and each module's
    dependencies (common_helpers.DEPS) come before it; a design's own blocks
    (common_helpers.DESIGN_BLOCKS) are one module per file too, listed last in their DEPS."""
    from common_helpers import DESIGN_BLOCKS, SOURCES

    assert sorted(f.stem for f in SOURCES) == sorted(set(DEPS) - set(DESIGN_BLOCKS))
    order = [f.stem for f in SOURCES] + list(DESIGN_BLOCKS)
    for top, deps in DEPS.items():
        path = REPO / "rtl" / (DESIGN_BLOCKS[top] if top in DESIGN_BLOCKS else f"common/{top}.v")
        text = path.read_text()
        assert "`default_nettype none" in text and text.count("\nmodule ") == 1
        assert f"\nmodule {top} " in text
        assert all(order.index(d) <= order.index(top) for d in deps) and deps[-1] == top


def test_tree_schedule_rule() -> None:
    """The Python mirror of the level rule ends at NOUT words and matches the header's table."""
    assert tree_counts(36, 2, 0) == [36, 24, 16, 11, 8, 6, 4, 3, 2]
    assert tree_counts(36, 2, 1) == [36, 18, 9, 5, 4, 3, 2]
    for nin, nout, cell in itertools.product(range(1, 80), (2, 3), (0, 1, 2)):
        counts = tree_counts(nin, nout, cell)
        assert counts[-1] == min(nin, nout) if nin <= nout else counts[-1] == nout
        assert all(a > b for a, b in zip(counts, counts[1:]))
    assert tree_latency(36, 2, 0, 3) == 3 and tree_latency(36, 2, 1, 4) == 2
    assert tree_latency(2, 3, 0, 1) == 0 and tree_latency(36, 2, 0, 0) == 0


def _ass(w: int, f: int, serial: int) -> dict[str, int]:
    return {"W": w, "F": f, "SERIAL": serial}


# (parameters, exhaustive?)
ADD_SUB_SEL = [
    (_ass(4, 2, 0), True),
    (_ass(4, 3, 1), True),  # S = 2: the third segment is above W (empty)
    (_ass(67, 3, 0), False),
]
ADD_SUB_SEL_WIDE = [
    (_ass(4, 1, 0), True),
    (_ass(4, 3, 0), True),
    (_ass(4, 4, 0), True),
    (_ass(4, 1, 1), True),
    (_ass(4, 2, 1), True),
    (_ass(4, 4, 1), True),
    (_ass(1, 1, 0), True),
    (_ass(1, 1, 1), True),
    (_ass(67, 1, 0), False),
    (_ass(67, 3, 1), False),
    (_ass(67, 67, 0), False),
    (_ass(67, 67, 1), False),
    (_ass(130, 4, 0), False),
    (_ass(130, 4, 1), False),
    (_ass(130, 7, 1), False),
    (_ass(130, 130, 0), False),
]


def _ass_run(rng: random.Random, params: dict[str, int], exhaustive: bool) -> None:
    mode = "exhaustive" if exhaustive else "random"
    go(rng, "add_sub_sel", params, "add_sub_sel_stream", mode=mode, count=scaled(200))
    go(rng, "add_sub_sel", params, "add_sub_sel_reset", mode="random", count=scaled(8))


@pytest.mark.parametrize(
    ("params", "exhaustive"), [pytest.param(p, e, id=param_id(p)) for p, e in ADD_SUB_SEL]
)
def test_rtl_add_sub_sel(rng: random.Random, params: dict[str, int], exhaustive: bool) -> None:
    _ass_run(rng, params, exhaustive)


@pytest.mark.rtl_wide
@pytest.mark.parametrize(
    ("params", "exhaustive"), [pytest.param(p, e, id=param_id(p)) for p, e in ADD_SUB_SEL_WIDE]
)
def test_rtl_add_sub_sel_wide(rng: random.Random, params: dict[str, int], exhaustive: bool) -> None:
    _ass_run(rng, params, exhaustive)


CLA_ADD = [({"W": 4, "S": 1}, True), ({"W": 37, "S": 8}, False)]
CLA_ADD_WIDE = [({"W": 64, "S": 64}, False), ({"W": 5, "S": 2}, True), ({"W": 768, "S": 32}, False)]


@pytest.mark.parametrize(
    ("params", "exhaustive"), [pytest.param(p, e, id=param_id(p)) for p, e in CLA_ADD]
)
def test_rtl_cla_add(rng: random.Random, params: dict[str, int], exhaustive: bool) -> None:
    mode = "exhaustive" if exhaustive else "random"
    go(rng, "cla_add", params, "cla_add_stream", mode=mode, count=scaled(300))


@pytest.mark.rtl_wide
@pytest.mark.parametrize(
    ("params", "exhaustive"), [pytest.param(p, e, id=param_id(p)) for p, e in CLA_ADD_WIDE]
)
def test_rtl_cla_add_wide(rng: random.Random, params: dict[str, int], exhaustive: bool) -> None:
    mode = "exhaustive" if exhaustive else "random"
    go(rng, "cla_add", params, "cla_add_stream", mode=mode, count=scaled(300))


# --- pytest: lint and synthesis ---------------------------------------------------------------------

LINT = {
    "csa_3to2": [{"W": 1}, {"W": 3}, {"W": 64}],
    "counter63": [{"W": w, "FORM": f} for w in (1, 2, 64) for f in (0, 1)],
    "csa_tree": [
        _tree(w, nin, nout, cell, eac, reg)
        for w, (nin, nout, cell, eac, reg) in itertools.product(
            (1, 2, 16),
            [
                (1, 2, 0, 0, 0),
                (3, 3, 1, 1, 2),
                (5, 2, 0, 1, 1),
                (7, 3, 2, 0, 1),
                (36, 2, 1, 1, 2),
                (36, 3, 2, 0, 0),
                (24, 2, 0, 1, 3),
            ],
        )
    ],
    "add_sub_sel": [
        _ass(w, f, s) for s in (0, 1) for w, f in [(1, 1), (4, 3), (4, 4), (67, 3), (130, 130)]
    ],
    "cla_add": [{"W": w, "S": g} for w, g in [(1, 1), (4, 1), (37, 8), (64, 64), (130, 200)]],
    "const_mul": [{"C": c, "W": w} for c, w in [(0, 1), (1, 8), (6, 32), (65535, 40)]],
    "delay_line": [{"W": w, "N": n, "RST": r} for w in (1, 9) for n in (0, 1, 3) for r in (0, 1)],
    "fermat_addsub": [{"K": k} for k in (2, 8, 128)],
    "fermat_shift": [{"K": 2}, {"K": 8}, {"K": 12}, {"K": 12, "EW": 3}, {"K": 128}],
    "fermat_reduce": [{"K": k} for k in (2, 8, 128)],
    "fermat_bfly": [
        {"K": 2, "LATENCY": 1},
        {"K": 8, "LATENCY": 2, "TW": 1},
        {"K": 64, "LATENCY": 6, "TW": 7},
    ],
    "karatsuba_mul": [
        {"W": w, "BASE_LAT": b, "LEVEL_LAT": v}
        for w in (1, 17, 34, 35, 130)
        for b, v in [(3, 4), (0, 0), (1, 2)]
    ],
    "fermat_mul": [{"K": 2}, {"K": 32}, {"K": 64, "RED_LAT": 0}, {"K": 128, "LEVEL_LAT": 1}],
    "sdp_ram": [{"W": 1, "DEPTH": 2}, {"W": 130, "DEPTH": 64}, {"W": 9, "DEPTH": 5}],
    "fermat_ntt": [
        {"K": 8, "D": 16, "LANES": 1, "BFLY_LAT": 1, "PINGPONG": 0, "OMEGA_LOG2": 1},
        {"K": 32, "D": 32, "LANES": 4, "BFLY_LAT": 2, "GROUPS": 2, "PINGPONG": 1, "OMEGA_LOG2": 2},
        {
            "K": 64,
            "D": 32,
            "LANES": 8,
            "BFLY_LAT": 6,
            "GROUPS": 2,
            "PINGPONG": 0,
            "OMEGA_LOG2": 4,
            "A_LOG2": 2,
        },
        {"K": 128, "D": 256, "LANES": 4, "BFLY_LAT": 2, "PINGPONG": 0, "OMEGA_LOG2": 1},
        {"K": 32, "D": 16, "LANES": 2, "BFLY_LAT": 3, "ORDER": 1, "OMEGA_LOG2": 4, "A_LOG2": 2},
        {
            "K": 8,
            "D": 8,
            "LANES": 2,
            "BFLY_LAT": 1,
            "ORDER": 1,
            "GROUPS": 2,
            "PINGPONG": 1,
            "OMEGA_LOG2": 2,
        },
    ],
}


@pytest.mark.parametrize("top", list(LINT))
def test_lint_clean(top: str) -> None:
    """`verilator --lint-only -Wall` is clean (no waiver) at every parameter set of LINT."""
    for params in LINT[top]:
        assert_lint_clean(top, params)


ILLEGAL = [
    ("csa_tree", {"NOUT": 1}),
    ("csa_tree", {"NOUT": 4}),
    ("csa_tree", {"CELL": 3}),
    ("csa_tree", {"EAC": 2}),
    ("csa_tree", {"REG_EVERY": -1}),
    ("csa_tree", {"STAGES": -1}),
    ("csa_tree", {"REG_EVERY": 1, "STAGES": 2}),
    ("add_sub_sel", {"W": 4, "F": 5}),
    ("add_sub_sel", {"W": 4, "F": 0}),
    ("add_sub_sel", {"SERIAL": 2}),
    ("cla_add", {"S": 0}),
    ("const_mul", {"C": 65536}),
    ("const_mul", {"W": 0}),
    ("delay_line", {"N": -1}),
    ("delay_line", {"RST": 2}),
    ("fermat_addsub", {"K": 1}),
    ("fermat_shift", {"K": 8, "EW": 6}),
    ("fermat_reduce", {"K": 1}),
    ("fermat_bfly", {"LATENCY": 0}),
    ("karatsuba_mul", {"LEVEL_LAT": 5}),
    ("karatsuba_mul", {"BASE_W": 0}),
    ("fermat_mul", {"RED_LAT": 2}),
    ("sdp_ram", {"DEPTH": 1}),
    ("sdp_ram", {"DEPTH": 9, "AW": 3}),
    ("fermat_ntt", {"D": 8}),  # D < 4 LANES
    ("fermat_ntt", {"OMEGA_LOG2": 4}),  # not a primitive D-th root
    ("fermat_ntt", {"A_LOG2": 2}),
    ("fermat_ntt", {"PINGPONG": 2}),
    ("fermat_ntt", {"PINGPONG": 1, "GROUPS": 1}),
    ("fermat_ntt", {"GROUPS": 3}),
    ("fermat_ntt", {"ORDER": 2}),
]


@pytest.mark.parametrize(
    ("top", "params"), [pytest.param(t, p, id=f"{t},{param_id(p)}") for t, p in ILLEGAL]
)
def test_illegal_parameters_stop(top: str, params: dict[str, int]) -> None:
    """Parameters outside the header's ranges stop elaboration (and never hang it); the stop
    fires in the module or in the block below it that checks the parameter."""
    assert_stops(top, params, DEPS[top])


SYNTH = [
    ("csa_tree", _tree(16, 12, 2, 1, 1, 2)),
    ("add_sub_sel", _ass(67, 3, 0)),
]


@pytest.mark.parametrize(("top", "params"), [pytest.param(t, p, id=t) for t, p in SYNTH])
def test_yosys_synth(top: str, params: dict[str, int]) -> None:
    """Yosys reads the library and maps ``top`` to xc7 cells: flip-flops and carry chains as the
    headers say (csa_tree 12 -> 6 -> 3 -> 2 words, registered after levels 2 and 3; add_sub_sel
    3 stages of two 23-bit adders)."""
    cells = yosys_cells(top, params, "xc7")
    ffs = sum(n for c, n in cells.items() if c.startswith("FD"))
    luts = sum(n for c, n in cells.items() if c.startswith("LUT"))
    print(f"[yosys] {top} {params}: {luts} LUT, {ffs} FF, {cells.get('CARRY4', 0)} CARRY4")
    if top == "csa_tree":
        assert ffs == (3 + 2) * params["W"] and cells.get("CARRY4", 0) == 0 and luts > 0
    else:
        assert cells.get("CARRY4", 0) == 3 * 2 * 6 and luts > 0  # 23-bit adders: 6 CARRY4 each


#: CI: two sets (C = 45 at W = 6 exhaustively, a 2-bit C at W = 32); the others rtl_wide.
CONST_MUL = [
    pytest.param(
        {"C": c, "W": w},
        id=f"C={c},W={w}",
        marks=[] if c in (45, 32769) else [pytest.mark.rtl_wide],
    )
    for c, w in [(0, 6), (1, 6), (6, 6), (45, 6), (18, 32), (32769, 32)]
]


@pytest.mark.parametrize("params", CONST_MUL)
def test_rtl_const_mul(rng: random.Random, params: dict[str, int]) -> None:
    mode = "exhaustive" if params["W"] <= 6 else "random"
    go(rng, "const_mul", params, "const_mul_vectors", mode=mode, count=scaled(200))


def test_const_mul_uses_no_dsp() -> None:
    """A product by 6 (not a power of two) maps to LUTs and carry chains, no DSP48."""
    cells = yosys_cells("const_mul", {"C": 6, "W": 32}, "xc7")
    assert not any(c.startswith("DSP") for c in cells) and cells.get("CARRY4", 0) > 0, cells


# --- cocotb: the checkers (run inside the simulator) -----------------------------------------------

try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, Timer
except ImportError:  # pragma: no cover - the sweeps above skip through toolchain()
    cocotb = None

from montlab.ref import drmmm  # noqa: E402


def _vectors(job: dict[str, Any], w: int, k: int) -> list[tuple[int, ...]]:
    """All k-tuples of w-bit words (exhaustive), or the edge words and random ones."""
    if job["mode"] == "exhaustive":
        return list(itertools.product(range(1 << w), repeat=k))
    rng = random.Random(job["seed"])
    edges = edge_words(w)
    out = [tuple(e for _ in range(k)) for e in edges]
    out += [tuple(word(rng, w) for _ in range(k)) for _ in range(job["count"])]
    return out


@cocotb_test
async def const_mul_vectors(dut: Any) -> None:
    job = load_job()
    c, w = job["params"]["C"], job["params"]["W"]
    chk = Checker(dut, f"const_mul C={c} W={w} {job['mode']}")
    for (x,) in _vectors(job, w, 1):
        dut.x_i.value = x
        await Timer(1, "ns")
        y = int(dut.y_o.value)
        chk.check(y == c * x % (1 << w), f"x={x:#x}: y={y:#x}, want {c * x % (1 << w):#x}")
    chk.done()


@cocotb_test
async def csa_3to2_vectors(dut: Any) -> None:
    job = load_job()
    w = job["params"]["W"]
    mask = (1 << w) - 1
    chk = Checker(dut, f"csa_3to2 W={w} {job['mode']}")
    for a, b, c in _vectors(job, w, 3):
        dut.a_i.value, dut.b_i.value, dut.c_i.value = a, b, c
        await Timer(1, "ns")
        s, cy = int(dut.s_o.value), int(dut.c_o.value)
        fs, fc = drmmm.full_adder(a, b, c)  # untruncated: fs + fc = a + b + c
        ok = s == fs and cy == fc & mask and (s + cy - a - b - c) & mask == 0
        chk.check(
            ok, f"a={a:#x} b={b:#x} c={c:#x}: s={s:#x} c={cy:#x}, want {fs:#x} {fc & mask:#x}"
        )
    chk.done()


@cocotb_test
async def counter63_vectors(dut: Any) -> None:
    job = load_job()
    w, form = job["params"]["W"], job["params"]["FORM"]
    chk = Checker(dut, f"counter63 W={w} FORM={form} {job['mode']}")
    ports = [dut.x0_i, dut.x1_i, dut.x2_i, dut.x3_i, dut.x4_i, dut.x5_i]
    for xs in _vectors(job, w, 6):
        for port, x in zip(ports, xs):
            port.value = x
        await Timer(1, "ns")
        got = (int(dut.w0_o.value), int(dut.w1_o.value), int(dut.w2_o.value))
        want = drmmm.compress_6_3(*xs)  # Fig. 8(a), whole words
        cols = []
        for j in range(w):  # eq. (31), one column at a time
            o0, o1, o2 = drmmm.counter_6_3(tuple((x >> j) & 1 for x in xs))  # type: ignore[arg-type]
            bits = ((got[0] >> j) & 1, (got[1] >> (j + 1)) & 1, (got[2] >> (j + 2)) & 1)
            if bits != (o0, o1, o2):
                cols.append(j)
        ok = got == want and not cols and sum(got) == sum(xs)
        chk.check(
            ok,
            f"x={[hex(x) for x in xs]}: {[hex(g) for g in got]}, want "
            f"{[hex(v) for v in want]}, columns {cols} differ from eq. (31)",
        )
    chk.done()


@cocotb_test
async def csa_tree_vectors(dut: Any) -> None:
    job = load_job()
    p = job["params"]
    w, nin, nout, cell, eac, reg = (p[k] for k in ("W", "NIN", "NOUT", "CELL", "EAC", "REG_EVERY"))
    stages = p.get("STAGES", 0)
    mask, mod = (1 << w) - 1, tree_modulus(w, eac)
    lat = tree_latency(nin, nout, cell, reg, stages)
    lat_dut = int(dut.LATENCY.value)
    assert lat_dut == lat, f"LATENCY = {lat_dut}, the rule gives {lat}"
    levels = len(tree_counts(nin, nout, cell)) - 1
    assert int(dut.LEVELS.value) == levels, f"LEVELS = {int(dut.LEVELS.value)}, want {levels}"
    chk = Checker(dut, f"csa_tree {p} {job['mode']} (LEVELS {levels}, LATENCY {lat})")

    def check(ins: tuple[int, ...], out: int, when: str) -> None:
        outs = [(out >> (j * w)) & mask for j in range(nout)]
        if nin <= nout:
            ok = outs == [*ins, *[0] * (nout - nin)]
        else:
            ok = (sum(outs) - sum(ins)) % mod == 0
        chk.check(ok, f"{when} in={[hex(x) for x in ins]} out={[hex(x) for x in outs]}")

    def pack(ins: tuple[int, ...]) -> int:
        return sum(x << (j * w) for j, x in enumerate(ins))

    vecs = _vectors(job, w, nin)
    if lat == 0:
        for ins in vecs:
            dut.in_i.value = pack(ins)
            await Timer(1, "ns")
            check(ins, int(dut.out_o.value), "")
    else:
        # A new input at every falling edge; the input driven at falling edge i is taken by
        # the first register rank at the next rising edge and shows on out_o LATENCY rising
        # edges after it was driven, i.e. at falling edge i + LATENCY (read before driving).
        Clock(dut.clk_i, CLOCK_NS, unit="ns").start()
        for i in range(len(vecs) + lat):
            await FallingEdge(dut.clk_i)
            if i >= lat:
                check(vecs[i - lat], int(dut.out_o.value), f"cycle {i}:")
            if i < len(vecs):
                dut.in_i.value = pack(vecs[i])
    chk.done()


def ass_ops(job: dict[str, Any], w: int) -> list[tuple[int, int, int, int]]:
    """(a, b, cin, m) with a + b + cin < 2^w: all of them, or edge cases and random ones."""
    top = 1 << w
    if job["mode"] == "exhaustive":
        return [
            (a, b, c, m)
            for a, b, c in itertools.product(range(top), range(top), (0, 1))
            if a + b + c < top
            for m in range(top)
        ]
    rng = random.Random(job["seed"])
    out = []
    for i in range(job["count"]):
        s = word(rng, w)
        cin = rng.getrandbits(1) if s else 0
        a = rng.randint(0, s - cin)
        ms = [word(rng, w), s, s + 1, s - 1, (s + 1) // 2, s // 2 + 1, 0, top - 1]
        m = ms[i % len(ms)] if i < 4 * len(ms) else rng.choice(ms)
        out.append((a, s - cin - a, cin, min(max(m, 0), top - 1)))
    return out


class AddSubSelBench:
    """Clock, reset, and a cycle loop on falling edges: the monitor reads the outputs (settled
    after the rising edge before), then the driver sets the inputs for the next rising edge. An
    operation driven at falling edge t is taken at the next rising edge (edge 0) and its result
    shows after edge F, i.e. at falling edge t + F + 1."""

    def __init__(self, dut: Any) -> None:
        self.dut = dut
        p = load_job()["params"]
        self.w, self.f, self.serial = p["W"], p["F"], p["SERIAL"]
        self.t = 0  # falling edges seen
        self.last_z: int | None = None

    async def start(self) -> None:
        dut = self.dut
        dut.rst_ni.value = 0
        dut.valid_i.value = 0
        dut.a_i.value = dut.b_i.value = dut.m_i.value = dut.cin_i.value = 0
        Clock(dut.clk_i, CLOCK_NS, unit="ns").start()
        await self.fall()
        await self.fall()
        dut.rst_ni.value = 1

    async def fall(self) -> None:
        await FallingEdge(self.dut.clk_i)
        self.t += 1

    def drive(self, op: tuple[int, int, int, int] | None, valid: int, rng: random.Random) -> None:
        dut = self.dut
        if op is None:  # operands that must not matter
            w = self.w
            op = (rng.getrandbits(w), rng.getrandbits(w), rng.getrandbits(1), rng.getrandbits(w))
        dut.a_i.value, dut.b_i.value, dut.cin_i.value, dut.m_i.value = op
        dut.valid_i.value = valid

    def outputs(self) -> tuple[int, int, int]:
        d = self.dut
        return int(d.valid_o.value), int(d.z_o.value), int(d.busy_o.value)


@cocotb_test
async def add_sub_sel_stream(dut: Any) -> None:
    """Every operation of the job, checked value and latency; pipelined: back to back for the
    first half, then with random idle cycles; serial: a new one as soon as busy_o is low (or
    after a random idle cycle), and operands with valid_i high while busy_o is high, which
    must be ignored. z_o must hold its value between results."""
    job = load_job()
    bench = AddSubSelBench(dut)
    w, f, serial = bench.w, bench.f, bench.serial
    rng = random.Random(job["seed"] ^ 0x5A5)
    ops = ass_ops(job, w)
    chk = Checker(dut, f"add_sub_sel {job['params']} {job['mode']}, {len(ops)} operations")
    await bench.start()
    pending: list[tuple[int, int, tuple[int, int, int, int]]] = []  # (t driven, want, op)
    nxt, ignored = 0, 0
    limit = len(ops) * (f + 1) * 3 + 4 * f + 50
    for _ in range(limit):
        await bench.fall()
        t = bench.t
        valid, z, busy = bench.outputs()
        if valid:
            if not pending:
                chk.check(False, f"t={t}: valid_o with no operation in flight")
            else:
                t0, want, op = pending.pop(0)
                chk.check(
                    z == want and t - t0 == f + 1,
                    f"t={t}: op {[hex(v) for v in op]} driven at {t0}: z={z:#x} after "
                    f"{t - t0 - 1} edges, want {want:#x} after {f}",
                )
            bench.last_z = z
        else:
            if pending and t - pending[0][0] >= f + 1:
                t0, want, op = pending.pop(0)
                chk.check(False, f"t={t}: no result for op {[hex(v) for v in op]} driven at {t0}")
            if bench.last_z is not None:
                chk.check(z == bench.last_z, f"t={t}: z_o moved to {z:#x} without valid_o")
        # busy_o: high exactly in cycles 0..F-2 of a serial operation (falling edges t0 + 1 to
        # t0 + F - 1 after the one that drove it), never in pipelined mode.
        want_busy = int(serial and any(1 <= t - t0 <= f - 1 for t0, _, _ in pending))
        chk.check(busy == want_busy, f"t={t}: busy_o = {busy}, want {want_busy}")
        if nxt == len(ops) and not pending:
            break
        gap = nxt < len(ops) and (serial or nxt >= len(ops) // 2) and rng.random() < 0.2
        if nxt == len(ops) or gap:
            bench.drive(None, 0, rng)
        elif serial and busy:
            bench.drive(None, rng.getrandbits(1), rng)  # ignored even when valid_i is high
            ignored += 1
        else:
            op = ops[nxt]
            nxt += 1
            bench.drive(op, 1, rng)
            pending.append((t, add_sub_sel_expect(w, *op), op))
    else:
        chk.check(
            False,
            f"timed out after {limit} cycles: {len(ops) - nxt} operations not "
            f"driven, {len(pending)} results pending",
        )
    if serial and f > 1:
        chk.check(ignored > 0, "no valid_i was presented while busy_o was high")
    dut._log.info(f"{ignored} cycles with operands driven while busy_o was high")
    chk.done()


@cocotb_test
async def add_sub_sel_reset(dut: Any) -> None:
    """rst_ni low in the middle of operations abandons them: valid_o, busy_o and z_o drop at
    once (asynchronous reset) and no result appears later; the next operation is exact."""
    job = load_job()
    bench = AddSubSelBench(dut)
    w, f = bench.w, bench.f
    rng = random.Random(job["seed"] ^ 0xA5A)
    ops = ass_ops(job, w)
    chk = Checker(dut, f"add_sub_sel {job['params']} reset mid-operation")
    await bench.start()
    for k, op in enumerate(ops):
        # Take one operation (pipelined: up to F of them, back to back).
        burst = 1 if bench.serial else rng.randint(1, f)
        for _ in range(burst):
            bench.drive(op, 1, rng)
            await bench.fall()
        bench.drive(None, 0, rng)
        # The first result is due F + 1 falling edges after it was driven: reset before that.
        for _ in range(rng.randint(0, f - burst)):
            await bench.fall()
        valid, _, busy = bench.outputs()
        chk.check(valid == 0, f"trial {k}: valid_o before the reset, too early")
        dut.rst_ni.value = 0
        await Timer(1, "ns")
        valid, z, busy = bench.outputs()
        chk.check((valid, z, busy) == (0, 0, 0), f"trial {k}: after rst_ni fell: {valid, z, busy}")
        await bench.fall()
        dut.rst_ni.value = 1
        for _ in range(2 * f + 3):
            await bench.fall()
            valid, z, busy = bench.outputs()
            chk.check((valid, z, busy) == (0, 0, 0), f"trial {k}: a result after the reset")
        # One operation end to end: its result after exactly F edges.
        want = add_sub_sel_expect(w, *op)
        bench.drive(op, 1, rng)
        t0 = bench.t
        await bench.fall()
        bench.drive(None, 0, rng)
        for _ in range(f + 1):
            valid, z, _ = bench.outputs()
            if valid:
                break
            await bench.fall()
        valid, z, _ = bench.outputs()
        chk.check(
            valid == 1 and z == want and bench.t - t0 == f + 1,
            f"trial {k}: after reset z={z:#x} valid={valid} at {bench.t - t0}, want "
            f"{want:#x} at {f + 1}",
        )
        await bench.fall()
    chk.done()


@cocotb_test
async def cla_add_stream(dut: Any) -> None:
    """One operation per falling edge; the operation driven at falling edge i is taken at the
    next rising edge and its sum shows 2 rising edges later, at falling edge i + 2."""
    job = load_job()
    w = job["params"]["W"]
    chk = Checker(dut, f"cla_add {job['params']} {job['mode']}")
    ops: list[tuple[int, ...]] = []
    pairs = list(_vectors(job, w, 2))
    if job["mode"] != "exhaustive":  # every pair of edge words (all ones + 0 + 1 ripples through)
        pairs += list(itertools.product(edge_words(w), repeat=2))
    for a, b in pairs:
        ops += [(a, b, 0), (a, b, 1)]
    Clock(dut.clk_i, CLOCK_NS, unit="ns").start()
    for i in range(len(ops) + 2):
        await FallingEdge(dut.clk_i)
        if i >= 2:
            a, b, cin = ops[i - 2]
            got = int(dut.cout_o.value) << w | int(dut.s_o.value)
            chk.check(got == a + b + cin, f"{a:#x} + {b:#x} + {cin}: got {got:#x}")
        if i < len(ops):
            dut.a_i.value, dut.b_i.value, dut.cin_i.value = ops[i]
    chk.done()
