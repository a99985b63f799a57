"""mwr2mm_tk: Tenca-Koc pipeline (ref model mwr2mm), simulated with cocotb against the reference model.

The pytest functions sweep the HDL parameters through montlab.hw.flow; the cocotb tests, shared
by every top, come from rtl_scenarios (driver, monitor, model and checker: montlab.hw.tb).
"""

from __future__ import annotations

import random

import pytest
from rtl_helpers import run_rtl, scaled

# The cocotb tests of this top (cocotb collects them from this module's namespace).
from rtl_scenarios import checked_vectors, reset_mid_operation, start_while_busy  # noqa: F401

ARCH = "mwr2mm_tk"
MODULE = "test_rtl_mwr2mm_tk"


@pytest.mark.parametrize(
    "sets",
    [
        pytest.param({"n": 16, "w": 4}, id="16, 4"),
        pytest.param({"n": 64, "w": 16}, id="64, 16"),
        pytest.param({"n": 64, "w": 16, "p": 5}, id="64, 16, p = P_max + 2"),
    ],
)
def test_rtl_mwr2mm_tk(rng: random.Random, sets: dict[str, int]) -> None:
    run_rtl(ARCH, sets, MODULE, rng, scaled(40))


@pytest.mark.rtl_wide
@pytest.mark.parametrize("n", [256, 1024, 2048])
def test_rtl_mwr2mm_tk_wide(rng: random.Random, n: int) -> None:
    run_rtl(ARCH, {"n": n, "w": 16}, MODULE, rng, scaled(3), trace=1, edge=False)
