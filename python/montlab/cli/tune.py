"""``montlab tune``: measure the kernel cut-overs here and write a stamped threshold table.

Shows a progress bar (stderr) while it measures, then the measured ratios and the table. By
default the table goes to the installed location (:func:`montlab.tune.installed_path`), which
``montlab`` applies on import; ``--out`` writes elsewhere, ``--dry-run`` writes nothing.
``--show`` prints the table in force and its source without measuring; ``--replay`` picks the
cut-overs again from a run saved with ``--json`` (under the current rule), without measuring.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from montlab import tune as tn
from montlab.cli import emit_json, handle_errors
from montlab.errors import ParameterError
from montlab.tune import KEYS, NEVER, CutValue, TuneReport


def _fmt_bits(v: CutValue) -> str:
    """A cut-over as the table writes it, "never" for the engine's never."""
    if isinstance(v, int):
        return "never" if v >= NEVER else str(v)
    return "[" + ", ".join(map(_fmt_bits, v)) + "]"


def _show(console: Console) -> None:
    from montlab import _native

    tn.ensure_applied()
    console.print(f"threshold table in force (source: {tn.SOURCE}):")
    for k, v in _native.thresholds().items():
        console.print(f"  {k} = {_fmt_bits(v)}")
    if tn.SOURCE != "generic":
        _, st = tn.read_table(Path(tn.SOURCE))
        for k in ("cpu", "date", "compiler", "command"):
            if k in st:
                console.print(f"  {k}: {st[k]}")
    console.print(f"installed location: {tn.installed_path()}")


def _ratio_table(report: TuneReport) -> Table:
    table = Table(title="spectral / word-level time (below 1: spectral faster)")
    if report.of("short"):
        table.caption = (
            "short: one-shot pow(a, 65537), setup included; its spectral side is ntt_redc"
        )
    for col in ("op", "bits", "transform", "word-level", "spectral", "ratio"):
        table.add_column(col, justify="right")
    for op in KEYS:
        for p in report.of(op):
            table.add_row(
                op,
                str(p.bits),
                str(p.transform_len),
                f"{p.word_s * 1e6:.4g} µs",
                f"{p.spectral_s * 1e6:.4g} µs",
                f"{p.ratio:.2f}",
            )
    return table


