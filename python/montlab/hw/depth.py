"""Logic depth of a Yosys-mapped Xilinx 7-series netlist, with carry chains weighted as chains.

Contract: :func:`netlist_depth` takes the ``write_json`` netlist of a design mapped by
``synth_xilinx`` (flat or hierarchical: user modules are flattened here, in Python) and the top
module's name, and returns the longest combinational path as a :class:`Depth`. Paths start at
the top's input ports, at the outputs of sequential cells and at constants; they end at the
top's output ports and at the inputs of sequential cells. Each cell on a path adds:

  * LUT1..LUT6 and INV (a LUT1): 1;
  * MUXF7, MUXF8: 0 (part of the LUT level that feeds them);
  * CARRY4 entered through S or DI (or through CI/CYINIT from anything but a CARRY4's CO): 1,
    which starts a chain; entered through CI/CYINIT from the previous CARRY4's CO: 0 (the chain
    goes on, so a 64-bit adder counts 1, not 16);
  * DSP48E1 without registers: 1; with registers it is sequential: its inputs end paths (+1
    when AREG = BREG = 0, the multiplier sits before the first register) and its outputs start
    them (at 1 when PREG = 0, the post-adder sits after the last register);
  * distributed RAM (RAM32M, RAM64M, RAM32X1D, RAM64X1D, RAM128X1D, RAM256X1S, ...: every
    ``RAM<n>M*`` and ``RAM<n>X*`` primitive): 1 from a read-address input (A*, ADDR*, DPRA*) to
    the data outputs; its other inputs (data, write enable, clock) end paths;
  * I/O and clock buffers (IBUF*, OBUF*, BUF*): 0.

Flip-flops (FD*), shift registers (SRL*), block RAMs (RAMB*) and any cell type not listed above
are sequential: they cut paths. ``depth`` is the largest sum; ``chain`` is the largest number of
CARRY4 cells of one chain on that path. The walk is an iterative topological order (Kahn), linear
in the pins of the flattened netlist; cells on a combinational loop are left out and counted in
``loop_cells``.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, Mapping, Sequence

#: Distributed-RAM primitives (LUT RAM): RAM32M, RAM64M16, RAM32X1D, RAM256X1S, RAM64X8SW, ...
LUTRAM_RE = re.compile(r"^RAM\d+(M\d*|X\d+\w*)$")
_ADDR_RE = re.compile(r"^(A|ADDR|DPRA)")
_LUT = {f"LUT{k}" for k in range(1, 7)} | {"INV"}
_MUXF = {"MUXF7", "MUXF8", "MUXF9"}
_CHAIN_PINS = ("CI", "CYINIT")

# Cell kinds of the walk.
_SEQ, _COMB, _CARRY = 0, 1, 2


@dataclass(frozen=True)
class Depth:
    """The weighted longest path (see the module docstring)."""

    depth: int  #: LUT levels + carry-chain entries (+ DSP and LUT-RAM levels)
    chain: int  #: CARRY4 cells of one chain on that path (0: none)
    cells: int  #: leaf cells of the flattened netlist
    loop_cells: int  #: cells on combinational loops, left out
    groups: dict[str, int] = field(default_factory=dict)  #: depth into each endpoint group


def _param(params: Mapping[str, Any], name: str) -> int:
    v = str(params.get(name, "0"))
    return int(v, 2) if v and set(v) <= {"0", "1"} else 0


class _Flat:
    """The flattened netlist: leaf cells with global net ids (nets merged with union-find)."""

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.cells: list[
            tuple[str, Mapping[str, Any], list[tuple[str, str, list[int | None]]]]
        ] = []

    def new(self) -> int:
        self.parent.append(len(self.parent))
        return len(self.parent) - 1

    def find(self, a: int) -> int:
        p = self.parent
        root = a
        while p[root] != root:
            root = p[root]
        while p[a] != root:
            p[a], a = root, p[a]
        return root

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def _flatten(
    modules: Mapping[str, Any], top: str
) -> tuple[_Flat, list[int | None], dict[int, int]]:
    """Leaf cells of ``top`` with global nets, the top's output-port nets, and the map from the
    top's own net bits to global nets."""
    flat = _Flat()
    top_map: dict[int, int] = {}

    def gid(bitmap: dict[int, int], bit: Any) -> int | None:
        if not isinstance(bit, int):
            return None  # a constant: "0", "1", "x", "z"
        g = bitmap.get(bit)
        if g is None:
            g = bitmap[bit] = flat.new()
        return g

    outs: list[int | None] = []
    for port in modules[top].get("ports", {}).values():
        nets = [gid(top_map, b) for b in port["bits"]]
        if port["direction"] == "output":
            outs += nets
    stack: list[tuple[str, dict[int, int]]] = [(top, top_map)]
    while stack:
        name, bitmap = stack.pop()
        for cell in modules[name].get("cells", {}).values():
            ctype, conns = cell["type"], cell.get("connections", {})
            sub = modules.get(ctype)
            if sub is not None and "blackbox" not in sub.get("attributes", {}):
                child: dict[int, int] = {}
                for pname, port in sub.get("ports", {}).items():
                    for b, pb in zip(port["bits"], conns.get(pname, [])):
                        g = gid(bitmap, pb)
                        if not isinstance(b, int) or g is None:
                            continue
                        if b in child:  # two ports of the child on one net: merge
                            flat.union(child[b], g)
                        else:
                            child[b] = g
                stack.append((ctype, child))
                continue
            dirs = cell.get("port_directions", {})
            pins = [
                (pname, dirs.get(pname, ""), [gid(bitmap, b) for b in bits])
                for pname, bits in conns.items()
            ]
            flat.cells.append((ctype, cell.get("parameters", {}), pins))
    return flat, outs, top_map


