"""Cycle figures of ntt64: the paper's 2030 cycles per multiplication, not derivable from its text.

Citation: NTT64 paper, Table I; SPEC 4.5. The text gives no schedule and two of its throughput
statements conflict, so there is no model: the single row "cycles" has no model value and shows
the printed figure for the 8192-bit design (b = 16) as "not derivable".
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab import spectral_params as sp
from montlab.cycles import CycleReport, paper_only

ID = "ntt64"


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    pset = sp.ntt64_set(bits, params.get("b"))
    used = {"b": pset.b}
    return paper_only(ID, bits, params, used, "none: the paper gives no schedule (SPEC 4.5)")
