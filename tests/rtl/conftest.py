"""pytest configuration of the RTL tests: the shared ``rng`` fixture (see rtl_helpers).

Whichever conftest pytest loaded last is ``sys.modules["conftest"]``, and tests/py imports
names from it at run time (``from conftest import REPO``), so this one re-exports every public
name of tests/py/conftest.py (its hooks stay there).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # rtl_helpers, rtl_scenarios
# common_helpers: block-level builds, also for the blocks a design owns (tests/rtl/<design>/).
sys.path.insert(0, str(Path(__file__).resolve().parent / "common"))

import rtl_helpers  # noqa: E402

globals().update(
    {
        k: v
        for k, v in vars(rtl_helpers.py_conftest()).items()
        if not k.startswith(("_", "pytest_")) and k not in ("annotations", "sys")
    }
)
