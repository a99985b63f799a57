"""The native kernels asked for by id (``_native.Amm``, ``Spectral``, ``NttRedc``) against their
naive models: the same integer for every product, and for the spectral kernels the same value at
every step (the residues of each convolution after its inverse transforms, then each folded
integer), on random and structured moduli and on the trace vector files made for them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import REPO, hexdump, ifma_or_skip, scaled
from montlab import Modulus, registry
from montlab.api import native_available, native_runs
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import amm, spectral
from montlab.testing import edge_moduli, edge_operands, random_modulus
from montlab.vectors import load_all

pytestmark = pytest.mark.skipif(not native_available(), reason="native extension not built")

#: Sizes that reach P = 2 .. 128 (the IFMA transforms start at P = 16 where the CPU has them).
BITS = [2, 3, 64, 65, 127, 128, 129, 300, 1024, 1025, 2048, 4096, 8191]


def native_trace(algo: str, n: int, x: int, y: int) -> list[dict[str, Any]]:
    """The native kernel's trace of x y, in the model's trace format."""
    from montlab import _native

    if algo == "spectral":
        d = _native.Spectral(n).trace(x, y)
        return [
            {"step": "h", "residues": d["h_residues"], "value": d["h"]},
            {"step": "m", "residues": d["m_residues"], "value": d["m"]},
            {"step": "S", "residues": d["S_residues"], "value": d["S"]},
            {"step": "t", "value": d["t"]},
            {"step": "result", "value": d["result"]},
        ]
    d = _native.NttRedc(n).trace(x, y)
    return [
        {
            "step": "T",
            "cyc_residues": d["T_cyc_residues"],
            "nega_residues": d["T_nega_residues"],
            "T_lo": d["T_lo"],
            "T_hi": d["T_hi"],
        },
        *({"step": k, "value": d[k]} for k in ("m", "U", "H", "t", "result")),
    ]


def model_trace(algo: str, n: int, x: int, y: int) -> list[dict[str, Any]]:
    tr: list = []
    z = Modulus(n).mul(x, y, algo, "ref", tr)
    return [*tr, {"step": "result", "value": z}]


def agree(algo: str, n: int, x: int, y: int) -> None:
    mine, theirs = native_trace(algo, n, x, y), model_trace(algo, n, x, y)
    for a, b in zip(mine, theirs, strict=True):
        assert a == b, f"{algo} step {b['step']}: " + hexdump(N=n, x=x, y=y)


@pytest.mark.parametrize("algo", ["spectral", "ntt_redc"])
def test_every_step_on_random_moduli(algo: str, rng: random.Random) -> None:
    for bits in BITS:
        for _ in range(scaled(2)):
            n = random_modulus(rng, bits)
            if algo == "spectral" and not accepts_spectral(n):
                continue
            x, y = rng.randrange(n), rng.randrange(n)
            agree(algo, n, x, y)


@pytest.mark.parametrize("algo", ["spectral", "ntt_redc"])
@pytest.mark.parametrize("bits", [64, 128, 129, 1024])
def test_every_step_on_edge_moduli_and_operands(algo: str, bits: int) -> None:
    for n in edge_moduli(bits):
        if algo == "spectral" and not accepts_spectral(n):
            continue
        for x, y in edge_operands(n):
            agree(algo, n, x, y)


def accepts_spectral(n: int) -> bool:
    try:
        spectral.configure(n, {})
    except ModulusError:
        return False
    return True


@pytest.mark.parametrize("algo", ["spectral", "ntt_redc"])
def test_trace_vector_files(algo: str) -> None:
    """Each record of vectors/kat/<algo>_trace.jsonl: the native kernel's steps are the file's."""
    recs = [r for r in load_all("mul", algo) if r.get("trace")]
    assert len(recs) >= 20, f"{algo}: trace records"
    for rec in recs:
        steps = native_trace(algo, rec["modulus"], rec["x"], rec["y"])
        assert steps[:-1] == rec["trace"], rec["_source"]
        assert steps[-1]["value"] == rec["result"], rec["_source"]


def test_extreme_values_of_the_spectral_steps() -> None:
    """h = 2^l (x y = -1 mod R) and m = 2^l reach the kernel's flagged value; N = R - 2."""
    n = (1 << 128) - 1 - 2**64  # odd, coprime to 2^128 + 1
    cfg = spectral.configure(n, {})
    r = cfg.r
    # x y = -1 mod R with x, y < N: y = -x^-1 mod R, pick x until y < N.
    x = 3
    while (-pow(x, -1, r)) % r >= n:
        x += 2
    y = (-pow(x, -1, r)) % r
    assert x * y % r == r - 1
    agree("spectral", n, x, y)
    steps = {s["step"]: s for s in native_trace("spectral", n, x, y)}
    assert steps["h"]["value"] == 1 << cfg.l


