"""Operand and modulus generators shared by the tests, the vector generators and the CLI.

Randomness always comes from a caller-supplied ``random.Random``, so every run is reproducible
from its seed. Structured edge cases follow FLINT/GMP habits: moduli of the form 2^k +- small,
all-ones, sparse and dense bit patterns, and the minimum and maximum operands.
"""

from __future__ import annotations

import random


def random_modulus(rng: random.Random, bits: int) -> int:
    """A random odd modulus of exactly ``bits`` bits (bits >= 2)."""
    assert bits >= 2
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


def random_below(rng: random.Random, limit: int) -> int:
    """Uniform in [0, limit)."""
    return rng.randrange(limit)


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
