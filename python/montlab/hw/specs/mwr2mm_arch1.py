"""mwr2mm_arch1: Huang et al.'s Architecture 1 (Sec. 3, SPEC 5.3): two-version PEs in a ring,
round i on PE i mod p, a delay queue when e > p.

Probes: the selected unshifted word U^(j) of round i (trace "U") on pe_u of the PE that ran it,
at the edge after the cycle the model's trace gives."""

from __future__ import annotations

from typing import Any

from montlab.cycles import mwr2mm_arch1 as cyc
from montlab.hw.specs.base import HwParams, Probe
from montlab.hw.specs.mwr2mm import Mwr2mmFamily, word_probes
from montlab.ref._base import Trace


class Mwr2mmArch1(Mwr2mmFamily):
    name = "mwr2mm_arch1"
    ref = "mwr2mm_arch1"
    has_p = True
    cycle_model = "n + e - 1 (p >= e), else n + k(e-p) + e - 1, k = ceil(n/p) - 1"
    doc = "Architecture 1: two-version PEs in a ring, round i on PE i mod p, delay queue if e > p"

    def default_p(self, n: int, e: int, p: int | None) -> int | None:
        return e if p is None else p

    def cycles(self, ap: HwParams) -> int:
        return cyc.closed_form(ap["n"], ap["e"], ap["p"])

    def probes(self, ap: HwParams, cfg: Any, trace: Trace) -> dict[int, list[Probe]]:
        return word_probes(trace, ap["e"], ap["w"], "pe_u", None)
