"""The cocotb tests every top module runs (driver, monitor, model and checker are
montlab.hw.tb). Each per-module test file imports them, which is how cocotb finds them there.
"""

from __future__ import annotations

import cocotb
from cocotb.handle import HierarchyObject
from cocotb.triggers import FallingEdge, RisingEdge
from cocotb.utils import get_sim_time
from montlab.hw.tb import job_bench, run_job


@cocotb.test()
async def checked_vectors(dut: HierarchyObject) -> None:
    """Every vector of the job, back to back (start_i in the done_o cycle); the first ones are
    also checked round by round against the model's trace."""
    bench = await run_job(dut)
    assert not bench.failures, bench.failures[:3]


def _last(job: dict) -> tuple[int, int, int]:
    m, x, y, _ = job["vectors"][-1]
    return int(m, 16), int(x, 16), int(y, 16)


@cocotb.test()
async def start_while_busy(dut: HierarchyObject) -> None:
    """A start_i pulse with other operands during an operation is ignored."""
    job, bench = await job_bench(dut)
    m, x, y = _last(job)
    want = bench.model.expect(m, x, y)
    await bench.start(m, x, y)
    t0 = get_sim_time("ns") - bench.clock_ns / 2
    await bench.wait_cycles(2)
    dut.x_i.value, dut.y_i.value = y, x ^ 1 if x ^ 1 < m else 0
    dut.start_i.value = 1
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    dut.start_i.value = 0
    res = await bench.monitor.wait_done(t0, None)
    assert res.z == want, f"z = {res.z:#x}, want {want:#x}"
    assert res.cycles == bench.expected_cycles, f"{res.cycles} cycles, want {bench.expected_cycles}"


@cocotb.test()
async def reset_mid_operation(dut: HierarchyObject) -> None:
    """rst_ni in the middle of an operation abandons it; the next operation is exact."""
    job, bench = await job_bench(dut)
    m, x, y = _last(job)
    await bench.start(m, x, y)
    await bench.wait_cycles(max(1, bench.expected_cycles // 2))
    assert int(dut.busy_o.value), "not busy in the middle of an operation"
    await bench.reset()
    await bench.wait_cycles(bench.expected_cycles)
    assert not int(dut.done_o.value) and not int(dut.busy_o.value), "done after reset"
    m2, x2, y2 = int(job["vectors"][0][0], 16), int(job["vectors"][0][1], 16), y % m
    y2 = y2 % m2
    assert await bench.op(m2, x2, y2, "after reset", trace=True), bench.failures[-1:]
