"""montlab: large-integer Montgomery modular multiplication.

Reference models of five published multiplier designs (:mod:`montlab.ref`), fast Rust engines
(:mod:`montlab._native`) and their RTL (:mod:`montlab.hw`), all under one algorithm registry.

>>> import montlab
>>> m = montlab.Modulus(2**127 - 1)
>>> m.pow(3, 1000, algo="mwr2mm") == pow(3, 1000, 2**127 - 1)
True
"""

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
    "powm",
    "native_available",
    "MontlabError",
    "ModulusError",
    "OperandError",
    "OperandTypeError",
    "ParameterError",
]

# A table written by `montlab tune` (or named by MONTLAB_THRESHOLDS) replaces the generic one.
from montlab.tune import apply_installed  # noqa: E402

apply_installed()
