"""Cycle model of mwr2mm_arch1: Huang et al. Architecture 1 (an analytic model, not a measurement).

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Sec. 3, Figs. 4, 6, 7, eqs. (6) and (7);
SPEC 5.5 and 5.6 erratum 1.

Rows:
  * "cycles": the ASAP schedule of the Fig. 4 graph on p PEs (auto: p = e), PE (i mod p) running
    round i (:func:`montlab.cycles.schedule.arch1`). Closed form, eq. (6) corrected:
    n + e - 1 if p >= e, else n + k(e-p) + e - 1 with k = ceil(n/p) - 1 = floor((n-1)/p).
  * "cycles_printed_eq6": eq. (6) as printed, k = floor(n/p), beside the schedule: "match" when
    equal, "differs" when not (exactly when p < e and p divides n: SPEC 5.6 erratum 1).
  * "queue": eq. (7), Q = e - p for e > p (else 0), beside the largest number of words waiting
    between the last PE and PE 0 in the schedule (:func:`montlab.cycles.schedule.arch1_queue`).
The reference model :mod:`montlab.ref.mwr2mm_arch1` executes its tasks in this same schedule and
checks its explicit FIFO against the queue count.
bits is the modulus width; n = params["n"] when given, else bits.
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab.cycles import (
    DIFFERS,
    MATCH,
    CycleReport,
    CycleRow,
    operand_width,
    schedule,
    with_paper,
)
from montlab.ref.mwr2mm import word_count

ID = "mwr2mm_arch1"


def closed_form(n: int, e: int, p: int) -> int:
    """Eq. (6), corrected: k = ceil(n/p) - 1."""
    if e <= p:
        return n + e - 1
    k = -(-n // p) - 1
    return n + k * (e - p) + e - 1


def printed_eq6(n: int, e: int, p: int) -> int:
    """Eq. (6) as printed: k = floor(n/p)."""
    if e <= p:
        return n + e - 1
    k = n // p
    return n + k * (e - p) + e - 1


def queue_eq7(e: int, p: int) -> int:
    """Eq. (7): the queue length."""
    return e - p if e > p else 0


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    n = operand_width(ID, bits, params)
    w = params["w"]
    e = word_count(n, w)
    p = params.get("p") or e
    sched = schedule.arch1(n, e, p)
    occ = schedule.arch1_queue(n, e, p)
    queue = max(occ.values(), default=0)
    used = {"n": n, "w": w, "p": p}
    formula = "n + e - 1" if p >= e else "n + k(e-p) + e - 1, k = ceil(n/p) - 1"
    printed = printed_eq6(n, e, p)
    same = printed == sched.makespan
    divides = "divides" if n % p == 0 else "does not divide"
    eq6_note = (
        ""
        if same
        else (
            f"eq. (6) as printed uses k = floor(n/p) = {n // p}; the schedule needs "
            f"k = ceil(n/p) - 1 = {-(-n // p) - 1} (p = {p} {divides} n = {n}; SPEC 5.6 erratum 1)"
        )
    )
    q7 = queue_eq7(e, p)
    rows = [
        with_paper(ID, "cycles", formula, sched.makespan, closed_form(n, e, p), used),
        CycleRow(
            "cycles_printed_eq6",
            "n + k(e-p) + e - 1, k = floor(n/p) (as printed)",
            sched.makespan,
            printed,
            printed,
            "Huang et al. 2011, eq. (6) as printed",
            MATCH if same else DIFFERS,
            eq6_note,
        ),
        CycleRow(
            "queue",
            "Q = e - p if e > p else 0",
            queue,
            q7,
            q7,
            "Huang et al. 2011, eq. (7)",
            MATCH if queue == q7 else DIFFERS,
            "" if queue == q7 else "the schedule's largest queue occupancy differs from eq. (7)",
        ),
    ]
    return CycleReport(ID, bits, dict(params, n=n, p=p), rows)
