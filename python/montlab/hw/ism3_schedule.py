"""The schedule of rtl/ism3/ism3.v: its twelve phases and the cycles of one product.

This is a **model** of our RTL's schedule (the paper gives none: SPEC 2.6 marks Table III's
cycles as not derivable). The RTL tests compare the simulated cycles and every phase's end
with it; reports label it as a model.

Contract: :meth:`Ism3Hw.phases` lists (name, first cycle, length) of the phases of one product:
edge 0 takes start_i, cycle c runs from edge c - 1 to edge c, and the first phase starts in
cycle 1. :meth:`Ism3Hw.cycles` counts the edges from edge 0 to the one after which done_o is
high (what the flow measures). The phase lengths, with s = D/2, ML the
multiplier's latency (karatsuba_mul's BASE_LAT + LEVELS LEVEL_LAT, + 1 reduction rank) and
T_NTT the engine's done cycle for L = lg D stages (montlab.hw.fermat_ntt_schedule):
  * MUL (T = X.Y, U = G.N', Z = T + M.N): D + ML + 5 (D reads, operands 2 cycles later, the
    product ML later, one rank to meet the T word, one rank for the write data, the write, and
    the cycle that sees the D-th write);
  * ACC mod r (g, m): D + 4 (s reads, a digit 3 cycles after its read, then s zeros, and the
    cycle that sees the D-th write); ACC div r (z): D + 6 (two more priming reads);
  * transform: T_NTT + 2 (a swap cycle and a start cycle before the engine's own cycles).
A phase's results are in place at the edge that ends its last cycle but one (the last cycle
only sees the final count); the probes sample them there.
"""

from __future__ import annotations

from dataclasses import dataclass

from montlab.hw.fermat_ntt_schedule import Engine
from montlab.hw.karatsuba import karatsuba_latency

PHASES = (
    "MUL_T", "IFFT_T", "ACC_G", "FFT_G", "MUL_U", "IFFT_U",
    "ACC_M", "FFT_M", "MUL_K", "IFFT_Z", "ACC_Z", "FFT_Z",
)  # fmt: skip


@dataclass(frozen=True)
class Ism3Hw:
    v: int  #: q = 2^v + 1
    d: int
    lanes: int
    bfly_lat: int
    pingpong: bool
    base_w: int = 17
    base_lat: int = 3
    level_lat: int = 4

    @property
    def engine(self) -> Engine:
        return Engine(self.d, self.lanes, self.bfly_lat, self.pingpong)

    @property
    def mul_latency(self) -> int:
        """karatsuba_mul at v + 2 bits: BASE_LAT + LEVELS LEVEL_LAT (the paper: 7/11/15)."""
        return karatsuba_latency(self.v + 2, self.base_w, self.base_lat, self.level_lat)

    @property
    def ml(self) -> int:
        """fermat_mul's latency: the multiplier and one reduction rank."""
        return self.mul_latency + 1

    def length(self, phase: str) -> int:
        eng = self.engine
        if phase.startswith("MUL"):
            return self.d + self.ml + 5
        if phase == "ACC_Z":
            return self.d + 6
        if phase.startswith("ACC"):
            return self.d + 4
        return eng.done_cycle(eng.stages) + 2

    def phases(self) -> list[tuple[str, int, int]]:
        out, c = [], 1
        for name in PHASES:
            n = self.length(name)
            out.append((name, c, n))
            c += n
        return out

    def cycles(self) -> int:
        """Edges from the one that takes start_i to the one after which done_o is high (done_o
        is high in the cycle after the last phase's last cycle)."""
        name, start, n = self.phases()[-1]
        return start + n - 1

    def phase_done_edge(self, phase: str) -> int:
        """The edge after which the phase's results are all written (its last cycle but one,
        for a transform the engine's last write)."""
        for name, start, n in self.phases():
            if name == phase:
                return start + n - 2
        raise KeyError(phase)

    def transform_cycles(self) -> int:
        """One transform phase (swap, start, the engine's run)."""
        return self.length("FFT_G")
