"""The benchmark's view of ``montlab._native``: the one place that knows its API.

Contract. :class:`NativeAdapter` picks, once per process, the fastest native object the built
module offers, so the harness keeps working while the native API grows:

* the *fast type* is a class of ``montlab._native`` constructed from the modulus alone and
  offering every method of :data:`FAST_METHODS` (classes other than ``Cios`` first, then by
  name); without one, ``Cios`` (CIOS Montgomery, R = 2^(64 * limbs)) is used;
* ``modmul`` binds one call of that type's ``mul``. With ``to_mont``/``from_mont`` (``Cios``)
  the operands are put in Montgomery form first and the product is read back through
  ``from_mont`` (untimed), so the check compares a*b mod N, as for every peer. Without them,
  ``mul`` is read as x*y*R^-1 mod N when the object has an ``r`` property, else as x*y mod N
  (``FastModulus``: ordinary operands). Results must be fully reduced;
* ``pow_many`` binds a batch modexp: the fast type's ``pow_many`` or a module-level
  ``pow_many``, with the exponent given once or once per base, probed (with exponent 1 on one
  base) in that order. Without any, :meth:`NativeAdapter.pow_many` returns None and the caller
  measures ``montlab.powm`` single calls.

Each bound call is one Python-level call of a native method; conversions are done beforehand.
Where the native object reports its kernel (``mul_kernel``, ``pow_kernel``), the description
of the call names it.
"""

from __future__ import annotations

from functools import partial
from types import ModuleType
from typing import Any, Callable, Sequence

from montlab.errors import MontlabError

#: The methods that mark the engine's fast type.
FAST_METHODS = ("mul", "sqr", "pow", "pow_many")


def find_fast_type(native: ModuleType) -> type | None:
    """The fast type of ``native`` (see the module contract), or None."""
    found = [
        obj
        for name in dir(native)
        if isinstance(obj := getattr(native, name), type)
        and all(callable(getattr(obj, m, None)) for m in FAST_METHODS)
    ]
    found.sort(key=lambda t: (t.__name__ == "Cios", t.__name__))
    return found[0] if found else None


class NativeAdapter:
    """montlab's native entry points for the benchmark."""

    def __init__(self, native: ModuleType | None = None) -> None:
        if native is None:
            try:
                from montlab import _native
            except ImportError:  # pragma: no cover - the test environment builds it
                raise MontlabError(
                    "montlab bench needs the native engine; build it with `make demo` "
                    "(or `pip install -e .`)"
                ) from None
            from montlab.tune import ensure_applied

            ensure_applied()  # the tuned table, as montlab.FastModulus would use
            native = _native
        self.native: Any = native
        self.fast_type = find_fast_type(native)
        self.mul_type: Any = self.fast_type or native.Cios

    def describe(self) -> dict[str, str]:
        """What each operation measures on the montlab side."""
        return {
            "modmul": f"_native.{self.mul_type.__name__}.mul",
            "modexp": "montlab.powm",
            "batch": self.batch_label(),
            "modexp_sec": "montlab.FastModulus(n).pow_sec",
        }

    def batch_label(self) -> str:
        if self.fast_type is not None:
            return f"_native.{self.fast_type.__name__}.pow_many"
        if callable(getattr(self.native, "pow_many", None)):
            return "_native.pow_many"
        return "montlab.powm single calls (no pow_many in the native module)"

    def modmul(
        self, n: int, a: int, b: int
    ) -> tuple[Callable[[], object], Callable[[object], int], str]:
        """(call, read, detail): ``call()`` is one product, ``read`` gives a*b mod N from it."""
        obj = self.mul_type(n)
        name = f"_native.{self.mul_type.__name__}.mul{_kernel(obj, 'mul_kernel')}"
        if callable(getattr(obj, "to_mont", None)) and callable(getattr(obj, "from_mont", None)):
            x, y = obj.to_mont(a), obj.to_mont(b)
            return partial(obj.mul, x, y), lambda z: _reduced(obj.from_mont(z), n), name
        r = getattr(obj, "r", None)
        if isinstance(r, int):
            # x*y*R^-1 mod N times R is x*y mod N.
            return partial(obj.mul, a, b), lambda z: _reduced(z, n) * r % n, name
        return partial(obj.mul, a, b), lambda z: _reduced(z, n), name

    def pow_many(
        self, n: int, bases: Sequence[int], e: int
    ) -> tuple[Callable[[], object], Callable[[object], list[int]], str] | None:
        """(call, read, detail) for ``bases[i]^e mod N`` in one batch call, or None."""
        bases = list(bases)
        # Each candidate: a callable and how it takes (bases, exponent).
        Shape = Callable[[list[int], int], tuple[Any, ...]]
        candidates: list[tuple[Callable[..., Any], Shape]] = []
        obj: Any = None
        if self.fast_type is not None:
            obj = self.fast_type(n)
            candidates += [
                (obj.pow_many, lambda bs, x: (bs, x)),
                (obj.pow_many, lambda bs, x: (bs, [x] * len(bs))),
            ]
        f = getattr(self.native, "pow_many", None)
        if callable(f):
            candidates += [
                (f, lambda bs, x: (bs, x, n)),
                (f, lambda bs, x: (bs, [x] * len(bs), n)),
            ]
        wrong = []
        for fn, shape in candidates:
            try:  # exponent 1 on one base: cheap, and shows which argument shape is accepted
                probe = fn(*shape([bases[0]], 1))
            except TypeError:
                continue
            if [int(v) for v in probe] != [bases[0] % n]:
                wrong.append(getattr(fn, "__qualname__", repr(fn)))
                continue
            args = shape(bases, e)
            detail = self.batch_label() + _kernel(obj, "pow_kernel")
            if isinstance(args[1], list):
                detail += " (one exponent per base)"

            def read(z: Any) -> list[int]:
                return [_reduced(v, n) for v in z]

            return partial(fn, *args), read, detail
        if wrong:
            raise MontlabError(f"{', '.join(wrong)}: wrong result for base^1 mod N")
        return None


def _kernel(obj: Any, prop: str) -> str:
    """ " (kernel: K)" when the native object reports which kernel it runs, else ""."""
    kernel = getattr(obj, prop, None)
    return f" (kernel: {kernel})" if isinstance(kernel, str) else ""


def _reduced(z: Any, n: int) -> int:
    """z as an int, checked fully reduced (0 <= z < N)."""
    v = int(z)
    if not 0 <= v < n:
        raise MontlabError(f"result not fully reduced: {v:#x} is outside [0, N)")
    return v
