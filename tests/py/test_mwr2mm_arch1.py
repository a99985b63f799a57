"""mwr2mm_arch1 (Huang et al. Architecture 1, SPEC 5.3/5.5): equality with mwr2mm and
mwr2mm_arch2 for many p (p < e, p = 1, p | n, p >= e), the PE assignment, the explicit FIFO against
eq. (7), the schedule against the cycle model (corrected eq. (6)), an independent oracle, bad inputs."""

from __future__ import annotations

import random

import pytest
from conftest import configure as cfg_for
from conftest import hexdump, scaled
from conftest import montgomery_oracle as oracle
from montlab import registry
from montlab.cycles import model_for
from montlab.cycles.mwr2mm_arch1 import closed_form
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import mwr2mm, mwr2mm_arch1, mwr2mm_arch2
from montlab.ref._base import from_words
from montlab.testing import edge_moduli, edge_operands, random_modulus


def check_arch1(n_mod: int, w: int, p: int | None, x: int, y: int, n: int | None = None) -> list:
    """Architecture 1 == Architecture 2 == mwr2mm, word for word; returns the Architecture 1 trace."""
    params = {"w": w} if n is None else {"w": w, "n": n}
    c1 = cfg_for("mwr2mm_arch1", n_mod, **params, **({} if p is None else {"p": p}))
    t1: list = []
    t2: list = []
    tk: list = []
    z1 = mwr2mm_arch1.mont_mul(c1, x, y, t1)
    z2 = mwr2mm_arch2.mont_mul(cfg_for("mwr2mm_arch2", n_mod, **params), x, y, t2)
    ztk = mwr2mm.mont_mul(cfg_for("mwr2mm", n_mod, **params), x, y, tk)
    info = hexdump(N=n_mod, x=x, y=y) + f" w={w} p={c1.p} n={c1.n} e={c1.e}"
    assert z1 == z2 == ztk == oracle(x, y, c1.r, n_mod), info
    for a, b, s in zip(t1, t2, tk, strict=True):
        # The same words: the unshifted words of Architecture 2, and, shifted once, Algorithm 2's S.
        assert (a["q_i"], a["U"], a["top"], a["C"]) == (b["q_i"], b["U"], b["top"], b["C"]), info
        assert (from_words(a["U"], w) + (a["top"] << (w * c1.e))) >> 1 == from_words(s["S"], w), (
            info
        )
        assert a["pe"] == [a["i"] % c1.p] * c1.e, "round i runs on PE i mod p"
        assert a["cycle"] == sorted(a["cycle"]) and len(set(a["cycle"])) == c1.e, "word by word"
    return t1


