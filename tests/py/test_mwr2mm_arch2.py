"""mwr2mm_arch2 (Huang et al. Architecture 2, SPEC 5.3): the two-version PE tasks, equality with
mwr2mm (result, q_i, and the unshifted words against mwr2mm's shifted words, round by round), the
t(i, j) = i + j schedule, an independent oracle, and bad inputs."""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import configure as cfg_for
from conftest import hexdump, scaled
from conftest import montgomery_oracle as oracle
from montlab import registry
from montlab.cycles import model_for
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import _twoversion, mwr2mm, mwr2mm_arch2
from montlab.ref._base import from_words
from montlab.testing import edge_moduli, edge_operands, random_modulus


def shifted_from_unshifted(u: list[int], top: int, w: int) -> list[int]:
    """Algorithm 2's shifted words from the unshifted ones: (U^(j+1)_0, U^(j)_{w-1..1}), U^(e) = C^(e)."""
    nxt = u[1:] + [top]
    return [((b & 1) << (w - 1)) | (a >> 1) for a, b in zip(u, nxt)]


def check_against_mwr2mm(n_mod: int, w: int, x: int, y: int, n: int | None = None) -> list:
    """Run both models; assert equal results, q_i, and words; return the Architecture 2 trace."""
    params = {"w": w} if n is None else {"w": w, "n": n}
    c2 = cfg_for("mwr2mm_arch2", n_mod, **params)
    ctk = cfg_for("mwr2mm", n_mod, **params)
    t2: list = []
    tk: list = []
    z2 = mwr2mm_arch2.mont_mul(c2, x, y, t2)
    ztk = mwr2mm.mont_mul(ctk, x, y, tk)
    info = hexdump(N=n_mod, x=x, y=y) + f" w={w} n={c2.n}"
    assert z2 == ztk == oracle(x, y, c2.r, n_mod), info
    assert len(t2) == len(tk) == c2.n
    for a, b in zip(t2, tk):
        assert a["i"] == b["i"] and a["x_i"] == b["x_i"] and a["q_i"] == b["q_i"], info
        assert a["U"][0] & 1 == 0, "the unshifted word 0 is even"
        assert shifted_from_unshifted(a["U"], a["top"], w) == b["S"], info + f" i={a['i']}"
        assert from_words(a["U"], w) + (a["top"] << (w * c2.e)) == 2 * from_words(b["S"], w)
        assert a["C"][-1] == a["top"] and a["C"] == b["C"], "the selected carries are Algorithm 2's"
    return t2


def test_random_vs_mwr2mm_and_oracle(rng: random.Random) -> None:
    for _ in range(scaled(30)):
        bits = rng.randint(2, 1024) if rng.random() < 0.15 else rng.randint(2, 160)
        w = rng.choice([2, 3, 4, 5, 8, 16, 32] if bits <= 160 else [16, 32])
        n_mod = random_modulus(rng, bits)
        check_against_mwr2mm(n_mod, w, rng.randrange(n_mod), rng.randrange(n_mod))


@pytest.mark.parametrize("w", [3, 4, 8, 16, 32])
@pytest.mark.parametrize("bits", [2, 3, 15, 16, 31, 33, 64, 65])
def test_edge_moduli(bits: int, w: int) -> None:
    for n_mod in edge_moduli(bits):
        for x, y in edge_operands(n_mod):
            check_against_mwr2mm(n_mod, w, x, y)


def test_rsa_size_all_ones() -> None:
    n_mod = edge_moduli(1024)[0]
    check_against_mwr2mm(n_mod, 32, n_mod - 1, n_mod - 1)


def test_wide_datapath(rng: random.Random) -> None:
    for _ in range(scaled(15)):
        n_mod = random_modulus(rng, rng.randint(2, 120))
        n = n_mod.bit_length() + rng.choice([1, 3, 8, 33])
        check_against_mwr2mm(
            n_mod, rng.choice([2, 4, 5, 8, 16]), rng.randrange(n_mod), rng.randrange(n_mod), n
        )


def test_single_pe() -> None:
    """w > n: e = 1, and PE 0 is both Task D and Task F (one branch)."""
    for n_mod in (3, 5, 7, 0x2B, 0x7F):
        for w in (8, 16):
            cfg = cfg_for("mwr2mm_arch2", n_mod, w=w)
            assert cfg.e == 1
            for x, y in edge_operands(n_mod):
                check_against_mwr2mm(n_mod, w, x, y)


