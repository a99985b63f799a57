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
from montlab.testing import accepts, random_modulus_for
from montlab.vectors import edge_mul_records, mul_record, random_mul_records, write_vector_file

ROOT = Path(__file__).resolve().parents[1]

#: Parameter sets swept in the edge and random files, per algorithm (defaults always included).
SWEEPS: dict[str, list[dict[str, int]]] = {
    "cios": [{}, {"w": 16}],
    "amm": [{}, {"w": 64}],
    "radix2": [{}, {"walter": 1}],
    "radix2k": [{}, {"k": 4}],
    "mclaughlin": [{}],
    "mwr2mm": [{}, {"w": 4}, {"w": 32}],
    "mwr2mm_arch1": [{}, {"w": 8, "p": 2}],
    "mwr2mm_arch2": [{}, {"w": 32}],
    "mwr4mm": [{}, {"w": 8}],
    "drmmm": [{}, {"k": 4, "t": 2, "alg": 2}, {"k": 4, "t": 2, "alg": 3}, {"k": 2, "t": 5}],
    "fmlm3": [{}, {"P": 32, "alg": 2}],
    "ism3": [{}],
    "ntt64": [{}],
    "spectral": [{}, {"P": 32}],
    "ntt_redc": [{}],
}
EDGE_BITS = [3, 17, 64, 129]
RANDOM_BITS = [16, 64, 256, 1024]
#: Fewer sizes where one product is slow (every ntt64 product runs seven 1024-point NTTs).
EDGE_BITS_FOR = {"ntt64": [17, 129]}
RANDOM_BITS_FOR = {"ntt64": [64, 1024, 8192, 12288]}


def reject(algo: str, params: dict, n_mod: int, error: str, why: str) -> dict:
    """A ``reject`` record: N (with x = y = 1) and ``params`` must raise montlab.errors.<error>."""
    return {
        "kind": "reject",
        "algo": algo,
        "params": params,
        "modulus": n_mod,
        "x": 1,
        "y": 1,
        "error": error,
        "note": why,
    }


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
            "params": {"P": 8, "u": 8},
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
        out.append(reject("mclaughlin", {"l": width}, n_mod, "ModulusError", why))
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


def fmlm3_item1() -> list[dict]:
    """SPEC 6 item 1: x = 871206, B = 2^5: standard digits and two redundant (u+1)-bit forms."""
    from montlab.ref._base import words

    x, u = 871206, 5
    return [
        {
            "kind": "digits",
            "algo": "fmlm3",
            "x": x,
            "u": u,
            "standard": words(x, u, 4),
            "redundant": [[38, 24, 50, 25], [6, 57, 49, 25]],
            "note": "SPEC 6 item 1 (FMLM3 Sec. 4.1 example)",
        }
    ]


def fmlm3_item2() -> list[dict]:
    """SPEC 6 item 2: P = 8, u = 4: full Algorithm 2 trace on M = 2^16+1 (omega = 16, A = 4) and
    the Algorithm 3 trace on M = 2^24+1, for the same N, x, y."""
    from montlab.testing import random_modulus_for

    rng = random.Random("montlab-vectors:fmlm3-item2")
    n_mod = random_modulus_for(rng, "fmlm3", 32, {"P": 8, "u": 4})
    x, y = rng.randrange(n_mod), rng.randrange(n_mod)
    return [
        mul_record("fmlm3", n_mod, x, y, {"P": 8, "u": 4, **p}, "SPEC 6 item 2", trace=True)
        for p in ({"m_exp": 16, "alg": 2}, {"m_exp": 24, "alg": 3})
    ]


def fmlm3_item3() -> list[dict]:
    """SPEC 6 item 3: A = sqrt(2): P = 16, u = 1, M = 2^8+1 (A = 60) with N = 60553, x = 20828,
    y = 13246 (m = 6469, S = 45163, t = 10187); and P = 32, u = 5, M = 2^16+1 (A = 4080)."""
    from montlab.testing import random_modulus_for

    recs = [mul_record("fmlm3", 60553, 20828, 13246, {"P": 16, "u": 1}, "SPEC 6 item 3", True)]
    rng = random.Random("montlab-vectors:fmlm3-item3")
    params = {"P": 32, "u": 5, "m_exp": 16}
    n_mod = random_modulus_for(rng, "fmlm3", 160, params)
    x, y = rng.randrange(n_mod), rng.randrange(n_mod)
    recs.append(mul_record("fmlm3", n_mod, x, y, params, "SPEC 6 item 3 (A = 4080)", True))
    return recs


