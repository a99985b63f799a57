"""spectral: McLaughlin's Montgomery multiplication with R = 2^l + 1 and three-prime NTT products.

Citation: P. McLaughlin, "New frameworks for Montgomery's modular multiplication method", Math.
Comp. 73, 2004 (Algorithm 1 of the FMLM3 paper, SPEC §1.3), with the roles of 2^l - 1 and
2^l + 1 swapped, and the spectral organisation of SPEC §1.4 (cyclic and nega-cyclic products,
no zero-padding). This is the naive model of the native kernel
(crates/montlab-core/src/spectral/kernel.rs), which must give the same value at every step.

Contract:
  * N odd, N > 1; digits of 64 bits, transform length P a power of two (2 <= P <= 2^16) with
    l = 64 P >= bitlen(N); R = 2^l + 1 (Montgomery constant), Q' = 2^l - 1 (auxiliary), both
    coprime to N; N' = -N^-1 mod R.
  * 0 <= x, y < N; output x y R^-1 mod N, fully reduced (one final subtraction).
  * Steps (each product modulo the three primes of :mod:`montlab.ref._three_prime`):
      1a. h = x y mod R: nega-cyclic product, in [0, 2^l] (2^l, that is -1, loaded as digit -1);
      1b. m = h N' mod R: nega-cyclic product, in [0, 2^l];
      2.  S = (x y + m N) mod Q': one cyclic sum of two products (m = 2^l loaded as +1);
      3.  s = S / 2 mod Q' (R = 2 mod Q'); t = s or s + Q', the one with the parity of
          x y + m N; t = (x y + m N) / R < 2N;
      4.  out = t - N if t >= N.
  * Trace, one entry per step: {"step": "h" | "m" | "S", "residues" (3 P values, prime by
    prime, of the convolution's coefficients mod q), "value"}, then {"step": "t", "value"}.

Left out: the kernel's prepared operands (a product with y N' mod R precomputed, the same m by
one product), which change the transform count, not the values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from montlab import registry
from montlab.errors import ModulusError
from montlab.ref import _three_prime as tp
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands, final_subtraction

ID = "spectral"
#: The longest transform (l = 2^22 bits), as in the native kernel.
MAX_P = 1 << 16


@dataclass(frozen=True)
class Config(MontConfig):
    P: int  # noqa: N815  transform length
    l: int  # noqa: E741  l = 64 P: R = 2^l + 1
    q_prime: int  #: Q' = 2^l - 1
    n_prime: int  #: N' = -N^-1 mod R


def configure(n_mod: int, params: Mapping[str, Any] | None = None) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)
    p = tp.transform_len(ID, n_mod, params["P"], MAX_P)
    l = tp.DIGIT * p  # noqa: E741
    r = (1 << l) + 1
    g = math.gcd(n_mod, r)
    if g != 1:
        raise ModulusError(
            f"{ID}: the modulus shares a factor with R = 2^{l} + 1 (gcd = {g:#x}), so R has no "
            f"inverse mod N (a longer transform P may avoid it)"
        )
    n_prime = (-pow(n_mod, -1, r)) % r
    assert 0 < n_prime < 1 << l  # N' = 2^l would need N = 1
    return Config(
        algo=ID,
        modulus=n_mod,
        r=r,
        bound=1,
        in_bound=1,
        iterations=1,
        P=p,
        l=l,
        q_prime=(1 << l) - 1,
        n_prime=n_prime,
    )


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    check_operands(cfg, x, y)
    p, l, n, r, q = cfg.P, cfg.l, cfg.modulus, cfg.r, cfg.q_prime  # noqa: E741
    xd, yd = tp.digits(x, p), tp.digits(y, p)

    # Step 1a: h = x y mod R.
    h_res = tp.residues(xd, yd, nega=True)
    c = tp.coefficients(h_res, signed=True)
    tp.check_bounds(c, p, 1)
    h = tp.fold(c, l, nega=True)
    assert h == x * y % r
    # Step 1b: m = h N' mod R (h = 2^l is -1 in the ring).
    m_res = tp.residues(tp.signed_digits(h, p, -1), tp.digits(cfg.n_prime, p), nega=True)
    c = tp.coefficients(m_res, signed=True)
    tp.check_bounds(c, p, 1)
    m = tp.fold(c, l, nega=True)
    assert m == x * y * cfg.n_prime % r
    # Step 2: S = (x y + m N) mod Q' (m = 2^l is 1 mod Q').
    s_res = tp.add_residues(
        tp.residues(xd, yd, nega=False),
        tp.residues(tp.signed_digits(m, p, 1), tp.digits(n, p), nega=False),
    )
    c = tp.coefficients(s_res, signed=False)
    tp.check_bounds(c, p, 2)
    s_big = tp.fold(c, l, nega=False)
    big_t = x * y + m * n
    assert big_t % r == 0, "x y + m N is not divisible by R"
    assert s_big == big_t % q
    # Step 3: s = S / 2 mod Q' (Q' odd: halve S or S + Q'); t has the parity of x y + m N.
    s = s_big // 2 if s_big % 2 == 0 else (s_big + q) // 2
    t = s if s % 2 == big_t % 2 else s + q
    assert t * r == big_t, "step 3 did not give t = (x y + m N) / R"
    if trace is not None:
        trace.append({"step": "h", "residues": h_res, "value": h})
        trace.append({"step": "m", "residues": m_res, "value": m})
        trace.append({"step": "S", "residues": s_res, "value": s_big})
        trace.append({"step": "t", "value": t})
    # Step 4: t < 2N, one subtraction.
    return final_subtraction(cfg, t)
