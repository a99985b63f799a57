"""The elaboration-time rules of rtl/common/karatsuba_core.v, mirrored in Python.

Contract: :func:`karatsuba_levels` is the number of subtractive Karatsuba levels of a W-bit
operand over BASE_W-bit base multipliers (ceil-halvings of W until it fits: 1, 2 and 3 at the
ISM3 paper's 34, 66 and 130 bits with BASE_W = 17; 2 at NTT64's 64 bits); the multiplier uses
3^levels base multipliers (one DSP each). :func:`karatsuba_latency` is its LATENCY, BASE_LAT +
levels LEVEL_LAT (7, 11 and 15 at the ISM3 widths and the defaults 3 and 4). The schedule models
(montlab.hw.ism3_schedule) and the block tests use these; the RTL computes the same with
constant functions.
"""

from __future__ import annotations


def karatsuba_levels(w: int, base_w: int) -> int:
    """Ceil-halvings of a w-bit operand until it fits base_w bits (karatsuba_core's LEVELS)."""
    levels = 0
    while w > base_w:
        w, levels = (w + 1) // 2, levels + 1
    return levels


def karatsuba_latency(w: int, base_w: int, base_lat: int, level_lat: int) -> int:
    """karatsuba_core's LATENCY: BASE_LAT + LEVELS * LEVEL_LAT."""
    return base_lat + karatsuba_levels(w, base_w) * level_lat
