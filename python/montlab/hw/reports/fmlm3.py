"""``montlab report hw --arch fmlm3``: docs/hardware/fmlm3.md, fmlm3.png and fmlm3.json.

Contract: the page is built from sweep tables (:mod:`montlab.hw.sweep`), saved beside it with
their headers (command, commit, tools, date). Two sweeps of rtl/fmlm3, each point simulated
(every product checked against the model, a traced one phase by phase and stage by stage, and
each transform's start and done edges on the engine, so a point with 0 mismatches has every
transform's cycles measured equal to montlab.hw.fmlm3_schedule):

  * ``table5``: P = 32, 64, 128 with 1, 2 and 4 butterfly structures, on a ring with c = 1 and
    one with c = 1/2 (A = sqrt 2) per P: the cells of Table 5 beside eqs. (28)-(29);
  * ``table6``: the 18 Table 6 sets (the 1-BFS design is the slower of each pair of equal rows),
    cycles per product beside the paper's; with ``synth``, Yosys area (xc7) too.

Table 5 and Table 6 as printed are montlab.cycles.fmlm3.TABLE5 and
montlab.spectral_params.FMLM3_TABLE6 (the paper's numbers, labelled as such).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from montlab.hw.reports.common import cell as _c
from montlab.hw.reports.common import get as _get
from montlab.hw.reports.common import ok_rows as _rows
from montlab.hw.reports.common import run_sweeps, write_page

#: Per P: (u, ring) of a c = 1 set and of a c = 1/2 set, both at Algorithm 2's tightest u.
TABLE5_SETS = {32: ((13, 32), (5, 16)), 64: ((28, 64), (12, 32)), 128: ((60, 128), (28, 64))}
BFS = (1, 2, 4)


def table6_points() -> list[dict[str, int]]:
    from montlab import spectral_params as sp

    return [
        {"p": r[4], "u": r[5], "ring": r[3], "alg": r[1], "bfs": sp.fmlm3_table6_bfs(r)}
        for r in sp.FMLM3_TABLE6
    ]


def sweeps(quick: bool = False, synth: bool = False) -> dict[str, dict[str, Any]]:
    """The sweeps the page needs. ``quick``: P = 32 and the first two Table 6 sets."""
    t5 = [
        {"p": p, "u": u, "ring": k, "alg": 2, "bfs": n}
        for p, sets in TABLE5_SETS.items()
        if not quick or p == 32
        for u, k in sets
        for n in BFS
    ]
    t6 = table6_points()[: 2 if quick else None]
    return {
        "table5": {"arch": "fmlm3", "points": t5, "options": {"vectors": 1, "edge": False}},
        "table6": {
            "arch": "fmlm3",
            "points": t6,
            "options": {"vectors": 2, "edge": False, "synth": synth},
        },
    }


def _hw(row: Mapping[str, Any]) -> Any:
    from montlab.hw import specs

    spec = specs.get("fmlm3")
    keys = ("p", "u", "ring", "alg", "bfs", "bfly_lat", "sw_lat", "rd_lat", "base_lat", "level_lat")
    p = row["params"]
    return spec.hw(spec.resolve({k: p[k] for k in keys if k in p}))  # type: ignore[attr-defined]


def _measured(row: Mapping[str, Any]) -> bool:
    """The simulation ran with 0 mismatches: every probe (each transform's edges) held."""
    return _get(row, "sim", "mismatches") == 0 and _get(row, "sim", "cycles") is not None


def table5_cells(tables: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every Table 5 cell (kind, n, P, sqrt 2) with the paper's figure, eqs. (28)-(29) and ours
    (None where that point did not run clean)."""
    from montlab.cycles import fmlm3 as cyc

    rows = _rows(tables, "table5")
    by = {(r["params"]["p"], r["params"]["bfs"], bool(r["params"]["sqrt2"])): r for r in rows}
    out = []
    for kind in cyc.KINDS:
        for n in BFS:
            for p in cyc.TABLE5_P:
                for sq in (False, True):
                    if sq and kind in ("ct", "ict"):
                        continue
                    printed = cyc.TABLE5.get((kind, n))
                    pap = None
                    if printed:
                        vals = printed[cyc.TABLE5_P.index(p)]
                        pap = vals[1] if sq and len(vals) == 2 else vals[0]
                    r = by.get((p, n, sq))
                    ours = _hw(r).transform_cycles(kind) if r and _measured(r) else None
                    out.append({"kind": kind, "n": n, "P": p, "sqrt2": sq, "paper": pap,
                                "model": cyc.transform_cycles(kind, p, n, sq), "ours": ours})  # fmt: skip
    return out


def table5_claims(cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """What the measured cells say about the paper's open points, from the cells."""
    fwd = [c for c in cells if c["kind"] in ("ct", "nct")]
    inv = [c for c in cells if c["kind"] in ("ict", "inct")]
    ran = [c for c in fwd if c["ours"] is not None]
    out = []
    if ran:
        eq = sum(c["ours"] == c["model"] for c in ran)
        out.append(
            f"* CT and NCT: {eq} of {len(ran)} measured cells equal eqs. (28)-(29)"
            f"{' (every one)' if eq == len(ran) else ''}, including n = 4."
        )
        p32 = [c for c in ran if c["P"] == 32 and c["n"] == 1]
        if p32:
            ok = all(c["ours"] == c["model"] and c["paper"] == c["model"] + 1 for c in p32
                     if c["paper"] is not None)  # fmt: skip
            out.append(
                "* The printed P = 32, n = 1 cells (one more than the equations): "
                + (
                    "our schedule meets the equations there, so the extra cycle is not needed."
                    if ok
                    else "see the table."
                )  # fmt: skip
            )
        sq = [(c, d) for c in ran for d in ran if c["kind"] == d["kind"] == "nct"
              and c["P"] == d["P"] and c["n"] == d["n"] and c["sqrt2"] and not d["sqrt2"]]  # fmt: skip
        if sq:
            plus = {c["ours"] - d["ours"] for c, d in sq}
            out.append(f"* The sqrt 2 supplemental block costs {sorted(plus)} cycles on NCT.")
    ran_i = [c for c in inv if c["ours"] is not None]
    if ran_i:
        gaps = sorted({c["ours"] - c["model"] for c in ran_i})
        out.append(
            f"* CT^-1 and NCT^-1: ours differ from eq. (29) by {gaps[0]} to {gaps[-1]} cycles; "
            "the final-stage operators run as a separate pass (see above)."
        )
    return out


def table5_lines(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    from montlab.cycles.fmlm3 import LABELS

    out = [
        "| transform | n | P | paper (Table 5) | eqs. (28)-(29) | ours, measured | ours - eq. |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for c in table5_cells(tables):
        diff = "-" if c["ours"] is None else f"{c['ours'] - c['model']:+d}"
        label = LABELS[c["kind"]] + (" (A = sqrt2)" if c["sqrt2"] else "")
        out.append(
            f"| {label} | {c['n']} | {c['P']} | {_c(c['paper'])} | {c['model']} "
            f"| {_c(c['ours'])} | {diff} |"
        )
    return out


def table6_lines(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Table 6 beside our cycles; the area columns only where the sweep synthesized."""
    from montlab import spectral_params as sp

    rows = _rows(tables, "table6")
    area = any(_get(r, "synth", "LUT") is not None for r in rows)
    head = "| l | Alg | M | P | u | BFS | paper cycles | ours, measured | transforms "
    rule = "| --- | --- | --- | --- | --- | --- | --- | --- | --- "
    if area:
        head += "| LUT | FF | DSP48 | RAMB36/18 "
        rule += "| --- | --- | --- | --- "
    out = [head + "| paper LUT / DSP | mismatches / vectors |", rule + "| --- | --- |"]
    for row, paper, (lut, dsp) in zip(table6_points(), sp.FMLM3_TABLE6, TABLE6_AREA, strict=True):
        r = next((x for x in rows if _same(x, row)), None)
        hw = _hw({"params": row}) if r is None else _hw(r)
        tr = sum(hw.transform_cycles(k) for k in _kinds(row["alg"]))
        line = (
            f"| {paper[0]} | {row['alg']} | 2^{row['ring']}+1 | {row['p']} | {row['u']} "
            f"| {row['bfs']} | {paper[6]} | {_c(_get(r, 'sim', 'cycles'))} | {tr} "
        )
        if area:
            line += (
                f"| {_c(_get(r, 'synth', 'LUT'))} | {_c(_get(r, 'synth', 'FF'))} "
                f"| {_c(_get(r, 'synth', 'DSP48'))} "
                f"| {_c(_get(r, 'synth', 'RAMB36'))}/{_c(_get(r, 'synth', 'RAMB18'))} "
            )
        line += (
            f"| {lut} / {dsp} "
            f"| {_c(_get(r, 'sim', 'mismatches'))} / {_c(_get(r, 'sim', 'vectors'))} |"
        )
        out.append(line)
    return out


def table6_claims(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Our cycles against the paper's, from the rows."""
    from montlab import spectral_params as sp
    from montlab.cycles.fmlm3 import transform_cycles

    pairs, shares = [], []
    for row, paper in zip(table6_points(), sp.FMLM3_TABLE6, strict=True):
        r = next((x for x in _rows(tables, "table6") if _same(x, row)), None)
        if r is None or not _measured(r):
            continue
        ours = int(_get(r, "sim", "cycles"))
        pairs.append(ours / paper[6])
        hw = _hw(r)
        sq = bool(r["params"]["sqrt2"])
        inv = sum(
            hw.transform_cycles(k) - transform_cycles(k, hw.p, hw.lanes, sq and k == "inct")
            for k in _kinds(row["alg"])
            if k in ("ict", "inct")
        )
        digit = sum(n for name, _, n in hw.phases() if name.split(":")[1] not in ("MUL", "NTT"))
        digit -= sum(hw.acc_length(m) for m in ([0] * (row["alg"] - 1) + [1]))
        if ours > paper[6]:
            shares.append((inv + digit) / (ours - paper[6]))
    if not pairs:
        return []
    med = sorted(pairs)[len(pairs) // 2]
    out = [
        f"* {len(pairs)} of 18 sets simulated with 0 mismatches; our cycles are "
        f"{min(pairs):.2f} to {max(pairs):.2f} times the paper's (median {med:.2f})."
    ]
    if shares:
        out.append(
            "* Our inverses' final-stage passes (their excess over eq. (29)) and our "
            "digit-serial time-domain passes (u bits a cycle; the paper works on 2u- or 4u-bit "
            f"segments) amount to {min(shares):.0%} to {max(shares):.0%} of the difference"
            + (": in every set they alone exceed it." if min(shares) >= 1 else ".")
        )
    return out


#: Table 6's LUT and DSP columns, in its row order (the paper's numbers).
TABLE6_AREA = [
    (13811, 27), (7845, 27), (6047, 9), (5003, 9), (21975, 90), (15621, 45), (13975, 27),
    (7337, 9), (5964, 9), (23460, 90), (13684, 27), (7351, 9), (5838, 9), (34995, 135),
    (19005, 81), (14243, 27), (11898, 27), (14683, 27),
]  # fmt: skip


def _same(row: Mapping[str, Any], point: Mapping[str, int]) -> bool:
    p = row["params"]
    return all(p.get(k) == v for k, v in point.items())


def _kinds(alg: int) -> list[str]:
    from montlab.cycles.fmlm3 import COUNTS

    return [k for k, n in COUNTS[alg].items() for _ in range(n)]


def markdown(tables: Mapping[str, Mapping[str, Any]]) -> str:
    head = tables["table5"]["header"]
    lines = [
        "# FMLM3 in RTL (rtl/fmlm3)",
        "",
        "FFT-based McLaughlin Montgomery multiplication, Algorithms 2 and 3 as corrected in SPEC "
        "1.4-1.5, on one split-halves transform unit with the paper's depths (butterfly "
        "structure 6, channel switch 2, 3 read/write cycles), one Karatsuba multiply-adder and "
        "digit-serial time-domain units, run by a microprogram (`montlab.hw.fmlm3_ucode`). "
        "Generated by `" + str(head.get("command")) + "` at commit "
        f"`{head.get('git') or 'unknown'}`; the sweep tables are in `fmlm3.json` (each with its "
        "command, commit, tool versions and date).",
        "",
        "Every point below was simulated against the reference model: a product checked phase by "
        "phase and, inside each transform, stage by stage, with each transform's start and done "
        "edges on the engine checked at the cycle the schedule model gives. A point with 0 "
        "mismatches therefore has its transforms' cycles **measured** equal to the model.",
        "",
        "## Table 5: cycles per transform",
        "",
        "Ours for CT and NCT is the engine's run, start to done. For CT^-1 and NCT^-1 it adds "
        "the ACC pass, where our final-stage operators (scaling, the eq. (12) window lift, the "
        "digit accumulator) run at one coefficient per cycle after the last stage has been "
        "written back; the paper streams the last stage's outputs into two final-stage "
        "operators at two digits per cycle. That design difference is the whole gap in those "
        "rows.",
        "",
        *table5_claims(table5_cells(tables)),
        "",
        *table5_lines(tables),
        "",
        "## Table 6: the paper's 18 sets",
        "",
        "Cycles per product on our schedule (a model, `montlab.hw.fmlm3_schedule`, which the "
        "simulation measures); the paper's totals cannot be derived from its text (SPEC 1.7). "
        "'transforms' is the sum of our per-transform counts for the algorithm's transforms "
        "(the inverses with their final-stage pass). The paper's LUT and DSP columns are its "
        "Virtex-6 figures; ours need `--synth` (not part of this run where the columns are "
        "missing).",
        "",
        *table6_claims(tables),
        "",
        *table6_lines(tables),
        "",
        "## Our whole-multiplication schedule (a model)",
        "",
        "One microprogram word per phase; with ML the multiplier's latency and T the engine's "
        "run: MUL P + ML + 5, NTT T + 2, ACC P + 5 (+2 on the sqrt 2 ring for (A^n P)^-1), HALF "
        "and COPY P + 3, the other digit passes P + 2. T'(x) . T'(y) runs beside NCT(m) (the "
        "overlap of Sec. 5.4): that phase lasts max(T + 2, P + ML + 5).",
        "",
        "![cycles](fmlm3.png)",
        "",
    ]
    return "\n".join(lines)


def plot(tables: Mapping[str, Mapping[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from montlab import spectral_params as sp

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for bfs, mark in ((1, "o"), (2, "s")):
        pts = sorted(
            (int(r["params"]["l"]), int(_get(r, "sim", "cycles")))
            for r in _rows(tables, "table6")
            if r["params"]["bfs"] == bfs and _get(r, "sim", "cycles")
        )
        if pts:
            ax.plot(*zip(*pts), mark, label=f"ours, {bfs} BFS (measured)")
    pap = sorted((row[0], row[6]) for row in sp.FMLM3_TABLE6)
    ax.plot(*zip(*pap), "x", color="grey", label="paper, Table 6")
    ax.set(xlabel="operand bits l", ylabel="cycles per product", title="FMLM3 cycles")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write(out_dir: Path, tables: Mapping[str, Mapping[str, Any]]) -> tuple[Path, Path, Path]:
    """Write fmlm3.md, fmlm3.png and fmlm3.json (the tables) into ``out_dir``."""
    return write_page(out_dir, "fmlm3", tables, markdown, plot)


def tables(
    quick: bool = False, synth: bool = False, client: Any = None, progress: Any = None
) -> dict[str, dict[str, Any]]:
    """Run the page's sweeps: {name: {"header", "rows"}}."""
    cmd = "montlab report hw --arch fmlm3" + (" --quick" if quick else "")
    cmd += " --synth" if synth else ""
    return run_sweeps(cmd, sweeps(quick, synth), client, progress)