def _kind(ctype: str, params: Mapping[str, Any]) -> tuple[int, int, int]:
    """(kind, weight, start weight): the weight of a combinational arc, and for a sequential
    cell the weight its inputs end with (DSP) and its outputs start with."""
    if ctype in _LUT:
        return _COMB, 1, 0
    if ctype in _MUXF or ctype.startswith(("IBUF", "OBUF", "BUF")):
        return _COMB, 0, 0
    if ctype == "CARRY4":
        return _CARRY, 1, 0
    if ctype == "DSP48E1":
        regs = ("AREG", "BREG", "CREG", "DREG", "ADREG", "MREG", "PREG")
        if not any(_param(params, r) for r in regs):
            return _COMB, 1, 0
        end_w = int(not (_param(params, "AREG") or _param(params, "BREG")))
        return _SEQ, end_w, int(not _param(params, "PREG"))
    return _SEQ, 0, 0


def _matches(name: str, patterns: Sequence[str]) -> bool:
    base = name.split("[", 1)[0]
    return bool(base) and any(fnmatchcase(base, p) for p in patterns)


def _net_names(
    module: Mapping[str, Any], top_map: dict[int, int], find: Any
) -> dict[int, list[str]]:
    """Global net -> the top module's names for it."""
    out: dict[int, list[str]] = {}
    for name, entry in module.get("netnames", {}).items():
        for b in entry.get("bits", []):
            if isinstance(b, int) and b in top_map:
                out.setdefault(find(top_map[b]), []).append(name)
    return out


