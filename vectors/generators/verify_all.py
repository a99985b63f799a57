#!/usr/bin/env python3
"""Independent verifier of every vector file under vectors/.

It uses the Python standard library only and never imports montlab: each record is checked
against Python's pow and against closed forms written here from SPEC, so a bug in the models
cannot hide in the vectors they generated.

  mul     result == x*y*r^-1 (mod N), 0 <= result < bound*N, r is the algorithm's constant
  cycles  the cycle count equals the closed form of SPEC 5.5 / 3.4
  reject  the inputs really break the stated rule
  table   every entry satisfies its defining congruence
  trace   DRMMM C2 traces (SPEC 3.2) and FMLM3 traces (SPEC 1.4) are recomputed step by step
  digits  FMLM3 standard and redundant digit forms evaluate to x (SPEC 6 item 1)
  reduce  ISM3 Algorithm 1 results equal A mod q (SPEC 2.5)
  field   the NTT prime's identities and its 1024th root (SPEC 4.1)
  ISM3 spectral vectors are recomputed by the direct transform of eq. (1)

Exit status 0 when every record holds; prints 'N passed, M failed'.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEX = re.compile(r"^-?0x[0-9a-f]+$")


def dec(v):
    if isinstance(v, str) and HEX.match(v):
        return int(v, 16)
    if isinstance(v, list):
        return [dec(x) for x in v]
    if isinstance(v, dict):
        return {k: dec(x) for k, x in v.items()}
    return v


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def montgomery_constant(algo: str, p: dict, n_mod: int) -> int:
    """r for each algorithm, from SPEC (not from montlab)."""
    n = p.get("n") or n_mod.bit_length()
    if algo == "cios":
        w = p.get("w", 64)
        return 1 << (w * cdiv(n_mod.bit_length(), w))
    if algo == "amm":
        w = p.get("w", 52)
        return 1 << (w * cdiv(n_mod.bit_length() + 2, w))
    if algo in ("radix2", "mwr2mm", "mwr2mm_arch1", "mwr2mm_arch2"):
        return 1 << n
    if algo == "mwr4mm":
        return 4 ** cdiv(n, 2)
    if algo in ("radix2k", "drmmm"):
        k = p["k"]
        return 1 << (k * cdiv(n, k))
    if algo == "fmlm3":
        return (1 << (p["u"] * p["P"])) - 1
    if algo == "ism3":
        return 1 << (p["d"] // 2 * p["mu"])
    if algo == "ntt64":
        return 1 << n_mod.bit_length()
    if algo == "mclaughlin":
        return (1 << p["l"]) - 1
    if algo == "spectral":
        return (1 << (64 * p["P"])) + 1
    if algo == "ntt_redc":
        return 1 << (64 * p["P"])
    raise KeyError(f"no Montgomery constant rule for {algo}")


def check_mul(rec: dict) -> str | None:
    n_mod, x, y, res = rec["modulus"], rec["x"], rec["y"], rec["result"]
    bound = rec.get("bound", 1)
    r = montgomery_constant(rec["algo"], rec.get("params", {}), n_mod)
    if rec.get("r") is not None and rec["r"] != r:
        return f"r = {rec['r']:#x}, expected {r:#x}"
    if n_mod % 2 == 0 or n_mod <= 1:
        return "modulus is not odd > 1"
    expected = x * y * pow(r, -1, n_mod) % n_mod
    if res % n_mod != expected:
        return f"result {res:#x} != x*y*r^-1 mod N = {expected:#x}"
    if not 0 <= res < bound * n_mod:
        return f"result outside [0, {bound}*N)"
    if rec["algo"] == "amm":
        # No final subtraction: the exact integer (x y + M N) / r, M = -x y N^-1 mod r < r.
        exact = (x * y + (-x * y * pow(n_mod, -1, r)) % r * n_mod) // r
        if res != exact or bound != 2:
            return f"amm result {res:#x} != (x y + M N) / r = {exact:#x} (bound {bound})"
    return None


def check_cycles(rec: dict) -> str | None:
    p, algo, q = rec["params"], rec["algo"], rec["quantity"]
    n, w = p["n"], p.get("w")
    e = cdiv(n + 1, w) if w else None
    if algo == "mwr2mm" and q == "cycles":
        want = 2 * n + e - 1
    elif algo == "mwr2mm" and q == "cycles_harris":
        want = n + 2 * e - 1
    elif algo == "mwr2mm_arch2" and q == "cycles":
        want = n + e - 1
    elif algo == "mwr2mm_arch1" and q == "cycles":
        pe = p["p"]
        want = n + e - 1 if pe >= e else n + (cdiv(n, pe) - 1) * (e - pe) + e - 1
    elif algo == "mwr4mm" and q == "cycles":
        want = cdiv(n, 2) + e - 1
    else:
        return f"no closed form for {algo}/{q}"
    return None if rec["cycles"] == want else f"cycles {rec['cycles']} != closed form {want}"


def check_reject(rec: dict) -> str | None:
    algo, p, n_mod = rec["algo"], rec["params"], rec["modulus"]
    if algo == "radix2" and p.get("walter") == 1:
        return None if (1 << p["n"]) <= 4 * n_mod else "2^n > 4N: this set is legal"
    if algo == "fmlm3" and rec["error"] == "ParameterError":
        big_p, b, m_ring = p["P"], 1 << p["u"], (1 << p["m_exp"]) + 1
        bound = 2 * big_p * (b - 1) ** 2 if p["alg"] == 2 else big_p**2 * (b - 1) ** 3
        return None if m_ring <= bound else "the ring satisfies eq. (13)/(19): legal"
    if algo == "ism3":
        v, d = p["v"], p["d"]
        s, q = d // 2, (1 << v) + 1
        mu = p.get("mu") or max(m for m in range(1, v) if 2 * s * (1 << (2 * m)) < q)
        if 2 * s * (1 << (2 * mu)) >= q or n_mod.bit_length() > s * mu - 2:
            return None
        return "eqs. (5) and (6) hold: this set is legal"
    if algo in ("fmlm3", "mclaughlin"):
        from math import gcd

        r = montgomery_constant(algo, p, n_mod)
        if n_mod >= r or gcd(n_mod, r) != 1:
            return None
        return "N < R and gcd(N, R) = 1: this modulus is legal"
    return f"no rejection rule for {algo}"


def check_table(rec: dict) -> str | None:
    if rec["algo"] == "mwr4mm" and rec["name"] == "q1":
        seen = set()
        for ent in rec["entries"]:
            s = ent["S1"] * 2 + ent["S0"]
            x = ent["x1"] * 2 + ent["x0"]
            y = ent["Y1"] * 2 + ent["Y0"]
            m = ent["M1"] * 2 + 1
            q = ent["q1"] * 2 + (ent["S0"] ^ (ent["x0"] & ent["Y0"]))
            if (s + x * y + q * m) % 4:
                return f"q1 entry {ent} violates eq. (8)"
            seen.add(tuple(ent[k] for k in ("S1", "S0", "x1", "x0", "Y1", "Y0", "M1")))
        return None if len(seen) == 128 else f"{len(seen)} distinct entries, expected 128"
    return f"no table rule for {rec['algo']}/{rec['name']}"


def check_drmmm_trace(rec: dict) -> str | None:
    """Recompute correction C2 of SPEC 3.2 and compare every iteration."""
    p = rec["params"]
    m, a, b = rec["modulus"], rec["x"], rec["y"]
    k, t = p["k"], p["t"]
    n = p.get("n") or m.bit_length()
    d = cdiv(n, k)
    r = 1 << k
    rt = r**t
    mp = -pow(m, -1, rt) % rt
    z, q = 0, {}
    for i in range(d + t):
        ent = rec["trace"][i]
        ai = (a >> (k * i)) % r if i < d else 0
        q[i] = ((z % rt) * mp % rt) >> (k * (t - 1))
        used = q.get(i - t + 1, 0)
        num = z + ai * b * rt + used * m
        if num % r:
            return f"iteration {i}: division by r is not exact"
        z = num // r
        got = (ent["a_i"], ent["q_new"], ent["q_used"], ent["Z"])
        if got != (ai, q[i], used, z):
            return f"iteration {i}: trace {got} != recomputed {(ai, q[i], used, z)}"
    if len(rec["trace"]) != d + t:
        return f"{len(rec['trace'])} trace entries, expected d+t = {d + t}"
    final = z - m if z >= m else z
    return None if final == rec["result"] else "final result differs from the recomputed C2"


def _digits(z: int, u: int, count: int) -> list:
    return [(z >> (u * j)) & ((1 << u) - 1) for j in range(count)]


def _eval(ds: list, u: int) -> int:
    return sum(d << (u * j) for j, d in enumerate(ds))


def check_fmlm3_trace(rec: dict) -> str | None:
    """Recompute the FMLM3 trace (SPEC 1.4/1.5) from integer formulas and the direct transform
    definitions: T(x), T'(x), g and z0 (cyclic convolution), m, the nega-cyclic z'4 (signed and
    mod M), S, s and t."""
    p = rec["params"]
    big_p, u, n_mod, x, y = p["P"], p["u"], rec["modulus"], rec["x"], rec["y"]
    l, m_ring = u * big_p, (1 << p["m_exp"]) + 1  # noqa: E741
    v = big_p.bit_length() - 1
    r, q = (1 << l) - 1, (1 << l) + 1
    if 2 * p["m_exp"] == big_p:  # c = 1/2: omega = 2, A = sqrt(2) mod 2^(P/2)+1
        omega, big_a = 2, ((1 << (3 << (v - 3))) - (1 << (1 << (v - 3)))) % m_ring
    else:
        c = p["m_exp"] // big_p
        omega, big_a = 1 << (2 * c), 1 << c
    if pow(big_a, 2, m_ring) != omega or pow(omega, big_p, m_ring) != 1:
        return "ring constants are wrong"
    wi = pow(omega, -1, m_ring)
    nprime = -pow(n_mod, -1, r) % r
    xd, yd, nd, npd = (_digits(z, u, big_p) for z in (x, y, n_mod, nprime))
    ent = rec["trace"][0]
    want = {
        "T(x)": [
            sum(xd[k] * pow(wi, k * n, m_ring) for k in range(big_p)) % m_ring for n in range(big_p)
        ],
        "T'(x)": [
            sum(xd[k] * pow(big_a, k, m_ring) * pow(wi, k * n, m_ring) for k in range(big_p))
            % m_ring
            for n in range(big_p)
        ],
    }
    cyc = [sum(xd[i] * npd[(n - i) % big_p] for i in range(big_p)) for n in range(big_p)]
    g = _eval(cyc, u)
    if p["alg"] == 2:
        want["g"] = g
        want["z0"] = [a + c for a, c in zip(_digits(g & r, u, big_p), _digits(g >> l, u, big_p))]
    m = x * y * nprime % r
    md = _digits(m, u, big_p)
    neg = []
    for n in range(big_p):
        acc = 0
        for i in range(big_p):
            j = n - i
            sign = 1 if j >= 0 else -1
            acc += sign * (xd[i] * yd[j % big_p] + md[i] * nd[j % big_p])
        neg.append(acc)
    big_s = (x * y + m * n_mod) % q
    want.update(
        m=m,
        z4=neg,
        z4_unrestricted=[w % m_ring for w in neg],
        S=big_s,
        s=(-big_s * pow(2, -1, q)) % q,
        t=(x * y + m * n_mod) // r,
    )
    for key, val in want.items():
        if key in ent and ent[key] != val:
            return f"trace field {key} differs from the recomputation"
    return None


def check_ism3_spectral(rec: dict) -> str | None:
    """Recompute FFT(x), FFT(y), FFT(z) by eq. (1): X_k = sum_j x_j omega^(jk) mod q."""
    p = rec["params"]
    v, d, mu = p["v"], p["d"], p["mu"]
    q, omega = (1 << v) + 1, 1 << (2 * v // d)
    for name, val in (("X", rec["x"]), ("Y", rec["y"]), ("Z", rec["result"])):
        xs = _digits(val, mu, d // 2) + [0] * (d // 2)
        big = [sum(xs[j] * pow(omega, j * k, q) for j in range(d)) % q for k in range(d)]
        if rec[name] != big:
            return f"{name} is not the eq. (1) transform"
    return None


def check_digits(rec: dict) -> str | None:
    x, u = rec["x"], rec["u"]
    if _eval(rec["standard"], u) != x or any(d >= 1 << u for d in rec["standard"]):
        return "standard digits do not evaluate to x"
    for red in rec["redundant"]:
        if _eval(red, u) != x or any(d >= 1 << (u + 1) for d in red):
            return f"redundant form {red} is not a (u+1)-bit form of x"
    return None


def check_reduce(rec: dict) -> str | None:
    q = (1 << rec["v"]) + 1
    if rec["printed"]:
        ok = rec["result"] % q == rec["A"] % q and rec["result"] == q
        return None if ok else "the printed loop should leave A = q unreduced"
    return None if rec["result"] == rec["A"] % q else f"A mod q != {rec['result']}"


def check_field(rec: dict) -> str | None:
    p = rec["p"]
    ok = (
        p == 2**64 - 2**32 + 1
        and rec["pow2_192"] == pow(2, 192, p) == 1
        and rec["pow2_96"] == pow(2, 96, p) == p - 1
        and rec["pow2_64"] == pow(2, 64, p) == 2**32 - 1
        and rec["omega_pow32"] == pow(rec["omega_1024"], 32, p) == 64
        and pow(rec["omega_1024"], 512, p) == p - 1
    )
    return None if ok else "field identities do not hold"


#: The three NTT primes of the native spectral kernels (c 2^22 + 1 below 2^50).
NTT_PRIMES = (0x3FFFFFB800001, 0x3FFFFFAC00001, 0x3FFFFF5400001)


def _schoolbook(a: list, b: list, nega: bool) -> list:
    """Coefficients of a b mod (x^P -+ 1), by the definition (no transform)."""
    p = len(a)
    c = [0] * p
    for i, u in enumerate(a):
        for j, v in enumerate(b):
            k = i + j
            if k < p:
                c[k] += u * v
            else:
                c[k - p] += -u * v if nega else u * v
    return c


def _residues(c: list) -> list:
    return [v % q for q in NTT_PRIMES for v in c]


def _limbs(x: int, p: int, top: int) -> list:
    """64-bit digits of x, with x = 2^(64 P) as ``top`` on digit 0."""
    if x == 1 << (64 * p):
        return [top] + [0] * (p - 1)
    return [(x >> (64 * i)) & ((1 << 64) - 1) for i in range(p)]


def check_spectral_trace(rec: dict) -> str | None:
    """Recompute every step of the spectral kernel's trace from schoolbook products."""
    p, n, x, y = rec["params"]["P"], rec["modulus"], rec["x"], rec["y"]
    l, tr = 64 * p, {e["step"]: e for e in rec["trace"]}  # noqa: E741
    r, q = (1 << l) + 1, (1 << l) - 1
    n_prime = -pow(n, -1, r) % r
    h = x * y % r
    m = h * n_prime % r
    want = {
        "h": (_residues(_schoolbook(_limbs(x, p, 0), _limbs(y, p, 0), True)), h),
        "m": (_residues(_schoolbook(_limbs(h, p, -1), _limbs(n_prime, p, 0), True)), m),
    }
    cy = _schoolbook(_limbs(x, p, 0), _limbs(y, p, 0), False)
    cm = _schoolbook(_limbs(m, p, 1), _limbs(n, p, 0), False)
    want["S"] = (_residues([u + v for u, v in zip(cy, cm)]), (x * y + m * n) % q)
    for step, (res, value) in want.items():
        if tr[step]["residues"] != res or tr[step]["value"] != value:
            return f"spectral step {step} differs from the schoolbook recomputation"
    if tr["t"]["value"] * r != x * y + m * n:
        return "spectral t is not (x y + m N) / R"
    return None


