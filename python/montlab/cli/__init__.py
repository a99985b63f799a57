"""The ``montlab`` command line.

Stable contract (later versions add commands and options, never change these):

* integers are read in one grammar: an optional sign, then decimal or ``0x`` hex digits, with
  ``_`` between digits as in Python; an operand ``@path`` is read from a file and ``-`` from
  standard input (once);
* JSON output writes big integers (operands, moduli, results, r, trace values) as ``0x`` hex
  strings and parameters and counts as JSON numbers;
* bad input prints ``montlab: error: ...`` on stderr and exits with status 1 (2 for usage errors).
"""

from __future__ import annotations

import functools
import json
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

import click
from rich.console import Console
from rich.table import Table

from montlab import registry
from montlab.api import AUTO, Modulus, config_params, native_available
from montlab.errors import MontlabError, OperandError, ParameterError
from montlab.vectors import hexify

F = TypeVar("F", bound=Callable[..., Any])

console = Console()

#: From this modulus size (bits) one call takes from a fifth of a second (a one-shot powm with
#: e = 65537 at 2^20 bits) to seconds (at 10^7 bits) or far longer (a full exponent): ``powm``
#: and ``mul`` then show a spinner with the elapsed time on stderr while it runs (on a terminal;
#: the call reports no fraction done).
LONG_CALL_BITS = 1 << 20


@contextmanager
def long_call(what: str, n: int) -> Iterator[None]:
    """A spinner on stderr while ``what`` runs modulo ``n``, when ``n`` is long."""
    if n.bit_length() < LONG_CALL_BITS:
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        bar.add_task(f"{what} modulo a {n.bit_length()}-bit N", total=None)
        yield


#: Commands whose positional integers may be negative (so "-5" is an operand, not an option).
_NUMERIC_ARGS = {"ignore_unknown_options": True}


def _cell(value: Any) -> str:
    """A trace value for a table: small integers in decimal, big ones in hex."""
    if isinstance(value, list):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1 << 16:
        return hex(value)
    return str(value)


def emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=2))


