"""How long a native call takes to answer Ctrl-C: :func:`latency`.

Contract: the call runs in a child interpreter, in a loop, so SIGINT lands inside it even on a
machine fast enough to finish one call before the delay. The child prints ``start`` just
before the loop; the parent sends SIGINT ``delay`` seconds later and the child prints the
monotonic time at which ``KeyboardInterrupt`` reached it. Linux's monotonic clock is
shared by both processes, so the difference is the latency. Used by tests/py/test_interrupt.py
and bench/interrupt_cost.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

#: A 65,536-bit modulus for the calls, and a dense 2^22-bit one (fmlm3's largest).
SETUP = """
import signal, sys, time
# Python's own SIGINT handler, even when the parent ignores SIGINT (pytest-xdist workers do, and
# a child then inherits SIG_IGN and Python installs no handler)
signal.signal(signal.SIGINT, signal.default_int_handler)
from montlab._native import FastModulus, Cios, powm, SPECTRAL_MAX_BITS as BIG
n = (1 << 65536) - 159
m = FastModulus(n)
import random
big = random.Random(1).getrandbits(BIG) | (1 << (BIG - 1)) | 1
"""
#: The calls, each run in a loop until SIGINT, so the signal always lands inside one however
#: fast the machine. ``setup_max`` is one uninterruptible chunk of seconds (the spectral setup
#: of a dense 2^22-bit modulus, its first product): the call still returns within a poll, and
#: its worker is dropped.
CALLS = {
    "pow_sec": "m.pow_sec(3, n - 2)",
    "pow_many": "m.pow_many([3 + i for i in range(64)], n - 2)",
    "pow_sec_many": "m.pow_sec_many([3, 4], n - 2)",
    "pow": "m.pow(3, n - 2)",
    "mul_many": "m.mul_many([n - 1 - i for i in range(4000)], [n - 2] * 4000)",
    "powm": "powm(3, n - 2, n)",
    "cios_pow": "Cios(n).pow(3, n - 2)",
    "setup_max": "FastModulus(big).pow(3, 5)",
}


class NotInterrupted(RuntimeError):
    """The call failed, or went on, instead of raising KeyboardInterrupt."""


def _child(call: str) -> str:
    return SETUP + textwrap.dedent(
        f"""
        print("start", flush=True)
        try:
            while True:
                {call}
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
            sys.exit(0)
        """
    )


def latency(name: str, delay: float = 0.5, timeout: float = 30.0) -> float:
    """Seconds from SIGINT to KeyboardInterrupt in call ``name`` of :data:`CALLS`."""
    python_dir = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": python_dir}
    child = subprocess.Popen(
        [sys.executable, "-c", _child(CALLS[name])],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert child.stdout is not None
        if child.stdout.readline().strip() != "start":
            raise NotInterrupted(f"{name}: the child did not start: {child.communicate()[1]}")
        time.sleep(delay)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise NotInterrupted(f"{name}: still running {timeout} s after SIGINT") from None
    finally:
        child.kill()
        child.wait()
    words = out.split()
    if child.returncode != 0 or not words or words[0] != "interrupted":
        raise NotInterrupted(f"{name}: rc {child.returncode}; {out} {err[-500:]}")
    return float(words[1]) - sent
