"""Cycle model of radix2k (DRMMM Algorithm 1): an analytic model, not a measurement.

Citation: DRMMM paper, Algorithm 1 and eq. (28) (d serial iterations plus the final reduction);
SPEC 3.1 and 3.4.

Model: one iteration (one radix-2^k digit a_i) per cycle, d = ceil(n/k) iterations, n = bitlen(N)
unless given. The final conditional subtraction is counted as one more cycle (eq. (28)'s T_red),
the same rule as the DRMMM model's d + t + 1. No paper prints a cycle figure for Algorithm 1.

Rows: "iterations" = d; "cycles" = d + 1.
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab import registry
from montlab.cycles import CycleReport, operand_width, with_paper

ID = "radix2k"


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    params = registry.resolve_params(ID, params)
    k = params["k"]
    assert k is not None
    n = operand_width(ID, bits, params)
    d = -(-n // k)
    resolved = dict(params, k=k, n=n)
    rows = [
        with_paper(ID, "iterations", "d = ceil(n/k)", d, d, resolved, note="one digit a cycle"),
        with_paper(
            ID, "cycles", "d + 1", d + 1, d + 1, resolved, note="d iterations + 1 final subtraction"
        ),
    ]
    return CycleReport(ID, bits, resolved, rows)