def handle_errors(fn: F) -> F:
    """Turn montlab errors into a one-line message and exit status 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except MontlabError as exc:
            click.echo(f"montlab: error: {exc}", err=True)
            sys.exit(1)
        except (OverflowError, MemoryError) as exc:
            click.echo(f"montlab: error: input too large ({type(exc).__name__}: {exc})", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


#: The largest operand file read (a 16-Mbit number in hex is 4 MiB).
MAX_OPERAND_FILE = 64 << 20


def read_operand_text(text: str, name: str) -> str:
    """The text of an operand: ``@path`` reads a file, ``-`` standard input (once per command)."""
    if text == "-":
        ctx = click.get_current_context(silent=True)
        meta: dict[str, Any] = ctx.meta if ctx is not None else {}
        if meta.get("montlab.stdin"):
            raise OperandError(f"{name}: standard input ('-') is already used by another operand")
        meta["montlab.stdin"] = True
        raw = sys.stdin.read(MAX_OPERAND_FILE + 1)
        if len(raw) > MAX_OPERAND_FILE:
            raise OperandError(f"{name}: standard input is larger than {MAX_OPERAND_FILE} bytes")
        return raw
    if text.startswith("@"):
        path = text[1:]
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_OPERAND_FILE + 1)
        except OSError as exc:
            raise OperandError(f"{name}: cannot read {path}: {exc.strerror or exc}") from None
        if len(raw) > MAX_OPERAND_FILE:
            raise OperandError(f"{name}: {path} is larger than {MAX_OPERAND_FILE} bytes")
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError:
            raise OperandError(f"{name}: {path} is not an ASCII integer") from None
    return text


def parse_operand(text: str, name: str) -> int:
    try:
        return registry.parse_int(read_operand_text(text, name), name)
    except ParameterError as exc:
        raise OperandError(str(exc)) from None


def parse_sets(algo: str, sets: tuple[str, ...]) -> dict[str, Any]:
    """``--set key=value`` pairs; the registry checks names and values."""
    out: dict[str, Any] = {}
    for item in sets:
        if "=" not in item:
            raise ParameterError(f"{algo}: --set expects key=value, got {item!r}")
        key, value = item.split("=", 1)
        out[key.strip()] = value.strip()
    registry.resolve_params(algo, out)  # reject unknown names and bad values early
    return out


set_option = click.option(
    "--set", "sets", multiple=True, metavar="KEY=VALUE", help="Algorithm parameter (repeatable)."
)
json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
layer_option = click.option(
    "--layer",
    type=click.Choice(["ref", "native"]),
    default=None,
    help="Implementation layer (default: native where built, else ref).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="montlab")
def main() -> None:
    """montlab: large-integer Montgomery modular multiplication (models, engines, RTL)."""


def algorithms_markdown(rows: list[dict[str, Any]]) -> str:
    """The registry as the Markdown index docs/algorithms/README.md (kept in sync by a test)."""
    lines = [
        "# Algorithms",
        "",
        "Generated from `python/montlab/algorithms.toml` by `montlab algorithms --markdown`.",
        "",
        "| id | title | citation | spec | layers | parameters (default) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        params = ", ".join(f"`{k}` ({v['default']})" for k, v in r["params"].items()) or "-"
        lines.append(
            f"| [`{r['id']}`]({r['id']}.md) | {r['title']} | {r['citation']} | {r['spec']} "
            f"| {', '.join(r['layers'])} | {params} |"
        )
    return "\n".join(lines) + "\n"


@main.command()
@json_option
@click.option("--markdown", is_flag=True, help="The Markdown index of docs/algorithms/.")
@handle_errors
def algorithms(as_json: bool, markdown: bool) -> None:
    """List the algorithm ids, their papers and their layers."""

    rows: list[dict[str, Any]] = []
    for a in registry.all_algorithms():
        rows.append(
            {
                "id": a.id,
                "title": a.title,
                "paper": a.paper.key,
                "citation": a.citation,
                "spec": a.spec,
                "layers": list(a.layers),
                "params": {
                    p.name: {
                        "default": "auto" if p.default is None else p.default,
                        "min": p.min,
                        "max": p.max,
                        "doc": p.doc,
                    }
                    for p in a.params.values()
                },
            }
        )
    if as_json:
        emit_json({"algorithms": rows, "native_built": native_available()})
        return
    if markdown:
        click.echo(algorithms_markdown(rows), nl=False)
        return
    t = Table(title="montlab algorithms")
    for col in ("id", "paper", "citation", "layers", "params"):
        t.add_column(col, overflow="fold")
    for r in rows:
        params = ", ".join(f"{k}={v['default']}" for k, v in r["params"].items())
        t.add_row(r["id"], r["paper"], r["citation"], " ".join(r["layers"]), params)
    console.print(t)


@main.command(context_settings=_NUMERIC_ARGS)
@click.argument("algo")
@click.argument("x")
@click.argument("y")
@click.argument("n")
@set_option
@layer_option
@click.option("--trace", is_flag=True, help="Record the per-iteration state (ref layer).")
@json_option
@handle_errors
def mul(
    algo: str,
    x: str,
    y: str,
    n: str,
    sets: tuple[str, ...],
    layer: str | None,
    trace: bool,
    as_json: bool,
) -> None:
    """One Montgomery product X*Y*r^-1 mod N with algorithm ALGO."""
    params = parse_sets(algo, sets)
    xv, yv = parse_operand(x, "X"), parse_operand(y, "Y")
    m = Modulus(parse_operand(n, "N"))
    eng = m.engine(algo, "ref" if trace and layer is None else layer, **params)
    tr: list[dict[str, Any]] | None = [] if trace else None
    with long_call(f"{algo} product", m.n):
        result = m.mul(xv, yv, algo, eng.layer, tr, **params)
    cfg = eng.config
    out: dict[str, Any] = {
        "algo": algo,
        "params": config_params(algo, cfg, params),
        "r": hex(cfg.r),
        "result": hex(result),
        "bound": cfg.bound,
        "layer": eng.layer,
    }
    if tr is not None:
        out["trace"] = hexify(tr)
    if as_json:
        emit_json(out)
        return
    t = Table(title=f"{algo} ({eng.layer})", show_header=False)
    t.add_column("field", style="bold")
    t.add_column("value", overflow="fold")
    t.add_row("params", ", ".join(f"{k}={v}" for k, v in out["params"].items()))
    t.add_row("r", f"2^{cfg.r.bit_length() - 1}" if cfg.r & (cfg.r - 1) == 0 else hex(cfg.r))
    t.add_row("result", out["result"])
    t.add_row("range", f"0 <= result < {cfg.bound}*N")
    console.print(t)
    if tr:
        tt = Table(title="trace")
        keys = list(tr[0])
        for k in keys:
            tt.add_column(k, overflow="fold")
        for entry in tr:
            tt.add_row(*(_cell(entry.get(k, "")) for k in keys))
        console.print(tt)


@main.command(context_settings=_NUMERIC_ARGS)
@click.argument("b")
@click.argument("e")
@click.argument("n")
@click.option(
    "--algo",
    default="auto",
    show_default=True,
    help="Algorithm id, or auto: the native size table's kernel (cios model without it).",
)
@set_option
@layer_option
@json_option
@handle_errors
def powm(
    b: str, e: str, n: str, algo: str, sets: tuple[str, ...], layer: str | None, as_json: bool
) -> None:
    """B^E mod N, fully reduced (variable time), by repeated Montgomery products of ALGO."""
    chosen = None if algo == AUTO else algo
    if chosen is None and sets:
        raise ParameterError(f"{AUTO}: --set needs --algo (got {', '.join(sets)})")
    params = parse_sets(algo, sets) if chosen else {}
    base, exp = parse_operand(b, "B"), parse_operand(e, "E")
    m = Modulus(parse_operand(n, "N"))
    if chosen is None:
        used_layer = Modulus.auto_layer(layer)
        shown: dict[str, Any] = {}
    else:
        eng = m.engine(chosen, layer, **params)
        used_layer = eng.layer
        shown = config_params(chosen, eng.config, params)
    # The kernel that runs: the size table's pick for auto, the algorithm itself otherwise.
    kernel = m.pow_kernel(exp, chosen, used_layer) if exp >= 0 else algo
    with long_call(f"{algo} powm", m.n):
        result = m.pow(base, exp, chosen, used_layer, **params)
    if as_json:
        emit_json(
            {
                "algo": algo,
                "params": shown,
                "layer": used_layer,
                "kernel": kernel,
                "result": hex(result),
            }
        )
    else:
        click.echo(hex(result))


#: The widest operand the cycle models take (some enumerate the schedule word by word).
MAX_CYCLES_BITS = 1 << 16


@main.command()
@click.argument("algo")
@click.option("--bits", type=int, default=None, help="Operand width n (fmlm3: omit for Table 5).")
@set_option
@json_option
@handle_errors
def cycles(algo: str, bits: int | None, sets: tuple[str, ...], as_json: bool) -> None:
    """The analytic cycle model of ALGO, with the paper's figures beside it."""
    from montlab.cycles import model_for

    if bits is None:
        from montlab.cli.spectral import paper_cycle_table

        if not paper_cycle_table(algo, sets, as_json, console):
            raise ParameterError(f"{algo}: --bits is required (only fmlm3 has a cycle table)")
        return
    if not 2 <= bits <= MAX_CYCLES_BITS:
        raise ParameterError(f"{algo}: --bits must be in [2, {MAX_CYCLES_BITS}], got {bits}")
    params = parse_sets(algo, sets)
    rep = model_for(algo, bits, params)
    rows: list[dict[str, Any]] = [
        {
            "quantity": r.quantity,
            "formula": r.formula,
            "model": r.model,
            "closed_form": r.closed_form,
            "paper": r.paper,
            "source": r.source,
            "status": r.status,
            "note": r.note,
        }
        for r in rep.rows
    ]
    if as_json:
        emit_json(
            {
                "algo": algo,
                "bits": bits,
                "params": dict(rep.params),
                "label": rep.label,
                "rows": rows,
            }
        )
        return
    t = Table(title=f"{algo}, n = {bits}: {rep.label}")
    for col in ("quantity", "formula", "model", "paper", "status", "source / note"):
        t.add_column(col, overflow="fold")
    for r in rows:
        paper = "-" if r["paper"] is None else str(r["paper"])
        t.add_row(
            r["quantity"],
            r["formula"],
            "-" if r["model"] is None else str(r["model"]),
            paper,
            r["status"],
            " ".join(x for x in (r["source"], r["note"]) if x),
        )
    console.print(t)


