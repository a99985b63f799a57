"""Cycle models of the MWR2MM family (SPEC 5.5): the ASAP scheduler, closed forms against schedule
simulation, P_max, SPEC 6 item 8, the ISM3 Table IV figures, eq. (6) corrected vs printed
(SPEC 5.6 erratum 1), eq. (7), and the Harris figure marked not derivable."""

from __future__ import annotations

import pytest
from montlab import registry
from montlab.cycles import DIFFERS, MATCH, NO_FIGURE, NOT_DERIVABLE, model_for, schedule
from montlab.cycles import mwr2mm as cy_tk
from montlab.cycles import mwr2mm_arch1 as cy_a1
from montlab.errors import ParameterError
from montlab.ref.mwr2mm import p_max, word_count

SWEEP = [
    (n, w)
    for n in (2, 3, 5, 8, 15, 16, 17, 31, 32, 33, 48, 64, 65, 100)
    for w in (2, 3, 4, 5, 8, 16, 32)
]


# --- the scheduler -------------------------------------------------------------------------------


def test_asap_small_graph() -> None:
    """Lag 1 waits for the predecessor's register, lag 0 shares its cycle, a PE runs one task a cycle."""
    tasks = [
        schedule.Task((0, 0), 0),
        schedule.Task((0, 1), 0),  # same PE: waits for it to be free
        schedule.Task((1, 0), 1, (((0, 0), 1),)),
        schedule.Task((1, 1), 2, (((0, 1), 0),)),  # lag 0: same cycle as (0, 1)
        schedule.Task((2, 0), 1, (((1, 1), 3),)),
    ]
    s = schedule.asap(tasks, 3)
    assert s.start == {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 1, (2, 0): 4}
    assert s.makespan == 5 and s.max_concurrency() == 3
    schedule.check(s, tasks)
    with pytest.raises(AssertionError, match="before its predecessor"):
        schedule.asap([schedule.Task((0, 1), 0, (((0, 0), 1),))], 1)


