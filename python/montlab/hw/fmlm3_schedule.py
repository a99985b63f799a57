"""The schedule of rtl/fmlm3/fmlm3.v: its microprogram's phases and the cycles of one product.

This is a **model** of our RTL's schedule, not the paper's figure (SPEC 1.7: Table 6's totals
are not derivable). The RTL tests compare the simulated cycles and every phase's end with it;
reports label it as a model.

Contract: :meth:`Fmlm3Hw.phases` lists (name, first cycle, length) of the phases of one product,
one per microprogram word (montlab.hw.fmlm3_ucode.PROGRAMS): edge 0 takes start_i, cycle c runs
from edge c - 1 to edge c, and the first phase starts in cycle 1. The lengths, with ML the
multiply-adder's product latency (karatsuba_mul at K + 2 bits, + 1 reduction rank) and T(kind)
the engine's done cycle for v stages (montlab.hw.fermat_ntt_schedule, with B = BFLY_LAT +
SW_LAT + RD_LAT; + 2 for an NCT on the sqrt 2 ring):
  * MUL: P + ML + 5 (P reads, operands 2 cycles later, the product ML later, a rank for + C,
    a rank for the write data, the write, and the cycle that sees the P-th write);
  * NTT: T(kind) + 2 (a swap and a start cycle); with T'(x) . T'(y) beside it, the longer of
    that and the MUL's P + ML + 5;
  * NTT of an inverse (fso): its last stage streams one pair (x_k, x_k+P/2) per cycle into the
    final-stage operators, the last (k = P/2 - 1) in engine cycle E (fermat_ntt_schedule's
    stream_cycle); the phase is E + 2 (swap, start) + 5 (the shift rank, the lift rank, the
    accumulator rank, the merge, the cycle that sees it), + 2 for (A^n P)^-1 on the sqrt 2
    ring (the sqrt 2 ranks);
  * digit passes (Z0, MODR, WRM, MODQ, TSEL, OUT, OUTN): P + 2; HALF: P + 3 (its shift needs one
    more step); COPY: P + 3 (the engine's 2-cycle read).
A phase's results are in place at the edge that ends its last cycle but one.

:meth:`Fmlm3Hw.transform_cycles` is one transform as eqs. (28)-(29) count it: the engine's run
(start to done); for the inverses, start to the cycle after the final-stage operators write
their last digits (the merge takes one cycle more).
"""

from __future__ import annotations

from dataclasses import dataclass

from montlab.hw.fermat_ntt_schedule import Engine
from montlab.hw.fmlm3_ucode import PROGRAMS
from montlab.hw.karatsuba import karatsuba_latency


@dataclass(frozen=True)
class Fmlm3Hw:
    p: int  #: transform points P
    k: int  #: ring exponent (M = 2^k + 1)
    alg: int
    sqrt2: bool
    lanes: int  #: butterfly structures (BFS)
    bfly_lat: int = 6
    sw_lat: int = 2
    rd_lat: int = 1
    base_w: int = 17
    base_lat: int = 3
    level_lat: int = 4

    @property
    def engine(self) -> Engine:
        lat = self.bfly_lat + self.sw_lat + self.rd_lat
        return Engine(self.p, self.lanes, lat, True, 1)

    @property
    def ml(self) -> int:
        """fermat_mul's latency: the (K + 2)-bit Karatsuba multiplier and one reduction rank."""
        return karatsuba_latency(self.k + 2, self.base_w, self.base_lat, self.level_lat) + 1

    def engine_cycles(self, kind: str) -> int:
        """The engine's run for one transform: done_o's cycle after the start edge (an inverse
        streams its last stage, so its run ends with the last pair)."""
        eng = self.engine
        inv = kind in ("ict", "inct")
        return eng.done_cycle(eng.stages, supp=self.sqrt2 and kind == "nct", stream=inv)

    def fso_ranks(self, kind: str) -> int:
        """The final-stage operators' ranks from a pair to its digits: shift, lift, accumulator
        (+ the two sqrt 2 ranks for NCT^-1 on the c = 1/2 ring)."""
        return 3 + (2 if self.sqrt2 and kind == "inct" else 0)

    def last_pair(self) -> int:
        """The engine cycle that streams an inverse's last pair (k = P/2 - 1)."""
        eng = self.engine
        return eng.stream_cycle(eng.stages, self.p // 2 - 1)

    def transform_cycles(self, kind: str) -> int:
        """One transform, counted as eqs. (28)-(29) count it: the run, and for CT^-1 and NCT^-1
        up to the cycle after their final-stage operators write the last two digits."""
        if kind in ("ict", "inct"):
            return self.last_pair() + self.fso_ranks(kind) + 1
        return self.engine_cycles(kind)

    def length(self, op: str, f: dict[str, int | str]) -> int:
        p = self.p
        mul = p + self.ml + 5
        if op == "MUL":
            return mul
        if op == "NTT":
            kind = str(f["kind"])
            if f.get("fso"):
                return self.last_pair() + 2 + self.fso_ranks(kind) + 2
            n = self.engine_cycles(kind) + 2
            return max(n, mul) if f["par"] else n
        if op in ("HALF", "COPY"):
            return p + 3
        return p + 2

    def phases(self) -> list[tuple[str, int, int]]:
        """(name, first cycle, length) per microprogram word; names are numbered (3:ACC)."""
        out, c = [], 1
        for pc, (op, f) in enumerate(PROGRAMS[self.alg]):
            if op == "END":
                break
            name = f"{pc}:{op}" + (f":{f['kind']}" if op == "NTT" else "")
            n = self.length(op, f)
            out.append((name, c, n))
            c += n
        return out

    def cycles(self) -> int:
        """Edges from the one that takes start_i to the one after which done_o is high."""
        _, start, n = self.phases()[-1]
        return start + n - 1

    def phase_done_edge(self, pc: int) -> int:
        """The edge after which phase ``pc``'s results are all written."""
        _, start, n = self.phases()[pc]
        return start + n - 2
