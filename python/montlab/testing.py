"""Operand and modulus generators shared by the tests, the vector generators and the CLI.

Randomness always comes from a caller-supplied ``random.Random``, so every run is reproducible
from its seed. Structured edge cases follow FLINT/GMP habits: moduli of the form 2^k +- small,
all-ones, sparse and dense bit patterns, and the minimum and maximum operands.
"""

from __future__ import annotations

import random
from typing import Any


def oracle_pow(b: int, e: int, n: int) -> int:
    """The exponentiation oracle: gmpy2's ``powmod`` (GMP) where installed, else ``pow``."""
    try:
        import gmpy2  # type: ignore[import-untyped]
    except ImportError:
        return pow(b, e, n)
    return int(gmpy2.powmod(b, e, n))


def random_modulus(rng: random.Random, bits: int) -> int:
    """A random odd modulus of exactly ``bits`` bits (bits >= 2)."""
    assert bits >= 2
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


def accepts(algo: str, n_mod: int, params: dict[str, Any] | None = None) -> bool:
    """Whether ``algo`` accepts the modulus: some algorithms need more than an odd N > 1
    (McLaughlin and FMLM3 need gcd(N, 2^l - 1) = 1)."""
    from montlab import registry
    from montlab.errors import ModulusError

    try:
        registry.get(algo).ref_module().configure(n_mod, registry.resolve_params(algo, params))
    except ModulusError:
        return False
    return True


def random_modulus_for(
    rng: random.Random, algo: str, bits: int, params: dict[str, Any] | None = None
) -> int:
    """A random odd ``bits``-bit modulus that ``algo`` accepts with ``params``."""
    for _ in range(1000):
        n_mod = random_modulus(rng, bits)
        if accepts(algo, n_mod, params):
            return n_mod
    raise AssertionError(f"no {bits}-bit modulus accepted by {algo} in 1000 draws")


def random_below(rng: random.Random, limit: int) -> int:
    """Uniform in [0, limit)."""
    return rng.randrange(limit)


def edge_moduli_for(algo: str, bits: int, params: dict[str, Any] | None = None) -> list[int]:
    """The structured moduli of :func:`edge_moduli` that ``algo`` accepts."""
    return [m for m in edge_moduli(bits) if accepts(algo, m, params)]


def edge_moduli(bits: int) -> list[int]:
    """Structured odd moduli of exactly ``bits`` bits (bits >= 2), without duplicates.

    2^bits - 1 (all ones), 2^(bits-1) + 1, 2^bits - small, 2^(bits-1) + small,
    alternating bit patterns, and a single run of ones over a run of zeros.
    """
    assert bits >= 2
    top = 1 << (bits - 1)
    full = (1 << bits) - 1
    cands = [
        full,  # all ones
        top | 1,  # 2^(bits-1) + 1
        full - 2,  # 2^bits - 3
        full - 58,  # 2^bits - 59 style
        top | 3,
        top | int("01" * bits, 2) & full | 1,  # alternating
        top | (int("10" * bits, 2) & full) | 1,
        top | ((1 << (bits // 2)) - 1),  # high one, low run of ones
        (full ^ ((1 << (bits // 2)) - 1)) | 1,  # run of ones over a run of zeros
    ]
    out: list[int] = []
    for m in cands:
        if m.bit_length() == bits and m & 1 and m > 1 and m not in out:
            out.append(m)
    return out


def edge_operands(n_mod: int, in_bound: int = 1) -> list[tuple[int, int]]:
    """Operand pairs at the edges of [0, in_bound*N): zeros, ones, maximum values."""
    hi = in_bound * n_mod - 1
    pairs = [(0, 0), (0, hi), (1, 1), (1, hi), (hi, hi), (hi, hi - 1 if hi > 0 else 0)]
    if n_mod > 2:
        pairs.append((n_mod - 1, n_mod - 1))
        pairs.append((n_mod // 2, n_mod - 1))
    seen: list[tuple[int, int]] = []
    for p in pairs:
        if p not in seen:
            seen.append(p)
    return seen
