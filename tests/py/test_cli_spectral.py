"""The spectral designs through the CLI: params, tables, cycles fmlm3, mul and powm."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from montlab import spectral_params as sp
from montlab.api import powm
from montlab.cli import main
from montlab.testing import random_modulus_for


def run(*args: str) -> Any:
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def fails(*args: str) -> str:
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == 1, res.output
    assert "montlab: error:" in res.output
    return res.output


@pytest.mark.parametrize("l", [1024, 2048, 3072, 4096, 7680])
def test_params_fmlm3_is_the_corrected_algorithm4(l: int) -> None:  # noqa: E741
    out = run("params", "fmlm3", "--bits", str(l), "--json")
    by_p = {row["P"]: row for row in out["sets"]}
    for l_t, p_len, u, c, m_exp, alg, m3_exp in sp.SPEC_ALG4:
        if l_t != l:
            continue
        row = by_p[p_len]
        want_c = "1/2" if c == sp.HALF else int(c)
        assert (row["u"], row["c"], row["M"], row["alg"]) == (u, want_c, f"2^{m_exp}+1", alg)
        assert row["alg3_ring"] == f"2^{m3_exp}+1"
    picked = [row for row in out["sets"] if row["picked"]]
    assert len(picked) == 1 and picked[0]["l"] == l


def test_params_fmlm3_3072_picks_algorithm_2_against_the_printed_rule() -> None:
    out = run("params", "fmlm3", "--bits", "3072", "--json")
    (row,) = [r for r in out["sets"] if r["P"] == 128]
    assert row["alg"] == 2 and row["printed_rule_alg"] == 3 and not row["eq19"]


def test_params_ism3_and_ntt64() -> None:
    (picked,) = [
        r for r in run("params", "ism3", "--bits", "1024", "--json")["sets"] if r["picked"]
    ]
    assert (picked["l"], picked["q"], picked["d"], picked["mu"]) == (1790, "2^64+1", 128, 28)
    rows = run("params", "ntt64", "--bits", "8192", "--json")["sets"]
    (picked,) = [r for r in rows if r["picked"]]
    assert picked["b"] == 16 and picked["coeff_bits"] == 41 and rows[-1]["b"] == 27
    (picked,) = [
        r for r in run("params", "ntt64", "--bits", "12288", "--json")["sets"] if r["picked"]
    ]
    assert picked["b"] == 24 and picked["coeff_bits"] == 57


def test_params_errors() -> None:
    assert "no parameter selection" in fails("params", "cios", "--bits", "64")
    out = fails("params", "fmlm3", "--bits", "1024", "--set", "P=32", "--set", "m_exp=96",
                "--set", "alg=3")  # fmt: skip
    assert "eq. (19)" in out
    assert "max b = 27" in fails("params", "ntt64", "--bits", "20000")
    assert "eq. (5)" in fails("params", "ism3", "--bits", "100", "--set", "v=32", "--set", "mu=14")
    assert "unknown parameter" in fails("params", "fmlm3", "--bits", "64", "--set", "q=3")


def test_tables_marks_the_expected_cells(tmp_path: Path) -> None:
    out_md = tmp_path / "reproduction.md"
    out = run("tables", "--json", "--out", str(out_md))
    summary = {s["table"]: s for s in out["summary"]}
    for table in ("FMLM3 Table 3", "FMLM3 Table 4", "ISM3 Table II", "SPEC 1.6 Algorithm 4"):
        assert summary[table]["match"] == summary[table]["cells"] > 0, table
    t5 = summary["FMLM3 Table 5"]
    assert (t5["cells"], t5["match"], t5["erratum"]) == (30, 26, 4)
    t6 = summary["FMLM3 Table 6"]
    assert t6["erratum"] == 0 and t6["not derivable"] == 18
    bad = [c for c in out["cells"] if c["table"] == "FMLM3 Table 5" and c["status"] != "match"]
    assert all("P = 32" in c["column"] and "n = 1," in c["column"] for c in bad)
    text = out_md.read_text()
    assert "| FMLM3 Table 5 | 30 | 26 | 4 | 0 |" in text


def test_docs_reproduction_is_current(tmp_path: Path) -> None:
    """docs/reproduction.md is `montlab tables` output; regenerate it if this fails."""
    from conftest import REPO

    out_md = tmp_path / "r.md"
    run("tables", "--json", "--out", str(out_md))
    assert (REPO / "docs" / "reproduction.md").read_text() == out_md.read_text()


def test_cycles_fmlm3_table5_and_paper_only_figures() -> None:
    out = run("cycles", "fmlm3", "--json")
    assert (out["matching"], out["cells"]) == (26, 30)
    assert "model" in out["label"]
    rep = run("cycles", "fmlm3", "--bits", "2048", "--set", "bfs=2", "--json")
    rows = {r["quantity"]: r for r in rep["rows"]}
    assert rows["ct"]["model"] == rows["ct"]["paper"] == 235 and rows["ct"]["status"] == "match"
    assert rows["cycles"]["paper"] == 2036 and rows["cycles"]["status"] == "not derivable"
    for algo, bits, figure in (
        ("ism3", "3838", 1787),
        ("ism3", "926", 1046),
        ("ntt64", "8192", 2030),
    ):
        (row,) = run("cycles", algo, "--bits", bits, "--json")["rows"]
        assert row["model"] is None and row["paper"] == figure
        assert row["status"] == "not derivable"
    assert "--bits is required" in fails("cycles", "cios")


@pytest.mark.parametrize(
    "algo, bits",
    [(a, b) for a in ("fmlm3", "ism3", "ntt64") for b in (1024, 2048, 4096)] + [("ntt64", 8192)],
)
def test_powm_equals_pow(rng: random.Random, algo: str, bits: int) -> None:
    n = random_modulus_for(rng, algo, bits)
    b = rng.randrange(n)
    out = run("powm", hex(b), "65537", hex(n), "--algo", algo, "--json")
    assert int(out["result"], 16) == pow(b, 65537, n)


@pytest.mark.parametrize("algo", ["fmlm3", "ism3"])
def test_powm_full_exponent_1024(rng: random.Random, algo: str) -> None:
    n = random_modulus_for(rng, algo, 1024)
    b, e = rng.randrange(n), rng.getrandbits(1024)
    assert powm(b, e, n, algo, "ref") == pow(b, e, n)


def test_powm_ntt64_8192_64bit_exponent(rng: random.Random) -> None:
    n = random_modulus_for(rng, "ntt64", 8192)
    b, e = rng.randrange(n), rng.getrandbits(64)
    assert powm(b, e, n, "ntt64", "ref") == pow(b, e, n)


@pytest.mark.slow
@pytest.mark.parametrize(
    "algo, bits",
    [("fmlm3", 2048), ("ism3", 2048), ("fmlm3", 4096), ("ism3", 4096), ("ntt64", 8192)],
)
def test_powm_full_exponent_rsa_sizes(rng: random.Random, algo: str, bits: int) -> None:
    n = random_modulus_for(rng, algo, bits)
    b, e = rng.randrange(n), rng.getrandbits(bits)
    assert powm(b, e, n, algo, "ref") == pow(b, e, n)


def test_bad_input_through_the_cli() -> None:
    assert "shares the factor 3" in fails("mul", "fmlm3", "1", "1", hex(3 * (2**1021 + 1)))
    assert "2*N" in fails("mul", "ism3", hex(2 * 101), "1", "101")
    assert "x = " in fails("mul", "fmlm3", "0x65", "1", "101")
    out = fails("mul", "fmlm3", "1", "1", hex(2**95 + 3), "--set", "P=16", "--set", "u=6",
                "--set", "m_exp=16", "--set", "alg=2")  # fmt: skip
    assert "eq. (13)" in out