@main.command()
@click.argument("algo")
@click.option("--bits", type=int, required=True, help="Modulus width in bits.")
@click.option("--count", type=int, default=16, show_default=True, help="Random vectors.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the generator.")
@click.option("--edge", is_flag=True, help="Also emit the structured edge-case vectors.")
@click.option("--trace", is_flag=True, help="Include the per-iteration trace.")
@set_option
@handle_errors
def vectors(
    algo: str, bits: int, count: int, seed: int, edge: bool, trace: bool, sets: tuple[str, ...]
) -> None:
    """JSON Lines test vectors for ALGO (random moduli of BITS bits)."""
    from montlab import vectors as vec

    if bits < 2:
        raise ParameterError(f"{algo}: --bits must be >= 2, got {bits}")
    if count < 0:
        raise ParameterError(f"--count must be >= 0, got {count}")
    params = parse_sets(algo, sets)
    registry.get(algo)
    for rec in vec.random_mul_records(algo, bits, count, seed, params):
        if trace:
            rec = vec.mul_record(algo, rec["modulus"], rec["x"], rec["y"], params, "random", True)
        click.echo(vec.encode_record(rec))
    if edge:
        for rec in vec.edge_mul_records(algo, bits, params):
            click.echo(vec.encode_record(rec))


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option(
    "--bits",
    type=int,
    default=2048,
    show_default=True,
    help="Use the embedded modulus (2048) or a generated one of this size.",
)
@handle_errors
def demo(as_json: bool, bits: int) -> None:
    """Run every algorithm and layer on an embedded 2048-bit RSA modulus and check them."""
    from montlab.cli.demo import run_demo

    ok = run_demo(as_json=as_json, bits=bits, console=console)
    if not ok:
        sys.exit(1)


