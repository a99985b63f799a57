"""mwr2mm: Tenca-Koc multiple-word radix-2 Montgomery multiplication (MWR2MM).

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Algorithm 2 (after Tenca and Koc, CHES 1999),
eq. (5) and Fig. 1; SPEC 5.2 (the algorithm box is reconstructed there).

Contract:
  * N odd, N > 1, bitlen(N) <= n (auto: n = bitlen(N)); r = 2^n.
  * 0 <= x, y < N; output fully reduced, 0 <= z < N (one final subtraction; S < 2M before it).
  * Radix 2, one bit x_i per round, n rounds. Words of w >= 2 bits (odd w allowed);
    e = ceil((n+1)/w) words hold S < 2M. Y and M get one extra zero word Y^(e) = M^(e) = 0.
  * Round i: q_i = (x_i AND Y^(0)_0) XOR S^(0)_0; (C^(1), S^(0)) = x_i*Y^(0) + q_i*M^(0) + S^(0)
    (task A); for j = 1..e: (C^(j+1), S^(j)) = C^(j) + x_i*Y^(j) + q_i*M^(j) + S^(j), then
    S^(j-1) <- (S^(j)_0, S^(j-1)_{w-1..1}) (task B). S^(e) is then discarded (set to 0).
  * Carries: asserted C <= 2 and C^(e) <= 1 (SPEC 5.2; the paper's eq. (5) bound C <= 3 is loose,
    SPEC 5.6 erratum 2). C^(e+1) = 0.
  * p (PEs) only feeds the cycle model (montlab.cycles.mwr2mm); auto = P_max = ceil((e+1)/2).
  * Left out: the PE pipeline itself (see the cycle model), redundant (carry-save) S, the domain
    conversions.
  * Trace, one entry per round i: {"i", "x_i", "q_i", "S" (the e words S^(0..e-1) after the
    round), "C" (the carries C^(1) .. C^(e) of the round)}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from montlab import registry
from montlab.ref._base import (
    MontConfig,
    Trace,
    bit,
    check_modulus,
    check_operands,
    check_width,
    final_subtraction,
    from_words,
    words,
)

ID = "mwr2mm"


def word_count(n: int, w: int) -> int:
    """e = ceil((n+1)/w): words needed for S < 2M < 2^(n+1)."""
    assert n >= 1 and w >= 1
    return -(-(n + 1) // w)


def word_layout(
    algo: str, n_mod: int, params: Mapping[str, int | None]
) -> tuple[dict[str, int | None], int, int, int]:
    """The checks and sizes every MWR2MM-family model starts from: (params, w, n, e).

    Rejects a bad modulus, fills the registry's defaults and bounds (w >= 2), takes n = bitlen(N)
    when auto, rejects a modulus wider than n, and sizes S in e = ceil((n+1)/w) words.
    """
    check_modulus(algo, n_mod)
    resolved = registry.resolve_params(algo, params)
    w = resolved["w"]
    assert w is not None and w >= 2
    n = resolved["n"]
    n = n_mod.bit_length() if n is None else n
    check_width(algo, n_mod, n)
    e = word_count(n, w)
    assert w * e >= n + 1 > w * (e - 1)
    return resolved, w, n, e


def p_max(e: int) -> int:
    """P_max = ceil((e+1)/2): PEs that Tenca-Koc's pipeline keeps busy (Huang et al. Sec. 3)."""
    return -(-(e + 1) // 2)


@dataclass(frozen=True)
class Config(MontConfig):
    w: int  #: word size in bits
    n: int  #: operand width in bits: n rounds, r = 2^n
    e: int  #: words of S, ceil((n+1)/w)
    p: int  #: PEs of the cycle model (P_max when auto); the arithmetic does not depend on it


def configure(n_mod: int, params: Mapping[str, int | None]) -> Config:
    params, w, n, e = word_layout(ID, n_mod, params)
    p = params["p"]
    p = p_max(e) if p is None else p
    return Config(
        algo=ID, modulus=n_mod, r=1 << n, bound=1, in_bound=1, iterations=n, w=w, n=n, e=e, p=p
    )


def unreduced(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    """Algorithm 2 without the final subtraction: S = x*y*2^-n mod N, 0 <= S < 2N."""
    check_operands(cfg, x, y)
    w, e, m = cfg.w, cfg.e, cfg.modulus
    mask = (1 << w) - 1
    ys = words(y, w, e) + [0]  # Y = (0, Y^(e-1), ..., Y^(0))
    ms = words(m, w, e) + [0]  # M = (0, M^(e-1), ..., M^(0))
    s = [0] * (e + 1)  # S = (0, S^(e-1), ..., S^(0))
    s_int = 0  # the same S as one integer, for the assertions only
    for i in range(cfg.n):
        x_i = bit(x, i)
        q_i = (x_i & bit(ys[0], 0)) ^ bit(s[0], 0)  # line 2.3
        carries = []
        t = x_i * ys[0] + q_i * ms[0] + s[0]  # line 2.4, task A
        c, s[0] = t >> w, t & mask
        assert s[0] & 1 == 0, "q_i must make S^(0) even"
        assert c <= 2, "SPEC 5.2: C^(1) <= 2"
        carries.append(c)
        for j in range(1, e + 1):  # task B
            t = c + x_i * ys[j] + q_i * ms[j] + s[j]  # line 2.6
            c, s[j] = t >> w, t & mask
            assert c <= 2, "SPEC 5.2: a carry is at most 2"
            s[j - 1] = (bit(s[j], 0) << (w - 1)) | (s[j - 1] >> 1)  # line 2.7, the right shift
            if j < e:
                carries.append(c)  # C^(j+1)
        assert carries[-1] <= 1, "SPEC 5.2: C^(e) <= 1"
        assert c == 0, "C^(e+1) must be 0"
        assert s[e] >> 1 == 0, "S^(e) holds C^(e) only"
        s[e] = 0  # S^(e) is discarded: its one bit has moved into S^(e-1)
        assert len(carries) == e
        # Eq. (4) at the integer level: S <- (S + x_i*Y + q_i*M)/2, and S < 2M.
        num = s_int + x_i * y + q_i * m
        assert num % 2 == 0
        s_int = num >> 1
        assert from_words(s[:e], w) == s_int, f"round {i}: the words disagree with eq. (4)"
        assert s_int < 2 * m, f"round {i}: S >= 2M"
        if trace is not None:
            trace.append({"i": i, "x_i": x_i, "q_i": q_i, "S": s[:e], "C": carries})
    return from_words(s[:e], w)


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    return final_subtraction(cfg, unreduced(cfg, x, y, trace))
