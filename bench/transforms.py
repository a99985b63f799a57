"""One forward transform of the three-prime spectral kernels, portable loops against the
dispatched ones (AVX2/FMA or AVX-512 IFMA where the CPU has them), in one process per round:
the ratio within a run is the figure to read on a shared machine. Runs
``kernel_timings transforms`` (crate ``montlab-core``, release profile).

    .venv/bin/python bench/transforms.py --json docs/transforms-avx2.json
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
from pathlib import Path
from typing import Any

from record import write_record

REPO = Path(__file__).resolve().parents[1]
LINE = re.compile(
    r"(\d+) bits: goldilocks \d+-point [0-9.]+ us \| 3 primes x (\d+)-point portable "
    r"([0-9.]+) us, (\w+) ([0-9.]+) us"
)


def build() -> Path:
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "montlab-core", "--example", "kernel_timings"],
        cwd=REPO,
        check=True,
    )
    return REPO / "target" / "release" / "examples" / "kernel_timings"


def run(binary: Path, sizes: list[int]) -> list[dict[str, Any]]:
    """One round: a row per size, both timings from the same process."""
    out = subprocess.run(
        [str(binary), "transforms", *map(str, sizes)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = []
    for m in LINE.finditer(out):
        bits, points, portable, path, vector = m.groups()
        rows.append(
            {
                "bits": int(bits),
                "points": int(points),
                "portable_us": float(portable),
                "path": path,
                "vector_us": float(vector),
                "ratio": float(portable) / float(vector),
            }
        )
    if len(rows) != len(sizes):
        raise RuntimeError(f"unexpected output of kernel_timings:\n{out}")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="8192,65536", help="operand bits, comma-separated")
    ap.add_argument("--rounds", type=int, default=3, help="runs of the timing binary")
    ap.add_argument("--json", type=Path, required=True, help="where to write the record")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    binary = build()
    rounds = []
    for r in range(args.rounds):
        rows = run(binary, sizes)
        rounds.append(rows)
        for row in rows:
            print(
                f"round {r + 1}: {row['bits']:>6} bits, portable {row['portable_us']:.2f} us, "
                f"{row['path']} {row['vector_us']:.2f} us, ratio {row['ratio']:.2f}"
            )
    summary = [
        {
            "bits": bits,
            "path": rounds[0][i]["path"],
            "ratio_median": statistics.median(float(rs[i]["ratio"]) for rs in rounds),
            "ratio_range": [
                min(float(rs[i]["ratio"]) for rs in rounds),
                max(float(rs[i]["ratio"]) for rs in rounds),
            ],
        }
        for i, bits in enumerate(sizes)
    ]
    write_record(args.json, rounds=rounds, summary=summary)


if __name__ == "__main__":
    main()
