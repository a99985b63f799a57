"""``montlab rtl formal-block``: formal checks, for every input, of the combinational Fermat-ring
blocks under ISM3 and FMLM3.

Contract: the block sits in ``rtl/formal/block_formal.v``, whose properties are each block's
function as its paper states it, written with ``%`` on wide integers (SMT ``bvurem``), never
taken from the block. The blocks have no state and the harness's inputs are free, so one
SymbiYosys step (``mode bmc``, depth 1, Boolector) covers every input in the block's contract:
a PASS is a proof at that width. Results go to ``build/rtl/formal-blocks/<block>_<params>/``
(with any counterexample); ``source`` replaces the block's file by text, so a test can inject a
bug. Why not the whole ISM3 and NTT64 designs: their products take hundreds of cycles over RAM
state (NTT64 at 64 points: 941), beyond a bounded check in minutes; nor NTT64's eq. (3)
reduction (``ntt64_reduce``): its remainder by 2^64 - 2^32 + 1, of 192 bits or regrouped to 99,
did not finish in 20 minutes. The simulations check them step by step against the models.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from montlab.errors import ParameterError
from montlab.hw.flow import RTL_DIR, _digest, build_root
from montlab.hw.formal import run_sby

HARNESS = RTL_DIR / "formal" / "block_formal.v"

#: block -> (its file, the harness define, its paper's function)
BLOCKS: dict[str, tuple[Path, str, str]] = {
    "fermat_addsub": (
        RTL_DIR / "common" / "fermat_addsub.v",
        "BLOCK_ADDSUB",
        "a + b, a - b mod 2^K + 1 (ISM3 eq. (3))",
    ),
    "fermat_shift": (
        RTL_DIR / "common" / "fermat_shift.v",
        "BLOCK_SHIFT",
        "x 2^e mod 2^K + 1 (ISM3 Sec. II-B)",
    ),
    "fermat_reduce": (
        RTL_DIR / "common" / "fermat_reduce.v",
        "BLOCK_REDUCE",
        "ISM3 Algorithm 1's step and residue (SPEC 2.5)",
    ),
}
#: The widths a Fermat block is checked at (K >= 2, as the blocks require; the golden
#: expressions stay within 32-bit Verilog integers up to K = 28).
K_RANGE = range(2, 29)


def formal_block(name: str, k: int | None = None, source: str | None = None) -> dict[str, Any]:
    """Proves block ``name`` at ``k`` (default 8) for every input; returns status
    (``PASS`` or ``FAIL``), the failed assertions (harness lines), seconds and the run folder."""
    if name not in BLOCKS:
        raise ParameterError(f"{name}: no block harness (blocks: {', '.join(BLOCKS)})")
    path, define, _ = BLOCKS[name]
    k = 8 if k is None else k
    if k not in K_RANGE:
        raise ParameterError(f"{name}: K = {k} must be in [{K_RANGE[0]}, {K_RANGE[-1]}]")
    tag = f"_K{k}"
    if source is not None:
        tag += f"_mutant{_digest([source])[:8]}"
    folder = build_root() / "formal-blocks" / f"{name}{tag}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    target = folder / path.name
    if source is None:
        shutil.copyfile(path, target)
    else:
        target.write_text(source)
    script = "\n".join(
        [
            "[options]",
            "mode bmc",
            "depth 1",
            "",
            "[engines]",
            "smtbmc boolector",
            "",
            "[script]",
            f"read_verilog -formal -D{define} {HARNESS.name}",
            f"read_verilog -formal {path.name}",
            f"chparam -set K {k} block_formal",
            "prep -top block_formal",
            "",
            "[files]",
            str(HARNESS),
            str(target),
            "",
        ]
    )
    status, text, seconds = run_sby(folder, script, name)
    lines = HARNESS.read_text().splitlines()
    failed = sorted(
        {
            f"block_formal.v:{n}: {lines[int(n) - 1].strip()}"
            for n in re.findall(r"failed assertion .* at block_formal\.v:(\d+)\.", text)
        }
    )
    return {
        "block": name,
        "params": {"K": k},
        "status": status,
        "failed": failed,
        "seconds": seconds,
        "folder": str(folder),
    }


def describe(name: str) -> str:
    """The function the harness checks for ``name``."""
    return BLOCKS[name][2]