@main.group()
def report() -> None:
    """Generated reports (Markdown tables with plots)."""


@report.command("cycles")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="docs",
    show_default=True,
    help="Folder for cycles.md and cycles.png.",
)
@click.option(
    "--bits",
    "sizes",
    type=click.IntRange(min=3, max=1 << 16),
    multiple=True,
    help="Sizes of N (repeatable; default 256, 512, 1024, 2048, 3072, 4096).",
)
@handle_errors
def report_cycles(out_dir: str, sizes: tuple[int, ...]) -> None:
    """The cycle models of every algorithm over n = 256 ... 4096 (or --bits), with a plot."""
    from pathlib import Path

    from montlab.report import SIZES, write_cycle_report

    md, png = write_cycle_report(Path(out_dir), tuple(sorted(set(sizes))) or SIZES)
    click.echo(f"wrote {md} and {png}")


from montlab.cli.bench import bench  # noqa: E402  (it uses the helpers above)
from montlab.cli.selftest import selftest  # noqa: E402
from montlab.cli.spectral import params, tables  # noqa: E402
from montlab.cli.tune import tune  # noqa: E402

main.add_command(bench)
main.add_command(params)
main.add_command(tables)
main.add_command(selftest)
main.add_command(tune)

from montlab.cli.rtl import report_hw, rtl  # noqa: E402  (it uses the helpers above)

main.add_command(rtl)
report.add_command(report_hw)

if __name__ == "__main__":  # pragma: no cover
    main()
