"""Cycle model of radix2 (bit-serial radix-2 Montgomery): an analytic model, not a measurement.

Citation: Huang et al. 2011, Algorithm 1; SPEC 5.1 (the algorithm) and SPEC 3.4 (the same
counting rule as the digit-serial DRMMM models: one loop iteration per cycle).

Model: one iteration (one bit x_i) per cycle, n iterations, n = bitlen(N) (walter = 0) or
bitlen(N) + 2 (walter = 1) unless given. The final conditional subtraction is counted as one more
cycle; Walter's variant has none. No paper prints a cycle figure for this design.

Rows: "iterations" = n; "cycles" = n + 1 (walter = 0) or n (walter = 1).
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab import registry
from montlab.cycles import CycleReport, operand_width, with_paper

ID = "radix2"


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    params = registry.resolve_params(ID, params)
    walter = bool(params["walter"])
    if params["n"] is None and walter:
        params["n"] = bits + 2
    n = operand_width(ID, bits, params)
    resolved = dict(params, n=n, walter=int(walter))
    sub = 0 if walter else 1
    rows = [
        with_paper(ID, "iterations", "n", n, n, resolved, note="one bit of x per iteration"),
        with_paper(
            ID,
            "cycles",
            "n" if walter else "n + 1",
            n + sub,
            n + sub,
            resolved,
            note="no final subtraction (Walter)" if walter else "n iterations + 1 subtraction",
        ),
    ]
    return CycleReport(ID, bits, resolved, rows)
