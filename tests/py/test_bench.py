"""montlab bench: structure, the correctness check, skipped peers and the files it writes.

Quick runs at small sizes with one round; nothing here asserts a timing.
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from montlab.bench import DEFAULT_OPS, PEERS, make_config, run_bench
from montlab.bench import impls as bench_impls
from montlab.bench import openssl as bench_openssl
from montlab.bench.core import BenchConfig, BenchReport, Oracle, make_case, predict
from montlab.bench.impls import Bound, Case, Impl
from montlab.bench.native import NativeAdapter, find_fast_type
from montlab.cli import main


def small(**kw: Any) -> BenchConfig:
    """A configuration for a fast run: one round, short samples."""
    return make_config(rounds=1, sample_s=0.002, budget_s=1.0, **kw)


def status(report: BenchReport, op: str, bits: int, impl: str) -> str:
    m = report.get(op, bits, impl)
    assert m is not None, (op, bits, impl)
    return m.status


def run_cli(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, ["bench", *args])
    if res.exception and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code, res.stdout, res.stderr


def test_quick_run_structure() -> None:
    cfg = small(sizes=["256,128"], peers=["python", "gmpy2"])
    assert cfg.sizes == (128, 256) and cfg.ops == DEFAULT_OPS
    report = run_bench(cfg)
    assert not report.errors()
    for op in DEFAULT_OPS:
        for bits in cfg.sizes:
            for name in ("montlab", "python", "gmpy2"):
                m = report.get(op, bits, name)
                assert m is not None and m.status == "ok", (op, bits, name, m)
                assert m.median is not None and m.median > 0 and m.reps >= 1
            assert report.ratio(op, bits, "gmpy2") is not None
    assert {b.op for b in report.blocks} == set(DEFAULT_OPS)
    assert all(b.rounds == 1 and b.oracle for b in report.blocks)
    batch = report.get("batch", 256, "montlab")
    assert batch is not None and batch.per_call == cfg.batch
    assert report.machine["cpu"]["cores"] and report.date
    assert "montlab bench --sizes 128,256 --peers gmpy2,python" in report.config.command()


def test_operands_are_full_size() -> None:
    for bits in (64, 100, 256):
        case = make_case("batch", bits, 7, 3)
        assert case.n.bit_length() == bits and case.n % 2 == 1
        assert case.e.bit_length() == bits
        assert all(0 <= x < case.n for x in (case.a, case.b, *case.bases))
        assert len(case.bases) == 3 and case.bases[0] == case.a
    expected = Oracle().expected(make_case("modexp", 128, 1, 2))
    c = make_case("modexp", 128, 1, 2)
    assert expected == pow(c.a, c.e, c.n)


def _wrong_peer() -> Impl:
    """a*b % n + 1 and pow(b, e, n) ^ 1: wrong on every input."""

    def bind(case: Case) -> Bound:
        n = case.n
        if case.op == "modmul":
            return Bound(lambda: (case.a * case.b + 1) % n, int, "off by one")
        if case.op == "modexp":
            return Bound(lambda: pow(case.a, case.e, n) ^ 1, int, "low bit flipped")
        return Bound(lambda: [pow(x, case.e, n) for x in case.bases][::-1], list, "reversed")

    return Impl("wrong", "0", bind)


def test_wrong_result_is_an_error_not_a_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PEERS, "wrong", _wrong_peer)
    cfg = small(sizes=["256"], peers=["wrong"])
    report = run_bench(cfg)
    errors = report.errors()
    assert {(m.op, m.impl) for m in errors} == {(op, "wrong") for op in DEFAULT_OPS}
    for m in errors:
        assert "wrong result" in m.note and m.samples == [] and m.median is None
        assert report.ratio(m.op, m.bits, "wrong") is None
    assert status(report, "modexp", 256, "montlab") == "ok"

    code, out, err = run_cli("--sizes", "256", "--peers", "wrong", "--rounds", "1")
    assert code == 1
    assert "montlab: error: 3 failed measurement(s)" in err and "wrong result" in err
    assert "ERROR" in out


def test_raising_implementation_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom() -> None:
        raise RuntimeError("no luck")

    monkeypatch.setitem(PEERS, "boom", lambda: Impl("boom", "0", lambda c: Bound(boom, int, "x")))
    report = run_bench(small(sizes=["64"], peers=["boom"], ops=["modmul"]))
    (m,) = report.errors()
    assert m.impl == "boom" and "RuntimeError: no luck" in m.note


def test_missing_peers_are_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "flint", None)  # import flint now raises ImportError
    monkeypatch.setitem(sys.modules, "gmpy2", None)
    monkeypatch.setattr(bench_openssl.ctypes.util, "find_library", lambda name: None)
    cfg = small(sizes=["128"], peers=["flint", "gmpy2", "openssl"])
    report = run_bench(cfg)
    assert not report.errors()
    for name in ("flint", "gmpy2", "openssl"):
        assert report.impls[name]["status"] == "skipped"
        assert any(n.startswith(f"{name} skipped") for n in report.notes)
    assert report.impl_names("modexp") == ["montlab"]
    assert Oracle().name(make_case("modexp", 32768, 0, 2)) == "pow"  # no gmpy2: pow everywhere

    code, out, _ = run_cli("--sizes", "128", "--peers", "flint,openssl", "--rounds", "1")
    assert code == 0
    assert "flint skipped" in out and "libcrypto not found" in out


def test_unsupported_operation_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    def bind(case: Case) -> Bound:
        if case.op != "modexp":
            raise bench_impls.Unsupported("modexp only")
        return Bound(lambda: pow(case.a, case.e, case.n), int, "pow")

    monkeypatch.setitem(PEERS, "partial", lambda: Impl("partial", "0", bind))
    report = run_bench(small(sizes=["64"], peers=["partial"]))
    assert status(report, "modmul", 64, "partial") == "skipped"
    assert status(report, "modexp", 64, "partial") == "ok"


def test_cli_writes_json_plot_and_markdown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    js, png, md = tmp_path / "out.json", tmp_path / "out.png", tmp_path / "out.md"
    # A MONTLAB_ variable the record must carry (no code reads this one).
    monkeypatch.setenv("MONTLAB_BENCH_NOTE", "recorded")
    code, out, _ = run_cli(
        "--sizes", "128,256", "--peers", "python", "--rounds", "1", "--sample", "0.002",
        "--json", str(js), "--plot", str(png), "--markdown", str(md),
    )  # fmt: skip
    assert code == 0
    assert "modmul" in out and "montlab" in out
    data = json.loads(js.read_text())
    assert data["command"].startswith("montlab bench --sizes 128,256 --peers python --ops ")
    assert {"date", "machine", "config", "results", "ratios", "blocks", "errors"} <= set(data)
    assert {"model", "flags", "cores"} <= set(data["machine"]["cpu"])
    assert data["machine"]["versions"]["python"]
    # Provenance: the commit and the native build the figures came from.
    assert "commit" in data["machine"] and data["machine"]["native_build"]["rustc"]
    assert data["machine"]["env"]["MONTLAB_BENCH_NOTE"] == "recorded"
    assert data["errors"] == []
    res = {(r["op"], r["bits"], r["impl"]): r for r in data["results"]}
    for op in DEFAULT_OPS:
        assert res[(op, 256, "montlab")]["median_s"] > 0
    assert {(r["op"], r["bits"]) for r in data["ratios"] if r["peer"] == "python"} == {
        (op, bits) for op in DEFAULT_OPS for bits in (128, 256)
    }
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = md.read_text()
    assert "Command: `montlab bench" in text and "| bits | montlab | python | ml/python |" in text

    code, out, _ = run_cli("--sizes", "64", "--peers", "", "--ops", "modmul", "--json", "-")
    assert code == 0 and json.loads(out)["config"]["peers"] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--peers", "gmp"], "--peers: unknown 'gmp'"),
        (["--sizes", "32"], "--sizes: 32 is below the minimum of 64 bits"),
        (["--sizes", "2048,big"], "--sizes: 'big' is not an integer"),
        (["--ops", "modadd"], "--ops: unknown 'modadd'"),
        (["--rounds", "0"], "--rounds must be >= 1"),
        (["--batch", "0"], "--batch must be >= 1"),
        (["--budget", "0"], "--budget must be > 0"),
    ],
)
def test_bad_options(args: list[str], message: str) -> None:
    code, _, err = run_cli(*args)
    assert code == 1 and err.startswith("montlab: error: ") and message in err


def test_quick_defaults() -> None:
    cfg = make_config(quick=True)
    assert cfg.sizes == (2048, 4096, 8192) and cfg.timing.rounds == 3
    assert make_config(quick=True, sizes=["512"], rounds=2).sizes == (512,)
    assert make_config().sizes[-1] == 65536


def test_prediction_extrapolates_from_smaller_sizes() -> None:
    assert predict([], "modexp", 4096) is None
    assert predict([(1024, 1.0)], "modexp", 2048) == pytest.approx(8.0)
    assert predict([(1024, 1.0), (2048, 4.0)], "modexp", 4096) == pytest.approx(16.0)
    cfg = small(sizes=["64,128"], peers=["python"], ops=["modexp"], max_call_s=1e-9)
    report = run_bench(cfg)
    late = report.get("modexp", 128, "python")
    assert late is not None and late.status == "skipped" and "predicted" in late.note


class _MontOnly:
    """A stand-in for a native type without pow_many: Montgomery form, R = 2^bits."""

    def __init__(self, n: int) -> None:
        self.n, self.r = n, 1 << n.bit_length()

    def to_mont(self, x: int) -> int:
        return x * self.r % self.n

    def from_mont(self, x: int) -> int:
        return x * pow(self.r, -1, self.n) % self.n

    def mul(self, x: int, y: int) -> int:
        return x * y * pow(self.r, -1, self.n) % self.n

    def sqr(self, x: int) -> int:
        return self.mul(x, x)

    def pow(self, b: int, e: int) -> int:
        return pow(b, e, self.n)


class _FastType(_MontOnly):
    """A stand-in for the engine's fast type, whose pow_many takes one exponent per base."""

    def pow_many(self, bases: list[int], exps: list[int]) -> list[int]:
        if not isinstance(exps, list):
            raise TypeError("exps must be a list")
        return [pow(b, e, self.n) for b, e in zip(bases, exps)]


