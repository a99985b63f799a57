"""fmlm3 reference model (FMLM3 Algorithms 2 and 3, SPEC 1.4-1.6) against Python's pow."""

from __future__ import annotations

import math
import random

import pytest
from conftest import configure, hexdump, montgomery_oracle, scaled
from montlab import spectral_params as sp
from montlab import transforms as tf
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import fmlm3
from montlab.ref._base import from_words
from montlab.testing import random_modulus_for

#: Distinct parameter rows of FMLM3 Table 6: (l, alg, M exponent, P, u).
TABLE6_SETS = sorted({(r[0], r[1], r[3], r[4], r[5]) for r in sp.FMLM3_TABLE6})


def check(cfg: fmlm3.Config, x: int, y: int) -> dict:
    trace: list = []
    z = fmlm3.mont_mul(cfg, x, y, trace)
    n = cfg.modulus
    assert z == montgomery_oracle(x, y, cfg.r, n), hexdump(n=n, x=x, y=y, z=z)
    return trace[0]


@pytest.mark.parametrize("l, alg, m_exp, p_len, u", TABLE6_SETS)
def test_table6_rows_against_pow(
    rng: random.Random,
    l: int,  # noqa: E741
    alg: int,
    m_exp: int,
    p_len: int,
    u: int,
) -> None:
    params = {"P": p_len, "u": u, "m_exp": m_exp, "alg": alg}
    for _ in range(scaled(2)):
        n = random_modulus_for(rng, "fmlm3", l, params)
        cfg = fmlm3.configure(n, params)
        assert (cfg.pset.l, cfg.alg, cfg.m_exp) == (l, alg, m_exp)
        for _ in range(2):
            e = check(cfg, rng.randrange(n), rng.randrange(n))
            assert e["transforms"] == (7 if alg == 2 else 5)


