"""mwr2mm_arch1: Architecture 1 (ref model mwr2mm_arch1), simulated with cocotb against the reference model.

The pytest functions sweep the HDL parameters through montlab.hw.flow; the cocotb tests, shared
by every top, come from rtl_scenarios (driver, monitor, model and checker: montlab.hw.tb).
"""

from __future__ import annotations

import random

import pytest
from rtl_helpers import run_rtl, scaled

# The cocotb tests of this top (cocotb collects them from this module's namespace).
from rtl_scenarios import checked_vectors, reset_mid_operation, start_while_busy  # noqa: F401

ARCH = "mwr2mm_arch1"
MODULE = "test_rtl_mwr2mm_arch1"


@pytest.mark.parametrize(
    "sets",
    [
        pytest.param({"n": 16, "w": 4}, id="16, 4"),
        pytest.param({"n": 16, "w": 4, "p": 2}, id="16, 4, queue p = 2"),
        pytest.param({"n": 64, "w": 16}, id="64, 16"),
        pytest.param({"n": 64, "w": 16, "p": 3}, id="64, 16, queue p = 3"),
    ],
)
def test_rtl_mwr2mm_arch1(rng: random.Random, sets: dict[str, int]) -> None:
    run_rtl(ARCH, sets, MODULE, rng, scaled(40))


@pytest.mark.rtl_wide
@pytest.mark.parametrize("n", [256, 1024, 2048])
def test_rtl_mwr2mm_arch1_wide(rng: random.Random, n: int) -> None:
    run_rtl(ARCH, {"n": n, "w": 16}, MODULE, rng, scaled(3), trace=1, edge=False)
