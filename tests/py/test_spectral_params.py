"""Parameter rules of the spectral designs (SPEC 1.6, 2.1, 4.2) and the printed-table reproduction."""

from __future__ import annotations

from fractions import Fraction

import pytest
from montlab import spectral_params as sp
from montlab.errors import ModulusError, ParameterError

HALF = Fraction(1, 2)


# ---- FMLM3 rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "u, v, want2, want3",
    [
        (16, 7, HALF, HALF),  # 7+33 = 40 <= 64; 14+48 = 62 <= 64
        (24, 7, HALF, Fraction(1)),  # 56 <= 64; 86 > 64
        (32, 7, Fraction(1), Fraction(1)),  # 72 > 64
        (128, 4, Fraction(17), Fraction(25)),  # Table 4 set 1 and its Alg-3 ring
        (64, 5, Fraction(5), Fraction(7)),
        (1, 4, HALF, Fraction(1)),  # SPEC 6 item 3 ring 2^8+1; 2v+3u = 11 > 8
    ],
)
def test_c2_c3(u: int, v: int, want2: Fraction, want3: Fraction) -> None:
    assert sp.c2(u, v) == want2 and isinstance(sp.c2(u, v), Fraction)
    assert sp.c3(u, v) == want3


@pytest.mark.parametrize("u, v", [(0, 3), (3, 0), (-1, 4)])
def test_c_rejects_bad_uv(u: int, v: int) -> None:
    with pytest.raises(ParameterError):
        sp.c2(u, v)


def test_rules_imply_exact_bounds() -> None:
    # The rings of (15) and (20) always satisfy the exact (13) and (19).
    for v in range(1, 10):
        for u in range(1, 70):
            p, b = 1 << v, 1 << u
            assert sp.eq13_holds(sp.ring(sp.c2(u, v), v), p, b), (u, v)
            assert sp.eq19_holds(sp.ring(sp.c3(u, v), v), p, b), (u, v)


def test_bounds_are_exact_at_the_edge() -> None:
    p, b = 16, 1 << 6  # SPEC 1.6: P(B-1)^2 < 2^16+1 < 2P(B-1)^2
    m = (1 << 16) + 1
    assert p * (b - 1) ** 2 < m and not sp.eq13_holds(m, p, b)
    assert sp.eq13_holds((1 << 32) + 1, p, b)
    assert sp.eq19_holds(2 * p * p * (b - 1) ** 3, p, b)
    assert not sp.eq19_holds(p * p * (b - 1) ** 3, p, b)


@pytest.mark.parametrize("v", range(4, 10))
def test_roots_of_every_half_ring(v: int) -> None:
    s = sp.make_set(1, v, HALF)
    assert s.omega == 2 and s.A * s.A % s.M == 2
    assert pow(s.A, s.P, s.M) == s.M - 1 and pow(s.omega, s.P, s.M) == 1


def test_roots_integer_c() -> None:
    s = sp.make_set(64, 5)  # c = 5
    assert (s.c, s.omega, s.A, s.M) == (5, 1 << 10, 1 << 5, (1 << 160) + 1)
    assert pow(s.A, s.P, s.M) == s.M - 1


def test_fmlm3set_is_frozen() -> None:
    s = sp.make_set(16, 6)
    with pytest.raises(AttributeError):
        s.u = 3  # type: ignore[misc]
    assert s.R == (1 << 1024) - 1 and s.l == 1024


# ---- Algorithm 4 --------------------------------------------------------------------------------


@pytest.mark.parametrize("l", [1024, 2048, 3072, 4096, 7680])
def test_algorithm4_matches_spec_table(l: int) -> None:  # noqa: E741
    sets = sp.algorithm4(l)
    rows = [r for r in sp.SPEC_ALG4 if r[0] == l]
    last = sets[-len(rows) :]
    got = [(l, s.P, s.u, s.c, s.M, s.alg, sp.ring(sp.c3(s.u, s.v), s.v)) for s in last]
    want = [(r[0], r[1], r[2], r[3], (1 << r[4]) + 1, r[5], (1 << r[6]) + 1) for r in rows]
    assert got == want
    # Every set's ring is wide enough for the algorithm chosen.
    assert all(s.satisfies(s.alg) for s in sets)
    # Stop right after the first c = 1/2 set, and only then.
    assert sets[-1].c == HALF and all(s.c != HALF for s in sets[:-1])
    assert [s.v for s in sets] == list(range(1, len(sets) + 1))


