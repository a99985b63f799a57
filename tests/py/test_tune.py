"""``montlab tune``: the cut-over rule, a small measured run, the stamped table and its loading."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from montlab import _native, tune
from montlab.cli import main
from montlab.errors import ParameterError
from montlab.tune import KEYS, NEVER, Point


def pts(op: str, ratios: dict[int, float]) -> list[Point]:
    return [Point(op, b, 0, 1.0, r) for b, r in ratios.items()]


def test_crossover_minimises_the_loss() -> None:
    assert tune.crossover(pts("mul", {1024: 2.0, 2048: 0.9, 3072: 0.8})) == 2048
    # Spectral wins 4096-8192, loses just above the doubling, wins again from 10240: a cut at
    # 4096 costs log 1.3 at 8256, one at 10240 costs more at 4096-8192.
    both = {2048: 1.5, 4096: 0.8, 6144: 0.7, 8192: 0.7, 8256: 1.3, 10240: 0.9, 16384: 0.5}
    assert tune.crossover(pts("pow", both)) == 4096
    # A long losing stretch after a short win moves the cut past it.
    assert tune.crossover(pts("pow", {4096: 0.95, 8256: 1.5, 9000: 1.4, 12000: 0.8})) == 12000
    assert tune.crossover(pts("mul", {1024: 1.5, 2048: 1.0})) == NEVER
    assert tune.crossover(pts("mul", {1024: 0.5})) == 1024
    assert tune.crossover([]) == NEVER


def banded(op: str, ratios: dict[int, tuple[int, float]]) -> list[Point]:
    return [Point(op, b, n, 1.0, r) for b, (n, r) in ratios.items()]


def test_switch_points_per_transform_length() -> None:
    # The shape montlab tune measured for pow_sec on a Zen 4 (docs/tune-sec-ifma.json, rounded):
    # spectral wins at the top of the 256 band, loses above the doubling, wins from 23168.
    sec = {
        12608: (256, 1.36),
        13760: (256, 1.10),
        15040: (256, 0.93),
        16384: (256, 0.83),
        16448: (512, 1.70),
        19456: (512, 1.02),
        21248: (512, 1.04),
        23168: (512, 0.88),
        32768: (512, 0.46),
        32832: (1024, 0.97),
        35712: (1024, 0.80),
    }
    cut = tune.switch_points(banded("sec", sec))
    assert cut == [15040, 16385, 23168]
    on = [b for b in sec if tune.spectral_on(cut, b)]
    assert on == [15040, 16384, 23168, 32768, 32832, 35712]
    assert tune.crossover(banded("sec", sec)) == 23168  # one cut gives up 15040-16384
    # A band that loses throughout switches the kernel off at its first size, for good.
    tail = {4096: (128, 0.8), 8192: (128, 0.7), 8256: (256, 1.3), 12000: (256, 1.1)}
    assert tune.switch_points(banded("pow", tail)) == [4096, 8193]
    # A band whose first size already wins keeps the kernel on across the doubling.
    assert tune.switch_points(banded("pow", {4096: (128, 0.8), 8256: (256, 0.9)})) == 4096
    assert tune.switch_points(banded("pow", {4096: (128, 1.2), 8256: (256, 1.1)})) == NEVER
    # A spectral stretch that gains less than MIN_GAIN (one size at 0.96: noise) adds no switch
    # points; a band that continues a stretch needs no gain.
    noise = {8192: (128, 0.96), 8256: (256, 2.2), 13760: (256, 0.9), 16384: (256, 0.68)}
    assert tune.switch_points(banded("mul", noise)) == 13760
    assert tune.switch_points(banded("mul", {4096: (128, 0.9), 8256: (256, 0.99)})) == 4096
    # Nor does a word-level stretch inside a spectral run that gains less (1.01 at one size).
    tail = {30080: (512, 0.55), 32768: (512, 0.47), 32832: (1024, 1.01), 35712: (1024, 0.84)}
    assert tune.switch_points(banded("sec", tail)) == 30080
    assert tune.switch_points([]) == NEVER
    # Past MAX_POINTS the earliest stretches go.
    many = {}
    for k in range(6):
        lo = 1000 * (k + 1)
        many |= {lo: (k, 1.5), lo + 500: (k, 0.9)}
    # Bands k = 0..5 win from 1000 (k + 1) + 500: 11 switch points, the first 4 dropped.
    want = [3500, 3501, 4500, 4501, 5500, 5501, 6500]
    assert tune.switch_points(banded("mul", many)) == want


def test_spectral_on() -> None:
    assert tune.spectral_on(100, 100) and not tune.spectral_on(100, 99)
    assert [b for b in (5, 10, 15, 20, 25) if tune.spectral_on([10, 20], b)] == [10, 15]
    assert tune.first_point([10, 20]) == 10 and tune.first_point(7) == 7


def test_octave_rule() -> None:
    assert not tune.octave_won(pts("pow", {1024: 0.9, 1536: 0.9}))
    assert tune.octave_won(pts("pow", {1024: 0.9, 1536: 0.9, 2048: 0.8}))
    assert not tune.octave_won(pts("pow", {1024: 0.9, 1536: 1.1, 2048: 0.8, 3072: 0.8}))


def test_grid_has_the_sizes_just_above_each_doubling() -> None:
    assert tune.default_sizes(1024, 4096, 1024) == (1024, 1088, 2048, 2112, 3072, 4096)
    cfg = tune.make_config()
    assert cfg.sizes[0] == 1024 and cfg.sizes[-1] == 32768 and 8256 in cfg.sizes
    assert all(b % 64 == 0 for b in cfg.sizes)
    assert 40 <= len(cfg.sizes) <= 50  # 8 per octave over 5 octaves, plus the doublings
    assert cfg.command.startswith("montlab tune --from 1024 --to 32768 --rounds 5")
    assert tune.make_config(quick=True).sizes == (
        1024,
        1088,
        1216,
        1472,
        1728,
        2048,
        2112,
        2432,
        2880,
        3456,
        4096,
        4160,
        4864,
        5824,
        6912,
        8192,
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"lo": 64}, "--from"),
        ({"lo": 2048, "hi": 1024}, "--to"),
        ({"step": 0}, "--step"),
        ({"rounds": 0}, "--rounds"),
        ({"sample_s": 0.0}, "--sample"),
        ({"ops": ()}, "--ops"),
        ({"ops": ("mul", "div")}, "--ops"),
        ({"ops": ("mul", "mul")}, "--ops"),
    ],
)
def test_bad_config(kwargs: dict, match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        tune.make_config(**kwargs)


def small_run() -> tune.TuneReport:
    cfg = tune.make_config(lo=192, hi=1024, step=256, rounds=1, sample_s=0.001)
    return tune.run_tune(cfg)


def test_run_measures_both_kernels_and_restores_the_table() -> None:
    before = _native.thresholds()
    report = small_run()
    assert _native.thresholds() == before
    # Every operation measured; the key montlab tune does not measure is carried over.
    assert report.kept == {k: (before[k], tune.NOT_TUNED) for k in tune.IFMA_KEYS}
    assert all(report.thresholds()[k] == before[k] for k in tune.IFMA_KEYS)
    for op in KEYS:
        got = report.of(op)
        assert got, op
        assert all(p.word_s > 0 and p.spectral_s > 0 and p.transform_len >= 2 for p in got)
        # Only an octave of spectral wins stops a scan early; otherwise every size is measured.
        if not tune.octave_won(got):
            assert [p.bits for p in got] == list(report.config.sizes)
    # short's transform is ntt_redc's, whose length depends on the size only.
    for p in report.of("short"):
        assert p.transform_len == _native.NttRedc((1 << (p.bits - 1)) | 1).transform_len
    th = report.thresholds()
    assert set(th) == set(KEYS.values()) | tune.IFMA_KEYS
    sizes = report.config.sizes
    for k in KEYS.values():  # on at a measured size, off one bit above one
        points = [th[k]] if isinstance(th[k], int) else th[k]
        assert all(p == NEVER or p in sizes or p - 1 in sizes for p in points), th
    for key in ("cpu", "date", "compiler", "target", "montlab", "ifma", "adx", "command"):
        assert key in report.stamp
    assert report.stamp["adx"] == _native.ADX and report.stamp["ifma"] == _native.IFMA
    assert report.stamp["avx2"] == _native.AVX2
    assert report.stamp["compiler"].startswith("rustc")


def test_table_round_trip_and_apply(tmp_path: Path) -> None:
    report = small_run()
    path = tmp_path / "t.toml"
    tune.write_table(report, path)
    th, st = tune.read_table(path)
    assert th == report.thresholds()
    assert st["command"] == report.config.command
    try:
        tune.apply_table(path)
        applied = _native.thresholds()
        assert {k: applied[k] for k in th} == th
        assert set(applied) == set(th)  # a tuned table sets every key
        assert tune.SOURCE == str(path)
    finally:
        _native.set_thresholds(None)
        tune.SOURCE = "generic"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[thresholds]\nspectral_mul_bits = 1\n", "needs a"),
        ("[thresholds]\nspectral_mul_bits = 1\nspectral_pow_bits = 1\nother = 1\n", "needs a"),
        ("[thresholds]\nspectral_mul_bits = 1\nspectral_pow_bits = -1\n", "integer"),
        ("[thresholds]\nspectral_mul_bits = 1\nspectral_pow_bits = 'x'\n", "integer"),
        ("[thresholds]\nspectral_mul_bits = 1\nspectral_pow_bits = [5, 5]\n", "increasing"),
        ("[thresholds]\nspectral_mul_bits = 1\nspectral_pow_bits = []\n", "list of 1 to"),
        (
            "[thresholds]\nspectral_mul_bits = 1\nspectral_pow_bits = 1\nntt_redc_pow_bits = [1]\n",
            "ntt_redc_pow_bits must be an integer in \\[0, 2\\^63\\)$",
        ),
        ("[thresholds\n", "t.toml"),
    ],
)
def test_bad_table(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ParameterError, match=match):
        tune.read_table(path)


def test_table_with_switch_points(tmp_path: Path) -> None:
    """A cut-over list reads, applies and dispatches: spectral on, off and on again."""
    path = tmp_path / "t.toml"
    path.write_text(
        "[thresholds]\nspectral_mul_bits = [1000, 2049, 3000]\nspectral_pow_bits = 4000\n"
    )
    try:
        assert tune.apply_table(path)["spectral_mul_bits"] == [1000, 2049, 3000]
        assert _native.thresholds()["spectral_mul_bits"] == [1000, 2049, 3000]
        for bits, kernel in ((999, "word"), (2048, "spectral"), (2049, "word"), (3000, "spectral")):
            m = _native.FastModulus((1 << (bits - 1)) | 1)
            assert (m.mul_kernel == "spectral") == (kernel == "spectral"), bits
    finally:
        _native.set_thresholds(None)
        tune.SOURCE = "generic"


def test_bad_table_bytes(tmp_path: Path) -> None:
    """A table that is not UTF-8 is a malformed table, not a crash."""
    path = tmp_path / "t.toml"
    path.write_bytes(b"\xff\xfe[thresholds]\n")
    with pytest.raises(ParameterError, match="t.toml"):
        tune.read_table(path)
    with pytest.raises(ParameterError, match=f"threshold table {tmp_path.name}|{tmp_path}"):
        tune.read_table(tmp_path)  # a folder


def test_import_with_bad_table(tmp_path: Path) -> None:
    """montlab and the CLI survive any bad thresholds file: on first use of the native engine
    one warning names the file, and the generic table is used."""
    import os
    import subprocess
    import sys

    path = tmp_path / "t.toml"
    path.write_bytes(b"\xff\xfe")
    env = {**os.environ, tune.ENV: str(path)}
    code = "import montlab, montlab.tune as t; montlab.FastModulus(7); print(t.SOURCE)"
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout.strip() == "generic", res
    warns = [ln for ln in res.stderr.splitlines() if "Warning" in ln]
    assert len(warns) == 1 and str(path) in warns[0], res.stderr
    res = subprocess.run(
        [sys.executable, "-m", "montlab", "powm", "3", "5", "7"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0 and res.stdout.strip().endswith("5"), res
    assert "Traceback" not in res.stderr


def test_apply_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = tmp_path / "good.toml"
    good.write_text(
        "[stamp]\ncpu = 'x'\n[thresholds]\nspectral_mul_bits = 7\nspectral_pow_bits = 9\n"
    )
    bad = tmp_path / "bad.toml"
    bad.write_text("[thresholds]\nspectral_mul_bits = 7\n")
    generic = tune_generic()  # keys not in the table: the generic ones stay
    try:
        monkeypatch.setenv(tune.ENV, str(good))
        assert tune.apply_installed() == str(good)
        assert _native.thresholds() == {
            "spectral_mul_bits": 7,
            "spectral_pow_bits": 9,
            "ntt_redc_pow_bits": generic["ntt_redc_pow_bits"],
            "spectral_sec_bits": generic["spectral_sec_bits"],
            "ifma_mul_bits": generic["ifma_mul_bits"],
            "ifma_residue_bits": generic["ifma_residue_bits"],
        }
        monkeypatch.setenv(tune.ENV, str(bad))
        with pytest.warns(UserWarning, match="generic"):
            assert tune.apply_installed() == "generic"
        assert _native.thresholds() == tune_generic()
        monkeypatch.setenv(tune.ENV, str(tmp_path / "missing.toml"))
        with pytest.warns(UserWarning, match="missing.toml"):
            assert tune.apply_installed() == "generic"
        # No variable: the installed location, absent here, leaves the generic table.
        monkeypatch.delenv(tune.ENV)
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
        assert tune.installed_path() == tmp_path / "cfg" / "montlab" / "thresholds.toml"
        assert tune.apply_installed() == "generic"
        tune.installed_path().parent.mkdir(parents=True)
        tune.installed_path().write_text(good.read_text())
        assert tune.apply_installed() == str(tune.installed_path())
        monkeypatch.setenv(tune.ENV, "generic")
        assert tune.apply_installed() == "generic"
        assert _native.thresholds() == tune_generic()
    finally:
        _native.set_thresholds(None)
        tune.SOURCE = "generic"


def test_run_with_ops_keeps_the_table_in_force(tmp_path: Path) -> None:
    """--ops measures only the operations named; the others keep the value in force."""
    try:
        _native.set_thresholds(
            "spectral_mul_bits = 5000\nspectral_sec_bits = 18446744073709551615\n"
        )
        in_force = _native.thresholds()
        cfg = tune.make_config(lo=256, hi=512, step=256, rounds=1, sample_s=0.001, ops=("pow",))
        assert cfg.ops == ("pow",) and cfg.command.endswith("--ops pow")
        report = tune.run_tune(cfg)
        assert _native.thresholds() == in_force
    finally:
        _native.set_thresholds(None)
    assert {p.op for p in report.points} == {"pow"}
    th = report.thresholds()
    assert th[KEYS["mul"]] == 5000 and th[KEYS["sec"]] == NEVER  # 2^64 - 1 written as never
    assert th[KEYS["pow"]] in (256, 512, NEVER)
    assert set(report.kept) == {KEYS["mul"], KEYS["sec"], KEYS["short"]} | tune.IFMA_KEYS
    assert report.as_dict()["not_measured"][KEYS["mul"]]["value"] == 5000
    assert "# spectral_mul_bits: not measured" in tune.table_text(report)
    tune.write_table(report, tmp_path / "t.toml")  # reads back
    assert tune.read_table(tmp_path / "t.toml")[0] == th


def test_every_key_of_a_table_is_applied(tmp_path: Path) -> None:
    """A table's optional keys are applied too, not only the measured ones."""
    path = tmp_path / "t.toml"
    path.write_text(
        "[thresholds]\nspectral_mul_bits = 3\nspectral_pow_bits = 4\n"
        "ntt_redc_pow_bits = 5\nspectral_sec_bits = 6\n"
    )
    try:
        tune.apply_table(path)
        assert _native.thresholds() == {
            "spectral_mul_bits": 3,
            "spectral_pow_bits": 4,
            "ntt_redc_pow_bits": 5,
            "spectral_sec_bits": 6,
            "ifma_mul_bits": tune_generic()["ifma_mul_bits"],
            "ifma_residue_bits": tune_generic()["ifma_residue_bits"],
        }
    finally:
        _native.set_thresholds(None)
        tune.SOURCE = "generic"


