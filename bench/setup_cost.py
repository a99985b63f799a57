"""What the per-modulus setup costs: a one-shot ``montlab.powm(b, 65537, n)`` (setup included)
at 2^14 to 2^22 bits, against a baseline build and against gmpy2 in the same child process.

The spectral kernel's setup is one inverse modulo 2^l + 1 and two divisions
(``crates/montlab-core/src/spectral/fmlm3.rs``). This runs, size by size and in alternating
child processes, the same one-shot call in this checkout and in a baseline install
(``--baseline DIR``, a ``pip install --target DIR`` of a wheel built before a change), plus a
second ``pow`` on the same ``FastModulus`` (no setup), ``gmpy2.powmod`` and GMP's inverse of
N modulo the setup's R = 2^(64 P) + 1 (``gmpy2.invert``, what an inverse costs there). It prints the
medians, ours/baseline and ours/gmpy2, writes them with the command and commit, and plots the
one-shot times against the size.

    .venv/bin/python bench/setup_cost.py --baseline /tmp/baselib --json docs/setup-cost.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SIZES = [1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22]

CHILD = """
import json, random, sys, time
import gmpy2
import montlab
from montlab._native import FastModulus
bits = int(sys.argv[1])
rng = random.Random(bits)
n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
b = rng.randrange(n)
want = int(gmpy2.powmod(b, 65537, n))
t = time.perf_counter(); got = montlab.powm(b, 65537, n); first = time.perf_counter() - t
assert got == want, "wrong result"
m = FastModulus(n)
m.pow(b, 65537)
t = time.perf_counter(); m.pow(b, 65537); second = time.perf_counter() - t
t = time.perf_counter(); gmpy2.powmod(b, 65537, n); peer = time.perf_counter() - t
# GMP's own inverse of the setup's N modulo R = 2^(64 P) + 1, P the transform length
p = 1 << max(1, (-(-bits // 64) - 1).bit_length())
r = (gmpy2.mpz(1) << (64 * p)) + 1
t = time.perf_counter(); gmpy2.invert(n, r); inv = time.perf_counter() - t
print(json.dumps({"first": first, "second": second, "gmpy2": peer, "gmpy2_invert": inv}))
"""


def run(pythonpath: str, bits: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": pythonpath}
    res = subprocess.run(
        [sys.executable, "-c", CHILD, str(bits)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def plot(rows: list[dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    bits = [r["bits"] for r in rows]
    for key, label in (
        ("baseline_first_s", "baseline: one-shot powm"),
        ("ours_first_s", "ours: one-shot powm"),
        ("ours_second_s", "ours: pow on a built FastModulus"),
        ("gmpy2_s", "gmpy2.powmod"),
    ):
        ax.loglog(bits, [r[key] for r in rows], marker="o", label=label, base=2)
    ax.set_xlabel("bits of N")
    ax.set_ylabel("seconds, e = 65537")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", required=True, help="folder holding the baseline install")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-bits", type=int, default=SIZES[-1])
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows = []
    print(
        f"{'bits':>8} {'ours 1st':>10} {'base 1st':>10} {'ours/base':>9} {'2nd':>9} {'gmpy2':>9} {'1st/gmpy2':>9}"
    )
    for bits in (s for s in SIZES if s <= args.max_bits):
        ours, base = [], []
        for _ in range(args.rounds):
            base.append(run(args.baseline, bits))
            ours.append(run(str(REPO / "python"), bits))
        row = {
            "bits": bits,
            "ours_first_s": statistics.median(x["first"] for x in ours),
            "baseline_first_s": statistics.median(x["first"] for x in base),
            "ours_second_s": statistics.median(x["second"] for x in ours),
            "gmpy2_s": statistics.median(x["gmpy2"] for x in ours),
            "gmpy2_invert_s": statistics.median(x["gmpy2_invert"] for x in ours),
        }
        row["ours_over_baseline"] = row["ours_first_s"] / row["baseline_first_s"]
        row["first_over_gmpy2"] = row["ours_first_s"] / row["gmpy2_s"]
        row["second_over_gmpy2"] = row["ours_second_s"] / row["gmpy2_s"]
        rows.append(row)
        print(
            f"{bits:>8} {row['ours_first_s']:>9.3f}s {row['baseline_first_s']:>9.3f}s"
            f" {row['ours_over_baseline']:>9.3f} {row['ours_second_s']:>8.3f}s"
            f" {row['gmpy2_s']:>8.3f}s {row['first_over_gmpy2']:>9.2f}"
            f" {row['gmpy2_invert_s']:>8.3f}s",
            flush=True,
        )
    if args.json:
        from montlab.hw.sweep import git_commit

        commit = git_commit()
        args.json.write_text(
            json.dumps(
                {
                    "command": " ".join(["python", "bench/setup_cost.py", *sys.argv[1:]]),
                    "commit": commit,
                    "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                    "rounds": args.rounds,
                    "rows": rows,
                },
                indent=2,
            )
            + "\n"
        )
        plot(rows, args.json.with_suffix(".png"))


if __name__ == "__main__":
    main()
