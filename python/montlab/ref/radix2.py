"""radix2: bit-serial radix-2 Montgomery multiplication, with Walter's no-final-subtraction variant.

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Algorithm 1 and eqs. (2)-(4); the variant without
final subtraction follows the bound 2^n > 4M quoted there ([15], [16]); SPEC 5.1.

Contract:
  * N odd, N > 1, bitlen(N) <= n.
  * walter = 0: 0 <= x, y < N; r = 2^n; output fully reduced, 0 <= z < N (one final subtraction).
  * walter = 1: 0 <= x, y < 2N; n must satisfy 2^n > 4N (auto: n = bitlen(N) + 2); output
    0 <= z < 2N with no final subtraction, so outputs chain straight back in as inputs.
  * Radix 2: one bit of x per iteration, n iterations.
  * Trace, one entry per iteration i: {"i", "x_i", "q_i" (S + x_i*Y odd), "S" (after the halving)}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from montlab import registry
from montlab.errors import ParameterError
from montlab.ref._base import MontConfig, Trace, bit, check_modulus, check_operands, check_width

ID = "radix2"


@dataclass(frozen=True)
class Config(MontConfig):
    n: int  #: loop length and datapath width: r = 2^n
    walter: bool


def configure(n_mod: int, params: Mapping[str, int | None]) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)  # defaults and bounds from algorithms.toml
    walter = bool(params["walter"])
    n = params["n"]
    if n is None:
        n = n_mod.bit_length() + (2 if walter else 0)
    check_width(ID, n_mod, n)
    if walter and (1 << n) <= 4 * n_mod:
        raise ParameterError(
            f"{ID}: walter = 1 needs 2^n > 4N, but n = {n} gives 2^n <= 4N "
            f"(use n >= {(4 * n_mod).bit_length()})"
        )
    return Config(
        algo=ID,
        modulus=n_mod,
        r=1 << n,
        bound=2 if walter else 1,
        in_bound=2 if walter else 1,
        iterations=n,
        n=n,
        walter=walter,
    )


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    check_operands(cfg, x, y)
    m = cfg.modulus
    s = 0
    for i in range(cfg.n):
        xi = bit(x, i)
        s = s + xi * y
        q = s & 1
        s = s + q * m
        assert s % 2 == 0
        s >>= 1
        # Eq. (4) with Y < in_bound*M keeps S < 2M (Y < M) or S < 2M+... (Y < 2M, Walter).
        assert s < (1 + cfg.in_bound) * m
        if trace is not None:
            trace.append({"i": i, "x_i": xi, "q_i": q, "S": s})
    if not cfg.walter:
        assert s < 2 * m
        if s >= m:
            s -= m
    assert 0 <= s < cfg.bound * m, "output outside the contract range"
    return s