def tune_generic() -> dict[str, int]:
    _native.set_thresholds(None)
    return _native.thresholds()


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, ["tune", *args])
    if res.exception and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code, res.stdout, res.stderr


def test_cli_writes_table_plot_and_json(tmp_path: Path) -> None:
    small = ["--from", "256", "--to", "768", "--step", "256", "--rounds", "1", "--sample", "0.001"]
    out, plot, js = tmp_path / "t.toml", tmp_path / "t.png", tmp_path / "t.json"
    code, stdout, err = run(*small, "--out", str(out), "--plot", str(plot), "--json", str(js))
    assert code == 0, err
    assert "spectral / word-level" in stdout and "measured:" in stdout
    th, st = tune.read_table(out)
    data = json.loads(js.read_text())
    assert data["thresholds"] == th and data["stamp"]["cpu"] == st["cpu"]
    assert plot.stat().st_size > 1000
    assert os.environ.get(tune.ENV) == "generic"  # tests run on the generic table
    assert _native.thresholds() == tune_generic()
    code, stdout, err = run(*small, "--dry-run", "--json", "-")
    assert code == 0, err
    assert json.loads(stdout)["thresholds"].keys() == th.keys()
    assert "[thresholds]" in err


def test_cli_replays_a_saved_run(tmp_path: Path) -> None:
    """--replay picks the cut-overs again from a run saved with --json, per transform length."""
    sec = {12608: (256, 1.36), 15040: (256, 0.93), 16384: (256, 0.83), 16448: (512, 1.7)}
    sec |= {21248: (512, 1.04), 23168: (512, 0.88), 32768: (512, 0.46)}
    report = tune.TuneReport(
        tune.make_config(12608, 32768, ops=("sec",)),
        banded("sec", sec),
        {"cpu": "x", "command": "montlab tune --ops sec"},
        {"spectral_mul_bits": ([1, 5, 9], "not in --ops: the table in force")},
    )
    data = report.as_dict()
    data["thresholds"]["spectral_sec_bits"] = 23168  # as a run under the single cut wrote it
    js, out = tmp_path / "run.json", tmp_path / "t.toml"
    js.write_text(json.dumps(data))
    code, stdout, err = run("--replay", str(js), "--out", str(out))
    assert code == 0, err
    th, st = tune.read_table(out)
    assert th["spectral_sec_bits"] == [15040, 16385, 23168]
    assert th["spectral_mul_bits"] == [1, 5, 9]
    assert st["cpu"] == "x" and "--replay" in st["replayed"]
    assert _native.thresholds() == tune_generic()  # --out elsewhere applies nothing
    code, _, err = run("--replay", str(js), "--rounds", "3", "--dry-run")
    assert code == 1 and "--replay measures nothing" in err
    for bad in ("[]", '{"config": {}}', "not json", json.dumps({**data, "stamp": 3})):
        js.write_text(bad)
        code, _, err = run("--replay", str(js), "--dry-run")
        assert code == 1 and ("not a montlab tune report" in err or "--replay" in err), err
    data["points"][0]["op"] = "div"
    js.write_text(json.dumps(data))
    code, _, err = run("--replay", str(js), "--dry-run")
    assert code == 1 and "unknown operation" in err


def test_cli_show_and_errors() -> None:
    code, stdout, _ = run("--show")
    assert code == 0 and "source: generic" in stdout and "spectral_pow_bits" in stdout
    code, _, err = run("--from", "64", "--dry-run")
    assert code == 1 and "--from must be" in err
    code, _, err = run("--ops", "mul,div", "--dry-run")
    assert code == 1 and "--ops must name" in err
