"""rtl/ntt64/ntt64.v, the whole NTT64 multiplier, through the RTL flow (montlab.hw.specs.ntt64)
against montlab.ref.ntt64 with the fixed R = 2^(b points/2).

Every vector (random and the flow's edge vectors: x = y = N - 1, the all-ones modulus, ...)
must give the model's product, in the cycle ntt64_schedule.product_cycles gives; traced vectors
compare every word of the bank set each of the 17 steps wrote (first passes, FFT(X), the
product spectra, the coefficients before carries, the samples t and u) and T's digits with the
model's trace. CI: the scaled configuration, 64 points on 4 PEs, with b = 8 and 16 (and a
modulus narrower than R); rtl_wide: the paper's 1024 points with b = 16 (8192 bits) and b = 24
(12,288 bits), 20 random vectors and the edge vectors each. Seeds: the ``rng`` fixture
(MONTLAB_SEED); counts scale with MONTLAB_TEST_MULTIPLIER.
"""

from __future__ import annotations

import random

import pytest
from montlab.hw import ntt64_schedule as ns
from rtl_helpers import run_rtl, scaled

ARCH = "ntt64"
MODULE = "montlab.hw.sim_vectors"
CI_SETS = [
    # b = 8 runs in CI with the narrower modulus (the one-minute build of each set is the cost)
    pytest.param({"points": 64, "b": 8}, id="64 points b8", marks=pytest.mark.rtl_wide),
    pytest.param({"points": 64, "b": 8, "n": 200}, id="64 points b8 n200"),
    pytest.param({"points": 64, "b": 16}, id="64 points b16", marks=pytest.mark.rtl_wide),
]
PAPER_SETS = [
    pytest.param({"points": 1024, "b": 16, "stages": 2}, id="8192"),
    pytest.param({"points": 1024, "b": 24, "stages": 2}, id="12288"),
]


@pytest.mark.parametrize("sets", CI_SETS)
def test_rtl_ntt64(rng: random.Random, sets: dict[str, int]) -> None:
    res = run_rtl(ARCH, sets, MODULE, rng, scaled(20), trace=2)
    assert res["probed"] == 2 * (16 * 64 + 4 * 8)  # 16 steps x 64 words, T's 32 chunks


@pytest.mark.rtl_wide
@pytest.mark.parametrize("sets", PAPER_SETS)
def test_rtl_ntt64_paper(rng: random.Random, sets: dict[str, int]) -> None:
    from montlab.hw import specs

    res = run_rtl(ARCH, sets, MODULE, rng, scaled(20), trace=1)
    spec = specs.get(ARCH)
    assert res["cycles"] == ns.product_cycles(32, *spec.latencies(spec.resolve(sets)))
    print(f"[ntt64] {sets}: {res['cycles']} cycles (the paper: 2030, not derivable, SPEC 4.5)")


def test_step_ends_and_product_cycles() -> None:
    """The probe edges are the steps' cumulative periods; the last is the product's cycles."""
    ends = ns.step_ends(8, 3, 12, 7)
    assert len(ends) == 17 and ends[-1] == ns.product_cycles(8, 3, 12, 7) == 941
    assert ends[0] == ns.pass_cycles(8, 3, 12) + 2 == 58
    assert ends[6] - ends[5] == ns.carry_cycles(8, 7) == 4 * 8 + 7 + 4
