"""montlab: large-integer Montgomery modular multiplication.

Reference models of five published multiplier designs (:mod:`montlab.ref`), fast Rust engines
(:class:`montlab.FastModulus`, from :mod:`montlab._native`) and their RTL (:mod:`montlab.hw`), all under one algorithm registry.

>>> import montlab
>>> m = montlab.Modulus(2**127 - 1)
>>> m.pow(3, 1000, algo="mwr2mm") == pow(3, 1000, 2**127 - 1)
True
"""

from typing import TYPE_CHECKING, Any

from montlab.api import Modulus, native_available, powm
from montlab.errors import (
    ModulusError,
    MontlabError,
    OperandError,
    OperandTypeError,
    ParameterError,
)

__version__ = "0.1.0"

__all__ = [
    "Modulus",
    "FastModulus",
    "CrtKey",
    "pow_crt",
    "powm",
    "native_available",
    "MontlabError",
    "ModulusError",
    "OperandError",
    "OperandTypeError",
    "ParameterError",
]

if TYPE_CHECKING:
    from montlab._native import CrtKey, FastModulus, pow_crt


def __getattr__(name: str) -> Any:
    """``montlab.FastModulus``: the native engine's modulus type (see ``montlab._native``);
    ``montlab.pow_crt``, the RSA private operation by CRT (constant time by default), and
    ``montlab.CrtKey``, a key prepared for many of them. The
    tuned threshold table (``montlab tune``, or MONTLAB_THRESHOLDS) is read here, on first use,
    never at import."""
    if name == "FastModulus":
        from montlab import _native
        from montlab.tune import ensure_applied

        ensure_applied()
        return _native.FastModulus
    if name in ("pow_crt", "CrtKey"):
        from montlab import _native

        return getattr(_native, name)
    raise AttributeError(f"module 'montlab' has no attribute {name!r}")