def fmlm3_item4() -> list[dict]:
    """SPEC 6 item 4 and the tight rings of SPEC 1.4: N = R - 2, x = y = N - 1 (near-maximal
    digits; the eq. (12) window is needed where cP = v + 2u + 1)."""
    out = []
    for p in (
        {"P": 64, "u": 16, "m_exp": 64, "alg": 3},
        {"P": 8, "u": 2, "m_exp": 8},
        {"P": 8, "u": 6, "m_exp": 16},
        {"P": 32, "u": 13, "m_exp": 32},
    ):
        r = (1 << (p["P"] * p["u"])) - 1
        n_mod = r - 2
        out.append(mul_record("fmlm3", n_mod, n_mod - 1, n_mod - 1, p, "SPEC 6 item 4", True))
    return out


def fmlm3_rejects() -> list[dict]:
    """SPEC 6: moduli FMLM3 must refuse (a factor shared with 2^l - 1, N >= R), and explicit
    rings that break eq. (13) or eq. (19)."""
    out = []
    for n_mod, p, error, why in [
        (3 * (2**1021 + 1), {"P": 64, "u": 16}, "ModulusError", "shares 3 with 2^1024 - 1"),
        (641 * (2**1000 + 1) + 1282, {"P": 64, "u": 16}, "ModulusError", "shares 641"),
        (7 * (2**3060 + 3), {"P": 128, "u": 24}, "ModulusError", "shares 7 with 2^3072 - 1"),
        (2**64 - 1, {"P": 8, "u": 8}, "ModulusError", "N = R"),
        (2**65 - 3, {"P": 8, "u": 8}, "ModulusError", "N > R"),
        (2**95 + 3, {"P": 16, "u": 6, "m_exp": 16, "alg": 2}, "ParameterError", "M < 2P(B-1)^2"),
        (2**1023 + 3, {"P": 32, "u": 32, "m_exp": 96, "alg": 3}, "ParameterError", "eq. (19)"),
    ]:
        out.append(reject("fmlm3", p, n_mod, error, why))
    return out


def ism3_item6() -> list[dict]:
    """SPEC 6 item 6: ISM3 on q = 2^32+1, d = 32, mu = 13 (l = 206): spectral inputs X = FFT(x),
    Y = FFT(y) and outputs z < 2n, Z = FFT(z)."""
    from montlab.api import Modulus
    from montlab.ref import ism3

    rng = random.Random("montlab-vectors:ism3-item6")
    out = []
    params = {"v": 32, "d": 32}
    for bits in (206, 150):
        n_mod = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        cfg = Modulus(n_mod).config("ism3", **params)
        assert isinstance(cfg, ism3.Config)
        x, y = rng.randrange(2 * n_mod), rng.randrange(2 * n_mod)
        big_x, big_y = ism3.fft(cfg, x), ism3.fft(cfg, y)
        z, big_z = ism3.mont_mul_spectral(cfg, big_x, big_y)
        rec = mul_record("ism3", n_mod, x, y, params, "SPEC 6 item 6")
        assert rec["result"] == z
        rec.update(X=big_x, Y=big_y, Z=big_z)
        out.append(rec)
    return out


def ism3_edges() -> list[dict]:
    """SPEC 6: x = y = 2n - 1 with n just below 2^(s*mu - 2), for every Table II set; and the
    rejections of eq. (6) (n too wide) and eq. (5) (mu too large)."""
    from montlab import spectral_params as sp

    out = []
    for s in sp.ism3_sets():
        n_mod = (1 << s.l) - 1
        params = {"v": 1 << s.t, "d": s.d}
        out.append(mul_record("ism3", n_mod, 2 * n_mod - 1, 2 * n_mod - 1, params, "x = y = 2n-1"))
    for n_mod, p, error, why in [
        ((1 << 206) + 1, {"v": 32, "d": 32}, "ModulusError", "n >= 2^(s*mu-2), eq. (6)"),
        ((1 << 100) + 1, {"v": 32, "d": 32, "mu": 14}, "ParameterError", "2*s*b^2 >= q, eq. (5)"),
    ]:
        out.append(reject("ism3", p, n_mod, error, why))
    return out


def ism3_alg1() -> list[dict]:
    """SPEC 6: ISM3 Algorithm 1 mod q = 2^32+1 on A = q, 2q, -q and more; "printed" marks the
    printed loop condition "A > q", which returns q for A = q."""
    from montlab.transforms import ism3_alg1 as alg1

    v = 32
    q = (1 << v) + 1
    vals = [q, 2 * q, -q, q - 1, -1, (1 << (2 * v)) - 1, -((1 << (2 * v)) - 1), q * q]
    out = [
        {"kind": "reduce", "algo": "ism3", "v": v, "A": a, "result": alg1(a, v), "printed": False}
        for a in vals
    ]
    out.append(
        {
            "kind": "reduce",
            "algo": "ism3",
            "v": v,
            "A": q,
            "result": alg1(q, v, printed=True),
            "printed": True,
            "note": "erratum: the printed 'A > q' leaves A = q unreduced",
        }
    )
    return out


