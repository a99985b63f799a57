"""montlab.hw.ism3_schedule: the model of rtl/ism3's schedule (the RTL tests compare the
simulated cycles and every phase's end with it)."""

from __future__ import annotations

from montlab.hw.ism3_schedule import PHASES, Ism3Hw


def test_phases_are_contiguous_and_end_at_done() -> None:
    hw = Ism3Hw(32, 32, 4, 6, False)
    phases = hw.phases()
    assert [p[0] for p in phases] == list(PHASES)
    assert phases[0][1] == 1
    for (_, s0, n0), (_, s1, _) in zip(phases, phases[1:]):
        assert s1 == s0 + n0
    name, start, n = phases[-1]
    assert hw.cycles() == start + n - 1
    assert all(hw.phase_done_edge(p) == s + n - 2 for p, s, n in phases)
    # The documented sum (rtl/ism3 header, specs.ism3.cycle_model): 3 MUL + 2 ACC + ACC_Z + 6
    # transforms, from the engine model's own done cycle.
    eng = hw.engine
    t_ntt = eng.done_cycle(eng.stages)
    assert hw.ml == hw.mul_latency + 1 == 3 + 1 * 4 + 1  # 34-bit multiplier: one level
    assert hw.cycles() == 3 * (32 + hw.ml + 5) + 2 * (32 + 4) + (32 + 6) + 6 * (t_ntt + 2)


def test_multiplier_latency_enters_three_times() -> None:
    """The 1790- and 3838-bit sets share d = 128; only the multiplier (11 against 15 cycles)
    differs, and it runs three passes: 12 = 3 x (15 - 11) cycles apart (ISM3 Table III)."""
    a, b = Ism3Hw(64, 128, 4, 6, False), Ism3Hw(128, 128, 4, 6, False)
    assert (a.mul_latency, b.mul_latency) == (11, 15)
    assert b.cycles() - a.cycles() == 12
    assert a.transform_cycles() == b.transform_cycles()
    for ll in (1, 2, 3):
        c = Ism3Hw(64, 128, 4, 6, False, level_lat=ll)
        assert a.cycles() - c.cycles() == 3 * (a.mul_latency - c.mul_latency)
