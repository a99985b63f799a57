"""Where the constant-time exponentiation should leave the word level for the spectral kernel:
``FastModulus(n).pow_sec(b, e)`` with each kernel forced through ``spectral_sec_bits``, in one
process, alternating the kernels within each round.

The exponent has ``--exp-bits`` bits (default 2048, stated as ``exp_bits``) at every size: both
kernels run the same fixed window, so their ratio per exponent bit does not depend on its length
(the 32-entry table is a small share at 2048 bits). Ratios are spectral/word per round, then their median: below 1
the spectral kernel wins. These are the measurements behind ``spectral_sec_bits`` in
``crates/montlab-core/src/thresholds/generic.toml`` (and, run with ``MONTLAB_NO_ADX=1``,
``generic-portable.toml``).

    .venv/bin/python bench/sec_crossover.py --json docs/sec-crossover.json
    MONTLAB_NO_ADX=1 .venv/bin/python bench/sec_crossover.py --json docs/sec-crossover-portable.json
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

from montlab import _native

SIZES = [8192, 12288, 16384, 16448, 20480, 23040, 24576, 28672, 32768, 32832, 40960, 49152]
NEVER = 2**63


def one(kernel: str, m: Any, b: int, e: int, bits: int) -> float:
    """Seconds for one pow_sec on ``kernel`` (the table forced for the call)."""
    cut = 2 if kernel == "spectral" else NEVER
    _native.set_thresholds(f"spectral_sec_bits = {cut}\n")
    try:
        fm = _native.FastModulus(m)
        if (fm.pow_sec_kernel == "spectral") != (kernel == "spectral"):
            raise SystemExit(f"{bits} bits: could not force {kernel} (N without a spectral kernel)")
        fm.pow_sec(b, 3, exp_bits=2)  # builds the spectral setup outside the timed call
        t = time.perf_counter()
        got = fm.pow_sec(b, e, exp_bits=e.bit_length())
        dt = time.perf_counter() - t
    finally:
        _native.set_thresholds(None)
    assert got == pow(b, e, m), f"{kernel}: wrong result at {bits} bits"
    return dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--exp-bits", type=int, default=2048)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rng = random.Random(0)
    rows = []
    for bits in (int(s) for s in args.sizes.split(",")):
        n = rng.getrandbits(bits) | 1 << (bits - 1) | 1
        b, e = rng.randrange(n), rng.getrandbits(args.exp_bits) | 1 << (args.exp_bits - 1)
        times: dict[str, list[float]] = {"word": [], "spectral": []}
        for r in range(args.rounds):
            for k in ("word", "spectral") if r % 2 == 0 else ("spectral", "word"):
                times[k].append(one(k, n, b, e, bits))
        ratios = [s / w for s, w in zip(times["spectral"], times["word"])]
        row = {
            "bits": bits,
            "word_s": statistics.median(times["word"]),
            "spectral_s": statistics.median(times["spectral"]),
            "ratio": statistics.median(ratios),
        }
        rows.append(row)
        print(
            f"{bits:>6} bits  word {row['word_s'] * 1e3:9.1f} ms  spectral "
            f"{row['spectral_s'] * 1e3:9.1f} ms  spectral/word {row['ratio']:.2f}",
            flush=True,
        )
    if args.json:
        from record import write_record

        write_record(args.json, exp_bits=args.exp_bits, rounds=args.rounds, rows=rows)


if __name__ == "__main__":
    main()
