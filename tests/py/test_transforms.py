"""montlab.transforms: Fermat rings, CT/NCT (FMLM3), the ISM3 NTT and the NTT mod 2^64-2^32+1.

Oracles: Python ``pow`` and the direct O(P^2) definitions; SPEC 1.1-1.2, 2.2, 4.1, 4.4, 6 item 9.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from conftest import scaled
from montlab import transforms as tr
from montlab.transforms import P64, FermatRing, Ism3Ring

HALF = Fraction(1, 2)
RING_PARAMS = [(v, c) for v in range(3, 8) for c in (HALF, 1, 2, 5, 17)]  # P = 8..128
# Network/convolution rings: every c at P = 8, 16, 32; c = 1/2 and 1 also at P = 64.
NET_PARAMS = [(v, c) for v in (3, 4, 5) for c in (HALF, 1, 2, 5, 17)] + [(6, HALF), (6, 1)]
ISM3_PARAMS = [(32, 1), (32, 0), (64, 1), (64, 0), (128, 1), (128, 0)]  # Table II: d = 32..256


def _vec(rng: random.Random, ring: FermatRing) -> list[int]:
    return [rng.randrange(ring.M) for _ in range(ring.P)]


def _rid(p: tuple[int, object]) -> str:
    return f"v{p[0]}-c{p[1]}"


# ---------------------------------------------------------------- rings and identities


@pytest.mark.parametrize("v,c", RING_PARAMS, ids=[_rid(p) for p in RING_PARAMS])
def test_ring_identities(v: int, c: object) -> None:
    ring = FermatRing(v, c)
    m, p_len = ring.M, ring.P
    assert ring.M == 2 ** int(ring.c * p_len) + 1
    assert ring.omega == 2 ** int(2 * ring.c)
    assert pow(ring.omega, p_len, m) == 1
    assert pow(ring.omega, p_len // 2, m) == m - 1
    assert pow(ring.A, p_len, m) == m - 1
    assert pow(ring.A, 2, m) == ring.omega
    order = next(k for k in range(1, 2 * p_len + 1) if pow(ring.A, k, m) == 1)
    assert order == 2 * p_len
    if ring.c == HALF:
        assert ring.omega == 2 and ring.A * ring.A % m == 2  # sqrt(2)^2 = 2


def test_ring_c_forms_and_rejects() -> None:
    assert FermatRing(4, "half") == FermatRing(4, HALF)
    assert FermatRing(4, "half").M == 2**8 + 1 and FermatRing(4, "half").A == 60  # SPEC 6 item 3
    assert FermatRing(5, HALF).A == 4080  # 2^12 - 2^4 mod 2^16 + 1
    assert FermatRing(3, 2).M == 2**16 + 1 and FermatRing(3, 2).A == 4  # SPEC 6 item 2
    for bad in ((2, HALF), (4, Fraction(3, 2)), (4, 0)):
        with pytest.raises(ValueError):
            FermatRing(*bad)


@pytest.mark.parametrize("v", range(3, 9))
def test_eq14_erratum_sqrt2_modulus(v: int) -> None:
    """Eq. (14): the sqrt(2) closed form squares to 2 mod 2^(P/2)+1, NOT mod the printed 2^(2^v)+1."""
    h = 1 << (v - 3)
    s = (1 << (3 * h)) - (1 << h)
    good, printed = 2 ** (2 ** (v - 1)) + 1, 2 ** (2**v) + 1
    assert s * s % good == 2
    assert s * s % printed != 2


@pytest.mark.parametrize("v,c", [(3, HALF), (5, HALF), (4, 1), (4, 5)])
def test_shift_primitives_against_pow(rng: random.Random, v: int, c: object) -> None:
    ring = FermatRing(v, c)
    m = ring.M
    for _ in range(scaled(200)):
        x = rng.choice([0, 1, m - 1, m - 2, rng.randrange(m)])
        e = rng.randrange(-5 * ring.K, 5 * ring.K)
        assert ring.mul_pow2(x, e) == x * pow(2, e, m) % m
        assert ring.twiddle(x, e) == x * pow(ring.omega, e, m) % m
        assert ring.mul_A_pow(x, e) == x * pow(ring.A, e, m) % m
        n = rng.randrange(ring.P)
        assert ring.inv_scale_ct(x) == x * pow(ring.P, -1, m) % m
        assert ring.inv_scale_nct(x, n) == x * pow(pow(ring.A, n, m) * ring.P, -1, m) % m
        if ring.c == HALF:  # eq. (23): x * omega^(-n+1/2) = x * A * 2^-n
            assert ring.mul_sqrt2(x, n) == x * ring.A * pow(2, -n, m) % m


# ---------------------------------------------------------------- CT / NCT


@pytest.mark.parametrize("v,c", NET_PARAMS, ids=[_rid(p) for p in NET_PARAMS])
def test_direct_roundtrip_and_convolution(rng: random.Random, v: int, c: object) -> None:
    ring = FermatRing(v, c)
    m = ring.M
    a, b = _vec(rng, ring), _vec(rng, ring)
    assert tr.ict(ring, tr.ct(ring, a)) == a
    assert tr.inct(ring, tr.nct(ring, a)) == a
    ca, cb = tr.ct(ring, a), tr.ct(ring, b)
    assert tr.ict(ring, [x * y % m for x, y in zip(ca, cb)]) == tr.cyclic_convolution(a, b, m)
    na, nb = tr.nct(ring, a), tr.nct(ring, b)
    assert tr.inct(ring, [x * y % m for x, y in zip(na, nb)]) == tr.negacyclic_convolution(a, b, m)


@pytest.mark.parametrize("v,c", NET_PARAMS, ids=[_rid(p) for p in NET_PARAMS])
def test_networks_equal_direct_with_bitreversed_input(
    rng: random.Random, v: int, c: object
) -> None:
    ring = FermatRing(v, c)
    for a in (_vec(rng, ring), [ring.M - 1] * ring.P, [1] + [0] * (ring.P - 1)):
        br = tr.bit_reverse(a)
        assert tr.ct_network(ring, br) == tr.ct(ring, a)
        assert tr.nct_network(ring, br) == tr.nct(ring, a)
        assert tr.ict_network(ring, br) == tr.ict(ring, a)
        assert tr.inct_network(ring, br) == tr.inct(ring, a)


@pytest.mark.parametrize("v,c", NET_PARAMS, ids=[_rid(p) for p in NET_PARAMS])
def test_network_orderings_and_nct_reading_fail(rng: random.Random, v: int, c: object) -> None:
    """Only bit-reversed in / natural out works; the NCT exponent -(floor(n/J)J + J/2) fails.

    Each wrong reading must differ from the definition on some of 8 random vectors (on the
    smallest ring, P = 8 and M = 17, one vector can agree by chance)."""
    ring = FermatRing(v, c)
    vecs = [_vec(rng, ring) for _ in range(8)]
    pairs = [(tr.ct_network, tr.ct), (tr.nct_network, tr.nct), (tr.ict_network, tr.ict),
             (tr.inct_network, tr.inct)]  # fmt: skip
    for net, direct in pairs:
        wants = [direct(ring, a) for a in vecs]
        # natural in, natural out; natural in, bit-reversed out; bit-reversed in and out
        assert any(net(ring, a) != w for a, w in zip(vecs, wants))
        assert any(tr.bit_reverse(net(ring, a)) != w for a, w in zip(vecs, wants))
        assert any(net(ring, tr.bit_reverse(a)) != tr.bit_reverse(w) for a, w in zip(vecs, wants))
    assert any(
        tr.nct_network(ring, tr.bit_reverse(a), other_reading=True) != tr.nct(ring, a) for a in vecs
    )


def test_bit_reverse() -> None:
    assert tr.bit_reverse(list(range(8))) == [0, 4, 2, 6, 1, 5, 3, 7]
    seq = list(range(64))
    assert tr.bit_reverse(tr.bit_reverse(seq)) == seq
    assert tr.cyclic_convolution([1, 2], [3, 4]) == [1 * 3 + 2 * 4, 1 * 4 + 2 * 3]
    assert tr.negacyclic_convolution([1, 2], [3, 4]) == [1 * 3 - 2 * 4, 1 * 4 + 2 * 3]


# ---------------------------------------------------------------- ISM3


def test_ism3_table2_rings() -> None:
    got = [(r.q, r.d, r.omega) for r in (Ism3Ring(v, i) for v, i in ISM3_PARAMS)]
    assert got == [(2**32 + 1, 32, 4), (2**32 + 1, 64, 2), (2**64 + 1, 64, 4),
                   (2**64 + 1, 128, 2), (2**128 + 1, 128, 4), (2**128 + 1, 256, 2)]  # fmt: skip


@pytest.mark.parametrize("v,i", ISM3_PARAMS)
def test_ism3_network_corrected(rng: random.Random, v: int, i: int) -> None:
    ring = Ism3Ring(v, i)
    x = [rng.randrange(ring.q) for _ in range(ring.d)]
    big_x = tr.ism3_ntt(ring, x)
    assert tr.ism3_ntt_network(ring, tr.bit_reverse(x)) == big_x
    assert tr.ism3_intt(ring, big_x) == x
    assert tr.ism3_intt_network(ring, tr.bit_reverse(big_x)) == x
    # Printed stage order n = 0..L-1 fails for all four input/output orderings (erratum 1).
    for x_in, want in itertools.product((x, tr.bit_reverse(x)), (big_x, tr.bit_reverse(big_x))):
        assert tr.ism3_ntt_network_printed(ring, x_in) != want


# ---------------------------------------------------------------- NTT64


def test_ntt64_field_identities() -> None:
    p = P64
    assert p == 2**64 - 2**32 + 1 == 0xFFFFFFFF00000001
    assert (p - 1) == 2**32 * 3 * 5 * 17 * 257 * 65537
    assert pow(2, 192, p) == 1 and pow(2, 96, p) == p - 1 and pow(2, 64, p) == 0xFFFFFFFF
    assert ((1 << 192) - 1) % p == 0

    def order(g: int) -> int:  # orders here divide 2^32 * 3
        return min(k for k in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 192, 1024)
                   if pow(g, k, p) == 1)  # fmt: skip

    assert order(2) == 192 and order(64) == 32 and order(4096) == 16
    assert order(4096**2) == 8 and order(2**48) == 4 and order(2**96) == 2
    w = tr.OMEGA_1024
    assert w == 0x3DA05FEE70C4F2BA
    assert pow(w, 1024, p) == 1 and pow(w, 512, p) == p - 1  # order exactly 1024
    assert pow(w, 32, p) == 64 and pow(w, 64, p) == 4096


def test_ntt64_direct_and_roundtrip(rng: random.Random) -> None:
    x = [rng.randrange(P64) for _ in range(1024)]
    big_x = tr.ntt64(x)
    assert big_x == tr.ntt64_direct(x)
    assert tr.intt64(big_x) == x
    for _ in range(scaled(3)):
        y = [rng.choice([0, 1, P64 - 1, rng.randrange(P64)]) for _ in range(1024)]
        assert tr.intt64(tr.ntt64(y)) == y
    # Convolution sanity: pointwise product gives the cyclic convolution (small entries).
    a = [rng.randrange(2**16) for _ in range(512)] + [0] * 512
    b = [rng.randrange(2**16) for _ in range(512)] + [0] * 512
    prod = [s * t % P64 for s, t in zip(tr.ntt64(a), tr.ntt64(b))]
    conv = tr.intt64(prod)
    for k in (0, 1, 511, 700, 1022):  # spot checks of the exact coefficients
        assert conv[k] == sum(a[i] * b[k - i] for i in range(k + 1))


def test_pe16_equals_direct(rng: random.Random) -> None:
    inputs = [[1] * 16, [P64 - 1] * 16, [0] * 16, [2**64 - 1] * 16]
    inputs += [[rng.randrange(P64) for _ in range(16)] for _ in range(scaled(50))]
    for x in inputs:
        xr = [e % P64 for e in x]  # 2^64 - 1 is a legal 64-bit PE input, reduced for the oracle
        want = tr.ntt64_direct(xr, 4096)
        assert tr.pe16(x) == want
        assert tr.ipe16(want) == xr
    assert tr.shift_dft([1] * 32, 6) == tr.ntt64_direct([1] * 32, 64)


def test_shift_fft_equals_the_word_level_dft(rng: random.Random) -> None:
    """The O(N log N) shift-only FFT used inside the 1024-point NTT computes the same values as
    the 192-bit rotate / end-around-carry / eq. (3) datapath of shift_dft."""
    for n_len, s in ((16, 12), (16, -12), (32, 6), (32, -6)):
        for _ in range(scaled(20)):
            x = [rng.randrange(P64) for _ in range(n_len)]
            assert tr.shift_dft_fast(x, s) == tr.shift_dft(x, s)
        assert tr.shift_dft_fast([P64 - 1] * n_len, s) == tr.shift_dft([P64 - 1] * n_len, s)


def test_pe16_negative_modulo_caution() -> None:
    """Eq. (2)'s (192 - 12nk) % 192: the operand is negative for 177/256 (n, k) pairs (SPEC 4.4);
    C-style truncating % then gives a negative (wrong) shift for 163 of them (the other 14 are
    multiples of 192 and give 0). Python's non-negative % is right for all 256."""

    def c_mod(a: int, m: int) -> int:
        return a - m * int(a / m)

    pairs = [(n, k) for n in range(16) for k in range(16)]
    assert sum(192 - 12 * n * k < 0 for n, k in pairs) == 177
    assert sum(c_mod(192 - 12 * n * k, 192) < 0 for n, k in pairs) == 163
    assert all((192 - 12 * n * k) % 192 == (-12 * n * k) % 192 for n, k in pairs)


