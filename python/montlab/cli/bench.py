"""``montlab bench``: the click command; the work is in :mod:`montlab.bench`.

Prints a progress bar (stderr) while it runs, then one table per operation and the notes
(stdout). ``--json PATH`` and ``--plot PATH`` write the full report and the ratio plot
(``--json -`` prints the JSON on stdout instead of the tables); ``--markdown PATH`` writes the
tables as Markdown. Bad options exit with status 1 (``montlab: error: ...``), and so does a run in
which any implementation returned a wrong result or failed, after everything is written.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from montlab.cli import handle_errors
from montlab.errors import MontlabError


@click.command()
@click.option(
    "--sizes",
    multiple=True,
    metavar="BITS[,BITS...]",
    help="Modulus sizes in bits, >= 64 [default: 2048,...,65536; --quick: 2048,4096,8192].",
)
@click.option(
    "--peers",
    multiple=True,
    metavar="NAME[,NAME...]",
    help="Peers among gmpy2, flint, python, openssl, openssl-x2, gmp-native, openssl-native, "
    "openssl-native-x2 [default: the first four; '' for none].",
)
@click.option(
    "--native-peers",
    is_flag=True,
    help="Also GMP 6.3 and OpenSSL 4 (plain and x2) built from source for this CPU (cached in "
    "~/.cache/montlab/peers or $MONTLAB_PEER_CACHE; the first build takes minutes).",
)
@click.option(
    "--ops",
    multiple=True,
    metavar="OP[,OP...]",
    help="modmul, modexp, batch, modexp_sec [default: the first three].",
)
@click.option("--rounds", type=int, default=None, help="Interleaved rounds [default: 7; quick 3].")
@click.option(
    "--min-rounds",
    type=int,
    default=None,
    help="Rounds kept under the budget [default: 3; quick 1].",
)
@click.option(
    "--budget",
    "budget_s",
    type=float,
    default=None,
    help="Seconds per (operation, size) that reduce the rounds [default: 60; quick 3].",
)
@click.option(
    "--max-call",
    "max_call_s",
    type=float,
    default=None,
    help="Skip a call predicted to take longer, in seconds [default: 30; quick 5].",
)
@click.option(
    "--sample",
    "sample_s",
    type=float,
    default=None,
    help="Target seconds of one timed sample of a fast call [default: 0.05; quick 0.01].",
)
@click.option("--batch", type=int, default=None, help="Bases per batch [default: cores, >= 2].")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the operands.")
@click.option("--quick", is_flag=True, help="A fast smoke run (small sizes, few rounds).")
@click.option("--json", "json_path", metavar="PATH", default=None, help="Write the report as JSON.")
@click.option("--plot", "plot_path", metavar="PATH", default=None, help="Write the ratio plot.")
@click.option("--markdown", "md_path", metavar="PATH", default=None, help="Write Markdown tables.")
@handle_errors
def bench(
    sizes: tuple[str, ...],
    peers: tuple[str, ...],
    native_peers: bool,
    ops: tuple[str, ...],
    rounds: int | None,
    min_rounds: int | None,
    budget_s: float | None,
    max_call_s: float | None,
    sample_s: float | None,
    batch: int | None,
    seed: int,
    quick: bool,
    json_path: str | None,
    plot_path: str | None,
    md_path: str | None,
) -> None:
    """Time montlab against gmpy2, python-flint, Python and OpenSSL (and, with
    --native-peers, GMP and OpenSSL built for this CPU), side by side."""
    from montlab.bench import make_config
    from montlab.bench.output import (
        markdown,
        problems,
        run_with_progress,
        tables,
        write_json,
        write_plot,
    )
    from montlab.cli import console, emit_json

    config = make_config(
        sizes=sizes,
        peers=peers or None,
        ops=ops,
        rounds=rounds,
        min_rounds=min_rounds,
        budget_s=budget_s,
        max_call_s=max_call_s,
        sample_s=sample_s,
        batch=batch,
        seed=seed,
        quick=quick,
        native_peers=native_peers,
    )
    report = run_with_progress(config, Console(stderr=True))
    if json_path == "-":
        emit_json(report.as_dict())
    else:
        for table in tables(report):
            console.print(table)
        for line in problems(report):
            console.print(f"note: {line}", highlight=False, soft_wrap=True)
        if json_path:
            write_json(report, Path(json_path))
    if plot_path:
        write_plot(report, Path(plot_path))
    if md_path:
        Path(md_path).write_text(markdown(report))
    errors = report.errors()
    if errors:
        listed = "; ".join(f"{m.impl} {m.op} {m.bits} bits: {m.note}" for m in errors)
        raise MontlabError(f"{len(errors)} failed measurement(s): {listed}")
