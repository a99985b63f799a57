"""The implementations the benchmark runs: montlab and its peers, bound to one case.

Contract. A :class:`Case` is one operation at one size with its operands: an odd modulus N of
exactly ``bits`` bits, operands in [0, N), a full-size exponent (``bits`` bits, top bit set) and,
for ``batch``, several bases sharing that exponent. An :class:`Impl` turns a case into a
:class:`Bound`: a zero-argument ``call`` doing exactly the timed work (one modmul, one modexp,
or one whole batch of ``per_call`` modexps) on operands converted beforehand, and a ``read``
that turns its result back into Python int(s), untimed, for the correctness check. ``bind``
raises :class:`Unsupported` when an implementation does not offer an operation.

What each call does:

=========  ==========================  ===========================  ==============================
impl       modmul                      modexp                       batch (per base)
=========  ==========================  ===========================  ==============================
montlab    fast native type ``mul``    ``montlab.powm(b, e, N)``    ``pow_many`` (else ``powm``)
gmpy2      ``a*b % n`` on mpz          ``gmpy2.powmod``             ``gmpy2.powmod``
flint      ``fmpz_mod_ctx`` product    ``pow(fmpz, fmpz, fmpz)``    ``pow(fmpz, fmpz, fmpz)``
python     ``a*b % n``                 ``pow(b, e, n)``             ``pow(b, e, n)``
openssl    ``BN_mod_mul_montgomery``   ``BN_mod_exp_mont``          ``BN_mod_exp_mont``
=========  ==========================  ===========================  ==============================

``modexp_sec`` (not run by default) is the constant-time exponentiation: montlab
``FastModulus(n).pow_sec``, gmpy2 ``powmod_sec``, OpenSSL ``BN_mod_exp_mont_consttime``, GMP
``mpz_powm_sec``; FLINT and Python have none. ``openssl-x2`` (only ``modexp_sec``, asked for by
name) runs two of them per ``BN_mod_exp_mont_consttime_x2`` call and reports the time per
modexp; OpenSSL interleaves the pair on AVX-512 IFMA at 1024 to 4096 bits and runs it as two
``BN_mod_exp_mont_consttime`` calls elsewhere. ``gmp-native``, ``openssl-native`` and
``openssl-native-x2`` are GMP 6.3 and OpenSSL 4 built for this CPU
(:mod:`montlab.bench.native_peers`), run only when asked for: GMP's ``mpz_powm`` /
``mpz_powm_sec`` by ctypes (no modmul: one ctypes call would cost as much as the product),
OpenSSL's functions as for ``openssl``.

OpenSSL's modmul takes operands already in Montgomery form (as OpenSSL's own callers do) and its
modexp gets no precomputed ``BN_MONT_CTX``, so that it, like ``montlab.powm`` and
``gmpy2.powmod``, pays its per-modulus setup in every call.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from montlab.bench import gmp, native_peers, openssl
from montlab.bench.native import NativeAdapter

#: Every operation; :data:`DEFAULT_OPS` run unless ``--ops`` says otherwise.
OPS = ("modmul", "modexp", "batch", "modexp_sec")
DEFAULT_OPS = ("modmul", "modexp", "batch")


class Unavailable(Exception):
    """A peer is not installed or cannot be loaded; the message is the note shown."""


class Unsupported(Exception):
    """An implementation does not offer this operation; the message is the note shown."""


@dataclass(frozen=True)
class Case:
    """One operation at one size, with the operands every implementation gets."""

    op: str
    bits: int
    n: int
    a: int = 0
    b: int = 0
    e: int = 0
    bases: tuple[int, ...] = ()


def _nothing() -> None:
    return None


@dataclass
class Bound:
    """An implementation bound to one case (see the module contract)."""

    call: Callable[[], object]
    read: Callable[[Any], Any]
    detail: str
    per_call: int = 1
    close: Callable[[], None] = _nothing


@dataclass
class Impl:
    """A named implementation: ``bind(case)`` gives a :class:`Bound` or raises Unsupported."""

    name: str
    version: str
    bind: Callable[[Case], Bound]
    info: dict[str, Any] = field(default_factory=dict)


def _batch_singles(
    f: Callable[[Any, Any, Any], object], bases: list[Any], e: Any, n: Any
) -> list[object]:
    return [f(x, e, n) for x in bases]


# ---------------------------------------------------------------------------------------------
# montlab


def load_montlab() -> tuple[Impl, Impl]:
    """montlab, and montlab by single ``powm`` calls (the batch reference for ``pow_many``)."""
    import montlab

    adapter = NativeAdapter()

    def bind(case: Case) -> Bound:
        if case.op == "modmul":
            call, read, detail = adapter.modmul(case.n, case.a, case.b)
            return Bound(call, read, detail)
        if case.op == "modexp":
            return Bound(partial(montlab.powm, case.a, case.e, case.n), int, "montlab.powm")
        if case.op == "modexp_sec":
            fast, a, e, n = montlab.FastModulus, case.a, case.e, case.n
            return Bound(lambda: fast(n).pow_sec(a, e), int, "FastModulus(n).pow_sec")
        many = adapter.pow_many(case.n, case.bases, case.e)
        if many is not None:
            call, read_many, detail = many
            return Bound(call, read_many, detail, per_call=len(case.bases))
        return bind_single(case)

    def bind_single(case: Case) -> Bound:
        if case.op != "batch":
            raise Unsupported("batch only")
        call = partial(_batch_singles, montlab.powm, list(case.bases), case.e, case.n)
        return Bound(call, _ints, "montlab.powm single calls", per_call=len(case.bases))

    version = montlab.__version__
    info = {"native": adapter.describe()}
    return Impl("montlab", version, bind, info), Impl("montlab-single", version, bind_single)


def _ints(z: Any) -> list[int]:
    return [int(v) for v in z]


# ---------------------------------------------------------------------------------------------
# peers


def load_python() -> Impl:
    import platform

    def bind(case: Case) -> Bound:
        n, e = case.n, case.e
        if case.op == "modmul":
            a, b = case.a, case.b
            return Bound(lambda: a * b % n, int, "a*b % n")
        if case.op == "modexp":
            return Bound(partial(pow, case.a, e, n), int, "pow(b, e, n)")
        if case.op == "modexp_sec":
            raise Unsupported("no constant-time exponentiation")
        call = partial(_batch_singles, pow, list(case.bases), e, n)
        return Bound(call, _ints, "pow(b, e, n) single calls", per_call=len(case.bases))

    return Impl("python", platform.python_version(), bind)


def load_gmpy2() -> Impl:
    try:
        gmpy2: Any = importlib.import_module("gmpy2")
    except ImportError:
        raise Unavailable("gmpy2 is not installed (pip install 'montlab[bench]')") from None
    mpz = gmpy2.mpz

    def bind(case: Case) -> Bound:
        n, e = mpz(case.n), mpz(case.e)
        if case.op == "modmul":
            a, b = mpz(case.a), mpz(case.b)
            return Bound(lambda: a * b % n, int, "mpz a*b % n")
        if case.op == "modexp":
            return Bound(partial(gmpy2.powmod, mpz(case.a), e, n), int, "gmpy2.powmod")
        if case.op == "modexp_sec":
            if not hasattr(gmpy2, "powmod_sec"):
                raise Unsupported("this gmpy2 has no powmod_sec")
            return Bound(partial(gmpy2.powmod_sec, mpz(case.a), e, n), int, "gmpy2.powmod_sec")
        bases = [mpz(x) for x in case.bases]
        call = partial(_batch_singles, gmpy2.powmod, bases, e, n)
        return Bound(call, _ints, "gmpy2.powmod single calls", per_call=len(bases))

    return Impl("gmpy2", f"{gmpy2.version()} ({gmpy2.mp_version()})", bind)


def load_flint() -> Impl:
    try:
        flint: Any = importlib.import_module("flint")
    except ImportError:
        raise Unavailable("python-flint is not installed (pip install 'montlab[bench]')") from None
    fmpz = flint.fmpz
    ctx_type = getattr(flint, "fmpz_mod_ctx", None)

    def bind(case: Case) -> Bound:
        n, e = fmpz(case.n), fmpz(case.e)
        if case.op == "modmul":
            if ctx_type is None:
                raise Unsupported("this python-flint has no fmpz_mod_ctx")
            ctx = ctx_type(n)
            a, b = ctx(case.a), ctx(case.b)
            return Bound(lambda: a * b, int, "fmpz_mod_ctx product")
        if case.op == "modexp":
            return Bound(partial(pow, fmpz(case.a), e, n), int, "pow(fmpz, fmpz, fmpz)")
        if case.op == "modexp_sec":
            raise Unsupported("no constant-time exponentiation")
        bases = [fmpz(x) for x in case.bases]
        call = partial(_batch_singles, pow, bases, e, n)
        return Bound(call, _ints, "pow(fmpz, fmpz, fmpz) single calls", per_call=len(bases))

    flint_c = getattr(flint, "__FLINT_VERSION__", "?")
    return Impl("flint", f"python-flint {flint.__version__} (FLINT {flint_c})", bind)


def _system_libcrypto() -> openssl.LibCrypto:
    try:
        return openssl.load()
    except openssl.Unavailable as exc:
        raise Unavailable(str(exc)) from None


def load_openssl() -> Impl:
    return _openssl_impl("openssl", _system_libcrypto())


def load_openssl_x2() -> Impl:
    """The system's OpenSSL, constant-time modexps two per ``BN_mod_exp_mont_consttime_x2``."""
    return _openssl_impl("openssl-x2", _system_libcrypto(), x2=True)


