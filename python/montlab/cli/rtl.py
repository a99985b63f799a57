"""``montlab rtl``: list, simulate and synthesize the RTL architectures (montlab.hw).

Contract: ``rtl list`` prints the architectures, their reference ids and parameters;
``rtl sim`` builds (cached) and simulates one parameter set against the reference model with
the edge vectors and K random ones and prints {"vectors", "mismatches", "cycles", ...}
(cycles measured from start to done in simulation, beside the closed form); ``rtl synth``
prints the Yosys 7-series LUT, FF, CARRY4 and DSP48 counts and the logic levels. Bad input
raises a montlab error (``montlab: error: ...``, status 1); a simulation with mismatches exits
with status 1 after printing its summary.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, TypeVar, cast

import click
from rich.table import Table

from montlab.cli import console, emit_json, handle_errors, json_option, parse_sets
from montlab.errors import ParameterError

F = TypeVar("F", bound=Callable[..., Any])


def json_flag(fn: F) -> F:
    """The shared --json option (montlab.cli.json_option), typed for the import cycle."""
    return cast(F, json_option(fn))


def _resolve(arch_name: str, sets: tuple[str, ...]) -> tuple[Any, Any]:
    from montlab.hw import archs

    arch = archs.get(arch_name)
    return arch, arch.resolve(parse_sets(arch.ref, sets))


set_option = click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help="Architecture parameter: n, w (and p where it applies). Repeatable.",
)


@click.group()
def rtl() -> None:
    """The RTL flow: simulate against the reference models, synthesize."""


@rtl.command("list")
@json_flag
@handle_errors
def rtl_list(as_json: bool) -> None:
    """The RTL architectures and their parameters."""
    from montlab import registry
    from montlab.hw import archs

    rows = []
    for a in archs.all_archs():
        entry = registry.get(a.ref)
        params: dict[str, Any] = {"n": {"default": archs.DEFAULT_N, "max": archs.MAX_N}}
        for name in ("w", "p"):
            if name == "p" and not a.has_p:
                continue
            p = entry.params[name]
            params[name] = {"default": "auto" if p.default is None else p.default, "doc": p.doc}
        rows.append(
            {
                "arch": a.name,
                "ref": a.ref,
                "radix": 2**a.radix_bits,
                "cycles": a.formula,
                "params": params,
                "files": [str(f.relative_to(archs.REPO)) for f in a.files()],
                "doc": a.doc,
            }
        )
    if as_json:
        emit_json({"archs": rows})
        return
    t = Table(title="montlab RTL architectures")
    for col in ("arch", "ref", "radix", "cycles", "params", "description"):
        t.add_column(col, overflow="fold")
    for r in rows:
        ps = ", ".join(f"{k}={v['default']}" for k, v in r["params"].items())
        t.add_row(r["arch"], r["ref"], str(r["radix"]), r["cycles"], ps, r["doc"])
    console.print(t)


@rtl.command("sim")
@click.argument("arch_name", metavar="ARCH")
@set_option
@click.option(
    "--vectors", "count", type=int, default=100, show_default=True, help="Random vectors."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the vectors.")
@click.option(
    "--sim", "simulator", default="verilator", show_default=True, help="verilator or icarus."
)
@click.option(
    "--trace", "traced", type=int, default=4, show_default=True, help="Vectors checked per round."
)
@json_flag
@handle_errors
def rtl_sim(
    arch_name: str,
    sets: tuple[str, ...],
    count: int,
    seed: int,
    simulator: str,
    traced: int,
    as_json: bool,
) -> None:
    """Simulate ARCH against its reference model (edge vectors and K random ones)."""
    from montlab.hw import flow

    if count < 0:
        raise ParameterError(f"--vectors must be >= 0, got {count}")
    if traced < 0:
        raise ParameterError(f"--trace must be >= 0, got {traced}")
    arch, ap = _resolve(arch_name, sets)
    flow.check_simulator(simulator)
    vecs = flow.make_vectors(arch, ap, count, seed)
    res = flow.simulate(arch, ap, vecs, simulator, trace=traced)
    out = {
        "arch": arch.name,
        "ref": arch.ref,
        "params": ap.as_dict(),
        "sim": simulator,
        "seed": seed,
        "vectors": res["vectors"],
        "mismatches": res["mismatches"],
        "cycles": res["cycles"],
        "closed_form": res["closed_form"],
        "traced": res["traced"],
        "probed": res["probed"],
        "failures": res["failures"],
    }
    if as_json:
        emit_json(out)
    else:
        t = Table(title=f"{arch.name} ({simulator}), measured in simulation", show_header=False)
        t.add_column("field", style="bold")
        t.add_column("value", overflow="fold")
        t.add_row("params", ", ".join(f"{k}={v}" for k, v in out["params"].items()))
        for key in ("vectors", "mismatches", "cycles", "closed_form", "traced", "probed"):
            t.add_row(key, str(out[key]))
        console.print(t)
        for f in out["failures"]:
            click.echo(f"mismatch: {f}", err=True)
    if out["mismatches"]:
        sys.exit(1)


@rtl.command("synth")
@click.argument("arch_name", metavar="ARCH")
@set_option
@json_flag
@handle_errors
def rtl_synth(arch_name: str, sets: tuple[str, ...], as_json: bool) -> None:
    """Synthesize ARCH for Xilinx 7-series with Yosys: LUT, FF, CARRY4, DSP48, LUT levels."""
    from montlab.hw import flow

    arch, ap = _resolve(arch_name, sets)
    res = flow.synth(arch, ap)
    out = {k: res[k] for k in ("arch", "params", "LUT", "FF", "CARRY4", "DSP48", "levels")}
    out.update({"MUXF": res["MUXF"], "yosys": res["yosys"], "flow": res["flow"]})
    if as_json:
        emit_json(out)
        return
    t = Table(title=f"{arch.name}: yosys {res['yosys']} synth_xilinx (xc7)", show_header=False)
    t.add_column("field", style="bold")
    t.add_column("value")
    t.add_row("params", ", ".join(f"{k}={v}" for k, v in out["params"].items()))
    for key in ("LUT", "FF", "CARRY4", "DSP48", "MUXF", "levels"):
        t.add_row(key, str(out[key]))
    console.print(t)


@click.command("hw")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="docs/hardware",
    show_default=True,
    help="Folder for mwr2mm.md and mwr2mm.png.",
)
@click.option("--sizes", default="1024,2048,3072,4096", show_default=True, help="Operand widths n.")
@click.option(
    "--measure-max", type=int, default=4096, show_default=True, help="Largest n to simulate."
)
@click.option(
    "--synth-max", type=int, default=4096, show_default=True, help="Largest n to synthesize."
)
@click.option("--vectors", type=int, default=2, show_default=True, help="Random vectors per size.")
@handle_errors
def report_hw(out_dir: str, sizes: str, measure_max: int, synth_max: int, vectors: int) -> None:
    """Measured cycles and area of the RTL architectures beside the closed forms and the paper."""
    from pathlib import Path

    from montlab.hw.report import write_hw_report
    from montlab.registry import parse_int

    ns = tuple(parse_int(s, "--sizes") for s in sizes.split(",") if s.strip())
    if not ns:
        raise ParameterError("--sizes: give at least one n")
    md, png = write_hw_report(Path(out_dir), ns, measure_max, synth_max, max(1, vectors))
    click.echo(f"wrote {md} and {png}")
