"""cios: Coarsely Integrated Operand Scanning Montgomery multiplication, word by word.

Citation: C. K. Koc, T. Acar, B. S. Kaliski, "Analyzing and comparing Montgomery multiplication
algorithms", IEEE Micro 16(3), 1996, the CIOS method. This is the naive model of the native
``cios`` engine (crates/montlab-core/src/mont/cios.rs), which must agree with it bit for bit.

Contract:
  * N odd, N > 1; s = ceil(bitlen(N)/w) words of w bits; r = 2^(w*s).
  * 0 <= x, y < N; output fully reduced, 0 <= z < N (one final subtraction).
  * n0' = -N^-1 mod 2^w (one word), not the full N' = -N^-1 mod r.
  * Trace, one entry per outer iteration i: {"i", "x_i" (word i of x), "m" (the quotient word),
    "t" (the s+1 accumulator words after the shift)}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from montlab import registry
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands, from_words, words

ID = "cios"


@dataclass(frozen=True)
class Config(MontConfig):
    w: int  #: word size in bits
    s: int  #: number of words of N
    n0_inv: int  #: -N^-1 mod 2^w


def configure(n_mod: int, params: Mapping[str, int | None]) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)  # defaults and bounds from algorithms.toml
    w = params["w"]
    assert w is not None
    s = -(-n_mod.bit_length() // w)
    return Config(
        algo=ID,
        modulus=n_mod,
        r=1 << (w * s),
        bound=1,
        in_bound=1,
        iterations=s,
        w=w,
        s=s,
        n0_inv=(-pow(n_mod, -1, 1 << w)) % (1 << w),
    )


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    check_operands(cfg, x, y)
    w, s = cfg.w, cfg.s
    base = 1 << w
    mask = base - 1
    xs, ys, ns = words(x, w, s), words(y, w, s), words(cfg.modulus, w, s)
    t = [0] * (s + 2)
    for i in range(s):
        # t += x_i * y
        c = 0
        for j in range(s):
            acc = t[j] + xs[i] * ys[j] + c
            t[j], c = acc & mask, acc >> w
        acc = t[s] + c
        t[s], t[s + 1] = acc & mask, acc >> w
        # m = t_0 * n0' mod 2^w makes t + m*N divisible by 2^w
        m = (t[0] * cfg.n0_inv) & mask
        acc = t[0] + m * ns[0]
        assert acc & mask == 0, "t + m*N is not divisible by 2^w"
        c = acc >> w
        for j in range(1, s):
            acc = t[j] + m * ns[j] + c
            t[j - 1], c = acc & mask, acc >> w
        acc = t[s] + c
        t[s - 1], c = acc & mask, acc >> w
        t[s] = t[s + 1] + c
        t[s + 1] = 0
        assert t[s] <= 1, "CIOS accumulator overflowed its s+1 words"
        if trace is not None:
            trace.append({"i": i, "x_i": xs[i], "m": m, "t": t[: s + 1]})
    z = from_words(t[: s + 1], w)
    assert z < 2 * cfg.modulus
    if z >= cfg.modulus:
        z -= cfg.modulus
    return z
