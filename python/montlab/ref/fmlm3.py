"""fmlm3: FFT-based McLaughlin Montgomery multiplication over Fermat / pseudo-Fermat rings.

Citation: FMLM3 paper (000), Algorithm 2 (seven transforms) and Algorithm 3 (five transforms),
with the corrections of SPEC 1.4 and 1.5: the redundant z0 of step 3 (eq. (17), digit-wise sum
with no carry), w = NCT^-1(Z4) in step 12 (erratum 1), the eq. (12) window lift in step 13, and
"t >= N" in step 17 (erratum 2). Q' = 2^l + 1 (erratum 3). Parameter rules: SPEC 1.6.

Contract:
  * Parameters: P = 2^v transform length, u digit width (B = 2^u, l = uP), the ring exponent
    m_exp (M = 2^m_exp + 1, m_exp = cP with c = 1/2 or a positive integer) and alg (2 or 3).
    All default to auto: the set of :func:`montlab.spectral_params.pick` for l = bitlen(N)
    (the corrected Algorithm 4). Explicit values are completed by the same rules and then checked:
    a ring below eq. (13) (alg 2) or eq. (19) (alg 3) is a ParameterError.
  * N odd, 1 < N < R = 2^l - 1 and gcd(N, 2^l - 1) = 1 (ModulusError naming the shared factor).
  * r = R = 2^l - 1 (odd, not a power of two). 0 <= x, y < N; output 0 <= z < N.
  * Transforms run as the shift-only constant-geometry networks of eqs. (7)-(9) on bit-reversed
    digit vectors (montlab.transforms); operands enter as T(z) = CT(dig_u z), T'(z) = NCT(dig_u z)
    and the result leaves in the same form (steps 18/19, :func:`mont_mul_spectral`).
  * Trace: one entry per multiplication with every intermediate the paper names: T(x), T'(x),
    T(y), T'(y), g,
    z0 (Alg 2), z1, m, z4_unrestricted (w of step 12), z4 (after the step-13 lift), S, s, t (before
    the step-17 subtraction), and the transform count.

Left out: the hardware schedule (see montlab.cycles.fmlm3), the chained variant with inputs < 2N
(valid only for N < R/4, SPEC 1.4), and the Karatsuba multipliers of the component-wise products.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from montlab import registry
from montlab import spectral_params as sp
from montlab import transforms as tf
from montlab.errors import ParameterError
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands, from_words, words

ID = "fmlm3"


@dataclass(frozen=True)
class Config(MontConfig):
    pset: sp.Fmlm3Set
    ring: tf.FermatRing
    q_prime: int  #: Q' = 2^l + 1
    n_prime: int  #: N' = -N^-1 mod R
    t_nprime: tuple[int, ...]  #: T(N') = CT(dig_u N'), precomputed
    t_n: tuple[int, ...]  #: T'(N) = NCT(dig_u N), precomputed

    @property
    def alg(self) -> int:
        return self.pset.alg

    @property
    def P(self) -> int:  # noqa: N802
        return self.pset.P

    @property
    def u(self) -> int:
        return self.pset.u

    @property
    def m_exp(self) -> int:
        """cP: M = 2^m_exp + 1."""
        return int(self.pset.c * self.pset.P)


def _auto_l(n_mod: int) -> int:
    """The smallest l with N < 2^l - 1."""
    l = n_mod.bit_length()  # noqa: E741
    return l + 1 if n_mod == (1 << l) - 1 else l


def resolve_set(l_min: int, params: Mapping[str, Any]) -> sp.Fmlm3Set:
    """Complete the (possibly partial) explicit parameters into a set for l >= ``l_min``.

    P auto: the set of the corrected Algorithm 4 (``pick``) when nothing is given, else the
    smallest power of two with uP covering N. u auto: ceil(l/P). m_exp auto: c2 (alg 2) or
    c3 (alg 3). alg auto: 3 when the ring satisfies eq. (19) and c3 == c2, else 2.
    """
    p_len, u, m_exp, alg = params["P"], params["u"], params["m_exp"], params["alg"]
    if p_len is None and u is None and m_exp is None and alg is None:
        pset = sp.pick(l_min)
    else:
        if p_len is not None and (p_len < 2 or p_len & (p_len - 1)):
            raise ParameterError(f"{ID}: P = {p_len} must be a power of two >= 2")
        if p_len is None:
            if u is None:
                p_len = sp.pick(l_min).P
            else:
                p_len = 2
                while u * p_len < l_min:
                    p_len *= 2
        v = p_len.bit_length() - 1
        if u is None:
            u = -(-l_min // p_len)
        if m_exp is None:
            c = sp.c3(u, v) if alg == 3 else sp.c2(u, v)
        else:
            c = Fraction(m_exp, p_len)
            if c != sp.HALF and c.denominator != 1:
                raise ParameterError(
                    f"{ID}: m_exp = {m_exp} must be P/2 (c = 1/2) or a multiple of P = {p_len} "
                    f"(M = 2^(cP)+1 with c = 1/2 or a positive integer)"
                )
        if alg is None:
            alg = 3 if c == sp.c2(u, v) == sp.c3(u, v) else 2
            if m_exp is not None and alg == 2 and sp.eq19_holds(sp.ring(c, v), p_len, 1 << u):
                alg = 3  # an explicit ring wide enough for Algorithm 3 runs it
        pset = sp.make_set(u, v, c, alg)
    return pset


def configure(n_mod: int, params: Mapping[str, Any] | None = None) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)
    pset = resolve_set(_auto_l(n_mod), params)
    sp.check_set(n_mod, pset)
    try:
        ring = tf.FermatRing(pset.v, pset.c)
    except ValueError as exc:
        raise ParameterError(f"{ID}: {exc}") from None
    assert ring.M == pset.M and ring.A == pset.A and ring.omega == pset.omega
    r = pset.R
    n_prime = (-pow(n_mod, -1, r)) % r
    cfg = Config(
        algo=ID,
        modulus=n_mod,
        r=r,
        bound=1,
        in_bound=1,
        iterations=1,
        pset=pset,
        ring=ring,
        q_prime=r + 2,
        n_prime=n_prime,
        t_nprime=(),
        t_n=(),
    )
    object.__setattr__(cfg, "t_nprime", tuple(ct(cfg, digits(cfg, n_prime))))
    object.__setattr__(cfg, "t_n", tuple(nct(cfg, digits(cfg, n_mod))))
    return cfg


# -- digit vectors and transforms (networks: bit-reversed in, natural out) ---------------------


def digits(cfg: Config, z: int) -> list[int]:
    """dig_u(z): P radix-2^u digits, least significant first (0 <= z < 2^l)."""
    return words(z, cfg.pset.u, cfg.pset.P)


def ct(cfg: Config, a: list[int]) -> list[int]:
    return tf.ct_network(cfg.ring, tf.bit_reverse(a))


def ict(cfg: Config, x: list[int]) -> list[int]:
    return tf.ict_network(cfg.ring, tf.bit_reverse(x))


def nct(cfg: Config, a: list[int]) -> list[int]:
    return tf.nct_network(cfg.ring, tf.bit_reverse(a))


def inct(cfg: Config, x: list[int]) -> list[int]:
    return tf.inct_network(cfg.ring, tf.bit_reverse(x))


def spectral(cfg: Config, z: int) -> tuple[list[int], list[int]]:
    """(T(z), T'(z)) = (CT(dig_u z), NCT(dig_u z)): the form operands and results travel in."""
    d = digits(cfg, z)
    return ct(cfg, d), nct(cfg, d)


def _pmul(cfg: Config, a: list[int], b: list[int]) -> list[int]:
    return [x * y % cfg.ring.M for x, y in zip(a, b, strict=True)]


def mont_mul_spectral(
    cfg: Config,
    tx: tuple[list[int], list[int]],
    ty: tuple[list[int], list[int]],
    x0y0: int,
    trace: Trace | None = None,
) -> tuple[int, tuple[list[int], list[int]]]:
    """Steps 1-19 on operands given as (T(x), T'(x)) and (T(y), T'(y)).

    ``x0y0`` is x_0 AND y_0, the product of the least significant bits that step 16 needs.
    Returns t = x*y*R^-1 mod N and its (T(t), T'(t)).
    """
    ps, m_ring, n = cfg.pset, cfg.ring.M, cfg.modulus
    p_len, u, l_ = ps.P, ps.u, ps.l
    big_b, r, q = ps.B, cfg.r, cfg.q_prime
    transforms = 0
    entry: dict[str, Any] = {"alg": ps.alg}
    if ps.alg == 2:
        # 1-2: g = eval_u(CT^-1(T(x) . T(N'))): exact cyclic convolution values, g = x*N' (mod R).
        g_vec = ict(cfg, _pmul(cfg, tx[0], list(cfg.t_nprime)))
        transforms += 1
        assert max(g_vec) <= p_len * (big_b - 1) ** 2, "CT^-1 output is not an exact convolution"
        g = from_words(g_vec, u)
        # 3: z0 = dig_u(g mod 2^l) + dig_u(floor(g / 2^l)), digit-wise, no carry (eq. (17)).
        hi = g >> l_
        assert hi < big_b**p_len
        z0 = [a + b for a, b in zip(digits(cfg, g & r), digits(cfg, hi), strict=True)]
        z0_val = from_words(z0, u)
        assert all(d < 2 * big_b for d in z0) and z0_val % r == g % r and z0_val < 2 * r
        # 4-6: z1 = eval_u(CT^-1(T(y) . CT(z0))).
        z1_vec = ict(cfg, _pmul(cfg, ty[0], ct(cfg, z0)))
        transforms += 2
        assert max(z1_vec) <= 2 * p_len * (big_b - 1) ** 2
        entry.update(g=g, z0=z0)
    else:
        # Algorithm 3, steps 1-3: z1 = eval_u(CT^-1(T(y) . (T(x) . T(N')))); eq. (19) keeps the
        # triple-product coefficients below M.
        z1_vec = ict(cfg, _pmul(cfg, ty[0], _pmul(cfg, tx[0], list(cfg.t_nprime))))
        transforms += 1
        assert max(z1_vec) <= p_len * p_len * (big_b - 1) ** 3
    z1 = from_words(z1_vec, u)
    # 7: m = z1 mod R, fully reduced.
    m = z1 % r
    # 8-11: Z4 = T'(x) . T'(y) + T'(m) . T'(N).
    t_m = nct(cfg, digits(cfg, m))
    z4 = [(a * b + c * d) % m_ring for a, b, c, d in zip(tx[1], ty[1], t_m, cfg.t_n, strict=True)]
    # 12: w = NCT^-1(Z4) (erratum 1: the printed NCT^-1(T'(z1)) fails).
    w = inct(cfg, z4)
    transforms += 2
    # 13: eq. (12) window: the true value of w_n lies in [-2(P-1-n)(B-1)^2, 2(n+1)(B-1)^2].
    bb = (big_b - 1) ** 2
    lifted = [wn - m_ring if wn > 2 * (i + 1) * bb else wn for i, wn in enumerate(w)]
    assert all(-2 * (p_len - 1 - i) * bb <= x <= 2 * (i + 1) * bb for i, x in enumerate(lifted))
    # 14: S = eval_u(w) mod Q'.
    s_big = from_words(lifted, u) % q
    # 15: s = -S/2 mod Q'.
    s = (q - s_big) // 2 if s_big % 2 else ((2 * q - s_big) // 2) % q
    assert (2 * s + s_big) % q == 0
    # 16: t has the parity of xy + mN, (x0 AND y0) XOR (m0 AND N0); t < 2N < 2Q'.
    parity = x0y0 ^ (m & n & 1)
    t = s if s % 2 == parity else s + q
    assert 0 <= t < 2 * n, "t is not < 2N"
    if trace is not None:
        entry.update(
            z1=z1, m=m, z4_unrestricted=w, z4=lifted, S=s_big, s=s, t=t, transforms=transforms + 2
        )
        entry["T(x)"], entry["T'(x)"] = list(tx[0]), list(tx[1])
        entry["T(y)"], entry["T'(y)"] = list(ty[0]), list(ty[1])
        trace.append(entry)
    # 17: "t >= N" (erratum 2: the printed "t > N" returns N when xy = 0 mod N).
    if t >= n:
        t -= n
    assert 0 <= t < n
    # 18/19: the result in both spectral forms, ready for the next product.
    return t, spectral(cfg, t)


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    check_operands(cfg, x, y)
    t, _ = mont_mul_spectral(cfg, spectral(cfg, x), spectral(cfg, y), x & y & 1, trace)
    assert (t * cfg.r - x * y) % cfg.modulus == 0
    return t
