"""``montlab selftest``: the differential soak of :mod:`montlab.selftest` for a set time.

Prints the seed first, a progress bar while it runs, then the checks per entry point and per
size band and every mismatch with what reproduces it. Exit status 1 on any mismatch.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from montlab import selftest as st
from montlab.cli import handle_errors


@click.command()
@click.option("--minutes", type=click.FloatRange(0, 24 * 60), default=1.0, show_default=True)
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=None, help="Default: drawn.")
@click.option("--no-native", is_flag=True, help="Reference models only.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None)
@handle_errors
def selftest(minutes: float, seed: int | None, no_native: bool, json_path: str | None) -> None:
    """Differential soak: every entry point against Python's pow, for MINUTES."""
    from montlab.api import native_available
    from montlab.provenance import git_commit

    commit = git_commit()  # the code that runs: HEAD may move during a long soak
    console = Console(stderr=True)
    seed = random.SystemRandom().randrange(2**32) if seed is None else seed
    native = native_available() and not no_native
    console.print(f"montlab selftest: seed {seed}, {minutes:g} min, native {native}")
    with Progress(
        TextColumn("soak"), BarColumn(), TimeElapsedColumn(), console=console, transient=True
    ) as bar:
        task = bar.add_task("soak", total=1.0)
        report = st.soak(
            minutes * 60, seed, native, progress=lambda f: bar.update(task, completed=f)
        )
    out = Console()
    table = Table(title=f"checks per entry point (seed {seed}, {report.seconds:.0f} s)")
    table.add_column("entry point")
    table.add_column("checks", justify="right")
    table.add_column("skipped", justify="right")
    table.add_column("seconds", justify="right")
    for name in sorted(set(report.by_entry) | set(report.skipped)):
        table.add_row(
            escape(name),
            str(report.by_entry[name]),
            str(report.skipped[name]),
            f"{report.time_s[name]:.1f}",
        )
    out.print(table)
    bands = Table(title="checks per size band (bits of N)")
    bands.add_column("band")
    bands.add_column("checks", justify="right")
    for band in st.BANDS:
        bands.add_row(band[0], str(report.by_band[band[0]]))
    out.print(bands)
    total = sum(report.by_entry.values())
    out.print(f"{report.cases} cases, {total} checks, {len(report.mismatches)} mismatches")
    for m in report.mismatches:
        out.print(escape(f"MISMATCH seed {m.seed} case {m.case} {m.entry}: {m.detail}"))
    if json_path:
        import time

        flags = " --no-native" if no_native else ""
        head = {
            "command": f"montlab selftest --minutes {minutes:g} --seed {seed}{flags}",
            "commit": commit,
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        Path(json_path).write_text(json.dumps({**head, **report.as_dict()}, indent=2) + "\n")
    if report.mismatches:
        raise SystemExit(1)