def netlist_depth(
    netlist: Mapping[str, Any], top: str, groups: Mapping[str, Sequence[str]] | None = None
) -> Depth:
    """The weighted longest path of module ``top`` of a ``write_json`` netlist.

    ``groups`` (name -> shell-style patterns, as Yosys selects wires): the depth of the longest
    path that ends in a sequential cell whose output net's name in ``top`` (without its bit
    index) matches one of the group's patterns; a group no register matches is left out.
    """
    modules = netlist["modules"]
    flat, top_outs, top_map = _flatten(modules, top)
    find = flat.find
    n_nets = len(flat.parent)
    # Per cell: kind, weight, input (net, weight or -1 for a chain pin) list, output nets.
    kinds: list[int] = []
    ins: list[list[tuple[int, int]]] = []
    outs: list[list[int]] = []
    driver = [-1] * n_nets  # combinational cell driving the net
    co_net = bytearray(n_nets)  # driven by a CARRY4's CO
    depth = [0] * n_nets
    maxc = [0] * n_nets  # chain of the best path to the net
    run = [0] * n_nets  # CARRY4 cells of the chain the net's CO ends (0: not a CO)
    ends: list[tuple[int, int]] = [(find(g), 0) for g in top_outs if g is not None]
    patterns = list((groups or {}).items())
    names = _net_names(modules[top], top_map, find) if patterns else {}
    group_ends: dict[str, list[tuple[int, int]]] = {}
    for ctype, params, pins in flat.cells:
        lutram = LUTRAM_RE.match(ctype) is not None
        kind, w, start_w = (_COMB, 1, 0) if lutram else _kind(ctype, params)
        c_in: list[tuple[int, int]] = []
        c_out: list[int] = []
        seq_ins: list[tuple[int, int]] = []
        for pname, direction, nets in pins:
            for g in nets:
                if g is None:
                    continue
                g = find(g)
                if direction == "output":
                    c_out.append(g)
                    if ctype == "CARRY4" and pname == "CO":
                        co_net[g] = 1
                elif direction == "input":
                    if kind == _SEQ:
                        ends.append((g, w))
                        seq_ins.append((g, w))
                    elif lutram and not _ADDR_RE.match(pname):
                        ends.append((g, 0))  # write data, enable and clock
                    else:
                        c_in.append((g, -1 if kind == _CARRY and pname in _CHAIN_PINS else w))
        if kind == _SEQ:
            for g in c_out:
                depth[g] = max(depth[g], start_w)
            for label, pattern in patterns:
                if any(_matches(nm, pattern) for g in c_out for nm in names.get(g, ())):
                    group_ends.setdefault(label, []).extend(seq_ins)
            continue
        idx = len(kinds)
        kinds.append(kind)
        ins.append(c_in)
        outs.append(c_out)
        for g in c_out:
            driver[g] = idx
    n_cells = len(kinds)
    # Kahn's algorithm over the combinational cells.
    indeg = [0] * n_cells
    readers: list[list[int]] = [[] for _ in range(n_nets)]
    for idx, c_in in enumerate(ins):
        for g, _w in c_in:
            if driver[g] >= 0:
                indeg[idx] += 1
                readers[g].append(idx)
    queue = deque(i for i in range(n_cells) if indeg[i] == 0)
    done = 0
    while queue:
        idx = queue.popleft()
        done += 1
        best_d, best_c, best_r = -1, -1, 0
        for g, w in ins[idx]:
            if w < 0:  # CI/CYINIT of a CARRY4
                if co_net[g]:
                    d, r = depth[g], run[g] + 1
                else:
                    d, r = depth[g] + 1, 1
                c = max(maxc[g], r)
            else:
                d, r = depth[g] + w, 1
                c = max(maxc[g], 1) if kinds[idx] == _CARRY else maxc[g]
            if (d, c) > (best_d, best_c):
                best_d, best_c, best_r = d, c, r
        if best_d < 0:  # inputs all constant
            carry = kinds[idx] == _CARRY
            best_d, best_c, best_r = 0, int(carry), int(carry)
        for g in outs[idx]:
            depth[g], maxc[g], run[g] = best_d, best_c, best_r
            for reader in readers[g]:
                indeg[reader] -= 1
                if indeg[reader] == 0:
                    queue.append(reader)
    best = (0, 0)
    for g, w in ends:
        best = max(best, (depth[g] + w, maxc[g]))
    per_group = {label: max(depth[g] + w for g, w in e) for label, e in group_ends.items() if e}
    return Depth(best[0], best[1], len(flat.cells), n_cells - done, per_group)
