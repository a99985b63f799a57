"""One type rule for every entry point, in the Python and the native layers (issue: reliability).

Integers are ints or objects with ``__index__`` (gmpy2.mpz, numpy integers); bool, bytes, str,
float and the rest raise :class:`montlab.errors.OperandTypeError`, which is both a
``MontlabError`` and a ``TypeError``. A list argument must be a sequence of integers, never
bytes or str (iterating bytes would give small ints).
"""

from __future__ import annotations

from typing import Any, Callable

import gmpy2
import montlab
import pytest
from montlab import _native
from montlab.api import Modulus
from montlab.errors import MontlabError, OperandTypeError

N = 101
F = _native.FastModulus(N)
C = _native.Cios(N)
M = Modulus(N)

#: Entry points that take (a, b): each computes something mod N from two integers.
PAIRS: dict[str, Callable[[Any, Any], Any]] = {
    "montlab.powm": lambda a, b: montlab.powm(a, b, N),
    "Modulus.mul": lambda a, b: M.mul(a, b),
    "Modulus.pow": lambda a, b: M.pow(a, b),
    "Modulus.pow ref": lambda a, b: M.pow(a, b, layer="ref"),
    "FastModulus.mul": lambda a, b: F.mul(a, b),
    "FastModulus.pow": lambda a, b: F.pow(a, b),
    "FastModulus.pow_sec": lambda a, b: F.pow_sec(a, b),
    "Cios.mul": lambda a, b: C.mul(a, b),
    "Cios.pow": lambda a, b: C.pow(a, b),
    "_native.powm": lambda a, b: _native.powm(a, b, N),
}


class Index:
    """The smallest object with __index__."""

    def __init__(self, v: int) -> None:
        self.v = v

    def __index__(self) -> int:
        return self.v


@pytest.mark.parametrize("name", list(PAIRS))
@pytest.mark.parametrize("wrap", [gmpy2.mpz, Index], ids=["mpz", "__index__"])
def test_index_objects_are_integers(name: str, wrap: Callable[[int], Any]) -> None:
    call = PAIRS[name]
    assert call(wrap(7), wrap(5)) == call(7, 5)
    assert call(wrap(7), 5) == call(7, wrap(5)) == call(7, 5)


@pytest.mark.parametrize("name", list(PAIRS))
@pytest.mark.parametrize("bad", [True, False, b"7", "7", 7.0, None, 7j], ids=repr)
def test_non_integers_raise_one_type_error(name: str, bad: object) -> None:
    call = PAIRS[name]
    for args in ((bad, 5), (7, bad)):
        with pytest.raises(OperandTypeError) as exc:
            call(*args)
        assert isinstance(exc.value, TypeError) and isinstance(exc.value, MontlabError)


@pytest.mark.parametrize("bad", [True, b"\x65", "101", 101.0])
def test_moduli_of_the_wrong_type(bad: object) -> None:
    for make in (Modulus, _native.FastModulus, _native.Cios, lambda n: montlab.powm(2, 3, n)):
        with pytest.raises(OperandTypeError):
            make(bad)


def test_batches_take_sequences_of_integers() -> None:
    assert F.mul_many([gmpy2.mpz(2), Index(3)], (4, 5)) == [8, 15]
    assert F.pow_many([2, 3], Index(2)) == [4, 9]
    assert F.pow_many([2, 3], [gmpy2.mpz(1), 2]) == [2, 9]
    for xs, ys in ((b"12", b"34"), ("12", [3, 4]), ([1, 2], bytearray(b"\x03\x04")), (5, [1])):
        with pytest.raises(OperandTypeError):
            F.mul_many(xs, ys)
    for bad in ([True], [1.0], b"\x01", True, "1", [1, "2"]):
        with pytest.raises(OperandTypeError):
            F.pow_many([2], bad)
