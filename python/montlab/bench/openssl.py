"""OpenSSL's bignum Montgomery arithmetic through the system libcrypto, by ctypes.

Contract: :func:`load` finds libcrypto with ``ctypes.util.find_library("crypto")`` and binds the
few ``BN_*`` functions the benchmark needs, or raises :class:`Unavailable` with a reason. The
names are those of OpenSSL 1.1 and 3 (``OpenSSL_version``; 1.0's ``SSLeay_version`` is a
fallback for the version string only). ``BN_num_bytes`` is a macro in every version, so it is
computed from ``BN_num_bits``. Every object a :class:`Arena` allocates (``BIGNUM``,
``BN_CTX``, ``BN_MONT_CTX``) is freed by its :meth:`Arena.close`, which is idempotent.

Each timed call is one ctypes call, whose own cost (a few hundred ns) is part of the figure;
:meth:`Arena.null_call` gives a call of the same shape on trivial work, so the report can
show that floor.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import partial
from typing import Any, Callable

_P = ctypes.c_void_p
_INT = ctypes.c_int

# name: (restype, argtypes). Pointers are c_void_p: the default int restype would truncate them.
_FUNCTIONS: dict[str, tuple[Any, list[Any]]] = {
    "BN_new": (_P, []),
    "BN_free": (None, [_P]),
    "BN_bin2bn": (_P, [ctypes.c_char_p, _INT, _P]),
    "BN_bn2bin": (_INT, [_P, ctypes.c_char_p]),
    "BN_num_bits": (_INT, [_P]),
    "BN_CTX_new": (_P, []),
    "BN_CTX_free": (None, [_P]),
    "BN_MONT_CTX_new": (_P, []),
    "BN_MONT_CTX_free": (None, [_P]),
    "BN_MONT_CTX_set": (_INT, [_P, _P, _P]),
    "BN_to_montgomery": (_INT, [_P, _P, _P, _P]),
    "BN_from_montgomery": (_INT, [_P, _P, _P, _P]),
    "BN_mod_mul_montgomery": (_INT, [_P, _P, _P, _P, _P]),
    "BN_mod_exp_mont": (_INT, [_P, _P, _P, _P, _P, _P]),
    "BN_mod_exp_mont_consttime": (_INT, [_P, _P, _P, _P, _P, _P]),
}
#: Bound where the library has them (OpenSSL 3.0 and later).
_OPTIONAL: dict[str, tuple[Any, list[Any]]] = {
    # (rr1, a1, p1, m1, mont1, rr2, a2, p2, m2, mont2, ctx): two modexps in one call, run
    # interleaved on AVX-512 IFMA at 1024 to 4096 bits, else one after the other.
    "BN_mod_exp_mont_consttime_x2": (_INT, [_P] * 11),
}


class Unavailable(Exception):
    """libcrypto cannot be found or lacks a needed function; the message says which."""


def bind_functions(
    lib: ctypes.CDLL,
    path: str,
    functions: dict[str, tuple[Any, list[Any]]],
    error: type[Exception],
    missing: str = "{path} has no {name}",
) -> dict[str, Any]:
    """``lib``'s functions by name, each given its ``(restype, argtypes)``; ``error`` with the
    ``missing`` message (``{path}``, ``{name}``) for the first one it lacks. Shared by the
    libcrypto and libgmp bindings."""
    out: dict[str, Any] = {}
    for name, (restype, argtypes) in functions.items():
        f = getattr(lib, name, None)
        if f is None:
            raise error(missing.format(path=path, name=name))
        f.restype, f.argtypes = restype, argtypes
        out[name] = f
    return out


class OpenSSLError(RuntimeError):
    """A libcrypto call reported failure (NULL or 0)."""


class LibCrypto:
    """The bound functions of one loaded libcrypto."""

    def __init__(self, lib: ctypes.CDLL, path: str) -> None:
        self.path = path
        missing = "{path} has no {name} (OpenSSL >= 1.1 needed)"
        self.fn = bind_functions(lib, path, _FUNCTIONS, Unavailable, missing)
        present = {k: v for k, v in _OPTIONAL.items() if hasattr(lib, k)}
        self.fn.update(bind_functions(lib, path, present, Unavailable, missing))
        self.version = _version_string(lib)

    def arena(self) -> Arena:
        return Arena(self)


class Arena:
    """The objects of one benchmark case; :meth:`close` frees them all."""

    def __init__(self, lib: LibCrypto) -> None:
        self.lib = lib
        self.fn = lib.fn
        self._bns: list[ctypes.c_void_p] = []
        self._monts: list[ctypes.c_void_p] = []
        self.ctx = self._check(self.fn["BN_CTX_new"](), "BN_CTX_new")

    @staticmethod
    def _check(ptr: int | None, what: str) -> ctypes.c_void_p:
        if not ptr:
            raise OpenSSLError(f"{what} returned NULL")
        return ctypes.c_void_p(ptr)

    def _ok(self, status: int, what: str) -> None:
        if status != 1:
            raise OpenSSLError(f"{what} failed")

    def new(self) -> ctypes.c_void_p:
        """A fresh BIGNUM, freed by :meth:`close`."""
        p = self._check(self.fn["BN_new"](), "BN_new")
        self._bns.append(p)
        return p

    def bn(self, x: int) -> ctypes.c_void_p:
        """A BIGNUM holding x >= 0, freed by :meth:`close`."""
        data = x.to_bytes(max(1, (x.bit_length() + 7) // 8), "big")
        p = self._check(self.fn["BN_bin2bn"](data, len(data), None), "BN_bin2bn")
        self._bns.append(p)
        return p

    def to_int(self, p: ctypes.c_void_p) -> int:
        nbytes = (self.fn["BN_num_bits"](p) + 7) // 8
        buf = ctypes.create_string_buffer(max(1, nbytes))
        written = self.fn["BN_bn2bin"](p, buf)
        return int.from_bytes(buf.raw[:written], "big")

    def mont(self, n: ctypes.c_void_p) -> ctypes.c_void_p:
        """A BN_MONT_CTX for the odd modulus n, freed by :meth:`close`."""
        m = self._check(self.fn["BN_MONT_CTX_new"](), "BN_MONT_CTX_new")
        self._monts.append(m)
        self._ok(self.fn["BN_MONT_CTX_set"](m, n, self.ctx), "BN_MONT_CTX_set")
        return m

    def to_mont(self, x: ctypes.c_void_p, mont: ctypes.c_void_p) -> ctypes.c_void_p:
        r = self.new()
        self._ok(self.fn["BN_to_montgomery"](r, x, mont, self.ctx), "BN_to_montgomery")
        return r

    def from_mont(self, x: ctypes.c_void_p, mont: ctypes.c_void_p) -> int:
        r = self.new()
        self._ok(self.fn["BN_from_montgomery"](r, x, mont, self.ctx), "BN_from_montgomery")
        return self.to_int(r)

    def null_call(self) -> Callable[[], object]:
        """A libcrypto call on trivial work (``BN_num_bits`` of 1): the floor of a ctypes call."""
        return partial(self.fn["BN_num_bits"], self.bn(1))

    def close(self) -> None:
        for m in self._monts:
            self.fn["BN_MONT_CTX_free"](m)
        for p in self._bns:
            self.fn["BN_free"](p)
        self._monts, self._bns = [], []
        if self.ctx:
            self.fn["BN_CTX_free"](self.ctx)
            self.ctx = ctypes.c_void_p(None)


def _version_string(lib: ctypes.CDLL) -> str:
    for name in ("OpenSSL_version", "SSLeay_version"):
        f = getattr(lib, name, None)
        if f is not None:
            f.restype, f.argtypes = ctypes.c_char_p, [_INT]
            raw = f(0)
            return raw.decode("ascii", "replace") if raw else "OpenSSL (unknown version)"
    return "OpenSSL (unknown version)"


def load() -> LibCrypto:
    """The system libcrypto, or :class:`Unavailable`."""
    path = ctypes.util.find_library("crypto")
    if not path:
        raise Unavailable("libcrypto not found (ctypes.util.find_library('crypto'))")
    try:
        lib = ctypes.CDLL(path)
    except OSError as exc:
        raise Unavailable(f"cannot load {path}: {exc}") from None
    return LibCrypto(lib, path)
