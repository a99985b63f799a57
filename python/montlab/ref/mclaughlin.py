"""mclaughlin: McLaughlin's Montgomery multiplication with R = 2^l - 1, at the integer level.

Citation: McLaughlin's Algorithm 1 as restated in FMLM3 (paper 000), Algorithm 1; SPEC 1.3 (correct
as printed). It is the integer skeleton that FMLM3 Algorithms 2 and 3 compute spectrally.

Contract:
  * N odd, 1 < N < R = 2^l - 1, and gcd(N, 2^l - 1) = 1. 2^l - 1 always has small factors
    (3 for every even l, 5 and 17 for l = 0 mod 8, ...): such N are rejected, naming the factor.
  * The Montgomery constant is r = R = 2^l - 1, which is odd and **not** a power of two.
  * l: the parameter ``l``; ``None`` (auto) takes the smallest l with N < 2^l - 1, i.e. bitlen(N),
    or bitlen(N) + 1 when N = 2^bitlen(N) - 1. Auto does not skip l with gcd(N, 2^l - 1) != 1;
    the error then suggests the next l that works.
  * Auxiliary modulus Q' = 2^l + 1 (not B^P - 1: FMLM3 erratum 3); N' = -N^-1 mod R.
  * 0 <= x, y < N; output fully reduced, 0 <= z < N (one final subtraction, "t >= N": the
    printed "t > N" of FMLM3 Algorithm 2 step 17 is wrong, SPEC 6 item 5).
  * Not iterative: one trace entry {"m", "S", "s", "t"}, with t before the final subtraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from montlab import registry
from montlab.errors import ModulusError
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands

ID = "mclaughlin"


@dataclass(frozen=True)
class Config(MontConfig):
    l: int  # noqa: E741  width: r = R = 2^l - 1
    q_prime: int  #: Q' = 2^l + 1
    n_prime: int  #: N' = -N^-1 mod R

    @property
    def R(self) -> int:  # noqa: N802
        """R = 2^l - 1, the Montgomery constant (same as ``r``)."""
        return self.r


def _auto_l(n_mod: int) -> int:
    """The smallest l with N < 2^l - 1."""
    l = n_mod.bit_length()  # noqa: E741
    return l + 1 if n_mod == (1 << l) - 1 else l


def _smallest_prime_factor(g: int) -> int:
    p = 3
    while p * p <= g and p < 1 << 20:
        if g % p == 0:
            return p
        p += 2
    return g


def configure(n_mod: int, params: Mapping[str, Any] | None = None) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)  # defaults and bounds from algorithms.toml
    l = params["l"]  # noqa: E741
    if l is None:
        l = _auto_l(n_mod)  # noqa: E741
    r = (1 << l) - 1
    if n_mod >= r:
        raise ModulusError(
            f"{ID}: the modulus is too wide for l = {l}: it must be < R = 2^{l} - 1, but it has "
            f"{n_mod.bit_length()} bits "
            f"(use l >= {_auto_l(n_mod)})"
        )
    g = math.gcd(n_mod, r)
    if g != 1:
        f = _smallest_prime_factor(g)
        ok = next((k for k in range(l + 1, l + 1000) if math.gcd(n_mod, (1 << k) - 1) == 1), None)
        hint = f" (l = {ok} would work)" if ok is not None else ""
        raise ModulusError(
            f"{ID}: the modulus shares the factor {f} with 2^{l} - 1 (gcd = {g}), so R has no "
            f"inverse mod N{hint}"
        )
    n_prime = (-pow(n_mod, -1, r)) % r
    assert (n_mod * n_prime) % r == r - 1
    return Config(
        algo=ID,
        modulus=n_mod,
        r=r,
        bound=1,
        in_bound=1,
        iterations=1,
        l=l,
        q_prime=r + 2,
        n_prime=n_prime,
    )


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    check_operands(cfg, x, y)
    n, r, q = cfg.modulus, cfg.r, cfg.q_prime
    xy = x * y
    # Step 1: m = x*y*N' mod R, so xy + mN = 0 (mod R).
    m = (xy * cfg.n_prime) % r
    big_t = xy + m * n
    assert big_t % r == 0
    # Step 2: S = (xy + mN) mod Q'.
    s_big = big_t % q
    # Step 3: s = -S/2 mod Q' (R = -2 mod Q'); Q' is odd, so halve w or w + Q'.
    w = (-s_big) % q
    s = w // 2 if w % 2 == 0 else (w + q) // 2
    assert (2 * s + s_big) % q == 0
    # Step 4: R is odd, so t has the parity of xy + mN; t < 2N < 2Q' leaves s or s + Q'.
    t = s if (big_t - s) % 2 == 0 else s + q
    assert t * r == big_t, "step 4 did not give t = (xy + mN)/R"
    assert 0 <= t < 2 * n, "t is not < 2N"
    if trace is not None:
        trace.append({"m": m, "S": s_big, "s": s, "t": t})
    # Step 5: one subtraction, "t >= N" (t = N happens: SPEC 6 item 5).
    if t >= n:
        t -= n
    assert 0 <= t < n, "output outside the contract range"
    return t
