"""montlab.Modulus: every algorithm id, every layer, against Python's pow."""

from __future__ import annotations

import random

import pytest
from conftest import hexdump, scaled
from montlab import (
    Modulus,
    ModulusError,
    OperandError,
    OperandTypeError,
    ParameterError,
    native_available,
    powm,
    registry,
)
from montlab.api import native_runs
from montlab.testing import random_modulus, random_modulus_for

IDS = registry.ids()
LAYERS = [
    (a.id, layer)
    for a in registry.all_algorithms()
    for layer in a.layers
    if layer == "ref" or (layer == "native" and native_runs(a.id))
]


@pytest.mark.parametrize("algo", IDS)
@pytest.mark.parametrize("bits", [16, 17, 64, 255, 1024])
def test_mul_random(rng: random.Random, algo: str, bits: int) -> None:
    for _ in range(scaled(3)):
        n = random_modulus_for(rng, algo, bits)
        m = Modulus(n)
        cfg = m.config(algo)
        x, y = rng.randrange(cfg.in_bound * n), rng.randrange(cfg.in_bound * n)
        z = m.mul(x, y, algo)
        assert z % n == x * y * pow(cfg.r, -1, n) % n, hexdump(n=n, x=x, y=y, z=z)
        assert 0 <= z < cfg.bound * n


@pytest.mark.parametrize("algo, layer", LAYERS)
def test_mont_domain_round_trip(rng: random.Random, algo: str, layer: str) -> None:
    n = random_modulus_for(rng, algo, 200)
    m = Modulus(n)
    x = rng.randrange(n)
    xm = m.to_mont(x, algo, layer)
    assert xm % n == x * m.config(algo).r % n
    assert m.from_mont(xm, algo, layer) == x


# The bit-serial PE models of Huang et al.'s architectures take 20-30 s for one 1024-bit
# exponentiation; they run under the opt-in `slow` marker (every other model runs here).
_SLOW_REF = {"mwr2mm_arch1", "mwr2mm_arch2"}
RSA_LAYERS = [
    pytest.param(a, layer, marks=pytest.mark.slow)
    if a in _SLOW_REF and layer == "ref"
    else (a, layer)
    for a, layer in LAYERS
]


@pytest.mark.parametrize("algo, layer", RSA_LAYERS)
def test_pow_rsa_size_public_exponent(rng: random.Random, algo: str, layer: str) -> None:
    n = random_modulus_for(rng, algo, 1024)
    b = rng.randrange(n)
    assert Modulus(n).pow(b, 65537, algo, layer) == pow(b, 65537, n)


@pytest.mark.parametrize("algo, layer", LAYERS)
def test_pow_small_cases(algo: str, layer: str) -> None:
    n = 2**89 - 1
    m = Modulus(n)
    for b, e in [
        (0, 0),
        (0, 5),
        (1, 0),
        (5, 0),
        (n - 1, 1),
        (n - 1, 2),
        (2, n - 2),
        (3, 2**64 + 1),
    ]:
        assert m.pow(b, e, algo, layer) == pow(b, e, n), (b, e)


@pytest.mark.parametrize("bits", [2048, 4096])
def test_pow_full_exponent_cios(rng: random.Random, bits: int) -> None:
    n = random_modulus(rng, bits)
    b, e = rng.randrange(n), rng.getrandbits(bits)
    layer = "native" if native_available() else "ref"
    assert powm(b, e, n, "cios", layer) == pow(b, e, n)


#: The cycle-by-cycle PE models take seconds per 2048-bit product: their full-exponent check
#: runs at 1024 bits (about 1500 products each).
_FULL_EXP_BITS = {"mwr2mm_arch1": 1024, "mwr2mm_arch2": 1024}


@pytest.mark.slow
@pytest.mark.parametrize("algo", IDS)
def test_pow_full_exponent_every_id(rng: random.Random, algo: str) -> None:
    """RSA-size modulus and a full-length exponent through every reference model."""
    bits = _FULL_EXP_BITS.get(algo, 2048)
    n = random_modulus_for(rng, algo, bits)
    b, e = rng.randrange(n), rng.getrandbits(bits) | (1 << (bits - 1))
    assert Modulus(n).pow(b, e, algo, "ref") == pow(b, e, n)


def test_walter_chaining_without_reduction(rng: random.Random) -> None:
    """radix2 with walter=1 feeds its unreduced outputs straight back in."""
    n = random_modulus(rng, 300)
    m = Modulus(n)
    cfg = m.config("radix2", walter=1)
    z = rng.randrange(2 * n)
    acc = z
    for _ in range(scaled(50)):
        acc = m.mul(acc, acc, "radix2", walter=1)
        assert acc < 2 * n
        z = z * z * cfg.r_inv % n
        assert acc % n == z


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, -7, 2, 100, 2**64])
def test_bad_modulus(n: int) -> None:
    with pytest.raises(ModulusError):
        Modulus(n)


