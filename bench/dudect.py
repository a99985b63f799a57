"""dudect-style timing test of the constant-time exponentiation: fixed (zero) against random
full-length exponents, Welch's t over all samples and dudect's cropped subsets, with the
variable-time exponentiation as the control that must be flagged (|t| > 4.5).

Builds and runs ``montlab-dudect`` (crate ``montlab-ct``, release profile) once per (kernel,
size); the kernel call alone is timed, in Rust. Records the verdicts and the |t| trajectory
(every 5 % of the samples), and plots |t| against the sample count.

    .venv/bin/python bench/dudect.py --sizes 1024,2048 --samples 100000 --json docs/dudect.json

``--kernels cios_pow_sec,amm_pow_sec`` adds the IFMA kernel (a CPU with AVX-512 IFMA), and
``amm_pair_pow_sec`` its two-lane fixed window (``pow_crt``'s and ``pow_sec_many``'s);
``spectral_pow_sec`` runs the spectral kernel, on its IFMA loops where the CPU has them (the
record's ``transforms`` names them).
``--fixed zero,random`` runs each kernel once per fixed exponent: ``zero`` (the default: the
accumulator stays at the Montgomery form of 1), ``one`` (the same until the last window),
``ones`` (every window digit the largest), ``top`` (only the top limb set: most windows
multiply by the entry for 0 while the accumulator moves) or ``random`` (one random exponent,
dudect's classic fixed-vs-random); the control runs ``zero``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
#: The fixed exponents of class 0 that ``montlab-dudect`` takes.
FIXED = ("zero", "one", "ones", "top", "random")
PROGRESS = re.compile(r"(\d+) samples, max \|t\| = ([0-9.]+)")


def build() -> Path:
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "montlab-ct", "--bin", "montlab-dudect"],
        cwd=REPO,
        check=True,
    )
    return REPO / "target" / "release" / "montlab-dudect"


def run(
    binary: Path, kernel: str, bits: int, samples: int, seed: int, fixed: str = "zero"
) -> dict[str, Any]:
    proc = subprocess.Popen(
        [str(binary), kernel, str(bits), str(samples), str(seed), fixed],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    trajectory: list[tuple[int, float]] = []
    assert proc.stderr is not None and proc.stdout is not None
    for line in proc.stderr:
        if m := PROGRESS.search(line):
            trajectory.append((int(m.group(1)), float(m.group(2))))
            print(
                f"  {kernel} ({fixed}) {bits} bits: {m.group(1)} samples, max |t| {m.group(2)}",
                flush=True,
            )
    out = proc.stdout.read()
    if proc.wait() != 0:
        raise SystemExit(f"montlab-dudect {kernel} {bits} failed")
    result: dict[str, Any] = json.loads(out)
    result["trajectory"] = trajectory
    return result


def plot(results: list[dict[str, Any]], path: Path) -> None:
    from record import axes, save_plot

    fig, ax = axes()
    for r in results:
        xs = [n for n, _ in r["trajectory"]]
        ys = [t for _, t in r["trajectory"]]
        label = f"{r['kernel']}, {r['bits']} bits"
        if r.get("fixed", "zero") != "zero":
            label += f", fixed {r['fixed']} exponent"
        ax.loglog(xs, ys, marker=".", label=label)
    ax.axhline(4.5, color="red", lw=0.8, label="|t| = 4.5")
    save_plot(fig, ax, path, "samples", "max |t| (fixed vs random exponent)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=lambda s: [int(v) for v in s.split(",")], default=[1024])
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--control-samples", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--kernels",
        type=lambda s: s.split(","),
        default=["cios_pow_sec"],
        help="constant-time kernels: cios_pow_sec, amm_pow_sec (AVX-512 IFMA), amm_pair_pow_sec "
        "(its two lanes), amm_pow_sec_blind (amm_pow_sec blinded), spectral_pow_sec",
    )
    ap.add_argument(
        "--fixed",
        type=lambda s: s.split(","),
        default=["zero"],
        help="fixed exponents of class 0: " + ", ".join(FIXED),
    )
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if not set(args.fixed) <= set(FIXED):
        ap.error("--fixed takes " + ", ".join(FIXED))
    from montlab.provenance import git_commit

    commit = git_commit()  # the code measured: a 10^6-sample run takes an hour
    binary = build()
    results = []
    for bits in args.sizes:
        results.append(run(binary, "vartime", bits, args.control_samples, args.seed))
        for kernel in args.kernels:
            for fixed in args.fixed:
                results.append(run(binary, kernel, bits, args.samples, args.seed, fixed))
    for r in results:
        verdict = "LEAK" if r["max_abs_t"] > 4.5 else "no evidence of a leak"
        print(
            f"{r['kernel']:>13} ({r['fixed']}) {r['bits']:>6} bits {r['samples']:>8} samples: "
            f"max |t| = {r['max_abs_t']:.2f} ({verdict})"
        )
    control = [r for r in results if r["kernel"] == "vartime"]
    assert all(r["max_abs_t"] > 4.5 for r in control), "the control was not flagged"
    if args.json:
        from record import write_record

        write_record(
            args.json,
            commit=commit,
            threshold=4.5,
            results=results,
        )
        plot(results, args.json.with_suffix(".png"))


if __name__ == "__main__":
    main()