def ntt64_item9() -> list[dict]:
    """SPEC 6 item 9: p = 2^64 - 2^32 + 1, 2^192 = 1, 2^96 = p - 1, 2^64 = 2^32 - 1, and the
    1024th root with omega^32 = 64."""
    from montlab.transforms import OMEGA_1024, P64

    return [
        {
            "kind": "field",
            "algo": "ntt64",
            "p": P64,
            "pow2_192": pow(2, 192, P64),
            "pow2_96": pow(2, 96, P64),
            "pow2_64": pow(2, 64, P64),
            "omega_1024": OMEGA_1024,
            "omega_pow32": pow(OMEGA_1024, 32, P64),
            "note": "SPEC 6 item 9, SPEC 4.1",
        }
    ]


def ntt64_allones() -> list[dict]:
    """SPEC 6: M = 2^8192 - 1 with X = Y = M - 1 (b = 16), and the same at 12,288 bits (b = 24)."""
    out = []
    for bits in (8192, 12288):
        m = (1 << bits) - 1
        out.append(mul_record("ntt64", m, m - 1, m - 1, {}, "M = 2^bits - 1, X = Y = M - 1", True))
    return out


def spectral_traces(algo: str) -> list[dict]:
    """Traced products for the native spectral kernels' step-by-step check: P = 2 to 64 (the
    IFMA transforms start at 16), random and extreme operands, N = 2^bits - 1 and random."""
    rng = random.Random(f"montlab-vectors:{algo}-trace")
    out = []
    for bits in (3, 64, 65, 128, 129, 256, 1000, 1024, 2048, 4096):
        for n_mod in ((1 << bits) - 1, random_modulus_for(rng, algo, bits)):
            if not accepts(algo, n_mod):
                continue
            for x, y in ((n_mod - 1, n_mod - 1), (rng.randrange(n_mod), rng.randrange(n_mod))):
                out.append(mul_record(algo, n_mod, x, y, {}, f"{bits}-bit trace", True))
    return out


#: Known-answer files and their generators (the test suite checks they reproduce byte for byte).
KAT = {
    "mwr2mm_item8": spec_item8,
    "drmmm_item7": spec_item7,
    "fmlm3_item1": fmlm3_item1,
    "fmlm3_item2": fmlm3_item2,
    "fmlm3_item3": fmlm3_item3,
    "fmlm3_item4": fmlm3_item4,
    "fmlm3_item5": spec_item5,
    "fmlm3_reject": fmlm3_rejects,
    "ism3_item6": ism3_item6,
    "ism3_edge": ism3_edges,
    "ism3_alg1": ism3_alg1,
    "ntt64_item9": ntt64_item9,
    "ntt64_allones": ntt64_allones,
    "radix2_walter": walter,
    "mwr4mm_q1": q1_table,
    "mclaughlin_reject": mclaughlin_rejects,
    "spectral_trace": lambda: spectral_traces("spectral"),
    "ntt_redc_trace": lambda: spectral_traces("ntt_redc"),
}


def main() -> int:
    kat = ROOT / "kat"
    edge = ROOT / "edge"
    rnd = ROOT / "random"
    for d in (kat, edge, rnd):
        d.mkdir(exist_ok=True)
    counts = {
        f"kat/{name}.jsonl": write_vector_file(kat / f"{name}.jsonl", make())
        for name, make in KAT.items()
    }
    for algo in registry.ids():
        sweeps = SWEEPS.get(algo, [{}])
        edge_bits = EDGE_BITS_FOR.get(algo, EDGE_BITS)
        recs = [r for p in sweeps for bits in edge_bits for r in edge_mul_records(algo, bits, p)]
        counts[f"edge/{algo}.jsonl"] = write_vector_file(edge / f"{algo}.jsonl", recs)
        recs = [
            r
            for i, p in enumerate(sweeps)
            for bits in RANDOM_BITS_FOR.get(algo, RANDOM_BITS)
            for r in random_mul_records(algo, bits, 4, i, p)
        ]
        counts[f"random/{algo}.jsonl"] = write_vector_file(rnd / f"{algo}.jsonl", recs)
    for name, n in counts.items():
        print(f"{name}: {n} records")
    return 0


if __name__ == "__main__":
    sys.exit(main())
