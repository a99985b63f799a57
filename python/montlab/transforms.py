"""transforms: the number-theoretic transforms shared by the fmlm3, ism3 and ntt64 models.

Citations (SPEC is authoritative where it and a paper differ):
  * FMLM3 (paper 000), SPEC 1.1-1.2: Fermat / pseudo-Fermat rings M = 2^(cP) + 1, the cyclic (CT)
    and nega-cyclic (NCT) transforms and their inverses, the radix-2 constant-geometry network of
    eqs. (7)-(9), the c = 1/2 twiddle of eq. (23) and the inverse scalings of eq. (24).
  * ISM3 (paper 001), SPEC 2.2: the NTT mod q = 2^v + 1 of eq. (1) and the butterfly network of
    eq. (3), with the corrected stage order (n = L-1 down to 0, bit-reversed input).
  * NTT64 (paper 003), SPEC 4.1 and 4.4: the 1024-point NTT mod p = 2^64 - 2^32 + 1 built from
    32-point shift-only sub-transforms, and the radix-16 PE with the eq. (3) reduction.

Contract:
  * Every ring element is a Python int in [0, modulus); every function returns fully reduced
    values in [0, modulus) unless its docstring says otherwise.
  * Networks take their input in bit-reversed order and return natural order (SPEC 1.2, 2.2);
    the direct O(P^2) definitions take and return natural order.
  * Twiddles inside networks and PEs are computed with shifts and additions only; the direct
    definitions use ``pow`` and are the independent oracle.

Left out: any optimisation (these are naive reference models, asserted throughout), Montgomery
multiplication itself (it lives in the future ref/fmlm3.py, ref/ism3.py, ref/ntt64.py), the
pipelining and cycle schedule of the PEs, and NTT64 lengths other than 16, 32 and 1024.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence, Union

Scalar = Union[int, Fraction]

# --------------------------------------------------------------------------------------------
# Generic helpers
# --------------------------------------------------------------------------------------------


def bit_reverse(seq: Sequence[int]) -> list[int]:
    """The permutation out[i] = seq[rev_L(i)], len(seq) = 2^L (its own inverse)."""
    n = len(seq)
    assert n >= 1 and n & (n - 1) == 0, "length must be a power of two"
    bits = n.bit_length() - 1
    out = [0] * n
    for i in range(n):
        r = int(format(i, f"0{bits}b")[::-1], 2) if bits else 0
        out[i] = seq[r]
    return out


def cyclic_convolution(a: Sequence[int], b: Sequence[int], modulus: int | None = None) -> list[int]:
    """c_n = sum_{i+j = n mod P} a_i b_j (exact integers; reduced mod ``modulus`` if given)."""
    assert len(a) == len(b)
    p_len = len(a)
    c = [0] * p_len
    for i in range(p_len):
        for j in range(p_len):
            c[(i + j) % p_len] += a[i] * b[j]
    return [x % modulus for x in c] if modulus is not None else c


def negacyclic_convolution(
    a: Sequence[int], b: Sequence[int], modulus: int | None = None
) -> list[int]:
    """c_n = sum_{i+j=n} a_i b_j - sum_{i+j=n+P} a_i b_j (wrap-around subtracted; SPEC 1.2)."""
    assert len(a) == len(b)
    p_len = len(a)
    c = [0] * p_len
    for i in range(p_len):
        for j in range(p_len):
            if i + j < p_len:
                c[i + j] += a[i] * b[j]
            else:
                c[i + j - p_len] -= a[i] * b[j]
    return [x % modulus for x in c] if modulus is not None else c


def fermat_mul_pow2(x: int, e: int, k: int) -> int:
    """x * 2^e mod 2^k + 1 by shifts, one subtraction and sign fix-ups (no multiplier).

    Input 0 <= x <= 2^k (i.e. < 2^k + 1); any integer e (taken mod 2k, since 2^(2k) = 1).
    Output in [0, 2^k + 1).
    """
    m = (1 << k) + 1
    assert 0 <= x < m, "operand not reduced mod 2^k + 1"
    e %= 2 * k  # non-negative modulo: 2^(2k) = 1 and 2^k = -1 (mod 2^k + 1)
    neg = e >= k
    if neg:
        e -= k
    y = x << e  # < 2^(2k) + 2^k
    lo, hi = y & ((1 << k) - 1), y >> k  # y = hi*2^k + lo = lo - hi (mod 2^k + 1)
    assert hi <= (1 << k)
    r = lo - hi
    if r < 0:
        r += m
    if neg and r:
        r = m - r
    assert 0 <= r < m
    assert r == (x * pow(2, e + (k if neg else 0), m)) % m
    return r


# --------------------------------------------------------------------------------------------
# FMLM3: Fermat / pseudo-Fermat rings M = 2^(cP) + 1 (SPEC 1.1)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FermatRing:
    """The FMLM3 transform ring M = 2^(cP) + 1 with P = 2^v (SPEC 1.1).

    ``c`` is a positive int or ``Fraction(1, 2)`` (the string "half" is accepted and normalised to
    ``Fraction(1, 2)``). Derived fields: P, K = cP (so M = 2^K + 1), M, omega = 2^(2c) (a primitive
    P-th root of unity; 2 when c = 1/2), A (a primitive 2P-th root with A^2 = omega: 2^c for
    integer c, sqrt(2) = 2^(3*2^(v-3)) - 2^(2^(v-3)) mod M for c = 1/2, which needs v >= 3).
    Construction asserts omega^P = 1, omega^(P/2) = -1, A^P = -1, A^2 = omega and ord(A) = 2P.
    """

    v: int
    c: Scalar
    P: int = field(init=False)
    K: int = field(init=False)  #: cP: M = 2^K + 1
    M: int = field(init=False)
    omega: int = field(init=False)
    A: int = field(init=False)
    omega_log2: int = field(init=False)  #: 2c: omega = 2^omega_log2

    def __post_init__(self) -> None:
        c = Fraction(1, 2) if self.c == "half" else Fraction(self.c)
        if c != Fraction(1, 2) and (c.denominator != 1 or c < 1):
            raise ValueError(f"c must be 1/2 or a positive integer, got {self.c}")
        if self.v < 1 or (c == Fraction(1, 2) and self.v < 3):
            raise ValueError(f"v = {self.v} too small (c = 1/2 needs v >= 3, eq. (23))")
        p_len = 1 << self.v
        k = int(c * p_len)
        m = (1 << k) + 1
        if c == Fraction(1, 2):
            h = 1 << (self.v - 3)
            a = ((1 << (3 * h)) - (1 << h)) % m  # eq. (14) corrected: mod 2^(P/2)+1
        else:
            a = 1 << int(c)
        omega = 1 << int(2 * c)
        for name, value in (("c", c), ("P", p_len), ("K", k), ("M", m), ("omega", omega)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "A", a)
        object.__setattr__(self, "omega_log2", int(2 * c))
        assert pow(omega, p_len, m) == 1, "omega^P != 1"
        assert pow(omega, p_len // 2, m) == m - 1, "omega^(P/2) != -1"
        assert pow(a, p_len, m) == m - 1, "A^P != -1"
        assert pow(a, 2, m) == omega, "A^2 != omega"
        # ord(A) divides 2P = 2^(v+1) and A^P = -1 != 1, so ord(A) = 2P exactly.

    # -- shift-only scalings ---------------------------------------------------------------

    def mul_pow2(self, x: int, e: int) -> int:
        """x * 2^e mod M by shifts (e any integer, taken mod 2K). In/out [0, M)."""
        return fermat_mul_pow2(x, e, self.K)

    def twiddle(self, x: int, e: int) -> int:
        """x * omega^e mod M = x * 2^(2c*e), shifts only (e any integer). In/out [0, M)."""
        return self.mul_pow2(x, self.omega_log2 * e)

    def mul_sqrt2(self, x: int, n: int) -> int:
        """x * omega^(-n+1/2) mod M for c = 1/2, eq. (23): 2^(3*2^(v-3)-n) - 2^(2^(v-3)-n).

        Negative exponents are taken mod P (2^P = 1 mod M). In/out [0, M).
        """
        assert self.c == Fraction(1, 2), "eq. (23) is the c = 1/2 twiddle"
        h = 1 << (self.v - 3)
        r = self.mul_pow2(x, 3 * h - n) - self.mul_pow2(x, h - n)
        if r < 0:
            r += self.M
        return r

    def mul_A_pow(self, x: int, e: int) -> int:
        """x * A^e mod M = x * omega^(e/2), shifts only (eq. (23) for odd e when c = 1/2)."""
        if self.c.denominator == 1:
            r = self.mul_pow2(x, int(self.c) * e)
        elif e % 2 == 0:
            r = self.mul_pow2(x, e // 2)
        else:
            r = self.mul_sqrt2(x, -(e - 1) // 2)  # omega^((e-1)/2 + 1/2)
        assert r == x * pow(self.A, e, self.M) % self.M
        return r

    def inv_scale_ct(self, x: int) -> int:
        """x * P^-1 mod M = x * 2^-v (the CT^-1 scaling). In/out [0, M)."""
        return self.mul_pow2(x, -self.v)

    def inv_scale_nct(self, x: int, n: int) -> int:
        """x * (A^n P)^-1 mod M, shifts only (eq. (24) for c = 1/2). 0 <= n < P; in/out [0, M).

        Eq. (24), c = 1/2: 2^(P-v-n/2) for even n; (2^(3*2^(v-3)-1) - 2^(2^(v-3)-1))*2^(P-v-(n-1)/2)
        for odd n. Integer c: 2^(-c*n - v).
        """
        assert 0 <= n < self.P
        if self.c.denominator == 1:
            r = self.mul_pow2(x, -int(self.c) * n - self.v)
        elif n % 2 == 0:
            r = self.mul_pow2(x, self.P - self.v - n // 2)
        else:
            h = 1 << (self.v - 3)
            y = self.mul_pow2(x, self.P - self.v - (n - 1) // 2)
            r = self.mul_pow2(y, 3 * h - 1) - self.mul_pow2(y, h - 1)
            if r < 0:
                r += self.M
        assert r == x * pow(pow(self.A, n, self.M) * self.P, -1, self.M) % self.M
        return r


# --------------------------------------------------------------------------------------------
# FMLM3 CT / NCT: direct definitions (oracle, uses pow) (SPEC 1.2)
# --------------------------------------------------------------------------------------------


def _check_vec(ring: FermatRing, a: Sequence[int]) -> None:
    assert len(a) == ring.P, f"vector length {len(a)} != P = {ring.P}"
    assert all(0 <= x < ring.M for x in a), "vector entries must lie in [0, M)"


def ct(ring: FermatRing, a: Sequence[int]) -> list[int]:
    """CT(a)_n = sum_k a_k omega^(-kn) mod M (SPEC 1.2). Natural order in/out, entries [0, M)."""
    _check_vec(ring, a)
    m, w = ring.M, ring.omega
    return [sum(a[k] * pow(w, -k * n, m) for k in range(ring.P)) % m for n in range(ring.P)]


def ict(ring: FermatRing, x: Sequence[int]) -> list[int]:
    """CT^-1(X)_n = P^-1 sum_k X_k omega^(kn) mod M (SPEC 1.2). Natural order, entries [0, M)."""
    _check_vec(ring, x)
    m, w, pinv = ring.M, ring.omega, pow(ring.P, -1, ring.M)
    return [pinv * sum(x[k] * pow(w, k * n, m) for k in range(ring.P)) % m for n in range(ring.P)]


def nct(ring: FermatRing, a: Sequence[int]) -> list[int]:
    """NCT(a)_n = sum_k a_k A^k omega^(-kn) mod M (SPEC 1.2). Natural order, entries [0, M)."""
    _check_vec(ring, a)
    m, w, big_a = ring.M, ring.omega, ring.A
    return [
        sum(a[k] * pow(big_a, k, m) * pow(w, -k * n, m) for k in range(ring.P)) % m
        for n in range(ring.P)
    ]


def inct(ring: FermatRing, x: Sequence[int]) -> list[int]:
    """NCT^-1(X)_n = (A^n P)^-1 sum_k X_k omega^(kn) mod M (SPEC 1.2). Natural order, [0, M)."""
    _check_vec(ring, x)
    m, w = ring.M, ring.omega
    out = []
    for n in range(ring.P):
        s = sum(x[k] * pow(w, k * n, m) for k in range(ring.P))
        out.append(s * pow(pow(ring.A, n, m) * ring.P, -1, m) % m)
    return out


# --------------------------------------------------------------------------------------------
# FMLM3 radix-2 constant-geometry network, eqs. (7)-(9) (SPEC 1.2)
# --------------------------------------------------------------------------------------------


def cg_stage(ring: FermatRing, a: Sequence[int], j: int, kind: str) -> list[int]:
    """Stage j (J = 2^(v-1-j)) of the eq. (7)-(9) network: (a_2n, a_2n+1) -> (a_2n + t, a_2n - t)
    at (n, n+P/2), t = a_2n+1 * omega^e. ``kind`` selects e (as 2e, to keep the J = 1 NCT half
    integral): "ct": e = -floor(n/J)J; "nct": -floor(n/J)J + J/2; "nct_other":
    -(floor(n/J)J + J/2) (the wrong reading, for tests); "inv": +floor(n/J)J. Entries [0, M) in
    and out; the networks below run it for j = 0..v-1, and the RTL checks one stage at a time
    against it."""
    _check_vec(ring, a)
    p_len, m = ring.P, ring.M
    big_j = 1 << (ring.v - 1 - j)
    nxt = [0] * p_len
    for n in range(p_len // 2):
        base = (n // big_j) * big_j
        e2 = {"ct": -2 * base, "nct": -2 * base + big_j, "nct_other": -2 * base - big_j,
              "inv": 2 * base}[kind]  # fmt: skip
        t = ring.mul_A_pow(a[2 * n + 1], e2)  # omega^(e2/2) = A^e2: shifts only
        s, d = a[2 * n] + t, a[2 * n] - t
        nxt[n] = s - m if s >= m else s
        nxt[n + p_len // 2] = d + m if d < 0 else d
    return nxt


def _cg_network(ring: FermatRing, a: Sequence[int], kind: str) -> list[int]:
    """All stages j = 0..v-1 of :func:`cg_stage`."""
    cur = list(a)
    for j in range(ring.v):
        cur = cg_stage(ring, cur, j, kind)
    assert all(0 <= x < ring.M for x in cur)
    return cur


def ct_network(ring: FermatRing, a_bitrev: Sequence[int]) -> list[int]:
    """CT by the eq. (7) network. Input bit-reversed, entries [0, M); output natural, [0, M)."""
    return _cg_network(ring, a_bitrev, "ct")


def nct_network(
    ring: FermatRing, a_bitrev: Sequence[int], *, other_reading: bool = False
) -> list[int]:
    """NCT by the eq. (8) network, e = -floor(n/J)J + J/2 (for c = 1/2 the J = 1 stage uses
    eq. (23)). Input bit-reversed, [0, M); output natural, [0, M). ``other_reading=True`` uses
    the wrong exponent -(floor(n/J)J + J/2), kept only so tests can show that it fails."""
    return _cg_network(ring, a_bitrev, "nct_other" if other_reading else "nct")


def ict_network(ring: FermatRing, x_bitrev: Sequence[int]) -> list[int]:
    """CT^-1 by the eq. (9) network, then each output times P^-1 (shift). Bit-reversed in,
    natural out, entries [0, M)."""
    return [ring.inv_scale_ct(y) for y in _cg_network(ring, x_bitrev, "inv")]


def inct_network(ring: FermatRing, x_bitrev: Sequence[int]) -> list[int]:
    """NCT^-1 by the eq. (9) network, then output n times (A^n P)^-1 (eq. (24), shifts).
    Bit-reversed in, natural out, entries [0, M)."""
    y = _cg_network(ring, x_bitrev, "inv")
    return [ring.inv_scale_nct(y[n], n) for n in range(ring.P)]


# --------------------------------------------------------------------------------------------
# ISM3 NTT mod q = 2^v + 1 (SPEC 2.1-2.2)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ism3Ring:
    """q = 2^v + 1 with v = 2^t; length d = 2^(t+1-i); root omega = 2^(2^i) (SPEC 2.1).

    Fields: v, i (given); t, q, d, L = lg d, omega_log2 = 2^i (derived). Asserts ord(omega) = d.
    """

    v: int
    i: int
    t: int = field(init=False)
    q: int = field(init=False)
    d: int = field(init=False)
    L: int = field(init=False)
    omega_log2: int = field(init=False)

    def __post_init__(self) -> None:
        if self.v < 1 or self.v & (self.v - 1):
            raise ValueError(f"v = {self.v} must be a power of two (q = 2^v + 1 Fermat)")
        t = self.v.bit_length() - 1
        if not 0 <= self.i <= t:
            raise ValueError(f"i = {self.i} must lie in [0, t = {t}]")
        q = (1 << self.v) + 1
        d = 1 << (t + 1 - self.i)
        for name, value in (("t", t), ("q", q), ("d", d), ("L", t + 1 - self.i),
                            ("omega_log2", 1 << self.i)):  # fmt: skip
            object.__setattr__(self, name, value)
        assert pow(self.omega, d, q) == 1 and pow(self.omega, d // 2, q) == q - 1

    @property
    def omega(self) -> int:
        return 1 << self.omega_log2


def ism3_ntt(ring: Ism3Ring, x: Sequence[int]) -> list[int]:
    """Eq. (1): X_k = sum_j x_j omega^(jk) mod q (positive exponent). Natural order, [0, q)."""
    assert len(x) == ring.d and all(0 <= e < ring.q for e in x)
    return [sum(x[j] * pow(ring.omega, j * k, ring.q) for j in range(ring.d)) % ring.q
            for k in range(ring.d)]  # fmt: skip


def ism3_intt(ring: Ism3Ring, big_x: Sequence[int]) -> list[int]:
    """Inverse of eq. (1): x_j = d^-1 sum_k X_k omega^(-jk) mod q. Natural order, [0, q)."""
    assert len(big_x) == ring.d and all(0 <= e < ring.q for e in big_x)
    dinv = pow(ring.d, -1, ring.q)
    return [dinv * sum(big_x[k] * pow(ring.omega, -j * k, ring.q) for k in range(ring.d))
            % ring.q for j in range(ring.d)]  # fmt: skip


def ism3_stage(ring: Ism3Ring, x: Sequence[int], n: int, sign: int) -> list[int]:
    """One eq. (3) stage: X_k = x_2k + x_2k+1 omega^P, X_k+d/2 = x_2k - x_2k+1 omega^P,
    P = floor(k/2^n) 2^n (sign = -1 uses omega^-P for the inverse). Shifts only; entries [0, q)
    in and out. The networks below run it for n = L-1 down to 0; the RTL checks one stage
    at a time against it."""
    half, q = ring.d // 2, ring.q
    out = [0] * ring.d
    for k in range(half):
        p_exp = (k >> n) << n
        t = fermat_mul_pow2(x[2 * k + 1], sign * ring.omega_log2 * p_exp, ring.v)
        s, dd = x[2 * k] + t, x[2 * k] - t
        out[k] = s - q if s >= q else s
        out[k + half] = dd + q if dd < 0 else dd
    return out


def ism3_ntt_network(ring: Ism3Ring, x_bitrev: Sequence[int]) -> list[int]:
    """Eq. (3) network, corrected (SPEC 2.2, ISM3 erratum 1): stages n = L-1 down to 0.
    Input bit-reversed, [0, q); output natural order, [0, q)."""
    assert len(x_bitrev) == ring.d and all(0 <= e < ring.q for e in x_bitrev)
    cur = list(x_bitrev)
    for n in range(ring.L - 1, -1, -1):
        cur = ism3_stage(ring, cur, n, +1)
    return cur


def ism3_intt_network(ring: Ism3Ring, x_bitrev: Sequence[int]) -> list[int]:
    """Inverse of :func:`ism3_ntt_network`: same stages with omega^-P, then times d^-1 = 2^-L
    (shift). Input bit-reversed, [0, q); output natural order, [0, q)."""
    assert len(x_bitrev) == ring.d and all(0 <= e < ring.q for e in x_bitrev)
    cur = list(x_bitrev)
    for n in range(ring.L - 1, -1, -1):
        cur = ism3_stage(ring, cur, n, -1)
    return [fermat_mul_pow2(y, -ring.L, ring.v) for y in cur]


def ism3_ntt_network_printed(ring: Ism3Ring, x: Sequence[int]) -> list[int]:
    """Eq. (3) with the stages in the printed order n = 0..L-1 (ISM3 erratum 1: WRONG for every
    input/output ordering; kept so tests can show it). Entries [0, q) in and out."""
    assert len(x) == ring.d and all(0 <= e < ring.q for e in x)
    cur = list(x)
    for n in range(ring.L):
        cur = ism3_stage(ring, cur, n, +1)
    return cur


def ism3_alg1_step(a: int, v: int) -> int:
    """One step of ISM3 Algorithm 1 with sign-magnitude splitting (SPEC 2.5, erratum 5):
    sign(A) * ((|A| mod 2^v) - floor(|A| / 2^v)), which is = A (mod 2^v + 1).

    For |A| < 2^(2v) the result lies in the redundant range [-2^v + 1, 2^v - 1]; splitting a
    negative A with floor division instead breaks that range in about a quarter of cases.
    """
    mag = -a if a < 0 else a
    r = (mag & ((1 << v) - 1)) - (mag >> v)
    r = -r if a < 0 else r
    assert (r - a) % ((1 << v) + 1) == 0
    if mag < 1 << (2 * v):
        assert -(1 << v) + 1 <= r <= (1 << v) - 1
    return r


def ism3_alg1(a: int, v: int, *, printed: bool = False) -> int:
    """ISM3 Algorithm 1: A mod q, q = 2^v + 1, by ``while A >= q or A < 0: A <- (A mod 2^v) -
    floor(A / 2^v)`` (floor division, so negative A move up). Output [0, q).

    ``printed=True`` runs the printed loop condition "A > q" (erratum 3), which returns q itself
    for A = q; kept so tests can show it.
    """
    q, mask = (1 << v) + 1, (1 << v) - 1
    while (a > q if printed else a >= q) or a < 0:
        a = (a & mask) - (a >> v)  # Python's & and >> are floor mod / floor division
    return a


# --------------------------------------------------------------------------------------------
# NTT64: p = 2^64 - 2^32 + 1 (SPEC 4.1, 4.4)
# --------------------------------------------------------------------------------------------

P64 = 0xFFFFFFFF00000001  #: p = 2^64 - 2^32 + 1; p | 2^192 - 1
OMEGA_1024 = 0x3DA05FEE70C4F2BA  #: primitive 1024th root with OMEGA_1024^32 = 64 (SPEC 4.1)
MASK192 = (1 << 192) - 1
MASK32 = (1 << 32) - 1

assert pow(OMEGA_1024, 512, P64) == P64 - 1 and pow(OMEGA_1024, 1024, P64) == 1
assert pow(OMEGA_1024, 32, P64) == 64 and pow(OMEGA_1024, 64, P64) == 4096


def rotl192(x: int, s: int) -> int:
    """x * 2^s mod 2^192 - 1 as a 192-bit rotation. 0 <= x < 2^192, any s (taken mod 192)."""
    assert 0 <= x <= MASK192
    s %= 192  # non-negative modulo (SPEC 4.4 caution)
    return ((x << s) | (x >> (192 - s))) & MASK192 if s else x


def add_eac192(x: int, y: int) -> int:
    """x + y with end-around carry: a 192-bit one's-complement add (mod 2^192 - 1).
    Inputs and output in [0, 2^192 - 1] (all-ones is the second representation of 0)."""
    assert 0 <= x <= MASK192 and 0 <= y <= MASK192
    s = x + y
    s = (s & MASK192) + (s >> 192)
    assert s <= MASK192
    return s


def reduce_eq3(z: int) -> int:
    """Eq. (3) of the NTT paper: z mod p for a 192-bit z, with the final correction.

    z = 2^160 a + 2^128 b + 2^96 c + 2^64 d + 2^32 e + f (32-bit limbs) and
    z = (2^32 e + f) + (2^32 d + a) - (2^32 b + c) - (2^32 a + d) (mod p).
    Input 0 <= z < 2^192 (all-ones gives 0). Output in [0, p).
    The raw sum equals (2^32 e + f) + (2^32 - 1)(d - a) - (2^32 b + c), which lies in
    [-(2p - 2), 2p - 2]: at most one -p on the positive side, but up to TWO +p on the negative
    side (e.g. z with a = b = c = 2^32 - 1, d = e = f = 0).
    """
    assert 0 <= z <= MASK192
    a, b, c = (z >> 160) & MASK32, (z >> 128) & MASK32, (z >> 96) & MASK32
    d, e, f = (z >> 64) & MASK32, (z >> 32) & MASK32, z & MASK32
    r = ((e << 32) + f) + ((d << 32) + a) - ((b << 32) + c) - ((a << 32) + d)
    assert -(2 * P64 - 2) <= r <= 2 * P64 - 2
    if r >= P64:
        r -= P64
    while r < 0:  # at most twice
        r += P64
    assert 0 <= r < P64 and r == z % P64
    return r


def shift_dft(x: Sequence[int], s: int) -> list[int]:
    """X(k) = sum_n x(n) * 2^((s*n*k) mod 192) mod p, by 192-bit rotations, end-around-carry
    additions and one eq. (3) reduction per output (SPEC 4.4). Any length N; entries of x in
    [0, 2^64). Output natural order, [0, p). s = 12, N = 16 is the radix-16 PE; s = 6, N = 32 the
    32-point sub-transform (root 64); a negative s gives the inverse exponents."""
    assert all(0 <= e < (1 << 64) for e in x)
    out = []
    for k in range(len(x)):
        acc = 0
        for n in range(len(x)):
            acc = add_eac192(acc, rotl192(x[n], (s * n * k) % 192))
        out.append(reduce_eq3(acc))
    return out


def shift_dft_fast(x: Sequence[int], s: int) -> list[int]:
    """:func:`shift_dft` for a power-of-two length, as a radix-2 decimation-in-time FFT whose
    twiddles 2^(s*j*N/len) are shifts, with ``% p`` in place of the 192-bit word emulation: the
    same values in O(N log N), used inside the 1024-point NTT for speed. Entries [0, p)."""
    n_len = len(x)
    assert n_len & (n_len - 1) == 0
    bits = n_len.bit_length() - 1
    a = [x[int(format(i, f"0{bits}b")[::-1], 2) if bits else 0] for i in range(n_len)]
    half = 1
    while half < n_len:
        step = s * (n_len // (2 * half))  # twiddle exponent of 2 for index j: step * j
        for start in range(0, n_len, 2 * half):
            for j in range(half):
                u = a[start + j]
                t = (a[start + j + half] << ((step * j) % 192)) % P64
                a[start + j] = (u + t) % P64
                a[start + j + half] = (u - t) % P64
        half *= 2
    return a


def pe16(x: Sequence[int]) -> list[int]:
    """Radix-16 PE (SPEC 4.4): X(k) = sum_{n<16} x(n) 2^((12nk) mod 192) mod p (omega_16 = 2^12).
    Input 16 entries in [0, 2^64); output natural order, [0, p)."""
    assert len(x) == 16
    return shift_dft(x, 12)


def ipe16(big_x: Sequence[int]) -> list[int]:
    """Inverse radix-16 PE: x(n) = 1/16 sum_k X(k) 2^((-12nk) mod 192) mod p; the 1/16 = 2^188
    is folded into the rotations (2^192 = 1). Input 16 entries in [0, 2^64); output [0, p)."""
    assert len(big_x) == 16 and all(0 <= e < (1 << 64) for e in big_x)
    out = []
    for n in range(16):
        acc = 0
        for k in range(16):
            acc = add_eac192(acc, rotl192(big_x[k], (-12 * n * k - 4) % 192))
        out.append(reduce_eq3(acc))
    return out


def ntt64_direct(x: Sequence[int], root: int = OMEGA_1024) -> list[int]:
    """Direct O(N^2) NTT: X_k = sum_n x_n root^(nk) mod p, N = len(x) (oracle). Entries [0, p)."""
    n_len = len(x)
    assert all(0 <= e < P64 for e in x)
    assert pow(root, n_len, P64) == 1 and (n_len == 1 or pow(root, n_len // 2, P64) != 1)
    w = [pow(root, m, P64) for m in range(n_len)]
    return [sum(x[n] * w[(n * k) % n_len] for n in range(n_len)) % P64 for k in range(n_len)]


#: The four-step sides S (an S^2-point transform as S x S) and their roots omega_(S^2), with
#: omega^S = 2^(192/S) so that the S-point sub-transforms are shift-only. Each root is the first
#: base^j (j odd, ascending) with that property, base = 7^((p - 1)/S^2) (7 generates the
#: multiplicative group), as SPEC 4.1 derives OMEGA_1024. At S = 8 the root is 8 = 2^3 itself.
NTT64_SIDES = (8, 16, 32)


def _four_step_root(side: int) -> int:
    n_len = side * side
    base = pow(7, (P64 - 1) // n_len, P64)
    shift = pow(2, 192 // side, P64)
    for j in range(1, n_len, 2):
        w = pow(base, j, P64)
        if pow(w, side, P64) == shift:
            return w
    raise AssertionError(f"no {n_len}-point root for side {side}")  # pragma: no cover


NTT64_ROOTS = {side: _four_step_root(side) for side in NTT64_SIDES}
assert NTT64_ROOTS[32] == OMEGA_1024


@functools.cache
def _twiddles(side: int, sign: int) -> tuple[int, ...]:
    """omega^(sign m) mod p for m < side^2 (the four-step twiddles omega^(n2 k1))."""
    w = pow(NTT64_ROOTS[side], sign, P64)
    return tuple(pow(w, m, P64) for m in range(side * side))


def ntt64_side(n_len: int) -> int:
    """The four-step side S of an n_len = S^2-point transform (64, 256 or 1024 points)."""
    side = math.isqrt(n_len)
    if side * side != n_len or side not in NTT64_SIDES:
        raise ValueError(f"ntt64: {n_len} points is not one of 64, 256, 1024")
    return side


def ntt64_four_step(
    x: Sequence[int], sign: int, scale: int = 1
) -> tuple[list[list[int]], list[int]]:
    """S^2 = S x S four-step: n = S n1 + n2, k = k1 + S k2; omega^(nk) =
    2^(192/S n1 k1) omega^(n2 k1) 2^(192/S n2 k2). Returns (the first pass after its twiddles,
    y[n2][k1], and the output in natural order). Column and row passes are shift-only S-point
    transforms (root 2^(192 sign/S), :func:`shift_dft_fast`); the twiddles scale *
    omega^(sign n2 k1) are general multiplications mod p (``scale`` = N^-1 folds the inverse's
    1/N into them). Entries [0, p); sign +1 forward, -1 inverse."""
    side = ntt64_side(len(x))
    assert all(0 <= e < P64 for e in x)
    step, tw = 192 // side * sign, _twiddles(side, sign)
    y = [shift_dft_fast([x[side * n1 + n2] for n1 in range(side)], step) for n2 in range(side)]
    for n2 in range(side):
        for k1 in range(side):
            y[n2][k1] = y[n2][k1] * tw[n2 * k1] % P64 * scale % P64
    out = [0] * len(x)
    for k1 in range(side):
        row = shift_dft_fast([y[n2][k1] for n2 in range(side)], step)
        for k2 in range(side):
            out[k1 + side * k2] = row[k2]
    return y, out


def ntt64(x: Sequence[int]) -> list[int]:
    """N-point NTT mod p (N = 64, 256 or 1024), X_k = sum_n x_n omega^(nk), omega =
    NTT64_ROOTS[sqrt N] (OMEGA_1024 at 1024 points, SPEC 4.1), as a sqrt N x sqrt N four-step
    with shift-only sub-transforms. Natural order in/out, [0, p)."""
    return ntt64_four_step(x, +1)[1]


def intt64(big_x: Sequence[int]) -> list[int]:
    """Inverse of :func:`ntt64`: x_n = N^-1 sum_k X_k omega^(-nk) mod p. Natural order,
    entries [0, p)."""
    return ntt64_four_step(big_x, -1, pow(len(big_x), -1, P64))[1]
