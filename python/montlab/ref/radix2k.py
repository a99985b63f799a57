"""radix2k: classical digit-serial radix-2^k Montgomery multiplication.

Citation: Zhang et al., "Efficient and flexible different-radix Montgomery modular multiplication
for hardware implementation" (DRMMM paper), Algorithm 1; SPEC 3.1.

Contract:
  * N odd, N > 1, bitlen(N) <= n (n = |M|, auto: bitlen(N)); k >= 1.
  * Radix r = 2^k: one k-bit digit a_i of x per iteration, d = ceil(n/k) iterations.
  * M' = -N^-1 mod r, so that (Z + q*N) is divisible by r for q = (Z mod r)*M' mod r.
  * 0 <= x, y < N. Output fully reduced: 0 <= z < N and z = x*y*2^(-k*d) mod N, so the Montgomery
    constant is R = r^d = 2^(k*d) (equal to 2^n only when k divides n).
  * The value before the final subtraction (:func:`unreduced`) is < 2N after every iteration
    (the paper's invariant; asserted) and one conditional subtraction finishes.
  * Left out: the domain conversions (x -> x*R mod N) and any hardware encoding of a_i*B or q*M.
  * Trace, one entry per iteration i: {"i", "a_i", "q_i", "Z" (after the division by r)}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from montlab import registry
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands, check_width, words

ID = "radix2k"


@dataclass(frozen=True)
class Config(MontConfig):
    n: int  #: modulus width |M| in bits
    k: int  #: digit width: r = 2^k
    d: int  #: digits of x, ceil(n/k); also the number of iterations
    m_prime: int  #: M' = -N^-1 mod 2^k

    @property
    def radix(self) -> int:
        """The digit radix r = 2^k (not the Montgomery constant, which is ``self.r`` = r^d)."""
        return 1 << self.k


def configure(n_mod: int, params: Mapping[str, int | None]) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)  # defaults and bounds from algorithms.toml
    k = params["k"]
    assert k is not None and k >= 1
    n = params["n"]
    n = n_mod.bit_length() if n is None else n
    check_width(ID, n_mod, n)
    d = -(-n // k)
    radix = 1 << k
    m_prime = (-pow(n_mod, -1, radix)) % radix
    assert (n_mod * m_prime + 1) % radix == 0, "M' is not -N^-1 mod r"
    assert k * d >= n > k * (d - 1)
    return Config(
        algo=ID,
        modulus=n_mod,
        r=1 << (k * d),
        bound=1,
        in_bound=1,
        iterations=d,
        n=n,
        k=k,
        d=d,
        m_prime=m_prime,
    )


def unreduced(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    """Algorithm 1, lines 1-6: Z_(d-1) before the final subtraction, 0 <= Z < 2N."""
    check_operands(cfg, x, y)
    m, k = cfg.modulus, cfg.k
    radix = cfg.radix
    digits = words(x, k, cfg.d)  # A = (a_{d-1}, ..., a_0)_r; fits because x < N < 2^n <= 2^(kd)
    z = 0  # Z_(-1) = 0
    for i in range(cfg.d):
        a_i = digits[i]
        z = z + a_i * y  # line 3: Z_(i) = Z_(i-1) + a_i*B
        q = ((z % radix) * cfg.m_prime) % radix  # line 4: q_i = (Z mod r)*M' mod r
        assert 0 <= q < radix
        s = z + q * m
        assert s % radix == 0, "Algorithm 1: Z + q*M is not divisible by r"
        z = s >> k  # line 5: the shift discards only zero bits
        # Z < N + y < 2N: (Z + a_i*B + q*M)/r < (N + y + (r-1)*y + (r-1)*N)/r = N + y.
        assert z < m + y, "Algorithm 1: the invariant Z < N + B < 2N is broken"
        if trace is not None:
            trace.append({"i": i, "a_i": a_i, "q_i": q, "Z": z})
    assert z < 2 * m
    return z


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    z = unreduced(cfg, x, y, trace)
    if z >= cfg.modulus:  # lines 7-9: final reduction
        z -= cfg.modulus
    assert 0 <= z < cfg.bound * cfg.modulus, "output outside the contract range"
    return z
