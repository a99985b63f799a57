"""cocotb test module of ``montlab rtl sim``: run the job's vectors back to back and summarize.

Contract: reads the job named by MONTLAB_HW_JOB (written by :func:`montlab.hw.flow.simulate`),
runs every vector through :class:`montlab.hw.tb.Bench` (the first ``trace`` with the per-round
probes), and writes {"vectors", "mismatches", "cycles", "cycle_model", "load_cycles", "traced",
"probed", "failures"}
to the job's result file. Mismatches are counted, not raised: the caller decides.
"""

from __future__ import annotations

import cocotb
from cocotb.handle import HierarchyObject

from montlab.hw.tb import run_job


@cocotb.test()
async def run_vectors(dut: HierarchyObject) -> None:
    await run_job(dut)
