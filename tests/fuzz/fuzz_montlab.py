"""atheris fuzz targets: the CLI integer grammar, the ``--set`` parser and the native binding's
argument handling. Each target accepts any input and allows only montlab's own errors (and
TypeError for wrong types); anything else, or a wrong answer, is a crash that libFuzzer saves.

    python tests/fuzz/fuzz_montlab.py TARGET [CORPUS_DIR ...] [-runs=N | -max_total_time=S]

TARGET: ``int``, ``sets`` or ``native``. The checked-in corpora are tests/fuzz/corpus/TARGET.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from montlab import _native, registry
    from montlab.cli import parse_sets
    from montlab.errors import MontlabError, ParameterError

#: The longest text the grammar oracle checks with int() (Python refuses more than 4300 digits).
ORACLE_DIGITS = 4000
ALGOS = registry.ids()


@atheris.instrument_func
def fuzz_int(data: bytes) -> None:
    """parse_int: an int equal to the text read by int() with '_' removed, or ParameterError."""
    text = data.decode("utf-8", "replace")
    try:
        v = registry.parse_int(text, "x")
    except ParameterError:
        return
    body = text.strip(" \t\r\n")
    sign = -1 if body.startswith("-") else 1
    body = body.lstrip("+-")
    assert body.isascii() and "__" not in body and not body.endswith("_"), text
    if len(body) <= ORACLE_DIGITS:
        hexa = body[:2] in ("0x", "0X")
        want = int(body[2:].replace("_", ""), 16) if hexa else int(body.replace("_", ""), 10)
        assert v == sign * want, (text, v)


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
    """An argument: mostly integers of any size and sign, sometimes another type."""
    kind = fdp.ConsumeIntInRange(0, 11)
    if kind <= 5:
        v = fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 80))
        return v if kind else abs(v)
    return [True, 1.5, "7", b"7", None, [3, 5]][kind - 6]


@atheris.instrument_func
def fuzz_native(data: bytes) -> None:
    """FastModulus and Cios: correct results or MontlabError / TypeError, never a crash."""
    fdp = atheris.FuzzedDataProvider(data)
    n, a, b = _value(fdp), _value(fdp), _value(fdp)
    try:
        m = _native.FastModulus(n)  # type: ignore[arg-type]
    except (MontlabError, TypeError):
        return
    assert isinstance(n, int) and n > 1 and n % 2 == 1
    calls = [
        (lambda: m.mul(a, b), lambda: a * b % n),  # type: ignore[operator]
        (lambda: m.pow(a, b), lambda: pow(a, b, n)),  # type: ignore[arg-type]
        (lambda: m.pow_sec(a, b), lambda: pow(a, b, n)),  # type: ignore[arg-type]
        (lambda: m.mul_many([a], [b]), lambda: [a * b % n]),  # type: ignore[operator]
        (lambda: m.pow_many([a], b), lambda: [pow(a, b, n)]),  # type: ignore[arg-type]
        (lambda: _native.Cios(n).pow(a, b), lambda: pow(a, b, n)),  # type: ignore[arg-type]
    ]
    got, want = calls[fdp.ConsumeIntInRange(0, len(calls) - 1)]
    try:
        out = got()
    except (MontlabError, TypeError):
        return
    assert out == want(), (n, a, b, out)


TARGETS = {"int": fuzz_int, "sets": fuzz_sets, "native": fuzz_native}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(TARGETS)}}} [libFuzzer arguments]")
    target = TARGETS[sys.argv.pop(1)]
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