def test_adapter_prefers_the_fast_type() -> None:
    fake = types.ModuleType("fake_native")
    setattr(fake, "Cios", _MontOnly)
    assert find_fast_type(fake) is None
    setattr(fake, "Engine", _FastType)
    assert find_fast_type(fake) is _FastType
    adapter = NativeAdapter(fake)
    n, a, b = 1000003, 12345, 67890
    call, read, detail = adapter.modmul(n, a, b)
    assert read(call()) == a * b % n and detail == "_native._FastType.mul"
    many = adapter.pow_many(n, [2, 3, 5], 65537)
    assert many is not None
    call, read_many, detail = many
    assert read_many(call()) == [pow(x, 65537, n) for x in (2, 3, 5)]
    assert "pow_many (one exponent per base)" in detail


def test_adapter_on_the_built_module() -> None:
    from montlab import _native

    adapter = NativeAdapter()
    n = make_case("modmul", 512, 3, 2).n
    call, read, _ = adapter.modmul(n, 3, 5)
    assert read(call()) == 15
    desc: dict[str, Any] = adapter.describe()
    assert desc["modexp"] == "montlab.powm"
    if not callable(getattr(_native, "pow_many", None)) and adapter.fast_type is None:
        assert adapter.pow_many(n, [2, 3], 5) is None
        assert desc["batch"].startswith("montlab.powm single calls")


def test_openssl_arena_frees_and_round_trips() -> None:
    try:
        lib = bench_openssl.load()
    except bench_openssl.Unavailable as exc:
        pytest.skip(str(exc))
    s = lib.arena()
    try:
        n = make_case("modmul", 300, 5, 2).n
        x = s.bn(n - 2)
        assert s.to_int(x) == n - 2 and s.to_int(s.bn(0)) == 0
        mont = s.mont(s.bn(n))
        assert s.from_mont(s.to_mont(x, mont), mont) == n - 2
    finally:
        s.close()
        s.close()  # idempotent
