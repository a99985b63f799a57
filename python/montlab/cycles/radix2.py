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

from montlab.cycles import CycleReport, with_paper
from montlab.errors import ParameterError

ID = "radix2"


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    if bits < 2:
        raise ParameterError(f"{ID}: the modulus width must be >= 2 bits, got {bits}")
    walter = bool(params.get("walter") or 0)
    n = params.get("n")
    if n is None:
        n = bits + (2 if walter else 0)
    if n < bits:
        raise ParameterError(f"{ID}: n = {n} is narrower than the {bits}-bit modulus")
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
