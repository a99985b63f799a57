"""drmmm: different-radix Montgomery multiplication with a t-stage quotient pipeline.

Citation: Zhang et al., "Efficient and flexible different-radix Montgomery modular multiplication
for hardware implementation" (DRMMM paper): Algorithm 2 (corrected, SPEC 3.2), Algorithm 3 with
the carry-save triplet (corrected, SPEC 3.3), Fig. 5 (pipeline registers), Fig. 8(a) (6-to-3
compressor), eq. (32) and the C_m case list of Sec. 4.3.1 (carry bits); errata in SPEC 3.5.

Contract:
  * N odd, N > 1, bitlen(N) <= n (n = |M|, auto: bitlen(N)); t >= 1; k >= 1, and k >= 2 with
    alg = 3 (the carry logic reads bits k-1 and k-2).
  * r = 2^k is the digit radix, d = ceil(n/k), M' = -N^-1 mod r^t: the quotient is computed in
    radix r^t and only its top radix-r digit is kept.
  * 0 <= x, y < N. Output fully reduced: 0 <= z < N, z = x*y*2^(-k*d) mod N, so the Montgomery
    constant is R = r^d = 2^(k*d), as for Algorithm 1 (radix2k).
  * alg = 2: Algorithm 2 with correction C2, d+t iterations; q^_i is applied t-1 iterations after
    it is computed (q^_(i-t+1) in iteration i). Every division by r is asserted exact, and the
    value before the final subtraction is bit-identical to Algorithm 1's (< 2N).
  * alg = 3: Algorithm 3. The state is three words (Z0, Z1, Z2), each WIDTH = kt + n + k + GUARD
    bits wide, plus two pending carry bits C_l, C_m of weight 1. Each iteration compresses the six
    inputs Temp + C_l, q^M, Z0, Z1, Z2, C_m with a bitwise 6:3 counter built from full adders
    (Fig. 8(a)), shifts each word right by k and derives C_l (eq. (32)) and C_m (2 n_m + n_l >= 6)
    from bits k-1 and k-2. Stage 1 of the q pipeline reads the low kt bits of the three words and
    the two pending carries. The represented value Z0 + Z1 + Z2 + C_l + C_m is asserted equal to
    C2's Z^ after every iteration; d+t iterations.
  * Experiments (not the contract, used by the tests to prove the errata):
    :func:`algorithm2_printed` (the printed Algorithm 2; flags a shift that drops non-zero bits),
    :func:`algorithm2_c1` (correction C1), ``algorithm3(..., q_reads_carries=False)`` (erratum 3)
    and ``algorithm3(..., iterations=d+t+1)`` (the printed loop, erratum 2).
  * Left out: the LUT encodings of iM' and iM (Sec. 4.2.1), Booth encoding, and the split of the
    q^ computation over the pipeline stages: stage 1 computes the whole digit and stages 2..t are
    the registers of Fig. 5 that delay it. The 6:3 counter is the CSA-based one of Fig. 8(a);
    the LUT-based one of eq. (31) computes the same three bits.
  * Trace, one entry per iteration i: {"i", "a_i", "q_new" (q^_i), "q_used" (the digit whose
    q^*M is added: q^_(i-t+1) for C2), "Z" (Z^ after the division by r)}; alg = 3 adds
    {"Z0", "Z1", "Z2", "C_l", "C_m"} after the shift, and its "Z" is the value they represent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from montlab import registry
from montlab.errors import ParameterError
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands, check_width, words

ID = "drmmm"
#: Guard bits of each triplet word above kt + n + k. The six counter inputs are all < 2^L with
#: L = kt + n + k (Temp + C_l < 2^L, q^M < 2^(n+k), the shifted words < 2^(L+2-k) <= 2^L as
#: k >= 2), so the counter's outputs of weight 1, 2 and 4 are < 2^L, 2^(L+1) and 2^(L+2).
GUARD = 2


@dataclass(frozen=True)
class Config(MontConfig):
    n: int  #: modulus width |M| in bits
    k: int  #: digit width: r = 2^k
    t: int  #: stages of the quotient pipeline
    alg: int  #: 2 = Algorithm 2 (C2), 3 = Algorithm 3 (carry-save triplet)
    d: int  #: digits of x, ceil(n/k)
    m_prime: int  #: M' = -N^-1 mod r^t
    width: int  #: width of each triplet word of Algorithm 3: kt + n + k + GUARD

    @property
    def radix(self) -> int:
        """The digit radix r = 2^k (the Montgomery constant is ``self.r`` = r^d)."""
        return 1 << self.k


@dataclass(frozen=True)
class Run:
    """The outcome of one run of a loop variant, for the experiments."""

    z: int  #: the returned value: ``unreduced`` after one conditional subtraction of N
    unreduced: int  #: the loop's output, before the final subtraction
    iterations: int  #: loop iterations executed
    exact: bool  #: every right shift by k discarded only zero bits
    first_inexact: int | None = None  #: the first iteration whose shift dropped non-zero bits


def configure(n_mod: int, params: Mapping[str, int | None]) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)  # defaults and bounds from algorithms.toml
    alg, k, t = params["alg"], params["k"], params["t"]
    assert alg in (2, 3) and k is not None and k >= 1 and t is not None and t >= 1
    if alg == 3 and k < 2:
        raise ParameterError(
            f"{ID}: k = {k} is illegal with alg = 3: the carry logic of Algorithm 3 reads bits "
            "k-1 and k-2 of each word, so it needs k >= 2 (use alg = 2 for k = 1)"
        )
    n = params["n"]
    n = n_mod.bit_length() if n is None else n
    check_width(ID, n_mod, n)
    d = -(-n // k)
    rt = 1 << (k * t)
    m_prime = (-pow(n_mod, -1, rt)) % rt
    assert (n_mod * m_prime + 1) % rt == 0, "M' is not -N^-1 mod r^t"
    return Config(
        algo=ID,
        modulus=n_mod,
        r=1 << (k * d),
        bound=1,
        in_bound=1,
        iterations=d + t,
        n=n,
        k=k,
        t=t,
        alg=alg,
        d=d,
        m_prime=m_prime,
        width=k * t + n + k + GUARD,
    )


# --- Algorithm 2 ---------------------------------------------------------------------------------


def _digit(digits: list[int], i: int) -> int:
    """a_i, with a_i = 0 for i >= d (Algorithm 2, line 2)."""
    return digits[i] if i < len(digits) else 0


def _corrected_loop(
    cfg: Config, x: int, y: int, t: int, iterations: int, trace: Trace | None, label: str
) -> Run:
    """Correction C2 of Algorithm 2 (SPEC 3.2) with pipeline depth ``t``.

    C2 is this loop with t = cfg.t and d+t iterations; C1 is it with t = cfg.t + 1 and
    d+t+1 iterations. Other iteration counts are experiments.
    """
    m, k = cfg.modulus, cfg.k
    radix = cfg.radix
    rt = 1 << (k * t)
    m_prime = (-pow(m, -1, rt)) % rt  # M' = -M^-1 mod r^t
    digits = words(x, k, cfg.d)
    q_hat: list[int] = []  # q^_0, q^_1, ...; q^_j = 0 for j < 0
    z = 0  # Z^_(-1) = 0
    for i in range(iterations):
        a_i = _digit(digits, i)
        # q^_i: the top radix-r digit of the radix-r^t quotient of Z^_(i-1).
        q_new = (((z % rt) * m_prime) % rt) >> (k * (t - 1))
        assert 0 <= q_new < radix
        q_hat.append(q_new)
        j = i - t + 1
        q_used = q_hat[j] if j >= 0 else 0  # q^_(i-t+1): computed t-1 iterations ago
        s = z + a_i * y * rt + q_used * m
        assert s % radix == 0, f"{label}: iteration {i}: Z^ + a_i*B*r^t + q^*M is not exact"
        # With Z_alg1 < N + B: s = r*Z_alg1 + (a_j*B*r^(j-i+t) for j = i-t+1..i) < r*N + B*r^(t+1),
        # which is < 2^(kt + n + k + 1): the sum can be one bit wider than kt + n + k.
        assert s < m * radix + y * radix * rt, f"{label}: iteration {i}: intermediate too wide"
        z = s >> k
        assert z < m + y * rt, f"{label}: iteration {i}: Z^ >= N + B*r^t"
        if trace is not None:
            trace.append({"i": i, "a_i": a_i, "q_new": q_new, "q_used": q_used, "Z": z})
    if iterations >= cfg.d + t:
        # All pending a_j*B terms have been reduced: Z^ is Algorithm 1's value, < N + B < 2N.
        assert z < m + y, f"{label}: Z^ >= N + B after the loop"
    unreduced = z
    if z >= m:
        z -= m
    return Run(z=z, unreduced=unreduced, iterations=iterations, exact=True)


def algorithm2_c2(
    cfg: Config, x: int, y: int, trace: Trace | None = None, iterations: int | None = None
) -> Run:
    """Algorithm 2 with correction C2 (SPEC 3.2): d+t iterations, q^_(i-t+1), M' mod r^t."""
    check_operands(cfg, x, y)
    its = cfg.d + cfg.t if iterations is None else iterations
    run = _corrected_loop(cfg, x, y, cfg.t, its, trace, "Algorithm 2 (C2)")
    if iterations is None:
        assert 0 <= run.z < cfg.modulus, "C2: one final subtraction did not reduce the output"
    return run


