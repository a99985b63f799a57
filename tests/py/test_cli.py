"""The montlab CLI contract: JSON shapes, hex integers, exit codes, every command."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import scaled
from montlab import registry
from montlab.cli import main
from montlab.testing import random_modulus_for


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    if res.exception and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code, res.stdout, res.stderr


def run_json(*args: str) -> dict:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def test_algorithms_json() -> None:
    data = run_json("algorithms")
    ids = [a["id"] for a in data["algorithms"]]
    assert ids == registry.ids()
    for a in data["algorithms"]:
        assert {"id", "paper", "layers", "params", "citation"} <= set(a)


#: Reference models that simulate every bit: their 4096-bit case takes 30-45 s, run as slow.
BIT_SERIAL = {"mwr2mm_arch1", "mwr2mm_arch2"}


@pytest.mark.parametrize(
    ("bits", "algo"),
    [
        pytest.param(
            bits,
            algo,
            id=f"{bits}-{algo}",
            marks=[pytest.mark.slow] if bits == 4096 and algo in BIT_SERIAL else [],
        )
        for bits in (16, 100, 1024, 4096)
        for algo in registry.ids()
    ],
)
def test_mul_agrees_with_pow(rng: random.Random, algo: str, bits: int) -> None:
    for _ in range(scaled(1)):
        n = random_modulus_for(rng, algo, bits)
        x, y = rng.randrange(n), rng.randrange(n)
        out = run_json("mul", algo, hex(x), str(y), hex(n))
        assert set(out) >= {"algo", "params", "r", "result", "bound"}
        assert out["algo"] == algo
        r, z = int(out["r"], 16), int(out["result"], 16)
        assert out["result"].startswith("0x") and out["r"].startswith("0x")
        assert z % n == x * y * pow(r, -1, n) % n
        assert 0 <= z < out["bound"] * n
        assert all(v is not None for v in out["params"].values())


def test_mul_trace_and_params() -> None:
    out = run_json("mul", "mwr2mm", "5", "7", "0xc001", "--set", "w=4", "--trace")
    assert out["params"]["w"] == 4 and out["params"]["n"] == 16
    assert len(out["trace"]) == 16 and out["layer"] == "ref"
    code, text, _ = run(
        "mul", "drmmm", "5", "7", "0xc001", "--set", "k=4", "--set", "t=2", "--trace"
    )
    assert code == 0 and "trace" in text


def test_spec_item8_through_cli() -> None:
    """SPEC 6 item 8: MWR2MM n = 16, w = 4: TK 36, Arch 1/2 20, Harris 25."""
    tk = run_json("cycles", "mwr2mm", "--bits", "16", "--set", "w=4")
    rows = {r["quantity"]: r for r in tk["rows"]}
    assert rows["cycles"]["model"] == 36
    assert rows["cycles_harris"]["model"] == 25
    assert rows["cycles_harris"]["status"] == "not derivable"
    for algo in ("mwr2mm_arch1", "mwr2mm_arch2"):
        rows = {
            r["quantity"]: r
            for r in run_json("cycles", algo, "--bits", "16", "--set", "w=4")["rows"]
        }
        assert rows["cycles"]["model"] == 20


def test_cycles_paper_figures() -> None:
    rows = {
        r["quantity"]: r
        for r in run_json("cycles", "mwr2mm_arch2", "--bits", "3072", "--set", "w=32")["rows"]
    }
    assert rows["cycles"]["paper"] == 3168 and rows["cycles"]["status"] == "match"
    rows = {
        r["quantity"]: r
        for r in run_json("cycles", "drmmm", "--bits", "1024", "--set", "k=16", "--set", "t=4")[
            "rows"
        ]
    }
    assert rows["cycles"]["paper"] == 74 and rows["cycles"]["status"] == "not derivable"


@pytest.mark.parametrize("algo", registry.ids())
def test_powm_matches_pow(rng: random.Random, algo: str) -> None:
    n = random_modulus_for(rng, algo, 512)
    b = rng.randrange(n)
    out = run_json("powm", hex(b), "65537", str(n), "--algo", algo)
    assert int(out["result"], 16) == pow(b, 65537, n)


@pytest.mark.parametrize(("bits", "ebits"), [(512, 512), (2048, 2048), (16384, 1024)])
def test_powm_names_the_kernel_that_runs(bits: int, ebits: int) -> None:
    """The native layer reports the kernel the size table picks, not only the id asked for."""
    import gmpy2
    from montlab import _native

    n = (1 << bits) - 1 if bits > 512 else (1 << bits) - 569
    e = (1 << ebits) - 3
    fm = _native.FastModulus(n)
    want = fm.pow_kernel_for(e)
    assert want in ("amm", "cios", "spectral", "ntt_redc")
    out = run_json("powm", "3", hex(e), hex(n))
    assert out["algo"] == "auto" and out["layer"] == "native", out
    assert out["kernel"] == want, (out["kernel"], want)
    assert int(out["result"], 16) == gmpy2.powmod(3, e, n)
    if bits == 512:
        ref = run_json("powm", "3", "5", hex(n), "--algo", "mwr2mm")
        assert ref["kernel"] == "mwr2mm" and ref["layer"] == "ref", ref
    for algo in ("cios", "spectral", "ntt_redc"):  # an id asked for runs exactly that kernel
        out = run_json("powm", "3", hex(e), hex(n), "--algo", algo, "--layer", "native")
        assert (out["algo"], out["kernel"], out["layer"]) == (algo, algo, "native"), out
        assert int(out["result"], 16) == gmpy2.powmod(3, e, n)


def test_powm_default_full_size() -> None:
    n = (1 << 2048) - 159
    code, out, _ = run("powm", "3", hex(n - 2), hex(n))
    assert code == 0 and int(out.strip(), 16) == pow(3, n - 2, n)


def test_vectors_command_is_reproducible() -> None:
    code1, out1, _ = run("vectors", "mwr2mm", "--bits", "64", "--count", "3", "--seed", "7")
    code2, out2, _ = run("vectors", "mwr2mm", "--bits", "64", "--count", "3", "--seed", "7")
    assert code1 == code2 == 0 and out1 == out2
    lines = [json.loads(x) for x in out1.splitlines()]
    assert len(lines) == 3
    for rec in lines:
        n, x, y, r, z = (int(rec[k], 16) for k in ("modulus", "x", "y", "r", "result"))
        assert z == x * y * pow(r, -1, n) % n


def test_operands_from_file_and_stdin(tmp_path: Path) -> None:
    """``@path`` reads an operand from a file, ``-`` from standard input (once); a decimal
    operand has no length limit."""
    big = 7**20_000  # 16,902 decimal digits, over Python's 4300-digit int() limit
    n = (1 << big.bit_length()) + 1
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        (tmp_path / "x.txt").write_text(str(big) + "\n")
    finally:
        sys.set_int_max_str_digits(old)
    code, out, err = run("mul", "cios", f"@{tmp_path / 'x.txt'}", "1", hex(n), "--json")
    assert code == 0, err
    r = pow(2, -64 * -(-n.bit_length() // 64), n)
    assert int(json.loads(out)["result"], 16) == big * r % n
    res = CliRunner().invoke(main, ["mul", "radix2", "-", "5", "97", "--json"], input="0x10\n")
    assert res.exit_code == 0, res.stderr
    assert int(json.loads(res.stdout)["result"], 16) == 16 * 5 * pow(2, -7, 97) % 97
    res = CliRunner().invoke(main, ["mul", "radix2", "-", "-", "97"], input="3\n")
    assert res.exit_code == 1 and "already used" in res.stderr
    (tmp_path / "bin").write_bytes(b"\xff\xfe")
    code, _, err = run("mul", "radix2", f"@{tmp_path / 'bin'}", "5", "97")
    assert code == 1 and "not an ASCII integer" in err


def test_long_calls_show_a_spinner(
    tmp_path: Path, rng: random.Random, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From LONG_CALL_BITS, powm shows a spinner with the elapsed time on a terminal's stderr,
    and stdout keeps only the result; below it, nothing is drawn. Here above fmlm3's range
    (2^22 bits, ntt64), with the modulus read from a file."""
    import gmpy2
    from montlab import _native

    bits = _native.SPECTRAL_MAX_BITS + 64
    n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
    b = rng.randrange(n)
    (tmp_path / "n.txt").write_text(hex(n))
    (tmp_path / "b.txt").write_text(hex(b))
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich draws as on a terminal
    res = CliRunner().invoke(
        main, ["powm", f"@{tmp_path / 'b.txt'}", "3", f"@{tmp_path / 'n.txt'}"]
    )
    assert res.exit_code == 0, res.stderr
    assert int(res.stdout, 16) == gmpy2.powmod(b, 3, n)
    assert f"auto powm modulo a {bits}-bit N" in res.stderr
    res = CliRunner().invoke(main, ["powm", "3", "5", "0xffff_fffb"])
    assert (res.exit_code, res.stdout, res.stderr) == (0, hex(3**5 % 0xFFFFFFFB) + "\n", "")


