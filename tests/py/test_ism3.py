"""ism3 reference model (ISM3 Algorithms 1 and 3, SPEC 2.1-2.5) against Python's pow."""

from __future__ import annotations

import random

import pytest
from conftest import hexdump, montgomery_oracle, scaled
from montlab import spectral_params as sp
from montlab import transforms as tf
from montlab.api import Modulus
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import ism3
from montlab.testing import random_modulus

TABLE2 = sp.ism3_sets()


def check(cfg: ism3.Config, x: int, y: int) -> dict:
    trace: list = []
    z = ism3.mont_mul(cfg, x, y, trace)
    n = cfg.modulus
    assert z % n == montgomery_oracle(x, y, cfg.r, n), hexdump(n=n, x=x, y=y, z=z)
    assert 0 <= z < 2 * n
    return trace[0]


@pytest.mark.parametrize("pset", TABLE2, ids=[f"l{s.l}" for s in TABLE2])
def test_table2_sets_against_pow(rng: random.Random, pset: sp.Ism3Set) -> None:
    params = {"v": 1 << pset.t, "d": pset.d}
    count = scaled(6 if pset.d <= 64 else 2)
    for bits in (pset.l, pset.l - 1, pset.l // 2):
        for _ in range(count):
            n = random_modulus(rng, bits)
            cfg = ism3.configure(n, params)
            assert (cfg.pset.q, cfg.pset.d, cfg.pset.mu, cfg.pset.s) == (
                pset.q,
                pset.d,
                pset.mu,
                pset.s,
            )
            e = check(cfg, rng.randrange(2 * n), rng.randrange(2 * n))
            assert e["epsilon"] in (0, 1, 2)
        # adversarial: x = y = 2n - 1 with n just below 2^(s*mu - 2)
    n = (1 << pset.l) - 1
    check(ism3.configure(n, params), 2 * n - 1, 2 * n - 1)


def test_outputs_feed_back_without_final_subtraction(rng: random.Random) -> None:
    """A square-and-multiply chain on z < 2n outputs (no final subtraction) matches pow."""
    for bits in (200, 400, 900):
        n = random_modulus(rng, bits)
        cfg = ism3.configure(n, {})
        r2 = cfg.r * cfg.r % n
        b = rng.randrange(n)
        e = rng.getrandbits(64)
        bm = ism3.mont_mul(cfg, b, r2)
        acc = ism3.mont_mul(cfg, 1, r2)
        for i in reversed(range(e.bit_length())):
            acc = ism3.mont_mul(cfg, acc, acc)
            if e >> i & 1:
                acc = ism3.mont_mul(cfg, acc, bm)
            assert acc < 2 * n
        assert ism3.mont_mul(cfg, acc, 1) % n == pow(b, e, n)


def test_spectral_interface(rng: random.Random) -> None:
    n = random_modulus(rng, 206)
    cfg = ism3.configure(n, {"v": 32, "d": 32})
    x, y = rng.randrange(2 * n), rng.randrange(2 * n)
    z, big_z = ism3.mont_mul_spectral(cfg, ism3.fft(cfg, x), ism3.fft(cfg, y))
    assert z % n == montgomery_oracle(x, y, cfg.r, n)
    digits = [(z >> (13 * j)) & 0x1FFF for j in range(16)] + [0] * 16
    assert big_z == tf.ism3_ntt(cfg.ring, digits)


def test_lookahead_epsilon_and_division(rng: random.Random) -> None:
    """Eq. (7): truncated quotient + epsilon equals the exact eval(zc) / r (asserted inside the
    model); epsilon is the carry into column s."""
    seen = set()
    for _ in range(scaled(200)):
        n = random_modulus(rng, 206)
        cfg = ism3.configure(n, {"v": 32, "d": 32})
        e = check(cfg, rng.randrange(2 * n), rng.randrange(2 * n))
        assert e["z"] == e["trunc"] + e["epsilon"]  # type: ignore[operator]
        seen.add(e["epsilon"])
    assert seen and seen <= {0, 1, 2}  # the carry into column s (SPEC 2.4)


def test_algorithm1_corrected_and_printed(rng: random.Random) -> None:
    v = 32
    q = (1 << v) + 1
    for a in (q, 2 * q, -q, q - 1, -1, 0, q * q, (1 << 64) - 1, -(1 << 64) + 1):
        assert tf.ism3_alg1(a, v) == a % q
    assert tf.ism3_alg1(q, v, printed=True) == q  # erratum 3: "A > q" leaves q unreduced
    floor_bad = 0
    for _ in range(scaled(2000)):
        a = rng.randrange(-(1 << 64) + 1, 1 << 64)
        tf.ism3_alg1_step(a, v)  # asserts the redundant range [-2^v+1, 2^v-1]
        if a < 0:  # the floor-division split breaks that range for about 1/4 of negative A
            r = (a & ((1 << v) - 1)) - (a >> v)
            floor_bad += not -(1 << v) + 1 <= r <= (1 << v) - 1
    assert floor_bad > 0


def test_sign_magnitude_step_cannot_be_looped() -> None:
    """docs/errata.md: the sign-magnitude step leaves every A in (-2^v, 0) unchanged, so the
    Algorithm 1 loop "while A >= q or A < 0" would never end with it; the loop needs the floor
    split, and the sign-magnitude step is the one-shot redundant reduction only."""
    v = 32
    for a in (-1, -5, -(1 << v) + 1):
        assert tf.ism3_alg1_step(a, v) == a  # a fixed point: no progress towards [0, q)
        assert tf.ism3_alg1(a, v) == a % ((1 << v) + 1)  # the floor split terminates


def test_params_auto_and_explicit() -> None:
    assert ism3.configure(2**100 + 1, {}).pset == TABLE2[0]
    assert ism3.configure(2**1000 + 1, {}).pset == TABLE2[3]
    cfg = ism3.configure(2**100 + 1, {"v": 64})
    assert (cfg.v, cfg.d, cfg.mu) == (64, 64, 29)
    cfg = ism3.configure(2**100 + 1, {"v": 32, "d": 32, "mu": 12})
    assert cfg.mu == 12 and cfg.r == 1 << (16 * 12)


def test_bad_input() -> None:
    with pytest.raises(ModulusError, match=r"eq. \(6\)"):
        ism3.configure((1 << 206) + 1, {"v": 32, "d": 32})
    with pytest.raises(ParameterError, match=r"eq. \(5\)"):
        ism3.configure(2**100 + 1, {"v": 32, "d": 32, "mu": 14})
    with pytest.raises(ParameterError, match="power of two"):
        ism3.configure(2**100 + 1, {"v": 48})
    with pytest.raises(ParameterError, match="power of two"):
        ism3.configure(2**100 + 1, {"v": 32, "d": 128})
    with pytest.raises(ParameterError, match="look-ahead"):
        ism3.configure(2**20 + 1, {"v": 32, "d": 64, "mu": 6})
    cfg = ism3.configure(2**100 + 1, {})
    n = cfg.modulus
    for x, y in [(2 * n, 0), (0, 2 * n)]:
        with pytest.raises(OperandError, match="2\\*N"):
            ism3.mont_mul(cfg, x, y)
    with pytest.raises(OperandError, match="negative"):
        ism3.mont_mul(cfg, -1, 0)


def test_modulus_api_pow_chains_through_z_below_2n(rng: random.Random) -> None:
    n = random_modulus(rng, 512)
    b, e = rng.randrange(n), rng.getrandbits(128)
    assert Modulus(n).pow(b, e, "ism3", "ref") == pow(b, e, n)