def _openssl_impl(name: str, lib: openssl.LibCrypto, x2: bool = False) -> Impl:
    """The ``openssl`` implementation on ``lib`` (the system's or the native build); with
    ``x2``, only ``modexp_sec``, by ``BN_mod_exp_mont_consttime_x2``."""

    def bind(case: Case) -> Bound:
        if x2:
            return _bind_x2(case)
        s = lib.arena()
        try:
            return _bind_openssl(s, case)
        except BaseException:
            s.close()
            raise

    def _bind_x2(case: Case) -> Bound:
        if case.op != "modexp_sec":
            raise Unsupported("x2 is a pair of constant-time modexps (modexp_sec only)")
        x2_fn = lib.fn.get("BN_mod_exp_mont_consttime_x2")
        if x2_fn is None:
            raise Unsupported(f"{lib.version} has no BN_mod_exp_mont_consttime_x2")
        s = lib.arena()
        # Both halves on the case's operands (x2 needs two moduli of one size; the same one
        # serves), each with its own result; a sample is the call's time over 2.
        n, a, e = s.bn(case.n), s.bn(case.a), s.bn(case.e)
        r1, r2 = s.new(), s.new()
        call = partial(x2_fn, r1, a, e, n, None, r2, a, e, n, None, s.ctx)

        def read(st: Any) -> int:
            _status(st)
            first, second = s.to_int(r1), s.to_int(r2)
            if first != second:
                raise openssl.OpenSSLError("the two halves of x2 differ")
            return first

        detail = "BN_mod_exp_mont_consttime_x2 (two modexps a call, time per modexp)"
        return Bound(call, read, detail, per_call=2, close=s.close)

    def _bind_openssl(s: openssl.Arena, case: Case) -> Bound:
        fn = lib.fn
        n = s.bn(case.n)
        r = s.new()
        if case.op == "modmul":
            mont = s.mont(n)
            a, b = s.to_mont(s.bn(case.a), mont), s.to_mont(s.bn(case.b), mont)
            call = partial(fn["BN_mod_mul_montgomery"], r, a, b, mont, s.ctx)
            return Bound(
                call,
                lambda st: _status(st) or s.from_mont(r, mont),
                "BN_mod_mul_montgomery (Montgomery form)",
                close=s.close,
            )
        e = s.bn(case.e)
        if case.op in ("modexp", "modexp_sec"):
            what = "BN_mod_exp_mont" if case.op == "modexp" else "BN_mod_exp_mont_consttime"
            call = partial(fn[what], r, s.bn(case.a), e, n, s.ctx, None)
            return Bound(call, lambda st: _status(st) or s.to_int(r), what, close=s.close)
        outs = [s.new() for _ in case.bases]
        calls = [
            partial(fn["BN_mod_exp_mont"], o, s.bn(x), e, n, s.ctx, None)
            for o, x in zip(outs, case.bases)
        ]

        def batch() -> list[int]:
            return [c() for c in calls]

        def read(sts: Any) -> list[int]:
            for st in sts:
                _status(st)
            return [s.to_int(o) for o in outs]

        return Bound(batch, read, "BN_mod_exp_mont single calls", per_call=len(outs), close=s.close)

    return Impl(name, lib.version, bind, {"path": lib.path})


