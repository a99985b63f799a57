"""The RTL architectures, their parameters and the cycle counts their schedules promise.

Contract: every architecture here is a top module under ``rtl/<name>/`` (file list
``rtl/<name>/files.f``) that implements one registry id (the ``rtl`` key of that id in
``algorithms.toml``). :meth:`Arch.resolve` turns ``--set key=value`` pairs into an
:class:`ArchParams` or raises :class:`~montlab.errors.ParameterError`: names and bounds come from
the registry, the rules the RTL adds (e >= 2 words, w even for radix 4, p >= P_max for
Tenca-Koc) are checked here. :meth:`Arch.closed_form` is the analytic cycle count of
``montlab.cycles.<id>`` (a model); the simulation measures the real one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Mapping

from montlab import registry
from montlab.cycles import mwr2mm as cyc_tk
from montlab.cycles import mwr2mm_arch1 as cyc_arch1
from montlab.cycles import mwr2mm_arch2 as cyc_arch2
from montlab.cycles import mwr4mm as cyc_r4
from montlab.errors import ParameterError
from montlab.ref.mwr2mm import p_max, word_count

#: The repository root (the RTL sources and the build cache live beside the Python package).
REPO = Path(__file__).resolve().parents[3]
RTL_DIR = REPO / "rtl"

#: Default operand width when --set n is not given.
DEFAULT_N = 64
#: Largest operand width the flow accepts (the paper's largest size).
MAX_N = 4096


@dataclass(frozen=True)
class ArchParams:
    """One parameter set of one architecture, with its derived sizes."""

    arch: str
    n: int  #: operand width in bits
    w: int  #: word width in bits
    p: int | None  #: processing elements (Tenca-Koc and Architecture 1 only)
    e: int  #: words, ceil((n+1)/w)
    rounds: int  #: n (radix 2) or ceil(n/2) (radix 4)

    def hdl(self) -> dict[str, int]:
        """The HDL parameters of the top module."""
        out = {"N": self.n, "W": self.w}
        if self.p is not None:
            out["P"] = self.p
        return out

    def key(self) -> str:
        """A file-name-safe name of the parameter set (the build cache folder)."""
        return "_".join(f"{k.lower()}{v}" for k, v in self.hdl().items())

    def as_dict(self) -> dict[str, int]:
        out = {"n": self.n, "w": self.w, "e": self.e}
        if self.p is not None:
            out["p"] = self.p
        return out


@dataclass(frozen=True)
class Arch:
    """One RTL architecture."""

    name: str  #: the architecture name, also the top module and rtl/<name>/
    ref: str  #: the registry id of the reference model it is verified against
    radix_bits: int  #: 1 (radix 2) or 2 (radix 4)
    has_p: bool  #: whether p (PEs) is a parameter
    formula: str  #: the closed-form cycle count
    doc: str

    @property
    def top(self) -> str:
        return self.name

    def files(self) -> list[Path]:
        """The sources, in compile order, from rtl/<name>/files.f (paths relative to rtl/)."""
        flist = RTL_DIR / self.name / "files.f"
        if not flist.is_file():
            raise ParameterError(
                f"{self.name}: {flist} not found; the RTL flow needs a source checkout of montlab"
            )
        lines = [ln.strip() for ln in flist.read_text().splitlines()]
        return [RTL_DIR / ln for ln in lines if ln and not ln.startswith("#")]

    def resolve(self, sets: Mapping[str, Any] | None = None) -> ArchParams:
        """Check ``sets`` against the registry and the RTL's own rules."""
        given = dict(sets or {})
        params = registry.resolve_params(self.ref, given)
        n = params.get("n")
        n = DEFAULT_N if n is None else n
        w = params["w"]
        assert w is not None
        if n > MAX_N:
            raise ParameterError(
                f"{self.name}: n = {n} is too large for the RTL flow (max {MAX_N})"
            )
        if w > n:
            raise ParameterError(
                f"{self.name}: w = {w} must be <= n = {n}: the RTL needs at least two words "
                f"(e = ceil((n+1)/w) >= 2)"
            )
        if self.radix_bits == 2 and (w % 2 or w < 4):
            raise ParameterError(
                f"{self.name}: w = {w} is illegal: the radix-4 PE needs an even w >= 4 "
                f"(a digit must not straddle two words)"
            )
        e = word_count(n, w)
        p: int | None = None
        if self.has_p:
            p = params.get("p")
            if self.name == "mwr2mm_tk":
                pm = p_max(e)
                p = pm if p is None else p
                if p < pm:
                    raise ParameterError(
                        f"{self.name}: p = {p} < P_max = ceil((e+1)/2) = {pm}: with fewer PEs "
                        f"Tenca-Koc's design needs a queue, which this RTL leaves out"
                    )
            else:
                p = e if p is None else p
            if p > n:
                raise ParameterError(f"{self.name}: p = {p} must be <= n = {n}")
        rounds = n if self.radix_bits == 1 else -(-n // 2)
        return ArchParams(self.name, n, w, p, e, rounds)

    def ref_params(self, ap: ArchParams) -> dict[str, int]:
        """The reference model's parameters for this parameter set."""
        out = {"n": ap.n, "w": ap.w}
        if ap.p is not None:
            out["p"] = ap.p
        return out

    def closed_form(self, ap: ArchParams) -> int:
        """The analytic cycle count (montlab.cycles.<ref>.closed_form)."""
        if self.name == "mwr2mm_tk":
            assert ap.p is not None
            return cyc_tk.closed_form(ap.n, ap.e, ap.p)
        if self.name == "mwr2mm_arch1":
            assert ap.p is not None
            return cyc_arch1.closed_form(ap.n, ap.e, ap.p)
        if self.name == "mwr2mm_arch2":
            return cyc_arch2.closed_form(ap.n, ap.e)
        return cyc_r4.closed_form(ap.n, ap.e)


_DOCS = {
    "mwr2mm_tk": (1, True, "2n + e - 1", "Tenca-Koc: p >= P_max PEs, a column every 2 cycles"),
    "mwr2mm_arch1": (
        1,
        True,
        "n + e - 1 (p >= e), else n + k(e-p) + e - 1, k = ceil(n/p) - 1",
        "Architecture 1: two-version PEs in a ring, round i on PE i mod p, delay queue if e > p",
    ),
    "mwr2mm_arch2": (1, False, "n + e - 1", "Architecture 2: e two-version PEs, one word each"),
    "mwr4mm_arch2": (
        2,
        False,
        "ceil(n/2) + e - 1",
        "radix-4 Architecture 2: e four-branch PEs, one word each",
    ),
}


@cache
def _archs() -> dict[str, Arch]:
    out: dict[str, Arch] = {}
    for a in registry.all_algorithms():
        if a.rtl is None:
            continue
        k, has_p, formula, doc = _DOCS[a.rtl]
        out[a.rtl] = Arch(a.rtl, a.id, k, has_p, formula, doc)
    return out


def all_archs() -> list[Arch]:
    """Every RTL architecture, in registry order."""
    return list(_archs().values())


def get(name: str) -> Arch:
    """The architecture ``name``; an unknown name is a :class:`ParameterError`."""
    try:
        return _archs()[name]
    except KeyError:
        known = ", ".join(_archs())
        raise ParameterError(f"unknown RTL architecture {name!r}; known: {known}") from None
