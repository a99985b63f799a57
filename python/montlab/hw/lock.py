"""One process at a time per cache folder of the RTL flow (builds, synthesis, place and route).

Contract: ``with folder_lock(path):`` holds an exclusive ``fcntl.flock`` on ``<path>.lock``, a
file beside the folder ``path`` (created with its parent). Two processes that build, synthesize
or place the same parameter set at once (two sweep workers on one grid point, a sweep beside a
test run) then take turns: the second waits, finds the first one's cached result and uses it.
The lock is advisory, released when the block ends or the process dies, and a no-op where
``fcntl`` does not exist (Windows), where one process per folder is the caller's affair.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Iterator


@contextlib.contextmanager
def folder_lock(path: Path) -> Iterator[None]:
    """Hold the exclusive lock of the cache folder ``path`` for the block."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.parent / f"{path.name}.lock", "a") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
