"""`verilator --lint-only -Wall` is clean for every architecture over a few parameter sets."""

from __future__ import annotations

import subprocess

import pytest
from rtl_helpers import toolchain

_MWR = [{"n": 16, "w": 4}, {"n": 17, "w": 16}, {"n": 64, "w": 16}, {"n": 1024, "w": 16}]
SETS: dict[str, list[dict[str, int]]] = {
    "mwr2mm_tk": _MWR + [{"n": 16, "w": 4, "p": 4}, {"n": 64, "w": 16, "p": 5}],
    "mwr2mm_arch1": _MWR  # with the queue (p < e)
    + [{"n": 16, "w": 4, "p": 1}, {"n": 16, "w": 4, "p": 3}, {"n": 64, "w": 16, "p": 2}],
    "mwr2mm_arch2": _MWR,
    "mwr4mm_arch2": [s for s in _MWR if s["w"] % 2 == 0],
    "drmmm": [
        {"n": 16, "k": 2, "t": 1},
        {"n": 64, "k": 4, "t": 2},
        {"n": 67, "k": 8, "t": 3, "f": 3},
        {"n": 64, "k": 16, "t": 4, "pp": 1, "cell": 2, "serial": 1, "f": 4},
        {"n": 64, "k": 4, "t": 2, "pp": 1, "win": 2, "cell": 0, "g": 0},
        {"n": 1024, "k": 16, "t": 4},
    ],
    "fmlm3": [
        {"p": 8, "u": 4, "ring": 24, "alg": 3, "bfs": 2},
        {"p": 16, "u": 1, "ring": 8, "alg": 2, "bfs": 1},
        {"p": 32, "u": 13, "ring": 32, "alg": 2, "bfs": 4, "sw_lat": 0, "rd_lat": 0},
        {"p": 128, "u": 16, "ring": 64, "alg": 3, "bfs": 2},
    ],
    "ism3": [
        {"v": 32, "d": 32, "mu": 13},
        {"v": 32, "d": 64, "lanes": 1, "pingpong": 1, "bfly_lat": 1},
        {"v": 64, "d": 64, "lanes": 8, "level_lat": 0, "base_lat": 0},
        {"v": 128, "d": 256, "pingpong": 1},
    ],
    "ntt64": [
        {"points": 64, "b": 8},
        {"points": 64, "b": 29},  # the largest b: coefficients of CW = 64 bits
        {"points": 256, "b": 3},  # the least b at 256 points
        {"points": 256, "b": 16, "stages": 3},
        {"points": 1024, "b": 24, "level_lat": 1, "base_lat": 1},
    ],
}


@pytest.mark.parametrize("arch_name", list(SETS))
def test_lint_clean(arch_name: str) -> None:
    from montlab.hw import flow, specs

    toolchain()
    arch = specs.get(arch_name)
    for sets in SETS[arch_name]:
        ap = arch.resolve(sets)
        cmd = ["verilator", "--lint-only", "-Wall", "--top-module", arch.top, str(flow.VLT)]
        cmd += [f"-G{k}={v}" for k, v in ap.hdl.items()] + [str(f) for f in arch.files()]
        res = subprocess.run(cmd, capture_output=True, text=True)
        assert res.returncode == 0 and "%Warning" not in res.stderr, (sets, res.stderr)


def test_every_architecture_is_linted() -> None:
    from montlab.hw import specs

    assert {a.name for a in specs.all_specs()} == set(SETS)
