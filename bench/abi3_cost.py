"""What building the extension for the stable ABI (abi3, Python >= 3.11) would cost.

Builds this checkout twice with pip (maturin): as now (a CPython-version-specific extension)
and with ``--features pyo3/abi3-py311``, installs each into its own folder, and times the same
calls on both in alternating child processes (``--rounds`` each): ``FastModulus.mul`` at 1024,
2048 and 4096 bits (where the binding and the int conversion are most of the call),
``mul_many`` of 1000 pairs and ``pow`` with a full exponent at 2048 bits. Every result is
checked against Python's arithmetic. It prints the medians and the ratios abi3 / version-specific
(above 1: abi3 is slower) and writes them with the command and commit.

    .venv/bin/python bench/abi3_cost.py --json docs/abi3-cost.json
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from record import run_child, write_record

REPO = Path(__file__).resolve().parents[1]
BUILDS = {"specific": "", "abi3": "--features pyo3/abi3-py311"}

CHILD = """
import json, random, sys, time
from montlab._native import FastModulus
import montlab._native as nat
out = {"file": nat.__file__}
rng = random.Random(1)
def best(f, reps):
    ts = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(reps):
            f()
        ts.append((time.perf_counter() - t) / reps)
    return min(ts)
for bits in (1024, 2048, 4096):
    n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
    x, y = rng.randrange(n), rng.randrange(n)
    fm = FastModulus(n)
    assert fm.mul(x, y) == x * y % n
    out[f"mul_{bits}"] = best(lambda: fm.mul(x, y), 2000)
n = rng.getrandbits(2048) | (1 << 2047) | 1
fm = FastModulus(n)
xs = [rng.randrange(n) for _ in range(1000)]
ys = [rng.randrange(n) for _ in range(1000)]
assert fm.mul_many(xs, ys) == [a * b % n for a, b in zip(xs, ys)]
out["mul_many_2048"] = best(lambda: fm.mul_many(xs, ys), 5)
b, e = rng.randrange(n), rng.getrandbits(2048)
assert fm.pow(b, e) == pow(b, e, n)
out["pow_2048"] = best(lambda: fm.pow(b, e), 20)
print(json.dumps(out))
"""


def build(kind: str, into: Path) -> Path:
    """A wheel of this checkout built as ``kind``, installed (alone) into ``into``."""
    wheels = into / "wheels"
    env = {**os.environ, "MATURIN_PEP517_ARGS": BUILDS[kind]}
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", str(wheels)],
        env=env,
        check=True,
    )
    (whl,) = wheels.glob("montlab-*.whl")
    lib = into / "lib"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(lib), whl],
        check=True,
    )
    return lib


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        libs = {kind: build(kind, Path(tmp) / kind) for kind in BUILDS}
        runs: dict[str, list[dict[str, Any]]] = {kind: [] for kind in BUILDS}
        for r in range(args.rounds):
            for kind in BUILDS if r % 2 == 0 else reversed(list(BUILDS)):
                res = run_child(CHILD, str(libs[kind]))
                assert str(libs[kind]) in res.pop("file"), "the child ran another build"
                runs[kind].append(res)
    metrics = list(runs["specific"][0])
    median = {k: {m: statistics.median(r[m] for r in runs[k]) for m in metrics} for k in BUILDS}
    ratio = {m: median["abi3"][m] / median["specific"][m] for m in metrics}
    print(f"{'metric':16} {'specific':>12} {'abi3':>12} {'abi3/specific':>14}")
    for m in metrics:
        print(
            f"{m:16} {median['specific'][m] * 1e6:10.2f}us {median['abi3'][m] * 1e6:10.2f}us "
            f"{ratio[m]:14.3f}"
        )
    if args.json:
        write_record(
            args.json,
            python=sys.version.split()[0],
            rounds=args.rounds,
            builds=BUILDS,
            median_seconds=median,
            ratio_abi3_over_specific=ratio,
        )


if __name__ == "__main__":
    main()
