"""amm: almost Montgomery multiplication, digit-serial in radix 2^w (default w = 52).

Citation: S. Gueron, "Efficient software implementations of modular exponentiation",
J. Cryptographic Engineering 2(1), 2012 (AMM and its output bound); S. Gueron, V. Krasnov,
"Accelerating big integer arithmetic using Intel IFMA extensions", ARITH 2016 (the radix-2^52
digit layout). This is the naive model of the native IFMA kernel
(crates/montlab-core/src/mont/amm.rs), whose ``amm`` must give the same integer.

Contract:
  * N odd, N > 1; k = ceil((bitlen(N) + 2) / w) digits of w bits; r = 2^(w*k) >= 4N.
  * 0 <= x, y < 2N (lazy inputs); output z = x*y*r^-1 mod N up to one N: 0 <= z < 2N, with
    no final subtraction, so outputs chain as inputs ((2N)^2 / r + N <= 2N).
  * n0' = -N^-1 mod 2^w (one digit).
  * Trace, one entry per round i: {"i", "y_i" (digit i of y), "m" (the quotient digit),
    "t" (the accumulator after the division by 2^w)}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from montlab import registry
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands, words

ID = "amm"


@dataclass(frozen=True)
class Config(MontConfig):
    w: int  #: digit size in bits
    k: int  #: number of digits, with 2^(w k) >= 4N
    n0_inv: int  #: -N^-1 mod 2^w


def configure(n_mod: int, params: Mapping[str, int | None]) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)
    w = params["w"]
    assert w is not None
    k = -(-(n_mod.bit_length() + 2) // w)
    assert 1 << (w * k) >= 4 * n_mod
    return Config(
        algo=ID,
        modulus=n_mod,
        r=1 << (w * k),
        bound=2,
        in_bound=2,
        iterations=k,
        w=w,
        k=k,
        n0_inv=(-pow(n_mod, -1, 1 << w)) % (1 << w),
    )


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    check_operands(cfg, x, y)
    w, mask, n = cfg.w, (1 << cfg.w) - 1, cfg.modulus
    t = 0
    for i, y_i in enumerate(words(y, w, cfg.k)):
        t += y_i * x
        m = ((t & mask) * cfg.n0_inv) & mask  # makes t + m*N divisible by 2^w
        t += m * n
        assert t & mask == 0, "t + m*N is not divisible by 2^w"
        t >>= w
        assert t < x + n, "accumulator above x + N"  # (t + y_i x + m N) / 2^w keeps it
        if trace is not None:
            trace.append({"i": i, "y_i": y_i, "m": m, "t": t})
    assert t < 2 * n, "AMM output not below 2N"
    return t
