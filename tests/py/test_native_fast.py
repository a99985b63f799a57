"""The fast native engine (montlab._native.FastModulus, powm) against Python's own arithmetic.

Both kernels (word-level and spectral) are checked on both sides of every threshold: the
generic table, and tables set with ``set_thresholds`` that move the cut-overs down to small
sizes so the spectral kernel is exercised cheaply. Also: structured edge moduli, constant-time
``pow_sec``, batches (order, broadcasting, errors), every bad input, and the ``montlab.powm``
front door. Large sizes with full exponents run under ``-m slow`` (gmpy2 as the oracle there).
"""

from __future__ import annotations

import random

import pytest
from conftest import hexdump, scaled
from montlab.errors import ModulusError, OperandError, ParameterError
from montlab.testing import edge_moduli, random_modulus
from montlab.tune import first_point, spectral_on

native = pytest.importorskip("montlab._native", reason="native extension not built")
FastModulus = native.FastModulus


def force(mul_bits: int, pow_bits: int) -> None:
    native.set_thresholds(f"spectral_mul_bits = {mul_bits}\nspectral_pow_bits = {pow_bits}\n")


def check(m: FastModulus, x: int, y: int, e: int) -> None:
    n = m.modulus
    msg = hexdump(N=n, x=x, y=y, e=e) + f" kernels={m.mul_kernel}/{m.pow_kernel}"
    assert m.mul(x, y) == x * y % n, msg
    assert m.sqr(x) == x * x % n, msg
    assert m.pow(x, e) == pow(x, e, n), msg


def word(bits: int, op: str) -> str:
    """The word-level kernel's id: amm on AVX-512 IFMA CPUs inside its size range for ``op``
    (products from the table's ``ifma_mul_bits``, exponentiations from 513, both to 52830),
    cios elsewhere."""
    low = first_point(native.thresholds()["ifma_mul_bits"]) if op == "mul" else 513
    return "amm" if native.IFMA and low <= bits <= 52830 else "cios"


def test_generic_table() -> None:
    t = native.thresholds()
    assert set(t) == {
        "spectral_mul_bits",
        "spectral_pow_bits",
        "ntt_redc_pow_bits",
        "spectral_sec_bits",
        "ifma_mul_bits",
        "ifma_residue_bits",
    }
    assert all(first_point(v) > 0 for v in t.values())
    assert "spectral_pow_bits" in native.GENERIC_THRESHOLDS
    assert isinstance(native.IFMA, bool)
    m = FastModulus(2**521 - 1)
    assert m.thresholds == t and m.bits == 521 and m.modulus == 2**521 - 1
    assert (m.mul_kernel, m.pow_kernel) == (word(m.bits, "mul"), word(m.bits, "pow"))
    assert "521-bit" in repr(m)


def test_both_sides_of_the_generic_thresholds(rng: random.Random) -> None:
    """Moduli around every switch point of this CPU's table (a spectral cut-over may switch
    the kernel off again); a key set to "never" (2^64 - 1) has no sides to test."""
    t = native.thresholds()
    points = {p for v in t.values() for p in ([v] if isinstance(v, int) else v)}
    cuts = sorted(p for p in points if p <= native.SPECTRAL_MAX_BITS)
    assert cuts, t
    for cut in cuts:
        for bits in (cut - 65, cut - 1, cut, cut + 1, cut + 64):
            n = random_modulus(rng, bits)
            m = FastModulus(n)
            want_mul = (
                "spectral" if spectral_on(t["spectral_mul_bits"], bits) else word(bits, "mul")
            )
            want_pow = (
                "spectral" if spectral_on(t["spectral_pow_bits"], bits) else word(bits, "pow")
            )
            assert (m.mul_kernel, m.pow_kernel) == (want_mul, want_pow)
            sec = "spectral" if spectral_on(t["spectral_sec_bits"], bits) else word(bits, "pow")
            assert m.pow_sec_kernel == sec, bits
            check(m, rng.randrange(n), n - 1, rng.getrandbits(96))


@pytest.mark.parametrize("cut", [64, 128, 1000])
def test_both_sides_of_moved_thresholds(cut: int, rng: random.Random, table: None) -> None:
    force(cut, cut)
    for bits in (cut - 1, cut, cut + 1, cut + 63, 2 * cut + 5):
        for _ in range(scaled(3)):
            n = random_modulus(rng, bits)
            m = FastModulus(n)
            assert m.pow_kernel == ("spectral" if bits >= cut else word(bits, "pow"))
            check(
                m, rng.randrange(n), rng.randrange(n), rng.getrandbits(rng.choice([5, 200, bits]))
            )


