"""Formal checks, for every input, of the combinational Fermat-ring blocks under ISM3 and FMLM3 (``montlab rtl formal-block``, harness ``rtl/formal/block_formal.v``), and mutants that the
harness must catch. A PASS is a proof at that width: the blocks have no state."""

from __future__ import annotations

import pytest
from montlab.errors import ParameterError
from montlab.hw import formal_blocks as fb

#: (block, K, slow): the Fermat blocks at K = 8 and at an odd K (the shifter's exponent wraps
#: at 2K, not at a power of two); K = 16 for the signed reduction under ``slow`` (20 s).
SETS = [
    ("fermat_addsub", 8, False),
    ("fermat_addsub", 13, False),
    ("fermat_shift", 8, False),
    ("fermat_shift", 13, False),
    ("fermat_reduce", 8, False),
    ("fermat_reduce", 13, False),
    ("fermat_reduce", 16, True),
]

#: name -> (block, K, text in its file, replacement, the assertion that must fail)
MUTANTS = {
    # the correction's sign read one bit too low
    "addsub_sign_bit": (
        "fermat_addsub",
        8,
        "assign s_o = sumq[K+1] ?",
        "assign s_o = sumq[K] ?",
        "assert ({1'b0, s} == sum % Q);",
    ),
    # -0 left as q: x = 0 shifted by e >= K
    "shift_negated_zero": (
        "fermat_shift",
        8,
        "(neg && pos != {(K+1){1'b0}})",
        "(neg)",
        "assert ({{(XW - K - 1){1'b0}}, y} == shifted % q_x);",
    ),
    # the + 2q correction dropped: a step below -q is returned unreduced
    "reduce_no_2q": (
        "fermat_reduce",
        8,
        "sq1[K+3] ? sq2 :",
        "sq1[K+3] ? sq1 :",
        "assert ({{(K + 1){1'b0}}, res} == a_mod);",
    ),
}


@pytest.mark.parametrize(
    ("block", "k"),
    [
        pytest.param(b, k, id=f"{b},K={k}", marks=[pytest.mark.slow] if slow else [])
        for b, k, slow in SETS
    ],
)
def test_block_holds(block: str, k: int) -> None:
    res = fb.formal_block(block, k)
    print(f"{block} K={k}: {res['status']} in {res['seconds']} s")
    assert res["status"] == "PASS" and not res["failed"], res


@pytest.mark.parametrize("name", list(MUTANTS))
def test_injected_bug_fails(name: str) -> None:
    block, k, old, new, must_fail = MUTANTS[name]
    text = fb.BLOCKS[block][0].read_text()
    assert text.count(old) == 1, f"{name}: the mutated text is gone from {block}"
    res = fb.formal_block(block, k, source=text.replace(old, new))
    print(f"{name}: {res['status']} {res['failed']}")
    assert res["status"] == "FAIL"
    assert any(f.endswith(must_fail) for f in res["failed"]), res["failed"]


def test_bad_requests_are_refused() -> None:
    with pytest.raises(ParameterError, match="no block harness"):
        fb.formal_block("fermat_bfly")
    with pytest.raises(ParameterError, match=r"K = 1 must be in \[2, 28\]"):
        fb.formal_block("fermat_addsub", 1)
    with pytest.raises(ParameterError, match="no block harness"):
        fb.formal_block("ntt64_reduce")


def test_cli_reports_the_proof_and_fails_with_status_1() -> None:
    import json

    from click.testing import CliRunner
    from montlab.cli import main

    res = CliRunner().invoke(main, ["rtl", "formal-block", "fermat_shift", "--k", "4", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (out["block"], out["params"], out["status"]) == ("fermat_shift", {"K": 4}, "PASS")
    res = CliRunner().invoke(main, ["rtl", "formal-block", "fermat_shift", "--k", "99"])
    assert res.exit_code == 1 and "K = 99 must be in [2, 28]" in res.stderr
