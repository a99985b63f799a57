"""Property tests (hypothesis): every algorithm id, arbitrary odd moduli and operands.

Hypothesis shrinks any failure to a minimal modulus and operand pair; the run is seeded from
MONTLAB_SEED (see conftest.py) and its example count scales with MONTLAB_TEST_MULTIPLIER.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from montlab import Modulus, native_available, registry
from montlab.testing import accepts

moduli = st.integers(min_value=1, max_value=2**300).map(lambda v: 2 * v + 1)


@st.composite
def mul_case(draw: st.DrawFn) -> tuple[str, int, int, int]:
    algo = draw(st.sampled_from(registry.ids()))
    n = draw(moduli)
    assume(accepts(algo, n))
    hi = Modulus(n).config(algo).in_bound * n
    x = draw(st.integers(min_value=0, max_value=hi - 1))
    y = draw(st.integers(min_value=0, max_value=hi - 1))
    return algo, n, x, y


@given(mul_case())
def test_mul_is_montgomery_product(case: tuple[str, int, int, int]) -> None:
    algo, n, x, y = case
    m = Modulus(n)
    cfg = m.config(algo)
    z = m.mul(x, y, algo, "ref")
    assert z % n == x * y * cfg.r_inv % n
    assert 0 <= z < cfg.bound * n


@pytest.mark.skipif(not native_available(), reason="native extension not built")
@given(moduli, st.data())
def test_native_agrees_with_reference(n: int, data: st.DataObject) -> None:
    m = Modulus(n)
    x = data.draw(st.integers(min_value=0, max_value=n - 1))
    y = data.draw(st.integers(min_value=0, max_value=n - 1))
    assert m.mul(x, y, "cios", "native") == m.mul(x, y, "cios", "ref")


@given(moduli, st.data())
def test_pow_agrees_with_python(n: int, data: st.DataObject) -> None:
    b = data.draw(st.integers(min_value=0, max_value=n - 1))
    e = data.draw(st.integers(min_value=0, max_value=2**48))
    algo = data.draw(st.sampled_from(registry.ids()))
    assume(accepts(algo, n))
    assert Modulus(n).pow(b, e, algo) == pow(b, e, n)
