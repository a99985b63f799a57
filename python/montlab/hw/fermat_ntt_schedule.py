"""The schedule of rtl/common/fermat_ntt.v (the constant-geometry transform engine mod 2^K + 1).

This is a **model** of our RTL's schedule, not a measurement and not the papers' figure: the
RTL tests compare the simulated cycles with it, and the reports label it as a model.

Contract:
  * :class:`Engine` holds the parameters that shape the schedule: D points, LANES butterflies
    per cycle, B = BFLY_LAT + RD_LAT + SW_LAT (every rank from the RAM's output to the write),
    PINGPONG and ORDER (0: consecutive butterflies, ISM3; 1: split
    halves, butterflies c + l S, FMLM3). S = D / (2 LANES) issue cycles per stage.
  * Closed forms (the RTL header states them): the stage period PER = max(S, S/2 + B + 2) for
    both orders; a run of n stages writes its last word in cycle (n - 1) PER + S + B + 2 - ORDER
    (the start cycle is 0, the first issue cycle 1) and raises done_o one cycle later; racing
    (PINGPONG = 0) happens exactly when B + 2 - ORDER < S/2.
  * :func:`simulate` replays the run access by access (reads at issue; ORDER 0: lower writes
    B + 1 cycles later, upper writes B + 2, after the channel switch; ORDER 1: both B + 1;
    read-first RAM) and counts the hazards independently of the closed forms: reads of a word
    the previous stage has not written yet (RAW) and writes over a word the stage has not read
    yet (racing, in-place storage only). The tests check that the closed forms agree with it,
    and that PER is the shortest period free of RAW hazards.

Left out: the external port's cycles (one sample per cycle, two cycles of read latency), which
the designs that use the engine schedule themselves.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Engine:
    d: int  #: points (a power of two, >= 4 lanes)
    lanes: int  #: butterflies per cycle (a power of two)
    bfly_lat: int  #: BFLY_LAT (>= 1)
    pingpong: bool
    order: int = 0  #: 0 consecutive butterflies (ISM3), 1 split halves (FMLM3)

    def __post_init__(self) -> None:
        if self.lanes < 1 or self.lanes & (self.lanes - 1):
            raise ValueError(f"lanes = {self.lanes} must be a power of two")
        if self.d & (self.d - 1) or self.d < 4 * self.lanes:
            raise ValueError(f"d = {self.d} must be a power of two >= 4 lanes")
        if self.bfly_lat < 1:
            raise ValueError("bfly_lat must be >= 1")
        if self.order not in (0, 1):
            raise ValueError(f"order = {self.order} must be 0 or 1")

    @property
    def stages(self) -> int:
        """L = lg D."""
        return self.d.bit_length() - 1

    @property
    def banks(self) -> int:
        return 2 * self.lanes

    @property
    def s(self) -> int:
        """Issue cycles (RAM addresses) per stage."""
        return self.d // self.banks

    @property
    def period(self) -> int:
        """PER = max(S, S/2 + B + 2): stage s + 1 issues PER cycles after stage s."""
        return max(self.s, self.s // 2 + self.bfly_lat + 2)

    def last_write(self, n: int, supp: bool = False) -> int:
        """Cycle of the last write of an n-stage run (start cycle 0, first issue cycle 1);
        ``supp``: its last stage goes through the 2-rank sqrt 2 supplemental block."""
        extra = 2 if supp else 0
        return (n - 1) * self.period + self.s + self.bfly_lat + 2 - self.order + extra

    def stream_cycle(self, n: int, k: int, supp: bool = False) -> int:
        """STREAM (ORDER 1): the cycle in which an n-stage run streams its last stage's pair k
        (x_k, x_k+D/2), k < D/2: lane 0's as written (k < S), then the other lanes' read back,
        one pair per cycle. It is the last write's cycle for k = S - 1, so never earlier."""
        if self.order != 1 or not 0 <= k < self.d // 2:
            raise ValueError("streaming needs ORDER 1 and 0 <= k < D/2")
        return self.last_write(n, supp) - self.s + 1 + k

    def done_cycle(self, n: int, supp: bool = False, stream: bool = False) -> int:
        """The cycle in which done_o is high: one after the last write, or with ``stream``
        one after the last pair streamed."""
        if stream and self.order == 1:
            return self.stream_cycle(n, self.d // 2 - 1, supp) + 1
        return self.last_write(n, supp) + 1

    @property
    def races(self) -> bool:
        """In-place storage overwrites an upper word before the stage reads it."""
        return not self.pingpong and self.bfly_lat + 2 - self.order < self.s // 2

    def read_cycle(self, p: int) -> int:
        """The issue cycle (within a stage) that reads position p. ORDER 0: address p // 2LANES
        of every bank. ORDER 1: cycle c reads positions 2c + j + 2lS (m = p // S even) and,
        from c = S/2 on, 2c + j - S + (2l + 1) S (m odd)."""
        if self.order == 0:
            return p // self.banks
        m, a = divmod(p, self.s)
        return a // 2 if m % 2 == 0 else (a + self.s) // 2


@dataclass(frozen=True)
class Replay:
    last_write: int
    raw_hazards: int  #: reads of a word the previous stage had not written yet
    races: int  #: writes over a word the same stage had not read yet (in-place only)


def simulate(eng: Engine, n: int, period: int | None = None) -> Replay:
    """Replay an n-stage run access by access (``period`` overrides PER, to probe shorter ones).

    A stage reads position p in cycle :meth:`Engine.read_cycle`; butterfly k (ORDER 0: k =
    LANES c + l; ORDER 1: k = c + l S) issued in cycle c writes x_k at c + B + 1 and x_k+D/2 at
    c + B + 2 (ORDER 0, after the channel switch) or c + B + 1 (ORDER 1). A read in the cycle of
    a write to its word gets the old word (read first).
    """
    per = eng.period if period is None else period
    s, lanes, b = eng.s, eng.lanes, eng.bfly_lat
    half = eng.d // 2
    written: dict[int, int] = {}  # position -> cycle of its latest write (previous stage's)
    raw = races = 0
    last = 0
    for stage in range(n):
        t0 = 1 + stage * per
        read_at = {p: t0 + eng.read_cycle(p) for p in range(eng.d)}
        for p, t in read_at.items():
            if stage > 0 and not t > written[p]:
                raw += 1
        new: dict[int, int] = {}
        for c in range(s):
            for lane in range(lanes):
                k = lanes * c + lane if eng.order == 0 else c + lane * s
                up = t0 + c + b + 2 - eng.order
                for pos, when in ((k, t0 + c + b + 1), (k + half, up)):
                    new[pos] = when
                    last = max(last, when)
                    if not eng.pingpong and when < read_at[pos]:
                        races += 1
        written = new
    return Replay(last_write=last, raw_hazards=raw, races=races)
