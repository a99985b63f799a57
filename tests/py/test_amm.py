"""The naive AMM model (the oracle of the native IFMA word kernel) against Python's arithmetic."""

from __future__ import annotations

import random

import pytest
from conftest import hexdump, scaled
from montlab import Modulus
from montlab.errors import OperandError
from montlab.ref import amm
from montlab.testing import edge_moduli, edge_operands, random_modulus


def exact(cfg: amm.Config, x: int, y: int) -> int:
    """(x y + M N) / r with M = -x y N^-1 mod r: the one integer AMM can return."""
    n, r = cfg.modulus, cfg.r
    return (x * y + (-x * y * pow(n, -1, r)) % r * n) // r


@pytest.mark.parametrize("w", [2, 16, 52, 64])
def test_random(rng: random.Random, w: int) -> None:
    for _ in range(scaled(40)):
        bits = rng.randrange(2, 1100)
        n = random_modulus(rng, bits)
        cfg = amm.configure(n, {"w": w})
        assert cfg.r == 1 << (w * -(-(bits + 2) // w)) and cfg.r >= 4 * n
        x, y = rng.randrange(2 * n), rng.randrange(2 * n)
        z = amm.mont_mul(cfg, x, y)
        assert z == exact(cfg, x, y) and 0 <= z < 2 * n, hexdump(n=n, x=x, y=y, z=z)


@pytest.mark.parametrize("bits", [2, 3, 50, 51, 52, 53, 103, 104, 105, 521, 2048])
def test_edges_and_the_2n_bound(bits: int) -> None:
    for n in edge_moduli(bits):
        cfg = amm.configure(n, {})
        for x, y in [*edge_operands(n, 2), (2 * n - 1, 2 * n - 1)]:
            z = amm.mont_mul(cfg, x, y)
            assert z == exact(cfg, x, y) and z < 2 * n, hexdump(n=n, x=x, y=y, z=z)


def test_outputs_chain_without_reduction(rng: random.Random) -> None:
    # Squaring the lazy output again and again stays below 2N and tracks pow.
    n = 2**1021 - 1 - 2 * rng.randrange(2**20)
    cfg = amm.configure(n, {})
    x = rng.randrange(n)
    z, r_inv = x * cfg.r % n, pow(cfg.r, -1, n)
    for i in range(1, 30):
        z = amm.mont_mul(cfg, z, z)
        assert z < 2 * n
        assert z * r_inv % n == pow(x, 2**i, n), i


def test_trace_and_digits() -> None:
    n = 2**2048 - 159
    cfg = amm.configure(n, {})
    assert (cfg.w, cfg.k) == (52, 40)  # the digit count of the 52-bit IFMA kernel at 2048 bits
    tr: list = []
    amm.mont_mul(cfg, n - 1, 2 * n - 1, tr)
    assert [e["i"] for e in tr] == list(range(cfg.k))
    assert all(0 <= e["m"] < 2**52 and 0 <= e["y_i"] < 2**52 for e in tr)


def test_range_and_pow() -> None:
    n = 2**127 - 1
    m = Modulus(n)
    with pytest.raises(OperandError):
        m.mul(2 * n, 1, "amm")
    assert m.pow(3, 2**127 - 3, "amm") == pow(3, 2**127 - 3, n)
