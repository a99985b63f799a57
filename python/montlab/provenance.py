"""Where a recorded figure comes from: the commit, and the build of the native engine.

Every JSON that backs a figure in ``docs/`` (``montlab bench``, the hardware sweeps,
``bench/*.py``, ``montlab selftest``) records these beside its command.
"""

from __future__ import annotations

import subprocess
from typing import Any


def git_commit() -> str | None:
    """The checked-out commit of the repository, or None outside a git checkout."""
    from montlab.hw.specs.base import REPO

    if REPO is None:
        return None
    try:
        res = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = res.stdout.strip()
    return commit if res.returncode == 0 and commit else None


def native_build() -> dict[str, Any]:
    """The native engine's build (compiler, target, profile, version) and whether its kernels
    run on AVX-512 IFMA, on the MULX/ADX rows and on the AVX2 transforms here; empty without the
    extension."""
    try:
        from montlab import _native
    except ImportError:
        return {}
    return {**_native.BUILD, "ifma": _native.IFMA, "adx": _native.ADX, "avx2": _native.AVX2}
