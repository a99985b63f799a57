"""ntt_redc: Montgomery's REDC with R = 2^l and three-prime NTT products.

Citation: P. L. Montgomery, "Modular multiplication without trial division", Math. Comp. 44,
1985 (REDC); the NTT64 paper's Algorithm 1 in its corrected statement (SPEC §4.3: R a power of
two, each product by NTT), organised as the native kernel does it
(crates/montlab-core/src/spectral/ntt_redc.rs), which must give the same value at every step.

Contract:
  * N odd, N > 1; digits of 64 bits, P the least power of two >= 2 with l = 64 P >= bitlen(N)
    (P <= 2^19); R = 2^l; N' = -N^-1 mod 2^l.
  * 0 <= x, y < N; output x y R^-1 mod N, fully reduced (one final subtraction).
  * Steps (products modulo the three primes of :mod:`montlab.ref._three_prime`):
      1. T = x y < 2^(2l) - 1 from its cyclic half c = T mod 2^l - 1 and nega-cyclic half
         d = T mod 2^l + 1: T = d + (2^l + 1) ((c - d) / 2 mod 2^l - 1); T_lo = T mod 2^l,
         T_hi = T div 2^l;
      2. m = T_lo N' mod 2^l (the low half of a full product, read the same way);
      3. U = m N mod 2^l - 1 (one cyclic product); with L = m N mod 2^l = -T_lo mod 2^l,
         H = (m N) div 2^l = (U - L) mod 2^l - 1;
      4. t = T_hi + H + [T_lo != 0] = (T + m N) / 2^l < 2N; out = t - N if t >= N.
  * Trace: {"step": "T", "cyc_residues", "nega_residues" (3 P values each, prime by prime),
    "T_lo", "T_hi"}, {"step": "m", "value"}, {"step": "U", "value"}, {"step": "H", "value"},
    {"step": "t", "value"}.

Left out: the kernel's transform reuse (prepared operands, N' and N transformed once), which
changes the transform count, not the values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from montlab import registry
from montlab.ref import _three_prime as tp
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands, final_subtraction

ID = "ntt_redc"
#: The longest transform (l = 2^25 bits), as in the native kernel.
MAX_P = 1 << 19


@dataclass(frozen=True)
class Config(MontConfig):
    P: int  # noqa: N815  transform length
    l: int  # noqa: E741  l = 64 P: R = 2^l
    n_prime: int  #: N' = -N^-1 mod 2^l


def configure(n_mod: int, params: Mapping[str, Any] | None = None) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)
    p = tp.transform_len(ID, n_mod, params["P"], MAX_P)
    l = tp.DIGIT * p  # noqa: E741
    return Config(
        algo=ID,
        modulus=n_mod,
        r=1 << l,
        bound=1,
        in_bound=1,
        iterations=1,
        P=p,
        l=l,
        n_prime=(-pow(n_mod, -1, 1 << l)) % (1 << l),
    )


def _full_product(a: list[int], b: list[int], l: int) -> tuple[list[int], list[int], int]:  # noqa: E741
    """Residues of both halves of a b and the product read from them (below 2^(2l) - 1)."""
    p = len(a)
    cyc_res, nega_res = tp.residues(a, b, nega=False), tp.residues(a, b, nega=True)
    cc, cn = tp.coefficients(cyc_res, signed=False), tp.coefficients(nega_res, signed=True)
    tp.check_bounds(cc, p, 1)
    tp.check_bounds(cn, p, 1)
    c, d = tp.fold(cc, l, nega=False), tp.fold(cn, l, nega=True)
    mers = (1 << l) - 1
    k = (c - d) * pow(2, -1, mers) % mers
    return cyc_res, nega_res, d + ((1 << l) + 1) * k


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    check_operands(cfg, x, y)
    p, l, n = cfg.P, cfg.l, cfg.modulus  # noqa: E741
    mask, mers = (1 << l) - 1, (1 << l) - 1
    # Step 1: T = x y from its two halves.
    cyc_res, nega_res, big_t = _full_product(tp.digits(x, p), tp.digits(y, p), l)
    assert big_t == x * y
    t_lo, t_hi = big_t & mask, big_t >> l
    # Step 2: m = T_lo N' mod 2^l.
    m = _full_product(tp.digits(t_lo, p), tp.digits(cfg.n_prime, p), l)[2] & mask
    assert m == x * y * cfg.n_prime % (1 << l)
    # Step 3: U = m N mod 2^l - 1 (cyclic), H = (U - L) mod 2^l - 1 with L = -T_lo mod 2^l.
    res = tp.residues(tp.digits(m, p), tp.digits(n, p), nega=False)
    cc = tp.coefficients(res, signed=False)
    tp.check_bounds(cc, p, 1)
    u = tp.fold(cc, l, nega=False)
    assert u == m * n % mers
    h = (u - ((-t_lo) & mask)) % mers
    assert h == (m * n) >> l, "H is not the high half of m N"
    # Step 4: t = T_hi + H + [T_lo != 0] = (T + m N) / 2^l.
    t = t_hi + h + (1 if t_lo else 0)
    assert t << l == big_t + m * n
    if trace is not None:
        trace.append(
            {
                "step": "T",
                "cyc_residues": cyc_res,
                "nega_residues": nega_res,
                "T_lo": t_lo,
                "T_hi": t_hi,
            }
        )
        trace.append({"step": "m", "value": m})
        trace.append({"step": "U", "value": u})
        trace.append({"step": "H", "value": h})
        trace.append({"step": "t", "value": t})
    return final_subtraction(cfg, t)
