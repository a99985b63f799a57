"""mwr4mm_arch2: the radix-4 Architecture 2 (Huang et al. 2011, Alg. 6, SPEC 5.4): e four-branch
PEs, one word each, ceil(n/2) rounds.

Probes: U^(j) = word j of 4*S_i mod 2^(w*e) (trace "S") on u_core.pe_u[j] in cycle i + j (the
Architecture-2 schedule, checked against montlab.cycles.schedule.arch2), and q^(i) (trace
"q_i") on u_core.pe_q[1]."""

from __future__ import annotations

from typing import Any

from montlab.cycles import mwr4mm as cyc
from montlab.cycles import schedule
from montlab.hw.specs.base import HwParams, Probe
from montlab.hw.specs.mwr2mm import Mwr2mmFamily
from montlab.ref._base import Trace, from_words


class Mwr4mmArch2(Mwr2mmFamily):
    name = "mwr4mm_arch2"
    ref = "mwr4mm"
    radix_bits = 2
    cycle_model = "ceil(n/2) + e - 1"
    doc = "radix-4 Architecture 2: e four-branch PEs, one word each"

    def cycles(self, ap: HwParams) -> int:
        return cyc.closed_form(ap["n"], ap["e"])

    def probes(self, ap: HwParams, cfg: Any, trace: Trace) -> dict[int, list[Probe]]:
        w, e, rounds = ap["w"], ap["e"], ap["rounds"]
        mask = (1 << w) - 1
        sched = schedule.arch2(rounds, e)
        assert all(sched.start[(i, j)] == i + j for i in range(rounds) for j in range(e))
        out: dict[int, list[Probe]] = {}
        for ent in trace:
            i, q_i, s_words = ent["i"], ent["q_i"], ent["S"]
            assert isinstance(i, int) and isinstance(q_i, int) and isinstance(s_words, list)
            t = 4 * from_words(s_words, w)
            for j in range(e):
                u = (t >> (w * j)) & mask
                out.setdefault(i + j + 1, []).append(
                    Probe((("u_core.pe_u", j),), u, f"U^({j}) of round {i}")
                )
            out.setdefault(i + 1, []).append(Probe((("u_core.pe_q", 1),), q_i, f"q of round {i}"))
        return out
