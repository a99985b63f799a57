"""mwr2mm_arch2: Huang et al.'s Architecture 2 (Sec. 4, SPEC 5.3): e two-version PEs, one word
each, PE j runs task (i, j) in cycle i + j.

Probes: U^(j) of round i (trace "U") on pe_u[j], and q_i passed on by PE 0 (pe_q[1])."""

from __future__ import annotations

from typing import Any

from montlab.cycles import mwr2mm_arch2 as cyc
from montlab.hw.specs.base import HwParams, Probe
from montlab.hw.specs.mwr2mm import Mwr2mmFamily, word_probes
from montlab.ref._base import Trace


class Mwr2mmArch2(Mwr2mmFamily):
    name = "mwr2mm_arch2"
    ref = "mwr2mm_arch2"
    cycle_model = "n + e - 1"
    doc = "Architecture 2: e two-version PEs, one word each"

    def cycles(self, ap: HwParams) -> int:
        return cyc.closed_form(ap["n"], ap["e"])

    def probes(self, ap: HwParams, cfg: Any, trace: Trace) -> dict[int, list[Probe]]:
        return word_probes(trace, ap["e"], ap["w"], "pe_u", "pe_q")