def test_amm_kernel_returns_the_models_integer(rng: random.Random) -> None:
    from montlab import _native

    ifma_or_skip("amm native kernel")
    for bits in [2, 3, 50, 51, 52, 53, 103, 104, 105, 521, 1024, 2048, 4096, 52830]:
        moduli = [random_modulus(rng, bits), *edge_moduli(bits)[:3]] if bits > 2 else [3]
        for n in moduli:
            cfg = amm.configure(n, {})
            k = _native.Amm(n)
            assert (k.r, k.digits, k.n0_inv) == (cfg.r, cfg.k, cfg.n0_inv)
            ops = [*edge_operands(n, 2), (rng.randrange(2 * n), rng.randrange(2 * n))]
            for x, y in ops:
                assert k.mul(x, y) == amm.mont_mul(cfg, x, y), hexdump(N=n, x=x, y=y)
            b, e = rng.randrange(n), rng.getrandbits(130)
            assert k.pow(b, e) == pow(b, e, n)


def test_amm_kernel_without_ifma_is_a_clear_error() -> None:
    from montlab import _native

    if native_runs("amm"):
        with pytest.raises(OperandError):
            _native.Amm(101).mul(202, 1)  # lazy inputs stop below 2N
        with pytest.raises(ModulusError, match="52830 bits"):
            _native.Amm((1 << 52831) - 1)
    else:
        with pytest.raises(ParameterError, match="AVX-512 IFMA"):
            _native.Amm(101)
        with pytest.raises(ParameterError, match="AVX-512 IFMA"):
            Modulus(101).mul(1, 2, "amm", "native")
        assert Modulus(101).engine("amm").layer == "ref"  # the default layer is one that runs


def test_bad_input_is_refused() -> None:
    from montlab import _native

    fermat_factor = 59649589127497217  # divides 2^128 + 1, the R of P = 2
    with pytest.raises(ModulusError, match="shares a factor"):
        _native.Spectral(fermat_factor)
    with pytest.raises(ModulusError, match="shares a factor"):
        spectral.configure(fermat_factor, {})
    assert _native.Spectral(fermat_factor, 4).transform_len == 4  # a longer R is coprime
    assert spectral.configure(fermat_factor, {"P": 4}).r == _native.Spectral(fermat_factor, 4).r
    for p in (3, 1, 1 << 17):
        with pytest.raises(ModulusError, match="transform_len"):
            _native.Spectral(101, p)
    with pytest.raises(ModulusError, match="transform_len"):
        _native.Spectral((1 << 200) - 1, 2)  # 64 P below bitlen(N)
    for cls in (_native.Spectral, _native.NttRedc):
        k = cls(101)
        with pytest.raises(OperandError):
            k.mul(101, 1)
        with pytest.raises(OperandError):
            k.pow(-1, 3)
        with pytest.raises(ModulusError):
            cls(100)
    with pytest.raises(ParameterError, match="does not take these parameters"):
        Modulus(101).mul(1, 1, "ntt_redc", "native", P=4)


