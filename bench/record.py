"""What every bench script shares: its JSON record (the command that made it, the commit, the
date, then the script's own fields), its child processes (one Python per measurement, with
the montlab under test on PYTHONPATH, printing one JSON object) and its plot's frame."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def write_record(path: Path, commit: str | None = None, **fields: Any) -> None:
    """Writes ``{command, commit, date, machine, env, **fields}`` to ``path``; the command is
    this process's own (``python bench/<script> <args>``), the commit the one given (for a long
    run, the one it started on) or else the checked-out one, the machine its CPU and Python,
    env what the timings depend on (:func:`montlab.bench.core.run_env`)."""
    import platform

    from montlab.bench.core import cpu_info, run_env
    from montlab.provenance import git_commit

    script = Path(sys.argv[0]).name
    head = {
        "command": " ".join(["python", f"bench/{script}", *sys.argv[1:]]),
        "commit": commit or git_commit(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "machine": {"cpu": cpu_info(), "python": platform.python_version()},
        "env": run_env(),
    }
    path.write_text(json.dumps({**head, **fields}, indent=2) + "\n")


def run_child(code: str, pythonpath: str, *args: str) -> Any:
    """Runs ``code`` in a fresh interpreter with ``pythonpath`` and ``args``; returns the JSON
    it prints (a failed child raises ``CalledProcessError``)."""
    res = subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**os.environ, "PYTHONPATH": pythonpath},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(res.stdout)


def axes(width: float = 6.0) -> tuple[Any, Any]:
    """A figure (``width`` by 4 inches, drawn off-screen) and its axes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, 4))


def save_plot(
    fig: Any, ax: Any, path: Path, xlabel: str, ylabel: str, legend_size: float = 8
) -> None:
    """Labels, legend and grid on ``ax``, then ``fig`` saved to ``path`` at 120 dpi."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=legend_size)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
