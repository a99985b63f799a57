"""Moduli above the spectral range (2^22 bits) are refused with a clear error, not run on the
quadratic word kernel for minutes (issue: a 10^7-bit product took 49 s, silently)."""

from __future__ import annotations

import random
import time

import montlab
import pytest
from montlab import _native
from montlab.errors import ModulusError


def test_max_bits_is_the_spectral_range() -> None:
    assert _native.MAX_BITS == 1 << 22


def test_largest_modulus_is_accepted() -> None:
    n = (1 << (_native.MAX_BITS - 1)) | 1
    assert _native.FastModulus(n).bits == _native.MAX_BITS


def _moduli(bits: int) -> list[int]:
    """A sparse modulus and a dense one: a random odd N builds no cheaper than a sparse one."""
    rng = random.Random(bits)
    return [(1 << (bits - 1)) | 1, rng.getrandbits(bits) | (1 << (bits - 1)) | 1]


@pytest.mark.parametrize("bits", [_native.MAX_BITS + 1, 10_000_000])
def test_larger_moduli_are_refused_at_once(bits: int) -> None:
    for n in _moduli(bits):
        t = time.monotonic()
        with pytest.raises(ModulusError, match=rf"{bits} bits; .* up to {_native.MAX_BITS} bits"):
            _native.FastModulus(n)
        with pytest.raises(ModulusError, match="largest transform"):
            montlab.powm(3, 65537, n)
        with pytest.raises(ModulusError, match="largest transform"):
            montlab.Modulus(n).pow(3, 65537)
        assert time.monotonic() - t < 5
