"""atheris fuzz targets: the CLI integer grammar, the ``--set`` parser and the native binding's
argument handling. Each target computes what should happen from an independent oracle (Python's
int() and pow()) in both directions: a valid input gives the oracle's value, an invalid one the
error class the rules name. Anything else is a crash that libFuzzer saves.

    python tests/fuzz/fuzz_montlab.py TARGET [CORPUS_DIR ...] [-runs=N | -max_total_time=S]

TARGET: ``int``, ``sets`` or ``native``. The checked-in corpora are tests/fuzz/corpus/TARGET.
"""

from __future__ import annotations

import re
import sys

import atheris

with atheris.instrument_imports():
    from montlab import _native, registry
    from montlab.cli import parse_sets
    from montlab.errors import ModulusError, MontlabError, OperandError, ParameterError

#: The longest text the grammar oracle checks with int() (Python refuses more than 4300 digits).
ORACLE_DIGITS = 4000
ALGOS = registry.ids()
#: Python's decimal-literal rule for digits and underscores (leading zeros allowed here).
DECIMAL = re.compile(r"[0-9](?:_?[0-9])*")
#: A threshold table that runs the spectral kernel from the smallest modulus.
SPECTRAL = "spectral_mul_bits = 1\nspectral_pow_bits = 1\nntt_redc_pow_bits = 1\n"


def _grammar(text: str) -> int | None | str:
    """The value the integer grammar gives ``text``, from Python's own int() (None: not in the
    grammar; "long": a valid decimal too long for int() to check)."""
    body = text.strip(" \t\r\n")
    sign = 1
    if body[:1] in ("+", "-"):
        sign, body = (-1 if body[0] == "-" else 1), body[1:]
    if not body.isascii() or any(c.isspace() for c in body) or body[:1] in ("+", "-", ""):
        return None
    try:
        if body[:2] in ("0x", "0X"):
            return sign * int("0x" + body[2:], 0)  # Python's literal rules: 0x_1f allowed
        if DECIMAL.fullmatch(body) is None:  # ASCII digits, single '_' between digits
            return None
        if len(body) > ORACLE_DIGITS:
            return "long"
        return sign * int(body, 10)  # leading zeros allowed, as the grammar says
    except ValueError:
        return None


@atheris.instrument_func
def fuzz_int(data: bytes) -> None:
    """parse_int accepts exactly the grammar, with int()'s value, and raises ParameterError
    otherwise."""
    text = data.decode("utf-8", "replace")
    want = _grammar(text)
    try:
        v = registry.parse_int(text, "x")
    except ParameterError:
        assert want is None, (text, want)
        return
    assert want is not None, (text, v)
    if want != "long":
        assert v == want, (text, v, want)


@atheris.instrument_func
def fuzz_sets(data: bytes) -> None:
    """parse_sets: a dict of the given keys, or ParameterError."""
    fdp = atheris.FuzzedDataProvider(data)
    algo = ALGOS[fdp.ConsumeIntInRange(0, len(ALGOS) - 1)]
    items = tuple(fdp.ConsumeUnicodeNoSurrogates(40) for _ in range(fdp.ConsumeIntInRange(0, 3)))
    try:
        out = parse_sets(algo, items)
    except ParameterError:
        return
    assert set(out) <= set(registry.get(algo).params), (algo, items, out)


@atheris.instrument_func
def _value(fdp: atheris.FuzzedDataProvider) -> object:
    """An argument: mostly integers of any size and sign (up to 320 bytes), sometimes another
    type."""
    kind = fdp.ConsumeIntInRange(0, 11)
    if kind <= 5:
        v = fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 320 if kind == 1 else 40))
        return v if kind else abs(v)
    return [True, 1.5, "7", b"7", None, [3, 5]][kind - 6]


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _expected(n: int, args: list[object], result: object) -> object:
    """What a call should give: TypeError for a non-int, OperandError for an int out of range
    (operands 0 <= v < n, exponents >= 0; ``args`` are (value, is_exponent) pairs), else
    ``result()``."""
    if not all(_is_int(v) for v, _ in args):  # type: ignore[misc]
        return TypeError
    for v, is_exp in args:  # type: ignore[misc]
        if v < 0 or (not is_exp and v >= n):
            return OperandError
    return result if isinstance(result, type) else result()  # type: ignore[operator]


@atheris.instrument_func
def fuzz_native(data: bytes) -> None:
    """FastModulus and Cios: the right result, or the right error class, never a crash."""
    fdp = atheris.FuzzedDataProvider(data)
    table = SPECTRAL if fdp.ConsumeBool() else None  # both kernels at fuzz sizes
    n, a, b = _value(fdp), _value(fdp), _value(fdp)
    _native.set_thresholds(table)
    try:
        m = _native.FastModulus(n)  # type: ignore[arg-type]
    except (MontlabError, TypeError) as exc:
        want = TypeError if not _is_int(n) else ModulusError
        assert isinstance(exc, want), (n, exc)
        assert want is TypeError or n <= 1 or n % 2 == 0, (n, exc)  # type: ignore[operator]
        return
    finally:
        _native.set_thresholds(None)
    assert _is_int(n) and n > 1 and n % 2 == 1  # type: ignore[operator]
    nn: int = n  # type: ignore[assignment]
    calls = [
        (lambda: m.mul(a, b), [(a, False), (b, False)], lambda: a * b % nn),  # type: ignore[operator]
        (lambda: m.pow(a, b), [(a, False), (b, True)], lambda: pow(a, b, nn)),  # type: ignore[arg-type]
        (lambda: m.pow_sec(a, b), [(a, False), (b, True)], lambda: pow(a, b, nn)),  # type: ignore[arg-type]
        (lambda: m.mul_many([a], [b]), [(a, False), (b, False)], lambda: [a * b % nn]),  # type: ignore[operator]
        (lambda: _native.Cios(nn).pow(a, b), [(a, False), (b, True)], lambda: pow(a, b, nn)),  # type: ignore[arg-type]
    ]
    if isinstance(b, list):  # one base and a list of two exponents: a length mismatch
        calls.append((lambda: m.pow_many([a], b), [(a, False)], OperandError))
    else:
        calls.append((lambda: m.pow_many([a], b), [(a, False), (b, True)], lambda: [pow(a, b, nn)]))  # type: ignore[arg-type]
    got, args, result = calls[fdp.ConsumeIntInRange(0, len(calls) - 1)]
    want = _expected(nn, args, result)
    try:
        out = got()
    except (MontlabError, TypeError) as exc:
        assert isinstance(want, type) and isinstance(exc, want), (nn, a, b, exc, want)
        return
    assert out == want, (nn, a, b, out, want)


TARGETS = {"int": fuzz_int, "sets": fuzz_sets, "native": fuzz_native}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(TARGETS)}}} [libFuzzer arguments]")
    target = TARGETS[sys.argv.pop(1)]
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
