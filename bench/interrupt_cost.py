"""What answering Ctrl-C costs, and how fast it answers: the native calls of this checkout
against a baseline build, and the SIGINT-to-KeyboardInterrupt latency of six long calls.

Long native calls check a stop flag once per window and, above a work estimate, run on a worker
thread while the calling thread polls Python's signal handlers (``crates/montlab-py/src/
interrupt.rs``). This compares the same calls, same operands, in this checkout's ``montlab``
and in a baseline install (``--baseline DIR``: a ``pip install --target DIR`` of a wheel built
before that change), in alternating child processes, round by round. It prints medians and the
ratio ours/baseline per call (1.00 = no cost), then the median of ``--latency-runs`` SIGINT
latencies per call (:func:`montlab.sigint.latency`), and writes both with the command and commit.

    git worktree add /tmp/base <commit>; (cd /tmp/base && pip wheel --no-deps -w /tmp/w .)
    pip install --no-deps --target /tmp/baselib /tmp/w/montlab-*.whl
    .venv/bin/python bench/interrupt_cost.py --baseline /tmp/baselib --json docs/interrupt-cost.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: (name, bits, call): calls on both sides of the worker threshold (2^23 limb products).
CASES = [
    ("pow 2048 (inline)", 2048, "m.pow(a, e)"),
    ("pow 3072 (inline)", 3072, "m.pow(a, e)"),
    ("pow 4096 (worker)", 4096, "m.pow(a, e)"),
    ("pow 16384 (worker)", 16384, "m.pow(a, e)"),
    ("pow_sec 2048 (inline)", 2048, "m.pow_sec(a, e)"),
    ("pow_sec 4096 (worker)", 4096, "m.pow_sec(a, e)"),
    ("pow_many 8x2048 (worker)", 2048, "m.pow_many([a] * 8, e)"),
    ("mul 4096 (inline)", 4096, "m.mul(a, a)"),
    ("mul_many 256x4096 (inline)", 4096, "m.mul_many([a] * 256, [a] * 256)"),
]

CHILD = """
import json, random, statistics, sys, time
from montlab._native import FastModulus
out = {}
for name, bits, call in json.loads(sys.argv[1]):
    rng = random.Random(bits)
    n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
    a, e = rng.randrange(n), rng.getrandbits(bits) | (1 << (bits - 1))
    m = FastModulus(n)
    f = eval("lambda: " + call)
    f()
    reps, t = 1, 0.0
    while True:  # enough repetitions for 50 ms
        t0 = time.perf_counter()
        for _ in range(reps):
            f()
        t = time.perf_counter() - t0
        if t > 0.05:
            break
        reps *= 2
    samples = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(reps):
            f()
        samples.append((time.perf_counter() - t0) / reps)
    out[name] = statistics.median(samples)
print(json.dumps(out))
"""


def run(pythonpath: str) -> dict[str, float]:
    from record import run_child

    result: dict[str, float] = run_child(CHILD, pythonpath, json.dumps(CASES))
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", required=True, help="folder holding the baseline install")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--latency-runs", type=int, default=5)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    ours, base = [], []
    for r in range(args.rounds):
        base.append(run(args.baseline))
        ours.append(run(str(REPO / "python")))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    rows = []
    print(f"{'call':<28} {'ours':>12} {'baseline':>12} {'ours/base':>9}")
    for name, _, _ in CASES:
        o = statistics.median(x[name] for x in ours)
        b = statistics.median(x[name] for x in base)
        rows.append({"call": name, "ours_s": o, "baseline_s": b, "ratio": o / b})
        print(f"{name:<28} {o * 1e6:>10.1f}us {b * 1e6:>10.1f}us {o / b:>9.3f}")
    from montlab import sigint

    latency = {}
    for name in sigint.CALLS:
        runs = [sigint.latency(name) for _ in range(args.latency_runs)]
        latency[name] = {"median_s": statistics.median(runs), "max_s": max(runs)}
        print(
            f"SIGINT {name:<10} median {latency[name]['median_s'] * 1e3:6.1f} ms"
            f"  max {latency[name]['max_s'] * 1e3:6.1f} ms"
        )
    if args.json:
        from record import write_record

        write_record(args.json, rounds=args.rounds, rows=rows, sigint_latency=latency)


if __name__ == "__main__":
    main()
