"""Cycle model of fmlm3: the transform cycles of eqs. (28)-(29) (an analytic model, not a
measurement).

Citation: FMLM3 paper, Sec. 5.5, eqs. (28)-(29) and Table 5; SPEC 1.7. With n butterfly
structures (BFS) and P = 2^v, each transform takes

    (v - 1) * max(ceil(P/2n), 11 + ceil(P/4n)) + final

with final = 11 + ceil(P/2n) (CT, NCT), +2 for NCT when A = sqrt(2); 14 + P/2 (CT^-1);
16 + P/2 (NCT^-1), +2 when A = sqrt(2). 11 = BFS depth 6 + channel-switch depth 2 + 3 read/write.

Rows of :func:`model`: one per transform kind for the chosen set, then "cycles", the sum over
the transforms one multiplication runs (Algorithm 2: CT x2, CT^-1 x2, NCT x2, NCT^-1 x1;
Algorithm 3: CT, CT^-1, NCT x2, NCT^-1). Table 6 prints total cycles that also count the
component-wise and time-domain operations; the text does not give their overlap, so those totals
are shown as not derivable (SPEC 1.7). :func:`table5` reproduces Table 5 cell by cell.

Left out: the component-wise multiply-add, add/subtract and halving operations (their stated
costs do not add up to Table 6, SPEC 1.7), and memory conflicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from montlab import spectral_params as sp
from montlab.cycles import DIFFERS, MATCH, NOT_DERIVABLE, CycleReport, CycleRow, with_paper

ID = "fmlm3"
KINDS = ("ct", "ict", "nct", "inct")
LABELS = {"ct": "CT", "ict": "CT^-1", "nct": "NCT", "inct": "NCT^-1"}
#: Transforms per multiplication, as in Table 5's "(#)" column (Algorithm 2) and Sec. 4.3.
COUNTS = {2: {"ct": 2, "ict": 2, "nct": 2, "inct": 1}, 3: {"ct": 1, "ict": 1, "nct": 2, "inct": 1}}


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def transform_cycles(kind: str, p_len: int, bfs: int, sqrt2: bool = False) -> int:
    """Eqs. (28)-(29) for one transform of length P with ``bfs`` butterfly structures."""
    if kind not in KINDS:
        raise ValueError(f"unknown transform kind {kind!r}")
    v = p_len.bit_length() - 1
    stage = max(_cdiv(p_len, 2 * bfs), 11 + _cdiv(p_len, 4 * bfs))
    final = {
        "ct": 11 + _cdiv(p_len, 2 * bfs),
        "nct": 11 + _cdiv(p_len, 2 * bfs) + (2 if sqrt2 else 0),
        "ict": 14 + p_len // 2,
        "inct": 16 + p_len // 2 + (2 if sqrt2 else 0),
    }[kind]
    return (v - 1) * stage + final


FORMULAS = {
    "ct": "(v-1)max(ceil(P/2n), 11+ceil(P/4n)) + 11 + ceil(P/2n)",
    "ict": "(v-1)max(ceil(P/2n), 11+ceil(P/4n)) + 14 + P/2",
    "nct": "(v-1)max(ceil(P/2n), 11+ceil(P/4n)) + 11 + ceil(P/2n) (+2 if A = sqrt2)",
    "inct": "(v-1)max(ceil(P/2n), 11+ceil(P/4n)) + 16 + P/2 (+2 if A = sqrt2)",
}

# FMLM3 Table 5 as printed (fmlm3.txt, "TABLE 5 Cycle requirement and estimation"): for each
# (kind, n) the P = 32, 64, 128 entries; NCT and NCT^-1 give (A != sqrt2, A = sqrt2) pairs.
# n = 0 stands for the "n = P/2" estimate row.
TABLE5: dict[tuple[str, int], tuple[tuple[int, ...], ...]] = {
    ("ct", 1): ((104,), (203,), (459,)),
    ("ict", 1): ((107,), (206,), (462,)),
    ("nct", 1): ((104, 106), (203, 205), (459, 461)),
    ("inct", 1): ((109, 111), (208, 210), (464, 466)),
    ("ct", 2): ((79,), (122,), (235,)),
    ("ict", 2): ((90,), (141,), (270,)),
    ("nct", 2): ((79, 81), (122, 124), (235, 237)),
    ("inct", 2): ((92, 94), (143, 145), (272, 274)),
    ("ct", 4): ((67,), (94,), (141,)),
    ("ct", 0): ((60,), (72,), (84,)),
}
TABLE5_P = (32, 64, 128)


@dataclass(frozen=True)
class Table5Cell:
    row: int  #: 1-based row in the order of TABLE5
    kind: str
    n: str  #: "1", "2", "4" or "P/2"
    P: int  # noqa: N815
    printed: tuple[int, ...]
    model: tuple[int, ...]
    status: str  #: MATCH or DIFFERS
    note: str


def table5() -> list[Table5Cell]:
    """Every Table 5 cell (30: 10 rows x P = 32, 64, 128) beside eqs. (28)-(29).

    A cell with an (A != sqrt2, A = sqrt2) pair matches when both values match.
    """
    out = []
    for row, ((kind, n), cells) in enumerate(TABLE5.items(), 1):
        for p_len, printed in zip(TABLE5_P, cells, strict=True):
            bfs = p_len // 2 if n == 0 else n
            model = tuple(transform_cycles(kind, p_len, bfs, sqrt2) for sqrt2 in (False, True))
            model = model[: len(printed)]
            ok = model == printed
            note = ""
            if not ok:
                note = (
                    f"eqs. (28)-(29) give {'/'.join(map(str, model))}; the printed n = 1, P = 32 "
                    f"column is one more (SPEC 1.7), and the printed reductions for P = 32 "
                    f"(24 %, 35.6 %, 42.3 %) are taken from it"
                )
            out.append(
                Table5Cell(
                    row,
                    kind,
                    "P/2" if n == 0 else str(n),
                    p_len,
                    printed,
                    model,
                    MATCH if ok else DIFFERS,
                    note,
                )
            )
    return out


def _table6_totals(pset: sp.Fmlm3Set, bfs: int) -> list[int]:
    """Table 6 total cycles printed for this set and butterfly count (sp.fmlm3_table6_bfs)."""
    key = (pset.l, pset.alg, int(pset.c * pset.P), pset.P, pset.u)
    return [
        r[6]
        for r in sp.FMLM3_TABLE6
        if (r[0], r[1], r[3], r[4], r[5]) == key and sp.fmlm3_table6_bfs(r) == bfs
    ]


def model(bits: int, params: Mapping[str, Any]) -> CycleReport:
    from montlab.ref.fmlm3 import resolve_set

    if bits < 2:
        raise sp.ParameterError(f"{ID}: the modulus width must be >= 2 bits, got {bits}")
    pset = resolve_set(bits, params)
    bfs = int(params.get("bfs") or 1)
    if bfs > pset.P // 2:
        raise sp.ParameterError(f"{ID}: bfs = {bfs} exceeds P/2 = {pset.P // 2} butterflies")
    sqrt2 = pset.c == Fraction(1, 2)
    used = {
        "P": pset.P,
        "u": pset.u,
        "m_exp": int(pset.c * pset.P),
        "alg": pset.alg,
        "bfs": bfs,
    }
    rows: list[CycleRow] = []
    total = 0
    for kind in KINDS:
        cyc = transform_cycles(kind, pset.P, bfs, sqrt2 and kind in ("nct", "inct"))
        total += COUNTS[pset.alg][kind] * cyc
        printed = None
        n_key = 0 if bfs == pset.P // 2 and bfs > 4 else bfs
        entry = TABLE5.get((kind, n_key))
        if entry is not None and pset.P in TABLE5_P:
            vals = entry[TABLE5_P.index(pset.P)]
            printed = vals[1] if sqrt2 and len(vals) == 2 else vals[0]
        rows.append(
            with_paper(
                ID,
                kind,
                FORMULAS[kind],
                cyc,
                cyc,
                used,
                note=f"one {LABELS[kind]} (A = sqrt2)" if sqrt2 and kind[-3:] == "nct" else "",
                printed=printed,
                printed_source="FMLM3 Table 5",
            )
        )
    counts = COUNTS[pset.alg]
    formula = " + ".join(f"{counts[k]}*{LABELS[k]}" for k in KINDS)
    totals = _table6_totals(pset, bfs)
    rows.append(
        CycleRow(
            "cycles",
            f"transforms only: {formula}",
            total,
            total,
            totals[0] if totals else None,
            "FMLM3 Table 6 total cycles" if totals else "",
            NOT_DERIVABLE if totals else "no paper figure",
            "transforms only; the paper's total also counts component-wise and time-domain "
            "operations whose overlap the text does not give (SPEC 1.7)"
            if totals
            else "transforms only",
        )
    )
    return CycleReport(ID, bits, dict(params, **used), rows)
