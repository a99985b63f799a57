"""The RTL architectures' specs (one module per architecture; see :mod:`.base`).

:func:`get` and :func:`all_specs` list the architectures in registry order: an architecture
exists when its registry id names it in the ``rtl`` key of ``algorithms.toml``.
"""

from __future__ import annotations

from functools import cache

from montlab import registry
from montlab.errors import ParameterError
from montlab.hw.specs.base import HwParams, HwSpec
from montlab.hw.specs.drmmm import Drmmm
from montlab.hw.specs.fmlm3 import Fmlm3
from montlab.hw.specs.ism3 import Ism3
from montlab.hw.specs.mwr2mm_arch1 import Mwr2mmArch1
from montlab.hw.specs.mwr2mm_arch2 import Mwr2mmArch2
from montlab.hw.specs.mwr2mm_tk import Mwr2mmTk
from montlab.hw.specs.mwr4mm_arch2 import Mwr4mmArch2
from montlab.hw.specs.ntt64 import Ntt64

__all__ = ["HwParams", "HwSpec", "all_specs", "get"]

_CLASSES: dict[str, type[HwSpec]] = {
    c.name: c for c in (Mwr2mmTk, Mwr2mmArch1, Mwr2mmArch2, Mwr4mmArch2, Drmmm, Fmlm3, Ism3, Ntt64)
}


@cache
def _specs() -> dict[str, HwSpec]:
    out: dict[str, HwSpec] = {}
    for a in registry.all_algorithms():
        if a.rtl is None:
            continue
        cls = _CLASSES[a.rtl]
        assert cls.ref == a.id, f"{a.rtl}: spec says ref {cls.ref}, registry says {a.id}"
        out[a.rtl] = cls()
    return out


def all_specs() -> list[HwSpec]:
    """Every RTL architecture, in registry order."""
    return list(_specs().values())


def get(name: str) -> HwSpec:
    """The architecture ``name``; an unknown name is a :class:`ParameterError`."""
    try:
        return _specs()[name]
    except KeyError:
        known = ", ".join(_specs())
        raise ParameterError(f"unknown RTL architecture {name!r}; known: {known}") from None
