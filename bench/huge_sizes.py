"""Moduli beyond spectral's range (2^22 bits) up to 2^25 bits, where every variable-time operation
runs on ``ntt_redc``: a one-shot ``montlab.powm(b, 65537, n)`` (setup included), the first and the
second product on a ``FastModulus``, and a 64-bit-exponent ``pow`` on it, each against gmpy2 in
the same child process.

One child process per size and round (their tables are freed between sizes). Each prints its
times; this prints the medians and the per-round ratios ours/gmpy2, writes them with the command
and commit, and plots the times against the size.

    .venv/bin/python bench/huge_sizes.py --rounds 3 --json docs/huge-sizes.json
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SIZES = [1 << 22, (1 << 22) + 64, 10_000_000, 1 << 25]

CHILD = """
import json, random, sys, time
import gmpy2
import montlab
from montlab._native import FastModulus
bits = int(sys.argv[1])
rng = random.Random(bits)
n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
b, x, y = (rng.randrange(n) for _ in range(3))
e64 = rng.getrandbits(64) | (1 << 63)
g = gmpy2.mpz(n)
def timed(f):
    t = time.perf_counter(); r = f(); return r, time.perf_counter() - t
got, powm = timed(lambda: montlab.powm(b, 65537, n))
want, powm_g = timed(lambda: gmpy2.powmod(b, 65537, g))
assert got == want, "powm: wrong result"
m = FastModulus(n)
got, mul1 = timed(lambda: m.mul(x, y))
want, mul_g = timed(lambda: x * gmpy2.mpz(y) % g)
assert got == want, "mul: wrong result"
got, mul2 = timed(lambda: m.mul(y, x))
assert got == want, "mul: wrong result"
got, pow64 = timed(lambda: m.pow(b, e64))
want, pow64_g = timed(lambda: gmpy2.powmod(b, e64, g))
assert got == want, "pow: wrong result"
print(json.dumps({"kernel": m.pow_kernel_for(64), "powm": powm, "powm_gmpy2": powm_g,
                  "mul_first": mul1, "mul_second": mul2, "mul_gmpy2": mul_g,
                  "pow64": pow64, "pow64_gmpy2": pow64_g}))
"""

#: (key in a child's record, its gmpy2 peer, label, the peer's label or None when plotted already)
MEASURES = [
    ("powm", "powm_gmpy2", "one-shot powm, e = 65537", "gmpy2.powmod, e = 65537"),
    ("mul_first", "mul_gmpy2", "first product (setup included)", "gmpy2: a * b % n"),
    ("mul_second", "mul_gmpy2", "second product", None),
    ("pow64", "pow64_gmpy2", "pow, 64-bit exponent", "gmpy2.powmod, 64-bit exponent"),
]


def run(bits: int) -> dict[str, Any]:
    from record import run_child

    result: dict[str, Any] = run_child(CHILD, str(REPO / "python"), str(bits))
    return result


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    from record import axes, save_plot

    fig, ax = axes(6.5)
    bits = [r["bits"] for r in rows]
    for key, peer, label, peer_label in MEASURES:
        line = ax.loglog(bits, [r[f"{key}_s"] for r in rows], marker="o", label=label, base=2)
        if peer_label is not None:
            ax.loglog(
                bits,
                [r[f"{peer}_s"] for r in rows],
                marker="x",
                linestyle="--",
                color=line[0].get_color(),
                label=peer_label,
                base=2,
            )
    ax.set_title("ntt_redc beyond 2^22 bits against gmpy2")
    save_plot(fig, ax, path, "bits of N", "seconds", legend_size=7)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--replot", action="store_true", help="only redraw the plot from --json")
    args = ap.parse_args()
    if args.replot:
        plot(json.loads(args.json.read_text())["rows"], args.json.with_suffix(".png"))
        return
    rows: list[dict[str, Any]] = []
    print(f"{'bits':>9} {'kernel':>7}" + "".join(f" {k:>11} {'/gmpy2':>7}" for k, *_ in MEASURES))
    for bits in args.sizes:
        runs = [run(bits) for _ in range(args.rounds)]
        row: dict[str, Any] = {"bits": bits, "kernel": runs[0]["kernel"]}
        line = f"{bits:>9} {row['kernel']:>7}"
        for key, peer, *_ in MEASURES:
            row[f"{key}_s"] = statistics.median(r[key] for r in runs)
            row[f"{peer}_s"] = statistics.median(r[peer] for r in runs)
            # per-round ratios against the same child's gmpy2, then their median
            rounds = [r[key] / r[peer] for r in runs]
            row[f"{key}_over_gmpy2_rounds"] = rounds
            row[f"{key}_over_gmpy2"] = statistics.median(rounds)
            line += f" {row[f'{key}_s']:>10.3f}s {row[f'{key}_over_gmpy2']:>7.2f}"
        rows.append(row)
        print(line, flush=True)
    if args.json:
        from record import write_record

        write_record(args.json, rounds=args.rounds, rows=rows)
        plot(rows, args.json.with_suffix(".png"))


if __name__ == "__main__":
    main()
