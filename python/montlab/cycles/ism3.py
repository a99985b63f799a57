"""Cycle figures of ism3: the paper's Table III cycles, which cannot be derived from its text.

Citation: ISM3 paper, Table III (and Table IV); SPEC 2.6. The text gives no schedule or formula,
so there is no model: the single row "cycles" has no model value and shows the printed figure
for the chosen set as "not derivable". The only consistent hint is 1787 - 1775 = 12 = 3 x (15 - 11)
(same d = 128, Karatsuba latency 15 instead of 11, three component-wise passes).
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab import spectral_params as sp
from montlab.cycles import CycleReport, paper_only

ID = "ism3"


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    if bits < 2:
        raise sp.ParameterError(f"{ID}: the modulus width must be >= 2 bits, got {bits}")
    pset = sp.ism3_resolve(bits, params.get("v"), params.get("d"), params.get("mu"))
    used = {"v": 1 << pset.t, "d": pset.d, "mu": pset.mu}
    return paper_only(ID, bits, params, used, "none: the paper gives no schedule (SPEC 2.6)")
