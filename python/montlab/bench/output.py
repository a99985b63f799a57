"""What a benchmark run shows and writes: progress, tables, Markdown, JSON and the plot.

Contract. Every figure printed or written comes from one :class:`~montlab.bench.core.BenchReport`:
medians in seconds per operation (per modexp for ``batch``) and ratios montlab/peer (below 1:
montlab faster). The JSON holds the configuration, the exact command, the date (UTC), the
machine (CPU model and flags from /proc/cpuinfo, Python and peer versions), every sample, the
medians, the ratios, the notes and the errors. The plot has one panel per operation: ratio
against size (log2 axis), one line per peer, and a line at 1.0.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from montlab.bench.core import BenchConfig, BenchReport, run_bench

OP_TITLES = {
    "modmul": "one modular multiplication",
    "modexp": "one modexp, full-size exponent",
    "batch": "batch modexp, time per modexp",
    "modexp_sec": "one constant-time modexp, full-size exponent",
}


def fmt_time(seconds: float | None) -> str:
    """Seconds with a unit and three significant digits; "-" for None."""
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def fmt_ratio(ratio: float | None) -> str:
    return "-" if ratio is None else f"{ratio:.2f}"


def _cell(report: BenchReport, op: str, bits: int, impl: str) -> str:
    m = report.get(op, bits, impl)
    if m is None:
        return "-"
    if m.status == "error":
        return "ERROR"
    if m.status == "skipped":
        return "skipped"
    return fmt_time(m.median)


def _rows(report: BenchReport, op: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of one operation's table: bits, montlab, then peer time and ratio."""
    names = report.impl_names(op)
    peers = [n for n in names if n != "montlab"]
    header = ["bits", "montlab"]
    for p in peers:
        header += [p, f"ml/{p}"]
    rows = []
    for bits in report.config.sizes:
        row = [str(bits), _cell(report, op, bits, "montlab")]
        for p in peers:
            row += [_cell(report, op, bits, p), fmt_ratio(report.ratio(op, bits, p))]
        rows.append(row)
    return header, rows


def _caption(report: BenchReport, op: str) -> str:
    """What each implementation called, with the sizes where that changes (kernel dispatch)."""
    parts = []
    for name in report.impl_names(op):
        runs: list[tuple[str, list[int]]] = []
        for bits in report.config.sizes:
            m = report.get(op, bits, name)
            if m is None or not m.detail:
                continue
            if runs and runs[-1][0] == m.detail:
                runs[-1][1].append(bits)
            else:
                runs.append((m.detail, [bits]))
        if len(runs) == 1:
            parts.append(f"{name}: {runs[0][0]}")
        elif runs:
            spans = [f"{d} at {b[0]}" + (f"-{b[-1]}" if len(b) > 1 else "") for d, b in runs]
            parts.append(f"{name}: {', '.join(spans)} bits")
    return "; ".join(parts)


def tables(report: BenchReport) -> list[Table]:
    """One rich table per operation; a peer's cell is "median (ml/peer)"."""
    out = []
    for op in report.config.ops:
        peers = [n for n in report.impl_names(op) if n != "montlab"]
        t = Table(title=f"{op}: {OP_TITLES[op]}; median (ml/peer, < 1: montlab faster)")
        t.add_column("bits", no_wrap=True)
        for name in ["montlab", *peers]:
            t.add_column(name, justify="right", no_wrap=True)
        for bits in report.config.sizes:
            row = [str(bits), _cell(report, op, bits, "montlab")]
            for p in peers:
                ratio = report.ratio(op, bits, p)
                cell = _cell(report, op, bits, p)
                row.append(cell if ratio is None else f"{cell} ({fmt_ratio(ratio)})")
            t.add_row(*row)
        t.caption = _caption(report, op)
        out.append(t)
    return out


def problems(report: BenchReport) -> list[str]:
    """One line per skipped or failed entry, then the run's notes."""
    lines = [
        f"{m.op} {m.bits} {m.impl}: {m.status}: {m.note}"
        for m in report.measurements
        if m.status != "ok" or m.note
    ]
    return lines + report.notes + [f"the run took {report.seconds:.0f} s"]


