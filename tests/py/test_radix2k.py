"""radix2k (DRMMM Algorithm 1, SPEC 3.1): model vs an independent oracle, the Z < 2M invariant,
traces, Theorem 1 (the quotient mod 2^|M| does not depend on k), bad inputs, cycle model."""

from __future__ import annotations

import random

import pytest
from conftest import configure, hexdump, montgomery_oracle, scaled
from montlab import registry
from montlab.cycles import NO_FIGURE, model_for
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import radix2, radix2k
from montlab.testing import edge_moduli, edge_operands, random_modulus

KS = [1, 2, 3, 4, 8, 16, 64]


def cfg_for(n_mod: int, **params: int) -> radix2k.Config:
    return configure("radix2k", n_mod, **params)


def oracle(x: int, y: int, n_mod: int, k: int, n: int | None = None) -> int:
    """x*y*R^-1 mod N with R = 2^(k*ceil(n/k)) (SPEC 3.1), from pow and, if present, gmpy2."""
    n = n_mod.bit_length() if n is None else n
    return montgomery_oracle(x, y, 1 << (k * -(-n // k)), n_mod)


@pytest.mark.parametrize("k", KS)
def test_random_vs_oracle(rng: random.Random, k: int) -> None:
    for _ in range(scaled(15)):
        n_mod = random_modulus(rng, rng.randint(16, 1024))
        cfg = cfg_for(n_mod, k=k)
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        z = radix2k.mont_mul(cfg, x, y)
        assert z == oracle(x, y, n_mod, k), hexdump(N=n_mod, x=x, y=y, z=z)
        assert 0 <= radix2k.unreduced(cfg, x, y) < 2 * n_mod


def test_explicit_width(rng: random.Random) -> None:
    for _ in range(scaled(20)):
        n_mod = random_modulus(rng, rng.randint(2, 300))
        k = rng.choice(KS)
        n = n_mod.bit_length() + rng.randint(0, 70)
        cfg = cfg_for(n_mod, k=k, n=n)
        assert cfg.d == -(-n // k) and cfg.iterations == cfg.d and cfg.r == 1 << (k * cfg.d)
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        assert radix2k.mont_mul(cfg, x, y) == oracle(x, y, n_mod, k, n)


@pytest.mark.parametrize("bits", [2, 3, 16, 17, 64, 127, 1024])
@pytest.mark.parametrize("k", [1, 2, 4, 16])
def test_edge_moduli(bits: int, k: int) -> None:
    for n_mod in edge_moduli(bits):
        cfg = cfg_for(n_mod, k=k)
        for x, y in edge_operands(n_mod):
            z = radix2k.mont_mul(cfg, x, y)
            assert z == oracle(x, y, n_mod, k), hexdump(N=n_mod, x=x, y=y, z=z)


def test_k1_is_radix2(rng: random.Random) -> None:
    """With k = 1, Algorithm 1 is the bit-serial radix-2 loop: same value, same quotient bits."""
    for _ in range(scaled(10)):
        n_mod = random_modulus(rng, rng.randint(2, 512))
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        t1: list[dict] = []
        t2: list[dict] = []
        z1 = radix2k.mont_mul(cfg_for(n_mod, k=1), x, y, t1)
        z2 = radix2.mont_mul(radix2.configure(n_mod, {"n": None, "walter": 0}), x, y, t2)
        assert z1 == z2
        assert [e["q_i"] for e in t1] == [e["q_i"] for e in t2]
        assert [e["Z"] for e in t1] == [e["S"] for e in t2]


def test_trace_recomputed(rng: random.Random) -> None:
    """Every trace entry satisfies Z_i * r = Z_(i-1) + a_i*B + q_i*M with q_i < r (eq. (8))."""
    for _ in range(scaled(10)):
        n_mod = random_modulus(rng, rng.randint(16, 512))
        k = rng.choice(KS)
        cfg = cfg_for(n_mod, k=k)
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        trace: list[dict] = []
        z = radix2k.mont_mul(cfg, x, y, trace)
        assert len(trace) == cfg.d
        r = 1 << k
        m_prime = -pow(n_mod, -1, r) % r
        prev = 0
        for i, e in enumerate(trace):
            assert set(e) == {"i", "a_i", "q_i", "Z"} and e["i"] == i
            assert e["a_i"] == (x >> (k * i)) % r
            assert e["q_i"] == (prev + e["a_i"] * y) * m_prime % r
            assert e["Z"] * r == prev + e["a_i"] * y + e["q_i"] * n_mod
            assert e["Z"] < 2 * n_mod
            prev = e["Z"]
        assert z == (prev - n_mod if prev >= n_mod else prev)


def test_theorem1_quotient_independent_of_k(rng: random.Random) -> None:
    """Theorem 1 (SPEC 3.2): sum q_j r^j mod 2^|M| = A*B*M' mod 2^|M| for every k."""
    for _ in range(scaled(10)):
        bits = rng.randint(8, 400)
        n_mod = random_modulus(rng, bits)
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        mask = (1 << bits) - 1
        expected = x * y * (-pow(n_mod, -1, 1 << bits)) & mask
        seen = set()
        for k in [1, 2, 3, 4, 5, 8, 13, 16, 64]:
            trace: list[dict] = []
            radix2k.mont_mul(cfg_for(n_mod, k=k), x, y, trace)
            q = sum(e["q_i"] << (k * i) for i, e in enumerate(trace))
            seen.add(q & mask)
        assert seen == {expected}, hexdump(N=n_mod, x=x, y=y)


@pytest.mark.parametrize(
    "n_mod, params, exc",
    [
        (96, {}, ModulusError),
        (1, {}, ModulusError),
        (0, {}, ModulusError),
        (-3, {}, ModulusError),
        (0x1FFFF, {"n": 16}, ModulusError),  # modulus wider than n
        (97, {"k": 0}, ParameterError),  # registry: k >= 1
        (97, {"k": 65}, ParameterError),  # registry: k <= 64
        (97, {"n": 1}, ParameterError),
        (97, {"t": 2}, ParameterError),  # not a radix2k parameter
    ],
)
def test_bad_configuration(n_mod: int, params: dict, exc: type) -> None:
    with pytest.raises(exc):
        cfg_for(n_mod, **params)


def test_configure_checks_without_registry() -> None:
    """configure itself rejects what the registry would, for callers that skip it."""
    with pytest.raises(ParameterError, match="k = 0"):
        radix2k.configure(97, {"k": 0, "n": None})
    with pytest.raises(ModulusError):
        radix2k.configure(97, {"k": 4, "n": 6})
    assert radix2k.configure(97, {}).k == registry.get("radix2k").params["k"].default


def test_bad_operands() -> None:
    cfg = cfg_for(97, k=4)
    for x, y in [(-1, 5), (5, -1), (97, 5), (5, 97), (1 << 80, 3)]:
        with pytest.raises(OperandError):
            radix2k.mont_mul(cfg, x, y)


@pytest.mark.parametrize("bits, k", [(1024, 4), (1024, 16), (1000, 16), (17, 64)])
def test_cycle_model(bits: int, k: int) -> None:
    rep = model_for("radix2k", bits, {"k": k})
    d = -(-bits // k)
    n_mod = random_modulus(random.Random(bits), bits)
    assert rep.row("iterations").model == d == cfg_for(n_mod, k=k).d
    assert rep.row("cycles").model == d + 1
    assert all(r.status == NO_FIGURE for r in rep.rows)
    assert "not a measurement" in rep.label
