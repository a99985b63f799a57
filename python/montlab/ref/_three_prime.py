"""Naive three-prime number-theoretic products: what the native spectral kernels compute.

The native kernels ``spectral`` and ``ntt_redc`` multiply P-digit numbers (digits of 64 bits)
as polynomials modulo x^P - 1 (cyclic) or x^P + 1 (nega-cyclic), once modulo each of three
50-bit primes q with 2^22 | q - 1, and read the integer coefficients back by the CRT. This
module does the same by definition: a length-P discrete Fourier transform evaluated term by
term (O(P^2)), the nega-cyclic one weighted by a primitive 2P-th root, then the CRT with
``pow`` inverses. Residues do not depend on the root chosen, so they are comparable with the
native kernel's after its inverse transforms.

Coefficient bounds the read-out relies on (asserted): a cyclic sum of two products lies in
[0, 2 P (2^64 - 1)^2], a nega-cyclic product in (-P 2^128, P 2^128); both fit Q = q1 q2 q3
(> 2^149.99, symmetric range for the nega-cyclic ones) for P <= 2^16.
"""

from __future__ import annotations

from functools import cache

from montlab.errors import ModulusError, ParameterError
from montlab.ref._base import words

#: The primes of ``crates/montlab-core/src/spectral/prime.rs``: c 2^22 + 1 just below 2^50.
PRIMES = (0x3_FFFF_FB80_0001, 0x3_FFFF_FAC0_0001, 0x3_FFFF_F540_0001)
assert all(1 << 49 < q < 1 << 50 and (q - 1) % (1 << 22) == 0 for q in PRIMES)
assert all(pow(a, q - 1, q) == 1 for q in PRIMES for a in (2, 3, 5, 7, 11, 13))
Q = PRIMES[0] * PRIMES[1] * PRIMES[2]
DIGIT = 64


@cache
def _root(q: int, order: int) -> int:
    """A primitive ``order``-th root of unity mod q (order a power of two dividing q - 1)."""
    assert (q - 1) % order == 0
    for g in range(2, 1000):
        r = pow(g, (q - 1) // order, q)
        if order == 1 or pow(r, order // 2, q) == q - 1:
            return r
    raise AssertionError(f"no primitive {order}-th root mod {q:#x}")


def _dft(a: list[int], q: int, root: int) -> list[int]:
    p = len(a)
    return [sum(v * pow(root, i * k, q) for i, v in enumerate(a)) % q for k in range(p)]


def convolution_mod(a: list[int], b: list[int], q: int, nega: bool) -> list[int]:
    """Coefficients mod q of a b mod (x^P -+ 1), by forward transforms, pointwise products and
    the inverse transform (P a power of two)."""
    p = len(a)
    assert p == len(b) and p & (p - 1) == 0
    psi = _root(q, 2 * p)
    omega = psi * psi % q
    twist = [pow(psi, i, q) if nega else 1 for i in range(p)]
    fa = _dft([v * t % q for v, t in zip(a, twist)], q, omega)
    fb = _dft([v * t % q for v, t in zip(b, twist)], q, omega)
    c = _dft([x * y % q for x, y in zip(fa, fb)], q, pow(omega, -1, q))
    p_inv = pow(p, -1, q)
    return [v * p_inv * pow(t, -1, q) % q for v, t in zip(c, twist)]


def residues(a: list[int], b: list[int], nega: bool) -> list[int]:
    """The residues of a b mod (x^P -+ 1) for the three primes, prime by prime (3 P values)."""
    return [r for q in PRIMES for r in convolution_mod(a, b, q, nega)]


def add_residues(u: list[int], v: list[int]) -> list[int]:
    """Residue-wise sum (the spectral sum of two products)."""
    p = len(u) // 3
    return [(x + y) % PRIMES[i // p] for i, (x, y) in enumerate(zip(u, v))]


def coefficients(res: list[int], signed: bool) -> list[int]:
    """The integer coefficients from their residues: CRT into [0, Q), or (-Q/2, Q/2]."""
    p = len(res) // 3
    out = []
    for k in range(p):
        c = 0
        for j, q in enumerate(PRIMES):
            m = Q // q
            c += res[j * p + k] * m * pow(m, -1, q)
        c %= Q
        out.append(c - Q if signed and c > Q // 2 else c)
    return out


def fold(coeffs: list[int], l: int, nega: bool) -> int:  # noqa: E741
    """sum c_k 2^(64 k) modulo 2^l + 1 (into [0, 2^l]) or 2^l - 1 (into [0, 2^l - 1))."""
    return sum(c << (DIGIT * k) for k, c in enumerate(coeffs)) % ((1 << l) + (1 if nega else -1))


def digits(x: int, p: int) -> list[int]:
    """P digits of 64 bits of 0 <= x < 2^(64 P)."""
    return words(x, DIGIT, p)


def signed_digits(x: int, p: int, top: int) -> list[int]:
    """Digits of x in [0, 2^(64 P)], where the value 2^(64 P) enters as ``top`` (-1 in the ring
    2^l + 1, +1 in 2^l - 1) on digit 0, as the kernels load it."""
    if x == 1 << (DIGIT * p):
        return [top] + [0] * (p - 1)
    return digits(x, p)


def check_bounds(coeffs: list[int], p: int, products: int) -> None:
    """Assert the read-out bound: |c| <= products * P (2^64 - 1)^2 < Q / 2."""
    bound = products * p * ((1 << DIGIT) - 1) ** 2
    assert bound < Q // 2, "coefficients could exceed the CRT range"
    assert all(abs(c) <= bound for c in coeffs), "coefficient above its bound"


def auto_p(n_mod: int) -> int:
    """The least power of two P >= 2 with 64 P >= bitlen(N)."""
    limbs = -(-n_mod.bit_length() // DIGIT)
    return max(2, 1 << (limbs - 1).bit_length())


def transform_len(algo: str, n_mod: int, p: int | None, max_p: int) -> int:
    """P for N: ``p`` checked (a power of two in [2, max_p] with 64 P >= bitlen(N)), or
    :func:`auto_p` when None."""
    if p is None:
        return auto_p(n_mod)
    if p & (p - 1) or not 2 <= p <= max_p:
        raise ParameterError(f"{algo}: P = {p} must be a power of two from 2 to {max_p}")
    if n_mod.bit_length() > DIGIT * p:
        raise ModulusError(
            f"{algo}: the modulus has {n_mod.bit_length()} bits, too wide for P = {p} "
            f"(l = 64 P = {DIGIT * p}; use P >= {auto_p(n_mod)})"
        )
    return p
