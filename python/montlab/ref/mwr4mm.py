"""mwr4mm: multiple-word radix-4 Montgomery multiplication (MWR4MM, Huang et al. Sec. 5).

Citation: Huang, Gaj, El-Ghazawi, IEEE TC 2011, Sec. 5, Algorithm 6 and eqs. (8)-(10);
SPEC 5.4 (the algorithm box is reconstructed there) and 5.6 erratum 3.

Contract:
  * N odd, N > 1, bitlen(N) <= n (auto: n = bitlen(N)); ceil(n/2) rounds, one radix-4 digit
    x^(i) = (x_{2i+1}, x_{2i}) each; r = 4^ceil(n/2): 2^n for even n, 2^(n+1) for odd n
    (SPEC 5.6 erratum 3: not 2^n).
  * 0 <= x, y < N; output fully reduced, 0 <= z < N (one final subtraction; S < 2M before it).
  * Words of w bits, w even (w >= 2; odd w is a ParameterError: a word must hold whole radix-4
    digits, so the 2-bit shift never splits one), e = ceil((n+1)/w). Y and M get an extra zero word.
  * Round i: q^(i) in 0..3 with S + x^(i)*Y + q^(i)*M = 0 (mod 4) (eq. (8)); its bit 0 by eq. (9),
    q_0 = S_0 XOR (x_0 AND Y_0), its bit 1 from the 128-entry table :data:`Q1_TABLE` indexed by
    (S_1, S_0, x_1, x_0, Y_1, Y_0, M_1) (:func:`q1_index`). Then as Algorithm 2 with digits:
    (C^(1), S^(0)) = S^(0) + x^(i)*Y^(0) + q^(i)*M^(0); for j = 1..e:
    (C^(j+1), S^(j)) = C^(j) + x^(i)*Y^(j) + q^(i)*M^(j) + S^(j), then
    S^(j-1) <- (S^(j)_{1..0}, S^(j-1)_{w-1..2}).
  * Carries fit in 3 bits: asserted C <= 6 (SPEC 5.4); C^(e) <= 3 and C^(e+1) = 0.
  * Left out: the four-branch Architecture-2 PE (the cycle model montlab.cycles.mwr4mm counts its
    schedule), Booth recoding of 3*Y, 3*M, redundant S, the domain conversions.
  * Trace, one entry per round i: {"i", "x_i" (the digit x^(i)), "q_i" (q^(i)), "S" (the e words
    after the round), "C" (the carries C^(1) .. C^(e))}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from montlab.errors import ParameterError
from montlab.ref._base import (
    MontConfig,
    Trace,
    check_operands,
    final_subtraction,
    from_words,
    words,
)
from montlab.ref.mwr2mm import word_layout

ID = "mwr4mm"

#: The order of the seven bits in a :data:`Q1_TABLE` index, most significant first.
Q1_BITS = ("S_1", "S_0", "x_1", "x_0", "Y_1", "Y_0", "M_1")


def q1_index(s1: int, s0: int, x1: int, x0: int, y1: int, y0: int, m1: int) -> int:
    """The table index of (S_1, S_0, x_1, x_0, Y_1, Y_0, M_1), S_1 the most significant bit."""
    bits = (s1, s0, x1, x0, y1, y0, m1)
    assert all(b in (0, 1) for b in bits)
    idx = 0
    for b in bits:
        idx = (idx << 1) | b
    return idx


def q1_bits(idx: int) -> tuple[int, int, int, int, int, int, int]:
    """Inverse of :func:`q1_index`."""
    assert 0 <= idx < 128
    s1, s0, x1, x0, y1, y0, m1 = ((idx >> (6 - k)) & 1 for k in range(7))
    return s1, s0, x1, x0, y1, y0, m1


def q0_bit(s0: int, x0: int, y0: int) -> int:
    """Eq. (9): q_0 = S_0 XOR (x_0 AND Y_0) (M_0 = 1 because M is odd)."""
    return s0 ^ (x0 & y0)


def _q1_entry(idx: int) -> int:
    """Bit 1 of the q in 0..3 with S + x*Y + q*M = 0 (mod 4), M = 2*M_1 + 1 (eq. (8))."""
    s1, s0, x1, x0, y1, y0, m1 = q1_bits(idx)
    s, xd, yd, md = 2 * s1 + s0, 2 * x1 + x0, 2 * y1 + y0, 2 * m1 + 1
    sols = [q for q in range(4) if (s + xd * yd + q * md) % 4 == 0]
    assert len(sols) == 1, "eq. (8) has one solution because M is odd"
    q = sols[0]
    assert q & 1 == q0_bit(s0, x0, y0), "eq. (9) disagrees with eq. (8)"
    return q >> 1


#: q_1 for each of the 128 values of (S_1, S_0, x_1, x_0, Y_1, Y_0, M_1) (built once from eq. (8)).
Q1_TABLE: tuple[int, ...] = tuple(_q1_entry(idx) for idx in range(128))


def q_digit(s_lo: int, x_d: int, y_lo: int, m_lo: int) -> int:
    """Line 6.3: q^(i) from the two low bits of S^(0), the digit x^(i), Y^(0) and M^(0)."""
    assert 0 <= s_lo < 4 and 0 <= x_d < 4 and 0 <= y_lo < 4 and 0 <= m_lo < 4 and m_lo & 1
    q0 = q0_bit(s_lo & 1, x_d & 1, y_lo & 1)
    q1 = Q1_TABLE[q1_index(s_lo >> 1, s_lo & 1, x_d >> 1, x_d & 1, y_lo >> 1, y_lo & 1, m_lo >> 1)]
    q = 2 * q1 + q0
    assert (s_lo + x_d * y_lo + q * m_lo) % 4 == 0, "eq. (8)"
    return q


@dataclass(frozen=True)
class Config(MontConfig):
    w: int  #: word size in bits (even)
    n: int  #: operand width in bits
    e: int  #: words of S, ceil((n+1)/w)
    rounds: int  #: ceil(n/2) radix-4 rounds; r = 4^rounds


def configure(n_mod: int, params: Mapping[str, int | None]) -> Config:
    _, w, n, e = word_layout(ID, n_mod, params)
    if w % 2:
        raise ParameterError(
            f"{ID}: w = {w} is illegal: the radix-4 digit width k = 2 must divide the word size w "
            f"(use an even w, e.g. {w + 1})"
        )
    rounds = -(-n // 2)
    return Config(
        algo=ID,
        modulus=n_mod,
        r=1 << (2 * rounds),
        bound=1,
        in_bound=1,
        iterations=rounds,
        w=w,
        n=n,
        e=e,
        rounds=rounds,
    )


def unreduced(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    """Algorithm 6 without the final subtraction: S = x*y*4^-ceil(n/2) mod N, 0 <= S < 2N."""
    check_operands(cfg, x, y)
    w, e, m = cfg.w, cfg.e, cfg.modulus
    mask = (1 << w) - 1
    ys = words(y, w, e) + [0]
    ms = words(m, w, e) + [0]
    s = [0] * (e + 1)
    s_int = 0  # the same S as one integer, for the assertions only
    for i in range(cfg.rounds):
        x_d = (x >> (2 * i)) & 3  # x^(i); the top digit of an odd-width x has x_n = 0
        q_d = q_digit(s[0] & 3, x_d, ys[0] & 3, ms[0] & 3)  # line 6.3
        carries = []
        t = s[0] + x_d * ys[0] + q_d * ms[0]  # line 6.4
        c, s[0] = t >> w, t & mask
        assert s[0] & 3 == 0, "q^(i) must make S^(0) divisible by 4"
        assert c <= 6, "SPEC 5.4: a carry is at most 6"
        carries.append(c)
        for j in range(1, e + 1):
            t = c + x_d * ys[j] + q_d * ms[j] + s[j]  # line 6.6
            c, s[j] = t >> w, t & mask
            assert c <= 6, "SPEC 5.4: a carry is at most 6"
            s[j - 1] = ((s[j] & 3) << (w - 2)) | (s[j - 1] >> 2)  # line 6.7, the 2-bit shift
            if j < e:
                carries.append(c)
        assert carries[-1] <= 3, "C^(e) <= 3: S + x*Y + q*M < 8M < 2^(w*e + 2)"
        assert c == 0, "C^(e+1) must be 0"
        assert s[e] >> 2 == 0
        s[e] = 0  # S^(e) is discarded: its two bits have moved into S^(e-1)
        num = s_int + x_d * y + q_d * m
        assert num % 4 == 0
        s_int = num >> 2
        assert from_words(s[:e], w) == s_int, f"round {i}: words != integer update"
        assert s_int < 2 * m, f"round {i}: S >= 2M"
        if trace is not None:
            trace.append({"i": i, "x_i": x_d, "q_i": q_d, "S": s[:e], "C": carries})
    return from_words(s[:e], w)


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    return final_subtraction(cfg, unreduced(cfg, x, y, trace))
