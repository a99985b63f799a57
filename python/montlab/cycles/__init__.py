"""Analytic cycle models, one module per algorithm id: ``montlab.cycles.<id>``.

These are **models**, not measurements: closed forms from the papers (with errata fixed, see
SPEC 3.4 and 5.5) and, where a design is a dependency graph, an ASAP schedule of that graph
(:mod:`montlab.cycles.schedule`). Each module exposes::

    model(bits: int, params: Mapping[str, int | None]) -> CycleReport

with ``params`` resolved by :func:`montlab.registry.resolve_params` ("auto" is ``None``). Every
row puts the paper's printed figure, when there is one, beside the model's value and says
whether they match, differ (and why), or whether the paper's figure cannot be derived at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from montlab import registry

#: Row status values.
MATCH = "match"
DIFFERS = "differs"
NOT_DERIVABLE = "not derivable"
NO_FIGURE = "no paper figure"


@dataclass(frozen=True)
class CycleRow:
    quantity: str  #: what is counted, e.g. "cycles", "cycles_printed_eq6", "queue"
    formula: str  #: the closed form the model evaluates, e.g. "n + e - 1"
    model: int | None  #: the model's value (the schedule simulation); None: no model exists
    closed_form: int | None  #: the closed form evaluated; equals model unless noted
    paper: int | None = None  #: the paper's printed figure, if any
    source: str = ""  #: where the paper figure is printed
    status: str = NO_FIGURE
    note: str = ""


@dataclass(frozen=True)
class CycleReport:
    algo: str
    bits: int
    params: Mapping[str, Any]
    rows: list[CycleRow] = field(default_factory=list)
    label: str = "analytic model (not a measurement)"

    def row(self, quantity: str) -> CycleRow:
        for r in self.rows:
            if r.quantity == quantity:
                return r
        raise KeyError(quantity)


def operand_width(algo: str, bits: int, params: Mapping[str, Any]) -> int:
    """n: params["n"] when given, else ``bits``; a modulus of ``bits`` bits must fit in it."""
    if bits < 2:
        raise registry.ParameterError(f"{algo}: the modulus width must be >= 2 bits, got {bits}")
    n = params.get("n")
    n = bits if n is None else n
    if n < bits:
        raise registry.ParameterError(f"{algo}: n = {n} is narrower than the {bits}-bit modulus")
    return int(n)


def with_paper(
    algo: str,
    quantity: str,
    formula: str,
    model: int,
    closed_form: int,
    params: Mapping[str, Any],
    note: str = "",
    printed: int | None = None,
    printed_source: str = "",
    printed_derivable: bool = True,
) -> CycleRow:
    """A row for ``quantity`` with the paper's figure beside the model, and its status.

    The paper's figure is a printed table value from the registry when one matches ``params``,
    else ``printed``: the paper's own closed form evaluated at these parameters (with
    ``printed_derivable = False`` for formulas the paper quotes but does not derive).
    """
    figs = registry.figures_for(algo, quantity, params)
    if figs:
        f = figs[0]
        paper, source, derivable = f.cycles, f.source, f.derivable
        note = f.note or note
    elif printed is not None:
        paper, source, derivable = printed, printed_source, printed_derivable
    else:
        return CycleRow(quantity, formula, model, closed_form, note=note)
    if not derivable:
        status = NOT_DERIVABLE
    elif paper == model:
        status = MATCH
    else:
        status = DIFFERS
    return CycleRow(quantity, formula, model, closed_form, paper, source, status, note)


def paper_only(
    algo: str, bits: int, params: Mapping[str, Any], used: Mapping[str, Any], formula: str
) -> CycleReport:
    """A report with no model value: the paper's figure for ``used`` (if any) marked not
    derivable, for designs whose papers print cycle counts without a schedule."""
    figs = registry.figures_for(algo, "cycles", used)
    if figs:
        f = figs[0]
        row = CycleRow("cycles", formula, None, None, f.cycles, f.source, NOT_DERIVABLE, f.note)
    else:
        row = CycleRow("cycles", formula, None, None)
    return CycleReport(
        algo, bits, dict(params, **used), [row], label="paper figures only (no model)"
    )


def model_for(algo: str, bits: int, params: Mapping[str, Any] | None = None) -> CycleReport:
    """Run the cycle model of ``algo`` at ``bits`` with registry-resolved ``params``."""
    resolved = registry.resolve_params(algo, params)
    mod = registry.get(algo).cycle_module()
    if mod is None:
        raise registry.ParameterError(f"{algo}: no cycle model")
    return mod.model(bits, resolved)
