"""mwr2mm_tk: Tenca-Koc's MWR2MM pipeline (registry id ``mwr2mm``; Huang et al. 2011, Alg. 2,
SPEC 5.2). p >= P_max = ceil((e+1)/2) PEs (no queue); a column every 2 cycles.

Probes: PE (i mod p) holds the final word S^(j-1) of round i (trace "S") in pe_s at the edge
after the cycle montlab.cycles.schedule.tenca_koc gives task (i, j)."""

from __future__ import annotations

from typing import Any

from montlab.cycles import mwr2mm as cyc
from montlab.cycles import schedule
from montlab.errors import ParameterError
from montlab.hw.specs.base import HwParams, Probe
from montlab.hw.specs.mwr2mm import Mwr2mmFamily
from montlab.ref._base import Trace
from montlab.ref.mwr2mm import p_max


class Mwr2mmTk(Mwr2mmFamily):
    name = "mwr2mm_tk"
    ref = "mwr2mm"
    has_p = True
    cycle_model = "2n + e - 1"
    doc = "Tenca-Koc: p >= P_max PEs, a column every 2 cycles"

    def default_p(self, n: int, e: int, p: int | None) -> int | None:
        pm = p_max(e)
        p = pm if p is None else p
        if p < pm:
            raise ParameterError(
                f"{self.name}: p = {p} < P_max = ceil((e+1)/2) = {pm}: with fewer PEs "
                f"Tenca-Koc's design needs a queue, which this RTL leaves out"
            )
        return p

    def cycles(self, ap: HwParams) -> int:
        return cyc.closed_form(ap["n"], ap["e"], ap["p"])

    def probes(self, ap: HwParams, cfg: Any, trace: Trace) -> dict[int, list[Probe]]:
        e = ap["e"]
        sched = schedule.tenca_koc(ap["n"], e, ap["p"])
        out: dict[int, list[Probe]] = {}
        for ent in trace:
            i, s_words = ent["i"], ent["S"]
            assert isinstance(i, int) and isinstance(s_words, list)
            for j in range(1, e + 1):
                probe = Probe(
                    (("pe_s", sched.pe[(i, j)]),), s_words[j - 1], f"S^({j - 1}) of round {i}"
                )
                out.setdefault(sched.start[(i, j)] + 1, []).append(probe)
        return out
