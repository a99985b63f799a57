"""Cycle model of mwr2mm_arch2: Huang et al. Architecture 2 (an analytic model, not a measurement).

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Sec. 4 (Fig. 8; n + ceil((n+1)/w) - 1 cycles);
SPEC 5.5. Quoted figures: ISM3 Table IV (3264 for n = 3072, w = 16; 3168 for w = 32).

Row "cycles": the ASAP schedule of the Fig. 8 graph on e PEs (PE j runs word j of every round;
:func:`montlab.cycles.schedule.arch2`), task (i, j) in cycle i + j; closed form n + e - 1. The
reference model :mod:`montlab.ref.mwr2mm_arch2` executes its tasks in this same schedule.
bits is the modulus width; n = params["n"] when given, else bits.
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab.cycles import CycleReport, operand_width, schedule, with_paper
from montlab.ref.mwr2mm import word_count

ID = "mwr2mm_arch2"


def closed_form(n: int, e: int) -> int:
    """n + e - 1."""
    return n + e - 1


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    n = operand_width(ID, bits, params)
    w = params["w"]
    e = word_count(n, w)
    sched = schedule.arch2(n, e)
    used = {"n": n, "w": w}
    rows = [
        with_paper(
            ID,
            "cycles",
            "n + e - 1",
            sched.makespan,
            closed_form(n, e),
            used,
            printed=n + e - 1,
            printed_source="Huang et al. 2011, Sec. 4: n + e - 1",
        )
    ]
    return CycleReport(ID, bits, dict(params, n=n), rows)
