"""Python ints into and out of the native engine: every path that copies an int's digits.

On CPython 3.11 the binding copies the int's 30-bit digits to and from 64-bit limbs itself;
these tests cross every digit/limb boundary (bit lengths 0 to 300, those around every block
of 32 digits, then random ones up to 20000), powers of two and all-ones values, and the refusals (negative, too long, not an int),
through ``FastModulus.mul``, residues (``m(x)``, ``int(a)``) and ``powm``.
"""

from __future__ import annotations

import random

import pytest
from conftest import scaled
from montlab.errors import ModulusError, OperandError, OperandTypeError

native = pytest.importorskip("montlab._native", reason="native extension not built")


def values(rng: random.Random, bits: int) -> list[int]:
    """Structured values of exactly ``bits`` bits (0 for bits = 0): 2^(b-1), all ones, random."""
    if bits == 0:
        return [0]
    top = 1 << (bits - 1)
    return [top, (1 << bits) - 1, top | rng.getrandbits(bits - 1) if bits > 1 else 1]


@pytest.mark.parametrize("mod_bits", [64, 1024, 20000])
def test_round_trips_across_digit_boundaries(mod_bits: int, rng: random.Random) -> None:
    n = rng.getrandbits(mod_bits) | 1 | (1 << (mod_bits - 1))
    m = native.FastModulus(n)
    # Whole blocks of 32 digits (960 bits, 15 limbs) are copied with fixed shifts: lengths
    # around each block boundary, then random ones.
    blocks = [b + d for b in range(960, mod_bits + 1, 960) for d in (-31, -30, -1, 0, 1, 30, 64)]
    lengths = (
        list(range(min(mod_bits, 300) + 1))
        + [b for b in blocks if 0 < b <= mod_bits]
        + [rng.randrange(1, mod_bits + 1) for _ in range(scaled(50))]
    )
    for bits in lengths:
        for x in values(rng, bits):
            want = x % n
            assert int(m(x)) == want, f"residue of a {bits}-bit value"
            if x < n:
                assert m.mul(x, 1) == x, f"mul of a {bits}-bit value"
                assert native.powm(x, 1, n) == x, f"powm of a {bits}-bit value"


def test_powm_takes_long_and_short_arguments(rng: random.Random) -> None:
    for bits in [2, 63, 64, 65, 127, 128, 129, 1000, 4097]:
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        for e in [0, 1, 2, 65537, (1 << 64) - 1, 1 << 64, rng.getrandbits(300)]:
            for x in [0, 1, n - 1, rng.randrange(n)]:
                assert native.powm(x, e, n) == pow(x, e, n), (bits, e)


def test_powm_refusals_are_unchanged(rng: random.Random) -> None:
    n = rng.getrandbits(1024) | 1 | (1 << 1023)
    with pytest.raises(OperandError, match="base"):
        native.powm(-1, 3, n)
    with pytest.raises(OperandError, match="exponent"):
        native.powm(3, -1, n)
    with pytest.raises(ModulusError):
        native.powm(3, 5, -n)
    with pytest.raises(ModulusError):  # the modulus is checked first, as before
        native.powm(-1, 5, 0)
    with pytest.raises(OperandError, match="base"):
        native.powm(n, 5, n)
    with pytest.raises(OperandTypeError, match="bool"):
        native.powm(True, 5, n)
    with pytest.raises(OperandTypeError, match="float"):
        native.powm(3.0, 5, n)

    class Index:
        def __index__(self) -> int:
            return 3

    # Objects with __index__ and int subclasses take the general path.
    assert native.powm(Index(), 5, n) == pow(3, 5, n)

    class Sub(int):
        pass

    assert native.powm(Sub(3), Sub(5), Sub(n)) == pow(3, 5, n)
