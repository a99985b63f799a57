"""Bounded formal checks of the four MWR2MM designs and DRMMM (montlab rtl formal, SymbiYosys
with pip's Yosys and Boolector), and proof that the harness catches injected bugs.

For every input sequence of 2 LAT + 4 cycles from reset (two operations in a row, resets at any
cycle), the harness rtl/formal/mont_formal.v checks z r = x y (mod m) with 0 <= z < 2m, done_o
exactly in the documented cycle, busy_o before it, z_o held after it and a reset returning to
idle. CI runs each design at its smallest legal width and at n = 4 with 2-bit words (three
words; Architecture 1 with one PE and a two-stage queue, Tenca-Koc with fewer PEs than words).
Three mutants of Architecture 2 must fail: PEs not cleared at start (seen only by the second
operation), a carry bit dropped (invisible at n = 2, found at n = 4) and done_o set by reset.
DRMMM runs at its smallest legal width (n = k = 2, t = 1) and at n = 4 with two digits, with
and without a pipelined quotient (t = 2); its erratum 2 variant (the printed d + t + 1
iterations) must fail at n = 4, and passes at n = 2, where m = 3 cannot tell r^-1 from r^-2.
"""

from __future__ import annotations

import pytest
from montlab.hw import formal, specs

#: (design, parameters, slow): the smallest legal width of each, then n = 4 with three words
#: (Architecture 1 and Tenca-Koc at n = 4 take about a minute: they run under ``slow``).
SETS = [
    ("mwr2mm_tk", {"n": 2, "w": 2}, False),
    ("mwr2mm_arch1", {"n": 2, "w": 2}, False),
    ("mwr2mm_arch2", {"n": 2, "w": 2}, False),
    ("mwr4mm_arch2", {"n": 4, "w": 4}, False),
    ("mwr2mm_tk", {"n": 4, "w": 2}, True),
    ("mwr2mm_arch1", {"n": 4, "w": 2, "p": 1}, True),
    ("mwr2mm_arch2", {"n": 4, "w": 2}, False),
    ("drmmm", {"n": 2, "k": 2, "t": 1}, False),
    ("drmmm", {"n": 4, "k": 2, "t": 1}, False),
    ("drmmm", {"n": 4, "k": 2, "t": 2}, False),
]

PE = "mwr2mm_arch2_pe.v"
TOP = "mwr2mm_arch2.v"
#: name -> (file, text, replacement, n, the harness assertions that must fail)
MUTANTS = {
    "pe_not_cleared": (
        PE,
        "end else if (clr_i) begin\n          v_q",
        "end else if (1'b0) begin\n          v_q",
        2,
        ["assert (lhs == rhs);"],
    ),
    "carry_bit_dropped": (
        PE,
        "(KIND == 0) ? {CB{1'b0}} : c_i;",
        "(KIND == 0) ? {CB{1'b0}} : (c_i & {{(CB-1){1'b0}}, 1'b1});",
        4,
        ["assert (lhs == rhs);"],
    ),
    "reset_sets_done": (
        TOP,
        "      done_q <= 1'b0;\n      run_q  <= 1'b0;",
        "      done_q <= 1'b1;\n      run_q  <= 1'b0;",
        2,
        ["assert (done == (active && cnt == LAST));"],
    ),
}


def _id(arch: str, sets: dict[str, int]) -> str:
    return arch + "," + ",".join(f"{k}={v}" for k, v in sets.items())


@pytest.mark.parametrize(
    ("arch", "sets"),
    [
        pytest.param(a, s, id=_id(a, s), marks=[pytest.mark.slow] if slow else [])
        for a, s, slow in SETS
    ],
)
def test_design_holds(arch: str, sets: dict[str, int]) -> None:
    spec = specs.get(arch)
    ap = spec.resolve(sets)
    res = formal.formal(spec, ap)
    print(f"{arch} {ap.as_dict()}: {res['status']} depth {res['depth']} in {res['seconds']} s")
    assert res["status"] == "PASS", res["failed"]
    assert res["depth"] == 2 * spec.cycles(ap) + 4 and not res["failed"]


@pytest.mark.parametrize("name", list(MUTANTS))
def test_injected_bug_fails(name: str) -> None:
    file, old, new, n, must_fail = MUTANTS[name]
    spec = specs.get("mwr2mm_arch2")
    text = next(f for f in spec.files() if f.name == file).read_text()
    assert text.count(old) == 1, f"{name}: the mutated text is gone from {file}"
    res = formal.formal(
        spec, spec.resolve({"n": n, "w": 2}), sources={file: text.replace(old, new)}
    )
    print(f"{name}: {res['status']} {res['failed']}")
    assert res["status"] == "FAIL"
    for line in must_fail:
        assert any(f.endswith(line) for f in res["failed"]), res["failed"]


def test_carry_mutant_needs_more_than_the_smallest_width() -> None:
    """The dropped carry bit is invisible at n = 2: why CI also checks n = 4."""
    file, old, new, _, _ = MUTANTS["carry_bit_dropped"]
    spec = specs.get("mwr2mm_arch2")
    text = next(f for f in spec.files() if f.name == file).read_text()
    res = formal.formal(
        spec, spec.resolve({"n": 2, "w": 2}), sources={file: text.replace(old, new)}
    )
    assert res["status"] == "PASS"


def test_drmmm_erratum_2_fails() -> None:
    """printed_loop = 1 runs d + t + 1 iterations and returns x y r^-1 2^-k: the harness's
    z r = x y (mod m) fails at n = 4; at n = 2 the only modulus, 3, cannot tell."""
    spec = specs.get("drmmm")
    res = formal.formal(spec, spec.resolve({"n": 4, "k": 2, "t": 1, "printed_loop": 1}))
    assert res["status"] == "FAIL"
    assert any(f.endswith("assert (lhs == rhs);") for f in res["failed"]), res["failed"]
    res = formal.formal(spec, spec.resolve({"n": 2, "k": 2, "t": 1, "printed_loop": 1}))
    assert res["status"] == "PASS"


def test_bad_requests_are_refused() -> None:
    from montlab.errors import ParameterError

    spec = specs.get("mwr2mm_arch2")
    ap = spec.resolve({"n": 2, "w": 2})
    with pytest.raises(ParameterError, match="depth = 3 must be in"):
        formal.formal(spec, ap, depth=3)
    lat = spec.cycles(ap)  # cycle 0 is reset: a start in cycle 1 ends in cycle LAT + 2
    with pytest.raises(ParameterError, match=rf"depth = {lat + 2} must be in \[{lat + 3},"):
        formal.formal(spec, ap, depth=lat + 2)
    with pytest.raises(ParameterError, match="no such design file"):
        formal.formal(spec, ap, sources={"nope.v": ""})
    with pytest.raises(ParameterError, match="no formal harness"):
        formal.formal(specs.get("ntt64"), specs.get("ntt64").resolve({}))
    drmmm = specs.get("drmmm")
    with pytest.raises(ParameterError, match="pp = 0"):
        formal.formal(drmmm, drmmm.resolve({"n": 4, "k": 2, "pp": 1, "win": 2}))