def test_reduce_eq3_needs_two_additions() -> None:
    """The raw eq. (3) sum reaches -(2p - 2): one +p is not always enough on the negative side."""
    m32 = 2**32 - 1
    z = m32 << 160 | m32 << 128 | m32 << 96  # a = b = c = 2^32 - 1, d = e = f = 0
    a = b = c = m32
    raw = 0 + (0 + a) - ((b << 32) + c) - ((a << 32) + 0)
    assert raw == -(2 * P64 - 2) and raw + P64 < 0
    assert tr.reduce_eq3(z) == z % P64 == raw + 2 * P64


def test_reduce_eq3(rng: random.Random) -> None:
    edge = [0, (1 << 192) - 1, P64, (1 << 192) - 2, 1, P64 - 1, P64 + 1, 2**64, 2**96,
            (2**32 - 1) << 96 | (2**32 - 1) << 128 | (2**32 - 1) << 160]  # fmt: skip
    for z in edge:
        assert tr.reduce_eq3(z) == z % P64
    for _ in range(scaled(10_000)):
        z = rng.getrandbits(192)
        assert tr.reduce_eq3(z) == z % P64
    # End-around-carry accumulate: all-ones is 0.
    assert tr.add_eac192((1 << 192) - 2, 1) == (1 << 192) - 1
    assert tr.reduce_eq3(tr.add_eac192((1 << 192) - 1, (1 << 192) - 1)) == 0