def markdown(report: BenchReport) -> str:
    """The tables as Markdown, with the command, the date and the machine."""
    cpu = report.machine.get("cpu", {})
    lines = [
        f"Command: `{report.config.command()}`",
        "",
        f"Date (UTC): {report.date}; CPU: {cpu.get('model', '?')}, {cpu.get('cores', '?')} cores "
        f"({' '.join(cpu.get('flags', []))}); {report.machine.get('python', '')}; "
        f"1-minute load average {_load(report)}.",
        "",
    ]
    versions = report.machine.get("versions", {})
    build = report.machine.get("native_build", {})
    lines += [
        "Versions: " + "; ".join(f"{k} {v}" for k, v in versions.items() if v) + ".",
        "",
        f"Commit: {report.machine.get('commit') or 'unknown'}; native build: "
        f"{build.get('rustc', '?')}, {build.get('profile', '?')}, "
        f"IFMA kernels {'on' if build.get('ifma') else 'off'}.",
        "",
    ]
    for op in report.config.ops:
        header, rows = _rows(report, op)
        lines += [f"**{op}**: {OP_TITLES[op]} (median; ml/peer < 1: montlab faster)", ""]
        lines.append("| " + " | ".join(header) + " |")
        lines.append("| " + " | ".join("---" for _ in header) + " |")
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        lines += ["", _caption(report, op) + ".", ""]
    notes = problems(report)
    if notes:
        lines += ["Notes:", ""] + [f"- {n}" for n in notes] + [""]
    return "\n".join(lines)


def _load(report: BenchReport) -> str:
    load = report.machine.get("load_average_1min", {})
    if load.get("start") is None:
        return "not reported"
    return f"{load['start']:.1f} at the start, {load['end']:.1f} at the end"


def write_json(report: BenchReport, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report.as_dict(), indent=2) + "\n")


def write_plot(report: BenchReport, path: Path) -> None:
    """Ratio montlab/peer against size, one panel per operation, one line per peer."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    ops = list(report.config.ops)
    names = list(dict.fromkeys(n for op in ops for n in report.impl_names(op) if n != "montlab"))
    colors = {n: f"C{i}" for i, n in enumerate(names)}
    plain = FuncFormatter(lambda v, _pos: f"{v:g}")
    some = FuncFormatter(lambda v, _pos: f"{v:g}" if f"{v:.1e}"[:3] in ("2.0", "5.0") else "")
    fig, axes = plt.subplots(1, len(ops), figsize=(5.2 * len(ops), 4.4), squeeze=False)
    for ax, op in zip(axes[0], ops):
        for peer in (n for n in report.impl_names(op) if n != "montlab"):
            pts = [
                (bits, r)
                for bits in report.config.sizes
                if (r := report.ratio(op, bits, peer)) is not None
            ]
            if pts:
                xs, ys = zip(*pts)
                ax.plot(xs, ys, marker="o", color=colors[peer], label=peer)
        ax.axhline(1.0, color="black", linewidth=1)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(list(report.config.sizes))
        ax.set_xticklabels([str(b) for b in report.config.sizes], rotation=45)
        ax.xaxis.set_minor_formatter(FuncFormatter(lambda _v, _pos: ""))
        ax.yaxis.set_major_formatter(plain)
        ax.yaxis.set_minor_formatter(some)
        ax.set_xlabel("modulus size (bits)")
        ax.set_ylabel("montlab time / peer time")
        ax.set_title(OP_TITLES[op])
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend()
    cpu = report.machine.get("cpu", {}).get("model", "")
    fig.suptitle(
        f"montlab bench: time ratio montlab/peer (below 1: montlab faster); {report.date}, {cpu}",
        fontsize=9,
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run_with_progress(config: BenchConfig, console: Console | None = None) -> BenchReport:
    """:func:`run_bench` with a rich progress bar on ``console`` (stderr by default)."""
    console = console or Console(stderr=True)
    with Progress(
        TextColumn("[bold]bench[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=console,
        transient=True,
        refresh_per_second=2,  # the refresh thread takes the GIL: keep it rare while timing
    ) as progress:
        task = progress.add_task("loading", total=len(config.sizes) * len(config.ops))
        report = run_bench(
            config,
            notify=lambda text: progress.update(task, description=text),
            advance=lambda: progress.advance(task),
        )
    return report
