"""drmmm (DRMMM Algorithms 2 and 3, SPEC 3.2-3.5): every form against an independent oracle and
against each other, the carry-save triplet against C2 iteration by iteration, the carry rule
exhaustively, and the errata of SPEC 3.5 each proven on the printed form."""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import configure, hexdump, montgomery_oracle, scaled
from montlab import registry
from montlab.cycles import NO_FIGURE, NOT_DERIVABLE, model_for
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.ref import drmmm, radix2k
from montlab.testing import edge_moduli, edge_operands, random_modulus

KS = [2, 4, 8, 16]
TS = [1, 2, 3, 4, 5]


def cfg_for(n_mod: int, **params: int) -> drmmm.Config:
    return configure("drmmm", n_mod, **params)


def digits_of(n_mod: int, k: int, n: int | None = None) -> int:
    n = n_mod.bit_length() if n is None else n
    return -(-n // k)


def oracle(x: int, y: int, n_mod: int, k: int, extra: int = 0, n: int | None = None) -> int:
    """x*y*r^-(d+extra) mod N with r = 2^k, d = ceil(n/k), from pow and, if present, gmpy2."""
    return montgomery_oracle(x, y, 1 << (k * (digits_of(n_mod, k, n) + extra)), n_mod)


def random_case(rng: random.Random, lo: int = 16, hi: int = 1024) -> tuple[int, int, int]:
    n_mod = random_modulus(rng, rng.randint(lo, hi))
    return n_mod, rng.randrange(n_mod), rng.randrange(n_mod)


# --- correctness ---------------------------------------------------------------------------------


@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("t", TS)
def test_all_forms_vs_oracle(rng: random.Random, k: int, t: int) -> None:
    """alg 2 (C2), alg 3 (triplet), C1 and Algorithm 1 give the same, correct output; C2's and
    Algorithm 3's values before the subtraction are bit-identical to Algorithm 1's (SPEC 3.2)."""
    for _ in range(scaled(15)):
        n_mod, x, y = random_case(rng)
        c2, c3 = cfg_for(n_mod, k=k, t=t, alg=2), cfg_for(n_mod, k=k, t=t, alg=3)
        a1 = radix2k.configure(n_mod, {"k": k, "n": None})
        want = oracle(x, y, n_mod, k)
        info = hexdump(N=n_mod, x=x, y=y) + f" k={k} t={t}"
        assert c2.r == c3.r == a1.r == 1 << (k * digits_of(n_mod, k))
        assert drmmm.mont_mul(c2, x, y) == want, info
        assert drmmm.mont_mul(c3, x, y) == want, info
        assert radix2k.mont_mul(a1, x, y) == want, info
        z1 = radix2k.unreduced(a1, x, y)
        r2 = drmmm.algorithm2_c2(c2, x, y)
        r3 = drmmm.algorithm3(c3, x, y)
        rc1 = drmmm.algorithm2_c1(c2, x, y)
        assert r2.unreduced == r3.unreduced == rc1.unreduced == z1 < 2 * n_mod, info
        assert r2.iterations == r3.iterations == c2.d + t and rc1.iterations == c2.d + t + 1
        assert r2.exact and r3.exact and rc1.exact


@pytest.mark.parametrize("bits", [2, 3, 16, 17, 64, 127, 1024])
@pytest.mark.parametrize("k, t", [(2, 1), (2, 5), (4, 2), (8, 3), (16, 4)])
def test_edge_moduli(bits: int, k: int, t: int) -> None:
    for n_mod in edge_moduli(bits):
        for alg in (2, 3):
            cfg = cfg_for(n_mod, k=k, t=t, alg=alg)
            for x, y in edge_operands(n_mod):
                z = drmmm.mont_mul(cfg, x, y)
                assert z == oracle(x, y, n_mod, k), hexdump(N=n_mod, x=x, y=y) + f" alg={alg}"


def test_explicit_width(rng: random.Random) -> None:
    """n wider than bitlen(N): d = ceil(n/k), and the triplet words grow with n."""
    for _ in range(scaled(12)):
        n_mod, x, y = random_case(rng, 2, 300)
        k, t = rng.choice(KS), rng.choice(TS)
        n = n_mod.bit_length() + rng.randint(1, 40)
        for alg in (2, 3):
            cfg = cfg_for(n_mod, k=k, t=t, alg=alg, n=n)
            assert cfg.d == digits_of(n_mod, k, n) and cfg.width == k * t + n + k + drmmm.GUARD
            assert drmmm.mont_mul(cfg, x, y) == oracle(x, y, n_mod, k, n=n)


@pytest.mark.slow
def test_large_sizes(rng: random.Random) -> None:
    """SPEC 3.2's wide runs: 1024 and 2048 bits, (k, t) in {(4,2), (4,4), (4,6), (16,2), (16,4),
    (8,3)}."""
    for bits in (1024, 2048):
        for k, t in [(4, 2), (4, 4), (4, 6), (16, 2), (16, 4), (8, 3)]:
            for _ in range(scaled(20)):
                n_mod = random_modulus(rng, bits)
                x, y = rng.randrange(n_mod), rng.randrange(n_mod)
                for alg in (2, 3):
                    assert drmmm.mont_mul(cfg_for(n_mod, k=k, t=t, alg=alg), x, y) == oracle(
                        x, y, n_mod, k
                    )


def test_default_parameters(rng: random.Random) -> None:
    """The registry defaults (k = 16, t = 4, alg = 3) are the ones configure falls back to."""
    p = registry.get("drmmm").params
    assert (p["k"].default, p["t"].default, p["alg"].default) == (16, 4, 3)
    n_mod, x, y = random_case(rng)
    cfg = drmmm.configure(n_mod, {})
    assert (cfg.k, cfg.t, cfg.alg) == (16, 4, 3) and cfg == cfg_for(n_mod)
    assert drmmm.mont_mul(cfg, x, y) == oracle(x, y, n_mod, 16)


# --- traces --------------------------------------------------------------------------------------


def check_c2_trace(trace: list[dict], n_mod: int, x: int, y: int, k: int, t: int) -> int:
    """Recompute C2 (SPEC 3.2) from the trace alone; return the value before the subtraction."""
    d = digits_of(n_mod, k)
    r, rt = 1 << k, 1 << (k * t)
    m_prime = -pow(n_mod, -1, rt) % rt
    assert len(trace) == d + t
    q_new: list[int] = []
    z = 0
    for i, e in enumerate(trace):
        assert e["i"] == i
        assert e["a_i"] == ((x >> (k * i)) % r if i < d else 0)
        assert e["q_new"] == (z % rt) * m_prime % rt >> (k * (t - 1))
        q_new.append(e["q_new"])
        assert e["q_used"] == (q_new[i - t + 1] if i - t + 1 >= 0 else 0)
        assert e["Z"] * r == z + e["a_i"] * y * rt + e["q_used"] * n_mod
        z = e["Z"]
    return z


def test_spec6_item7_trace() -> None:
    """SPEC 6 item 7: C2, 64-bit, k = 4, t = 2: full trace consistency, result A*B*16^-16 mod M;
    Algorithm 3 on the same input has the same trace, and its triplet represents Z^."""
    rng = random.Random("montlab:drmmm:item7")
    n_mod = random_modulus(rng, 64)
    x, y = rng.randrange(n_mod), rng.randrange(n_mod)
    t2: list[dict] = []
    t3: list[dict] = []
    z2 = drmmm.mont_mul(cfg_for(n_mod, k=4, t=2, alg=2), x, y, t2)
    z3 = drmmm.mont_mul(cfg_for(n_mod, k=4, t=2, alg=3), x, y, t3)
    want = x * y * pow(16, -16, n_mod) % n_mod
    assert z2 == z3 == want
    assert all(set(e) == {"i", "a_i", "q_new", "q_used", "Z"} for e in t2)
    assert all(
        set(e) == {"i", "a_i", "q_new", "q_used", "Z", "Z0", "Z1", "Z2", "C_l", "C_m"} for e in t3
    )
    unreduced = check_c2_trace(t2, n_mod, x, y, 4, 2)
    assert (unreduced - n_mod if unreduced >= n_mod else unreduced) == want
    for e2, e3 in zip(t2, t3, strict=True):
        assert {key: e3[key] for key in e2} == e2
        assert e3["Z0"] + e3["Z1"] + e3["Z2"] + e3["C_l"] + e3["C_m"] == e3["Z"]


@pytest.mark.parametrize("k", KS)
def test_triplet_equals_c2_every_iteration(rng: random.Random, k: int) -> None:
    """Through the traces, independently of the model's own cross-check: after every iteration
    Z0 + Z1 + Z2 + C_l + C_m equals C2's Z^, the carries are bits, and each word fits its
    register."""
    for _ in range(scaled(10)):
        n_mod, x, y = random_case(rng, 16, 512)
        t = rng.choice(TS)
        c3 = cfg_for(n_mod, k=k, t=t, alg=3)
        t2: list[dict] = []
        t3: list[dict] = []
        drmmm.algorithm2_c2(cfg_for(n_mod, k=k, t=t, alg=2), x, y, t2)
        drmmm.algorithm3(c3, x, y, t3)
        check_c2_trace(t2, n_mod, x, y, k, t)
        assert len(t3) == len(t2) == c3.d + t
        for e2, e3 in zip(t2, t3, strict=True):
            assert e3["C_l"] in (0, 1) and e3["C_m"] in (0, 1)
            assert e3["C_m"] <= e3["C_l"]  # C_m = 1 only with some ones among the six bits
            assert e3["Z0"] + e3["Z1"] + e3["Z2"] + e3["C_l"] + e3["C_m"] == e2["Z"]
            assert all(e3[w] < 1 << (c3.width - k) for w in ("Z0", "Z1", "Z2"))
            assert (e3["q_new"], e3["q_used"]) == (e2["q_new"], e2["q_used"])


def test_quotient_digits_are_algorithm1s(rng: random.Random) -> None:
    """Eq. (23) with the corrected timing: C2's q^_i is Algorithm 1's q_(i-1)."""
    for _ in range(scaled(10)):
        n_mod, x, y = random_case(rng, 16, 512)
        k, t = rng.choice(KS), rng.choice(TS)
        t1: list[dict] = []
        t2: list[dict] = []
        radix2k.mont_mul(radix2k.configure(n_mod, {"k": k, "n": None}), x, y, t1)
        drmmm.mont_mul(cfg_for(n_mod, k=k, t=t, alg=2), x, y, t2)
        d = len(t1)
        # q^_0 .. q^_d are applied (iteration d+t-1 uses q^_d); later digits are never used.
        assert [e["q_new"] for e in t2[: d + 1]] == [0] + [e["q_i"] for e in t1]
        assert [e["q_used"] for e in t2] == [0] * t + [e["q_i"] for e in t1]


def test_theorem1(rng: random.Random) -> None:
    """Theorem 1: the quotient sum q_j r^j of Algorithm 1 mod 2^|M| is A*B*M' mod 2^|M| for every
    k; C2 applies the same digits (its q_used, shifted by t-1 iterations)."""
    for _ in range(scaled(6)):
        bits = rng.randint(16, 300)
        n_mod = random_modulus(rng, bits)
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        mask = (1 << bits) - 1
        expected = (x * y * -pow(n_mod, -1, 1 << bits)) & mask
        for k in KS:
            t = rng.choice(TS)
            trace: list[dict] = []
            drmmm.algorithm2_c2(cfg_for(n_mod, k=k, t=t, alg=2), x, y, trace)
            q = sum(e["q_used"] << (k * (i - t)) for i, e in enumerate(trace) if i >= t)
            assert all(e["q_used"] == 0 for e in trace[:t])
            assert q & mask == expected, hexdump(N=n_mod, x=x, y=y) + f" k={k} t={t}"


def test_register_width(rng: random.Random) -> None:
    """The C2 intermediate Z^ + a_i*B*r^t + q^*M (= Z^_i * r) stays below 2^(kt+|M|+k+1), and can
    need that extra bit: SPEC 3.2's "exactly kt + |M| + k bits" is one bit short."""
    for _ in range(scaled(100)):
        n_mod, x, y = random_case(rng, 16, 512)
        k, t = rng.choice(KS), rng.choice(TS)
        trace: list[dict] = []
        drmmm.algorithm2_c2(cfg_for(n_mod, k=k, t=t, alg=2), x, y, trace)
        widest = max((e["Z"] << k).bit_length() for e in trace)
        assert widest <= k * t + n_mod.bit_length() + k + 1
    # An all-ones modulus with B = A = M - 1 reaches kt + |M| + k + 1 bits.
    n_mod = 2**64 - 1
    trace = []
    drmmm.algorithm2_c2(cfg_for(n_mod, k=4, t=2, alg=2), n_mod - 1, n_mod - 1, trace)
    assert max((e["Z"] << 4).bit_length() for e in trace) == 4 * 2 + 64 + 4 + 1


# --- the 6:3 compressor and the carry logic ------------------------------------------------------


def test_compressor_counts_each_column() -> None:
    """Fig. 8(a): for all 64 six-bit columns, the three outputs are the count's bits at weights
    1, 2, 4, and they equal eq. (31)'s LUT counter."""
    for bits in itertools.product((0, 1), repeat=6):
        for pos in (0, 5):
            w0, w1, w2 = drmmm.compress_6_3(*(b << pos for b in bits))
            o = (w0 >> pos, w1 >> (pos + 1), w2 >> (pos + 2))
            assert all(v in (0, 1) for v in o)
            assert w0 == o[0] << pos and w1 == o[1] << (pos + 1) and w2 == o[2] << (pos + 2)
            assert o[0] + 2 * o[1] + 4 * o[2] == sum(bits)
            assert o == drmmm.counter_6_3(bits)


def test_compressor_words(rng: random.Random) -> None:
    for _ in range(scaled(200)):
        width = rng.randint(1, 300)
        xs = [rng.getrandbits(width) for _ in range(6)]
        w0, w1, w2 = drmmm.compress_6_3(*xs)
        assert w0 + w1 + w2 == sum(xs)
        assert w0 < 1 << width and w1 < 1 << (width + 1) and w2 < 1 << (width + 2)
        assert w1 & 1 == 0 and w2 & 3 == 0


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_carry_rule_exhaustive(k: int) -> None:
    """SPEC 6: every triplet of k-bit words with sum = 0 mod 2^k: C_l + C_m is the carry out of
    the low k bits; (n_m, n_l) = (2, 1) and (1, 3) never occur; the paper's case list agrees."""
    mod = 1 << k
    states = set()
    count = 0
    for z0 in range(mod):
        for z1 in range(mod):
            z2 = -(z0 + z1) % mod
            total = z0 + z1 + z2
            assert total % mod == 0
            c_l, c_m = drmmm.carry_bits(z0, z1, z2, k)
            assert c_l + c_m == total >> k, (k, z0, z1, z2)
            n_m = sum((w >> (k - 1)) & 1 for w in (z0, z1, z2))
            n_l = sum((w >> (k - 2)) & 1 for w in (z0, z1, z2))
            assert drmmm.c_m_case_list(n_m, n_l) == c_m
            states.add((n_m, n_l))
            count += 1
    assert count == mod * mod
    assert not states & {(2, 1), (1, 3)}
    # The rule differs from the printed case list only on those unreachable states.
    differ = {
        (a, b)
        for a in range(4)
        for b in range(4)
        if drmmm.c_m_case_list(a, b) != drmmm.c_m_rule(a, b)
    }
    assert differ == {(2, 1), (1, 3)}
    assert all(drmmm.c_m_rule(a, b) == (2 * a + b >= 6) for a in range(4) for b in range(4))


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_carry_rule_redundant_input(k: int) -> None:
    """On every valid triplet one of the three bit-(k-2) inputs of eq. (32) is redundant (a
    single one there cannot complete a multiple of 2^k on its own), while every bit-(k-1) input
    is needed for k >= 4. Harmless: the 6-input OR stays correct."""
    mod = 1 << k
    needed = set()
    for z0 in range(mod):
        for z1 in range(mod):
            z2 = -(z0 + z1) % mod
            carry = (z0 + z1 + z2) >> k
            bits = [(w >> (k - 1)) & 1 for w in (z0, z1, z2)] + [
                (w >> (k - 2)) & 1 for w in (z0, z1, z2)
            ]
            for drop in range(6):
                if (1 if any(b for j, b in enumerate(bits) if j != drop) else 0) != min(carry, 1):
                    needed.add(drop)
    assert not needed & {3, 4, 5}
    assert needed == ({0, 1, 2} if k >= 4 else set())


def test_carry_rule_needs_k2() -> None:
    """The carry logic reads bits k-1 and k-2: k = 1 is refused."""
    with pytest.raises(AssertionError):
        drmmm.carry_bits(0, 0, 0, 1)


# --- errata (SPEC 3.5) ---------------------------------------------------------------------------


def test_erratum1_printed_algorithm2_fails(rng: random.Random) -> None:
    """Erratum 1: the printed Algorithm 2 (q^_(i-t), d+t+1 iterations) drops non-zero bits in a
    right shift in every run and returns a wrong product; d+t iterations do not fix it."""
    cases = 0
    for k in (2, 4, 16):
        for t in TS:
            for _ in range(scaled(10)):
                n_mod, x, y = random_case(rng, 32, 1024)
                cfg = cfg_for(n_mod, k=k, t=t, alg=2)
                want = oracle(x, y, n_mod, k)
                info = hexdump(N=n_mod, x=x, y=y) + f" k={k} t={t}"
                for its in (cfg.d + t + 1, cfg.d + t):
                    run = drmmm.algorithm2_printed(cfg, x, y, iterations=its)
                    assert run.iterations == its
                    assert not run.exact and run.first_inexact is not None, info
                    assert run.z != want, info
                # The correction on the same input is exact and right.
                assert drmmm.algorithm2_c2(cfg, x, y).z == want
                cases += 1
    assert cases >= 15


def test_erratum1_printed_trace() -> None:
    """The printed loop applies q^_(i-t) (one iteration late) and has d+t+1 iterations."""
    n_mod = random_modulus(random.Random("printed"), 64)
    cfg = cfg_for(n_mod, k=4, t=2, alg=2)
    trace: list[dict] = []
    run = drmmm.algorithm2_printed(cfg, 0x1234567, n_mod - 2, trace)
    assert len(trace) == cfg.d + 3 == run.iterations
    q_new = [e["q_new"] for e in trace]
    assert [e["q_used"] for e in trace] == [0, 0] + q_new[:-2]
    # Recompute each shift from the trace: the first one that drops non-zero bits is the one
    # the run reports.
    prev, dropped = 0, []
    for e in trace:
        s = prev + e["a_i"] * (n_mod - 2) * 16**2 + e["q_used"] * n_mod
        assert e["Z"] == s >> 4
        dropped.append(s % 16)
        prev = e["Z"]
    assert run.first_inexact == next(i for i, v in enumerate(dropped) if v)


def test_erratum2_printed_loop_extra_factor(rng: random.Random) -> None:
    """Erratum 2: Algorithm 3 with the printed loop i = 0..d+t (d+t+1 iterations) returns
    A*B*r^-(d+1) mod M, not the stated A*B*r^-d."""
    differs = 0
    for k in KS:
        for _ in range(scaled(20)):
            n_mod, x, y = random_case(rng)
            t = rng.choice(TS)
            cfg = cfg_for(n_mod, k=k, t=t, alg=3)
            run = drmmm.algorithm3(cfg, x, y, iterations=cfg.d + t + 1)
            assert run.exact and run.iterations == cfg.d + t + 1
            assert run.z == oracle(x, y, n_mod, k, extra=1), hexdump(N=n_mod, x=x, y=y)
            assert drmmm.algorithm2_c2(cfg, x, y, iterations=cfg.d + t + 1).z == run.z
            stated = oracle(x, y, n_mod, k)
            if stated != run.z:
                differs += 1
            else:  # only when the two constants coincide on this input
                assert (x * y * ((1 << k) - 1)) % n_mod == 0
            assert drmmm.algorithm3(cfg, x, y).z == stated
    assert differs >= len(KS) * scaled(20) - 2


def test_erratum3_q_pipeline_needs_the_carries(rng: random.Random) -> None:
    """Erratum 3: with the pending carries left out of stage 1 of the q pipeline, Algorithm 3
    fails whenever a wrong digit reaches the update: a shift then drops bits and the product is
    wrong. That happens in nearly every run with d > t + 1 (SPEC 3.3: 120/120)."""
    runs = fails = 0
    for k in KS:
        for t in TS:
            for _ in range(scaled(6)):
                n_mod = random_modulus(rng, rng.randint(max(64, k * (t + 3)), 512))
                x, y = rng.randrange(n_mod), rng.randrange(n_mod)
                cfg = cfg_for(n_mod, k=k, t=t, alg=3)
                assert cfg.d > t + 1
                good: list[dict] = []
                bad: list[dict] = []
                drmmm.algorithm2_c2(cfg, x, y, good)
                run = drmmm.algorithm3(cfg, x, y, bad, q_reads_carries=False)
                want = oracle(x, y, n_mod, k)
                pairs = zip(good, bad, strict=True)
                wrong_digit = any(g["q_used"] != b["q_used"] for g, b in pairs)
                info = hexdump(N=n_mod, x=x, y=y) + f" k={k} t={t}"
                if wrong_digit:
                    assert not run.exact and run.z != want, info
                    fails += 1
                else:  # the carries happened not to change any digit that was used
                    assert run.exact and run.z == want, info
                runs += 1
                # With the carries (the default), the same input is exact and right.
                assert drmmm.algorithm3(cfg, x, y).z == want
    assert fails >= 0.8 * runs, f"only {fails}/{runs} runs failed"


def test_erratum3_harmless_when_d_le_t(rng: random.Random) -> None:
    """When d <= t no pending carry reaches a digit that is used, so the carry-free pipeline
    still works: the erratum shows only for d > t."""
    for _ in range(scaled(5)):
        n_mod = random_modulus(rng, 64)
        x, y = rng.randrange(n_mod), rng.randrange(n_mod)
        cfg = cfg_for(n_mod, k=16, t=4, alg=3)  # d = 4 = t
        run = drmmm.algorithm3(cfg, x, y, q_reads_carries=False)
        assert run.exact and run.z == oracle(x, y, n_mod, 16)


# --- bad inputs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n_mod, params, exc",
    [
        (96, {}, ModulusError),  # even
        (1, {}, ModulusError),
        (0, {}, ModulusError),
        (-5, {}, ModulusError),
        (0x1FFFF, {"n": 16}, ModulusError),  # modulus wider than n
        (97, {"k": 1, "alg": 3}, ParameterError),  # Algorithm 3 needs k >= 2
        (97, {"k": 0}, ParameterError),
        (97, {"t": 0}, ParameterError),  # registry: t >= 1
        (97, {"t": -1}, ParameterError),
        (97, {"alg": 1}, ParameterError),
        (97, {"alg": 4}, ParameterError),
        (97, {"n": 1}, ParameterError),
        (97, {"w": 16}, ParameterError),  # unknown parameter
    ],
)
def test_bad_configuration(n_mod: int, params: dict, exc: type) -> None:
    with pytest.raises(exc):
        cfg_for(n_mod, **params)