def _status(st: Any) -> int:
    """0 for a libcrypto success status (so ``_status(st) or value`` is the value)."""
    if st != 1:
        raise openssl.OpenSSLError(f"libcrypto call returned {st}")
    return 0


def _native_libcrypto() -> openssl.LibCrypto:
    """The libcrypto of OpenSSL 4 built for this CPU (built on first use: minutes)."""
    path = _native_library(native_peers.OPENSSL)
    try:
        return openssl.LibCrypto(openssl.ctypes.CDLL(str(path)), str(path))
    except (OSError, openssl.Unavailable) as exc:
        raise Unavailable(f"cannot load {path}: {exc}") from None


def load_openssl_native() -> Impl:
    """OpenSSL 4 built for this CPU."""
    return _openssl_impl("openssl-native", _native_libcrypto())


def load_openssl_native_x2() -> Impl:
    """OpenSSL 4 built for this CPU, modexps two per ``BN_mod_exp_mont_consttime_x2``."""
    return _openssl_impl("openssl-native-x2", _native_libcrypto(), x2=True)


def load_gmp_native() -> Impl:
    """GMP 6.3 built for this CPU (built on first use: minutes), by ctypes."""
    path = _native_library(native_peers.GMP)
    try:
        lib = gmp.load(str(path))
    except gmp.Unavailable as exc:
        raise Unavailable(str(exc)) from None

    def bind(case: Case) -> Bound:
        if case.op == "modmul":
            raise Unsupported("one ctypes call costs as much as the product (see gmpy2)")
        z = lib.arena()
        try:
            return _bind_gmp(z, case)
        except BaseException:
            z.close()
            raise

    def _bind_gmp(z: gmp.Arena, case: Case) -> Bound:
        n, e, r = z.mpz(case.n), z.mpz(case.e), z.new()
        what = "__gmpz_powm_sec" if case.op == "modexp_sec" else "__gmpz_powm"
        f = lib.fn[what]
        if case.op in ("modexp", "modexp_sec"):
            a = z.mpz(case.a)
            call = partial(f, r, a, e, n)
            return Bound(
                call, lambda _: z.to_int(r), what.replace("__gmpz_", "mpz_"), close=z.close
            )
        outs = [z.new() for _ in case.bases]
        calls = [partial(f, o, z.mpz(x), e, n) for o, x in zip(outs, case.bases)]

        def batch() -> list[object]:
            return [c() for c in calls]

        return Bound(
            batch,
            lambda _: [z.to_int(o) for o in outs],
            "mpz_powm single calls",
            per_call=len(outs),
            close=z.close,
        )

    return Impl("gmp-native", lib.version, bind, {"path": str(path)})


def _native_library(src: native_peers.Source) -> Any:
    """The built library of ``src``, building it first if needed (steps shown on stderr)."""

    def say(text: str) -> None:
        print(f"montlab bench: {text}", file=sys.stderr, flush=True)

    try:
        return native_peers.ensure(say, (src,))[src.name]
    except native_peers.BuildError as exc:
        raise Unavailable(str(exc)) from None


#: The peers by name, in report order. Tests add implementations here.
PEERS: dict[str, Callable[[], Impl]] = {
    "gmpy2": load_gmpy2,
    "flint": load_flint,
    "python": load_python,
    "openssl": load_openssl,
    "openssl-x2": load_openssl_x2,
    "gmp-native": load_gmp_native,
    "openssl-native": load_openssl_native,
    "openssl-native-x2": load_openssl_native_x2,
}
#: The peers run by default; the native builds only when asked for (``--native-peers``).
DEFAULT_PEERS = ("gmpy2", "flint", "python", "openssl")
NATIVE_PEERS = ("gmp-native", "openssl-native", "openssl-native-x2")