def write_plot(report: TuneReport, path: Path) -> None:
    """Ratio spectral/word-level against size, one line per operation, cut-overs marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    cuts = report.thresholds()
    for i, op in enumerate(KEYS):
        pts = report.of(op)
        if not pts:
            continue
        label = "short (ntt_redc)" if op == "short" else op
        ax.plot(
            [p.bits for p in pts], [p.ratio for p in pts], marker="o", color=f"C{i}", label=label
        )
        cut = cuts[KEYS[op]]
        for k, at in enumerate([cut] if isinstance(cut, int) else cut):
            if at != NEVER:  # on (dashed), off again (dotted), ...
                ax.axvline(at, color=f"C{i}", linestyle="--" if k % 2 == 0 else ":", linewidth=1)
    ax.axhline(1.0, color="black", linewidth=1)
    ax.set_xlabel("modulus size (bits)")
    ax.set_ylabel("spectral time / word-level time")
    ax.set_title(
        f"montlab tune: spectral on (dashed), off (dotted); {report.stamp.get('date', '')},"
        f" {report.stamp.get('cpu', '')}",
        fontsize=9,
    )
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


@click.command()
@click.option("--from", "lo", type=int, default=None, help="Smallest size [default: 1024].")
@click.option("--to", "hi", type=int, default=None, help="Largest size [default: 32768].")
@click.option(
    "--step", type=int, default=None, help="Linear grid step [default: 8 sizes per octave]."
)
@click.option("--rounds", type=int, default=None, help="Alternating rounds [default: 5].")
@click.option(
    "--sample", "sample_s", type=float, default=None, help="Seconds per sample [default: 0.02]."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the operands.")
@click.option("--quick", is_flag=True, help="1024-8192 bits, 4 sizes per octave, 3 rounds.")
@click.option(
    "--ops",
    default=None,
    metavar="OP[,OP]",
    help="Measure only these of mul, pow, sec, short; the others keep the table in force"
    " [default: all].",
)
@click.option("--out", "out_path", metavar="PATH", default=None, help="Write the table here.")
@click.option("--dry-run", is_flag=True, help="Measure and print the table; write nothing.")
@click.option("--json", "json_path", metavar="PATH", default=None, help="Write the measurements.")
@click.option("--plot", "plot_path", metavar="PATH", default=None, help="Write the ratio plot.")
@click.option("--show", is_flag=True, help="Print the table in force; measure nothing.")
@click.option(
    "--replay",
    "replay_path",
    metavar="PATH",
    default=None,
    help="Pick the cut-overs from the measurements of a run saved with --json; measure nothing.",
)
@handle_errors
def tune(
    lo: int | None,
    hi: int | None,
    step: int | None,
    rounds: int | None,
    sample_s: float | None,
    seed: int,
    quick: bool,
    ops: str | None,
    out_path: str | None,
    dry_run: bool,
    json_path: str | None,
    plot_path: str | None,
    show: bool,
    replay_path: str | None,
) -> None:
    """Measure where the spectral kernels overtake the word-level one (mul, pow, the
    constant-time pow_sec, and short exponents on ntt_redc); write the table."""
    console = Console()
    if show:
        _show(console)
        return
    if replay_path is not None:
        measuring = (lo, hi, step, rounds, sample_s, ops)
        if any(v is not None for v in measuring) or quick or seed != 0:
            raise ParameterError("--replay measures nothing: it takes no grid, rounds or seed")
        report = _replayed(Path(replay_path))
    else:
        op_list = None if ops is None else tuple(o.strip() for o in ops.split(","))
        config = tn.make_config(lo, hi, step, rounds, sample_s, seed, quick, op_list)
        report = _measured(config)
    if json_path == "-":
        emit_json(report.as_dict())
    else:
        console.print(_ratio_table(report))
        if json_path:
            Path(json_path).write_text(json.dumps(report.as_dict(), indent=2) + "\n")
    if plot_path:
        write_plot(report, Path(plot_path))
    cuts = report.thresholds()
    out = None if dry_run else Path(out_path) if out_path else tn.installed_path()
    if json_path != "-":
        measured = {k: v for k, v in cuts.items() if k not in report.kept}
        for label, table in (("measured:", measured), ("generic: ", _generic())):
            console.print(label, ", ".join(f"{k} = {_fmt_bits(v)}" for k, v in table.items()))
        for k, (_, why) in report.kept.items():
            console.print(f"{k}: not measured ({why})")
    if out is not None:
        tn.write_table(report, out)
        if out == tn.installed_path() or os.environ.get(tn.ENV) == str(out):
            tn.apply_table(out)
        click.echo(f"wrote {out}", err=True)
    else:
        click.echo(tn.table_text(report), nl=False, err=json_path == "-")


def _measured(config: tn.TuneConfig) -> TuneReport:
    with Progress(
        TextColumn("[bold]tune[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=True,
        refresh_per_second=2,
    ) as progress:
        task = progress.add_task("starting", total=len(config.sizes))
        return tn.run_tune(
            config,
            notify=lambda text: progress.update(task, description=text),
            advance=lambda: progress.advance(task),
        )


def _replayed(path: Path) -> TuneReport:
    """The report saved at ``path`` (``--json``), its table stamped as picked again."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ParameterError(f"--replay {path}: {exc}") from None
    if not isinstance(data, dict):
        raise ParameterError(f"--replay {path}: not a montlab tune report")
    report = TuneReport.from_dict(data)
    report.stamp["replayed"] = f"cut-overs picked again from {path} by montlab tune --replay"
    return report


def _generic() -> dict[str, CutValue]:
    from montlab import _native

    data = tomllib.loads(_native.GENERIC_THRESHOLDS)
    flat: dict[str, CutValue] = {}
    for k, v in data.items():
        if isinstance(v, dict):
            flat.update(v)
        else:
            flat[k] = v
    return flat
