"""A short atheris run of each fuzz target (tests/fuzz/fuzz_montlab.py) over its checked-in
corpus, and a check that the targets' oracles can fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import MULTIPLIER, REPO, SEED

FUZZ = REPO / "tests" / "fuzz"
#: Seconds per target in the test suite (MONTLAB_TEST_MULTIPLIER scales it).
SECONDS = max(5, int(10 * MULTIPLIER))


@pytest.mark.parametrize("target", ["int", "sets", "native"])
def test_fuzz_target_short_run(target: str, tmp_path: Path) -> None:
    work = tmp_path / "corpus"  # new inputs land here, not in the checked-in corpus
    work.mkdir()
    res = subprocess.run(
        [
            sys.executable,
            str(FUZZ / "fuzz_montlab.py"),
            target,
            str(work),
            str(FUZZ / "corpus" / target),
            f"-max_total_time={SECONDS}",
            f"-seed={SEED % 2**31 or 1}",
            f"-artifact_prefix={tmp_path}/",
        ],
        capture_output=True,
        text=True,
        timeout=SECONDS + 120,
    )
    tail = res.stderr[-3000:]
    print(f"{target}: seed {SEED % 2**31 or 1}; {tail.strip().splitlines()[-1]}")
    assert res.returncode == 0, tail
    assert not list(tmp_path.glob("crash-*")), tail
    assert "Done" in tail and " runs in " in tail


def test_oracles_catch_wrong_answers() -> None:
    """A parser off by one is caught by the int target's oracle (in a child: atheris
    instruments what it imports)."""
    code = f"""
import sys
sys.path.insert(0, {str(FUZZ)!r})
import fuzz_montlab as fz
from montlab import registry
fz.fuzz_int(b"-0x1_f")
real = registry.parse_int
registry.parse_int = lambda t, w="v": real(t, w) + 1
try:
    fz.fuzz_int(b"0x1_f")
except AssertionError:
    print("caught")
"""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == "caught", res.stderr[-2000:]
