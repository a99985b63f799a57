"""The naive CIOS model against Python's pow (it is the oracle of the native engine)."""

from __future__ import annotations

import random

import pytest
from conftest import hexdump, scaled
from montlab import Modulus
from montlab.ref import cios
from montlab.testing import edge_moduli, edge_operands, random_modulus


@pytest.mark.parametrize("w", [8, 16, 32, 64])
def test_random(rng: random.Random, w: int) -> None:
    for _ in range(scaled(40)):
        bits = rng.randrange(2, 1100)
        n = random_modulus(rng, bits)
        cfg = cios.configure(n, {"w": w})
        assert cfg.r == 1 << (w * -(-bits // w))
        x, y = rng.randrange(n), rng.randrange(n)
        z = cios.mont_mul(cfg, x, y)
        assert z == x * y * cfg.r_inv % n, hexdump(n=n, x=x, y=y, z=z)


@pytest.mark.parametrize("bits", [2, 3, 63, 64, 65, 128, 129, 521])
def test_edges(bits: int) -> None:
    for n in edge_moduli(bits):
        cfg = cios.configure(n, {"w": 64})
        for x, y in edge_operands(n):
            assert cios.mont_mul(cfg, x, y) == x * y * cfg.r_inv % n, hexdump(n=n, x=x, y=y)


def test_trace_has_one_entry_per_word() -> None:
    n = 2**200 - 75
    cfg = cios.configure(n, {"w": 64})
    tr: list = []
    cios.mont_mul(cfg, n - 1, n - 1, tr)
    assert [e["i"] for e in tr] == list(range(cfg.s))
    assert all(len(e["t"]) == cfg.s + 1 for e in tr)


def test_pow_matches_python(rng: random.Random) -> None:
    n = random_modulus(rng, 512)
    m = Modulus(n)
    b, e = rng.randrange(n), rng.getrandbits(512)
    assert m.pow(b, e, "cios", "ref") == pow(b, e, n)
