#!/usr/bin/env python3
"""Generate every vector file under vectors/ from the montlab reference models.

Deterministic: every random choice comes from a named random.Random seed, so running it again
reproduces the files byte for byte (tests/py/test_vectors.py checks that). verify_all.py checks
the output independently. Provenance of each file: vectors/README.md.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from montlab import registry
from montlab.cycles import model_for
from montlab.vectors import edge_mul_records, mul_record, random_mul_records, write_vector_file

ROOT = Path(__file__).resolve().parents[1]

#: Parameter sets swept in the edge and random files, per algorithm (defaults always included).
SWEEPS: dict[str, list[dict[str, int]]] = {
    "cios": [{}, {"w": 16}],
    "radix2": [{}, {"walter": 1}],
    "radix2k": [{}, {"k": 4}],
    "mclaughlin": [{}],
    "mwr2mm": [{}, {"w": 4}, {"w": 32}],
    "mwr2mm_arch1": [{}, {"w": 8, "p": 2}],
    "mwr2mm_arch2": [{}, {"w": 32}],
    "mwr4mm": [{}, {"w": 8}],
    "drmmm": [{}, {"k": 4, "t": 2, "alg": 2}, {"k": 4, "t": 2, "alg": 3}, {"k": 2, "t": 5}],
}
EDGE_BITS = [3, 17, 64, 129]
RANDOM_BITS = [16, 64, 256, 1024]


def spec_item8() -> list[dict]:
    """SPEC 6 item 8: MWR2MM n = 16, w = 4 (e = 5); results and cycles TK 36, Arch 20, Harris 25."""
    rng = random.Random("montlab-vectors:item8")
    n_mod = rng.getrandbits(16) | (1 << 15) | 1
    x, y = rng.randrange(n_mod), rng.randrange(n_mod)
    recs = [
        mul_record(a, n_mod, x, y, {"w": 4, **extra}, "SPEC 6 item 8")
        for a, extra in (
            ("mwr2mm", {}),
            ("mwr2mm_arch1", {}),
            ("mwr2mm_arch1", {"p": 2}),
            ("mwr2mm_arch2", {}),
            ("mwr4mm", {}),
        )
    ]
    for algo, quantity in (
        ("mwr2mm", "cycles"),
        ("mwr2mm", "cycles_harris"),
        ("mwr2mm_arch1", "cycles"),
        ("mwr2mm_arch2", "cycles"),
    ):
        rep = model_for(algo, 16, {"w": 4})
        params = {k: v for k, v in rep.params.items() if v is not None}
        params.setdefault("n", 16)
        if algo == "mwr2mm_arch1":
            params["p"] = params.get("p") or 5
        recs.append(
            {
                "kind": "cycles",
                "algo": algo,
                "params": params,
                "quantity": quantity,
                "cycles": rep.row(quantity).model,
                "note": "SPEC 6 item 8",
            }
        )
    return recs


def spec_item7() -> list[dict]:
    """SPEC 6 item 7: DRMMM (correction C2), 64-bit, k = 4, t = 2, with the full trace."""
    rng = random.Random("montlab-vectors:item7")
    n_mod = rng.getrandbits(64) | (1 << 63) | 1
    a, b = rng.randrange(n_mod), rng.randrange(n_mod)
    return [
        mul_record("drmmm", n_mod, a, b, {"k": 4, "t": 2, "alg": alg}, "SPEC 6 item 7", trace=True)
        for alg in (2, 3)
    ]


def spec_item5() -> list[dict]:
    """SPEC 6 item 5: FMLM3 step-17 corner, u = 8, v = 3 (l = 64): the value before the final
    subtraction equals N, so 't >= N' is needed and the result is 0."""
    p, q = 2**32 - 5, 2**32 - 17
    n_mod = p * q
    r = (1 << 64) - 1
    return [
        {
            "kind": "mul",
            "algo": "fmlm3",
            "params": {"u": 8, "v": 3},
            "modulus": n_mod,
            "x": p,
            "y": q,
            "r": r,
            "result": 0,
            "bound": 1,
            "note": "SPEC 6 item 5",
        }
    ]


def walter() -> list[dict]:
    """SPEC 6: Walter bound, M = 2^64 - 59, X = Y = 2M - 1: n = 66 passes, n = 65 is rejected."""
    m = 2**64 - 59
    return [
        mul_record(
            "radix2", m, 2 * m - 1, 2 * m - 1, {"walter": 1, "n": 66}, "Walter bound, n = 66"
        ),
        {
            "kind": "reject",
            "algo": "radix2",
            "params": {"walter": 1, "n": 65},
            "modulus": m,
            "x": 2 * m - 1,
            "y": 2 * m - 1,
            "error": "ParameterError",
            "note": "2^65 <= 4M",
        },
    ]


def mclaughlin_rejects() -> list[dict]:
    """SPEC 1.3 / 6: moduli McLaughlin must refuse: a factor shared with 2^l - 1, or N >= R."""
    out = []
    for n_mod, width, why in [
        (3 * (2**1021 + 1), 1024, "shares the factor 3 with 2^1024 - 1"),
        (641 * (2**1000 + 1) + 641 * 2, 1024, "shares the factor 641 with 2^1024 - 1"),
        (7 * (2**3060 + 3), 3072, "shares the factor 7 with 2^3072 - 1"),
        (2**64 - 1, 64, "N = R"),
        (2**65 - 3, 64, "N > R"),
    ]:
        out.append(
            {
                "kind": "reject",
                "algo": "mclaughlin",
                "params": {"l": width},
                "modulus": n_mod,
                "x": 1,
                "y": 1,
                "error": "ModulusError",
                "note": why,
            }
        )
    return out


def q1_table() -> list[dict]:
    """SPEC 6: all 128 entries of the radix-4 q1 table (SPEC 5.4)."""
    from montlab.ref import mwr4mm

    names = ("S1", "S0", "x1", "x0", "Y1", "Y0", "M1")
    entries = [
        {**dict(zip(names, mwr4mm.q1_bits(idx))), "q1": mwr4mm.Q1_TABLE[idx]} for idx in range(128)
    ]
    return [
        {
            "kind": "table",
            "algo": "mwr4mm",
            "name": "q1",
            "entries": entries,
            "note": "SPEC 5.4 eq. (8)",
        }
    ]


def main() -> int:
    kat = ROOT / "kat"
    edge = ROOT / "edge"
    rnd = ROOT / "random"
    for d in (kat, edge, rnd):
        d.mkdir(exist_ok=True)
    counts = {
        "kat/mwr2mm_item8.jsonl": write_vector_file(kat / "mwr2mm_item8.jsonl", spec_item8()),
        "kat/drmmm_item7.jsonl": write_vector_file(kat / "drmmm_item7.jsonl", spec_item7()),
        "kat/fmlm3_item5.jsonl": write_vector_file(kat / "fmlm3_item5.jsonl", spec_item5()),
        "kat/radix2_walter.jsonl": write_vector_file(kat / "radix2_walter.jsonl", walter()),
        "kat/mwr4mm_q1.jsonl": write_vector_file(kat / "mwr4mm_q1.jsonl", q1_table()),
        "kat/mclaughlin_reject.jsonl": write_vector_file(
            kat / "mclaughlin_reject.jsonl", mclaughlin_rejects()
        ),
    }
    for algo in registry.ids():
        sweeps = SWEEPS.get(algo, [{}])
        recs = [r for p in sweeps for bits in EDGE_BITS for r in edge_mul_records(algo, bits, p)]
        counts[f"edge/{algo}.jsonl"] = write_vector_file(edge / f"{algo}.jsonl", recs)
        recs = [
            r
            for i, p in enumerate(sweeps)
            for bits in RANDOM_BITS
            for r in random_mul_records(algo, bits, 4, i, p)
        ]
        counts[f"random/{algo}.jsonl"] = write_vector_file(rnd / f"{algo}.jsonl", recs)
    for name, n in counts.items():
        print(f"{name}: {n} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
