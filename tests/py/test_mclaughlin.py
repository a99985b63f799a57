"""mclaughlin reference model (FMLM3 Algorithm 1, SPEC 1.3) against Python's pow."""

from __future__ import annotations

import math
import random

import pytest
from conftest import hexdump, scaled
from montlab.errors import ModulusError, OperandError, OperandTypeError, ParameterError
from montlab.ref import mclaughlin as mc


def oracle(cfg: mc.Config, x: int, y: int) -> int:
    n = cfg.modulus
    return x * y * pow(cfg.r, -1, n) % n


def coprime_modulus(rng: random.Random, l: int, lo: int | None = None) -> int:  # noqa: E741
    r = (1 << l) - 1
    lo = 3 if lo is None else lo
    while True:
        n = rng.randrange(lo, r) | 1
        if n < r and math.gcd(n, r) == 1:
            return n


@pytest.mark.parametrize(
    "l, count", [(16, 2000), (32, 2000), (64, 2000), (128, 1000), (1024, 300), (2048, 100)]
)
def test_random_against_pow(rng: random.Random, l: int, count: int) -> None:  # noqa: E741
    for _ in range(scaled(count)):
        n = coprime_modulus(rng, l, lo=rng.choice([3, 1 << (l - 1)]))
        cfg = mc.configure(n, {"l": l})
        assert cfg.r == (1 << l) - 1 and cfg.q_prime == (1 << l) + 1 and cfg.l == l
        assert (n * cfg.n_prime) % cfg.r == cfg.r - 1
        for _ in range(4):
            x, y = rng.randrange(n), rng.randrange(n)
            trace: list = []
            z = mc.mont_mul(cfg, x, y, trace)
            assert z == oracle(cfg, x, y), hexdump(n=n, x=x, y=y, z=z)
            (e,) = trace
            assert set(e) == {"m", "S", "s", "t"}
            assert e["t"] * cfg.r == x * y + e["m"] * n  # type: ignore[operator]


def test_spec6_item5_step17_corner() -> None:
    a, b = 2**32 - 5, 2**32 - 17
    n = a * b
    cfg = mc.configure(n, {"l": 64})  # u = 8, v = 3
    trace: list = []
    assert mc.mont_mul(cfg, a, b, trace) == 0
    assert trace[0]["t"] == n  # so the printed "t > N" would return N, not 0
    assert trace[0]["m"] == cfg.r - 1


def test_edge_moduli(rng: random.Random) -> None:
    cases = []
    for l in (16, 17, 31, 64, 127, 1024):  # noqa: E741
        r = (1 << l) - 1
        for n in (r - 2, r - 4, (1 << (l - 1)) + 1, (r // 2) | 1, 3, 5, 7, 11, 13):
            if 1 < n < r and n % 2 and math.gcd(n, r) == 1:
                cases.append((n, l))
    assert len(cases) > 20
    for n, l in cases:  # noqa: E741
        cfg = mc.configure(n, {"l": l})
        for x, y in [(n - 1, n - 1), (0, n - 1), (1, 1), (n - 1, 1)]:
            assert mc.mont_mul(cfg, x, y) == oracle(cfg, x, y), hexdump(n=n, x=x, y=y)
        for _ in range(3):
            x, y = rng.randrange(n), rng.randrange(n)
            assert mc.mont_mul(cfg, x, y) == oracle(cfg, x, y), hexdump(n=n, x=x, y=y)


def test_auto_l() -> None:
    assert mc.configure(0xFFFB, {"l": None}).l == 16
    assert mc.configure(0xFFFB, {}).l == 16
    assert mc.configure(0xFFFB, {"l": "auto"}).l == 16
    # N = 2^k - 1 needs l = k + 1 (N < 2^l - 1 strictly).
    assert mc.configure(2**13 - 1, {"l": None}).l == 14
    cfg = mc.configure(2**13 - 1, {"l": None})
    assert mc.mont_mul(cfg, 2**13 - 2, 2**13 - 2) == oracle(cfg, 2**13 - 2, 2**13 - 2)


def test_gcd_rejection_names_factor(rng: random.Random) -> None:
    n = 3 * coprime_modulus(rng, 1020, lo=1 << 1019)
    with pytest.raises(ModulusError, match=r"shares the factor 3 with 2\^1024 - 1"):
        mc.configure(n, {"l": 1024})
    with pytest.raises(ModulusError, match=r"factor 5 with 2\^16 - 1.*l = 17 would work"):
        mc.configure(5 * 13 * 97, {"l": 16})  # 2^16 - 1 = 3*5*17*257
    # N = 3 = 2^2 - 1 takes auto l = 3 (R = 7).
    assert mc.configure(3, {"l": None}).l == 3
    # Auto l does not skip l with a shared factor: 0xFFF3 = 3 * 21841 and 2^16 - 1 = 3 * 21845.
    with pytest.raises(ModulusError, match=r"factor 3 with 2\^16 - 1.*l = 17 would work"):
        mc.configure(0xFFF3, {"l": None})


def test_bad_modulus_and_params() -> None:
    for n in (0, 1, 2, 100, -7):
        with pytest.raises(ModulusError):
            mc.configure(n, {"l": None})
    with pytest.raises(ModulusError, match="< R"):
        mc.configure((1 << 16) - 1, {"l": 16})
    with pytest.raises(ModulusError, match="< R"):
        mc.configure((1 << 20) + 1, {"l": 16})
    for bad in (1, 0, -3, 2.0, True, "x"):
        with pytest.raises(ParameterError):
            mc.configure(0xFFFB, {"l": bad})
    with pytest.raises(ParameterError, match="unknown parameter"):
        mc.configure(0xFFFB, {"w": 4})


def test_bad_operands() -> None:
    cfg = mc.configure(0xFFFB, {"l": 16})
    for x, y in [(-1, 0), (0xFFFB, 0), (0, 0xFFFB), (1 << 20, 1)]:
        with pytest.raises(OperandError):
            mc.mont_mul(cfg, x, y)
    with pytest.raises(OperandTypeError):  # a TypeError, not an OperandError
        mc.mont_mul(cfg, 1.0, 1)  # type: ignore[arg-type]


def test_config_contract() -> None:
    cfg = mc.configure(0xFFFB, {"l": 16})
    assert (cfg.algo, cfg.bound, cfg.in_bound, cfg.iterations) == ("mclaughlin", 1, 1, 1)
    assert cfg.R == cfg.r == 0xFFFF and cfg.r % 2 == 1
    assert cfg.r_inv * cfg.r % cfg.modulus == 1
    assert mc.ID == "mclaughlin"
