"""RTL test helpers: build and simulate a parameter set through montlab.hw.flow.

Randomness follows the Python suite: ``scaled``, the ``rng`` fixture and MONTLAB_SEED /
MONTLAB_TEST_MULTIPLIER come from tests/py/conftest.py (loaded once, shared). Tests skip when
the simulator toolchain (cocotb, Verilator) is not installed. (Not named conftest: the cocotb
test modules import it inside the simulator, where tests/py/conftest.py may come first.)
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
_PY_CONFTEST = HERE.parent / "py" / "conftest.py"


def py_conftest() -> ModuleType:
    """tests/py/conftest.py: the module pytest already loaded, else a fresh load."""
    for mod in list(sys.modules.values()):
        if Path(getattr(mod, "__file__", None) or "").resolve() == _PY_CONFTEST:
            return mod
    spec = importlib.util.spec_from_file_location("montlab_py_conftest", _PY_CONFTEST)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["montlab_py_conftest"] = mod
    spec.loader.exec_module(mod)
    return mod


_py = py_conftest()
SEED: int = _py.SEED
scaled = _py.scaled
rng = _py.rng  # the fixture itself: prints the seed, derives a per-test RNG


def toolchain() -> None:
    """Skip unless cocotb and Verilator are usable."""
    from montlab.errors import ParameterError
    from montlab.hw import flow

    try:
        flow.check_simulator("verilator")
    except ParameterError as exc:
        pytest.skip(str(exc))


def run_rtl(
    arch_name: str,
    sets: dict[str, int],
    module: str,
    rng: random.Random,
    count: int,
    trace: int = 3,
    edge: bool = True,
    sim: str = "verilator",
) -> dict[str, Any]:
    """Simulate ``count`` random vectors (and the edge vectors) with the cocotb tests of
    ``module``; assert no mismatch and the cycle count of the spec's schedule model."""
    from montlab.hw import flow, specs

    toolchain()
    arch = specs.get(arch_name)
    ap = arch.resolve(sets)
    seed = rng.getrandbits(32)
    print(f"[rtl] {arch_name} {ap.as_dict()} vectors seed {seed}")
    vecs = flow.make_vectors(arch, ap, count, seed, edge=edge)
    res = flow.simulate(arch, ap, vecs, sim, trace=trace, test_module=module)
    assert res["failures"] == [], res["failures"]
    assert res["mismatches"] == 0
    assert res["cycles"] == arch.cycles(ap) == res["cycle_model"]
    assert res["vectors"] == len(vecs)
    assert res["probed"] > 0
    return res


def simulate(arch_name: str, sets: dict[str, int], vectors: list, trace: int = 1) -> dict[str, Any]:
    """Run given vectors (an erratum variant's, a corner case) through the default test module;
    the caller asserts on the result (mismatches included)."""
    from montlab.hw import flow, specs

    toolchain()
    arch = specs.get(arch_name)
    return flow.simulate(arch, arch.resolve(sets), vectors, trace=trace)


def random_vectors(arch_name: str, sets: dict[str, int], count: int, seed: int) -> list:
    """``count`` random vectors (no edge vectors) the model accepts for this parameter set."""
    from montlab.hw import flow, specs

    arch = specs.get(arch_name)
    return flow.make_vectors(arch, arch.resolve(sets), count, seed, edge=False)
