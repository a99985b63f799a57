"""The two-version PE of Huang et al. (Tasks D, E, F) and an executor driven by a schedule.

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Sec. 3-4, Algorithms 3 (Task D), 4 (Task E) and
5 (Task F) as reconstructed in SPEC 5.3. Shared by :mod:`montlab.ref.mwr2mm_arch1` and
:mod:`montlab.ref.mwr2mm_arch2`, which differ only in which PE runs a task and in how the words
travel between rounds (Architecture 1 passes them from PE to PE and through a queue).

The update, per round i (bit x_i) and word j (w-bit words, e of them, e = ceil((n+1)/w)):

* A PE keeps the *unshifted* word U^(j) of the previous round (the word that Algorithm 2 would
  shift right once). The shifted word is (U^(j+1)_0, U^(j)_{w-1..1}); its MSB is not known yet when
  the task starts, so the PE forms it twice, with MSB = 1 and MSB = 0, and computes both
      (C^(j+1), U^(j)) = C^(j) + x_i*Y^(j) + q_i*M^(j) + (MSB, U^(j)_{w-1..1}).
  The two versions differ only by 2^(w-1) in one addend, so their LSBs agree.
* At the end of the cycle the LSB of U^(j+1) of the previous round is known and selects the
  version (the multiplexers after the register, Fig. 10).
* Task D (j = 0) also computes q_i = (x_i AND Y^(0)_0) XOR U^(0)_1: bit 1 of the unshifted word
  is bit 0 of the shifted one, so q_i does not depend on the unknown MSB (needs w >= 2). C^(0) = 0.
* Task F (j = e-1) has one branch: the MSB of its shifted word is the previous C^(e), which it
  holds itself. Its carry out is the new C^(e) (<= 1).
* With e = 1 the one PE is both D and F: it computes q_i and runs F's single branch.

After the last round the accumulated value T = U + C^(e)*2^(w*e) is even and the product is T/2:
the final right shift (the paper's first option for collecting the result).

Carries: every branch, right or wrong, has C <= 2 (SPEC 5.2: C + 3*(2^w - 1) < 3*2^w); the
selected C^(e) is <= 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from montlab.cycles.schedule import Key, Schedule
from montlab.ref._base import Trace, bit, from_words, words


class Version(NamedTuple):
    """One branch of a PE: the carry out and the (unshifted) word."""

    carry: int
    word: int


class TaskOut(NamedTuple):
    """What a task leaves in its register at the end of its cycle."""

    kind: str  #: "D", "E", "F", or "DF" (e = 1)
    q: int  #: q_i: computed by D, passed along by E and F
    v1: Version | None  #: the branch that assumed MSB = 1 (None: single branch)
    v0: Version  #: the branch that assumed MSB = 0, or the single branch of F / DF

    @property
    def lsb(self) -> int:
        """The LSB of the word, the same in both versions (it is the next round's select bit)."""
        if self.v1 is not None:
            assert self.v1.word & 1 == self.v0.word & 1, "the two versions differ in the LSB"
        return self.v0.word & 1


def _branch(
    c: int, x_i: int, q_i: int, y_j: int, m_j: int, u_prev: int, msb: int, w: int
) -> Version:
    """(C^(j+1), U^(j)) = C^(j) + x_i*Y^(j) + q_i*M^(j) + (MSB, U^(j)_{w-1..1})."""
    assert msb in (0, 1) and x_i in (0, 1) and q_i in (0, 1)
    assert 0 <= c <= 2 and 0 <= u_prev < (1 << w)
    shifted = (msb << (w - 1)) | (u_prev >> 1)
    t = c + x_i * y_j + q_i * m_j + shifted
    carry, word = t >> w, t & ((1 << w) - 1)
    assert carry <= 2, "SPEC 5.2: a carry is at most 2"
    return Version(carry, word)


def q_bit(x_i: int, y0: int, u0_prev: int) -> int:
    """Algorithm 3: q_i = (x_i AND Y^(0)_0) XOR S^(0)_1 (bit 1 of the unshifted word)."""
    return (x_i & bit(y0, 0)) ^ bit(u0_prev, 1)


def task_d(
    x_i: int, y0: int, m0: int, u0_prev: int, w: int, top_prev: int | None = None
) -> TaskOut:
    """Algorithm 3 (PE 0): q_i, then both versions of (C^(1), S^(0)) with C^(0) = 0.

    ``top_prev`` is given only when e = 1: PE 0 is then also the last PE and, like Task F, has a
    single branch whose MSB is the previous C^(e).
    """
    assert w >= 2
    q_i = q_bit(x_i, y0, u0_prev)
    if top_prev is not None:
        v = _branch(0, x_i, q_i, y0, m0, u0_prev, top_prev, w)
        assert v.word & 1 == 0, "Task D: q_i must make S^(0) even"
        return TaskOut("DF", q_i, None, v)
    v1 = _branch(0, x_i, q_i, y0, m0, u0_prev, 1, w)
    v0 = _branch(0, x_i, q_i, y0, m0, u0_prev, 0, w)
    assert v0.word & 1 == 0 and v1.word & 1 == 0, "Task D: q_i must make S^(0) even"
    return TaskOut("D", q_i, v1, v0)


def task_e(c: int, x_i: int, q_i: int, y_j: int, m_j: int, u_prev: int, w: int) -> TaskOut:
    """Algorithm 4 (PE j, 0 < j < e-1): both versions of (C^(j+1), S^(j))."""
    v1 = _branch(c, x_i, q_i, y_j, m_j, u_prev, 1, w)
    v0 = _branch(c, x_i, q_i, y_j, m_j, u_prev, 0, w)
    return TaskOut("E", q_i, v1, v0)


def task_f(
    c: int, x_i: int, q_i: int, y_j: int, m_j: int, u_prev: int, top_prev: int, w: int
) -> TaskOut:
    """Algorithm 5 (PE e-1): one branch, the MSB of the shifted word being the previous C^(e)."""
    assert top_prev in (0, 1), "C^(e) is a single bit"
    v = _branch(c, x_i, q_i, y_j, m_j, u_prev, top_prev, w)
    assert v.carry <= 1, "SPEC 5.2: C^(e) <= 1"
    return TaskOut("F", q_i, None, v)


def select(out: TaskOut, lsb: int) -> Version:
    """Lines 4.3-4.8: pick the version whose assumed MSB equals the select bit."""
    if out.v1 is None:
        return out.v0
    return out.v1 if lsb else out.v0


class Transport(Protocol):
    """How the words of round i-1 reach round i (Architecture 1's PE chain and queue)."""

    def begin_cycle(self, c: int) -> None: ...

    def read_word(self, src: Key, dst: Key, c: int) -> None: ...

    def read_lsb(self, src: Key, dst: Key, c: int) -> None: ...

    def end_cycle(self, c: int, made: list[Key]) -> None: ...


class _Done(NamedTuple):
    cycle: int
    out: TaskOut
    sel: Version


@dataclass
class Result:
    """The outcome of :func:`execute`."""

    words: list[int]  #: the unshifted words U^(0..e-1) after the last round
    top: int  #: C^(e) after the last round
    q: list[int] = field(default_factory=list)  #: q_i of every round


def execute(
    x: int,
    y: int,
    m: int,
    w: int,
    e: int,
    rounds: int,
    sched: Schedule,
    trace: Trace | None = None,
    transport: Transport | None = None,
) -> Result:
    """Run the two-version PEs cycle by cycle in the order of ``sched`` (tasks (i, j)).

    Within a cycle, every task first computes its versions from registered values (phase 1);
    then, at the clock edge, the versions are registered and selected (phase 2). Every read is
    asserted to come from a task that ran early enough: a word or carry from an earlier cycle,
    a select bit from an earlier cycle or the same one.
    """
    assert w >= 2 and e >= 1 and rounds >= 1
    ys = words(y, w, e)  # Y < 2^n <= 2^(w*e - 1): the extra zero word of Algorithm 2 is not needed
    ms = words(m, w, e)
    done: dict[Key, _Done] = {}
    by_cycle = sched.by_cycle()
    assert sum(len(v) for v in by_cycle.values()) == rounds * e, "schedule and graph disagree"

    def ready(src: Key, c: int, same_cycle: bool = False) -> _Done:
        assert src in done, f"{src} has not run yet"
        d = done[src]
        early = d.cycle < c or (same_cycle and d.cycle == c)
        assert early, f"{src} (cycle {d.cycle}) is read in cycle {c}"
        return d

    for c in range(sched.makespan):
        keys = by_cycle.get(c, ())
        if transport is not None:
            transport.begin_cycle(c)
        outs: dict[Key, TaskOut] = {}
        # Phase 1: combinational logic of every active PE, from registered values only.
        for i, j in keys:
            assert (i, j) not in done
            x_i = bit(x, i)
            u_prev, top_prev = 0, 0  # reset registers: round -1 has S = 0 and C^(e) = 0
            if i > 0:
                prev = ready((i - 1, j), c)
                u_prev = prev.sel.word
                top_prev = prev.sel.carry if j == e - 1 else 0
                if transport is not None:
                    transport.read_word((i - 1, j), (i, j), c)
            if j == 0:
                out = task_d(x_i, ys[0], ms[0], u_prev, w, top_prev if e == 1 else None)
            else:
                left = ready((i, j - 1), c)
                q_i, c_in = left.out.q, left.sel.carry
                if j == e - 1:
                    out = task_f(c_in, x_i, q_i, ys[j], ms[j], u_prev, top_prev, w)
                else:
                    out = task_e(c_in, x_i, q_i, ys[j], ms[j], u_prev, w)
            outs[(i, j)] = out
        # Phase 2: the clock edge. Register both versions and select with S^(j+1)_0 of round i-1.
        for (i, j), out in outs.items():
            lsb = 0
            if out.v1 is not None and i > 0:
                src = (i - 1, j + 1)
                lsb = outs[src].lsb if src in outs else ready(src, c, same_cycle=True).out.lsb
                if transport is not None:
                    transport.read_lsb(src, (i, j), c)
            done[(i, j)] = _Done(c, out, select(out, lsb))
        if transport is not None:
            transport.end_cycle(c, list(outs))
    assert len(done) == rounds * e

    # Integer-level check of every round, and the trace (rounds in order).
    s_prev = 0  # the shifted value S after round i-1
    q_all: list[int] = []
    for i in range(rounds):
        u = [done[(i, j)].sel.word for j in range(e)]
        carries = [done[(i, j)].sel.carry for j in range(e)]  # C^(1) .. C^(e)
        top = carries[-1]
        q_i = done[(i, 0)].out.q
        assert all(done[(i, j)].out.q == q_i for j in range(e)), "q_i changed along the chain"
        assert max(carries) <= 2 and top <= 1, "SPEC 5.2: C <= 2 and C^(e) <= 1"
        t = from_words(u, w) + (top << (w * e))
        assert t == s_prev + bit(x, i) * y + q_i * m, f"round {i}: the words do not add up"
        assert t % 2 == 0, f"round {i}: the accumulated value is odd"
        s_prev = t >> 1
        assert s_prev < 2 * m, f"round {i}: S >= 2M"
        q_all.append(q_i)
        if trace is not None:
            trace.append(
                {
                    "i": i,
                    "x_i": bit(x, i),
                    "q_i": q_i,
                    "U": u,
                    "top": top,
                    "C": carries,
                    "cycle": [done[(i, j)].cycle for j in range(e)],
                    "pe": [sched.pe[(i, j)] for j in range(e)],
                }
            )
    last = rounds - 1
    return Result(
        words=[done[(last, j)].sel.word for j in range(e)],
        top=done[(last, e - 1)].sel.carry,
        q=q_all,
    )


def product(res: Result, w: int, e: int) -> int:
    """The accumulated value T = U + C^(e)*2^(w*e), shifted right once: the unreduced product."""
    t = from_words(res.words, w) + (res.top << (w * e))
    assert t % 2 == 0
    return t >> 1
