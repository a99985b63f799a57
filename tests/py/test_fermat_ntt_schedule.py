"""montlab.hw.fermat_ntt_schedule: the closed forms of the transform engine's schedule against
an access-by-access replay, over every small configuration (the RTL tests then compare the
simulated cycles with the closed forms)."""

from __future__ import annotations

import itertools

import pytest
from montlab.hw.fermat_ntt_schedule import Engine, simulate

CONFIGS = [
    (d, lanes, b, pp, order)
    for d, lanes, b, pp, order in itertools.product(
        (4, 8, 16, 32, 64, 128, 256), (1, 2, 4, 8), range(1, 18), (False, True), (0, 1)
    )
    if d >= 4 * lanes
]


@pytest.mark.parametrize("pp", [False, True])
def test_closed_forms_match_the_replay(pp: bool) -> None:
    n_checked = 0
    for d, lanes, b, p, order in CONFIGS:
        if p != pp:
            continue
        eng = Engine(d, lanes, b, p, order)
        for n in sorted({1, 2, eng.stages}):
            rep = simulate(eng, n)
            assert rep.last_write == eng.last_write(n), (eng, n)
            assert rep.raw_hazards == 0, (eng, n)
            assert (rep.races > 0) == eng.races, (eng, n, rep)
            assert eng.done_cycle(n) == eng.last_write(n) + 1
            n_checked += 1
    assert n_checked > 600


def test_period_is_the_shortest_without_raw_hazards() -> None:
    """One cycle less than PER lets stage s + 1 read a word stage s has not written, wherever
    PER exceeds the issue cycles S."""
    tight = 0
    for d, lanes, b, pp, order in CONFIGS:
        eng = Engine(d, lanes, b, pp, order)
        if eng.stages >= 2 and eng.period > eng.s:
            assert simulate(eng, 2, eng.period - 1).raw_hazards > 0, eng
            tight += 1
    assert tight > 100


def test_ism3_table3_racing() -> None:
    """With 4 lanes in place, the 7678-bit ring (d = 256) races for butterfly latencies B <= 13,
    d = 128 only for B <= 5 and d = 64 only for B = 1: a pipeline of 6 to 13 cycles races at
    7678 bits alone (ISM3 Sec. IV-E)."""
    races = {d: [b for b in range(1, 20) if Engine(d, 4, b, False).races] for d in (64, 128, 256)}
    assert races == {64: [1], 128: [1, 2, 3, 4, 5], 256: list(range(1, 14))}
    assert not any(Engine(256, 4, b, True).races for b in range(1, 20))


def test_bad_parameters() -> None:
    with pytest.raises(ValueError):
        Engine(12, 1, 1, False)
    with pytest.raises(ValueError):
        Engine(8, 4, 1, False)
    with pytest.raises(ValueError):
        Engine(16, 3, 1, False)
    with pytest.raises(ValueError):
        Engine(16, 1, 0, False)
    with pytest.raises(ValueError):
        Engine(16, 1, 1, False, 2)


def test_stream_schedule() -> None:
    """STREAM (ORDER 1): pair k follows lane 0's write of issue k, the other lanes' pairs come
    right after, one per cycle, read back after their words are written (issue k mod S's
    writes), and a one-lane run ends when it does without streaming."""
    for d, lanes, b, pp, order in CONFIGS:
        eng = Engine(d, lanes, b, pp, order)
        if order != 1:
            with pytest.raises(ValueError):
                eng.stream_cycle(eng.stages, 0)
            continue
        n = eng.stages
        first_write = eng.last_write(n) - eng.s + 1  # issue 0's writes
        cycles = [eng.stream_cycle(n, k) for k in range(d // 2)]
        assert cycles == list(range(first_write, first_write + d // 2))
        # Lane 0's pairs as written; the others read (a cycle before they stream) after.
        assert all(
            c == first_write + k if k < eng.s else c - 1 > first_write + k % eng.s
            for k, c in enumerate(cycles)
        )
        assert eng.done_cycle(n, stream=True) == cycles[-1] + 1 >= eng.done_cycle(n)
        if lanes == 1:
            assert eng.done_cycle(n, stream=True) == eng.done_cycle(n)
        with pytest.raises(ValueError):
            eng.stream_cycle(n, d // 2)
