"""Cycle model of mwr2mm: the Tenca-Koc MWR2MM pipeline (an analytic model, not a measurement).

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Sec. 3 (Fig. 1, T = 2n + e - 1 with
P_max = ceil((e+1)/2) PEs) and Sec. 6 (Harris et al.'s n + 2e - 1, quoted); SPEC 5.5.

Rows:
  * "cycles": the ASAP schedule of the Fig. 1 graph (:func:`montlab.cycles.schedule.tenca_koc`)
    on p PEs (auto: P_max), column i = task A + e tasks B on PE (i mod p). Closed form
    2n + e - 1 when p >= P_max; for p < P_max the schedule gives
    k(e+1) + 2r + e + 1 with k = floor((n-1)/p), r = (n-1) mod p (derived here from the
    schedule, not printed in the paper: a PE frees up e+1 cycles after it starts a column).
  * "pes": the largest number of columns in flight in the schedule with one PE per column,
    against P_max = ceil((e+1)/2).
  * "cycles_harris": n + 2e - 1, quoted by Huang et al. from Harris et al.; not derivable from
    the text (no graph is simulated; SPEC 5.6 item 4).
bits is the modulus width; n = params["n"] when given, else bits.
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab.cycles import CycleReport, operand_width, schedule, with_paper
from montlab.ref.mwr2mm import p_max, word_count

ID = "mwr2mm"


def closed_form(n: int, e: int, p: int) -> int:
    """Cycles of the Fig. 1 pipeline on p PEs: 2n + e - 1 when p >= P_max."""
    if p >= p_max(e):
        return 2 * n + e - 1
    k, r = divmod(n - 1, p)
    return k * (e + 1) + 2 * r + e + 1


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    n = operand_width(ID, bits, params)
    w = params["w"]
    e = word_count(n, w)
    pm = p_max(e)
    p = params.get("p") or pm
    sched = schedule.tenca_koc(n, e, p)
    note = ""
    if p < pm:
        note = f"p = {p} < P_max = {pm}: the paper's figures assume P_max PEs"
    used = {"n": n, "w": w, "p": p}
    free = schedule.tenca_koc(n, e, n)  # one PE per column: the graph's own concurrency
    formula = "2n + e - 1"
    if p < pm:
        formula = "k(e+1) + 2r + e + 1, k = floor((n-1)/p), r = (n-1) mod p"
    sec3 = "Huang et al. 2011, Sec. 3: T = 2n + e - 1 with P_max PEs"
    rows = [
        with_paper(
            ID,
            "cycles",
            formula,
            sched.makespan,
            closed_form(n, e, p),
            used,
            note,
            printed=2 * n + e - 1 if p >= pm else None,
            printed_source=sec3,
        ),
        with_paper(
            ID,
            "pes",
            "P_max = ceil((e+1)/2)",
            free.max_concurrency(),
            pm,
            used,
            printed=pm,
            printed_source="Huang et al. 2011, Sec. 3: P_max = ceil((e+1)/2)",
        ),
        with_paper(
            ID,
            "cycles_harris",
            "n + 2e - 1",
            n + 2 * e - 1,
            n + 2 * e - 1,
            used,
            "no schedule is simulated: the text gives no graph for Harris et al.'s design",
            printed=n + 2 * e - 1,
            printed_derivable=False,
            printed_source="Huang et al. 2011, Sec. 6, quoting Harris et al.",
        ),
    ]
    return CycleReport(ID, bits, dict(params, n=n, p=p), rows)
