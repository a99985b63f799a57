"""drmmm: DRMMM Algorithm 3 (ref model drmmm, alg = 3), simulated with cocotb against the model.

The pytest functions sweep the HDL parameters through montlab.hw.flow; the cocotb tests, shared
by every top, come from rtl_scenarios. The erratum variants (printed loop, stage 1 without the
carries) must fail, and do so on the value, not on the timing; the paper's register width
(g = 0), one bit short for Algorithm 2 (erratum 7), is enough for the carry-save words.
"""

from __future__ import annotations

import random

import pytest
from rtl_helpers import SEED, random_vectors, run_rtl, scaled, simulate

# The cocotb tests of this top (cocotb collects them from this module's namespace).
from rtl_scenarios import checked_vectors, reset_mid_operation, start_while_busy  # noqa: F401

ARCH = "drmmm"
MODULE = "test_rtl_drmmm"


@pytest.mark.parametrize(
    "sets",
    [
        pytest.param({"n": 16, "k": 2, "t": 1}, id="16, k2 t1"),
        pytest.param({"n": 16, "k": 2, "t": 8}, id="16, k2 t8, q pipeline longer than its tree"),
        pytest.param({"n": 64, "k": 4, "t": 2}, id="64, k4 t2", marks=pytest.mark.slow),
        pytest.param({"n": 64, "k": 2, "t": 1, "cell": 0}, id="64, k2 t1, 3:2 rows"),
        pytest.param({"n": 64, "k": 8, "t": 3, "cell": 2, "f": 3}, id="64, k8 t3, Fig 8a, f3"),
        # 90 s; table mode stays in CI through the k8 t2 win2 set below
        pytest.param(
            {"n": 64, "k": 16, "t": 4, "pp": 1}, id="64, k16 t4, table", marks=pytest.mark.slow
        ),
        pytest.param({"n": 67, "k": 4, "t": 3, "f": 2, "serial": 1}, id="67, k4 t3, serial f2"),
        pytest.param({"n": 67, "k": 8, "t": 2, "pp": 1, "win": 2}, id="67, k8 t2, table win2"),
    ],
)
def test_rtl_drmmm(rng: random.Random, sets: dict[str, int]) -> None:
    res = run_rtl(ARCH, sets, MODULE, rng, scaled(16))
    assert res["cycles"] == -(-sets["n"] // sets["k"]) + sets["t"] + sets.get("f", 1)
    if sets.get("pp"):  # a table entry is written only when it changes (entry 0 never does)
        loads = res["load_cycles"]
        assert max(loads if isinstance(loads, list) else [loads]) == 1 << sets.get("win", 4)


def test_erratum2_printed_loop_fails(rng: random.Random) -> None:
    """d+t+1 iterations return A*B*r^-(d+1): wrong products at the expected cycle count."""
    from montlab.ref import drmmm

    sets = {"n": 64, "k": 4, "t": 2, "printed_loop": 1}
    vecs = random_vectors(ARCH, sets, scaled(12), rng.getrandbits(32))
    res = simulate(ARCH, sets, vecs, trace=2)
    assert res["mismatches"] >= len(vecs) - 1, res
    assert res["cycles"] == 16 + 2 + 1 + 1  # the extra iteration, on schedule
    # What the variant returns is the printed loop's A*B*r^-(d+1) (erratum 2).
    v = vecs[0]
    cfg = drmmm.configure(v.m, {"n": 64, "k": 4, "t": 2, "alg": 3})
    want = drmmm.algorithm3(cfg, v.x, v.y, iterations=cfg.d + cfg.t + 1).z
    assert want == v.x * v.y * pow(2, -4 * 17, v.m) % v.m
    assert f"want={drmmm.mont_mul(cfg, v.x, v.y):#x}" in res["failures"][0]


def test_erratum3_stage1_without_carries_fails(rng: random.Random) -> None:
    sets = {"n": 64, "k": 4, "t": 2, "q_carries": 0}
    vecs = random_vectors(ARCH, sets, scaled(12), rng.getrandbits(32))
    res = simulate(ARCH, sets, vecs, trace=2)
    assert res["mismatches"] >= len(vecs) // 2, res


def test_erratum7_width_is_enough_for_the_carry_save_words(rng: random.Random) -> None:
    """Erratum 7 (docs/errata.md): Algorithm 2's single register needs kt+|M|+k+1 bits; for
    M = 2^64-1, A = B = M-1, k = 4, t = 2 the sum reaches 77 bits. The carry-save triplet does
    not: with g = 0 (each word kt+|M|+k bits, the paper's width with f = 0) that product and
    random ones stay exact, state probes included, because no single word reaches 2^(kt+|M|+k)
    (docs/errata.md, DRMMM 7, carry-save refinement)."""
    from montlab.hw.flow import Vector

    m = (1 << 64) - 1
    sets = {"n": 64, "k": 4, "t": 2, "g": 0}
    vec = [Vector(m, m - 1, m - 1, "erratum 7"), Vector(m, m - 2, m - 1, "erratum 7")]
    res = simulate(
        ARCH, sets, vec + random_vectors(ARCH, sets, scaled(40), rng.getrandbits(32)), trace=2
    )
    assert res["mismatches"] == 0 and res["probed"] > 0, res


@pytest.mark.rtl_wide
@pytest.mark.parametrize(
    "k, t", [(16, 4), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6), (8, 3)], ids=lambda v: str(v)
)
def test_rtl_drmmm_1024(rng: random.Random, k: int, t: int) -> None:
    print(f"[rtl] MONTLAB_SEED={SEED}")
    run_rtl(ARCH, {"n": 1024, "k": k, "t": t}, MODULE, rng, scaled(3), trace=1, edge=False)
