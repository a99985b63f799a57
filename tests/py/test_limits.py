"""The size range of FastModulus and powm.

Above fmlm3's range (SPECTRAL_MAX_BITS = 2^22 bits) and up to MAX_BITS = 2^25 bits every
variable-time operation runs on ntt_redc, whatever the threshold table says, and pow_sec (the
quadratic constant-time kernel) is refused. Larger moduli are refused at once with a clear error,
not run on the quadratic word kernel for minutes (issue: a 10^7-bit product took 49 s,
silently). The results are checked against gmpy2.
"""

from __future__ import annotations

import random
import time

import gmpy2
import montlab
import pytest
from montlab import _native
from montlab.errors import ModulusError


def test_the_ranges() -> None:
    assert _native.SPECTRAL_MAX_BITS == 1 << 22
    assert _native.MAX_BITS == 1 << 25


def test_largest_modulus_is_accepted() -> None:
    n = (1 << (_native.MAX_BITS - 1)) | 1
    assert _native.FastModulus(n).bits == _native.MAX_BITS


def _moduli(bits: int) -> list[int]:
    """A sparse modulus and a dense one: a random odd N builds no cheaper than a sparse one."""
    rng = random.Random(bits)
    return [(1 << (bits - 1)) | 1, rng.getrandbits(bits) | (1 << (bits - 1)) | 1]


@pytest.mark.parametrize("bits", [_native.MAX_BITS + 1, 100_000_000])
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


def _check_beyond_fmlm3(bits: int, rng: random.Random) -> None:
    """Every entry point at ``bits`` (above spectral's range) against gmpy2, on ntt_redc."""
    n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
    m = _native.FastModulus(n)
    assert (m.mul_kernel, m.pow_kernel, m.pow_kernel_for(1 << 20)) == ("ntt_redc",) * 3
    x, y = rng.randrange(n), n - 1
    g = gmpy2.mpz(n)
    assert m.mul(x, y) == x * y % g
    assert m.sqr(y) == 1  # (N - 1)^2 = 1: the all-but-one operand
    assert m.mul_many([x, y], [y, y]) == [x * y % g, 1]
    assert m.pow(x, 3) == gmpy2.powmod(x, 3, g)
    assert m.pow_many([x, 2], [7, 3]) == [gmpy2.powmod(x, 7, g), 8]
    assert m.pow(y, 2**64 + 1) == y  # an odd power of -1
    assert montlab.powm(x, 5, n) == gmpy2.powmod(x, 5, g)
    with pytest.raises(ModulusError, match=rf"pow_sec .* up to {_native.SPECTRAL_MAX_BITS} bits"):
        m.pow_sec(x, 3)


def test_just_above_spectral_runs_ntt_redc(rng: random.Random) -> None:
    _check_beyond_fmlm3(_native.SPECTRAL_MAX_BITS + 1, rng)


@pytest.mark.slow
@pytest.mark.parametrize("bits", [10_000_000, _native.MAX_BITS])
def test_ten_million_bits_and_the_largest(bits: int, rng: random.Random) -> None:
    _check_beyond_fmlm3(bits, rng)
