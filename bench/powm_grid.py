"""``montlab.powm`` against ``gmpy2.powmod`` over a grid of modulus sizes and exponent lengths,
with a fresh modulus every call (so montlab's context cache never hits and every call pays its
per-modulus setup, as gmpy2's does).

Each cell runs ``--rounds`` rounds; a round draws a batch of (modulus, base, exponent) triples,
large enough that the batch takes about ``--sample`` seconds, and times both implementations
over the same batch, in alternating order. The exponent of length 17 is 65537; the others have
their top bit set. Every result is checked against gmpy2 first. The ratio montlab/gmpy2 is
taken per round, then its median (below 1: montlab faster). Cells whose single call is
predicted (from the cell one size smaller) to take longer than ``--max-call`` are skipped.

    .venv/bin/python bench/powm_grid.py --json docs/powm-grid.json
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

import gmpy2
import montlab
from montlab import _native

SIZES = [1024, 2048, 4096, 8192, 16384, 32768, 65536]
EXPONENTS = ["17", "64", "256", "full"]


def exponent(rng: random.Random, kind: str, bits: int) -> int:
    if kind == "17":
        return 65537
    length = bits if kind == "full" else int(kind)
    return rng.getrandbits(length) | 1 << (length - 1)


def batch(rng: random.Random, bits: int, kind: str, count: int) -> list[tuple[int, int, int]]:
    out = []
    for _ in range(count):
        n = rng.getrandbits(bits) | 1 << (bits - 1) | 1
        out.append((rng.randrange(n), exponent(rng, kind, bits), n))
    return out


def run(impl: str, triples: list[tuple[int, int, int]]) -> tuple[float, list[int]]:
    if impl == "gmpy2":
        args = [(gmpy2.mpz(b), gmpy2.mpz(e), gmpy2.mpz(n)) for b, e, n in triples]
        t = time.perf_counter()
        res = [gmpy2.powmod(b, e, n) for b, e, n in args]
    else:
        t = time.perf_counter()
        res = [montlab.powm(b, e, n) for b, e, n in triples]
    dt = (time.perf_counter() - t) / len(triples)
    return dt, [int(r) for r in res]


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    from record import axes, save_plot

    fig, ax = axes()
    for kind in EXPONENTS:
        sub = [r for r in rows if r["exponent"] == kind and r["ratio"] is not None]
        ax.semilogx(
            [r["bits"] for r in sub],
            [r["ratio"] for r in sub],
            marker="o",
            label=f"exponent {kind} bits",
            base=2,
        )
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_title(
        f"montlab.powm / gmpy2.powmod, fresh moduli ({'IFMA' if _native.IFMA else 'no IFMA'})"
    )
    save_plot(fig, ax, path, "bits of N", "montlab / gmpy2 (below 1: montlab faster)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=lambda s: [int(v) for v in s.split(",")], default=SIZES)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sample", type=float, default=0.2)
    ap.add_argument("--max-call", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    last: dict[str, float] = {}
    for bits in args.sizes:
        for kind in EXPONENTS:
            row: dict[str, Any] = {"bits": bits, "exponent": kind, "ratio": None}
            predicted = last.get(kind, 0.0) * (8 if kind == "full" else 4)
            if predicted > args.max_call:
                last[kind] = predicted  # the next size's prediction grows from this one
                row["skipped"] = f"predicted {predicted:.1f} s a call"
                rows.append(row)
                print(f"{bits:>6} e {kind:>4}: skipped ({row['skipped']})", flush=True)
                continue
            # Size the batch from one call of each.
            probe = batch(rng, bits, kind, 1)
            t_ours, got = run("montlab", probe)
            t_gmp, want = run("gmpy2", probe)
            assert got == want, f"{bits} bits, e {kind}: wrong result"
            count = max(1, int(args.sample / max(t_ours, t_gmp)))
            rounds = args.rounds if max(t_ours, t_gmp) < 1.0 else 1
            ours, peer, ratios = [], [], []
            for r in range(rounds):
                triples = batch(rng, bits, kind, count)
                order = ["montlab", "gmpy2"] if r % 2 == 0 else ["gmpy2", "montlab"]
                times, results = {}, {}
                for impl in order:
                    times[impl], results[impl] = run(impl, triples)
                assert results["montlab"] == results["gmpy2"], f"{bits} bits: wrong result"
                ours.append(times["montlab"])
                peer.append(times["gmpy2"])
                ratios.append(times["montlab"] / times["gmpy2"])
            row.update(
                montlab_s=statistics.median(ours),
                gmpy2_s=statistics.median(peer),
                ratio=statistics.median(ratios),
                calls_per_round=count,
                rounds=rounds,
                kernel=montlab.Modulus(triples[0][2]).pow_kernel(triples[0][1]),
            )
            last[kind] = max(row["montlab_s"], row["gmpy2_s"])
            rows.append(row)
            print(
                f"{bits:>6} e {kind:>4}: montlab {row['montlab_s'] * 1e3:9.3f} ms"
                f" gmpy2 {row['gmpy2_s'] * 1e3:9.3f} ms ratio {row['ratio']:.2f}"
                f" ({row['kernel']})",
                flush=True,
            )
    if args.json:
        from montlab.provenance import native_build
        from record import write_record

        write_record(
            args.json,
            native=native_build(),
            gmpy2=gmpy2.version(),
            rows=rows,
        )
        plot(rows, args.json.with_suffix(".png"))


if __name__ == "__main__":
    main()
