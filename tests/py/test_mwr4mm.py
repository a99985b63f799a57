"""mwr4mm (radix-4 MWR4MM, SPEC 5.4): the 128-entry q_1 table against eq. (8), the model against an
independent oracle with r = 4^ceil(n/2) (SPEC 5.6 erratum 3 for odd n), equality with two steps of
the bit-level Algorithm 1 per round, the carry bound 6, and bad inputs (odd w)."""

from __future__ import annotations

import random

import pytest
from conftest import configure, hexdump, scaled
from conftest import montgomery_oracle as oracle
from montlab import registry
from montlab.cycles import model_for
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import mwr4mm, radix2
from montlab.ref._base import from_words
from montlab.testing import edge_moduli, edge_operands, random_modulus


def cfg_for(n_mod: int, **params: int) -> mwr4mm.Config:
    return configure("mwr4mm", n_mod, **params)


# --- the q_1 table (eqs. (8), (9)) ---------------------------------------------------------------


def test_q1_table_all_128_entries() -> None:
    """Every entry, with q_0 from eq. (9), solves eq. (8); checked against q = -(S + xY)*M^-1 mod 4
    (M^-1 = M mod 4 for odd M), an independent formula."""
    assert len(mwr4mm.Q1_TABLE) == 128 and set(mwr4mm.Q1_TABLE) == {0, 1}
    for idx in range(128):
        s1, s0, x1, x0, y1, y0, m1 = ((idx >> (6 - k)) & 1 for k in range(7))  # S_1 is the MSB
        assert mwr4mm.q1_index(s1, s0, x1, x0, y1, y0, m1) == idx
        s, x, y, m = 2 * s1 + s0, 2 * x1 + x0, 2 * y1 + y0, 2 * m1 + 1
        q = 2 * mwr4mm.Q1_TABLE[idx] + (s0 ^ (x0 & y0))
        assert (s + x * y + q * m) % 4 == 0, (
            f"entry {idx} ({s1}{s0}{x1}{x0}{y1}{y0}{m1}) breaks eq. (8)"
        )
        assert q == (-(s + x * y) * m) % 4
        assert mwr4mm.q_digit(s, x, y, m) == q


def test_q1_depends_on_all_seven_bits() -> None:
    """SPEC 5.4: q_1 is a function of exactly these 7 bits (flipping any one of them can change it)."""
    for k in range(7):
        assert any(mwr4mm.Q1_TABLE[i] != mwr4mm.Q1_TABLE[i ^ (1 << k)] for i in range(128)), (
            mwr4mm.Q1_BITS[6 - k]
        )


# --- the model -----------------------------------------------------------------------------------


