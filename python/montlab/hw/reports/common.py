"""What the hardware pages share: reading sweep rows, formatting cells, running a page's sweeps
with their headers, and writing a page with its plot and tables.

Contract: a page's tables are ``{name: {"header", "rows"}}`` (rows of
:func:`montlab.hw.sweep.run_point`); :func:`run_sweeps` fills them from ``{name: {"arch",
"points", "options"}}`` and :func:`write_page` writes ``<page>.md``, ``.png`` and ``.json``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

Tables = Mapping[str, Mapping[str, Any]]


def get(row: Mapping[str, Any] | None, stage: str, key: str) -> Any:
    """``row[stage][key]``, None where the row, the stage or the key is missing."""
    part = (row or {}).get(stage) or {}
    return part.get(key)


def cell(v: Any, fmt: str = "{}") -> str:
    """A table cell: ``-`` for None."""
    return "-" if v is None else fmt.format(v)


def ok_rows(tables: Tables, name: str) -> list[Mapping[str, Any]]:
    """The rows of table ``name`` that ran (status ok)."""
    return [r for r in tables.get(name, {}).get("rows", []) if r.get("status") == "ok"]


def latency(row: Mapping[str, Any] | None) -> float | None:
    """A placed row's latency in us (measured cycles over its ECP5 Fmax); None where it was not
    placed or did not fit."""
    lat = get(row, "pnr", "latency_us") if get(row, "pnr", "fits") else None
    return None if lat is None else float(lat)


def fmax_cell(row: Mapping[str, Any] | None, missing: str = "-") -> str:
    """A table cell for a row's ECP5 Fmax: MHz, "does not fit", or ``missing`` (not placed)."""
    fits = get(row, "pnr", "fits")
    if fits:
        return cell(get(row, "pnr", "fmax_mhz"), "{:.1f}")
    return "does not fit" if fits is False else missing


def path_lines(
    rows: Sequence[Mapping[str, Any]], label: Callable[[Mapping[str, Any]], Any], head: str
) -> list[str]:
    """nextpnr's critical path per placed row (start and end cells, delay, logic steps), each
    row named by ``label`` in a column headed ``head``."""
    out = [
        f"| {head} | from | to | delay (ns) | logic / routing (ns) | logic steps |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        cp = get(r, "pnr", "critical_path")
        if not cp:
            continue
        out.append(
            f"| {label(r)} | `{cp.get('from')}` | `{cp.get('to')}` | {cell(cp.get('delay_ns'))} "
            f"| {cell(cp.get('logic_ns'))} / {cell(cp.get('routing_ns'))} "
            f"| {cell(cp.get('logic_steps'))} |"
        )
    return out


def run_sweeps(
    command: str, sweeps: Mapping[str, Mapping[str, Any]], client: Any, progress: Any
) -> dict[str, dict[str, Any]]:
    """Run each sweep on Dask and record it with its header (``command`` names the run)."""
    from montlab.hw import sweep

    out: dict[str, dict[str, Any]] = {}
    for name, spec in sweeps.items():
        opts = sweep.SweepOptions(**spec["options"])
        t0 = time.monotonic()
        rows = sweep.sweep(spec["arch"], spec["points"], opts, client=client, progress=progress)
        grid = {"points": [json.dumps(p, sort_keys=True) for p in spec["points"]]}
        head = sweep.header(command, spec["arch"], grid, {}, opts, rows, time.monotonic() - t0)
        out[name] = {"header": head, "rows": rows}
    return out


def write_page(
    out_dir: Path,
    page: str,
    tables: Tables,
    markdown: Callable[[Tables], str],
    plot: Callable[[Tables, Path], None],
) -> tuple[Path, Path, Path]:
    """Write ``<page>.md``, ``<page>.png`` and ``<page>.json`` (the tables) into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    md, png, js = (out_dir / f"{page}{ext}" for ext in (".md", ".png", ".json"))
    js.write_text(json.dumps(tables, indent=2) + "\n")
    plot(tables, png)
    md.write_text(markdown(tables))
    return md, png, js