@pytest.mark.parametrize(
    "args, message",
    [
        (("mul", "radix2", "3", "5", "96"), "odd"),
        (("mul", "radix2", "3", "5", "1"), "> 1"),
        (("mul", "radix2", "3", "5", "0"), "> 1"),
        (("mul", "radix2", "3", "5", "-7"), "> 1"),
        (("mul", "radix2", "-3", "5", "97"), "negative"),
        (("mul", "radix2", "3", "97", "97"), "out of range"),
        (("mul", "radix2", "3", "zz", "97"), "0x-hex"),
        (("mul", "nosuch", "3", "5", "97"), "unknown algorithm"),
        (("mul", "mwr2mm", "3", "5", "97", "--set", "w=1"), "illegal"),
        (("mul", "mwr2mm", "3", "5", "97", "--set", "q=1"), "unknown parameter"),
        (("mul", "mwr2mm", "3", "5", "97", "--set", "w"), "key=value"),
        (("mul", "mwr2mm_arch1", "3", "5", "97", "--set", "p=0"), "illegal"),
        (("mul", "drmmm", "3", "5", "97", "--set", "t=0"), "illegal"),
        (("mul", "mwr4mm", "3", "5", "97", "--set", "w=5"), "even"),
        (("mul", "mwr2mm", "3", "5", "0x1ffff", "--set", "n=16"), "too wide"),
        (("mul", "radix2", "3", "5", "97", "--set", "walter=1", "--set", "n=8"), "2^n > 4N"),
        (("powm", "3", "-1", "97"), "negative exponent"),
        (("powm", "97", "3", "97"), "out of range"),
        (("powm", "3", "5", "98"), "odd"),
        (("cycles", "mwr2mm", "--bits", "1"), "in [2, 65536]"),
        (("cycles", "mwr2mm", "--bits", "100000"), "in [2, 65536]"),
        (("powm", "3", "5", "7", "--algo", "mwr2mm", "--set", "w=99999999999999999999"), "<="),
        (("mul", "radix2", "-0x-5", "5", "97"), "0x-hex"),
        (("mul", "radix2", "0x0x5", "5", "97"), "0x-hex"),
        (("mul", "radix2", "\u0661\u0662", "5", "97"), "0x-hex"),
        (("mul", "radix2", "1__0", "5", "97"), "0x-hex"),
        (("mul", "radix2", "@/nonexistent/x.txt", "5", "97"), "cannot read"),
        (("vectors", "mwr2mm", "--bits", "64", "--count", "-1"), ">= 0"),
    ],
)
def test_bad_input_exits_nonzero(args: tuple[str, ...], message: str) -> None:
    code, out, err = run(*args)
    assert code == 1, (code, out, err)
    assert err.startswith("montlab: error:") and message in err, err
    assert "Traceback" not in err
