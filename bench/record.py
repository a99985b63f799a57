"""The JSON record every bench script writes: the command that made it, the commit, the date,
then the script's own fields (rows, rounds, ...)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any


def write_record(path: Path, **fields: Any) -> None:
    """Writes ``{command, commit, date, **fields}`` to ``path``; the command is this process's
    own (``python bench/<script> <args>``)."""
    from montlab.hw.sweep import git_commit

    script = Path(sys.argv[0]).name
    head = {
        "command": " ".join(["python", f"bench/{script}", *sys.argv[1:]]),
        "commit": git_commit(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }
    path.write_text(json.dumps({**head, **fields}, indent=2) + "\n")
