"""ASAP list scheduling of task graphs, and the dependency graphs of the MWR2MM family.

This is an analytic model (not a measurement). A design is described as a dependency graph of
tasks (i, j): round i (one bit or digit of x), word j. Each task takes one clock cycle on one
processing element (PE) and lists its predecessors with a lag:

    start(task) >= start(pred) + lag      for every (pred, lag) in task.preds

lag = 1 means "needs the registered result of pred", lag = 0 means "needs a bit of pred's result
only at the end of the same cycle" (the select bit of the two-version update). :func:`asap`
schedules the tasks in the order given: every task starts as soon as its predecessors allow and
its PE is free; a PE runs its tasks in that order, one per cycle (in-order hardware).

Graphs (Huang, Gaj, El-Ghazawi, IEEE TC 2011; SPEC 5.5):

* :func:`tenca_koc_graph`, Fig. 1: column i = task A (j = 0) and e tasks B (j = 1..e); task (i, j)
  needs (i, j-1) (the carry, and the word it shifts into) and (i-1, j+1) (word j of round i-1 is
  final only once word j+1 of round i-1 has shifted its LSB in). PE (i mod p) runs column i.
* :func:`two_version_graph`, Figs. 4 and 8: task (i, j), j = 0..e-1 (D, E.., F); it needs the
  carry C^(j) from (i, j-1), the unshifted word S^(j) of round i-1 from (i-1, j) (for task F
  also the previous C^(e)), and, at the end of its own cycle, the LSB of S^(j+1) of round i-1 from
  (i-1, j+1) to select between its two versions (lag 0). Architecture 1 runs round i on PE
  (i mod p), Architecture 2 runs word j on PE j.

The reference models :mod:`montlab.ref.mwr2mm_arch1` and :mod:`montlab.ref.mwr2mm_arch2` execute
their arithmetic in the order of these same schedules and assert that every value is ready when a
task reads it, so the cycle model and the data flow are checked against each other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Callable, Iterable, Iterator

Key = tuple[int, int]  #: a task (i, j): round i, word j


@dataclass(frozen=True)
class Task:
    key: Key
    pe: int  #: the processing element that runs it
    preds: tuple[tuple[Key, int], ...] = ()  #: (predecessor, lag): start >= start(pred) + lag


@dataclass(frozen=True)
class Schedule:
    """Start cycle and PE of every task; cycle numbers start at 0."""

    start: dict[Key, int]
    pe: dict[Key, int]
    pes: int  #: PEs available

    @property
    def makespan(self) -> int:
        """Clock cycles from the first task's start to the last task's end."""
        return max(self.start.values()) + 1 if self.start else 0

    @cached_property
    def _by_cycle(self) -> dict[int, tuple[Key, ...]]:
        out: dict[int, list[Key]] = {}
        for key in sorted(self.start):
            out.setdefault(self.start[key], []).append(key)
        return {c: tuple(keys) for c, keys in out.items()}

    def by_cycle(self) -> dict[int, tuple[Key, ...]]:
        """The tasks that run in each cycle, in key order (computed once per schedule)."""
        return self._by_cycle

    def max_concurrency(self) -> int:
        """The largest number of tasks (so of busy PEs) in any one cycle."""
        return max(Counter(self.start.values()).values()) if self.start else 0


def asap(tasks: Iterable[Task], pes: int) -> Schedule:
    """List-schedule ``tasks`` (given in a topological order) on ``pes`` in-order PEs."""
    assert pes >= 1
    start: dict[Key, int] = {}
    pe_of: dict[Key, int] = {}
    free = [0] * pes  # first free cycle of each PE
    for t in tasks:
        assert 0 <= t.pe < pes, f"task {t.key} on PE {t.pe}, but there are {pes} PEs"
        assert t.key not in start, f"task {t.key} listed twice"
        ready = 0
        for pred, lag in t.preds:
            assert pred in start, f"task {t.key} listed before its predecessor {pred}"
            assert lag >= 0
            ready = max(ready, start[pred] + lag)
        s = max(ready, free[t.pe])
        start[t.key] = s
        pe_of[t.key] = t.pe
        free[t.pe] = s + 1
    return Schedule(start, pe_of, pes)


def check(schedule: Schedule, tasks: Iterable[Task]) -> None:
    """Assert that ``schedule`` meets every dependency and runs one task per PE and cycle."""
    used: set[tuple[int, int]] = set()
    for t in tasks:
        s = schedule.start[t.key]
        for pred, lag in t.preds:
            assert s >= schedule.start[pred] + lag, f"{t.key} starts before {pred} allows"
        slot = (schedule.pe[t.key], s)
        assert slot not in used, f"PE {slot[0]} runs two tasks in cycle {s}"
        used.add(slot)


def in_flight(schedule: Schedule, edges: Iterable[tuple[Key, Key]]) -> Counter[int]:
    """Per cycle c, the values that missed the direct register hand-off and wait in a queue.

    A value made by ``src`` (end of cycle t_p) sits in the producer's output register during
    cycle t_p + 1; when ``dst`` does not take it then (t_c > t_p + 1) it waits in the queue from
    cycle t_p + 2 up to and including its read in cycle t_c.
    """
    delta: Counter[int] = Counter()
    for src, dst in edges:
        t_p, t_c = schedule.start[src], schedule.start[dst]
        assert t_c >= t_p + 1, f"{dst} reads {src} before it is registered"
        if t_c >= t_p + 2:
            delta[t_p + 2] += 1  # enters the queue
            delta[t_c + 1] -= 1  # read out in cycle t_c
    occ: Counter[int] = Counter()
    level = 0
    for c in range(min(delta, default=0), max(delta, default=0) + 1):
        level += delta[c]
        assert level >= 0
        if level:
            occ[c] = level
    assert level == 0
    return occ


# --- the MWR2MM-family graphs -------------------------------------------------------------------


def tenca_koc_graph(n: int, e: int, p: int) -> Iterator[Task]:
    """Fig. 1: n columns of e+1 tasks (A, then B for j = 1..e); PE (i mod p) runs column i."""
    for i in range(n):
        for j in range(e + 1):
            preds: list[tuple[Key, int]] = []
            if j > 0:
                preds.append(((i, j - 1), 1))  # carry C^(j); S^(j-1) gets its MSB from this task
            if i > 0 and j + 1 <= e:
                preds.append(((i - 1, j + 1), 1))  # S^(j) of round i-1, complete after its shift
            yield Task((i, j), i % p, tuple(preds))


def two_version_graph(rounds: int, e: int, pe_of: Callable[[int, int], int]) -> Iterator[Task]:
    """Figs. 4 and 8: ``rounds`` rounds of e tasks (D, E, ..., F) with the two-version update."""
    for i in range(rounds):
        for j in range(e):
            preds: list[tuple[Key, int]] = []
            if j > 0:
                preds.append(((i, j - 1), 1))  # C^(j), and q_i / x_i through the shift registers
            if i > 0:
                preds.append(((i - 1, j), 1))  # unshifted S^(j) of round i-1 (task F: and C^(e))
                if j + 1 < e:
                    preds.append(((i - 1, j + 1), 0))  # select bit S^(j+1)_0, by the cycle's end
            yield Task((i, j), pe_of(i, j), tuple(preds))


@lru_cache(maxsize=8)
def tenca_koc(n: int, e: int, p: int) -> Schedule:
    """The ASAP schedule of Fig. 1 on p PEs."""
    return asap(tenca_koc_graph(n, e, p), p)


@lru_cache(maxsize=8)
def arch1(rounds: int, e: int, p: int) -> Schedule:
    """The ASAP schedule of Fig. 4 on p PEs (Architecture 1: PE i mod p runs round i)."""
    return asap(two_version_graph(rounds, e, lambda i, j: i % p), p)


@lru_cache(maxsize=8)
def arch2(rounds: int, e: int) -> Schedule:
    """The ASAP schedule of Fig. 8 on e PEs (Architecture 2: PE j runs word j of every round)."""
    return asap(two_version_graph(rounds, e, lambda i, j: j), e)


def arch1_queue_edges(rounds: int, e: int, p: int) -> Iterator[tuple[Key, Key]]:
    """The hand-offs from the last PE (p-1) back to PE 0: word j of round i to round i+1."""
    for i in range(p - 1, rounds - 1, p):
        for j in range(e):
            yield (i, j), (i + 1, j)


def arch1_queue(rounds: int, e: int, p: int) -> Counter[int]:
    """Queue occupancy per cycle in the Architecture 1 schedule (Fig. 6, eq. (7))."""
    return in_flight(arch1(rounds, e, p), arch1_queue_edges(rounds, e, p))
