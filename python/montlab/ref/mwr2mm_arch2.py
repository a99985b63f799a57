"""mwr2mm_arch2: MWR2MM, Huang et al. Architecture 2 (e PEs, one word each, two-version update).

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Sec. 4, Algorithms 3-5 (Tasks D, E, F), Figs. 8,
10 and 11; SPEC 5.3 (the algorithm boxes are reconstructed there) and 5.5.

Contract:
  * N odd, N > 1, bitlen(N) <= n (auto: n = bitlen(N)); r = 2^n; n rounds, one bit x_i each.
  * 0 <= x, y < N; output fully reduced, 0 <= z < N (one final subtraction).
  * Words of w >= 2 bits, e = ceil((n+1)/w); PE j (0 <= j < e) owns word j: PE 0 runs Task D
    (q_i and two versions), PEs 1..e-2 Task E (two versions), PE e-1 Task F (one branch, its MSB
    is the previous C^(e)); with e = 1 the one PE runs D and F together. The PE functions are in
    :mod:`montlab.ref._twoversion`.
  * Each PE keeps its *unshifted* word; the product is the accumulated value
    U + C^(e)*2^(w*e) shifted right once at the end (the paper's first option), then reduced.
  * Schedule: task (i, j) runs in cycle t(i, j) = i + j, as the ASAP schedule of Fig. 8
    (:func:`montlab.cycles.schedule.arch2`) gives; the model executes the tasks in that order and
    asserts that every value it reads was ready. n + e - 1 cycles.
  * Carries: every branch C <= 2, the selected C^(e) <= 1 (asserted).
  * Left out: the x_i and q_i shift registers (x_i and q_i are read where the schedule needs them),
    the precomputed x_i*Y + M of Fig. 13, redundant S, the result collection and the domain
    conversions.
  * Trace, one entry per round i: {"i", "x_i", "q_i", "U" (the e unshifted words held by the PEs
    after round i), "top" (C^(e) held by PE e-1), "C" (the selected carries C^(1) .. C^(e)),
    "cycle" (the cycle of task (i, j), j = 0..e-1), "pe" (the PE of task (i, j))}.
    After round i, S = (U + top*2^(w*e)) / 2 is Algorithm 2's S after round i.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from montlab.cycles import schedule
from montlab.ref import _twoversion
from montlab.ref._base import (
    MontConfig,
    Trace,
    check_operands,
    final_subtraction,
)
from montlab.ref.mwr2mm import word_layout

ID = "mwr2mm_arch2"


@dataclass(frozen=True)
class Config(MontConfig):
    w: int  #: word size in bits
    n: int  #: operand width in bits: n rounds, r = 2^n
    e: int  #: words of S = PEs, ceil((n+1)/w)


def configure(n_mod: int, params: Mapping[str, int | None]) -> Config:
    _, w, n, e = word_layout(ID, n_mod, params)
    return Config(
        algo=ID, modulus=n_mod, r=1 << n, bound=1, in_bound=1, iterations=n, w=w, n=n, e=e
    )


def unreduced(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    """The accumulated value shifted right once: x*y*2^-n mod N, 0 <= S < 2N."""
    check_operands(cfg, x, y)
    sched = schedule.arch2(cfg.n, cfg.e)
    for (i, j), t in sched.start.items():
        assert t == i + j, "Architecture 2 runs task (i, j) in cycle i + j"
        assert sched.pe[(i, j)] == j
    res = _twoversion.execute(x, y, cfg.modulus, cfg.w, cfg.e, cfg.n, sched, trace)
    s = _twoversion.product(res, cfg.w, cfg.e)
    assert s < 2 * cfg.modulus
    return s


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    return final_subtraction(cfg, unreduced(cfg, x, y, trace))
