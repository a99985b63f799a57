"""The RSA private operation: ``montlab.pow_crt`` (constant time, and its variable-time
sibling) and a prepared ``montlab.CrtKey`` (its primes' constants built once, as OpenSSL keeps
them with the key; also with its exponent blinding on) against ``openssl speed rsaN`` (sign:
OpenSSL's CRT exponentiation with blinding and padding, constant time) and against gmpy2's two
``powmod`` calls plus Garner's step (variable time), in one process, on keys of the same size.

Each round draws a key (gmpy2 primes, e = 65537) and a ciphertext, checks every result against
``pow(c, d, n)``, and times each implementation (``timeit``, best of 3); OpenSSL's figure is
its own sign time from ``openssl speed -seconds S rsaN`` run between the rounds. Ratios are
montlab/peer per round, then their median (below 1: montlab faster).

    .venv/bin/python bench/rsa_crt.py --json docs/rsa-crt.json

``--native-openssl`` times OpenSSL 4 built from source for this CPU (the build of
``montlab bench --native-peers``) instead of the system's ``openssl``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gmpy2
from montlab import _native

SIZES = [2048, 3072, 4096]


def key(rng: random.Random, bits: int) -> tuple[int, int, int, int, int, int, int]:
    half = bits // 2
    while True:
        p = int(gmpy2.next_prime(rng.getrandbits(half) | 3 << (half - 2)))
        q = int(gmpy2.next_prime(rng.getrandbits(half) | 3 << (half - 2)))
        lam = (p - 1) * (q - 1) // int(gmpy2.gcd(p - 1, q - 1))
        if p != q and (p * q).bit_length() == bits and int(gmpy2.gcd(65537, lam)) == 1:
            break
    d = pow(65537, -1, lam)
    return p * q, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p)


def openssl_tool(native: bool) -> tuple[str, dict[str, str]]:
    """The ``openssl`` command and its environment: the system's, or with ``native`` the one
    ``montlab bench --native-peers`` builds (built here if missing; minutes)."""
    if not native:
        return "openssl", dict(os.environ)
    from montlab.bench import native_peers

    lib = native_peers.ensure(print, (native_peers.OPENSSL,))[native_peers.OPENSSL.name]
    prefix = lib.parent.parent
    return str(prefix / "bin" / "openssl"), dict(os.environ)  # linked statically


def openssl_sign_seconds(tool: tuple[str, dict[str, str]], bits: int, seconds: int) -> float | None:
    """OpenSSL's own RSA sign time (s) for ``bits``, or None where it has no such test."""
    out = subprocess.run(
        [tool[0], "speed", "-seconds", str(seconds), f"rsa{bits}"],
        capture_output=True,
        text=True,
        check=False,
        env=tool[1],
    ).stdout
    m = re.search(rf"^rsa\s+{bits} bits\s+([0-9.]+)s", out, re.M)
    return float(m.group(1)) if m else None


def best(call: Callable[[], object]) -> float:
    reps, _ = timeit.Timer(call).autorange()
    return min(timeit.repeat(call, number=reps, repeat=3)) / reps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=lambda s: [int(v) for v in s.split(",")], default=SIZES)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--openssl-seconds", type=int, default=3)
    ap.add_argument(
        "--native-openssl",
        action="store_true",
        help="time OpenSSL 4 built from source for this CPU instead of the system's",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tool = openssl_tool(args.native_openssl)
    version = subprocess.run(
        [tool[0], "version"], capture_output=True, text=True, env=tool[1], check=False
    ).stdout
    rows: list[dict[str, Any]] = []
    for bits in args.sizes:
        times: dict[str, list[float]] = {
            name: []
            for name in ("sec", "vartime", "key", "key_blinded", "key_vartime", "gmpy2", "openssl")
        }
        for _ in range(args.rounds):
            n, d, p, q, dp, dq, qinv = key(rng, bits)
            c = rng.randrange(n)
            want = pow(c, d, n)
            gp, gq, gdp, gdq, gqinv = map(gmpy2.mpz, (p, q, dp, dq, qinv))
            gc = gmpy2.mpz(c)

            def gmpy2_crt() -> object:
                m1, m2 = gmpy2.powmod(gc, gdp, gp), gmpy2.powmod(gc, gdq, gq)
                return m2 + (gqinv * (m1 - m2) % gp) * gq

            prepared = _native.CrtKey(dp, dq, p, q, qinv)
            blinded = _native.CrtKey(dp, dq, p, q, qinv)
            blinded.blinding = True
            calls: dict[str, Callable[[], object]] = {
                "sec": lambda: _native.pow_crt(c, dp, dq, p, q, qinv),
                "vartime": lambda: _native.pow_crt(c, dp, dq, p, q, qinv, sec=False),
                "key": lambda: prepared.pow(c),
                "key_blinded": lambda: blinded.pow(c),
                "key_vartime": lambda: prepared.pow(c, sec=False),
                "gmpy2": gmpy2_crt,
            }
            for name, call in calls.items():
                assert int(call()) == want, f"{name}: wrong result at {bits} bits"  # type: ignore[call-overload]
                times[name].append(best(call))
            sign = openssl_sign_seconds(tool, bits, args.openssl_seconds)
            if sign is not None:
                times["openssl"].append(sign)
        row: dict[str, Any] = {"bits": bits}
        for name, ts in times.items():
            row[f"{name}_us"] = statistics.median(ts) * 1e6 if ts else None
        for ours in ("sec", "vartime", "key", "key_blinded", "key_vartime"):
            for peer in ("openssl", "gmpy2"):
                pairs = list(zip(times[ours], times[peer], strict=False))
                row[f"{ours}_over_{peer}"] = (
                    statistics.median(a / b for a, b in pairs) if pairs else None
                )
        rows.append(row)
        print(
            f"{bits:>5} bits: pow_crt {row['sec_us']:.0f} us (vartime {row['vartime_us']:.0f}),"
            f" CrtKey {row['key_us']:.0f} us (blinded {row['key_blinded_us']:.0f},"
            f" vartime {row['key_vartime_us']:.0f}),"
            f" openssl sign {row['openssl_us'] or float('nan'):.0f} us,"
            f" gmpy2 CRT {row['gmpy2_us']:.0f} us;"
            f" sec/openssl {row['sec_over_openssl'] or float('nan'):.2f},"
            f" key/openssl {row['key_over_openssl'] or float('nan'):.2f},"
            f" sec/gmpy2 {row['sec_over_gmpy2']:.2f}",
            flush=True,
        )
    if args.json:
        from record import write_record

        write_record(
            args.json,
            openssl=version.strip(),
            rounds=args.rounds,
            rows=rows,
        )


if __name__ == "__main__":
    main()
