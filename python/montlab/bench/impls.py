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

OpenSSL's modmul takes operands already in Montgomery form (as OpenSSL's own callers do) and its
modexp gets no precomputed ``BN_MONT_CTX``, so that it, like ``montlab.powm`` and
``gmpy2.powmod``, pays its per-modulus setup in every call.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from montlab.bench import openssl
from montlab.bench.native import NativeAdapter

OPS = ("modmul", "modexp", "batch")


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
        bases = [fmpz(x) for x in case.bases]
        call = partial(_batch_singles, pow, bases, e, n)
        return Bound(call, _ints, "pow(fmpz, fmpz, fmpz) single calls", per_call=len(bases))

    flint_c = getattr(flint, "__FLINT_VERSION__", "?")
    return Impl("flint", f"python-flint {flint.__version__} (FLINT {flint_c})", bind)


def load_openssl() -> Impl:
    try:
        lib = openssl.load()
    except openssl.Unavailable as exc:
        raise Unavailable(str(exc)) from None

    def bind(case: Case) -> Bound:
        s = lib.arena()
        try:
            return _bind_openssl(s, case)
        except BaseException:
            s.close()
            raise

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
        if case.op == "modexp":
            call = partial(fn["BN_mod_exp_mont"], r, s.bn(case.a), e, n, s.ctx, None)
            return Bound(
                call, lambda st: _status(st) or s.to_int(r), "BN_mod_exp_mont", close=s.close
            )
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

    return Impl("openssl", lib.version, bind, {"path": lib.path})


def _status(st: Any) -> int:
    """0 for a libcrypto success status (so ``_status(st) or value`` is the value)."""
    if st != 1:
        raise openssl.OpenSSLError(f"libcrypto call returned {st}")
    return 0


#: The peers by name, in report order. Tests add implementations here.
PEERS: dict[str, Callable[[], Impl]] = {
    "gmpy2": load_gmpy2,
    "flint": load_flint,
    "python": load_python,
    "openssl": load_openssl,
}