def test_schedule_in_trace(rng: random.Random) -> None:
    """Task (i, j) runs in cycle i + j on PE j; the last task ends at n + e - 1 (the cycle model)."""
    for bits, w in [(16, 4), (33, 8), (64, 16), (rng.randint(2, 200), rng.choice([2, 3, 8]))]:
        n_mod = random_modulus(rng, bits)
        cfg = cfg_for("mwr2mm_arch2", n_mod, w=w)
        tr: list = []
        mwr2mm_arch2.mont_mul(cfg, n_mod - 1, rng.randrange(n_mod), tr)
        for t in tr:
            assert t["cycle"] == [t["i"] + j for j in range(cfg.e)]
            assert t["pe"] == list(range(cfg.e))
            assert set(t) == {"i", "x_i", "q_i", "U", "top", "C", "cycle", "pe"}
        last = max(max(t["cycle"]) for t in tr) + 1
        assert (
            last
            == model_for("mwr2mm_arch2", bits, {"w": w}).row("cycles").model
            == cfg.n + cfg.e - 1
        )


# --- the PE tasks (Algorithms 3-5) ---------------------------------------------------------------


@pytest.mark.parametrize("w", [2, 3, 4])
def test_task_e_two_versions_exhaustive(w: int) -> None:
    """Every input of a small PE: the versions are C + xY + qM + (MSB, U_{w-1..1}) for MSB = 1, 0;
    they differ by 2^(w-1) and share the LSB; select picks by the bit."""
    top = 1 << w
    words = range(top)
    for c, x_i, q_i, y_j, m_j, u in itertools.product(
        range(3), (0, 1), (0, 1), words, words, words
    ):
        out = _twoversion.task_e(c, x_i, q_i, y_j, m_j, u, w)
        assert out.kind == "E" and out.q == q_i and out.v1 is not None
        for msb, v in ((1, out.v1), (0, out.v0)):
            total = c + x_i * y_j + q_i * m_j + msb * (top >> 1) + u // 2
            assert (v.carry, v.word) == divmod(total, top)
            assert v.carry <= 2
        assert out.v1.word & 1 == out.v0.word & 1 == out.lsb
        assert _twoversion.select(out, 1) == out.v1 and _twoversion.select(out, 0) == out.v0


@pytest.mark.parametrize("w", [2, 3, 5])
def test_task_d_and_f_exhaustive(w: int) -> None:
    top = 1 << w
    for x_i, y0, m0, u in itertools.product((0, 1), range(top), range(1, top, 2), range(top)):
        d = _twoversion.task_d(x_i, y0, m0, u, w)
        # q_i from bit 1 of the unshifted word = bit 0 of the shifted word, whatever its MSB.
        assert d.q == (x_i & y0 & 1) ^ ((u >> 1) & 1)
        assert d.v1 is not None and d.v0.word % 2 == 0 == d.v1.word % 2
        for msb in (0, 1):
            total = x_i * y0 + d.q * m0 + msb * (top >> 1) + u // 2
            if total < 2 * top:
                f = _twoversion.task_f(0, x_i, d.q, y0, m0, u, msb, w)
                assert f.v1 is None and (f.v0.carry, f.v0.word) == divmod(total, top)
            else:  # C^(e) <= 1 holds on every reachable input; task F asserts it
                with pytest.raises(AssertionError, match=r"C\^\(e\) <= 1"):
                    _twoversion.task_f(0, x_i, d.q, y0, m0, u, msb, w)
            assert _twoversion.select(_twoversion.task_d(x_i, y0, m0, u, w, msb), 0) == (
                d.v1 if msb else d.v0
            )


# --- bad inputs ----------------------------------------------------------------------------------


def test_bad_parameters() -> None:
    with pytest.raises(ParameterError, match=r"mwr2mm_arch2: w = 1 is illegal: it must be >= 2"):
        registry.resolve_params("mwr2mm_arch2", {"w": 1})
    with pytest.raises(ParameterError, match=r"unknown parameter 'p'"):
        registry.resolve_params("mwr2mm_arch2", {"p": 4})


@pytest.mark.parametrize("n_mod, what", [(64, "odd"), (1, "> 1"), (0, "> 1")])
def test_bad_modulus(n_mod: int, what: str) -> None:
    with pytest.raises(ModulusError, match=what):
        cfg_for("mwr2mm_arch2", n_mod)
    with pytest.raises(
        ModulusError, match=r"mwr2mm_arch2: the modulus has 10 bits, too wide for n = 9"
    ):
        cfg_for("mwr2mm_arch2", 1023, n=9)


def test_bad_operands() -> None:
    cfg = cfg_for("mwr2mm_arch2", 0xFFF1, w=8)
    with pytest.raises(OperandError, match=r"mwr2mm_arch2: y is negative"):
        mwr2mm_arch2.mont_mul(cfg, 1, -2)
    with pytest.raises(OperandError, match=r"mwr2mm_arch2: x = 0xfff1 is out of range"):
        mwr2mm_arch2.mont_mul(cfg, 0xFFF1, 1)
