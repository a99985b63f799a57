"""``montlab rtl``: list, simulate and synthesize the RTL architectures (montlab.hw).

Contract: ``rtl list`` prints the architectures, their reference ids and parameters;
``rtl sim`` builds (cached) and simulates one parameter set against the reference model with
the edge vectors and K random ones and prints {"vectors", "mismatches", "cycles", ...}
(cycles measured from start to done in simulation, beside the closed form); ``rtl synth``
prints the Yosys 7-series cell counts, LUT levels and weighted depth (montlab.hw.synth);
``rtl pnr`` the ECP5 Fmax, utilisation and latency (montlab.hw.pnr); ``rtl sweep`` runs a
parameter grid on Dask and writes one table (montlab.hw.sweep); ``rtl export`` writes one
parameter set as a standalone core (montlab.hw.export) and ``rtl load`` the ports and RAM words
of one product. Bad input
raises a montlab error (``montlab: error: ...``, status 1); a simulation with mismatches exits
with status 1 after printing its summary.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, TypeVar, cast

import click
from rich.table import Table

from montlab.cli import console, emit_json, handle_errors, json_option
from montlab.errors import ParameterError

F = TypeVar("F", bound=Callable[..., Any])


def json_flag(fn: F) -> F:
    """The shared --json option (montlab.cli.json_option), typed for the import cycle."""
    return cast(F, json_option(fn))


def _resolve(arch_name: str, sets: tuple[str, ...]) -> tuple[Any, Any]:
    from montlab.hw import specs

    spec = specs.get(arch_name)
    given: dict[str, str] = {}
    for item in sets:
        if "=" not in item:
            raise ParameterError(f"{arch_name}: --set expects key=value, got {item!r}")
        key, value = item.split("=", 1)
        given[key.strip()] = value.strip()
    return spec, spec.resolve(given)


set_option = click.option(
    "--set",
    "sets",
    multiple=True,
    metavar="KEY=VALUE",
    help="Architecture parameter (montlab rtl list shows each one's). Repeatable.",
)


@click.group()
def rtl() -> None:
    """The RTL flow: simulate against the reference models, synthesize."""


@rtl.command("list")
@json_flag
@handle_errors
def rtl_list(as_json: bool) -> None:
    """The RTL architectures and their parameters."""
    from montlab.hw import specs
    from montlab.hw.specs.base import rtl_relative

    rows: list[dict[str, Any]] = []
    for a in specs.all_specs():
        rows.append(
            {
                "arch": a.name,
                "ref": a.ref,
                "cycles": a.cycle_model,
                "params": a.param_docs(),
                "files": [rtl_relative(f) for f in a.files()],
                "variants": {
                    name: {str(v): var.erratum for v, var in table.items()}
                    for name, table in a.variants.items()
                },
                "doc": a.doc,
            }
        )
    if as_json:
        emit_json({"archs": rows})
        return
    t = Table(title="montlab RTL architectures")
    for col in ("arch", "ref", "cycle model", "params", "description"):
        t.add_column(col, overflow="fold")
    for r in rows:
        ps = ", ".join(f"{k}={v['default']}" for k, v in r["params"].items())
        t.add_row(r["arch"], r["ref"], r["cycles"], ps, r["doc"])
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
        "cycle_model": res["cycle_model"],
        "load_cycles": res["load_cycles"],
        "variant": arch.variant(ap),
        "traced": res["traced"],
        "probed": res["probed"],
        "failures": res["failures"],
        **({"status": res["status"]} if "status" in res else {}),
    }
    if as_json:
        emit_json(out)
    else:
        t = Table(title=f"{arch.name} ({simulator}), measured in simulation", show_header=False)
        t.add_column("field", style="bold")
        t.add_column("value", overflow="fold")
        t.add_row("params", ", ".join(f"{k}={v}" for k, v in out["params"].items()))
        for key in ("vectors", "mismatches", "cycles", "cycle_model", "load_cycles", "probed"):
            t.add_row(key, str(out[key]))
        for name, value in out.get("status", {}).items():
            t.add_row(name, str(value))
        console.print(t)
        for f in out["failures"]:
            click.echo(f"mismatch: {f}", err=True)
    if out["mismatches"]:
        sys.exit(1)


@rtl.command("export")
@click.argument("arch_name", metavar="ARCH")
@set_option
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder to write (new, or empty).",
)
@click.option("--vectors", "count", type=int, default=20, show_default=True, help="Random vectors.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the vectors.")
@json_flag
@handle_errors
def rtl_export(
    arch_name: str, sets: tuple[str, ...], out_dir: str, count: int, seed: int, as_json: bool
) -> None:
    """Write ARCH at one parameter set as a standalone core: sources, file list, FuseSoC core,
    known-answer vectors, a plain testbench and a README."""
    from pathlib import Path

    from montlab.hw.export import export

    if count < 0:
        raise ParameterError(f"--vectors must be >= 0, got {count}")
    arch, ap = _resolve(arch_name, sets)
    out = export(arch, ap, Path(out_dir), count, seed)
    if as_json:
        emit_json(out)
    else:
        click.echo(
            f"{out['out']}: {len(out['files'])} sources, {out['core']}, {out['testbench']}, "
            f"{out['vectors']} known-answer vectors ({out['cycles']} cycles each)"
        )


@rtl.command("load")
@click.argument("arch_name", metavar="ARCH")
@set_option
@click.option("--modulus", "modulus", required=True, help="The modulus N (decimal or 0x hex).")
@click.option("--x", "x", default="0", show_default=True, help="Operand X.")
@click.option("--y", "y", default="0", show_default=True, help="Operand Y.")
@json_flag
@handle_errors
def rtl_load(
    arch_name: str, sets: tuple[str, ...], modulus: str, x: str, y: str, as_json: bool
) -> None:
    """What ARCH takes for one product: the input ports' values and the RAM writes (the
    constants of N and the operands), and the result the reference model gives."""
    from montlab import registry

    arch, ap = _resolve(arch_name, sets)
    m = registry.parse_int(modulus, "--modulus")
    xi, yi = registry.parse_int(x, "--x"), registry.parse_int(y, "--y")
    cfg = arch.configure(ap, m)
    bound = cfg.in_bound * m
    for name, v in (("--x", xi), ("--y", yi)):
        if not 0 <= v < bound:
            raise ParameterError(f"{name} must lie in [0, {bound:#x}) for this modulus")
    load = arch.load(ap, cfg, xi, yi)
    z = arch.expect(ap, cfg, xi, yi, None)
    out = {
        "arch": arch.name,
        "params": ap.as_dict(),
        "modulus": hex(m),
        "ports": {k: hex(v) for k, v in load.ports.items()},
        "writes": [{"port": w.port, "addr": w.addr, "data": hex(w.data)} for w in load.writes],
        "result": (
            {arch.result_port: hex(z)}
            if not arch.readout(ap)
            else {"reads": [hex(w) for w in arch.readout_words(ap, z)]}
        ),
        "cycles": arch.cycles(ap),
    }
    if as_json:
        emit_json(out)
        return
    for k, v in out["ports"].items():
        click.echo(f"{k} = {v}")
    for w in out["writes"]:
        click.echo(f"{w['port']}[{w['addr']}] = {w['data']}")
    click.echo(f"result: {out['result']} after {out['cycles']} cycles")


@rtl.command("synth")
@click.argument("arch_name", metavar="ARCH")
@set_option
@click.option("--nodsp", is_flag=True, help="No DSP48 inference (synth_xilinx -nodsp).")
@click.option(
    "--hier", is_flag=True, help="Keep the hierarchy (no -flatten); report per-module counts."
)
@json_flag
@handle_errors
def rtl_synth(
    arch_name: str, sets: tuple[str, ...], nodsp: bool, hier: bool, as_json: bool
) -> None:
    """Synthesize ARCH for Xilinx 7-series with Yosys: cell counts, LUT levels and depth."""
    from montlab.hw import synth

    arch, ap = _resolve(arch_name, sets)
    res = synth.synth(arch, ap, nodsp=nodsp, hier=hier)
    keys = ("arch", "params", *synth.COUNT_KEYS, "levels", "depth", "chain", "nodsp", "hier")
    out = {k: res[k] for k in keys}
    out.update({"yosys": res["yosys"], "flow": res["flow"]})
    if hier:
        out["modules"] = res["modules"]
    if as_json:
        emit_json(out)
        return
    t = Table(title=f"{arch.name}: yosys {res['yosys']} synth_xilinx (xc7)", show_header=False)
    t.add_column("field", style="bold")
    t.add_column("value")
    t.add_row("params", ", ".join(f"{k}={v}" for k, v in out["params"].items()))
    for key in (*synth.COUNT_KEYS, "levels", "depth", "chain"):
        t.add_row(key, str(out[key]))
    console.print(t)
    if hier:
        m = Table(title="modules (all instances, with their submodules)")
        for col in ("module", "instances", "LUT", "FF", "CARRY4", "DSP48", "own LUT"):
            m.add_column(col, overflow="fold")
        for name, r in res["modules"].items():
            m.add_row(
                name,
                *(str(r[k]) for k in ("instances", "LUT", "FF", "CARRY4", "DSP48")),
                str(r["own"]["LUT"]),
            )
        console.print(m)


@rtl.command("formal")
@click.argument("arch_name", metavar="ARCH")
@set_option
@click.option(
    "--depth",
    type=int,
    default=None,
    help="Cycles checked from reset [default: 2 LAT + 4, two operations in a row].",
)
@json_flag
@handle_errors
def rtl_formal(arch_name: str, sets: tuple[str, ...], depth: int | None, as_json: bool) -> None:
    """Bounded formal check of ARCH (SymbiYosys): result, done_o cycle and reset, for every
    input sequence of DEPTH cycles. Exit status 1 when a property fails."""
    from montlab.hw import formal

    arch, ap = _resolve(arch_name, sets)
    res = formal.formal(arch, ap, depth)
    params = ", ".join(f"{k}={v}" for k, v in res["params"].items())
    _formal_report(
        res,
        as_json,
        f"{arch.name} ({params}): {res['status']} to depth {res['depth']} "
        f"(LAT {res['lat']}, r = 2^{res['rb']}) in {res['seconds']} s",
    )


def _formal_report(res: dict[str, Any], as_json: bool, headline: str) -> None:
    """Prints a formal result (JSON, or the headline and any failed assertions) and exits with
    status 1 unless it passed."""
    if as_json:
        emit_json(res)
    else:
        console.print(headline)
        for line in res["failed"]:
            console.print(f"  failed: {line}")
        if res["failed"]:
            console.print(f"  counterexample: {res['folder']}")
    if res["status"] != "PASS":
        raise SystemExit(1)


@rtl.command("formal-block")
@click.argument("block")
@click.option("--k", "k", type=int, default=None, help="Ring width K (q = 2^K + 1) [default: 8].")
@json_flag
@handle_errors
def rtl_formal_block(block: str, k: int | None, as_json: bool) -> None:
    """Formal check of a Fermat-ring BLOCK at width --k for every input (SymbiYosys):
    fermat_addsub, fermat_shift or fermat_reduce. Exit status 1 when it fails."""
    from montlab.hw import formal_blocks

    res = formal_blocks.formal_block(block, k)
    _formal_report(
        res,
        as_json,
        f"{block}, K={res['params']['K']} ({formal_blocks.describe(block)}): {res['status']} "
        f"for every input in {res['seconds']} s",
    )


@rtl.command("pnr")
@click.argument("arch_name", metavar="ARCH")
@set_option
@click.option(
    "--freq", "freq_mhz", type=float, default=100.0, show_default=True, help="Target in MHz."
)
@click.option("--seed", type=int, default=1, show_default=True, help="nextpnr placer seed.")
@json_flag
@handle_errors
def rtl_pnr(
    arch_name: str, sets: tuple[str, ...], freq_mhz: float, seed: int, as_json: bool
) -> None:
    """Place and route ARCH on a Lattice ECP5 (yosys + nextpnr-ecp5): Fmax and latency.

    The figures are ECP5 ones, not the papers' Virtex or Stratix ones."""
    from montlab.hw import pnr

    arch, ap = _resolve(arch_name, sets)
    res = pnr.pnr(arch, ap, target_mhz=freq_mhz, seed=seed)
    res = {k: v for k, v in res.items() if k != "digest"}
    if as_json:
        emit_json(res)
        return
    t = Table(title=f"{arch.name}: {res['device']}", show_header=False)
    t.add_column("field", style="bold")
    t.add_column("value", overflow="fold")
    t.add_row("params", ", ".join(f"{k}={v}" for k, v in res["params"].items()))
    if not res["fits"]:
        t.add_row("fits", f"no: {res.get('message', '')}")
    else:
        t.add_row("Fmax (MHz)", f"{res['fmax_mhz']} (target {res['target_mhz']:g})")
        t.add_row("cycles", f"{res['cycles']} ({res['cycle_model']})")
        lat = res["latency_us"]
        t.add_row("latency (us)", "-" if lat is None else f"{lat:.4g}")
        cp = res.get("critical_path")
        if cp:  # the cell names (in --json) are Yosys's, long and generated
            t.add_row(
                "critical path",
                f"{cp['delay_ns']} ns ({cp['logic_ns']} logic, {cp['routing_ns']} routing, "
                f"{cp['logic_steps']} logic steps)",
            )
    for key in ("LUT4", "FF", "DP16KD", "MULT18X18D", "wrapper_ff"):
        t.add_row(key, str(res[key]))
    console.print(t)
    click.echo(res["note"])