def test_random_vs_oracle(rng: random.Random) -> None:
    for _ in range(scaled(60)):
        bits = rng.randint(2, 1024) if rng.random() < 0.25 else rng.randint(2, 160)
        w = rng.choice([2, 4, 6, 8, 16, 32])
        n_mod = random_modulus(rng, bits)
        cfg = cfg_for(n_mod, w=w)
        rounds = -(-bits // 2)
        assert cfg.rounds == cfg.iterations == rounds and cfg.r == 4**rounds
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        z = mwr4mm.mont_mul(cfg, x, y)
        assert z == oracle(x, y, 4**rounds, n_mod), hexdump(N=n_mod, x=x, y=y, z=z) + f" w={w}"


def test_odd_n_factor_erratum_3(rng: random.Random) -> None:
    """SPEC 5.6 erratum 3: for odd n the factor is 4^-ceil(n/2) = 2^-(n+1), not 2^-n."""
    for bits in (3, 5, 17, 33, 129, 1023):
        n_mod = random_modulus(rng, bits)
        cfg = cfg_for(n_mod, w=8)
        assert cfg.r == 1 << (bits + 1)
        z = mwr4mm.mont_mul(cfg, 1, 1)
        assert z == pow(2, -(bits + 1), n_mod)
        assert z != pow(2, -bits, n_mod), "the paper's 2^-n would be a different result"


@pytest.mark.parametrize("w", [2, 4, 8, 16, 32])
@pytest.mark.parametrize("bits", [2, 3, 15, 16, 31, 33, 64, 127])
def test_edge_moduli(bits: int, w: int) -> None:
    for n_mod in edge_moduli(bits):
        cfg = cfg_for(n_mod, w=w)
        for x, y in edge_operands(n_mod):
            z = mwr4mm.mont_mul(cfg, x, y)
            assert z == oracle(x, y, cfg.r, n_mod), hexdump(N=n_mod, x=x, y=y, z=z)


def test_rsa_size_all_ones() -> None:
    for n_mod in edge_moduli(1024)[:3]:
        cfg = cfg_for(n_mod, w=16)
        assert mwr4mm.mont_mul(cfg, n_mod - 1, n_mod - 1) == oracle(
            n_mod - 1, n_mod - 1, cfg.r, n_mod
        )


def test_wide_datapath(rng: random.Random) -> None:
    for _ in range(scaled(20)):
        n_mod = random_modulus(rng, rng.randint(2, 200))
        n = n_mod.bit_length() + rng.choice([1, 2, 5, 16])
        cfg = cfg_for(n_mod, w=rng.choice([2, 4, 8, 16]), n=n)
        assert cfg.r == 4 ** (-(-n // 2))
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        assert mwr4mm.mont_mul(cfg, x, y) == oracle(x, y, cfg.r, n_mod), hexdump(N=n_mod, x=x, y=y)


def test_round_equals_two_bit_level_steps(rng: random.Random) -> None:
    """Round i of radix 4 equals rounds 2i, 2i+1 of Algorithm 1 (montlab.ref.radix2) run with
    n' = 2*ceil(n/2): q mod 4 is unique, so q^(i) = q_2i + 2*q_2i+1."""
    for _ in range(scaled(15)):
        bits = rng.randint(2, 200)
        n_mod = random_modulus(rng, bits)
        cfg = cfg_for(n_mod, w=rng.choice([2, 4, 8, 16]))
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        t4: list = []
        t2: list = []
        mwr4mm.mont_mul(cfg, x, y, t4)
        radix2.mont_mul(radix2.configure(n_mod, {"n": 2 * cfg.rounds, "walter": 0}), x, y, t2)
        for t in t4:
            i = t["i"]
            assert t["x_i"] == (x >> (2 * i)) & 3
            assert t["q_i"] == t2[2 * i]["q_i"] + 2 * t2[2 * i + 1]["q_i"]
            assert from_words(t["S"], cfg.w) == t2[2 * i + 1]["S"], (
                hexdump(N=n_mod, x=x, y=y) + f" i={i}"
            )


def test_carry_bound() -> None:
    """SPEC 5.4: carries fit in 3 bits; the model asserts C <= 6 and 6 is reached."""
    most, most_top = 0, 0
    for bits in (8, 15, 16, 31, 33):
        for n_mod in edge_moduli(bits):
            for w in (4, 8, 16):
                cfg = cfg_for(n_mod, w=w)
                for x, y in edge_operands(n_mod):
                    tr: list = []
                    mwr4mm.mont_mul(cfg, x, y, tr)
                    most = max(most, max(max(t["C"]) for t in tr))
                    most_top = max(most_top, max(t["C"][-1] for t in tr))
    assert most == 6
    assert most_top <= 3


def test_trace_shape() -> None:
    cfg = cfg_for(0x1F3, w=4)  # 9 bits: 5 rounds, e = 3
    tr: list = []
    mwr4mm.mont_mul(cfg, 0x1AB, 0x0CD, tr)
    assert [t["i"] for t in tr] == list(range(5))
    for t in tr:
        assert set(t) == {"i", "x_i", "q_i", "S", "C"}
        assert 0 <= t["x_i"] < 4 and 0 <= t["q_i"] < 4 and len(t["S"]) == len(t["C"]) == 3


def test_cycle_model() -> None:
    for bits, w in [(16, 4), (17, 4), (1024, 16), (3072, 16)]:
        e = -(-(bits + 1) // w)
        row = model_for("mwr4mm", bits, {"w": w}).row("cycles")
        assert row.model == row.closed_form == -(-bits // 2) + e - 1
        # The paper prints n/2 + e - 1: it matches for even n; odd n needs ceil(n/2) rounds.
        assert row.paper == bits // 2 + e - 1
        assert row.status == ("match" if bits % 2 == 0 else "differs")
        assert ("fractional for odd n" in row.note) == bool(bits % 2)
    # w = 2: the selects depend on the assumed MSBs themselves; the row says so.
    assert "w = 2" in model_for("mwr4mm", 64, {"w": 2}).row("cycles").note


# --- bad inputs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("w", [3, 5, 17])
def test_odd_word_size(w: int) -> None:
    msg = rf"mwr4mm: w = {w} is illegal: the radix-4 digit width k = 2 must divide"
    with pytest.raises(ParameterError, match=msg):
        cfg_for(101, w=w)
    with pytest.raises(ParameterError, match=r"must divide"):
        model_for("mwr4mm", 64, {"w": w})


def test_bad_inputs() -> None:
    with pytest.raises(ParameterError, match=r"mwr4mm: w = 1 is illegal: it must be >= 2"):
        registry.resolve_params("mwr4mm", {"w": 1})
    with pytest.raises(ModulusError, match=r"mwr4mm: the modulus must be odd"):
        cfg_for(1 << 9)
    with pytest.raises(ModulusError, match=r"mwr4mm: the modulus must be > 1"):
        cfg_for(-1)
    with pytest.raises(ModulusError, match=r"mwr4mm: the modulus has 11 bits, too wide for n = 10"):
        cfg_for(1025, n=10)
    cfg = cfg_for(1025, w=4)
    with pytest.raises(OperandError, match=r"mwr4mm: x is negative"):
        mwr4mm.mont_mul(cfg, -1, 0)
    with pytest.raises(OperandError, match=r"mwr4mm: y = 0x401 is out of range"):
        mwr4mm.mont_mul(cfg, 0, 1025)
