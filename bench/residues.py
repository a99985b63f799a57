"""One modular product from Python: montlab's residues (``a * b``, values kept in Rust in
Montgomery form) and ``FastModulus.mul`` on ints, against gmpy2's ``x * y % n`` and
python-flint's ``fmpz_mod`` product, in interleaved rounds on the same operands.

Each round draws a modulus and operands; every implementation is timed on them in a rotating
order (``timeit``, the repeat count calibrated to about ``--sample`` seconds), and the ratios
montlab/peer are taken per round, then their median (below 1: montlab faster). Every result is
checked against Python's ``x * y % n`` first.

    .venv/bin/python bench/residues.py --json docs/residues.json

``--ifma-mul-bits 513 --ifma-residue-bits 513`` runs the products on ints and on residues on
``amm`` from 513 bits (on a CPU with AVX-512 IFMA; ``MONTLAB_NO_IFMA=1`` runs them on the word
level without it): how the table's ``ifma_mul_bits`` and ``ifma_residue_bits`` are measured.
"""

from __future__ import annotations

import argparse
import random
import statistics
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

from montlab import _native

SIZES = [1024, 2048, 4096, 8192]


def calls(n: int, x: int, y: int) -> dict[str, Callable[[], object]]:
    """The timed calls on one (n, x, y), each checked once against Python's ints."""
    import flint
    import gmpy2

    m = _native.FastModulus(n)
    a, b = m(x), m(y)
    gx, gy, gn = gmpy2.mpz(x), gmpy2.mpz(y), gmpy2.mpz(n)
    ctx = flint.fmpz_mod_ctx(n)
    fx, fy = ctx(x), ctx(y)
    want = x * y % n
    assert int(a * b) == want and m.mul(x, y) == want
    assert int(gx * gy % gn) == want and int(fx * fy) == want
    return {
        "residue": lambda: a * b,
        "mul": lambda: m.mul(x, y),
        "gmpy2": lambda: gx * gy % gn,
        "flint": lambda: fx * fy,
    }


def seconds(call: Callable[[], object], sample: float) -> float:
    """Seconds per call: the best of 3 runs of a count calibrated to ``sample`` seconds."""
    reps, _ = timeit.Timer(call).autorange()
    reps = max(1, int(reps * sample / 0.2))
    return min(timeit.repeat(call, number=reps, repeat=3)) / reps


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    from record import axes, save_plot

    fig, ax = axes()
    bits = [r["bits"] for r in rows]
    for key, label in [
        ("residue_over_gmpy2", "residue a*b / gmpy2 x*y%n"),
        ("residue_over_flint", "residue a*b / flint fmpz_mod"),
        ("mul_over_gmpy2", "FastModulus.mul / gmpy2"),
    ]:
        ax.semilogx(bits, [r[key] for r in rows], marker="o", label=label, base=2)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_title(f"one product from Python ({'IFMA' if _native.IFMA else 'no IFMA'})")
    save_plot(fig, ax, path, "bits of N", "montlab / peer (below 1: montlab faster)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--sample", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sizes", type=lambda s: [int(v) for v in s.split(",")], default=SIZES)
    ap.add_argument("--json", type=Path)
    ap.add_argument(
        "--ifma-mul-bits",
        type=int,
        default=None,
        help="products on ints on amm from this size (the table key; 513 forces amm)",
    )
    ap.add_argument(
        "--ifma-residue-bits",
        type=int,
        default=None,
        help="products of residues on amm from this size (the table key; 513 forces amm)",
    )
    args = ap.parse_args()
    keys = {"ifma_mul_bits": args.ifma_mul_bits, "ifma_residue_bits": args.ifma_residue_bits}
    given = {k: v for k, v in keys.items() if v is not None}
    if given:  # else the table in force stands
        _native.set_thresholds("".join(f"{k} = {v}\n" for k, v in given.items()))
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    print(
        f"{'bits':>6} {'kernels':>10} {'residue':>9} {'mul':>9} {'gmpy2':>9} {'flint':>9}  ratios"
    )
    for bits in args.sizes:
        times: dict[str, list[float]] = {}
        kernel = mul_kernel = ""
        for r in range(args.rounds):
            n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
            x, y = rng.randrange(n), rng.randrange(n)
            impls = calls(n, x, y)
            m = _native.FastModulus(n)
            kernel, mul_kernel = m.residue_kernel, m.mul_kernel
            names = list(impls)
            for name in names[r % len(names) :] + names[: r % len(names)]:
                times.setdefault(name, []).append(seconds(impls[name], args.sample))
        row: dict[str, Any] = {"bits": bits, "kernel": kernel, "mul_kernel": mul_kernel}
        for name, ts in times.items():
            row[f"{name}_ns"] = statistics.median(ts) * 1e9
        for ours, peer in [("residue", "gmpy2"), ("residue", "flint"), ("mul", "gmpy2")]:
            row[f"{ours}_over_{peer}"] = statistics.median(
                a / b for a, b in zip(times[ours], times[peer], strict=True)
            )
        rows.append(row)
        print(
            f"{bits:>6} {kernel + '/' + mul_kernel:>10}"
            + "".join(f" {row[f'{k}_ns']:>7.0f}ns" for k in ("residue", "mul", "gmpy2", "flint"))
            + f"  residue/gmpy2 {row['residue_over_gmpy2']:.2f}"
            f"  residue/flint {row['residue_over_flint']:.2f}  mul/gmpy2 {row['mul_over_gmpy2']:.2f}",
            flush=True,
        )
    if args.json:
        from montlab.provenance import native_build
        from record import write_record

        write_record(
            args.json,
            ifma=_native.IFMA,
            native=native_build(),
            rounds=args.rounds,
            ifma_mul_bits=_native.thresholds()["ifma_mul_bits"],
            ifma_residue_bits=_native.thresholds()["ifma_residue_bits"],
            rows=rows,
        )
        plot(rows, args.json.with_suffix(".png"))


if __name__ == "__main__":
    main()
