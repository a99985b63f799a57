"""Ctrl-C ends long native calls within 0.5 s with KeyboardInterrupt (before, long native calls
ignored SIGINT for 48 s to more than 90 s). Measured by :func:`montlab.sigint.latency`."""

from __future__ import annotations

import sys

import pytest
from montlab import sigint

#: The longest accepted latency from SIGINT to KeyboardInterrupt.
LIMIT_S = 0.5


@pytest.mark.skipif(sys.platform != "linux", reason="needs Linux's shared monotonic clock")
@pytest.mark.parametrize("name", sorted(sigint.CALLS))
def test_sigint_ends_long_call(name: str) -> None:
    latency = sigint.latency(name)
    print(f"{name}: KeyboardInterrupt {latency * 1e3:.1f} ms after SIGINT")
    if latency >= LIMIT_S:
        # One retry: a loaded machine can stall a child's main thread for a second (seen once,
        # 1.24 s, beside a parallel RTL build); a call that ignores SIGINT fails both tries.
        first, latency = latency, sigint.latency(name)
        print(f"{name}: {first * 1e3:.1f} ms, then {latency * 1e3:.1f} ms on a second try")
    assert 0 <= latency < LIMIT_S, f"{name}: {latency:.3f} s"
