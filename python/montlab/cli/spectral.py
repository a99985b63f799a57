"""CLI commands of the spectral designs: ``montlab params``, ``montlab tables`` and the FMLM3
Table 5 view of ``montlab cycles fmlm3``.

``params ALGO --bits L`` lists the eligible parameter sets for an L-bit modulus and marks the one
montlab picks (fmlm3: the corrected Algorithm 4; ism3: the Table II rules; ntt64: the dynamic
range b <= 27). ``tables`` recomputes every parameter table of the papers beside the printed
values, marks each cell "match", "erratum" or "not derivable", and with --out writes the report (docs/reproduction.md).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from montlab import spectral_params as sp
from montlab.errors import ParameterError


def _num(value: Any) -> Any:
    """JSON-friendly: Fractions as "1/2", integers >= 2^53 as 0x-hex strings."""
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else int(value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if abs(value) < 1 << 53 else hex(value)
    if isinstance(value, tuple):
        return "/".join(str(v) for v in value)
    return value


def _pow2_plus1(m: int) -> str:
    e = (m - 1).bit_length() - 1
    return f"2^{e}+1" if m == (1 << e) + 1 else hex(m)


# -- params ---------------------------------------------------------------------------------


def fmlm3_rows(bits: int, given: dict[str, Any]) -> list[dict[str, Any]]:
    from montlab import registry
    from montlab.ref.fmlm3 import resolve_set

    params = registry.resolve_params("fmlm3", given)
    explicit = any(params[k] is not None for k in ("P", "u", "m_exp", "alg"))
    chosen = resolve_set(bits, params)
    sp.check_ring(chosen, chosen.alg)
    sets = sp.algorithm4(bits)
    if explicit and chosen not in sets:
        sets.append(chosen)
    rows = []
    for s in sets:
        rows.append(
            {
                "l": s.l,
                "v": s.v,
                "P": s.P,
                "u": s.u,
                "c": _num(s.c),
                "M": _pow2_plus1(s.M),
                "m_exp": int(s.c * s.P),
                "omega": f"2^{int(2 * s.c)}",
                "A": "sqrt2" if s.c == sp.HALF else f"2^{int(s.c)}",
                "alg": s.alg,
                "printed_rule_alg": sp.algorithm4_printed_choice(s.u, s.v),
                "eq13": s.satisfies(2),
                "eq19": s.satisfies(3),
                "alg3_ring": _pow2_plus1(sp.ring(sp.c3(s.u, s.v), s.v)),
                "picked": s == chosen,
            }
        )
    return rows


def ism3_rows(bits: int, given: dict[str, Any]) -> list[dict[str, Any]]:
    from montlab import registry

    params = registry.resolve_params("ism3", given)
    chosen = sp.ism3_resolve(bits, params["v"], params["d"], params["mu"])
    cands = [sp.ism3_set(t, i) for t in range(5, 13) for i in (1, 0)]
    if chosen not in cands:
        cands.append(chosen)
    return [
        {
            "l": s.l,
            "q": _pow2_plus1(s.q),
            "v": 1 << s.t,
            "d": s.d,
            "omega": s.omega,
            "mu": s.mu,
            "s": s.s,
            "eligible": s.l >= bits and s.lookahead_ok,
            "picked": s == chosen,
        }
        for s in cands
        if s.l >= bits or s == chosen
    ][:8]


def ntt64_rows(bits: int, given: dict[str, Any]) -> list[dict[str, Any]]:
    from montlab import registry

    params = registry.resolve_params("ntt64", given)
    chosen = sp.ntt64_set(bits, params["b"])
    bmax = sp.ntt64_max_b()
    lo = -(-bits // sp.NTT64_SAMPLES)
    return [
        {
            "b": b,
            "operand_bits": sp.NTT64_SAMPLES * b,
            "coeff_bits": sp.ntt64_coeff_bits(b),
            "coeff_max": _num(sp.ntt64_coeff_max(b)),
            "below_p": sp.ntt64_coeff_max(b) < sp.NTT64_P,
            "picked": b == chosen.b,
        }
        for b in range(lo, bmax + 1)
    ]


#: Columns of the human-readable table (``--json`` has them all).
SHOWN = {
    "fmlm3": ["l", "P", "u", "c", "M", "A", "alg", "printed_rule_alg", "alg3_ring"],
    "ism3": ["l", "q", "d", "omega", "mu", "s", "eligible"],
}

PARAM_ROWS = {"fmlm3": fmlm3_rows, "ism3": ism3_rows, "ntt64": ntt64_rows}


@click.command()
@click.argument("algo")
@click.option("--bits", type=int, required=True, help="Modulus width L in bits.")
@click.option(
    "--set", "sets", multiple=True, metavar="KEY=VALUE", help="Explicit parameter (repeatable)."
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def params(algo: str, bits: int, sets: tuple[str, ...], as_json: bool) -> None:
    """The eligible parameter sets of a spectral ALGO for an L-bit modulus; marks the pick."""
    from montlab.cli import console, emit_json, handle_errors, parse_sets

    @handle_errors
    def run() -> None:
        if algo not in PARAM_ROWS:
            raise ParameterError(
                f"{algo}: no parameter selection (it applies to {', '.join(PARAM_ROWS)})"
            )
        if bits < 2:
            raise ParameterError(f"{algo}: --bits must be >= 2, got {bits}")
        rows = PARAM_ROWS[algo](bits, parse_sets(algo, sets))
        if as_json:
            emit_json({"algo": algo, "bits": bits, "sets": rows})
            return
        cols = SHOWN.get(algo, list(rows[0]))
        t = Table(title=f"{algo}: parameter sets for a {bits}-bit modulus (* = picked)")
        t.add_column("")
        for col in cols:
            t.add_column(col, overflow="fold")
        for r in rows:
            mark = "*" if r["picked"] else ""
            t.add_row(mark, *(str(r[c]) for c in cols), style="bold" if r["picked"] else None)
        console.print(t)

    run()


# -- tables -----------------------------------------------------------------------------------


def table5_cells() -> list[sp.TableCell]:
    """FMLM3 Table 5 as table cells (a differing cell is an erratum of the printed table)."""
    from montlab.cycles import MATCH
    from montlab.cycles.fmlm3 import LABELS, table5

    return [
        sp.TableCell(
            "FMLM3 Table 5",
            c.row,
            f"{LABELS[c.kind]}, n = {c.n}, P = {c.P}",
            "/".join(map(str, c.printed)),
            "/".join(map(str, c.model)),
            "match" if c.status == MATCH else "erratum",
            c.note or "eqs. (28)-(29)",
        )
        for c in table5()
    ]


def all_cells() -> list[sp.TableCell]:
    return sp.reproduce_tables() + table5_cells()


def summary(cells: list[sp.TableCell]) -> list[dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for c in cells:
        s = out.setdefault(
            c.table,
            {"table": c.table, "cells": 0, "match": 0, "erratum": 0, "not derivable": 0},
        )
        s["cells"] += 1
        s[c.status] += 1
    return list(out.values())


def reproduction_markdown(cells: list[sp.TableCell]) -> str:
    lines = [
        "# Reproduction of the papers' parameter tables",
        "",
        "Generated by `montlab tables --out docs/reproduction.md`. Every printed cell is recomputed from the rules of SPEC "
        "1.6 (FMLM3), 1.7 (Table 5, eqs. (28)-(29)), 2.1 (ISM3) and 4.2 (NTT64), and marked "
        "`match`, `erratum` (the printed value is wrong; the reason says why) or "
        "`not derivable` (the text does not let anyone recompute it).",
        "",
        "| table | cells | match | erratum | not derivable |",
        "| --- | --- | --- | --- | --- |",
    ]
    for s in summary(cells):
        lines.append(
            f"| {s['table']} | {s['cells']} | {s['match']} | {s['erratum']} | "
            f"{s['not derivable']} |"
        )
    for table in dict.fromkeys(c.table for c in cells):
        lines += [
            "",
            f"## {table}",
            "",
            "| row | column | printed | computed | status | reason |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for c in cells:
            if c.table != table:
                continue
            printed, computed = _md(c.printed), _md(c.computed)
            lines.append(
                f"| {c.row} | {c.column} | {printed} | {computed} | {c.status} | {c.reason} |"
            )
    return "\n".join(lines) + "\n"


def _md(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, int) and not isinstance(value, bool) and value > 1 << 20:
        if (value - 1) & (value - 2) == 0:
            return _pow2_plus1(value)
        return hex(value)
    return str(value)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the Markdown report there (docs/reproduction.md is this output).",
)
def tables(as_json: bool, out_path: str | None) -> None:
    """Recompute the papers' parameter tables beside the printed values; prints them, and
    writes the Markdown report only with --out."""
    from montlab.cli import console, emit_json, handle_errors

    @handle_errors
    def run() -> None:
        cells = all_cells()
        out = Path(out_path) if out_path else None
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(reproduction_markdown(cells))
        if as_json:
            emit_json(
                {
                    "summary": summary(cells),
                    "cells": [
                        {
                            "table": c.table,
                            "row": c.row,
                            "column": c.column,
                            "printed": _num(c.printed),
                            "computed": _num(c.computed),
                            "status": c.status,
                            "reason": c.reason,
                        }
                        for c in cells
                    ],
                    "written": str(out) if out else None,
                }
            )
            return
        t = Table(title="Papers' tables recomputed")
        for col in ("table", "cells", "match", "erratum", "not derivable"):
            t.add_column(col)
        for s in summary(cells):
            t.add_row(*(str(s[k]) for k in ("table", "cells", "match", "erratum", "not derivable")))
        console.print(t)
        for c in cells:
            if c.status == "erratum":
                console.print(
                    f"[yellow]erratum[/] {c.table} row {c.row} {c.column}: printed "
                    f"{_md(c.printed)}, computed {_md(c.computed)} ({c.reason})"
                )
        if out is not None:
            console.print(f"wrote {out}")

    run()


# -- cycles fmlm3 without --bits ----------------------------------------------------------------


def paper_cycle_table(algo: str, sets: tuple[str, ...], as_json: bool, console: Console) -> bool:
    """``montlab cycles fmlm3``: Table 5 beside eqs. (28)-(29). False for other ids."""
    if algo != "fmlm3":
        return False
    from montlab.cli import emit_json
    from montlab.cycles import MATCH
    from montlab.cycles.fmlm3 import LABELS, table5

    if sets:
        raise ParameterError("fmlm3: --set needs --bits (Table 5 covers its own P and n)")
    cells = table5()
    ok = sum(c.status == MATCH for c in cells)
    if as_json:
        emit_json(
            {
                "algo": algo,
                "label": "analytic model (not a measurement): eqs. (28)-(29)",
                "table": "FMLM3 Table 5",
                "matching": ok,
                "cells": len(cells),
                "rows": [
                    {
                        "kind": c.kind,
                        "n": c.n,
                        "P": c.P,
                        "paper": list(c.printed),
                        "model": list(c.model),
                        "status": c.status,
                        "note": c.note,
                    }
                    for c in cells
                ],
            }
        )
        return True
    t = Table(title=f"FMLM3 Table 5 against eqs. (28)-(29): {ok} of {len(cells)} cells match")
    for col in ("transform", "n", "P", "model", "paper", "status"):
        t.add_column(col)
    for c in cells:
        t.add_row(
            LABELS[c.kind],
            c.n,
            str(c.P),
            "/".join(map(str, c.model)),
            "/".join(map(str, c.printed)),
            c.status if c.status == MATCH else f"[red]{c.status}[/]",
        )
    console.print(t)
    for c in cells:
        if c.note:
            console.print(f"P = {c.P}, n = {c.n}, {LABELS[c.kind]}: {c.note}")
            break
    return True