def algorithm2_c1(cfg: Config, x: int, y: int, trace: Trace | None = None) -> Run:
    """Algorithm 2 with correction C1 (SPEC 3.2): the printed delay t and d+t+1 iterations, with
    r^(t+1) in place of r^t in M', in the reduction and in the shift of a_i*B; q^ is the top digit
    (>> kt). This is C2 with t replaced by t+1; ``q_used`` in the trace is q^_(i-t)."""
    check_operands(cfg, x, y)
    run = _corrected_loop(cfg, x, y, cfg.t + 1, cfg.d + cfg.t + 1, trace, "Algorithm 2 (C1)")
    assert 0 <= run.z < cfg.modulus, "C1: one final subtraction did not reduce the output"
    return run


def algorithm2_printed(
    cfg: Config, x: int, y: int, trace: Trace | None = None, iterations: int | None = None
) -> Run:
    """Algorithm 2 exactly as printed (SPEC 3.2, erratum 1): broken, kept to prove the erratum.

    q^_i = ((Z^_(i-1) mod r^t)*M' mod r^t) >> k(t-1) and Z^_i = (Z^_(i-1) + a_i*B*r^t +
    q^_(i-t)*M) >> k for i = 0..d+t (d+t+1 iterations; ``iterations`` overrides the count). The
    shift is a floor, as printed: nothing is asserted, and the returned :class:`Run` records
    whether any shift dropped non-zero bits (``exact``) and where it first did.
    """
    check_operands(cfg, x, y)
    m, k, t = cfg.modulus, cfg.k, cfg.t
    radix = cfg.radix
    rt = 1 << (k * t)
    its = cfg.d + t + 1 if iterations is None else iterations
    digits = words(x, k, cfg.d)
    q_hat: list[int] = []
    z = 0
    first_inexact: int | None = None
    for i in range(its):
        a_i = _digit(digits, i)
        q_new = (((z % rt) * cfg.m_prime) % rt) >> (k * (t - 1))
        q_hat.append(q_new)
        j = i - t
        q_used = q_hat[j] if j >= 0 else 0  # q^_(i-t), as printed
        s = z + a_i * y * rt + q_used * m
        if s % radix != 0 and first_inexact is None:
            first_inexact = i
        z = s >> k
        if trace is not None:
            trace.append({"i": i, "a_i": a_i, "q_new": q_new, "q_used": q_used, "Z": z})
    unreduced = z
    if z >= m:
        z -= m
    return Run(z, unreduced, its, first_inexact is None, first_inexact)


