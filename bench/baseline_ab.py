"""This checkout's word-level kernels against a baseline build, in one process: both
extensions loaded side by side, the same calls on the same operands interleaved call by call.

``--baseline DIR`` is a ``pip install --target DIR`` of a wheel built at the baseline commit;
its ``montlab/_native`` is loaded under another module name. The calls are ``FastModulus``
methods with full-length exponents (``pow``, ``pow_sec``, and ``pow_many`` and ``pow_sec_many``
on four bases sharing one exponent),
``mul`` on ints, the product of two residues (``residue``: ``m(a) * m(b)``) and the RSA
private operation ``pow_crt`` (constant time; ``bits`` is the size of p q, its primes from
``gmpy2.next_prime``), at sizes on both sides of the Karatsuba
thresholds and of the sub-quadratic REDC's (128 limbs); each build's result is checked
against Python's ``pow`` (or ``a * b % n``) first. Each round takes the best of ``--calls``
interleaved pairs per case (the least disturbed call of each build on a shared machine,
where separate processes and medians differ by more than the change being measured); the
report gives the median over ``--rounds`` of the per-round ratios ours/baseline (below 1:
this checkout is faster) and their range, writes them with the command, the commit and this
checkout's native build, and plots them against the size.

    git worktree add /tmp/base <commit>; (cd /tmp/base && pip wheel --no-deps -w /tmp/w .)
    pip install --no-deps --target /tmp/baselib /tmp/w/montlab-*.whl
    .venv/bin/python bench/baseline_ab.py --baseline /tmp/baselib --baseline-commit <commit> \\
        --json docs/baseline-ab.json

``--methods`` and ``--sizes`` narrow a run to some calls, at the sizes given.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from record import write_record

#: (method, bits).
METHODS = ("pow", "pow_sec", "pow_many", "pow_sec_many", "pow_crt", "mul", "residue")
CASES = [
    *(("pow", b) for b in (1024, 2048, 3072, 4096, 6144, 8192, 12288)),
    *(("pow_sec", b) for b in (1024, 2048, 4096, 8192)),
    *(("pow_many", b) for b in (1024, 2048, 3072)),
    *(("pow_sec_many", b) for b in (1024, 2048, 3072)),
    *(("pow_crt", b) for b in (2048, 3072, 4096)),
    *(("mul", b) for b in (1024, 2048, 4096)),
    *(("residue", b) for b in (1024, 2048, 4096, 8192, 16384)),
]


def load_baseline(folder: Path) -> ModuleType:
    """The baseline's ``montlab/_native`` extension, as module ``montlab_baseline._native``."""
    found = sorted((folder / "montlab").glob("_native*.so"))
    if not found:
        raise SystemExit(f"no montlab/_native*.so under {folder}")
    spec = importlib.util.spec_from_file_location("montlab_baseline._native", found[0])
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {found[0]}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def case_calls(ours: ModuleType, base: ModuleType, method: str, bits: int) -> list[Any]:
    """The zero-argument calls of (ours, baseline) for one case, their results checked."""
    rng = random.Random(bits)
    n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
    a, b, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(bits) | (1 << (bits - 1))
    if method == "pow_crt":
        import gmpy2

        half = [int(gmpy2.next_prime(rng.getrandbits(bits // 2) | 3 << (bits // 2 - 2)))]
        half.append(int(gmpy2.next_prime(half[0] + rng.getrandbits(bits // 4))))
        p, q = half
        n, d = p * q, pow(65537, -1, (p - 1) * (q - 1))
        key = (d % (p - 1), d % (q - 1), p, q, pow(q, -1, p))
        a = rng.randrange(n)
    bases = [a, b, (a + b) % n, (a * b) % n]
    calls = []
    for native in (ours, base):
        m = native.FastModulus(n)
        if method == "mul":
            calls.append(lambda m=m: m.mul(a, b))
        elif method == "residue":
            calls.append(lambda x=m(a), y=m(b): x * y)
        elif method in ("pow_many", "pow_sec_many"):
            calls.append(lambda f=getattr(m, method): f(bases, [e] * len(bases)))
        elif method == "pow_crt":
            calls.append(lambda f=native.pow_crt: f(a, *key, True))
        else:
            calls.append(lambda m=m, f=getattr(m, method): f(a, e))
    got = [c() for c in calls]
    if method in ("pow_many", "pow_sec_many"):
        want: Any = [pow(x, e, n) for x in bases]
    elif method == "pow_crt":
        want = pow(a, d, n)
    else:
        want = pow(a, e, n) if method.startswith("pow") else a * b % n
        got = [int(g) for g in got]
    if got != [want, want]:
        raise SystemExit(f"{method} {bits}: a build's result is wrong")
    return calls


def best_pair(calls: list[Any], pairs: int, reps: int) -> tuple[float, float]:
    """The best time per call of each of the two calls over ``pairs`` interleaved samples of
    ``reps`` calls each."""
    best = [float("inf")] * 2
    for _ in range(pairs):
        for i, call in enumerate(calls):
            t = time.perf_counter()
            for _ in range(reps):
                call()
            best[i] = min(best[i], (time.perf_counter() - t) / reps)
    return best[0], best[1]


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """Ratio ours/baseline against the size, one line per method, the rounds' range as bars."""
    from record import axes, save_plot

    fig, ax = axes()
    for method in METHODS:
        sel = [r for r in rows if r["method"] == method]
        if not sel:
            continue
        mid = [r["ratio"] for r in sel]
        lo = [r["ratio"] - min(r["round_ratios"]) for r in sel]
        hi = [max(r["round_ratios"]) - r["ratio"] for r in sel]
        ax.errorbar(
            [r["bits"] for r in sel], mid, yerr=[lo, hi], marker="o", capsize=3, label=method
        )
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xscale("log", base=2)
    save_plot(fig, ax, path, "bits of N", "this checkout / baseline (median, range)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", type=Path, required=True, help="the baseline install")
    ap.add_argument("--baseline-commit", required=True, help="the commit it was built at")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=20, help="interleaved pairs per round")
    ap.add_argument("--methods", help="only these methods (comma-separated; default all)")
    ap.add_argument(
        "--sizes",
        type=lambda text: [int(b) for b in text.split(",")],
        help="these sizes in bits for each method, not the default cases (comma-separated)",
    )
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    methods = args.methods.split(",") if args.methods else list(METHODS)
    unknown = set(methods) - set(METHODS)
    if unknown:
        raise SystemExit(f"unknown methods: {', '.join(sorted(unknown))}")
    if args.sizes:
        cases = [(m, b) for m in methods for b in args.sizes]
    else:
        cases = [(m, b) for m, b in CASES if m in methods]
    import montlab._native as ours

    base = load_baseline(args.baseline)
    rows = []
    print(f"{'call':<14} {'ours':>12} {'baseline':>12} {'ours/base':>9}  (range)")
    for method, bits in cases:
        calls = case_calls(ours, base, method, bits)
        t = time.perf_counter()
        calls[0]()
        reps = max(1, int(0.002 / max(time.perf_counter() - t, 1e-9)))
        times = [best_pair(calls, args.calls, reps) for _ in range(args.rounds)]
        ratios = [o / b for o, b in times]
        row = {
            "method": method,
            "bits": bits,
            "ours_s": statistics.median(o for o, _ in times),
            "baseline_s": statistics.median(b for _, b in times),
            "ratio": statistics.median(ratios),
            "round_ratios": ratios,
        }
        rows.append(row)
        print(
            f"{method + ' ' + str(bits):<14} {row['ours_s'] * 1e6:>10.1f}us"
            f" {row['baseline_s'] * 1e6:>10.1f}us {row['ratio']:>9.3f}"
            f"  ({min(ratios):.3f}-{max(ratios):.3f})",
            flush=True,
        )
    if args.json:
        from montlab.provenance import native_build

        write_record(
            args.json,
            native=native_build(),
            rounds=args.rounds,
            calls=args.calls,
            baseline_commit=args.baseline_commit,
            rows=rows,
        )
        plot(rows, args.json.with_suffix(".png"))
    print("done", file=sys.stderr)


if __name__ == "__main__":
    main()
