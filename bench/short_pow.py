"""Which kernel a short exponentiation should run on: one-shot ``FastModulus(n).pow(b, e)``
(setup included) on the word-level kernel, on ``ntt_redc`` and on ``spectral``, in one process.

The kernel is forced through the threshold table (word: every cut out of reach; ntt_redc:
``spectral_pow_bits = ntt_redc_pow_bits = 2``; spectral: the ``pow_kernel`` query builds it, inside
the timed region, before the call). Each round draws a new modulus, so every call pays its
setup; the process is warm after the first round.
Ratios are ntt_redc/word and spectral/word per round, then their median: below 1 the spectral
kernel wins. These are the measurements behind ``ntt_redc_pow_bits`` in
``crates/montlab-core/src/thresholds/generic.toml``.

    .venv/bin/python bench/short_pow.py --json docs/short-pow.json
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

from montlab import _native

SIZES = [4096, 8192, 11584, 16384, 20127, 24576, 28000, 32768, 32769, 40960, 49152, 65536, 131072]
EXPONENTS = {"65537": 65537, "32-bit": (1 << 32) - 5, "64-bit": (1 << 64) - 59}
NEVER = 2**63
TABLES = {
    "word": f"spectral_mul_bits = {NEVER}\nspectral_pow_bits = {NEVER}\n",
    "ntt_redc": "spectral_mul_bits = 2\nspectral_pow_bits = 2\nntt_redc_pow_bits = 2\n",
    "spectral": f"spectral_mul_bits = 2\nspectral_pow_bits = 2\nntt_redc_pow_bits = {NEVER}\n",
}


def one_shot(table: str, n: int, b: int, e: int) -> tuple[float, str]:
    """Seconds for FastModulus(n) plus one pow (and, for spectral, its build), and the kernel."""
    _native.set_thresholds(TABLES[table])
    try:
        t = time.perf_counter()
        m = _native.FastModulus(n)
        if table == "spectral":
            kernel = m.pow_kernel  # builds spectral: part of the one-shot cost
        else:
            kernel = m.pow_kernel_for(e)
        got = m.pow(b, e)
        dt = time.perf_counter() - t
    finally:
        _native.set_thresholds(None)
    assert got == pow(b, e, n), f"{table}: wrong result at {n.bit_length()} bits"
    return dt, kernel


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    from record import axes, save_plot

    fig, ax = axes()
    for ename in EXPONENTS:
        sub = [r for r in rows if r["exponent"] == ename]
        bits = [r["bits"] for r in sub]
        for k in ("ntt_redc", "spectral"):
            ax.semilogx(
                bits, [r[f"{k}_over_word"] for r in sub], marker="o", label=f"{k}, e {ename}"
            )
    ax.axhline(1.0, color="grey", lw=0.8)
    save_plot(fig, ax, path, "bits of N", "one-shot pow / word-level (below 1: faster)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path)
    ap.add_argument(
        "--sizes", type=lambda v: [int(x) for x in v.split(",")], default=SIZES, help="bits of N"
    )
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    print(
        f"{'bits':>6} {'e':>8} {'word':>10} {'ntt_redc':>10} {'spectral':>10} {'ntt_r/w':>8} {'spect/w':>8}"
    )
    for bits in args.sizes:
        for ename, e in EXPONENTS.items():
            times: dict[str, list[float]] = {k: [] for k in TABLES}
            kernels: dict[str, str] = {}
            for _ in range(args.rounds):
                n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
                b = rng.randrange(n)
                for table in TABLES:
                    dt, kernels[table] = one_shot(table, n, b, e)
                    times[table].append(dt)
            assert kernels["word"] in ("amm", "cios"), kernels
            assert (kernels["ntt_redc"], kernels["spectral"]) == ("ntt_redc", "spectral"), kernels
            row: dict[str, Any] = {"bits": bits, "exponent": ename}
            for k, ts in times.items():
                row[f"{k}_s"] = statistics.median(ts)
            for k in ("ntt_redc", "spectral"):
                row[f"{k}_over_word"] = statistics.median(
                    a / w for a, w in zip(times[k], times["word"], strict=True)
                )
            rows.append(row)
            print(
                f"{bits:>6} {ename:>8} {row['word_s'] * 1e3:>8.2f}ms {row['ntt_redc_s'] * 1e3:>8.2f}ms"
                f" {row['spectral_s'] * 1e3:>8.2f}ms {row['ntt_redc_over_word']:>8.2f}"
                f" {row['spectral_over_word']:>8.2f}",
                flush=True,
            )
    if args.json:
        from record import write_record

        write_record(args.json, ifma=_native.IFMA, rounds=args.rounds, rows=rows)
        plot(rows, args.json.with_suffix(".png"))


if __name__ == "__main__":
    main()
