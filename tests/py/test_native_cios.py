"""The native ``cios`` engine (montlab._native) against Python's own arithmetic.

Checks Cios.mul / to_mont / from_mont / pow and powm on random moduli of 2..4096 bits, on
structured edge moduli, at the operand edges, and that every bad input raises the right
montlab.errors class with a message naming the problem.
"""

from __future__ import annotations

import random

import pytest
from conftest import hexdump, scaled
from montlab.errors import ModulusError, MontlabError, OperandError, OperandTypeError
from montlab.testing import edge_moduli, random_modulus

native = pytest.importorskip("montlab._native", reason="native extension not built")
Cios = native.Cios
powm = native.powm


def r_of(n: int) -> int:
    """R = 2^(64*s), s = ceil(bitlen(N)/64)."""
    return 1 << (64 * -(-n.bit_length() // 64))


def check_all(n: int, x: int, y: int, e: int, c: Cios | None = None) -> None:
    c = c or Cios(n)
    r = r_of(n)
    r_inv = pow(r, -1, n)
    msg = hexdump(N=n, x=x, y=y, e=e)
    assert c.mul(x, y) == x * y * r_inv % n, msg
    assert c.to_mont(x) == x * r % n, msg
    assert c.from_mont(x) == x * r_inv % n, msg
    assert c.from_mont(c.to_mont(y)) == y, msg
    assert c.pow(x, e) == pow(x, e, n), msg
    assert powm(y, e, n) == pow(y, e, n), msg


def test_constants() -> None:
    for n in (3, 2**64 - 59, 2**64 + 1, 2**127 - 1, 2**521 - 1, (1 << 4096) - 1):
        c = Cios(n)
        s = -(-n.bit_length() // 64)
        assert c.modulus == n
        assert c.limbs == s
        assert c.r == 1 << (64 * s) == r_of(n)
        assert c.r2 == c.r * c.r % n
        assert (c.n0_inv * n) % 2**64 == 2**64 - 1
        assert 0 <= c.n0_inv < 2**64
    assert "limbs=2" in repr(Cios(2**127 - 1))
    assert "cios" in native.ALGORITHMS


def test_random_moduli(rng: random.Random) -> None:
    for _ in range(scaled(60)):
        bits = rng.choice(
            [2, 3, 63, 64, 65, 127, 128, 129, 255, 256, 512, 1024, 2048, 4096, rng.randint(2, 4096)]
        )
        n = random_modulus(rng, bits)
        x, y = rng.randrange(n), rng.randrange(n)
        e = rng.getrandbits(rng.choice([1, 8, 64, 300, 800, bits]))
        check_all(n, x, y, e)


@pytest.mark.parametrize(
    "bits", [2, 3, 17, 63, 64, 65, 127, 128, 129, 191, 192, 193, 1024, 4095, 4096]
)
def test_edge_moduli(bits: int, rng: random.Random) -> None:
    moduli = set(edge_moduli(bits)) | {(1 << bits) - 1, (1 << bits) + 1, (1 << bits) - 3}
    for n in sorted(m for m in moduli if m > 1 and m % 2):
        c = Cios(n)
        hi = n - 1
        for x, y in [
            (0, 0),
            (1, 1),
            (hi, hi),
            (hi, 1),
            (n // 2, hi),
            (rng.randrange(n), rng.randrange(n)),
        ]:
            check_all(n, x, y, rng.getrandbits(80), c)


def test_exponent_edges() -> None:
    n = 2**255 - 19
    c = Cios(n)
    for base in (0, 1, 2, n - 1):
        assert c.pow(base, 0) == 1 == powm(base, 0, n)
        assert c.pow(base, 1) == base == powm(base, 1, n)
        assert c.pow(base, n - 1) == pow(base, n - 1, n)
    assert c.pow(0, 5) == 0
    assert Cios(3).pow(2, 2) == 1
    assert powm(3, 10**100, 2**521 - 1) == pow(3, 10**100, 2**521 - 1)
    assert powm(5, 2**5000 + 12345, (1 << 4096) - 1) == pow(5, 2**5000 + 12345, (1 << 4096) - 1)


def test_index_objects_are_accepted() -> None:
    class Idx:
        def __index__(self) -> int:
            return 5

    assert Cios(7).mul(Idx(), 3) == Cios(7).mul(5, 3)  # type: ignore[arg-type]
    assert Cios(Idx()).modulus == 5  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [0, 1, -1, -3, -(2**5000) - 1])
def test_modulus_too_small(n: int) -> None:
    with pytest.raises(ModulusError, match="greater than 1"):
        Cios(n)
    with pytest.raises(ModulusError, match="greater than 1"):
        powm(0, 1, n)


@pytest.mark.parametrize("n", [2, 4, 2**64, 2**4096, 10**100])
def test_even_modulus(n: int) -> None:
    with pytest.raises(ModulusError, match="must be odd"):
        Cios(n)
    with pytest.raises(ModulusError, match="must be odd"):
        powm(1, 1, n)


@pytest.mark.parametrize("n", [3, 2**64 - 59, 2**521 - 1])
def test_operands_out_of_range(n: int) -> None:
    c = Cios(n)
    huge_negative = -(2**100000)
    for bad in (n, n + 1, 2 * n, 2**70000):
        with pytest.raises(OperandError, match="operand x is out of range"):
            c.mul(bad, 0)
        with pytest.raises(OperandError, match="operand y is out of range"):
            c.mul(0, bad)
        with pytest.raises(OperandError, match="operand x is out of range"):
            c.to_mont(bad)
        with pytest.raises(OperandError, match="operand x is out of range"):
            c.from_mont(bad)
        with pytest.raises(OperandError, match="operand base is out of range"):
            c.pow(bad, 3)
        with pytest.raises(OperandError, match="operand base is out of range"):
            powm(bad, 3, n)
    for neg in (-1, -n, huge_negative):
        with pytest.raises(OperandError, match="operand x is negative"):
            c.mul(neg, 0)
        with pytest.raises(OperandError, match="operand y is negative"):
            c.mul(0, neg)
        with pytest.raises(OperandError, match="operand x is negative"):
            c.to_mont(neg)
        with pytest.raises(OperandError, match="operand x is negative"):
            c.from_mont(neg)
        with pytest.raises(OperandError, match="operand base is negative"):
            c.pow(neg, 1)
        with pytest.raises(OperandError, match="operand base is negative"):
            powm(neg, 1, n)
        with pytest.raises(OperandError, match="negative exponent"):
            c.pow(1, neg)
        with pytest.raises(OperandError, match="negative exponent"):
            powm(1, neg, n)


def test_errors_are_montlab_value_errors() -> None:
    for call in (lambda: Cios(4), lambda: Cios(7).mul(7, 0), lambda: powm(2, -1, 7)):
        with pytest.raises(MontlabError):
            call()
        with pytest.raises(ValueError):
            call()


@pytest.mark.parametrize("bad", [1.0, 3.5, "7", b"7", None, [7], 7j])
def test_non_int_raises_type_error(bad: object) -> None:
    c = Cios(7)
    calls = [
        lambda: Cios(bad),
        lambda: c.mul(bad, 1),
        lambda: c.mul(1, bad),
        lambda: c.to_mont(bad),
        lambda: c.from_mont(bad),
        lambda: c.pow(bad, 1),
        lambda: c.pow(1, bad),
        lambda: powm(bad, 1, 7),
        lambda: powm(1, bad, 7),
        lambda: powm(1, 1, bad),
    ]
    for call in calls:
        with pytest.raises(OperandTypeError):  # a TypeError and a MontlabError
            call()


def test_properties_are_read_only() -> None:
    c = Cios(7)
    for name in ("modulus", "r", "r2", "limbs", "n0_inv"):
        with pytest.raises(AttributeError):
            setattr(c, name, 1)
