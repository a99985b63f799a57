"""The montlab error hierarchy.

Every error montlab raises on bad input is a ``MontlabError`` (a ``ValueError``), so callers can
catch one class; an argument of the wrong type (bool, bytes, str, float, ...) is an
``OperandTypeError``, which is also a ``TypeError``. The native extension maps its Rust
``MontError`` onto these same classes, so the Python models and the Rust engines fail the same
way on the same input.
"""

from __future__ import annotations

import operator


class MontlabError(ValueError):
    """Base class of every input error raised by montlab."""


class ModulusError(MontlabError):
    """The modulus is unusable: even, at most 1, or too wide for the chosen parameters."""


class OperandError(MontlabError):
    """An operand is negative or outside the algorithm's input range, or an exponent is negative."""


class ParameterError(MontlabError):
    """An unknown algorithm, an unknown parameter, or an illegal parameter combination."""


class MissingToolError(ParameterError):
    """A tool or package a command needs is not installed; the message names the extra."""

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what} is not installed: pip install 'montlab[{extra}]'")


class OperandTypeError(MontlabError, TypeError):
    """An argument that should be an integer is not one (bool, bytes, str, float, ...)."""


__all__ = ["MontlabError", "ModulusError", "OperandError", "OperandTypeError", "ParameterError"]


def as_int(v: object, what: str) -> int:
    """``v`` as an int: ints and objects with ``__index__`` (gmpy2, numpy), never bool."""
    try:
        if not isinstance(v, bool):
            return operator.index(v)  # type: ignore[arg-type]
    except TypeError:
        pass
    raise OperandTypeError(f"{what} must be an integer, got {type(v).__name__}")


def show_int(v: int) -> str:
    """An integer for an error message: hex up to 256 bits, else its size."""
    if v.bit_length() <= 256:
        return hex(v)
    return f"{'-' if v < 0 else ''}a {v.bit_length()}-bit integer"
