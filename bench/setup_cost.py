"""What the per-modulus setup costs: a one-shot ``montlab.powm(b, 65537, n)`` (setup included)
at 2^14 to 2^22 bits, against a baseline build and against gmpy2 in the same child process.

A short exponent runs on ``ntt_redc`` (R = 2^l, ``crates/montlab-core/src/spectral/ntt_redc.rs``):
its setup is N' by Newton-Hensel lifting and R^2 mod N by one reciprocal; ``spectral``'s setup, an
inverse modulo 2^l + 1 by half-gcd and two divisions, is built only for long exponents. This
runs, size by size and in alternating child processes, the same one-shot call in this checkout
and in a baseline install (``--baseline DIR``, a ``pip install --target DIR`` of a build before
a change). Each child measures: the first call of the process (``first``: cold, every table and
allocation new), a one-shot call on a second modulus of the same size (``oneshot``: setup
included, process warm), a second ``pow`` on a built ``FastModulus`` (no setup),
``gmpy2.powmod`` on both moduli, and GMP's inverse of N modulo 2^(64 P) + 1 (``gmpy2.invert``,
what spectral's inverse costs there). It prints the medians and the ratios, writes them with the
command and commit, and plots the times against the size.

    .venv/bin/python bench/setup_cost.py --baseline /tmp/baselib --json docs/setup-cost.json
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SIZES = [1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22]

CHILD = """
import json, random, sys, time
import gmpy2
import montlab
from montlab._native import FastModulus
bits = int(sys.argv[1])
rng = random.Random(bits)
n, n2 = (rng.getrandbits(bits) | (1 << (bits - 1)) | 1 for _ in range(2))
b, b2 = rng.randrange(n), rng.randrange(n2)
want = int(gmpy2.powmod(b, 65537, n))
t = time.perf_counter(); got = montlab.powm(b, 65537, n); first = time.perf_counter() - t
assert got == want, "wrong result"
t = time.perf_counter(); got = montlab.powm(b2, 65537, n2); oneshot = time.perf_counter() - t
t = time.perf_counter(); want2 = gmpy2.powmod(b2, 65537, n2); peer2 = time.perf_counter() - t
assert got == want2, "wrong result"
m = FastModulus(n)
kernel = m.pow_kernel_for(65537) if hasattr(m, "pow_kernel_for") else m.pow_kernel
m.pow(b, 65537)
t = time.perf_counter(); m.pow(b, 65537); second = time.perf_counter() - t
t = time.perf_counter(); gmpy2.powmod(b, 65537, n); peer = time.perf_counter() - t
# GMP's own inverse of N modulo 2^(64 P) + 1, P the transform length (spectral's setup inverse)
p = 1 << max(1, (-(-bits // 64) - 1).bit_length())
r = (gmpy2.mpz(1) << (64 * p)) + 1
t = time.perf_counter(); gmpy2.invert(n, r); inv = time.perf_counter() - t
print(json.dumps({"first": first, "oneshot": oneshot, "second": second, "gmpy2": peer,
                  "gmpy2_2": peer2, "gmpy2_invert": inv, "kernel": kernel}))
"""


def run(pythonpath: str, bits: int) -> dict[str, Any]:
    from record import run_child

    result: dict[str, Any] = run_child(CHILD, pythonpath, str(bits))
    return result


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    from record import axes, save_plot

    fig, ax = axes()
    bits = [r["bits"] for r in rows]
    for key, label in (
        ("baseline_first_s", "baseline: one-shot powm"),
        ("ours_first_s", "ours: one-shot powm, first call"),
        ("ours_oneshot_s", "ours: one-shot powm, warm process"),
        ("ours_second_s", "ours: pow on a built FastModulus"),
        ("gmpy2_s", "gmpy2.powmod"),
    ):
        ax.loglog(bits, [r[key] for r in rows], marker="o", label=label, base=2)
    save_plot(fig, ax, path, "bits of N", "seconds, e = 65537", legend_size=10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", required=True, help="folder holding the baseline install")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-bits", type=int, default=SIZES[-1])
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    print(
        f"{'bits':>8} {'kernel':>8} {'ours 1st':>9} {'base 1st':>9} {'ours/base':>9}"
        f" {'one-shot':>9} {'2nd':>8} {'gmpy2':>8} {'1st/gmpy2':>9} {'1shot/gmpy2':>11}"
    )
    for bits in (s for s in SIZES if s <= args.max_bits):
        ours, base = [], []
        for _ in range(args.rounds):
            base.append(run(args.baseline, bits))
            ours.append(run(str(REPO / "python"), bits))

        def med(runs: list[dict[str, Any]], key: str) -> float:
            return statistics.median(float(x[key]) for x in runs)

        row: dict[str, Any] = {
            "bits": bits,
            "kernel": ours[0]["kernel"],
            "ours_first_s": med(ours, "first"),
            "baseline_first_s": med(base, "first"),
            "ours_oneshot_s": med(ours, "oneshot"),
            "baseline_oneshot_s": med(base, "oneshot"),
            "ours_second_s": med(ours, "second"),
            "gmpy2_s": med(ours, "gmpy2"),
            "gmpy2_oneshot_s": med(ours, "gmpy2_2"),
            "gmpy2_invert_s": med(ours, "gmpy2_invert"),
            # per-round ratios (each child's own gmpy2), then their median: noise-robust
            "first_over_gmpy2_rounds": [x["first"] / x["gmpy2"] for x in ours],
            "oneshot_over_gmpy2_rounds": [x["oneshot"] / x["gmpy2_2"] for x in ours],
        }
        row["ours_over_baseline"] = row["ours_first_s"] / row["baseline_first_s"]
        row["first_over_gmpy2"] = statistics.median(row["first_over_gmpy2_rounds"])
        row["oneshot_over_gmpy2"] = statistics.median(row["oneshot_over_gmpy2_rounds"])
        row["second_over_gmpy2"] = row["ours_second_s"] / row["gmpy2_s"]
        rows.append(row)
        print(
            f"{bits:>8} {row['kernel']:>8} {row['ours_first_s']:>8.3f}s"
            f" {row['baseline_first_s']:>8.3f}s {row['ours_over_baseline']:>9.3f}"
            f" {row['ours_oneshot_s']:>8.3f}s {row['ours_second_s']:>7.3f}s"
            f" {row['gmpy2_s']:>7.3f}s {row['first_over_gmpy2']:>9.2f}"
            f" {row['oneshot_over_gmpy2']:>11.2f}",
            flush=True,
        )
    if args.json:
        from record import write_record

        write_record(args.json, rounds=args.rounds, rows=rows)
        plot(rows, args.json.with_suffix(".png"))


if __name__ == "__main__":
    main()