@pytest.mark.parametrize("algo", [a for a in IDS if {"n", "l"} & set(registry.get(a).params)])
def test_modulus_too_wide_for_the_datapath(algo: str) -> None:
    width = "n" if "n" in registry.get(algo).params else "l"
    with pytest.raises(ModulusError, match="too wide"):
        Modulus(2**65 - 1).config(algo, **{width: 64})


def test_modulus_sharing_a_factor_with_r_is_rejected() -> None:
    """McLaughlin: gcd(N, 2^l - 1) must be 1 (SPEC 1.3); the message names the factor."""
    with pytest.raises(ModulusError, match="shares the factor 3 with 2\\^1024 - 1"):
        Modulus(3 * (2**1021 + 1)).config("mclaughlin", l=1024)


@pytest.mark.parametrize("algo, layer", LAYERS)
def test_bad_operands(algo: str, layer: str) -> None:
    n = 2**61 - 1
    m = Modulus(n)
    hi = m.config(algo).in_bound * n
    for x, y in [(-1, 1), (1, -1), (hi, 1), (1, hi), (2**200, 0)]:
        with pytest.raises(OperandError):
            m.mul(x, y, algo, layer)
    with pytest.raises(OperandError, match="negative exponent"):
        m.pow(2, -1, algo, layer)
    for b in (-1, n, n + 1):
        with pytest.raises(OperandError):
            m.pow(b, 3, algo, layer)
    with pytest.raises(OperandError):
        m.to_mont(n, algo, layer)
    with pytest.raises(OperandTypeError):  # a TypeError, not an OperandError
        m.mul(1.5, 2, algo, layer)  # type: ignore[arg-type]


def test_bad_parameters() -> None:
    m = Modulus(2**61 - 1)
    with pytest.raises(ParameterError, match="unknown algorithm"):
        m.mul(1, 2, "fft9000")
    with pytest.raises(ParameterError, match="unknown parameter"):
        m.mul(1, 2, "radix2", w=16)
    with pytest.raises(ParameterError, match="layer 'native'"):
        m.mul(1, 2, "mwr2mm", "native")
    with pytest.raises(ParameterError):
        m.mul(1, 2, "mwr4mm", w=15)
    with pytest.raises(ParameterError):
        m.mul(1, 2, "radix2", walter=1, n=62)
    if native_available():
        with pytest.raises(ParameterError, match="w = 64"):
            m.mul(1, 2, "cios", "native", w=32)


def test_powm_keeps_a_bounded_context_cache(rng: random.Random) -> None:
    from montlab.api import DIRECT_BITS, POWM_CACHE, ContextCache

    POWM_CACHE.clear()
    n = random_modulus(rng, DIRECT_BITS)
    b = rng.randrange(n)
    assert powm(b, 65537, n) == powm(b, 65537, n) == pow(b, 65537, n)
    assert (POWM_CACHE.hits, POWM_CACHE.misses, len(POWM_CACHE)) == (1, 1, 1)
    assert POWM_CACHE.get(n) is POWM_CACHE.get(n)
    for _ in range(POWM_CACHE.entries + 3):
        k = random_modulus(rng, DIRECT_BITS)
        assert powm(3, 5, k) == pow(3, 5, k)
    assert len(POWM_CACHE) == POWM_CACHE.entries
    # Smaller moduli bypass the cache (their setup costs less than a lookup) ...
    small_n = random_modulus(rng, DIRECT_BITS - 1)
    before = (POWM_CACHE.hits, POWM_CACHE.misses)
    assert powm(b % small_n, 65537, small_n) == pow(b % small_n, 65537, small_n)
    assert (POWM_CACHE.hits, POWM_CACHE.misses) == before
    # ... unless an algorithm or a layer is named, which the cached Modulus serves.
    assert powm(5, 7, small_n, layer="ref") == pow(5, 7, small_n)
    assert POWM_CACHE.misses == before[1] + 1
    small = ContextCache(entries=8, bits=3000)  # room for one 2048-bit modulus
    first, second = random_modulus(rng, 2048), random_modulus(rng, 2048)
    small.get(first)
    small.get(second)
    assert len(small) == 1 and small.get(second) is small.get(second) and small.misses == 2
    for bad, err in ((10, ModulusError), (-5, ModulusError), ("7", OperandTypeError)):
        with pytest.raises(err):
            powm(2, 3, bad)  # type: ignore[arg-type]


def test_powm_from_many_threads(rng: random.Random) -> None:
    from concurrent.futures import ThreadPoolExecutor

    moduli = [random_modulus(rng, bits) for bits in (64, 1024, 2048)]
    cases = [(rng.choice(moduli), rng.getrandbits(200)) for _ in range(scaled(60))]
    cases = [(n, rng.randrange(n), e) for n, e in cases]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda c: powm(c[1], c[2], c[0]), cases))
    assert got == [pow(b, e, n) for n, b, e in cases]
