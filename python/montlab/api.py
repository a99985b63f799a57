"""The Python front door: :class:`Modulus` and the engines behind it.

``Modulus(N)`` validates N once. For any registered algorithm id and layer it builds (and caches)
an engine holding that algorithm's per-modulus constants, and offers ``to_mont``, ``from_mont``,
``mul`` and ``pow`` on top of it. Every algorithm has its own Montgomery constant r (2^n, 2^(kd),
4^ceil(n/2), 2^(64s), ...), which the engine reports.

Ranges (the same for every layer, checked before any work):
  * operands of ``mul`` lie in [0, in_bound*N) (in_bound is 1, or 2 for chaining variants such
    as radix2 with walter = 1); ``mul`` returns z = x*y*r^-1 mod N with 0 <= z < bound*N;
  * ``to_mont`` takes x in [0, N); ``from_mont`` takes [0, in_bound*N) and returns [0, N);
  * ``pow`` takes a base in [0, N) and an exponent >= 0 and returns base^exp mod N, fully
    reduced. Operands >= N are rejected, never silently reduced.

Which kernel runs: an algorithm id runs that algorithm (on the native layer, exactly its Rust
kernel); ``pow`` without one runs the native size table's pick, which :meth:`Modulus.pow_kernel`
names by its registry id.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from types import ModuleType
from typing import Any, Mapping, Protocol, SupportsIndex

from montlab import registry
from montlab.errors import OperandError, ParameterError, as_int, show_int
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands

DEFAULT_ALGO = "cios"
#: The name ``pow`` reports for the size-dispatched path (no algorithm id given).
AUTO = "auto"


class Engine(Protocol):
    """What :class:`Modulus` needs from one algorithm on one layer."""

    algo: str
    layer: str
    config: MontConfig

    def mul(self, x: int, y: int, trace: Trace | None = None) -> int: ...


@dataclass
class RefEngine:
    """A reference model from ``montlab.ref``."""

    algo: str
    config: MontConfig
    module: ModuleType
    layer: str = "ref"

    def mul(self, x: int, y: int, trace: Trace | None = None) -> int:
        return int(self.module.mont_mul(self.config, x, y, trace))


#: The ``montlab._native`` class of each native id (the ids marked "native" in the registry).
NATIVE_CLASSES = {"cios": "Cios", "amm": "Amm", "spectral": "Spectral", "ntt_redc": "NttRedc"}
#: Parameters a native kernel fixes: the model's configuration must have these values.
NATIVE_FIXED = {"cios": {"w": 64}, "amm": {"w": 52}}


class NativeEngine:
    """A Rust kernel from ``montlab._native`` running exactly the algorithm ``algo`` (no size
    dispatch), checked against its reference model's constants."""

    layer = "native"

    def __init__(self, algo: str, config: MontConfig) -> None:
        if algo not in NATIVE_CLASSES:  # pragma: no cover - the registry test keeps them equal
            raise ParameterError(f"{algo}: no native engine")
        for name, value in NATIVE_FIXED.get(algo, {}).items():
            got = getattr(config, name)
            if got != value:
                raise ParameterError(
                    f"{algo}: the native engine uses {name} = {value} (got {name} = {got})"
                )
        self.algo = algo
        self.config = config
        self._impl: Any = None

    @property
    def impl(self) -> Any:
        """The ``montlab._native`` kernel object, built on first use (its setup may be long)."""
        if self._impl is None:
            from montlab import _native

            cls = getattr(_native, NATIVE_CLASSES[self.algo])
            n = self.config.modulus
            impl = cls(n, getattr(self.config, "P")) if self.algo == "spectral" else cls(n)
            if impl.r != self.config.r:  # a parameter the native kernel picks itself (ntt_redc's P)
                raise ParameterError(
                    f"{self.algo}: the native kernel does not take these parameters: it picks "
                    f"its own for this modulus (r = {show_int(impl.r)})"
                )
            self._impl = impl
        return self._impl

    def mul(self, x: int, y: int, trace: Trace | None = None) -> int:
        if trace is not None:
            raise ParameterError(f"{self.algo}: the native layer has no trace; use layer 'ref'")
        return int(self.impl.mul(x, y))

    def pow(self, base: int, exp: int) -> int:
        """base^exp mod N on this kernel (sliding windows, variable time)."""
        return int(self.impl.pow(base, exp))