def test_spectral_random_sizes(rng: random.Random, table: None) -> None:
    force(2, 2)
    for _ in range(scaled(40)):
        bits = rng.choice([2, 3, 64, 65, 127, 128, 129, 1024, 1025, rng.randint(2, 3000)])
        n = random_modulus(rng, bits)
        m = FastModulus(n)
        assert m.mul_kernel == "spectral" and m.transform_len is not None
        assert 64 * m.transform_len >= bits
        check(m, rng.randrange(n), rng.randrange(n), rng.getrandbits(rng.choice([1, 64, bits])))


@pytest.mark.parametrize("bits", [64, 128, 191, 1024, 2048])
def test_edge_moduli_both_kernels(bits: int, rng: random.Random, table: None) -> None:
    moduli = set(edge_moduli(bits)) | {(1 << bits) - 1, (1 << bits) + 1, (1 << bits) - 3}
    for cut in (2, 10**9):  # spectral everywhere, then word-level everywhere
        force(cut, cut)
        for n in sorted(k for k in moduli if k > 1 and k % 2):
            m = FastModulus(n)
            assert m.mul_reduction == ("barrett" if m.mul_kernel == "cios" else "montgomery")
            hi = n - 1
            for x, y in [(0, 0), (1, 1), (hi, hi), (hi, 1), (n // 2, hi)]:
                check(m, x, y, rng.getrandbits(70))
            assert m.pow(hi, 2) == 1 and m.pow(0, 0) == 1 and m.pow(0, 3) == 0


@pytest.mark.parametrize("bits", [512, 513, 1280, 1281, 6654, 6655, 52830, 52831])
def test_word_kernel_across_the_ifma_ranges(bits: int, rng: random.Random, table: None) -> None:
    # Word-level everywhere: on AVX-512 IFMA CPUs products run on the 52-bit kernel from the
    # table's ifma_mul_bits (1281 in the IFMA table) and exponentiations from 513, both up to
    # 52830 bits; cios + sqr outside (and everywhere on other CPUs).
    force(10**9, 10**9)
    for n in (random_modulus(rng, bits), (1 << bits) - 1):
        m = FastModulus(n)
        assert (m.mul_kernel, m.pow_kernel) == (word(m.bits, "mul"), word(m.bits, "pow"))
        for x, y in ((n - 1, n - 1), (rng.randrange(n), rng.randrange(n)), (1, n // 2)):
            check(m, x, y, rng.getrandbits(70))
        assert m.pow_many([n - 1, 1, 0], 2) == [1, 1, 0]


@pytest.mark.parametrize("limbs", [1, 2, 8, 9, 16, 33, 70])
def test_word_mul_edges_of_the_barrett_reduction(
    limbs: int, rng: random.Random, table: None
) -> None:
    # Word-level mul/sqr on ints without IFMA is one product and a Barrett reduction (the
    # MULX/ADX rows from 9 limbs): moduli at both ends of a limb count (b^(k-1) + 1, whose mu is
    # largest, 2^(64k-1) + 1 and all-ones) and operands at N - 1 and 0.
    force(10**9, 10**9)
    k = 64 * limbs
    moduli = {(1 << (k - 64)) + 1 if limbs > 1 else 3, (1 << (k - 1)) + 1, (1 << k) - 1}
    for n in sorted(moduli | {(1 << k) - 3, random_modulus(rng, k)}):
        m = FastModulus(n)
        assert m.mul_reduction == ("montgomery" if m.mul_kernel == "amm" else "barrett")
        for _ in range(scaled(2)):
            pairs = [(n - 1, n - 1), (n - 1, 1), (0, n - 1), (n // 2, n // 2 + 1)]
            for x, y in pairs + [(rng.randrange(n), rng.randrange(n))]:
                assert m.mul(x, y) == x * y % n, hexdump(n=n, x=x, y=y)
                assert m.sqr(x) == x * x % n, hexdump(n=n, x=x)
        assert m.mul_many([n - 1, 2], [n - 1, n - 2]) == [1, 2 * (n - 2) % n]


def test_fermat_factor_modulus(table: None) -> None:
    # 59649589127497217 divides 2^128 + 1, the R of the shortest transform for a 1-limb N:
    # there is no spectral kernel at N's length, so the word-level kernel runs, exactly.
    force(2, 2)
    n = 59649589127497217
    m = FastModulus(n)
    assert m.transform_len is None and (m.mul_kernel, m.pow_kernel) == (
        word(m.bits, "mul"),
        word(m.bits, "pow"),
    )
    check(m, n - 1, 12345, 2**70 + 3)


def test_chosen_modulus_cannot_force_a_long_transform(rng: random.Random, table: None) -> None:
    """A 20,127-bit N built from factors of 2^(64P) + 1 for P = 512 .. 4096 (F15 .. F18) once
    forced a transform of length 8192, 20x slower than N's own 512; now it runs on the word
    kernel, never slower than that kernel on the same input."""
    force(2, 2)
    f = 1214251009 * 825753601 * 31065037602817 * 13631489
    kbits = 20127 - f.bit_length()
    n = f * (rng.getrandbits(kbits) | 1 << (kbits - 1) | 1)
    m = FastModulus(n)
    assert m.transform_len is None and (m.mul_kernel, m.pow_kernel) == (
        word(m.bits, "mul"),
        word(m.bits, "pow"),
    )
    check(m, rng.randrange(n), n - 1, rng.getrandbits(256))
    plain = FastModulus(random_modulus(rng, 20127))
    assert plain.pow_kernel == "spectral" and plain.transform_len == 512


def short_kernel(bits: int) -> str:
    """The kernel a short exponentiation runs on for a `bits`-bit modulus under the current
    table, before spectral is built: from ntt_redc_pow_bits to twice it (and below 2^16 bits), a
    modulus that fills less than 0.7 of ntt_redc's transform (a power of two, at least 2 limbs)
    stays on the word level."""
    cut = native.thresholds()["ntt_redc_pow_bits"]
    limbs = -(-bits // 64)
    fill = limbs / max(2, 1 << (limbs - 1).bit_length())
    if bits < cut or (bits < 2 * cut and bits < 1 << 16 and fill < 0.7):
        return word(bits, "pow")
    return "ntt_redc"


@pytest.mark.parametrize("bits", [2, 3, 4, 64, 65, 1000, 4097])
def test_short_exponents_run_on_ntt_redc(bits: int, rng: random.Random, table: None) -> None:
    """Short exponentiations do not build the spectral setup: they run on ntt_redc (R = 2^l,
    2-adic setup) until 64 exponent bits have run on the modulus, then on spectral. Below 4 bits
    the 1-limb modulus fills half of ntt_redc's 2-limb transform and stays on the word level."""
    native.set_thresholds("spectral_mul_bits = 2\nspectral_pow_bits = 2\nntt_redc_pow_bits = 2\n")
    short = short_kernel(bits)
    assert (short == "ntt_redc") == (bits >= 4)
    moduli = [random_modulus(rng, bits) for _ in range(scaled(3))]
    moduli += [k for k in edge_moduli(bits) if k > 1 and k % 2][:4]
    for n in moduli:
        m = FastModulus(n)
        assert m.pow_kernel_for(65537) == short  # a query: nothing built, nothing counted
        assert m.pow_kernel_for(1 << 300) == "spectral" and m.pow_kernel_for(3) == short
        spent = 0
        for b, e in [(n - 1, 65537), (0, 3), (1, 2), (rng.randrange(n), rng.getrandbits(40))]:
            if spent + e.bit_length() <= 64:
                assert m.pow_kernel_for(e) == short
            else:
                assert m.pow_kernel_for(e) == "spectral"
            assert m.pow(b, e) == pow(b, e, n), hexdump(N=n, b=b, e=e)
            spent += e.bit_length()
        assert m.pow(n - 1, 0) == 1 % n
        e = rng.getrandbits(100) | 1 << 99  # past the 64-bit budget: spectral from here
        assert m.pow_kernel_for(e) == "spectral"
        assert m.pow(n // 2, e) == pow(n // 2, e, n)
        bs = [rng.randrange(n) for _ in range(3)]
        assert FastModulus(n).pow_many(bs, 65537) == [pow(b, 65537, n) for b in bs]


def test_one_shot_powm_at_ntt_redc_sizes(rng: random.Random) -> None:
    """The generic table: a modulus of ntt_redc_pow_bits bits exponentiates by 65537 on ntt_redc
    (no spectral setup)."""
    cut = native.thresholds()["ntt_redc_pow_bits"]
    spectral = native.thresholds()["spectral_pow_bits"]
    bits = max(cut, first_point(spectral))
    while not spectral_on(spectral, bits):  # a stretch the spectral kernel skips
        bits += 64
    n = random_modulus(rng, bits)
    m = FastModulus(n)
    assert m.pow_kernel_for(65537) == "ntt_redc"
    for b in (rng.randrange(n), n - 1, 2):
        assert native.powm(b, 65537, n) == m.pow(b, 65537) == pow(b, 65537, n)


def test_short_exponents_just_above_a_power_of_two_stay_word_level(rng: random.Random) -> None:
    """The generic table: from ntt_redc_pow_bits to twice it (and below 2^16 bits), a modulus
    that fills less than 0.7 of ntt_redc's transform (5/4 of the cut: 20480 bits, 320 of 512
    limbs, in the generic table) keeps short exponents on the word level; long ones still build
    spectral; 3/2 of the cut (fill 0.75) and twice the cut plus one run on ntt_redc."""
    cut = native.thresholds()["ntt_redc_pow_bits"]
    for bits in (cut * 5 // 4, cut * 3 // 2, cut + 1, cut * 2 + 1):
        if not spectral_on(native.thresholds()["spectral_pow_bits"], bits):
            continue
        n = random_modulus(rng, bits)
        m = FastModulus(n)
        assert m.pow_kernel_for(65537) == short_kernel(bits), bits
        assert m.pow_kernel_for(1 << 200) == "spectral"
        for b in (rng.randrange(n), n - 1):
            assert m.pow(b, 65537) == pow(b, 65537, n), hexdump(N=n, b=b)
            assert native.powm(b, 65537, n) == pow(b, 65537, n), hexdump(N=n, b=b)


def test_pow_sec_runs_to_a_stated_exponent_length(rng: random.Random) -> None:
    n = random_modulus(rng, 1024)
    m = FastModulus(n)
    b = rng.randrange(n)
    for e in (0, 1, 3, 2**1023 + 5, rng.getrandbits(1024), rng.getrandbits(2000)):
        assert m.pow_sec(b, e) == m.pow_sec(b, e, exp_bits=max(e.bit_length(), 1)) == pow(b, e, n)
    assert m.pow_sec(b, 5, exp_bits=4096) == m.pow_sec(b, 5, 3) == pow(b, 5, n)
    assert m.pow_sec(b, 0, exp_bits=0) == 1
    with pytest.raises(OperandError, match="exp_bits = 100"):
        m.pow_sec(b, 2**100, exp_bits=100)
    with pytest.raises(OverflowError):
        m.pow_sec(b, 5, exp_bits=-1)
    with pytest.raises(OperandError, match="more than pow_sec takes"):
        m.pow_sec(b, 5, exp_bits=2**40)  # refused, not padded in memory


def test_pow_sec_many(rng: random.Random) -> None:
    """pow_sec on a batch: input order, one exponent or one per base, one public length."""
    for bits in (64, 1024, 2048):
        n = random_modulus(rng, bits)
        m = FastModulus(n)
        k = max(3, scaled(5))
        bs = [rng.randrange(n) for _ in range(k - 2)] + [0, n - 1]
        es = [rng.getrandbits(bits) for _ in range(k - 3)] + [0, 1, (1 << bits) - 1]
        want = [pow(b, e, n) for b, e in zip(bs, es, strict=True)]
        assert m.pow_sec_many(bs, es) == want, hexdump(N=n)
        assert m.pow_sec_many(bs, es, exp_bits=bits + 64) == want, hexdump(N=n)
        assert m.pow_sec_many(bs, 65537) == [pow(b, 65537, n) for b in bs], hexdump(N=n)
        assert m.pow_sec_many([2], [2**3000 + 1]) == [pow(2, 2**3000 + 1, n)]
    with pytest.raises(OperandError, match="exp_bits = 10"):
        m.pow_sec_many([2, 3], [5, 2**20], exp_bits=10)
    with pytest.raises(OperandError, match="more than pow_sec takes"):
        m.pow_sec_many([2], 5, exp_bits=2**40)
    with pytest.raises(OperandError):
        m.pow_sec_many([2, n], 5)
    with pytest.raises(OperandError):
        m.pow_sec_many([], 5)
    with pytest.raises(OperandError):
        m.pow_sec_many([2, 3], [5])
    with pytest.raises(OperandError):
        m.pow_sec_many([2], [-1])


@pytest.mark.parametrize("bits", [64, 1024, 3072])
def test_blinded_pow_sec(bits: int, rng: random.Random) -> None:
    """blinding is off by default; on, pow_sec and pow_sec_many (pairs of a batch included)
    give pow's values for zero, one, all-ones and random exponents, with a stated exp_bits
    too, on moduli of their own (the factor pairs are per FastModulus)."""
    for n in [random_modulus(rng, bits)] + [k for k in edge_moduli(bits) if k > 1 and k % 2][:2]:
        m = FastModulus(n)
        assert m.blinding is False
        m.blinding = True
        assert m.blinding is True
        bs = [rng.randrange(n), 0, 1, n - 1]
        es = [0, 1, (1 << bits) - 1, rng.getrandbits(bits)]
        for b in bs:
            for e in es:
                assert m.pow_sec(b, e) == pow(b, e, n), hexdump(N=n, b=b, e=e)
        assert m.pow_sec(bs[0], 5, exp_bits=bits + 70) == pow(bs[0], 5, n)
        k = max(5, scaled(5))
        xs = [rng.randrange(n) for _ in range(k)]
        ys = [es[i % len(es)] for i in range(k)]
        assert m.pow_sec_many(xs, ys) == [pow(x, y, n) for x, y in zip(xs, ys, strict=True)]
        m.blinding = False
        assert m.pow_sec(bs[0], es[3]) == pow(bs[0], es[3], n)


def test_pow_sec_matches_pow(rng: random.Random) -> None:
    for bits in (64, 521, 1024, 2048):
        n = random_modulus(rng, bits)
        m = FastModulus(n)
        for e in (0, 1, 2, rng.getrandbits(bits), (1 << bits) - 1):
            b = rng.randrange(n)
            assert m.pow_sec(b, e) == pow(b, e, n), hexdump(N=n, b=b, e=e)
        assert m.pow_sec(0, 0) == 1 and m.pow_sec(n - 1, 2) == 1


@pytest.mark.parametrize("bits", [64, 65, 1024, 4097])
def test_pow_sec_on_both_sides_of_spectral_sec_bits(
    bits: int, rng: random.Random, table: None
) -> None:
    """spectral_sec_bits moves pow_sec between the word level (IFMA's amm from 513 bits where the
    CPU has it, else cios) and the spectral kernel (its IFMA loops where the CPU has them; not
    for an N without a spectral kernel); the values are pow's either way."""
    word = "amm" if native.IFMA and bits > 512 else "cios"
    for cut, want in ((bits + 1, word), (bits, "spectral")):
        native.set_thresholds(f"spectral_sec_bits = {cut}\n")
        moduli = [random_modulus(rng, bits) for _ in range(scaled(2))]
        moduli += [k for k in edge_moduli(bits) if k > 1 and k % 2][:4]
        for n in moduli:
            m = FastModulus(n)
            got = m.pow_sec_kernel
            assert got == want or (got == word and m.transform_len is None)
            for b, e in [
                (rng.randrange(n), rng.getrandbits(bits)),
                (n - 1, (1 << bits) - 1),
                (0, 0),
                (1, 5),
                (rng.randrange(n), 0),
            ]:
                assert m.pow_sec(b, e) == pow(b, e, n), hexdump(N=n, b=b, e=e, cut=cut)
            assert m.pow_sec(2, 5, exp_bits=bits + 70) == pow(2, 5, n)
            with pytest.raises(OperandError):
                m.pow_sec(n, 3)


@pytest.mark.parametrize("cut", [10**9, 2])
def test_batches(cut: int, rng: random.Random, table: None) -> None:
    force(cut, cut)
    n = random_modulus(rng, 1536)
    m = FastModulus(n)
    k = scaled(12)
    xs = [rng.randrange(n) for _ in range(k)]
    ys = [rng.randrange(n) for _ in range(k)]
    es = [rng.getrandbits(rng.choice([1, 100, 1536])) for _ in range(k)]
    assert m.mul_many(xs, ys) == [x * y % n for x, y in zip(xs, ys)]
    assert m.pow_many(xs, es) == [pow(x, e, n) for x, e in zip(xs, es)]
    assert m.pow_many(xs, 65537) == [pow(x, 65537, n) for x in xs]
    assert m.pow_many([5], [0]) == [1]
    # One full-length exponent for an odd batch with the edge bases (pairs on IFMA's two lanes,
    # the last base alone).
    e = rng.getrandbits(1536)
    edge = [0, 1, n - 1, *xs[:4]]
    assert m.pow_many(edge, e) == [pow(x, e, n) for x in edge]


def test_front_door_routes_through_the_fast_engine(rng: random.Random) -> None:
    import montlab

    for bits in (255, 4096, 8192 + 64):
        n = random_modulus(rng, bits)
        b, e = rng.randrange(n), rng.getrandbits(128)
        assert montlab.powm(b, e, n) == native.powm(b, e, n) == pow(b, e, n)
        assert montlab.Modulus(n).pow(b, e) == pow(b, e, n)


@pytest.mark.parametrize("n", [0, 1, -1, -(2**5000) - 1])
def test_modulus_too_small(n: int) -> None:
    with pytest.raises(ModulusError, match="greater than 1"):
        FastModulus(n)
    with pytest.raises(ModulusError, match="greater than 1"):
        native.powm(0, 1, n)


@pytest.mark.parametrize("n", [2, 2**64, 2**7000], ids=["2", "2^64", "2^7000"])
def test_even_modulus(n: int) -> None:
    with pytest.raises(ModulusError, match="must be odd"):
        FastModulus(n)
    with pytest.raises(ModulusError, match="must be odd"):
        native.powm(1, 1, n)


@pytest.mark.parametrize("cut", [10**9, 2])
def test_bad_operands(cut: int, table: None) -> None:
    force(cut, cut)
    n = 2**1279 - 1
    m = FastModulus(n)
    for bad in (n, n + 1, 2**70000):
        with pytest.raises(OperandError, match="operand x is out of range"):
            m.mul(bad, 0)
        with pytest.raises(OperandError, match="operand y is out of range"):
            m.mul(0, bad)
        with pytest.raises(OperandError, match="operand x is out of range"):
            m.sqr(bad)
        for f in (m.pow, m.pow_sec, lambda b, e: native.powm(b, e, n)):
            with pytest.raises(OperandError, match="operand base is out of range"):
                f(bad, 3)
        with pytest.raises(OperandError, match="operand y is out of range"):
            m.mul_many([1, 2], [3, bad])
        with pytest.raises(OperandError, match="operand base is out of range"):
            m.pow_many([bad], 3)
    for neg in (-1, -(2**100000)):
        with pytest.raises(OperandError, match="operand x is negative"):
            m.mul(neg, 1)
        with pytest.raises(OperandError, match="operand base is negative"):
            m.pow(neg, 1)
        with pytest.raises(OperandError, match="operand base is negative"):
            m.pow_many([1, neg], 1)
        with pytest.raises(OperandError, match="negative exponent"):
            m.pow(2, neg)
        with pytest.raises(OperandError, match="negative exponent"):
            m.pow_sec(2, neg)
        with pytest.raises(OperandError, match="negative exponent"):
            m.pow_many([2, 3], [1, neg])
        with pytest.raises(OperandError, match="negative exponent"):
            native.powm(2, neg, n)


def test_bad_batches() -> None:
    m = FastModulus(101)
    with pytest.raises(OperandError, match="empty"):
        m.mul_many([], [])
    with pytest.raises(OperandError, match="empty"):
        m.pow_many([], 3)
    with pytest.raises(OperandError, match=r"\(2 and 1\)"):
        m.mul_many([1, 2], [3])
    with pytest.raises(OperandError, match=r"\(1 and 2\)"):
        m.pow_many([1], [2, 3])
    with pytest.raises(TypeError):
        m.mul_many([1, "2"], [3, 4])  # type: ignore[list-item]


def test_bad_threshold_tables(table: None) -> None:
    for text in ("unknown = 3", "spectral_pow_bits = -1", "spectral_mul_bits"):
        with pytest.raises(ParameterError, match="line 1"):
            native.set_thresholds(text)
    native.set_thresholds("# comment only\n[thresholds]\n")
    assert native.thresholds() == FastModulus(3).thresholds
    native.set_thresholds("spectral_pow_bits = 512")
    assert native.thresholds()["spectral_pow_bits"] == 512
    native.set_thresholds("ntt_redc_pow_bits = 4096")
    assert native.thresholds()["ntt_redc_pow_bits"] == 4096
    native.set_thresholds("spectral_sec_bits = 8192")
    assert native.thresholds()["spectral_sec_bits"] == 8192
    native.set_thresholds("spectral_sec_bits = [8192, 16385, 23168]")
    assert native.thresholds()["spectral_sec_bits"] == [8192, 16385, 23168]
    for text in ("spectral_sec_bits = [3, 2]", "ntt_redc_pow_bits = [1, 2]"):
        with pytest.raises(ParameterError, match="line 1"):
            native.set_thresholds(text)


@pytest.mark.parametrize("shape", ["random", "2^k - small", "sparse", "all ones"])
def test_setup_above_the_half_gcd_threshold(shape: str, rng: random.Random) -> None:
    """From 2^17 bits the setup inverts by half-gcd (every shape here) and divides by Newton's
    reciprocal where the quotient is that long too (the random and sparse shapes; the Rust
    tests of bigarith cover the division itself): products and powers against Python's."""
    bits = (1 << 17) + 4160  # a transform of 2^12 limbs; R = 2^(2^18) + 1
    n = {
        "random": random_modulus(rng, bits),
        "2^k - small": (1 << bits) - 159,
        "sparse": (1 << (bits - 1)) | (rng.getrandbits(64) << 64) | 1,
        "all ones": (1 << bits) - 1,
    }[shape]
    m = FastModulus(n)
    assert m.pow_kernel == "spectral" and m.transform_len == 1 << 12
    b = rng.randrange(n)
    print(f"seed-drawn {shape} modulus of {n.bit_length()} bits")
    assert m.pow(b, 65537) == pow(b, 65537, n)
    for x, y in ((n - 1, n - 1), (b, n - 2), (1, 1), (0, b)):
        assert m.mul(x, y) == x * y % n


@pytest.mark.slow
@pytest.mark.parametrize("bits", [8192, 16384, 32768, 65536])
def test_large_full_exponent(bits: int, rng: random.Random) -> None:
    gmpy2 = pytest.importorskip("gmpy2")
    n = random_modulus(rng, bits)
    m = FastModulus(n)
    b, e = rng.randrange(n), rng.getrandbits(bits)
    assert m.pow(b, e) == int(gmpy2.powmod(b, e, n))
    x, y = rng.randrange(n), rng.randrange(n)
    assert m.mul(x, y) == x * y % n
    assert m.mul(n - 1, n - 1) == 1


@pytest.mark.slow
def test_large_batch(rng: random.Random) -> None:
    gmpy2 = pytest.importorskip("gmpy2")
    n = random_modulus(rng, 16384)
    m = FastModulus(n)
    bases = [rng.randrange(n) for _ in range(4)]
    e = rng.getrandbits(2048)
    assert m.pow_many(bases, e) == [int(gmpy2.powmod(b, e, n)) for b in bases]


@pytest.mark.parametrize("cut", [2, 10**9, None], ids=["spectral", "word", "generic"])
def test_vector_files(cut: int | None, table: None) -> None:
    # Every Montgomery-product record of vectors/ (any algorithm, its own r): the fast engine
    # must give x*y mod N, and z*r mod N from the record's z = x*y*r^-1 mod N (up to bound*N).
    from montlab import vectors

    if cut is not None:
        force(cut, cut)
    checked = 0
    moduli: dict[int, FastModulus] = {}
    for rec in vectors.load_all(kind="mul"):
        n, x, y = rec["modulus"], rec["x"], rec["y"]
        if n <= 1 or n % 2 == 0 or not (0 <= x < n and 0 <= y < n):
            continue
        m = moduli.get(n) or moduli.setdefault(n, FastModulus(n))
        want = x * y % n
        assert m.mul(x, y) == want, rec["_source"]
        assert m.mul(rec["result"] % n, rec["r"] % n) == want, rec["_source"]
        checked += 1
    assert checked > 4000


def test_a_wrong_type_is_reported_before_a_range() -> None:
    """Every argument's type is checked before any value: a list beside a negative int is a
    TypeError, whichever comes first (the fast int path must not change that)."""
    m = FastModulus(87)
    for args in ((-5, [3, 5]), ([3, 5], -5), (100, "7"), (True, 200)):
        with pytest.raises(TypeError):
            m.mul(*args)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        m.pow([3], -1)  # type: ignore[arg-type]
    with pytest.raises(OperandError):
        m.mul(-5, 3)
