"""Cycle model of mwr4mm: the radix-4 Architecture 2 (an analytic model, not a measurement).

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Sec. 5 ("n/2 + e - 1 clock cycles"); SPEC 5.5.

Row "cycles": the ASAP schedule of the Architecture-2 graph (Fig. 8, the four-branch PE has the
same dependencies as the two-branch one) with ceil(n/2) rounds on e PEs; closed form
ceil(n/2) + e - 1 (the paper's n/2 + e - 1, with the odd-n round count of SPEC 5.5).
w must be even (as in the reference model). The four-branch PE selects with the two LSBs of the
next word, and PE 0 takes q^(i) from bits 3..2 of its unshifted word: for w >= 4 neither depends
on the assumed MSBs. For w = 2 they do, and the row says so.
bits is the modulus width; n = params["n"] when given, else bits.
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab.cycles import CycleReport, operand_width, schedule, with_paper
from montlab.errors import ParameterError
from montlab.ref.mwr2mm import word_count

ID = "mwr4mm"


def closed_form(n: int, e: int) -> int:
    """ceil(n/2) + e - 1."""
    return -(-n // 2) + e - 1


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    n = operand_width(ID, bits, params)
    w = params["w"]
    if w % 2:
        raise ParameterError(f"{ID}: w = {w} is illegal: the radix-4 digit width 2 must divide w")
    e = word_count(n, w)
    rounds = -(-n // 2)
    sched = schedule.arch2(rounds, e)
    used = {"n": n, "w": w}
    note = ""
    if w < 4:
        # The select bits (the two LSBs of the next word) and q^(i) (bits 3..2 of the unshifted
        # word 0) are independent of the assumed MSBs only when w >= 4.
        note = "w = 2: the selects would chain through the PEs within a cycle; counted as w >= 4"
    if n % 2:
        odd = (
            "the printed n/2 + e - 1 is fractional for odd n: ceil(n/2) rounds are needed "
            "(SPEC 5.6 erratum 3); shown with floor(n/2)"
        )
        note = f"{note}; {odd}" if note else odd
    rows = [
        with_paper(
            ID,
            "cycles",
            "ceil(n/2) + e - 1",
            sched.makespan,
            closed_form(n, e),
            used,
            note,
            printed=n // 2 + e - 1,
            printed_source="Huang et al. 2011, Sec. 5: n/2 + e - 1",
        )
    ]
    return CycleReport(ID, bits, dict(params, n=n), rows)