def test_algorithm4_l_is_u_times_p() -> None:
    for s in sp.algorithm4(1000):
        assert s.l == s.u * s.P >= 1000 and s.u == -(-1000 // s.P)


def test_algorithm4_spec_omega_and_a() -> None:
    by_p = {s.P: s for s in sp.algorithm4(2048)}
    assert (by_p[16].omega, by_p[16].A) == (1 << 34, 1 << 17)
    assert (by_p[128].omega, by_p[128].A) == (2, (1 << 48) - (1 << 16))
    by_p = {s.P: s for s in sp.algorithm4(4096)}
    assert by_p[256].A == (1 << 96) - (1 << 32)


@pytest.mark.parametrize("bad", [0, 1, 2.5, True])
def test_algorithm4_rejects_bad_l(bad: object) -> None:
    with pytest.raises(ParameterError):
        sp.algorithm4(bad)  # type: ignore[arg-type]


def test_printed_step4_erratum_at_3072() -> None:
    u, v = 24, 7  # l = 3072, P = 128
    assert sp.algorithm4_printed_choice(u, v) == 3
    corrected = next(s for s in sp.algorithm4(3072) if s.P == 128)
    assert (corrected.u, corrected.c, corrected.alg) == (u, HALF, 2)
    # Running Algorithm 3 on the printed choice's ring M = 2^64+1 breaks eq. (19).
    assert corrected.M == (1 << 64) + 1
    assert not sp.eq19_holds(corrected.M, corrected.P, corrected.B)
    with pytest.raises(ParameterError, match=r"\(19\)"):
        sp.check_set((1 << 3071) + 1, corrected, alg=3)


def test_printed_and_corrected_step4_agree_elsewhere() -> None:
    # The two rules differ only where c2 = 1/2 < c3; at l = 1024..7680 that is just 3072/P = 128.
    diffs = [
        (l, s.P)
        for l in (1024, 2048, 3072, 4096, 7680)  # noqa: E741
        for s in sp.algorithm4(l)
        if sp.algorithm4_printed_choice(s.u, s.v) != s.alg
    ]
    assert diffs == [(3072, 128)]


def test_pick() -> None:
    want = {
        1024: (64, 16, Fraction(1), 3),  # the P = 128 c = 1/2 set has the same M: dominated
        2048: (128, 16, HALF, 3),
        3072: (128, 24, HALF, 2),
        4096: (128, 32, Fraction(1), 3),  # P = 256 dominated
        7680: (128, 60, Fraction(1), 2),  # P = 256 dominated
    }
    table6 = {(r[0], r[1], (1 << r[3]) + 1, r[4]) for r in sp.FMLM3_TABLE6}
    for l, w in want.items():  # noqa: E741
        s = sp.pick(l)
        assert (s.P, s.u, s.c, s.alg) == w
        assert (l, s.alg, s.M, s.P) in table6  # every default is an implemented Table 6 row


# ---- check_set ----------------------------------------------------------------------------------


def test_check_set_accepts_rsa_like_modulus(rng) -> None:  # type: ignore[no-untyped-def]
    s = sp.pick(1024)
    n = _coprime_modulus(rng, 1024)
    sp.check_set(n, s)
    sp.check_set(n, s, alg=2)  # c = 1 suits both algorithms at P = 64


def _coprime_modulus(rng, bits: int, l: int = 1024) -> int:  # type: ignore[no-untyped-def]  # noqa: E741
    """A random odd ``bits``-bit modulus coprime to 2^l - 1."""
    import math

    r = (1 << l) - 1
    while True:
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        if math.gcd(n, r) == 1:
            return n


def test_check_set_gcd_names_factor(rng) -> None:  # type: ignore[no-untyped-def]
    s = sp.pick(1024)
    n = 3 * _coprime_modulus(rng, 1020)
    with pytest.raises(ModulusError, match=r"shares the factor 3 with 2\^1024 - 1"):
        sp.check_set(n, s)
    n = 641 * _coprime_modulus(rng, 1010)
    with pytest.raises(ModulusError, match=r"factor 641 with"):
        sp.check_set(n, s)


def test_check_set_rejections() -> None:
    s = sp.pick(1024)
    with pytest.raises(ModulusError, match="< R"):
        sp.check_set((1 << 1024) - 1, s)
    with pytest.raises(ModulusError, match="< R"):
        sp.check_set((1 << 1024) + 1, s)
    for bad in (0, 1, 4, -7):
        with pytest.raises(ModulusError):
            sp.check_set(bad, s)
    alg2_only = sp.make_set(32, 5)  # c2 = 3, c3 = 4
    assert alg2_only.alg == 2
    with pytest.raises(ParameterError, match=r"\(19\).*c >= 4"):
        sp.check_set(12345, alg2_only, alg=3)
    tight = sp.make_set(6, 4, c=1)  # M = 2^16+1 < 2P(B-1)^2 (SPEC 1.6)
    with pytest.raises(ParameterError, match=r"\(13\)"):
        sp.check_set(12345, tight, alg=2)
    with pytest.raises(ParameterError):
        sp.check_set(12345, alg2_only, alg=4)


# ---- Table reproduction -------------------------------------------------------------------------


def test_reproduce_tables_statuses() -> None:
    cells = sp.reproduce_tables()
    assert {c.status for c in cells} <= {"match", "erratum", "not derivable"}
    by = {}
    for c in cells:
        by.setdefault(c.table, []).append(c)
    # Every claim of SPEC 1.6 / 2.1 / 4.2, row counts included.
    for table, rows in [
        ("FMLM3 Table 3", 4),
        ("FMLM3 Table 4", 6),
        ("FMLM3 Table 6", 18),
        ("SPEC 1.6 Algorithm 4", 20),
        ("ISM3 Table II", 6),
    ]:
        assert {c.row for c in by[table]} == set(range(1, rows + 1)), table
    for table in ("FMLM3 Table 3", "FMLM3 Table 4", "SPEC 1.6 Algorithm 4", "ISM3 Table II"):
        assert all(c.status == "match" for c in by[table]), table
    t6 = by["FMLM3 Table 6"]
    assert all(c.status == "match" for c in t6 if c.column != "cycles")
    assert [c.status for c in t6 if c.column == "cycles"] == ["not derivable"] * 18
    assert all(c.status == "match" for c in by["NTT64 dynamic range"])
    errata = [c for c in cells if c.status == "erratum"]
    assert [(c.table, c.printed, c.computed) for c in errata] == [
        ("FMLM3 Algorithm 4 (printed step 4)", 3, 2)
    ]
    for c in cells:
        if c.status == "match":
            assert c.printed == c.computed, c


def test_table6_enlarged_ring_rows_explained() -> None:
    cells = [c for c in sp.reproduce_tables() if c.table == "FMLM3 Table 6" and c.column == "M"]
    enlarged = [c.row for c in cells if "enlarged ring" in c.reason]
    assert enlarged == [1, 5]
    assert [sp.FMLM3_TABLE6[r - 1][:4] for r in enlarged] == [
        (1024, 3, False, 128),
        (2048, 3, False, 224),
    ]
    for r in enlarged:
        _, _, _, _, p, u, _ = sp.FMLM3_TABLE6[r - 1]
        v = p.bit_length() - 1
        assert sp.make_set(u, v).alg == 2  # Algorithm 4 picks 2 there


def test_table6_rows_are_algorithm4_outputs_otherwise() -> None:
    outs = {
        (s.l, s.P, s.u, s.M, s.alg)
        for width in (1024, 2048, 3072, 4096, 7680)
        for s in sp.algorithm4(width)
    }
    for row, (l, alg, star, m_exp, p, u, _) in enumerate(sp.FMLM3_TABLE6, 1):  # noqa: E741
        is_out = (l, p, u, (1 << m_exp) + 1, alg) in outs
        assert is_out == (row not in (1, 5)), row


def test_table3_largest_u_rule_equals_exact() -> None:
    for _, m_exp, p, _, _, u in sp.FMLM3_TABLE3:
        v = p.bit_length() - 1
        assert sp._largest_u(m_exp, v, exact=False) == sp._largest_u(m_exp, v, exact=True) == u


def test_table4_sets_beyond_algorithm4() -> None:
    # Sets 5 and 6 follow the first c = 1/2 set, so Algorithm 4 does not output them.
    assert max(s.P for s in sp.algorithm4(2048)) == 128


# ---- ISM3 ---------------------------------------------------------------------------------------


def test_ism3_table2() -> None:
    got = [(s.l, s.q, s.d, s.omega, s.mu, s.s) for s in sp.ism3_sets()]
    want = [(l, (1 << q) + 1, d, w, mu, s) for l, q, d, w, mu, s in sp.ISM3_TABLE2]  # noqa: E741
    assert got == want
    assert [s.l for s in sp.ism3_sets()] == [206, 414, 926, 1790, 3838, 7678]
    # (b-1)^2 in place of b^2 gives the same mu (SPEC 2.1).
    assert [s.mu for s in sp.ism3_sets(exact=True)] == [s.mu for s in sp.ism3_sets()]
    for s in sp.ism3_sets():
        assert 2 * s.s * (1 << (2 * s.mu)) < s.q <= 2 * s.s * (1 << (2 * s.mu + 2))
        assert pow(s.omega, s.d, s.q) == 1 and pow(s.omega, s.d // 2, s.q) == s.q - 1
        assert s.lookahead_ok


def test_ism3_check() -> None:
    s = sp.ism3_sets()[0]  # l = 206
    sp.ism3_check(206, s)
    with pytest.raises(ModulusError, match=r"\(6\)"):
        sp.ism3_check(207, s)
    bad = sp.Ism3Set(l=s.l, t=s.t, i=s.i, q=s.q, d=s.d, omega=s.omega, mu=4, s=8)
    assert not bad.lookahead_ok
    with pytest.raises(ParameterError, match="look-ahead"):
        sp.ism3_check(10, bad)
    with pytest.raises(ParameterError):
        sp.ism3_set(5, 6)


# ---- NTT64 --------------------------------------------------------------------------------------


def test_ntt64_dynamic_range() -> None:
    p = sp.NTT64_P
    assert p == 0xFFFFFFFF00000001
    assert sp.ntt64_max_b() == 27 and sp.ntt64_max_b(factor=2) == 27
    assert 512 * (2**27 - 1) ** 2 < p <= 512 * (2**28 - 1) ** 2
    assert 1024 * (2**27 - 1) ** 2 < p
    assert (sp.ntt64_coeff_bits(16), sp.ntt64_coeff_bits(24)) == (41, 57)


def test_ntt64_set() -> None:
    assert sp.ntt64_set(8192) == sp.Ntt64Set(bits=8192, b=16, coeff_bits=41)
    assert sp.ntt64_set(12288) == sp.Ntt64Set(bits=12288, b=24, coeff_bits=57)
    assert sp.ntt64_set(13824).b == 27
    with pytest.raises(ParameterError, match="max b = 27"):
        sp.ntt64_set(13825)
    with pytest.raises(ParameterError, match="max b = 27"):
        sp.ntt64_set(8192, b=28)
    with pytest.raises(ParameterError):
        sp.ntt64_set(12288, b=16)
    with pytest.raises(ParameterError):
        sp.ntt64_set(0)