@pytest.mark.parametrize("p_len", [4, 8, 16])
@pytest.mark.parametrize("u", [2, 3, 5, 8])
@pytest.mark.parametrize("alg", [2, 3])
def test_small_sets(rng: random.Random, p_len: int, u: int, alg: int) -> None:
    params = {"P": p_len, "u": u, "alg": alg}
    for _ in range(scaled(10)):
        n = random_modulus_for(
            rng, "fmlm3", rng.randrange(u * p_len // 2 + 1, u * p_len + 1), params
        )
        cfg = fmlm3.configure(n, params)
        for _ in range(5):
            check(cfg, rng.randrange(n), rng.randrange(n))


@pytest.mark.parametrize("bits", [16, 64, 127, 1024, 2048, 3072, 4096])
def test_auto_set_is_algorithm4_pick(rng: random.Random, bits: int) -> None:
    n = random_modulus_for(rng, "fmlm3", bits)
    cfg = fmlm3.configure(n, {})
    assert cfg.pset == sp.pick(bits)
    for _ in range(scaled(2)):
        check(cfg, rng.randrange(n), rng.randrange(n))
    check(cfg, n - 1, n - 1)


def test_auto_set_at_3072_runs_algorithm_2_where_the_printed_rule_says_3() -> None:
    s = sp.pick(3072)
    assert (s.P, s.u, s.c, s.alg) == (128, 24, sp.HALF, 2)
    assert sp.algorithm4_printed_choice(s.u, s.v) == 3
    assert not s.satisfies(3)  # Algorithm 3 on 2^64+1 would break eq. (19)


def test_algorithms_2_and_3_agree(rng: random.Random) -> None:
    for _ in range(scaled(20)):
        n = random_modulus_for(rng, "fmlm3", 144, {"P": 16, "u": 9})
        c2 = fmlm3.configure(n, {"P": 16, "u": 9, "alg": 2})
        c3 = fmlm3.configure(n, {"P": 16, "u": 9, "alg": 3})
        assert c2.alg == 2 and c3.alg == 3 and c3.pset.M > c2.pset.M
        x, y = rng.randrange(n), rng.randrange(n)
        t2, t3 = check(c2, x, y), check(c3, x, y)
        assert t2["m"] == t3["m"] and t2["t"] == t3["t"] and t2["S"] == t3["S"]


def test_spec6_item3_sqrt2_trace() -> None:
    """A = sqrt(2): P = 16, u = 1, M = 2^8+1, A = 60; m = 6469, S = 45163, t = 10187."""
    cfg = fmlm3.configure(60553, {"P": 16, "u": 1})
    assert (cfg.ring.M, cfg.ring.A, cfg.ring.omega, cfg.alg) == (257, 60, 2, 2)
    assert 60 * 60 % 257 == 2
    e = check(cfg, 20828, 13246)
    assert (e["m"], e["S"], e["t"]) == (6469, 45163, 10187)


def test_spec6_item3_a4080(rng: random.Random) -> None:
    params = {"P": 32, "u": 5, "m_exp": 16}
    n = random_modulus_for(rng, "fmlm3", 160, params)
    cfg = fmlm3.configure(n, params)
    assert (cfg.ring.M, cfg.ring.A) == (2**16 + 1, 4080)
    for _ in range(scaled(20)):
        check(cfg, rng.randrange(n), rng.randrange(n))


def test_spec6_item2_trace_fields(rng: random.Random) -> None:
    """P = 8, u = 4, M = 2^16+1 (omega = 16, A = 4): every trace field against its definition."""
    params = {"P": 8, "u": 4, "m_exp": 16, "alg": 2}
    n = random_modulus_for(rng, "fmlm3", 32, params)
    cfg = fmlm3.configure(n, params)
    assert (cfg.ring.omega, cfg.ring.A) == (16, 4)
    x, y = rng.randrange(n), rng.randrange(n)
    e = check(cfg, x, y)
    d = fmlm3.digits(cfg, x)
    assert e["T(x)"] == tf.ct(cfg.ring, d) and e["T'(x)"] == tf.nct(cfg.ring, d)
    assert e["g"] % cfg.r == x * cfg.n_prime % cfg.r
    z0 = e["z0"]
    assert isinstance(z0, list) and from_words(z0, 4) % cfg.r == e["g"] % cfg.r  # type: ignore[operator]
    assert e["m"] == x * y * cfg.n_prime % cfg.r
    assert e["t"] * cfg.r == x * y + e["m"] * n  # type: ignore[operator]
    w, lifted = e["z4_unrestricted"], e["z4"]
    assert [v % cfg.ring.M for v in lifted] == w  # type: ignore[union-attr]


def test_spec6_item5_step17_corner() -> None:
    a, b = 2**32 - 5, 2**32 - 17
    cfg = fmlm3.configure(a * b, {"P": 8, "u": 8})
    e = check(cfg, a, b)
    assert e["t"] == a * b  # the printed "t > N" would return N instead of 0


def _symmetric_s(cfg: fmlm3.Config, w: list[int]) -> int:
    m = cfg.ring.M
    return from_words([x - m if x > m // 2 else x for x in w], cfg.pset.u) % cfg.q_prime


@pytest.mark.parametrize(
    "params, symmetric_fails",
    [
        ({"P": 64, "u": 16, "m_exp": 64, "alg": 3}, False),  # SPEC 6 item 4
        ({"P": 8, "u": 2, "m_exp": 8}, False),  # tight (cP = v + 2u + 1), not reached here
        ({"P": 8, "u": 6, "m_exp": 16}, True),  # tight
        ({"P": 32, "u": 13, "m_exp": 32}, True),  # tight
    ],
)
def test_near_maximal_digits_need_the_eq12_window(params: dict, symmetric_fails: bool) -> None:
    """N = R - 2, x = y = N - 1 (SPEC 1.4): the eq. (12) window lifts correctly, while a
    symmetric lift (subtract M above M/2) gives the wrong S on the tight rings."""
    r = (1 << (params["P"] * params["u"])) - 1
    n = r - 2
    cfg = fmlm3.configure(n, params)
    e = check(cfg, n - 1, n - 1)
    for x, y in [(n - 1, n - 2), (n - 2, n - 2), (n // 2, n - 1)]:
        check(cfg, x, y)
    sym_wrong = _symmetric_s(cfg, e["z4_unrestricted"]) != e["S"]  # type: ignore[arg-type]
    assert sym_wrong == symmetric_fails


def test_printed_step12_and_q_prime_fail(rng: random.Random) -> None:
    """Errata 1 and 3: NCT^-1(T'(z1)) in step 12, and Q' = B^P - 1, give wrong S."""
    params = {"P": 16, "u": 8, "alg": 2}
    n = random_modulus_for(rng, "fmlm3", 128, params)
    cfg = fmlm3.configure(n, params)
    bad_step12 = bad_q = 0
    for _ in range(20):
        x, y = rng.randrange(n), rng.randrange(n)
        e = check(cfg, x, y)
        z1 = fmlm3.digits(cfg, e["z1"] % (1 << cfg.pset.l))  # type: ignore[operator]
        w_printed = fmlm3.inct(cfg, fmlm3.nct(cfg, z1))
        bad_step12 += _symmetric_s(cfg, w_printed) != e["S"]
        # Q' = B^P - 1 = R instead of 2^l + 1: steps 14-16 then reconstruct a wrong t.
        q_typo = cfg.r
        s_typo = from_words(e["z4"], cfg.pset.u) % q_typo  # type: ignore[arg-type]
        half = (-s_typo * pow(2, -1, q_typo)) % q_typo
        parity = (x & y & 1) ^ (e["m"] & n & 1)  # type: ignore[operator]
        t_typo = half if half % 2 == parity else half + q_typo
        bad_q += t_typo != e["t"]
    assert bad_step12 == 20 and bad_q == 20


def test_transform_count_and_output_forms(rng: random.Random) -> None:
    n = random_modulus_for(rng, "fmlm3", 256)
    cfg = fmlm3.configure(n, {})
    x, y = rng.randrange(n), rng.randrange(n)
    t, (tt, tt2) = fmlm3.mont_mul_spectral(
        cfg, fmlm3.spectral(cfg, x), fmlm3.spectral(cfg, y), x & y & 1
    )
    assert t == montgomery_oracle(x, y, cfg.r, n)
    d = fmlm3.digits(cfg, t)
    assert tt == tf.ct(cfg.ring, d) and tt2 == tf.nct(cfg.ring, d)


# -- bad input ----------------------------------------------------------------------------------


def test_shared_factor_is_named() -> None:
    with pytest.raises(ModulusError, match="shares the factor 3 with 2\\^1024 - 1"):
        fmlm3.configure(3 * (2**1021 + 1), {})
    with pytest.raises(ModulusError, match="factor 7 with 2\\^3072 - 1"):
        fmlm3.configure(7 * (2**3060 + 3), {"P": 128, "u": 24})
    with pytest.raises(ModulusError, match="factor 641"):
        fmlm3.configure(641 * (2**1000 + 1) + 1282, {"P": 64, "u": 16})


def test_too_wide_and_bad_sets() -> None:
    with pytest.raises(ModulusError, match="must be < R"):
        fmlm3.configure(2**65 - 3, {"P": 8, "u": 8})
    with pytest.raises(ParameterError, match=r"eq. \(13\)"):
        fmlm3.configure(2**95 + 3, {"P": 16, "u": 6, "m_exp": 16, "alg": 2})
    with pytest.raises(ParameterError, match=r"eq. \(19\)"):
        fmlm3.configure(2**1023 + 3, {"P": 32, "u": 32, "m_exp": 96, "alg": 3})
    with pytest.raises(ParameterError, match="power of two"):
        fmlm3.configure(2**95 + 3, {"P": 24})
    with pytest.raises(ParameterError, match="m_exp"):
        fmlm3.configure(2**95 + 3, {"P": 32, "u": 3, "m_exp": 40})
    with pytest.raises(ParameterError, match="v >= 3"):
        fmlm3.configure(11, {"P": 4, "u": 1, "m_exp": 2})
    with pytest.raises(ParameterError):
        fmlm3.configure(11, {"alg": 4})


def test_operands_out_of_range(rng: random.Random) -> None:
    n = random_modulus_for(rng, "fmlm3", 64)
    cfg = configure("fmlm3", n)
    for x, y in [(n, 0), (0, n), (-1, 1), (2 * n, 1)]:
        with pytest.raises(OperandError):
            fmlm3.mont_mul(cfg, x, y)


def test_random_modulus_for_keeps_only_coprime_moduli(rng: random.Random) -> None:
    for bits in (64, 1024):
        n = random_modulus_for(rng, "fmlm3", bits)
        assert math.gcd(n, fmlm3.configure(n, {}).r) == 1