@cache
def native_available() -> bool:
    """True when the Rust extension is built and importable (asked once)."""
    try:
        from montlab import _native  # noqa: F401
    except ImportError:
        return False
    return True


@cache
def native_runs(algo: str) -> bool:
    """True when the native kernel ``algo`` runs on this machine (``amm`` needs AVX-512 IFMA)."""
    if algo not in NATIVE_CLASSES or not native_available():
        return False
    if algo == "amm":
        from montlab import _native

        try:
            _native.Amm(3)
        except ParameterError:
            return False
    return True


def config_params(algo: str, cfg: MontConfig, given: Mapping[str, Any]) -> dict[str, int | None]:
    """The registry parameters of ``algo`` with "auto" replaced by the value the model chose."""
    out: dict[str, int | None] = {}
    for name, value in registry.resolve_params(algo, given).items():
        if value is None and getattr(cfg, name, None) is not None:
            value = int(getattr(cfg, name))
        out[name] = value
    return out


class Modulus:
    """An odd modulus N > 1 with cached per-algorithm Montgomery engines."""

    def __init__(self, n: SupportsIndex) -> None:
        self.n = as_int(n, "Modulus: N")
        check_modulus("Modulus", self.n)
        self._engines: dict[tuple[str, str, tuple[tuple[str, Any], ...]], Engine] = {}
        self._fast: Any = None

    def __repr__(self) -> str:
        return f"Modulus({self.n:#x})"

    @property
    def bits(self) -> int:
        return self.n.bit_length()

    # --- engines ---------------------------------------------------------------------------

    def engine(self, algo: str = DEFAULT_ALGO, layer: str | None = None, **params: Any) -> Engine:
        """The engine for ``algo`` on ``layer`` (default: native when built, else ref)."""
        entry = registry.get(algo)
        if layer is None:
            layer = "native" if "native" in entry.layers and native_runs(algo) else "ref"
        if layer not in entry.layers or layer == "rtl":
            raise ParameterError(
                f"{algo}: layer {layer!r} is not available here (layers: {', '.join(entry.layers)})"
            )
        resolved = registry.resolve_params(algo, params)
        key = (algo, layer, tuple(sorted(resolved.items())))
        eng = self._engines.get(key)
        if eng is None:
            module = entry.ref_module()
            cfg = module.configure(self.n, resolved)
            if layer == "native":
                if not native_available():
                    raise ParameterError(f"{algo}: the native extension is not built")
                if not native_runs(algo):
                    raise ParameterError(
                        f"{algo}: the native kernel needs AVX-512 IFMA, which this CPU lacks "
                        "(layer 'ref' runs the model)"
                    )
                eng = NativeEngine(algo, cfg)
            else:
                eng = RefEngine(algo, cfg, module)
            self._engines[key] = eng
        return eng

    def config(self, algo: str = DEFAULT_ALGO, **params: Any) -> MontConfig:
        """The reference model's configuration (r, bound, derived constants) for ``algo``."""
        return self.engine(algo, "ref", **params).config

    # --- arithmetic ------------------------------------------------------------------------

    def mul(
        self,
        x: SupportsIndex,
        y: SupportsIndex,
        algo: str = DEFAULT_ALGO,
        layer: str | None = None,
        trace: Trace | None = None,
        **params: Any,
    ) -> int:
        """x*y*r^-1 mod N in [0, bound*N), by ``algo``; fills ``trace`` (ref layer only)."""
        x, y = as_int(x, f"{algo}: x"), as_int(y, f"{algo}: y")
        eng = self.engine(algo, layer, **params)
        check_operands(eng.config, x, y)
        return eng.mul(x, y, trace)

    def to_mont(
        self, x: SupportsIndex, algo: str = DEFAULT_ALGO, layer: str | None = None, **params: Any
    ) -> int:
        """x*r mod N (in [0, bound*N)), computed as MP(x, r^2 mod N) as the hardware does."""
        x = as_int(x, f"{algo}: x")
        eng = self.engine(algo, layer, **params)
        _check_reduced(self.n, algo, x=x)
        return eng.mul(x, eng.config.r * eng.config.r % self.n)

    def from_mont(
        self, x: SupportsIndex, algo: str = DEFAULT_ALGO, layer: str | None = None, **params: Any
    ) -> int:
        """x*r^-1 mod N, fully reduced, computed as MP(x, 1)."""
        x = as_int(x, f"{algo}: x")
        eng = self.engine(algo, layer, **params)
        check_operands(eng.config, x)
        z = eng.mul(x, 1)
        return z - self.n if z >= self.n else z

    def __call__(self, x: SupportsIndex) -> Any:
        """The residue of ``x`` (any int, taken mod N): a ``montlab._native.Residue`` that stays
        in native memory, in Montgomery form, with ``* + - / **``, ``==``, ``int()`` and
        ``inverse()`` (``self.fast(x)``). Raises :class:`ParameterError` without the native
        extension."""
        return self.fast(x)

    @property
    def fast(self) -> Any:
        """``montlab.FastModulus`` for N (the size-dispatched native kernels), built on first
        use. Raises :class:`ParameterError` without the native extension."""
        if self._fast is None:
            if not native_available():
                raise ParameterError("FastModulus: the native extension is not built")
            from montlab import _native
            from montlab.tune import ensure_applied

            ensure_applied()
            self._fast = _native.FastModulus(self.n)
        return self._fast

    def pow_kernel(
        self, exp: SupportsIndex, algo: str | None = None, layer: str | None = None
    ) -> str:
        """The registry id of the kernel ``pow(., exp, algo, layer)`` runs on. With ``algo``
        None on the native layer that is the size table's pick ("amm", "cios", "spectral" or
        "ntt_redc"); otherwise ``algo`` itself."""
        exp = as_int(exp, "the exponent")
        _check_exponent(algo or AUTO, exp)
        if algo is not None:
            return algo
        if self.auto_layer(layer) == "native":
            return str(self.fast.pow_kernel_for(exp))
        return DEFAULT_ALGO

    def pow(
        self,
        base: SupportsIndex,
        exp: SupportsIndex,
        algo: str | None = None,
        layer: str | None = None,
        **params: Any,
    ) -> int:
        """base^exp mod N, fully reduced (variable time: the run depends on the exponent's bits;
        see ``FastModulus.pow_sec``).

        With ``algo`` None, the native layer's size table picks the kernel (name it with
        :meth:`pow_kernel`), or the ``cios`` model runs on the ref layer. With an ``algo``, that
        algorithm runs, on its native kernel or by square-and-multiply over its model."""
        name = algo or AUTO
        base, exp = as_int(base, f"{name}: base"), as_int(exp, f"{name}: the exponent")
        _check_reduced(self.n, name, base=base)
        _check_exponent(name, exp)
        if algo is None:
            if params:
                raise ParameterError(f"{AUTO}: parameters need an algorithm id (got {params})")
            if self.auto_layer(layer) == "native":
                return int(self.fast.pow(base, exp))
            algo = DEFAULT_ALGO
        eng = self.engine(algo, layer, **params)
        if isinstance(eng, NativeEngine):
            return eng.pow(base, exp)
        return mont_pow(eng, base, exp)

    @staticmethod
    def auto_layer(layer: str | None) -> str:
        """The layer ``pow`` without an algorithm id runs on: ``layer``, or native when built."""
        if layer not in (None, "ref", "native"):
            raise ParameterError(f"{AUTO}: layer {layer!r} is not 'ref' or 'native'")
        if layer == "native" and not native_available():
            raise ParameterError(f"{AUTO}: the native extension is not built")
        return layer or ("native" if native_available() else "ref")