@pytest.mark.parametrize("algo", [a.id for a in registry.all_algorithms() if "native" in a.layers])
def test_pow_on_a_named_kernel_runs_that_kernel(algo: str, rng: random.Random) -> None:
    if algo == "amm":
        ifma_or_skip("amm native pow")
    for bits in (64, 1000, 3000):
        n = random_modulus(rng, bits)
        m = Modulus(n)
        if algo == "spectral" and not accepts_spectral(n):
            continue
        b, e = rng.randrange(n), rng.getrandbits(bits)
        assert m.pow_kernel(e, algo) == algo
        assert m.pow(b, e, algo, "native") == pow(b, e, n)
        assert m.engine(algo, "native").impl.r == m.config(algo).r
    # The front door names the size table's pick, a registered native id.
    m = Modulus(random_modulus(rng, 2048))
    kernel = m.pow_kernel(65537)
    assert kernel == m.fast.pow_kernel_for(65537)
    assert "native" in registry.get(kernel).layers


def test_require_ifma_turns_a_skip_into_a_failure() -> None:
    """With the IFMA kernels forced off, the amm test skips, and fails under
    MONTLAB_REQUIRE_IFMA."""
    import os
    import subprocess
    import sys

    test = "tests/py/test_native_kernels.py::test_amm_kernel_returns_the_models_integer"
    env = {k: v for k, v in os.environ.items() if k != "MONTLAB_REQUIRE_IFMA"}
    env["MONTLAB_NO_IFMA"] = "1"
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", test]
    skipped = subprocess.run(args, cwd=REPO, env=env, capture_output=True, text=True)
    assert skipped.returncode == 0 and "1 skipped" in skipped.stdout, skipped.stdout
    env["MONTLAB_REQUIRE_IFMA"] = "1"
    failed = subprocess.run(args, cwd=REPO, env=env, capture_output=True, text=True)
    assert failed.returncode == 1 and "MONTLAB_REQUIRE_IFMA is set" in failed.stdout, failed.stdout


@pytest.mark.parametrize("no_avx2", [False, True])
def test_spectral_on_either_transform_path(rng: random.Random, no_avx2: bool) -> None:
    """The spectral kernel's products and exponentiations (constant-time too) are exact on the
    AVX2 transforms and, with MONTLAB_NO_AVX2=1, on the portable ones (a fresh process: the
    choice is read once). P = 16 to 128, where the AVX2 loops run."""
    import json
    import os
    import subprocess
    import sys

    cases = []
    for bits in (1024, 1089, 4096, 8000):
        n = random_modulus(rng, bits)
        cases.append((n, rng.randrange(n), rng.randrange(n), rng.getrandbits(bits)))
    code = (
        "import json, sys\n"
        "from montlab import _native\n"
        "_native.set_thresholds('spectral_mul_bits = 0\\nspectral_pow_bits = 0\\n"
        "spectral_sec_bits = 0\\n')\n"
        "out = {'avx2': _native.AVX2, 'rows': []}\n"
        "for n, a, b, e in json.load(sys.stdin):\n"
        "    m = _native.FastModulus(n)\n"
        "    out['rows'].append([m.mul_kernel, m.mul(a, b), m.pow(a, e), m.pow_sec(a, e)])\n"
        "print(json.dumps(out))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "MONTLAB_NO_AVX2"}
    if no_avx2:
        env["MONTLAB_NO_AVX2"] = "1"
    res = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(cases),
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    if no_avx2:
        assert out["avx2"] is False
    elif os.environ.get("MONTLAB_REQUIRE_AVX2"):
        # Where the AVX2 path must run (CI on such a CPU), the first run is on it.
        assert out["avx2"] is True
    for (n, a, b, e), (kernel, mul, pw, sec) in zip(cases, out["rows"], strict=True):
        assert kernel == "spectral", n.bit_length()
        assert mul == a * b % n and pw == pow(a, e, n) and sec == pw, n.bit_length()
