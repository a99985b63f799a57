"""ntt64 reference model (NTT64 Algorithm 1 with NTT products, SPEC 4.1-4.3) against pow."""

from __future__ import annotations

import random

import pytest
from conftest import hexdump, montgomery_oracle, scaled
from montlab import spectral_params as sp
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import ntt64
from montlab.testing import random_modulus


def check(cfg: ntt64.Config, x: int, y: int) -> dict:
    trace: list = []
    z = ntt64.mont_mul(cfg, x, y, trace)
    n = cfg.modulus
    assert z == montgomery_oracle(x, y, cfg.r, n), hexdump(n=n, x=x, y=y, z=z)
    e = trace[0]
    assert e["c"] < 2 * n and e["max_coeff"] <= sp.ntt64_coeff_max(cfg.b)  # type: ignore[operator]
    return e


@pytest.mark.parametrize("bits, b", [(8192, 16), (12288, 24), (1024, 2), (8000, 16), (13824, 27)])
def test_paper_sizes_against_pow(rng: random.Random, bits: int, b: int) -> None:
    for _ in range(scaled(2)):
        n = random_modulus(rng, bits)
        cfg = ntt64.configure(n, {})
        assert cfg.b == b and cfg.r == 1 << bits
        check(cfg, rng.randrange(n), rng.randrange(n))


@pytest.mark.parametrize("bits", [8192, 12288])
def test_all_ones_modulus(bits: int) -> None:
    """SPEC 6: M = 2^bits - 1 with X = Y = M - 1; the value before the subtraction stays < 2M."""
    m = (1 << bits) - 1
    e = check(ntt64.configure(m, {}), m - 1, m - 1)
    assert e["T"] == (m - 1) ** 2


def test_explicit_b_and_errors(rng: random.Random) -> None:
    n = random_modulus(rng, 4000)
    cfg = ntt64.configure(n, {"b": 27})
    assert cfg.b == 27
    check(cfg, n - 1, n - 2)
    with pytest.raises(ParameterError):
        ntt64.configure(n, {"b": 28})
    with pytest.raises(ModulusError, match="512 samples of b = 16"):
        ntt64.configure(random_modulus(rng, 8193), {"b": 16})
    with pytest.raises(ParameterError, match="max b = 27"):
        ntt64.configure(random_modulus(rng, 13825), {})
    with pytest.raises(OperandError):
        ntt64.mont_mul(cfg, n, 1)


def test_small_moduli_and_edges(rng: random.Random) -> None:
    for bits in (2, 3, 17, 64, 513):
        n = random_modulus(rng, bits)
        cfg = ntt64.configure(n, {})
        for x, y in [(0, 0), (n - 1, n - 1), (1, n - 1)]:
            check(cfg, x, y)


@pytest.mark.parametrize("points, bits, b", [(64, 256, 8), (64, 512, 16), (256, 1000, 8)])
@pytest.mark.parametrize("fixed_r", [0, 1])
def test_scaled_transforms_and_fixed_r(
    rng: random.Random, points: int, bits: int, b: int, fixed_r: int
) -> None:
    """The scaled configurations of the RTL (64 points: 32 samples, omega_8 = 2^24) and the
    hardware's fixed R = 2^(samples b), against pow; edges x = y = N - 1 and the all-ones N."""
    samples = points // 2
    for n in [random_modulus(rng, bits) for _ in range(scaled(2))] + [(1 << bits) - 1]:
        cfg = ntt64.configure(n, {"points": points, "fixed_r": fixed_r})
        assert cfg.b == b and cfg.samples == samples
        assert cfg.r == 1 << (samples * b if fixed_r else bits)
        for x, y in [(rng.randrange(n), rng.randrange(n)), (n - 1, n - 1), (0, n - 1)]:
            check(cfg, x, y)


def test_points_and_range_errors(rng: random.Random) -> None:
    n = random_modulus(rng, 200)
    for points in (100, 128, 512, 2048):
        with pytest.raises(ParameterError):
            ntt64.configure(n, {"points": points})
    assert sp.ntt64_max_b(samples=32) == 29  # 32 (2^29 - 1)^2 < p <= 32 (2^30 - 1)^2
    assert ntt64.configure(n, {"points": 64, "b": 29}).b == 29
    assert sp.ntt64_max_b(samples=128) == 28
    with pytest.raises(ParameterError, match="max b = 28"):
        ntt64.configure(n, {"points": 256, "b": 29})
    with pytest.raises(ParameterError, match="<= 29"):
        ntt64.configure(n, {"points": 64, "b": 30})
    with pytest.raises(ModulusError, match="32 samples of b = 8"):
        ntt64.configure(random_modulus(rng, 257), {"points": 64, "b": 8})


def test_trace_spectra_coefficients_and_first_pass(rng: random.Random) -> None:
    """The trace's spectral values against direct sums: FFT(X) = sum_n x_n omega^(nk); each
    product spectrum is the pointwise product; the coefficients before carries are the cyclic
    convolution of the sample vectors; the first pass of each transform is y[n2][k1] =
    tw omega^(n2 k1) sum_n1 x[S n1 + n2] 2^(192/S n1 k1) (tw = 1/points for the inverse)."""
    from montlab import transforms as tf

    p = tf.P64
    for points in (64, 256):
        side = tf.ntt64_side(points)
        w = tf.NTT64_ROOTS[side]
        n = random_modulus(rng, points // 2 * 8)
        cfg = ntt64.configure(n, {"points": points, "b": 8, "fixed_r": 1})
        x, y = rng.randrange(n), rng.randrange(n)
        trace: list = []
        ntt64.mont_mul(cfg, x, y, trace, spectral=True)
        e = trace[0]
        plain: list = []
        ntt64.mont_mul(cfg, x, y, plain)  # the spectral values only on request
        assert "spectra" not in plain[0] and plain[0]["T"] == e["T"]

        def samples(z: int) -> list[int]:
            return [(z >> (8 * i)) & 0xFF for i in range(points // 2)] + [0] * (points // 2)

        def first_pass(v: list[int], sign: int) -> list[int]:
            scale = 1 if sign > 0 else pow(points, -1, p)
            return [
                scale * pow(w, sign * n2 * k1, p)
                * sum(v[side * n1 + n2] * pow(2, sign * 192 // side * n1 * k1 % 192, p)
                      for n1 in range(side)) % p
                for n2 in range(side)
                for k1 in range(side)
            ]  # fmt: skip

        for name, z in [("X", x), ("Y", y), ("t", e["t"]), ("u", e["u"])]:
            assert e["spectra"][name] == tf.ntt64_direct(samples(z), w), name
            assert e["mid"][f"fft_{name}"] == first_pass(samples(z), +1), name
        pairs = {"T": ("X", "Y"), "U": ("t", None), "W": ("u", None)}
        others = {"U": cfg.fft_mprime, "W": cfg.fft_m}
        for name, (a, bname) in pairs.items():
            fb = e["spectra"][bname] if bname else list(others[name])
            want = [s * t % p for s, t in zip(e["spectra"][a], fb)]
            assert e["spectra"][name] == want, name
            assert e["mid"][f"ifft_{name}"] == first_pass(want, -1), name
        sx = {"T": (x, y), "U": (e["t"], cfg.m_prime), "W": (e["u"], n)}
        for name, (a, bb) in sx.items():
            assert e["coeffs"][name] == tf.cyclic_convolution(samples(a), samples(bb), p), name
        assert e["U"] == e["t"] * cfg.m_prime and e["W"] == e["u"] * n
        assert e["C"] == e["T"] + e["W"] and e["c"] == e["C"] >> cfg.n