def test_in_flight_counts_queued_values() -> None:
    s = schedule.Schedule({(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 5}, {}, 1)
    occ = schedule.in_flight(s, [((0, 0), (1, 0)), ((0, 1), (1, 1))])
    # (0,0) -> (1,0) is a direct hand-off; (0,1) made in cycle 1 waits in cycles 3, 4 and 5.
    assert dict(occ) == {3: 1, 4: 1, 5: 1}


# --- Tenca-Koc ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n, w", SWEEP)
def test_tenca_koc_closed_form(n: int, w: int) -> None:
    e = word_count(n, w)
    pm = p_max(e)
    for p in sorted({1, 2, max(1, pm - 1), pm, pm + 2}):
        tasks = list(schedule.tenca_koc_graph(n, e, p))
        s = schedule.asap(tasks, p)
        schedule.check(s, tasks)
        assert s.makespan == cy_tk.closed_form(n, e, p), f"n={n} w={w} p={p}"
        if p >= pm:
            assert s.makespan == 2 * n + e - 1
            assert all(t == 2 * i + j for (i, j), t in s.start.items()), "column i starts at 2i"
    free = schedule.tenca_koc(n, e, n)  # one PE per column
    assert free.max_concurrency() == pm, "P_max = ceil((e+1)/2) columns are in flight at once"


def test_tenca_koc_pe0_switch() -> None:
    """Sec. 3 says that with P_max PEs, PE 0 moves from column 0 to column P_max "after e+1 clock
    cycles". The schedule shows this only for odd e. For even e, column P_max starts in cycle
    2*P_max = e+2, because its task A waits for task (P_max-1, 1). PE 0 then idles one cycle."""
    for n, w in [(16, 4), (16, 8), (31, 4), (63, 8), (100, 8), (64, 16), (40, 4), (40, 8)]:
        e = word_count(n, w)
        pm = p_max(e)
        s = schedule.tenca_koc(n, e, pm)
        assert s.start[(0, e)] == e  # column 0 (e+1 tasks) ends in cycle e
        assert s.start[(pm, 0)] == (e + 1 if e % 2 else e + 2), f"n={n} w={w} e={e}"


def test_tenca_koc_rows() -> None:
    r = model_for("mwr2mm", 100, {"w": 8})
    assert r.label.startswith("analytic model")
    assert r.row("cycles").model == r.row("cycles").closed_form == 2 * 100 + 13 - 1
    assert r.row("pes").model == r.row("pes").closed_form == 7
    r5 = model_for("mwr2mm", 100, {"w": 8, "p": 3})
    assert r5.row("cycles").model == r5.row("cycles").closed_form > r.row("cycles").model
    assert r5.row("cycles").status == NO_FIGURE


# --- SPEC 6 item 8 and the paper figures --------------------------------------------------------


def test_spec_item_8() -> None:
    """n = 16, w = 4 (e = 5): Tenca-Koc 36, Architectures 1 and 2: 20, Harris 25."""
    assert word_count(16, 4) == 5
    tk = model_for("mwr2mm", 16, {"w": 4})
    assert tk.row("cycles").model == 36
    assert model_for("mwr2mm_arch1", 16, {"w": 4}).row("cycles").model == 20
    assert model_for("mwr2mm_arch2", 16, {"w": 4}).row("cycles").model == 20
    harris = tk.row("cycles_harris")
    assert harris.model == 25 and harris.paper == 25 and harris.status == NOT_DERIVABLE


def test_ism3_table_iv() -> None:
    """The registry's ISM3 Table IV figures appear beside the model and match it."""
    cases = [("mwr2mm", 16), ("mwr2mm_arch2", 16), ("mwr2mm_arch2", 32)]
    for algo, w in cases:
        row = model_for(algo, 3072, {"w": w}).row("cycles")
        fig = registry.figures_for(algo, "cycles", {"n": 3072, "w": w})
        assert len(fig) == 1
        assert row.paper == fig[0].cycles and row.source == fig[0].source
        assert row.status == MATCH and row.model == row.closed_form == row.paper, (algo, w, row)


def test_paper_figure_with_fewer_pes_is_flagged() -> None:
    row = model_for("mwr2mm", 3072, {"w": 16, "p": 40}).row("cycles")
    assert row.status == DIFFERS and "P_max = 97" in row.note and row.paper is not None


# --- Architectures 1 and 2 ------------------------------------------------------------------------


@pytest.mark.parametrize("n, w", SWEEP)
def test_arch2_closed_form(n: int, w: int) -> None:
    e = word_count(n, w)
    tasks = list(schedule.two_version_graph(n, e, lambda i, j: j))
    s = schedule.asap(tasks, e)
    schedule.check(s, tasks)
    assert all(t == i + j for (i, j), t in s.start.items())
    assert s.makespan == n + e - 1 == model_for("mwr2mm_arch2", n, {"w": w}).row("cycles").model


def eq6_sweep() -> list[tuple[int, int, int]]:
    """(n, w, p) with p < e: where eq. (6)'s second case applies."""
    cases = []
    for n in (8, 12, 16, 24, 30, 32, 40, 48, 60, 64, 96, 100, 128):
        for w in (2, 3, 4, 8) if n <= 64 else (4, 8):
            e = word_count(n, w)
            cases += [(n, w, p) for p in range(1, e)]
    return cases


def test_eq6_corrected_matches_printed_differs_when_p_divides_n() -> None:
    """SPEC 5.6 erratum 1: with k = ceil(n/p) - 1, eq. (6) equals the schedule in every case; the
    printed k = floor(n/p) differs exactly when p divides n."""
    cases = eq6_sweep()
    corrected_bad = printed_bad = 0
    for n, w, p in cases:
        e = word_count(n, w)
        sched = schedule.arch1(n, e, p)
        corrected_bad += sched.makespan != cy_a1.closed_form(n, e, p)
        differs = cy_a1.printed_eq6(n, e, p) != sched.makespan
        printed_bad += differs
        assert differs == (n % p == 0), f"n={n} w={w} p={p}"
    print(
        f"eq. (6): corrected {corrected_bad}/{len(cases)} mismatches, printed {printed_bad}/{len(cases)}"
    )
    assert corrected_bad == 0
    assert printed_bad == sum(n % p == 0 for n, _, p in cases) > 0


def test_arch1_rows_and_queue() -> None:
    for n, w, p in eq6_sweep()[::7] + [(16, 4, 5), (16, 4, 9), (33, 8, 2)]:
        e = word_count(n, w)
        r = model_for("mwr2mm_arch1", n, {"w": w, "p": p})
        cyc, printed, queue = r.row("cycles"), r.row("cycles_printed_eq6"), r.row("queue")
        assert cyc.model == cyc.closed_form
        assert (
            printed.model == cyc.model
            and printed.paper == printed.closed_form == cy_a1.printed_eq6(n, e, p)
        )
        assert printed.status == (DIFFERS if (p < e and n % p == 0) else MATCH)
        assert (printed.note != "") == (printed.status == DIFFERS)
        assert queue.model == queue.closed_form == (e - p if e > p else 0) and queue.status == MATCH
    # p = 1: n*e cycles (SPEC 5.5), where the printed eq. (6) gives n*e + e - 1.
    r = model_for("mwr2mm_arch1", 64, {"w": 8, "p": 1})
    assert r.row("cycles").model == 64 * 9
    assert r.row("cycles_printed_eq6").closed_form == 64 * 9 + 9 - 1


def test_arch1_with_enough_pes_is_arch2() -> None:
    for n, w in SWEEP[::5]:
        e = word_count(n, w)
        for p in (e, e + 1, 2 * e):
            a1 = schedule.arch1(n, e, p)
            assert a1.start == schedule.arch2(n, e).start
            assert max(schedule.arch1_queue(n, e, p).values(), default=0) == 0


def test_bad_cycle_parameters() -> None:
    with pytest.raises(ParameterError, match=r"n = 8 is narrower than the 9-bit modulus"):
        model_for("mwr2mm_arch2", 9, {"n": 8})
    with pytest.raises(ParameterError, match=r"p = 0 is illegal"):
        model_for("mwr2mm_arch1", 64, {"p": 0})
