"""Residues (``FastModulus.__call__``, ``montlab._native.Residue``) against Python's ints.

Every operator, mixed with ints on both sides, on random and structured moduli from 2 bits up,
on each product kernel (``cios``/``amm`` with the generic table; ``spectral`` with a table
that moves its cut-over down), the Montgomery form against x R mod N for the kernel's R, the
batch calls, and every bad input (types, other moduli, non-invertible values).
"""

from __future__ import annotations

import random

import pytest
from conftest import hexdump, scaled
from hypothesis import given
from hypothesis import strategies as st
from montlab.errors import ModulusError, OperandError, OperandTypeError
from montlab.testing import edge_moduli, random_modulus

native = pytest.importorskip("montlab._native", reason="native extension not built")
FastModulus = native.FastModulus


def r_of(m: FastModulus) -> int:
    """The Montgomery constant R of the residues of ``m``, from its product kernel's id."""
    n, s = m.modulus, (m.modulus.bit_length() + 63) // 64
    kernel = m.residue_kernel
    if kernel == "cios":
        return 1 << (64 * s)
    if kernel == "amm":  # k = ceil((bits + 2) / 52) digits: lazy values below 2N < 2^(52 k)
        return 1 << (52 * -(-(m.modulus.bit_length() + 2) // 52))
    p = m.transform_len
    assert p is not None and n.bit_length() <= 64 * p
    return (1 << (64 * p)) + (1 if kernel == "spectral" else 0)


def check_ring(m: FastModulus, values: list[int], rng: random.Random) -> None:
    n = m.modulus
    res = [m(v) for v in values]
    r = r_of(m)
    for x, a in zip(values, res, strict=True):
        msg = hexdump(N=n, x=x) + f" kernel={m.residue_kernel}"
        assert int(a) == x % n and a == x % n, msg
        # Only the int in [0, N) equals a residue, so == agrees with hash.
        assert (a == x) == (0 <= x < n) and a != x % n + n and a != x % n - n, msg
        assert a.form == x * r % n and m.from_form(a.form) == a, msg
        assert a.modulus == n and a.kernel == m.residue_kernel
        assert int(-a) == -x % n and int(+a) == x % n and bool(a) == (x % n != 0)
        assert hash(a) == hash(x % n), msg
        assert int(a**2) == x * x % n and int(a**0) == 1 % n and int(a**1) == x % n
        e = rng.getrandbits(rng.choice([17, 64, 200]))
        assert int(a**e) == pow(x, e, n), msg + f" e={e}"
        for y, b in zip(values[:5], res[:5], strict=False):
            msg2 = msg + f" y={y:#x}"
            assert int(a * b) == x * y % n, msg2
            assert int(a + b) == (x + y) % n, msg2
            assert int(a - b) == (x - y) % n, msg2
            assert int(a * y) == int(y * a) == x * y % n, msg2
            assert int(a + y) == int(y + a) == (x + y) % n, msg2
            assert int(a - y) == (x - y) % n and int(y - a) == (y - x) % n, msg2
            assert (a == b) == ((x - y) % n == 0) and (a != b) == ((x - y) % n != 0)
        inv = _inverse(x, n)
        if inv is None:
            with pytest.raises(OperandError, match="not invertible"):
                a.inverse()
            with pytest.raises(OperandError, match="not invertible"):
                m(1) / a
        else:
            assert int(a.inverse()) == inv and int(a**-3) == pow(inv, 3, n), msg
            assert int(7 / a) == 7 * inv % n and int(a / a) == 1 % n
    # In-place forms rebind, and leave other references alone.
    acc, first = res[0], res[0]
    for b in res[1:]:
        acc *= b
        acc += b
        acc -= 1
    want = values[0] % n
    for y in values[1:]:
        want = (want * y + y - 1) % n
    assert int(acc) == want and int(first) == values[0] % n


def _inverse(x: int, n: int) -> int | None:
    try:
        return pow(x, -1, n)
    except ValueError:
        return None


def operands(n: int, rng: random.Random) -> list[int]:
    """Edge and random values, some outside [0, N) (negative, >= N) to test the reduction."""
    vals = [0, 1, n - 1, n >> 1, (1 << (n.bit_length() - 1)) % n, n, n + 1, -1, -n - 5, 3 * n]
    vals += [rng.randrange(n) for _ in range(scaled(4))]
    return vals


@pytest.mark.parametrize(
    "bits", [2, 3, 63, 64, 65, 128, 255, 521, 896, 897, 1024, 1025, 2048, 4096]
)
def test_word_level_residues(bits: int, rng: random.Random) -> None:
    # Residues run on amm from the table's ifma_residue_bits where the CPU has IFMA, on cios
    # below it (896 and 897 bits: both sides of the IFMA table's cut).
    moduli = [random_modulus(rng, bits) for _ in range(scaled(2))]
    moduli += [k for k in edge_moduli(bits) if k > 1][:3]
    cut = native.thresholds()["ifma_residue_bits"]
    assert isinstance(cut, int)
    for n in moduli:
        m = FastModulus(n)
        assert m.residue_kernel == ("amm" if native.IFMA and bits >= cut else "cios")
        check_ring(m, operands(n, rng), rng)


@pytest.mark.parametrize("bits", [65, 700, 3000])
def test_spectral_residues(bits: int, rng: random.Random, table: None) -> None:
    native.set_thresholds("spectral_mul_bits = 2\nspectral_pow_bits = 2\n")
    ran = 0
    for n in [random_modulus(rng, bits) for _ in range(scaled(2) + 2)]:
        m = FastModulus(n)
        if m.transform_len is None:  # shares a factor with 2^l + 1: word level
            assert m.residue_kernel == "cios"
            continue
        assert m.residue_kernel == "spectral"
        check_ring(m, operands(n, rng), rng)
        ran += 1
    assert ran > 0


def test_batches(rng: random.Random) -> None:
    n = random_modulus(rng, 1000)
    m = FastModulus(n)
    xs = [rng.randrange(n) for _ in range(scaled(20))]
    ys = [rng.randrange(n) for _ in xs]
    rx, ry = [m(x) for x in xs], [m(y) for y in ys]
    out = m.mul_many(rx, ry)
    assert all(isinstance(r, native.Residue) for r in out)
    assert [int(r) for r in out] == [x * y % n for x, y in zip(xs, ys, strict=True)]
    assert m.mul_many(xs, ys) == [x * y % n for x, y in zip(xs, ys, strict=True)]
    assert [int(r) for r in m.pow_many(tuple(rx), 65537)] == [pow(x, 65537, n) for x in xs]
    es = [rng.getrandbits(80) for _ in xs]
    pows = m.pow_many(rx, es)
    assert [int(r) for r in pows] == [pow(x, e, n) for x, e in zip(xs, es, strict=True)]
    with pytest.raises(OperandTypeError, match="both"):
        m.mul_many(rx, ys)
    with pytest.raises(OperandTypeError, match="index 1"):
        m.mul_many([rx[0], 5], ry[:2])
    other = FastModulus(random_modulus(rng, 1000))
    with pytest.raises(OperandError, match="different moduli"):
        m.mul_many(rx, [other(1)] * len(rx))
    with pytest.raises(OperandError, match="different moduli"):
        m.pow_many([other(1)], 3)
    with pytest.raises(OperandError, match="differ in length"):
        m.mul_many(rx, ry[:-1])


def test_modulus_front_door(rng: random.Random) -> None:
    import montlab

    n = random_modulus(rng, 2048)
    m = montlab.Modulus(n)
    x, y = rng.randrange(n), rng.randrange(n)
    a, b = m(x), m(y)
    assert isinstance(a, native.Residue) and int(a * b) == x * y % n
    assert int(a**65537) == pow(x, 65537, n) and a.modulus == n


def test_pickle_and_copy(rng: random.Random) -> None:
    import copy
    import pickle

    n = random_modulus(rng, 1500)
    m = FastModulus(n)
    x = rng.randrange(n)
    a = m(x)
    for b in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert isinstance(b, native.Residue) and int(b) == x and b.modulus == n
        assert b == a and int(b * a) == x * x % n


def test_one_modulus_on_two_kernels_mixes(rng: random.Random, table: None) -> None:
    n = random_modulus(rng, 700)
    word = FastModulus(n)
    native.set_thresholds("spectral_mul_bits = 2\nspectral_pow_bits = 2\n")
    spec = FastModulus(n)
    if spec.transform_len is None:
        pytest.skip("this N shares a factor with 2^l + 1")
    assert word.residue_kernel in ("cios", "amm") and spec.residue_kernel == "spectral"
    a, b = word(5), spec(7)
    assert a.form != spec(5).form  # two R, one value
    assert int(a * b) == 35 and (a * b).kernel == word.residue_kernel
    assert int(b * a) == 35 and (b * a).kernel == "spectral"
    assert a == spec(5) and spec(5) == a and hash(a) == hash(spec(5))
    assert [int(r) for r in word.mul_many([a, a], [b, spec(2)])] == [35, 10]


def test_index_errors_pass_through(rng: random.Random) -> None:
    class Bad:
        def __index__(self) -> int:
            raise ValueError("no index here")

    a = FastModulus(random_modulus(rng, 100))(3)
    with pytest.raises(ValueError, match="no index here"):
        a * Bad()  # type: ignore[operator]


def test_moduli_do_not_mix(rng: random.Random) -> None:
    n = random_modulus(rng, 300)
    m, same, other = FastModulus(n), FastModulus(n), FastModulus(n + 2)
    a = m(5)
    # Another object for the same N (same kernel, same R) shares the residues.
    assert int(a * same(7)) == 35 % n and a == same(5)
    for op in (
        lambda: a * other(3),
        lambda: a + other(3),
        lambda: other(3) - a,
        lambda: a / other(3),
    ):
        with pytest.raises(OperandError, match="different moduli"):
            op()
    assert a != other(5) and not (a == other(5))


def test_bad_inputs(rng: random.Random) -> None:
    n = random_modulus(rng, 200)
    m = FastModulus(n)
    a = m(3)
    for bad in (True, 1.5, "7", b"7", None, [1]):
        with pytest.raises(OperandTypeError):
            m(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            a * bad  # type: ignore[operator]
        with pytest.raises(TypeError):
            a + bad  # type: ignore[operator]
    with pytest.raises(TypeError):
        a < m(4)  # type: ignore[operator]  # noqa: B015
    with pytest.raises(TypeError):
        a**1.5  # type: ignore[operator]
    with pytest.raises(OperandTypeError, match="already has one"):
        pow(a, 3, n)  # type: ignore[call-overload]
    with pytest.raises(OperandError, match="not invertible"):
        m(0).inverse()
    with pytest.raises(OperandError, match="not invertible"):
        m(0) ** -1
    with pytest.raises(OperandError, match="out of range"):
        m.from_form(n)
    with pytest.raises(OperandError, match="negative"):
        m.from_form(-1)
    assert a == 3 and a != "3" and a != 3.0
    # __index__ objects work like ints.
    gmpy2 = pytest.importorskip("gmpy2")
    assert int(m(gmpy2.mpz(n + 4))) == 4 and int(a * gmpy2.mpz(2)) == 6 % n
    with pytest.raises(ModulusError):
        FastModulus(4)(1)


@given(st.integers(min_value=1, max_value=2**300).map(lambda k: 2 * k + 1), st.data())
def test_ring_laws(n: int, data: st.DataObject) -> None:
    m = FastModulus(n)
    x, y, z = (data.draw(st.integers(min_value=-(2**310), max_value=2**310)) for _ in range(3))
    a, b, c = m(x), m(y), m(z)
    assert int(a * (b + c)) == x * (y + z) % n
    assert (a * b) * c == a * (b * c) and a - b == -(b - a)
    assert int(a * b - c) == (x * y - z) % n
