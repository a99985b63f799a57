"""mwr2mm_arch1: MWR2MM, Huang et al. Architecture 1 (p PEs in a chain, two-version PEs, a queue).

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Sec. 3, Algorithms 3-4 (Tasks D, E; Task F of
Algorithm 5 for the last word), Figs. 4-7, eqs. (6)-(7); SPEC 5.3 and 5.5.

Contract:
  * N odd, N > 1, bitlen(N) <= n (auto: n = bitlen(N)); r = 2^n; n rounds, one bit x_i each.
  * 0 <= x, y < N; output fully reduced, 0 <= z < N (one final subtraction). The arithmetic, the
    PE tasks and the carries are those of Architecture 2 (:mod:`montlab.ref._twoversion`); the
    result is identical to mwr2mm and mwr2mm_arch2.
  * Words of w >= 2 bits, e = ceil((n+1)/w); p >= 1 PEs (auto: p = e, no queue).
  * PE (i mod p) runs round i word by word: task (i, j) = D for j = 0, E, ..., F for j = e-1.
    The unshifted words of round i pass to the next PE directly (one cycle later); the words
    of the last PE (p-1) go back to PE 0, through a FIFO when PE 0 is still busy (e > p). The
    schedule is the ASAP schedule of Fig. 4 (:func:`montlab.cycles.schedule.arch1`); the model
    executes the tasks in that order, asserts that every value it reads is ready, that the
    PE-to-PE hand-offs are direct and that the queue is first in, first out, and checks the
    queue occupancy against the cycle model's count. Cycles: n + e - 1 for p >= e, else
    n + k(e-p) + e - 1 with k = ceil(n/p) - 1 (eq. (6) corrected, SPEC 5.6 erratum 1).
  * Left out: the M and Y word shift registers of Fig. 6, redundant S, the domain conversions.
  * Trace, one entry per round i: {"i", "x_i", "q_i", "U" (the e unshifted words of round i),
    "top" (C^(e)), "C" (the selected carries C^(1) .. C^(e)), "cycle" (the cycle of task (i, j)),
    "pe" (the PE of each task, i mod p), "queue" (words waiting in the FIFO at the start of the
    cycle of task (i, j))}.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Mapping

from montlab.cycles import schedule
from montlab.cycles.schedule import Key
from montlab.ref import _twoversion
from montlab.ref._base import (
    MontConfig,
    Trace,
    check_operands,
    final_subtraction,
)
from montlab.ref.mwr2mm import word_layout

ID = "mwr2mm_arch1"


@dataclass(frozen=True)
class Config(MontConfig):
    w: int  #: word size in bits
    p: int  #: processing elements (e when auto)
    n: int  #: operand width in bits: n rounds, r = 2^n
    e: int  #: words of S, ceil((n+1)/w)


def configure(n_mod: int, params: Mapping[str, int | None]) -> Config:
    params, w, n, e = word_layout(ID, n_mod, params)
    p = params["p"]
    p = e if p is None else p
    assert p >= 1
    return Config(
        algo=ID, modulus=n_mod, r=1 << n, bound=1, in_bound=1, iterations=n, w=w, p=p, n=n, e=e
    )


class ChainTransport:
    """The words between rounds: PE to next PE directly, and PE p-1 to PE 0 through a FIFO (Fig. 6).

    A word made by PE p-1 at the end of cycle t sits in its output register during cycle t+1; if
    PE 0 does not take it then, it is pushed into the FIFO at the end of cycle t+1 and popped by
    PE 0 when it reads it. The select bit (the LSB of the next word) is read from the FIFO head
    (just after the pop), from the output register, or from the word made in the same cycle.
    """

    def __init__(self, p: int, rounds: int) -> None:
        self.p = p
        self.rounds = rounds
        self.fifo: deque[Key] = deque()
        self.made: dict[Key, int] = {}  # cycle each word was made in
        self.made_at: dict[int, list[Key]] = {}  # words made in each cycle
        self.taken: set[Key] = set()  # words already read by the next round
        self.occupancy: dict[int, int] = {}  # FIFO length at the start of each cycle

    def wraps(self, src: Key) -> bool:
        """Does word ``src`` go from PE p-1 back to PE 0?"""
        i = src[0]
        return i % self.p == self.p - 1 and i + 1 < self.rounds

    def begin_cycle(self, c: int) -> None:
        self.occupancy[c] = len(self.fifo)

    def read_word(self, src: Key, dst: Key, c: int) -> None:
        assert dst == (src[0] + 1, src[1]) and src not in self.taken
        self.taken.add(src)
        if self.wraps(src) and self.fifo and self.fifo[0] == src:
            self.fifo.popleft()
            return
        assert src not in self.fifo, f"{src} is in the FIFO but not at its head"
        t_p = self.made[src]
        assert t_p == c - 1, f"{src} (made in cycle {t_p}) is not in a register at cycle {c}"

    def read_lsb(self, src: Key, dst: Key, c: int) -> None:
        at_head = bool(self.fifo) and self.fifo[0] == src
        # Not in self.made yet: made in this very cycle (the executor has checked it ran).
        in_register = self.made.get(src, c) >= c - 1
        assert at_head or in_register, f"the select bit of {src} is lost by cycle {c}"

    def end_cycle(self, c: int, made: list[Key]) -> None:
        # The word in PE p-1's output register since the end of cycle c-1 moves into the FIFO
        # unless PE 0 took it in cycle c.
        for src in self.made_at.get(c - 1, []):
            if self.wraps(src) and src not in self.taken:
                self.fifo.append(src)
        for key in made:
            self.made[key] = c
        self.made_at[c] = made

    def finish(self) -> None:
        assert not self.fifo, "words left in the FIFO"


def unreduced(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    """The accumulated value shifted right once: x*y*2^-n mod N, 0 <= S < 2N."""
    check_operands(cfg, x, y)
    sched = schedule.arch1(cfg.n, cfg.e, cfg.p)
    for (i, j), pe in sched.pe.items():
        assert pe == i % cfg.p, "Architecture 1 runs round i on PE i mod p"
    chain = ChainTransport(cfg.p, cfg.n)
    rounds: Trace = []
    res = _twoversion.execute(x, y, cfg.modulus, cfg.w, cfg.e, cfg.n, sched, rounds, chain)
    chain.finish()
    # The explicit FIFO must hold exactly what the cycle model counts (eq. (7)).
    counted = schedule.arch1_queue(cfg.n, cfg.e, cfg.p)
    for c, length in chain.occupancy.items():
        model = counted.get(c, 0)
        assert length == model, f"cycle {c}: the FIFO holds {length}, the cycle model {model}"
    if cfg.e <= cfg.p:
        assert max(chain.occupancy.values()) == 0, "no queue is needed when e <= p"
    if trace is not None:
        for entry in rounds:
            cycles = entry["cycle"]
            assert isinstance(cycles, list)
            entry["queue"] = [chain.occupancy[t] for t in cycles]
            trace.append(entry)
    s = _twoversion.product(res, cfg.w, cfg.e)
    assert s < 2 * cfg.modulus
    return s


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    return final_subtraction(cfg, unreduced(cfg, x, y, trace))
