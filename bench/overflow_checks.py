"""What the release profile's overflow checks cost in the kernels: ``kernel_timings`` (crate
``montlab-core``) built twice, as the release profile has it (``overflow-checks = true``) and
with ``CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=false`` (its own target directory), run in
alternating rounds on the same seeded operands. Each round runs both binaries on the word
level's MULX/ADX rows and AVX2 transforms as the CPU offers them, and on the portable loops
(``MONTLAB_NO_ADX=1 MONTLAB_NO_AVX2=1 MONTLAB_NO_IFMA=1``). The ratio checked/unchecked
within a round is the figure to read on a shared machine (each row gives the median of the
rounds' ratios and their range); above 1 the checks cost time. Where valgrind is installed it
also counts the instructions of a fixed workload (``kernel_timings work``) under callgrind with
each binary: deterministic, so the ratio is exact; the checks' extra instructions are
compare-and-branch pairs that are never taken.

    .venv/bin/python bench/overflow_checks.py --json docs/overflow-checks.json
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
from pathlib import Path
from typing import Any

from record import write_record

REPO = Path(__file__).resolve().parents[1]
LINE = re.compile(
    r"^\s*(\d+) (\w+)\s+mul\s+([0-9.]+) us\s+sqr\s+([0-9.]+) us\s+mul\(prepared\)\s+([0-9.]+) us"
    r"\s+pow\s+([0-9.]+) ms\s+pow_sec\s+([0-9.]+) ms",
    re.M,
)
FIELDS = ("mul_us", "sqr_us", "mulp_us", "pow_ms", "sec_ms")
PORTABLE = {"MONTLAB_NO_ADX": "1", "MONTLAB_NO_AVX2": "1", "MONTLAB_NO_IFMA": "1"}


def build(checks: bool) -> Path:
    """The example built with the overflow checks on (the profile's setting) or off."""
    target = REPO / "target" if checks else REPO / "target" / "overflow-checks-off"
    env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
    env["CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS"] = "true" if checks else "false"
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "montlab-core", "--example", "kernel_timings"],
        cwd=REPO,
        env=env,
        check=True,
    )
    return target / "release" / "examples" / "kernel_timings"


def run(binary: Path, sizes: list[int], extra_env: dict[str, str]) -> dict[tuple[int, str], dict]:
    """One run: per (bits, kernel) the five timings."""
    out = subprocess.run(
        [str(binary), *map(str, sizes)],
        env={**os.environ, **extra_env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = {}
    for m in LINE.finditer(out):
        bits, kernel, *vals = m.groups()
        rows[(int(bits), kernel)] = dict(zip(FIELDS, map(float, vals), strict=True))
    if not rows:
        raise SystemExit(f"{binary}: no timing lines in its output:\n{out}")
    return rows


def instructions(binary: Path, kernel: str, bits: int, extra_env: dict[str, str]) -> int:
    """Instructions of ``kernel_timings work KERNEL BITS`` under callgrind."""
    res = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        + [str(binary), "work", kernel, str(bits)],
        env={**os.environ, **extra_env},
        capture_output=True,
        text=True,
        check=True,
    )
    m = re.search(r"Collected : (\d+)", res.stderr)
    if m is None:
        raise SystemExit(f"callgrind printed no instruction count:\n{res.stderr}")
    return int(m.group(1))


def count(binaries: dict[bool, Path], sizes: list[int], paths: dict) -> list[dict[str, Any]]:
    rows = []
    for path, env in paths.items():
        for bits in sizes:
            for kernel in ("word", "spectral"):
                on, off = (instructions(binaries[c], kernel, bits, env) for c in (True, False))
                row = {"path": path, "bits": bits, "kernel": kernel, "checks": on}
                rows.append({**row, "no_checks": off, "ratio": on / off})
                print(f"{path:<10} {bits:>6} {kernel:<8} instructions {on / off:.4f}", flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="2048,4096,8192", help="bit sizes, comma-separated")
    ap.add_argument("--rounds", type=int, default=9, help="timed rounds (0: count only)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    binaries = {True: build(True), False: build(False)}
    paths = {"dispatched": {}, "portable": PORTABLE}
    # rounds[path][checks] = list of runs
    runs: dict[str, dict[bool, list[dict]]] = {p: {True: [], False: []} for p in paths}
    for r in range(args.rounds):
        order = [True, False] if r % 2 == 0 else [False, True]
        for path, env in paths.items():
            for checks in order:
                runs[path][checks].append(run(binaries[checks], sizes, env))
        print(f"round {r + 1}/{args.rounds} done", flush=True)
    rows: list[dict[str, Any]] = []
    for path in paths if args.rounds else []:
        for key in sorted(runs[path][True][0]):
            row: dict[str, Any] = {"path": path, "bits": key[0], "kernel": key[1]}
            for f in FIELDS:
                pairs = list(zip(runs[path][True], runs[path][False], strict=True))
                ratios = sorted(on[key][f] / off[key][f] for on, off in pairs)
                row[f] = {
                    "checks": statistics.median(on[key][f] for on, _ in pairs),
                    "no_checks": statistics.median(off[key][f] for _, off in pairs),
                    "ratio": statistics.median(ratios),
                    "ratio_range": [ratios[0], ratios[-1]],
                }
            rows.append(row)
    if rows:
        print("checked / unchecked, median of the rounds' ratios (their range)")
        print(f"{'path':<10} {'bits':>6} {'kernel':<8} " + " ".join(f"{f:>18}" for f in FIELDS))
    for row in rows:
        cells = " ".join(
            f"{row[f]['ratio']:>6.2f} ({row[f]['ratio_range'][0]:.2f}-{row[f]['ratio_range'][1]:.2f})"
            for f in FIELDS
        )
        print(f"{row['path']:<10} {row['bits']:>6} {row['kernel']:<8} {cells}")
    counts = count(binaries, sizes, paths) if shutil.which("valgrind") else []
    if args.json:
        write_record(args.json, rounds=args.rounds, sizes=sizes, rows=rows, instructions=counts)


if __name__ == "__main__":
    main()