def test_configure_checks_without_registry() -> None:
    """configure applies the registry's bounds itself (callers may skip the registry)."""
    base = {"k": 4, "t": 2, "alg": 3, "n": None}
    with pytest.raises(ParameterError, match="k >= 2"):
        drmmm.configure(97, dict(base, k=1))
    with pytest.raises(ParameterError, match="t = 0 is illegal"):
        drmmm.configure(97, dict(base, t=0))
    with pytest.raises(ParameterError, match="alg = 5 is illegal"):
        drmmm.configure(97, dict(base, alg=5))
    with pytest.raises(ModulusError):
        drmmm.configure(97, dict(base, n=6))
    with pytest.raises(ModulusError):
        drmmm.configure(96, base)
    # k = 1 is a legal Algorithm 2 (radix 2).
    cfg = drmmm.configure(97, dict(base, k=1, alg=2))
    assert drmmm.mont_mul(cfg, 50, 60) == 50 * 60 * pow(2, -7, 97) % 97
    with pytest.raises(ParameterError):
        drmmm.algorithm3(cfg, 50, 60)


def test_bad_operands() -> None:
    for alg in (2, 3):
        cfg = cfg_for(97, k=4, t=2, alg=alg)
        for x, y in [(-1, 5), (5, -1), (97, 5), (5, 97), (1 << 90, 1)]:
            with pytest.raises(OperandError):
                drmmm.mont_mul(cfg, x, y)
        with pytest.raises(OperandError):
            drmmm.algorithm2_printed(cfg, 97, 1)
        with pytest.raises(OperandError):
            drmmm.algorithm2_c1(cfg, -1, 1)