# --- Algorithm 3: the carry-save triplet ---------------------------------------------------------


def full_adder(a: int, b: int, c: int) -> tuple[int, int]:
    """One layer of full adders (a 3:2 compressor, eqs. (4)-(5)) applied to every bit position.

    Returns (sum, carry) with the carry word already moved to its weight: sum + carry = a + b + c.
    """
    assert a >= 0 and b >= 0 and c >= 0
    s = a ^ b ^ c
    cy = ((a & b) | (b & c) | (a & c)) << 1
    assert s + cy == a + b + c
    return s, cy


def compress_6_3(x0: int, x1: int, x2: int, x3: int, x4: int, x5: int) -> tuple[int, int, int]:
    """The 6-to-3 compressor of Fig. 8(a), one (6,3) counter per bit position, built from CSAs.

    Column j of the six inputs is counted into three bits placed at j (weight 1), j+1 (weight 2)
    and j+2 (weight 4): two full adders, a half adder on their sums, and a full adder on the three
    weight-2 bits. Returns (w0, w1, w2) with w0 + w1 + w2 = x0 + ... + x5.
    """
    s1, c1 = full_adder(x0, x1, x2)
    s2, c2 = full_adder(x3, x4, x5)
    w0 = s1 ^ s2  # half adder on the two weight-1 sums
    h = (s1 & s2) << 1
    w1, w2 = full_adder(c1, c2, h)  # the three weight-2 bits of every column
    assert w0 + w1 + w2 == x0 + x1 + x2 + x3 + x4 + x5, "6:3 compression lost value"
    return w0, w1, w2


