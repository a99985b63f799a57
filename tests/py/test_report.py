"""montlab report cycles: the table and plot come from the cycle models."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from montlab import registry
from montlab.cycles import model_for
from montlab.report import cycle_table, write_cycle_report


def test_cycle_table_values_are_the_models() -> None:
    rows = cycle_table((64, 1024))
    with_model = {a.id for a in registry.all_algorithms() if a.cycle_module() is not None}
    assert {r["algo"] for r in rows} == with_model
    for r in rows:
        assert r["cycles"] == model_for(r["algo"], r["bits"], {}).row("cycles").model
    drmmm = [r for r in rows if r["algo"] == "drmmm" and r["bits"] == 1024][0]
    assert (drmmm["cycles"], drmmm["paper"], drmmm["status"]) == (69, 74, "not derivable")


def test_report_writes_markdown_and_plot(tmp_path: Path) -> None:
    md, png = write_cycle_report(tmp_path, (64, 128))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = md.read_text()
    assert "| `mwr2mm_arch2` |" in text and "cycles.png" in text


def test_report_command(tmp_path: Path) -> None:
    from montlab.cli import main

    args = ["report", "cycles", "--out", str(tmp_path), "--bits", "128", "--bits", "64"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert (tmp_path / "cycles.md").is_file() and (tmp_path / "cycles.png").is_file()
    text = (tmp_path / "cycles.md").read_text()
    assert "| n = 64 | n = 128 |" in text and "| `radix2` | walter=0 | n + 1 | 65 | 129 |" in text
    bad = CliRunner().invoke(main, ["report", "cycles", "--out", str(tmp_path), "--bits", "2"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output
