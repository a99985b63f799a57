"""Every vector file, run through the models and engines via the one loader (montlab.vectors)."""

from __future__ import annotations

import importlib.util
from collections import Counter

import pytest
from conftest import REPO
from montlab import Modulus, errors, registry
from montlab.api import NATIVE_FIXED, native_runs
from montlab.cycles import model_for
from montlab.vectors import all_vector_files, encode_record, load_all, open_vector_file

RECORDS = load_all()
ALGOS = set(registry.ids())


def _gen_module():
    spec = importlib.util.spec_from_file_location("gen_all", REPO / "vectors/generators/gen_all.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_files_present() -> None:
    kinds = Counter(r["kind"] for r in RECORDS)
    assert len(all_vector_files()) >= 5 + 2 * len(ALGOS)
    assert (
        kinds["mul"] > 1000
        and kinds["cycles"] >= 4
        and kinds["reject"] >= 1
        and kinds["table"] >= 1
    )


@pytest.mark.parametrize("algo", sorted(ALGOS))
def test_mul_records(algo: str) -> None:
    recs = [r for r in RECORDS if r["kind"] == "mul" and r["algo"] == algo]
    assert recs, f"no vectors for {algo}"
    layers = ["ref"] + (
        ["native"] if "native" in registry.get(algo).layers and native_runs(algo) else []
    )
    for rec in recs:
        m = Modulus(rec["modulus"])
        params = {k: v for k, v in rec["params"].items()}
        for layer in layers:
            fixed = NATIVE_FIXED.get(algo, {})
            if layer == "native" and any(params.get(k, v) != v for k, v in fixed.items()):
                continue
            cfg = m.engine(algo, layer, **params).config
            assert cfg.r == rec["r"], rec["_source"]
            got = m.mul(rec["x"], rec["y"], algo, layer, **params)
            assert got == rec["result"], (
                f"{rec['_source']} ({layer}): {got:#x} != {rec['result']:#x}"
            )


def test_trace_records_match_the_models() -> None:
    traced = [r for r in RECORDS if r.get("trace") and r["algo"] in ALGOS]
    assert traced
    for rec in traced:
        tr: list = []
        Modulus(rec["modulus"]).mul(rec["x"], rec["y"], rec["algo"], "ref", tr, **rec["params"])
        assert len(tr) == len(rec["trace"]), rec["_source"]
        for mine, theirs in zip(tr, rec["trace"]):
            assert {k: mine[k] for k in theirs} == theirs, rec["_source"]


def test_spec_item7_drmmm_trace() -> None:
    """SPEC 6 item 7: C2 with k = 4, t = 2 on 64 bits: d + t = 18 iterations, result A*B*16^-16."""
    (rec,) = [
        r
        for r in RECORDS
        if r["algo"] == "drmmm" and r.get("note") == "SPEC 6 item 7" and r["params"]["alg"] == 2
    ]
    n, a, b = rec["modulus"], rec["x"], rec["y"]
    assert len(rec["trace"]) == 16 + 2
    assert rec["result"] == a * b * pow(16, -16, n) % n
    assert [e["i"] for e in rec["trace"]] == list(range(18))
    # q-hat used in iteration i is the one computed in iteration i - t + 1 (correction C2).
    qs = [e["q_new"] for e in rec["trace"]]
    assert [e["q_used"] for e in rec["trace"]] == [0] + qs[:-1]


def test_spec_item5_fmlm3_step17_corner() -> None:
    """SPEC 6 item 5: the McLaughlin value before step 17 equals N exactly, so 't >= N' is needed."""
    (rec,) = [r for r in RECORDS if r.get("note") == "SPEC 6 item 5"]
    n, x, y, r = rec["modulus"], rec["x"], rec["y"], rec["r"]
    assert r == 2**64 - 1 and n == (2**32 - 5) * (2**32 - 17)
    n_prime = -pow(n, -1, r) % r
    m = x * y * n_prime % r
    assert (x * y + m * n) % r == 0
    t = (x * y + m * n) // r
    assert t == n  # "t > N" would return N instead of 0
    assert rec["result"] == 0 == x * y * pow(r, -1, n) % n
    # The McLaughlin model with l = 64 reaches the same corner and returns 0.
    tr: list = []
    assert Modulus(n).mul(x, y, "mclaughlin", "ref", tr, l=64) == 0
    assert tr[0]["t"] == n
    # And so does FMLM3 itself, spectrally (u = 8, P = 8).
    tr = []
    assert Modulus(n).mul(x, y, "fmlm3", "ref", tr, **rec["params"]) == 0
    assert tr[0]["t"] == n


def test_cycle_records() -> None:
    recs = [r for r in RECORDS if r["kind"] == "cycles"]
    assert {(r["algo"], r["quantity"], r["cycles"]) for r in recs} >= {
        ("mwr2mm", "cycles", 36),
        ("mwr2mm", "cycles_harris", 25),
        ("mwr2mm_arch1", "cycles", 20),
        ("mwr2mm_arch2", "cycles", 20),
    }
    for rec in recs:
        rep = model_for(rec["algo"], rec["params"]["n"], rec["params"])
        assert rep.row(rec["quantity"]).model == rec["cycles"], rec["_source"]


def test_reject_records() -> None:
    recs = [r for r in RECORDS if r["kind"] == "reject" and r["algo"] in ALGOS]
    assert recs
    for rec in recs:
        with pytest.raises(getattr(errors, rec["error"])):
            Modulus(rec["modulus"]).mul(rec["x"], rec["y"], rec["algo"], "ref", **rec["params"])


def test_q1_table_record() -> None:
    from montlab.ref import mwr4mm

    (rec,) = [r for r in RECORDS if r["kind"] == "table" and r["name"] == "q1"]
    assert len(rec["entries"]) == 128
    for idx, ent in enumerate(rec["entries"]):
        assert mwr4mm.q1_index(*(ent[k] for k in ("S1", "S0", "x1", "x0", "Y1", "Y0", "M1"))) == idx
        assert ent["q1"] == mwr4mm.Q1_TABLE[idx]


def test_known_answer_files_are_reproducible() -> None:
    gen = _gen_module()
    assert {p.stem for p in (REPO / "vectors" / "kat").glob("*.jsonl")} == set(gen.KAT)
    for name, make in gen.KAT.items():
        path = REPO / "vectors" / "kat" / f"{name}.jsonl"
        assert path.read_text() == "".join(encode_record(r) + "\n" for r in make()), name


def test_loader_round_trip(tmp_path) -> None:
    from montlab.vectors import write_vector_file

    recs = [
        {
            "kind": "mul",
            "algo": "radix2",
            "params": {"n": 7, "walter": 0},
            "modulus": 97,
            "x": 5,
            "y": 7,
            "r": 128,
            "result": 95,
            "bound": 1,
            "trace": [{"S": [1, 2**70]}],
        }
    ]
    path = tmp_path / "v.jsonl"
    write_vector_file(path, recs)
    (back,) = list(open_vector_file(path))
    back.pop("_source")
    assert back == recs[0]
    path.write_text("{not json\n")
    with pytest.raises(ValueError, match="not JSON"):
        list(open_vector_file(path))