def counter_6_3(bits: tuple[int, int, int, int, int, int]) -> tuple[int, int, int]:
    """The LUT-based (6,3) counter of eq. (31) on one column: (O_0, O_1, O_2).

    O_0 is the XOR of the six bits and O_1 the XOR of their 15 pairwise ANDs, as printed. The
    printed O_2 is garbled in the text; it is read here as the OR of the 15 products of four bits
    (the count is >= 4), which is bit 2 of a count of at most 6.
    """
    assert len(bits) == 6 and all(b in (0, 1) for b in bits)
    o0 = 0
    for b in bits:
        o0 ^= b
    o1 = 0
    o2 = 0
    for i in range(6):
        for j in range(i + 1, 6):
            o1 ^= bits[i] & bits[j]
            rest = [bits[u] for u in range(6) if u not in (i, j)]  # A_0...A_5 / (A_i A_j)
            o2 |= rest[0] & rest[1] & rest[2] & rest[3]
    return o0, o1, o2


def c_m_case_list(n_m: int, n_l: int) -> int:
    """C_m from the paper's case list (Sec. 4.3.1, cases 1-6), as printed."""
    if n_m == 3:
        return 1  # case 1
    if n_m == 2 and n_l in (1, 2, 3):
        return 1  # case 2
    if n_m == 2 and n_l == 0:
        return 0  # case 3
    if n_m == 1 and n_l == 3:
        return 1  # case 4
    if n_m == 1 and n_l == 2:
        return 0  # case 5
    return 0  # case 6


def c_m_rule(n_m: int, n_l: int) -> int:
    """C_m as SPEC 3.3 states it: 1 iff 2*n_m + n_l >= 6 (the low k bits sum to 2^(k+1)).

    It differs from :func:`c_m_case_list` only on (n_m, n_l) = (2, 1) and (1, 3), which no
    triplet whose low k bits sum to 0 mod 2^k can produce.
    """
    assert 0 <= n_m <= 3 and 0 <= n_l <= 3
    return 1 if 2 * n_m + n_l >= 6 else 0


def carry_bits(z0: int, z1: int, z2: int, k: int) -> tuple[int, int]:
    """The "Carry bit" module (Sec. 4.3.1): (C_l, C_m) from bits k-1 and k-2 of the three words.

    Valid when the low k bits of the three words sum to 0 mod 2^k; then their sum is
    (C_l + C_m) * 2^k. C_l is the OR of the six bits (eq. (32)); C_m = 1 iff 2*n_m + n_l >= 6,
    which agrees with the paper's case list on every reachable (n_m, n_l).
    """
    assert k >= 2, "the carry logic needs k >= 2"
    hi = [(w >> (k - 1)) & 1 for w in (z0, z1, z2)]
    lo = [(w >> (k - 2)) & 1 for w in (z0, z1, z2)]
    n_m, n_l = sum(hi), sum(lo)
    c_l = hi[0] | hi[1] | hi[2] | lo[0] | lo[1] | lo[2]  # eq. (32)
    c_m = c_m_rule(n_m, n_l)
    return c_l, c_m


