"""mwr2mm_arch2: Architecture 2 (ref model mwr2mm_arch2), simulated with cocotb against the reference model.

The pytest functions sweep the HDL parameters through montlab.hw.flow; the cocotb tests below
run in the simulator (driver, monitor, model and checker: montlab.hw.tb and rtl_scenarios).
"""

from __future__ import annotations

import random

import cocotb
import pytest
import rtl_scenarios
from cocotb.handle import HierarchyObject
from rtl_helpers import run_rtl, scaled

ARCH = "mwr2mm_arch2"
MODULE = "test_rtl_mwr2mm_arch2"


@cocotb.test()
async def checked_vectors(dut: HierarchyObject) -> None:
    await rtl_scenarios.checked_vectors(dut)


@cocotb.test()
async def start_while_busy(dut: HierarchyObject) -> None:
    await rtl_scenarios.start_while_busy(dut)


@cocotb.test()
async def reset_mid_operation(dut: HierarchyObject) -> None:
    await rtl_scenarios.reset_mid_operation(dut)


@pytest.mark.parametrize(
    "sets",
    [
        pytest.param({"n": 16, "w": 4}, id="16, 4"),
        pytest.param({"n": 64, "w": 16}, id="64, 16"),
        pytest.param({"n": 17, "w": 16}, id="17, 16, e = 2"),
    ],
)
def test_rtl_mwr2mm_arch2(rng: random.Random, sets: dict[str, int]) -> None:
    run_rtl(ARCH, sets, MODULE, rng, scaled(40))


@pytest.mark.rtl_wide
@pytest.mark.parametrize("n", [256, 1024, 2048])
def test_rtl_mwr2mm_arch2_wide(rng: random.Random, n: int) -> None:
    run_rtl(ARCH, {"n": n, "w": 16}, MODULE, rng, scaled(3), trace=1, edge=False)