def mont_pow(eng: Engine, base: int, exp: int) -> int:
    """Left-to-right binary exponentiation in the Montgomery domain of ``eng``."""
    n = eng.config.modulus
    r2 = eng.config.r * eng.config.r % n
    bm = eng.mul(base, r2)  # base*r
    acc = eng.mul(1, r2)  # 1*r
    for i in reversed(range(exp.bit_length())):
        acc = eng.mul(acc, acc)
        if (exp >> i) & 1:
            acc = eng.mul(acc, bm)
    z = eng.mul(acc, 1)
    z = z - n if z >= n else z
    assert 0 <= z < n
    return z


def _check_reduced(n: int, algo: str, **values: int) -> None:
    """Range checks of values already through :func:`as_int`."""
    for name, v in values.items():
        if v < 0:
            raise OperandError(f"{algo}: {name} is negative ({show_int(v)})")
        if v >= n:
            raise OperandError(f"{algo}: {name} = {show_int(v)} is out of range: it must be < N")


def _check_exponent(algo: str, exp: int) -> None:
    if exp < 0:
        raise OperandError(
            f"{algo}: negative exponent ({exp}); montlab computes base^exp for exp >= 0"
        )


class ContextCache:
    """The :class:`Modulus` objects (with their kernels' per-modulus setup) of the moduli
    :func:`powm` saw last: least recently used first out, at most ``entries`` moduli and
    ``bits`` bits of moduli in all (a setup's tables grow with N), safe to share between
    threads. Two threads asking for a new modulus at once may both build it; one is kept."""

    def __init__(self, entries: int = 8, bits: int = 1 << 23) -> None:
        self.entries, self.bits = entries, bits
        self._lock = threading.Lock()
        self._moduli: OrderedDict[int, Modulus] = OrderedDict()
        self._total = 0  # bits of the moduli held
        self.hits = self.misses = 0

    def get(self, n: int) -> Modulus:
        """The context of N, built (outside the lock) on a miss."""
        with self._lock:
            m = self._moduli.get(n)
            if m is not None:
                self._moduli.move_to_end(n)
                self.hits += 1
                return m
            self.misses += 1
        m = Modulus(n)
        with self._lock:
            if n not in self._moduli:
                self._moduli[n] = m
                self._total += n.bit_length()
            m = self._moduli[n]
            self._moduli.move_to_end(n)
            while len(self._moduli) > 1 and (
                len(self._moduli) > self.entries or self._total > self.bits
            ):
                old, _ = self._moduli.popitem(last=False)
                self._total -= old.bit_length()
        return m

    def __len__(self) -> int:
        return len(self._moduli)

    def clear(self) -> None:
        with self._lock:
            self._moduli.clear()
            self._total = 0
            self.hits = self.misses = 0


