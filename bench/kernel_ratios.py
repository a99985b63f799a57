"""montlab's native engine against gmpy2 in one process, interleaved rounds, same operands.

For each size: one modular multiplication (``FastModulus.mul`` against gmpy2's ``a*b % n``),
one full-size-exponent modular exponentiation (``montlab.powm`` against ``gmpy2.powmod``), and
the batch throughput of ``pow_many`` against the same exponentiations one call at a time.
Prints medians and ratios ours/peer (montlab time / gmpy2 time: below 1 means montlab is faster).

    .venv/bin/python bench/kernel_ratios.py [--sizes 2048,4096,...] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable

import gmpy2
import montlab
from montlab import _native


def timed(f: Callable[[], object], reps: int) -> float:
    t = time.perf_counter()
    for _ in range(reps):
        f()
    return (time.perf_counter() - t) / reps


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="2048,4096,8192,16384,32768,65536")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"thresholds {_native.thresholds()}  IFMA {_native.IFMA}  rounds {args.rounds}")
    print(
        f"{'bits':>6} {'kernel':>13} {'mul us':>9} {'gmp mul':>9} {'ratio':>6}"
        f" {'powm ms':>10} {'gmp powm':>10} {'ratio':>6}"
    )
    for bits in [int(b) for b in args.sizes.split(",")]:
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        a, b, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(bits) | (1 << (bits - 1))
        m = _native.FastModulus(n)
        gn, ga, gb, ge = gmpy2.mpz(n), gmpy2.mpz(a), gmpy2.mpz(b), gmpy2.mpz(e)
        assert m.mul(a, b) == a * b % n
        reps = max(1, 400_000 // bits)
        mul_m, mul_g, pow_m, pow_g = [], [], [], []
        for _ in range(args.rounds):
            mul_m.append(timed(lambda: m.mul(a, b), reps))
            mul_g.append(timed(lambda: ga * gb % gn, reps))
            pow_m.append(timed(lambda: montlab.powm(a, e, n), 1))
            pow_g.append(timed(lambda: gmpy2.powmod(ga, ge, gn), 1))
        assert montlab.powm(a, e, n) == int(gmpy2.powmod(ga, ge, gn))
        mm, mg = statistics.median(mul_m), statistics.median(mul_g)
        pm, pg = statistics.median(pow_m), statistics.median(pow_g)
        print(
            f"{bits:>6} {m.mul_kernel + '/' + m.pow_kernel:>13} {mm * 1e6:>9.2f} {mg * 1e6:>9.2f}"
            f" {mm / mg:>6.2f} {pm * 1e3:>10.2f} {pg * 1e3:>10.2f} {pm / pg:>6.2f}",
            flush=True,
        )
    print(f"\nbatch: pow_many of {args.batch} full-size exponentiations vs one call at a time")
    for bits in (2048, 8192):
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        m = _native.FastModulus(n)
        bases = [rng.randrange(n) for _ in range(args.batch)]
        e = rng.getrandbits(bits) | (1 << (bits - 1))
        one, many = [], []
        for _ in range(args.rounds):
            one.append(timed(lambda: [m.pow(x, e) for x in bases], 1))
            many.append(timed(lambda: m.pow_many(bases, e), 1))
        s1, s2 = statistics.median(one), statistics.median(many)
        print(
            f"{bits:>6} one-by-one {s1 * 1e3:9.2f} ms  pow_many {s2 * 1e3:9.2f} ms  speedup {s1 / s2:.2f}x"
        )


if __name__ == "__main__":
    main()
