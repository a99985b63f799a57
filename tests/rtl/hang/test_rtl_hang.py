"""A design that never raises done_o fails within its cycle timeout; it does not hang the run.

The design is test-only (``mwr2mm_arch2_hang.v`` here): Architecture 2 with done_o tied low. Its
spec is a subclass of Architecture 2's that names these sources; the flow passes it to the
simulator as ``module:Class``.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from montlab.hw.specs.base import RTL_DIR
from montlab.hw.specs.mwr2mm_arch2 import Mwr2mmArch2
from rtl_helpers import toolchain

# The cocotb tests of this top (cocotb collects them from this module's namespace).
from rtl_scenarios import checked_vectors  # noqa: F401

HERE = Path(__file__).resolve().parent


class HangSpec(Mwr2mmArch2):
    name = "mwr2mm_arch2_hang"

    def files(self) -> list[Path]:
        return [
            RTL_DIR / "mwr2mm_arch2" / "mwr2mm_arch2_pe.v",
            RTL_DIR / "mwr2mm_arch2" / "mwr2mm_arch2.v",
            HERE / "mwr2mm_arch2_hang.v",
        ]


@pytest.mark.parametrize("module", ["montlab.hw.sim_vectors", "test_rtl_hang"])
def test_dead_design_times_out(rng: random.Random, module: str) -> None:
    from montlab.hw import flow

    toolchain()
    spec = HangSpec()
    ap = spec.resolve({"n": 16, "w": 4})
    vecs = flow.make_vectors(spec, ap, 2, rng.getrandbits(32), edge=False)
    t0 = time.monotonic()
    with pytest.raises(flow.HwError, match="no done_o within 40 cycles"):
        flow.simulate(spec, ap, vecs, trace=0, test_module=module, timeout_cycles=40)
    assert time.monotonic() - t0 < 120
