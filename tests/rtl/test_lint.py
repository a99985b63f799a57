"""`verilator --lint-only -Wall` is clean for every architecture over a few parameter sets."""

from __future__ import annotations

import subprocess

import pytest
from rtl_helpers import toolchain

SETS = [{"n": 16, "w": 4}, {"n": 17, "w": 16}, {"n": 64, "w": 16}, {"n": 1024, "w": 16}]


@pytest.mark.parametrize("arch_name", ["mwr2mm_tk", "mwr2mm_arch1", "mwr2mm_arch2", "mwr4mm_arch2"])
def test_lint_clean(arch_name: str) -> None:
    from montlab.hw import archs, flow

    toolchain()
    arch = archs.get(arch_name)
    variants = [dict(s) for s in SETS if arch.radix_bits == 1 or s["w"] % 2 == 0]
    if arch_name == "mwr2mm_tk":  # p >= P_max
        variants += [{"n": 16, "w": 4, "p": 4}, {"n": 64, "w": 16, "p": 5}]
    if arch_name == "mwr2mm_arch1":  # with the queue (p < e)
        variants += [
            {"n": 16, "w": 4, "p": 1},
            {"n": 16, "w": 4, "p": 3},
            {"n": 64, "w": 16, "p": 2},
        ]
    for sets in variants:
        ap = arch.resolve(sets)
        cmd = ["verilator", "--lint-only", "-Wall", "--top-module", arch.top, str(flow.VLT)]
        cmd += [f"-G{k}={v}" for k, v in ap.hdl().items()] + [str(f) for f in arch.files()]
        res = subprocess.run(cmd, capture_output=True, text=True)
        assert res.returncode == 0 and "%Warning" not in res.stderr, (sets, res.stderr)