def _grid(items: tuple[str, ...]) -> dict[str, list[str]]:
    grid: dict[str, list[str]] = {}
    for item in items:
        if "=" not in item:
            raise ParameterError(f"--grid expects key=v1,v2,..., got {item!r}")
        key, values = item.split("=", 1)
        key = key.strip()
        if key in grid:
            raise ParameterError(f"--grid {key} is given twice")
        grid[key] = [v.strip() for v in values.split(",") if v.strip()]
        if not grid[key]:
            raise ParameterError(f"--grid {key}: give at least one value")
    return grid


def _sets(items: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise ParameterError(f"--set expects key=value, got {item!r}")
        key, value = item.split("=", 1)
        out[key.strip()] = value.strip()
    return out


@rtl.command("sweep")
@click.argument("arch_name", metavar="ARCH")
@click.option(
    "--grid",
    "grids",
    multiple=True,
    metavar="KEY=V1,V2,...",
    help="Values of one parameter; the sweep runs the cartesian product. Repeatable.",
)
@set_option
@click.option(
    "--vectors", "count", type=int, default=10, show_default=True, help="Random vectors a point."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the vectors.")
@click.option("--no-sim", "no_sim", is_flag=True, help="Do not simulate (synth / pnr only).")
@click.option("--synth", "do_synth", is_flag=True, help="Also synthesize (Yosys, xc7).")
@click.option("--pnr", "do_pnr", is_flag=True, help="Also place and route (nextpnr, ECP5).")
@click.option("--nodsp", is_flag=True, help="Synthesize with synth_xilinx -nodsp.")
@click.option(
    "--freq", "freq_mhz", type=float, default=100.0, show_default=True, help="PnR target, MHz."
)
@click.option("--scheduler", default=None, metavar="ADDRESS", help="A Dask scheduler to use.")
@click.option("--workers", type=int, default=2, show_default=True, help="Local worker processes.")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the table: .json (header and rows) or .csv (one line a point).",
)
@json_flag
@handle_errors
def rtl_sweep(
    arch_name: str,
    grids: tuple[str, ...],
    sets: tuple[str, ...],
    count: int,
    seed: int,
    no_sim: bool,
    do_synth: bool,
    do_pnr: bool,
    nodsp: bool,
    freq_mhz: float,
    scheduler: str | None,
    workers: int,
    out_path: str | None,
    as_json: bool,
) -> None:
    """Simulate (and synthesize, place and route) ARCH over a parameter grid on Dask.

    Each point is one job; a point that fails (illegal parameters, a mismatch, a tool error)
    is a row with status "failed" and the reason. Exits with status 1 when a row failed,
    after writing the table."""
    import shlex
    import time
    from pathlib import Path

    from rich.console import Console

    from montlab.hw import specs, sweep

    specs.get(arch_name)
    if count < 0:
        raise ParameterError(f"--vectors must be >= 0, got {count}")
    if nodsp and not do_synth:
        raise ParameterError("--nodsp applies to --synth")
    if out_path is not None and Path(out_path).suffix.lower() not in (".json", ".csv"):
        raise ParameterError(f"--out {out_path}: the table is written as .json or .csv")
    grid, fixed = _grid(grids), _sets(sets)
    points = sweep.grid_points(grid, fixed)
    if no_sim and not (do_synth or do_pnr):
        raise ParameterError("--no-sim leaves nothing to do: add --synth or --pnr")
    opts = sweep.SweepOptions(
        simulate=not no_sim,
        vectors=count,
        seed=seed,
        synth=do_synth,
        pnr=do_pnr,
        nodsp=nodsp,
        freq_mhz=freq_mhz,
    )
    argv = ["montlab", "rtl", "sweep", arch_name]
    argv += [f"--grid={g}" for g in grids] + [f"--set={s}" for s in sets]
    argv += ["--no-sim"] if no_sim else [f"--vectors={count}", f"--seed={seed}"]
    flags = (("--synth", do_synth), ("--pnr", do_pnr), ("--nodsp", nodsp))
    argv += [f for f, on in flags if on]
    if do_pnr:
        argv.append(f"--freq={freq_mhz:g}")
    argv += [f"--scheduler={scheduler}"] if scheduler else [f"--workers={workers}"]
    argv += [f"--out={out_path}"] if out_path else []
    t0 = time.monotonic()
    rows = sweep.sweep(
        arch_name,
        points,
        opts,
        scheduler=scheduler,
        workers=workers,
        progress=None if as_json else Console(stderr=True),
    )
    head = sweep.header(shlex.join(argv), arch_name, grid, fixed, opts, rows, time.monotonic() - t0)
    if out_path is not None:
        sweep.write_table(Path(out_path), head, rows)
    if as_json:
        emit_json({"header": head, "rows": rows})
    else:
        _sweep_table(arch_name, grid, rows, opts)
        if out_path is not None:
            click.echo(f"wrote {out_path} ({len(rows)} rows)")
    if any(r["status"] != "ok" for r in rows):
        sys.exit(1)


def _sweep_table(arch_name: str, grid: dict[str, list[str]], rows: list[Any], opts: Any) -> None:
    t = Table(title=f"{arch_name} sweep ({len(rows)} points)")
    cols = [*grid, "status", "cycles", "mismatches"]
    if opts.synth:
        cols += ["LUT", "FF", "depth"]
    if opts.pnr:
        cols += ["Fmax MHz", "latency us"]
    for col in [*cols, "error"]:
        t.add_column(col, overflow="fold")
    for r in rows:
        sim, syn, pr = r.get("sim") or {}, r.get("synth") or {}, r.get("pnr") or {}
        cells = [str(r["point"].get(k, "")) for k in grid]
        cells += [r["status"], str(sim.get("cycles", "-")), str(sim.get("mismatches", "-"))]
        if opts.synth:
            cells += [str(syn.get(k, "-")) for k in ("LUT", "FF", "depth")]
        if opts.pnr:
            lat = pr.get("latency_us")
            cells += [str(pr.get("fmax_mhz", "-")), "-" if lat is None else f"{lat:.4g}"]
        t.add_row(*cells, r.get("error") or "")
    console.print(t)


@click.command("hw")
@click.option(
    "--arch",
    "page",
    type=click.Choice(["mwr2mm", "drmmm", "ism3", "ntt64", "fmlm3"]),
    default="mwr2mm",
    show_default=True,
    help="Which page: the MWR2MM family, DRMMM, ISM3, NTT64 or FMLM3.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="docs/hardware",
    show_default=True,
    help="Folder for the page, its plot and its sweep tables (<arch>.md, .png, .json).",
)
@click.option(
    "--from",
    "from_json",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Rebuild the page from saved sweep tables (a page's .json) instead of sweeping.",
)
@click.option("--sizes", default="1024,2048,3072,4096", show_default=True, help="mwr2mm: n.")
@click.option(
    "--measure-max", type=int, default=4096, show_default=True, help="mwr2mm: largest n simulated."
)
@click.option(
    "--synth-max",
    type=int,
    default=None,
    help="mwr2mm, ntt64: largest n synthesized (default 2048 and 8192).",
)
@click.option("--vectors", type=int, default=2, show_default=True, help="mwr2mm: random vectors.")
@click.option("--n", "n_bits", type=int, default=1024, show_default=True, help="drmmm: n.")
@click.option(
    "--tsweep-n", type=int, default=64, show_default=True, help="drmmm: n of the k = 16 t-sweep."
)
@click.option("--pnr", is_flag=True, help="drmmm: also place and route the n-bit designs.")
@click.option("--no-pnr", is_flag=True, help="ism3, ntt64, fmlm3: no place and route.")
@click.option(
    "--quick",
    is_flag=True,
    help="drmmm, ism3, ntt64, fmlm3: small sizes (a check of the generator).",
)
@click.option(
    "--peers-from",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="fmlm3: keep the MWR2MM peers' sweep tables of a saved page (its .json), with their "
    "own headers, instead of placing and routing them again.",
)
@click.option("--workers", type=int, default=2, show_default=True, help="Local Dask workers.")
@click.option("--scheduler", default=None, help="A dask.distributed scheduler address.")
@handle_errors
def report_hw(
    page: str,
    out_dir: str,
    from_json: str | None,
    sizes: str,
    measure_max: int,
    synth_max: int | None,
    vectors: int,
    n_bits: int,
    tsweep_n: int,
    pnr: bool,
    no_pnr: bool,
    quick: bool,
    peers_from: str | None,
    workers: int,
    scheduler: str | None,
) -> None:
    """A hardware page (docs/hardware/<arch>.md) from sweeps of the RTL on Dask: measured cycles,
    area and clock beside the cycle models and the paper."""
    import json
    from pathlib import Path

    from rich.console import Console

    from montlab.hw import sweep
    from montlab.hw.reports import drmmm as page_drmmm
    from montlab.hw.reports import fmlm3 as page_fmlm3
    from montlab.hw.reports import ism3 as page_ism3
    from montlab.hw.reports import mwr2mm as page_mwr2mm
    from montlab.hw.reports import ntt64 as page_ntt64
    from montlab.registry import parse_int

    saved = json.loads(Path(from_json).read_text()) if from_json else None
    progress = Console(stderr=True)
    if page == "mwr2mm":
        synth_max = 2048 if synth_max is None else synth_max
        ns = tuple(parse_int(s, "--sizes") for s in sizes.split(",") if s.strip())
        if not ns:
            raise ParameterError("--sizes: give at least one n")
        if saved is None:
            with sweep.session(scheduler, workers) as client:
                saved = page_mwr2mm.tables(
                    ns, measure_max, synth_max, max(1, vectors), 0, client, progress
                )
        md, png = page_mwr2mm.write_hw_report(Path(out_dir), ns, measure_max, synth_max, tabs=saved)
        click.echo(f"wrote {md} and {png}")
        return
    if page == "ism3":
        if saved is None:
            with sweep.session(scheduler, workers) as client:
                saved = page_ism3.tables(quick, not no_pnr, client, progress)
        md, png, js = page_ism3.write(Path(out_dir), saved)
        click.echo(f"wrote {md}, {png} and {js}")
        return
    if page == "fmlm3":
        if saved is None:
            with sweep.session(scheduler, workers) as client:
                ism3_page = Path(out_dir) / "ism3.json"
                peers = Path(peers_from) if peers_from else None
                saved = page_fmlm3.tables(quick, not no_pnr, client, progress, ism3_page, peers)
        md, png, js = page_fmlm3.write(Path(out_dir), saved)
        click.echo(f"wrote {md}, {png} and {js}")
        return
    if page == "ntt64":
        smax = 8192 if synth_max is None else synth_max
        if saved is None:
            with sweep.session(scheduler, workers) as client:
                saved = page_ntt64.tables(quick, not no_pnr, client, progress, smax)
        md, png, js = page_ntt64.write(Path(out_dir), saved)
        click.echo(f"wrote {md}, {png} and {js}")
        return
    if saved is None:
        with sweep.session(scheduler, workers) as client:
            saved = page_drmmm.tables(quick, n_bits, tsweep_n, pnr, client, progress)
    md, png, js = page_drmmm.write(Path(out_dir), saved)
    click.echo(f"wrote {md}, {png} and {js}")
