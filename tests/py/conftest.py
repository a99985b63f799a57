"""Shared test configuration: reproducible randomness and scalable counts.

* ``MONTLAB_SEED`` fixes the seed (printed in the pytest header and by every randomized test);
  otherwise one is drawn per run.
* ``MONTLAB_TEST_MULTIPLIER`` scales the iteration counts of randomized tests (default 1).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

SEED = int(os.environ.get("MONTLAB_SEED", str(random.SystemRandom().randrange(2**32))), 0)
MULTIPLIER = float(os.environ.get("MONTLAB_TEST_MULTIPLIER", "1"))
REPO = Path(__file__).resolve().parents[2]


def pytest_report_header(config: pytest.Config) -> str:
    return f"montlab: MONTLAB_SEED={SEED} MONTLAB_TEST_MULTIPLIER={MULTIPLIER}"


def pytest_configure(config: pytest.Config) -> None:
    # Hypothesis follows the same seed, so one variable reproduces a whole run.
    if getattr(config.option, "hypothesis_seed", None) is None:
        config.option.hypothesis_seed = SEED
    try:
        from hypothesis import settings

        settings.register_profile(
            "montlab", max_examples=max(10, int(60 * MULTIPLIER)), deadline=None
        )
        settings.load_profile("montlab")
    except ImportError:  # pragma: no cover - hypothesis is a test dependency
        pass


def scaled(count: int) -> int:
    """``count`` scaled by MONTLAB_TEST_MULTIPLIER, at least 1."""
    return max(1, int(count * MULTIPLIER))


@pytest.fixture
def rng(request: pytest.FixtureRequest) -> random.Random:
    """A per-test RNG derived from the run seed and the test id; prints how to replay it."""
    print(f"[seed] MONTLAB_SEED={SEED} test={request.node.nodeid}")
    return random.Random(f"{SEED}:{request.node.nodeid}")


def hexdump(**values: int) -> str:
    """Operands in hex, for assertion messages."""
    return " ".join(f"{k}={v:#x}" for k, v in values.items())
