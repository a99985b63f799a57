"""ntt64 reference model (NTT64 Algorithm 1 with NTT products, SPEC 4.1-4.3) against pow."""

from __future__ import annotations

import random

import pytest
from conftest import hexdump, montgomery_oracle, scaled
from montlab import spectral_params as sp
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import ntt64
from montlab.testing import random_modulus


def check(cfg: ntt64.Config, x: int, y: int) -> dict:
    trace: list = []
    z = ntt64.mont_mul(cfg, x, y, trace)
    n = cfg.modulus
    assert z == montgomery_oracle(x, y, cfg.r, n), hexdump(n=n, x=x, y=y, z=z)
    e = trace[0]
    assert e["c"] < 2 * n and e["max_coeff"] <= sp.ntt64_coeff_max(cfg.b)  # type: ignore[operator]
    return e


@pytest.mark.parametrize("bits, b", [(8192, 16), (12288, 24), (1024, 2), (8000, 16), (13824, 27)])
def test_paper_sizes_against_pow(rng: random.Random, bits: int, b: int) -> None:
    for _ in range(scaled(2)):
        n = random_modulus(rng, bits)
        cfg = ntt64.configure(n, {})
        assert cfg.b == b and cfg.r == 1 << bits
        check(cfg, rng.randrange(n), rng.randrange(n))


@pytest.mark.parametrize("bits", [8192, 12288])
def test_all_ones_modulus(bits: int) -> None:
    """SPEC 6: M = 2^bits - 1 with X = Y = M - 1; the value before the subtraction stays < 2M."""
    m = (1 << bits) - 1
    e = check(ntt64.configure(m, {}), m - 1, m - 1)
    assert e["T"] == (m - 1) ** 2


def test_explicit_b_and_errors(rng: random.Random) -> None:
    n = random_modulus(rng, 4000)
    cfg = ntt64.configure(n, {"b": 27})
    assert cfg.b == 27
    check(cfg, n - 1, n - 2)
    with pytest.raises(ParameterError):
        ntt64.configure(n, {"b": 28})
    with pytest.raises(ModulusError, match="512 samples of b = 16"):
        ntt64.configure(random_modulus(rng, 8193), {"b": 16})
    with pytest.raises(ParameterError, match="max b = 27"):
        ntt64.configure(random_modulus(rng, 13825), {})
    with pytest.raises(OperandError):
        ntt64.mont_mul(cfg, n, 1)


def test_small_moduli_and_edges(rng: random.Random) -> None:
    for bits in (2, 3, 17, 64, 513):
        n = random_modulus(rng, bits)
        cfg = ntt64.configure(n, {})
        for x, y in [(0, 0), (n - 1, n - 1), (1, n - 1)]:
            check(cfg, x, y)
