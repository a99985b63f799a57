"""The algorithm registry, read from ``algorithms.toml``.

Every id, its paper, its parameters (with defaults and bounds), the layers that implement it and
the paper's cycle figures come from that one file. The CLI, the docs and the test sweeps go
through :func:`get` and :func:`resolve_params`; nothing else lists algorithms.
"""

from __future__ import annotations

import importlib
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

from montlab.errors import OperandTypeError, ParameterError, as_int, show_int

REGISTRY_PATH = Path(__file__).with_name("algorithms.toml")
LAYERS = ("ref", "native", "rtl")


#: The bound of a parameter without its own max (word sizes, stages, counts: none needs more).
PARAM_MAX = 1 << 24


@dataclass(frozen=True)
class Param:
    """One integer parameter of an algorithm."""

    name: str
    default: int | None  #: None means "auto": the model derives it from the modulus
    min: int | None
    max: int | None
    doc: str

    def check(self, algo: str, value: int) -> int:
        hi = PARAM_MAX if self.max is None else self.max
        shown = value if value.bit_length() <= 64 else show_int(value)
        if self.min is not None and value < self.min:
            raise ParameterError(
                f"{algo}: {self.name} = {shown} is illegal: it must be >= {self.min}"
            )
        if value > hi:
            raise ParameterError(f"{algo}: {self.name} = {shown} is illegal: it must be <= {hi}")
        return value


@dataclass(frozen=True)
class Figure:
    """A cycle figure printed in a paper, kept beside the model that should reproduce it."""

    quantity: str
    params: Mapping[str, int]
    cycles: int
    source: str
    derivable: bool
    note: str = ""


@dataclass(frozen=True)
class Paper:
    key: str
    title: str
    authors: str
    venue: str


@dataclass(frozen=True)
class Algorithm:
    """One registry entry."""

    id: str
    title: str
    paper: Paper
    citation: str
    spec: str
    layers: tuple[str, ...]
    params: Mapping[str, Param]
    figures: tuple[Figure, ...] = field(default=())
    rtl: str | None = None  #: the RTL architecture (rtl/<name>/) when "rtl" is a layer

    def ref_module(self) -> ModuleType:
        """The reference model, ``montlab.ref.<id>``."""
        return importlib.import_module(f"montlab.ref.{self.id}")

    def cycle_module(self) -> ModuleType | None:
        """The analytic cycle model, ``montlab.cycles.<id>``, if there is one."""
        try:
            return importlib.import_module(f"montlab.cycles.{self.id}")
        except ModuleNotFoundError as exc:
            if exc.name == f"montlab.cycles.{self.id}":
                return None
            raise


@cache
def _load() -> dict[str, Algorithm]:
    with REGISTRY_PATH.open("rb") as f:
        raw = tomllib.load(f)
    papers = {k: Paper(k, v["title"], v["authors"], v["venue"]) for k, v in raw["papers"].items()}
    algos: dict[str, Algorithm] = {}
    for aid, a in raw["algorithms"].items():
        params = {}
        for pname, p in a.get("params", {}).items():
            default = p.get("default")
            params[pname] = Param(
                name=pname,
                default=None if default == "auto" else int(default),
                min=p.get("min"),
                max=p.get("max"),
                doc=p.get("doc", ""),
            )
        layers = tuple(a["layers"])
        assert all(layer in LAYERS for layer in layers), f"{aid}: unknown layer in {layers}"
        rtl = a.get("rtl")
        assert (rtl is not None) == ("rtl" in layers), f"{aid}: the rtl key goes with the rtl layer"
        figures = tuple(
            Figure(
                quantity=f["quantity"],
                params=dict(f.get("params", {})),
                cycles=int(f["cycles"]),
                source=f["source"],
                derivable=bool(f.get("derivable", True)),
                note=f.get("note", ""),
            )
            for f in a.get("figures", [])
        )
        algos[aid] = Algorithm(
            id=aid,
            title=a["title"],
            paper=papers[a["paper"]],
            citation=a["citation"],
            spec=a["spec"],
            layers=layers,
            params=params,
            figures=figures,
            rtl=rtl,
        )
    return algos


def all_algorithms() -> list[Algorithm]:
    """Every registered algorithm, in registry order."""
    return list(_load().values())


def ids() -> list[str]:
    return list(_load())


def get(algo: str) -> Algorithm:
    """The entry for ``algo``; an unknown id is a :class:`ParameterError`."""
    try:
        return _load()[algo]
    except KeyError:
        raise ParameterError(f"unknown algorithm {algo!r}; known: {', '.join(_load())}") from None


#: The one integer grammar of every text input: an optional sign, then ASCII decimal digits or
#: 0x / 0X and hex digits, with single underscores between digits (and after 0x) as in Python.
_INT_RE = re.compile(r"([+-]?)(?:0[xX]((?:_?[0-9a-fA-F])+)|([0-9](?:_?[0-9])*))")

#: Decimal texts longer than this are converted piecewise (Python's int() refuses > 4300 digits).
_DEC_CHUNK = 4000


def _dec(digits: str) -> int:
    """int(digits, 10) for any length, by halves (subquadratic with Karatsuba)."""
    if len(digits) <= _DEC_CHUNK:
        return int(digits, 10)
    low = len(digits) // 2
    return _dec(digits[:-low]) * 10**low + _dec(digits[-low:])


def parse_int(text: Any, what: str = "value") -> int:
    """An integer from decimal or 0x-hex text (see :data:`_INT_RE`; a leading '-' is kept, for
    the caller to reject), or an object with ``__index__`` (not bool)."""
    if not isinstance(text, str):
        try:
            return as_int(text, what)
        except OperandTypeError as exc:
            raise ParameterError(str(exc)) from None
    m = _INT_RE.fullmatch(text.strip(" \t\r\n"))
    if m is None:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise ParameterError(f"{what} must be a decimal or 0x-hex integer, got {shown!r}")
    sign, hexd, decd = m.groups()
    v = int(hexd.replace("_", ""), 16) if hexd is not None else _dec(decd.replace("_", ""))
    return -v if sign == "-" else v


def resolve_params(algo: str, given: Mapping[str, Any] | None = None) -> dict[str, int | None]:
    """Fill defaults, reject unknown names, parse and bound-check every value.

    The result has exactly the registry's parameter names; "auto" defaults are ``None``.
    """
    entry = get(algo)
    given = dict(given or {})
    unknown = sorted(set(given) - set(entry.params))
    if unknown:
        known = ", ".join(entry.params) or "none"
        raise ParameterError(f"{algo}: unknown parameter {unknown[0]!r} (known: {known})")
    out: dict[str, int | None] = {}
    for name, p in entry.params.items():
        if name in given and given[name] is not None and given[name] != "auto":
            out[name] = p.check(algo, parse_int(given[name], f"{algo}: {name}"))
        else:
            out[name] = p.default
    return out


def figures_for(algo: str, quantity: str, params: Mapping[str, Any]) -> list[Figure]:
    """The paper figures of ``algo`` for ``quantity`` whose parameters all match ``params``."""
    return [
        f
        for f in get(algo).figures
        if f.quantity == quantity and all(params.get(k) == v for k, v in f.params.items())
    ]
