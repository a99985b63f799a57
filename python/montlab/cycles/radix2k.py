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

from montlab.cycles import CycleReport, with_paper
from montlab.errors import ParameterError

ID = "radix2k"
DEFAULT_K = 16


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    if bits < 2:
        raise ParameterError(f"{ID}: the modulus width must be >= 2 bits, got {bits}")
    k = params.get("k")
    k = DEFAULT_K if k is None else k
    if k < 1:
        raise ParameterError(f"{ID}: k = {k} is illegal: it must be >= 1")
    n = params.get("n")
    n = bits if n is None else n
    if n < bits:
        raise ParameterError(f"{ID}: n = {n} is narrower than the {bits}-bit modulus")
    d = -(-n // k)
    resolved = dict(params, k=k, n=n)
    rows = [
        with_paper(ID, "iterations", "d = ceil(n/k)", d, d, resolved, note="one digit a cycle"),
        with_paper(
            ID, "cycles", "d + 1", d + 1, d + 1, resolved, note="d iterations + 1 final subtraction"
        ),
    ]
    return CycleReport(ID, bits, resolved, rows)