#: The contexts :func:`powm` reuses across calls.
POWM_CACHE = ContextCache()


def powm(
    base: SupportsIndex,
    exp: SupportsIndex,
    n: SupportsIndex,
    algo: str | None = None,
    layer: str | None = None,
    **params: Any,
) -> int:
    """base^exp mod n, fully reduced (the simple front door; variable time in exp: use
    ``FastModulus.pow_sec`` for secret exponents). ``algo`` None: the size table's kernel.

    The per-modulus setup of the last few moduli of :data:`DIRECT_BITS` bits and more is kept
    (:data:`POWM_CACHE`), so repeated calls with one modulus pay it once; smaller moduli, whose
    setup is word-level, are set up on each call."""
    n = as_int(n, "powm: N")
    if algo is None and layer in (None, "native") and not params:
        # The size table's kernel; the native layer checks the operands itself. Below
        # DIRECT_BITS the setup is word-level and is not cached.
        direct = _native_powm()
        if direct is not None:
            if n.bit_length() < DIRECT_BITS:
                return int(direct(base, exp, n))
            return int(POWM_CACHE.get(n).fast.pow(base, exp))
    return POWM_CACHE.get(n).pow(base, exp, algo, layer, **params)


@cache
def _native_powm() -> Callable[[SupportsIndex, SupportsIndex, SupportsIndex], int] | None:
    """``_native.powm`` once the tuned table is applied (as FastModulus applies it), or None
    without the native extension: resolved on the first call, not on every one."""
    if not native_available():
        return None
    from montlab import _native
    from montlab.tune import ensure_applied

    ensure_applied()
    return _native.powm


@lru_cache(maxsize=8)
def _fast(n: int) -> Any:
    """``montlab.FastModulus(n)`` (the tuned table applied), kept for the last few N."""
    import montlab

    return montlab.FastModulus(n)


def _residue(n: int, x: int) -> Any:
    """``FastModulus(n)(x)``: how a pickled ``Residue`` is rebuilt (one setup per N for the
    last few N, not one per residue)."""
    return _fast(n)(x)


#: Moduli below this many bits bypass :data:`POWM_CACHE`: their setup is word-level (N',
#: R mod N, R^2 mod N), without the spectral kernel's modular inverse that the cache is for.
DIRECT_BITS = 4096
