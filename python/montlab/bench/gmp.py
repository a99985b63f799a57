"""GMP's integer functions through ctypes, on a given ``libgmp`` (the one
:mod:`montlab.bench.native_peers` builds for this CPU, or any other).

Contract: :func:`load` binds the few ``mpz`` functions the benchmark needs (their exported
names, ``__gmpz_*``) or raises :class:`Unavailable` with a reason. An ``mpz_t`` is GMP's
public struct ``{int alloc; int size; mp_limb_t *d}``; values go in and out by
``mpz_import`` / ``mpz_export`` of big-endian bytes. Every ``mpz_t`` an :class:`Arena` makes is
cleared by its :meth:`Arena.close`, which is idempotent. Each timed call is one ctypes call,
whose own cost (a few hundred ns) is part of the figure, so the benchmark uses this only for
exponentiations (milliseconds), not for single products.
"""

from __future__ import annotations

import ctypes
from typing import Any

from montlab.bench.openssl import bind_functions

_P = ctypes.c_void_p
_SIZE = ctypes.c_size_t


class Mpz(ctypes.Structure):
    """GMP's ``__mpz_struct``."""

    _fields_ = [("alloc", ctypes.c_int), ("size", ctypes.c_int), ("d", _P)]


_MPZ = ctypes.POINTER(Mpz)

# name: (restype, argtypes)
_FUNCTIONS: dict[str, tuple[Any, list[Any]]] = {
    "__gmpz_init": (None, [_MPZ]),
    "__gmpz_clear": (None, [_MPZ]),
    "__gmpz_import": (None, [_MPZ, _SIZE, ctypes.c_int, _SIZE, ctypes.c_int, _SIZE, _P]),
    "__gmpz_export": (
        _P,
        [_P, ctypes.POINTER(_SIZE), ctypes.c_int, _SIZE, ctypes.c_int, _SIZE, _MPZ],
    ),
    "__gmpz_sizeinbase": (_SIZE, [_MPZ, ctypes.c_int]),
    "__gmpz_powm": (None, [_MPZ, _MPZ, _MPZ, _MPZ]),
    "__gmpz_powm_sec": (None, [_MPZ, _MPZ, _MPZ, _MPZ]),
}


class Unavailable(Exception):
    """libgmp cannot be loaded or lacks a needed function; the message says which."""


class LibGmp:
    """The bound functions of one loaded libgmp."""

    def __init__(self, lib: ctypes.CDLL, path: str) -> None:
        self.path = path
        self.fn = bind_functions(lib, path, _FUNCTIONS, Unavailable)
        try:
            raw = ctypes.c_char_p.in_dll(lib, "__gmp_version").value
        except ValueError:
            raw = None
        self.version = f"GMP {raw.decode()}" if raw else "GMP (unknown version)"

    def arena(self) -> Arena:
        return Arena(self)


class Arena:
    """The ``mpz_t`` values of one benchmark case; :meth:`close` clears them all."""

    def __init__(self, lib: LibGmp) -> None:
        self.fn = lib.fn
        self._all: list[Mpz] = []

    def new(self) -> Mpz:
        """A fresh ``mpz_t`` holding 0."""
        z = Mpz()
        self.fn["__gmpz_init"](ctypes.byref(z))
        self._all.append(z)
        return z

    def mpz(self, x: int) -> Mpz:
        """An ``mpz_t`` holding x >= 0."""
        if x < 0:
            raise ValueError("only non-negative values are imported")
        z = self.new()
        data = x.to_bytes(max(1, (x.bit_length() + 7) // 8), "big")
        self.fn["__gmpz_import"](ctypes.byref(z), len(data), 1, 1, 1, 0, data)
        return z

    def to_int(self, z: Mpz) -> int:
        """The value of a non-negative ``mpz_t``."""
        nbytes = (self.fn["__gmpz_sizeinbase"](ctypes.byref(z), 2) + 7) // 8
        buf = ctypes.create_string_buffer(max(1, nbytes))
        count = _SIZE(0)
        self.fn["__gmpz_export"](buf, ctypes.byref(count), 1, 1, 1, 0, ctypes.byref(z))
        return int.from_bytes(buf.raw[: count.value], "big")

    def close(self) -> None:
        for z in self._all:
            self.fn["__gmpz_clear"](ctypes.byref(z))
        self._all = []


def load(path: str) -> LibGmp:
    """The libgmp at ``path``, or :class:`Unavailable`."""
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        raise Unavailable(f"cannot load {path}: {exc}") from None
    return LibGmp(lib, path)
