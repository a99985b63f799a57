"""mwr2mm (Tenca-Koc MWR2MM, SPEC 5.2): model vs an independent oracle, equality with the bit-level
Algorithm 1 before the final subtraction, the carry bounds (SPEC 5.6 erratum 2), traces and bad
inputs."""

from __future__ import annotations

import random

import pytest
from conftest import configure, hexdump, scaled
from conftest import montgomery_oracle as oracle
from montlab import registry
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import mwr2mm, radix2
from montlab.ref._base import from_words
from montlab.testing import edge_moduli, edge_operands, random_modulus

WORD_SIZES = (2, 3, 4, 5, 7, 8, 13, 16, 32)  # odd w included: radix 2 has no parity rule


def cfg_for(n_mod: int, **params: int) -> mwr2mm.Config:
    return configure("mwr2mm", n_mod, **params)


def random_bits(rng: random.Random) -> int:
    """Modulus widths in 2..1024, most of them small (the model is slow on purpose)."""
    return rng.randint(2, 1024) if rng.random() < 0.25 else rng.randint(2, 160)


def test_random_vs_oracle(rng: random.Random) -> None:
    for _ in range(scaled(60)):
        bits = random_bits(rng)
        w = rng.choice(WORD_SIZES)
        n_mod = random_modulus(rng, bits)
        cfg = cfg_for(n_mod, w=w)
        assert cfg.n == bits and cfg.r == 1 << bits and cfg.e == -(-(bits + 1) // w)
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        z = mwr2mm.mont_mul(cfg, x, y)
        assert z == oracle(x, y, 1 << bits, n_mod), hexdump(N=n_mod, x=x, y=y, z=z) + f" w={w}"


@pytest.mark.parametrize("w", [3, 4, 8, 16, 32])
@pytest.mark.parametrize("bits", [2, 3, 15, 16, 31, 33, 64, 127, 128])
def test_edge_moduli(bits: int, w: int) -> None:
    for n_mod in edge_moduli(bits):
        cfg = cfg_for(n_mod, w=w)
        for x, y in edge_operands(n_mod) + [(n_mod - 1, n_mod - 1)]:
            z = mwr2mm.mont_mul(cfg, x, y)
            assert z == oracle(x, y, cfg.r, n_mod), hexdump(N=n_mod, x=x, y=y, z=z)


def test_rsa_size_all_ones() -> None:
    """x = y = N-1 on 1024-bit edge moduli."""
    for n_mod in edge_moduli(1024)[:3]:
        cfg = cfg_for(n_mod, w=16)
        x = y = n_mod - 1
        assert mwr2mm.mont_mul(cfg, x, y) == oracle(x, y, cfg.r, n_mod)


def test_wide_datapath(rng: random.Random) -> None:
    """n > bitlen(N): r = 2^n follows n, and e follows n."""
    for _ in range(scaled(25)):
        n_mod = random_modulus(rng, rng.randint(2, 200))
        n = n_mod.bit_length() + rng.choice([1, 2, 5, 16, 37])
        w = rng.choice(WORD_SIZES)
        cfg = cfg_for(n_mod, w=w, n=n)
        assert cfg.r == 1 << n and cfg.e == -(-(n + 1) // w)
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        assert mwr2mm.mont_mul(cfg, x, y) == oracle(x, y, 1 << n, n_mod), hexdump(N=n_mod, x=x, y=y)


def test_equals_bit_level_algorithm_1(rng: random.Random) -> None:
    """SPEC 5.2: MWR2MM equals Algorithm 1 (montlab.ref.radix2) before the final subtraction,
    round by round; the last S of both traces is the unreduced product."""
    cases = [(16, 4), (15, 4), (31, 8), (33, 8), (100, 16), (127, 16), (1024, 32)]
    cases += [(rng.randint(2, 300), rng.choice(WORD_SIZES)) for _ in range(scaled(20))]
    for bits, w in cases:
        n_mod = random_modulus(rng, bits)
        n = bits + rng.choice([0, 0, 3])
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        t_mw: list = []
        t_r2: list = []
        z_mw = mwr2mm.mont_mul(cfg_for(n_mod, w=w, n=n), x, y, t_mw)
        r2cfg = radix2.configure(n_mod, registry.resolve_params("radix2", {"n": n}))
        z_r2 = radix2.mont_mul(r2cfg, x, y, t_r2)
        assert len(t_mw) == len(t_r2) == n
        for a, b in zip(t_mw, t_r2):
            assert a["i"] == b["i"] and a["x_i"] == b["x_i"] and a["q_i"] == b["q_i"]
            assert from_words(a["S"], w) == b["S"], (
                hexdump(N=n_mod, x=x, y=y) + f" w={w} i={a['i']}"
            )
        unreduced = mwr2mm.unreduced(cfg_for(n_mod, w=w, n=n), x, y)
        assert from_words(t_mw[-1]["S"], w) == t_r2[-1]["S"] == unreduced
        assert z_mw == z_r2


def test_carry_bounds_erratum_2() -> None:
    """SPEC 5.6 erratum 2: the paper bounds C by 3; the model asserts C <= 2 and C^(e) <= 1 on
    every word, and both bounds are reached (so they are tight, and 2 carry bits suffice).
    C^(e) = 1 needs S + x_i*Y + q_i*M >= 2^(w*e), so widths with w*e = n+1 are included."""
    most, most_top = 0, 0
    for bits in (8, 15, 31, 33, 63):
        for n_mod in edge_moduli(bits):
            for w in (4, 8, 16):
                cfg = cfg_for(n_mod, w=w)
                for x, y in edge_operands(n_mod):
                    tr: list = []
                    mwr2mm.mont_mul(cfg, x, y, tr)
                    for entry in tr:
                        carries = entry["C"]
                        assert len(carries) == cfg.e
                        assert max(carries) <= 2 and carries[-1] <= 1
                        most = max(most, max(carries))
                        most_top = max(most_top, carries[-1])
    assert most == 2, "a carry of 2 is reachable"
    assert most_top == 1


def test_trace_shape(rng: random.Random) -> None:
    n_mod = random_modulus(rng, 40)
    cfg = cfg_for(n_mod, w=8)
    x, y = rng.randrange(n_mod), rng.randrange(n_mod)
    tr: list = []
    z = mwr2mm.mont_mul(cfg, x, y, tr)
    assert [t["i"] for t in tr] == list(range(40))
    for t in tr:
        assert set(t) == {"i", "x_i", "q_i", "S", "C"}
        assert t["x_i"] == (x >> t["i"]) & 1 and t["q_i"] in (0, 1)
        assert len(t["S"]) == cfg.e == 6 and all(0 <= s < 256 for s in t["S"])
    s = from_words(tr[-1]["S"], 8)
    assert z == (s - n_mod if s >= n_mod else s)


def test_configure_defaults() -> None:
    n_mod = (1 << 61) - 1
    cfg = cfg_for(n_mod)
    assert (cfg.w, cfg.n, cfg.e) == (16, 61, 4)
    assert cfg.p == mwr2mm.p_max(4) == 3  # auto: P_max = ceil((e+1)/2)
    assert cfg_for(n_mod, p=1).p == 1
    assert (cfg.bound, cfg.in_bound, cfg.iterations) == (1, 1, 61)


# --- bad inputs ----------------------------------------------------------------------------------


def test_bad_word_size_and_pes() -> None:
    with pytest.raises(ParameterError, match=r"mwr2mm: w = 1 is illegal: it must be >= 2"):
        registry.resolve_params("mwr2mm", {"w": 1})
    with pytest.raises(ParameterError, match=r"mwr2mm: p = 0 is illegal: it must be >= 1"):
        registry.resolve_params("mwr2mm", {"p": 0})
    with pytest.raises(ParameterError, match=r"w = 1 is illegal"):  # direct calls are checked too
        mwr2mm.configure(101, {"w": 1, "n": None, "p": None})


@pytest.mark.parametrize(
    "n_mod, what", [(100, "odd"), (2, "odd"), (1, "> 1"), (0, "> 1"), (-7, "> 1")]
)
def test_bad_modulus(n_mod: int, what: str) -> None:
    with pytest.raises(ModulusError, match=what):
        cfg_for(n_mod)


def test_modulus_wider_than_n() -> None:
    with pytest.raises(ModulusError, match=r"mwr2mm: the modulus has 9 bits, too wide for n = 8"):
        cfg_for(257, n=8)


def test_bad_operands() -> None:
    cfg = cfg_for(101, w=4)
    with pytest.raises(OperandError, match=r"mwr2mm: x is negative"):
        mwr2mm.mont_mul(cfg, -1, 5)
    with pytest.raises(OperandError, match=r"mwr2mm: y = 0x65 is out of range: it must be < N"):
        mwr2mm.mont_mul(cfg, 5, 101)