def check_ntt_redc_trace(rec: dict) -> str | None:
    """Recompute every step of the ntt_redc kernel's trace from schoolbook products."""
    p, n, x, y = rec["params"]["P"], rec["modulus"], rec["x"], rec["y"]
    l, tr = 64 * p, {e["step"]: e for e in rec["trace"]}  # noqa: E741
    mask = (1 << l) - 1
    t_lo, t_hi = x * y & mask, x * y >> l
    m = t_lo * (-pow(n, -1, 1 << l) % (1 << l)) & mask
    xd, yd = _limbs(x, p, 0), _limbs(y, p, 0)
    want_t = {
        "cyc_residues": _residues(_schoolbook(xd, yd, False)),
        "nega_residues": _residues(_schoolbook(xd, yd, True)),
        "T_lo": t_lo,
        "T_hi": t_hi,
    }
    if {k: tr["T"][k] for k in want_t} != want_t:
        return "ntt_redc step T differs from the schoolbook recomputation"
    want = {"m": m, "U": m * n % mask, "H": m * n >> l, "t": (x * y + m * n) >> l}
    if {k: tr[k]["value"] for k in want} != want or (x * y + m * n) & mask:
        return "ntt_redc steps m, U, H, t differ from their definitions"
    return None


def main() -> int:
    files = sorted(ROOT.glob("*/*.jsonl"))
    passed = failed = 0
    for path in files:
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            rec = dec(json.loads(line))
            kind = rec.get("kind", "mul")
            checks = {
                "mul": check_mul,
                "cycles": check_cycles,
                "reject": check_reject,
                "table": check_table,
                "digits": check_digits,
                "reduce": check_reduce,
                "field": check_field,
            }
            err = checks[kind](rec) if kind in checks else f"unknown kind {kind}"
            if (
                err is None
                and rec.get("algo") == "drmmm"
                and rec.get("trace")
                and rec["params"].get("alg") == 2
            ):
                err = check_drmmm_trace(rec)
            if err is None and rec.get("algo") == "fmlm3" and rec.get("trace"):
                err = check_fmlm3_trace(rec)
            if err is None and rec.get("algo") == "spectral" and rec.get("trace"):
                err = check_spectral_trace(rec)
            if err is None and rec.get("algo") == "ntt_redc" and rec.get("trace"):
                err = check_ntt_redc_trace(rec)
            if err is None and rec.get("algo") == "ism3" and "X" in rec:
                err = check_ism3_spectral(rec)
            if err is None:
                passed += 1
            else:
                failed += 1
                print(f"FAIL {path.relative_to(ROOT)}:{lineno}: {err}")
    print(f"vectors: {len(files)} files")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