def test_random_vs_oracle_and_arch2(rng: random.Random) -> None:
    for _ in range(scaled(25)):
        bits = rng.randint(2, 512) if rng.random() < 0.15 else rng.randint(2, 120)
        w = rng.choice([2, 3, 4, 5, 8, 16] if bits <= 120 else [16, 32])
        n_mod = random_modulus(rng, bits)
        e = -(-(bits + 1) // w)
        p = rng.choice([None, 1, 2, max(1, e - 1), e, e + 3, rng.randint(1, e)])
        check_arch1(n_mod, w, p, rng.randrange(n_mod), rng.randrange(n_mod))


@pytest.mark.parametrize("p", [1, 2, 3, 4, 5, 8, 40])
def test_many_p(p: int) -> None:
    """n = 32, w = 4: e = 9. p = 1, 2, 4, 8 divide n (the printed eq. (6) is off there); 3, 5 do
    not; 40 > e (no queue)."""
    n_mod = edge_moduli(32)[0]
    for x, y in edge_operands(n_mod)[:4]:
        check_arch1(n_mod, 4, p, x, y)


@pytest.mark.parametrize("bits", [2, 3, 16, 17, 33, 64])
def test_edge_moduli(bits: int) -> None:
    combos = ((4, 1), (4, 3), (8, None), (3, 2))  # (w, p); two per modulus, all four per width
    for k, n_mod in enumerate(edge_moduli(bits)):
        for w, p in (combos[k % 4], combos[(k + 1) % 4]):
            for x, y in edge_operands(n_mod):
                check_arch1(n_mod, w, p, x, y)


def test_wide_datapath(rng: random.Random) -> None:
    for _ in range(scaled(10)):
        n_mod = random_modulus(rng, rng.randint(2, 100))
        n = n_mod.bit_length() + rng.choice([1, 4, 9])
        w, p = rng.choice([4, 8]), rng.choice([1, 2, 3, None])
        check_arch1(n_mod, w, p, rng.randrange(n_mod), rng.randrange(n_mod), n)


def test_rsa_size_all_ones() -> None:
    n_mod = edge_moduli(1024)[0]
    check_arch1(n_mod, 32, 11, n_mod - 1, n_mod - 1)


def test_queue_and_schedule(rng: random.Random) -> None:
    """The explicit FIFO holds e - p words at most (eq. (7)) and is used when e > p; the last task
    ends at the corrected eq. (6), which is also the cycle model's schedule."""
    for bits, w, p in [
        (16, 4, 2),
        (16, 4, 5),
        (16, 4, 1),
        (31, 4, 3),
        (40, 8, 2),
        (65, 8, 4),
        (64, 16, 5),
    ]:
        n_mod = random_modulus(rng, bits)
        tr = check_arch1(n_mod, w, p, n_mod - 2, rng.randrange(n_mod))
        e = -(-(bits + 1) // w)
        most = max(max(t["queue"]) for t in tr)
        assert most == (e - p if e > p else 0), f"bits={bits} w={w} p={p}"
        last = max(max(t["cycle"]) for t in tr) + 1
        report = model_for("mwr2mm_arch1", bits, {"w": w, "p": p})
        assert last == report.row("cycles").model == closed_form(bits, e, p)
        assert most == report.row("queue").model
        # Rounds of one kernel cycle start one cycle apart; the next kernel waits for PE 0.
        starts = [t["cycle"][0] for t in tr]
        for i in range(1, bits):
            gap = starts[i] - starts[i - 1]
            assert gap == (1 if i % p or e <= p else e - p + 1), f"round {i}"


def test_trace_shape() -> None:
    n_mod = 0xD5
    cfg = cfg_for("mwr2mm_arch1", n_mod, w=4, p=2)
    assert (cfg.n, cfg.e, cfg.p) == (8, 3, 2)
    tr: list = []
    mwr2mm_arch1.mont_mul(cfg, 0x12, 0xC4, tr)
    assert [t["i"] for t in tr] == list(range(8))
    for t in tr:
        assert set(t) == {"i", "x_i", "q_i", "U", "top", "C", "cycle", "pe", "queue"}
        assert len(t["U"]) == len(t["C"]) == len(t["cycle"]) == len(t["queue"]) == 3


def test_p_auto_is_e() -> None:
    cfg = cfg_for("mwr2mm_arch1", (1 << 100) - 3, w=16)
    assert cfg.e == 7 and cfg.p == 7


# --- bad inputs ----------------------------------------------------------------------------------


def test_bad_parameters() -> None:
    with pytest.raises(ParameterError, match=r"mwr2mm_arch1: p = 0 is illegal: it must be >= 1"):
        registry.resolve_params("mwr2mm_arch1", {"p": 0})
    with pytest.raises(ParameterError, match=r"mwr2mm_arch1: w = 0 is illegal: it must be >= 2"):
        registry.resolve_params("mwr2mm_arch1", {"w": 0})
    with pytest.raises(ParameterError, match=r"p = -1 is illegal"):
        mwr2mm_arch1.configure(101, {"w": 4, "p": -1, "n": None})


def test_bad_modulus_and_operands() -> None:
    with pytest.raises(ModulusError, match=r"mwr2mm_arch1: the modulus must be odd"):
        cfg_for("mwr2mm_arch1", 1 << 20)
    with pytest.raises(ModulusError, match=r"mwr2mm_arch1: the modulus must be > 1"):
        cfg_for("mwr2mm_arch1", 1)
    with pytest.raises(ModulusError, match=r"too wide for n = 4"):
        cfg_for("mwr2mm_arch1", 17, n=4)
    cfg = cfg_for("mwr2mm_arch1", 17, w=2, p=1)
    with pytest.raises(OperandError, match=r"mwr2mm_arch1: x is negative"):
        mwr2mm_arch1.mont_mul(cfg, -5, 1)
    with pytest.raises(OperandError, match=r"mwr2mm_arch1: y = 0x11 is out of range"):
        mwr2mm_arch1.mont_mul(cfg, 1, 17)