def algorithm3(
    cfg: Config,
    x: int,
    y: int,
    trace: Trace | None = None,
    *,
    iterations: int | None = None,
    q_reads_carries: bool = True,
) -> Run:
    """Algorithm 3 (SPEC 3.3) on the carry-save triplet, with C2 run alongside and compared.

    ``iterations`` (default d+t) and ``q_reads_carries`` (default True) exist for the errata
    experiments: iterations = d+t+1 is the printed loop (erratum 2); q_reads_carries = False
    feeds stage 1 of the q pipeline the three words without the pending carries (erratum 3). In
    that experiment the comparison with C2 is off and ``exact`` records whether every shift
    dropped only bits worth (C_l + C_m) * 2^k.
    """
    check_operands(cfg, x, y)
    if cfg.k < 2:
        raise ParameterError(f"{ID}: Algorithm 3 needs k >= 2, got k = {cfg.k}")
    m, k, t = cfg.modulus, cfg.k, cfg.t
    radix = cfg.radix
    rt = 1 << (k * t)
    its = cfg.d + t if iterations is None else iterations
    check = q_reads_carries
    shadow: Trace = []
    ref = _corrected_loop(cfg, x, y, t, its, shadow, "C2 beside Algorithm 3") if check else None
    limit = 1 << cfg.width
    digits = words(x, k, cfg.d)
    regs = [0] * (t - 1)  # Fig. 5: Reg 1..t-1, newest first; regs[j] = q^_(i-1-j)
    z0 = z1 = z2 = 0  # line 1
    c_l = c_m = 0
    first_inexact: int | None = None
    for i in range(its):
        a_i = _digit(digits, i)
        # Stage 1 (line 5): the low kt bits of the three words and the two pending carries.
        low = (z0 % rt) + (z1 % rt) + (z2 % rt)
        if q_reads_carries:
            low += c_l + c_m
        q_new = (((low % rt) * cfg.m_prime) % rt) >> (k * (t - 1))
        assert 0 <= q_new < radix
        # Stages 2..t (lines 6-8): the digit moves one register per iteration; the last stage
        # delivers q^_(i-t+1)*M. With t = 1 the digit is used in the iteration that computes it.
        if t == 1:
            q_used = q_new
        else:
            q_used = regs[-1]
            regs = [q_new] + regs[:-1]
        temp = (a_i * y) << (k * t)  # line 4: Temp = Mult(a_i, B) << kt
        q_m = q_used * m
        assert temp % rt == 0 and rt >= 4, "the low kt >= 2 bits of Temp are free for C_l"
        inputs = (temp | c_l, q_m, z0, z1, z2, c_m)  # C_l enters bit 0 of Temp, C_m is a word
        assert all(0 <= v < (1 << (cfg.width - GUARD)) for v in inputs), "input wider than kt+n+k"
        # Line 9, Update: 6:3 compression, the carry module and the shift by k.
        w0, w1, w2 = compress_6_3(*inputs)
        assert w0 < limit and w1 < limit and w2 < limit, "a triplet word overflows its register"
        total = w0 + w1 + w2
        assert total == z0 + z1 + z2 + c_l + c_m + temp + q_m
        dropped = (w0 % radix) + (w1 % radix) + (w2 % radix)
        c_l, c_m = carry_bits(w0, w1, w2, k)
        if dropped != (c_l + c_m) << k and first_inexact is None:
            first_inexact = i
        z0, z1, z2 = w0 >> k, w1 >> k, w2 >> k
        value = z0 + z1 + z2 + c_l + c_m
        if check:
            assert first_inexact is None, f"Algorithm 3: iteration {i}: the shift dropped bits"
            assert total % radix == 0 and value == total >> k
            e = shadow[i]
            assert (q_new, q_used) == (e["q_new"], e["q_used"]), f"iteration {i}: q^ is not C2's"
            assert value == e["Z"], f"Algorithm 3: iteration {i}: the triplet differs from C2's Z^"
        if trace is not None:
            trace.append(
                {
                    "i": i,
                    "a_i": a_i,
                    "q_new": q_new,
                    "q_used": q_used,
                    "Z": value,
                    "Z0": z0,
                    "Z1": z1,
                    "Z2": z2,
                    "C_l": c_l,
                    "C_m": c_m,
                }
            )
    z_out = z0 + z1 + z2 + c_l + c_m  # line 11: the final (carry-propagate) summation
    if ref is not None:
        assert z_out == ref.unreduced
    unreduced = z_out
    if z_out >= m:  # lines 12-13: final reduction
        z_out -= m
    if check and iterations is None:
        assert 0 <= z_out < m, "Algorithm 3: one final subtraction did not reduce the output"
    return Run(z_out, unreduced, its, first_inexact is None, first_inexact)


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    if cfg.alg == 2:
        z = algorithm2_c2(cfg, x, y, trace).z
    else:
        z = algorithm3(cfg, x, y, trace).z
    assert 0 <= z < cfg.bound * cfg.modulus, "output outside the contract range"
    return z