# --- cycle model ---------------------------------------------------------------------------------


def test_cycle_model_table1() -> None:
    """SPEC 3.4: d + t + 1 = 69 for k = 16, t = 4 at 1024 bits, beside the paper's 74, which is
    marked not derivable; the same for 268 at k = 4."""
    rep = model_for("drmmm", 1024, {"k": 16, "t": 4})
    assert rep.row("iterations").model == 68
    row = rep.row("cycles")
    assert (row.model, row.paper, row.status) == (69, 74, NOT_DERIVABLE)
    assert rep.row("iterations_printed").model == 69
    for t in (1, 4, 6):
        row = model_for("drmmm", 1024, {"k": 4, "t": t}).row("cycles")
        assert (row.model, row.paper, row.status) == (256 + t + 1, 268, NOT_DERIVABLE)
    assert "not a measurement" in rep.label


@pytest.mark.parametrize("bits, k, t", [(64, 4, 2), (1000, 16, 3), (17, 2, 5), (2048, 8, 1)])
def test_cycle_model_matches_the_loop(bits: int, k: int, t: int) -> None:
    rep = model_for("drmmm", bits, {"k": k, "t": t})
    cfg = cfg_for(random_modulus(random.Random(bits), bits), k=k, t=t)
    assert rep.row("iterations").model == cfg.iterations == cfg.d + t
    assert rep.row("cycles").model == cfg.d + t + 1
    assert rep.row("iterations_printed").model == cfg.d + t + 1
    assert all(r.status == NO_FIGURE for r in rep.rows)
    with pytest.raises(ParameterError):
        model_for("drmmm", bits, {"k": k, "t": t, "n": bits - 1})
