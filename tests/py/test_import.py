"""``import montlab`` has no file-system side effects; the tuned table is read on first use.

HOME points at a folder holding an installed (and broken) threshold table. An audit hook
records every file the interpreter opens or lists under it: importing montlab (and its CLI)
must touch nothing there, and the first ``montlab.FastModulus`` must read the table (and warn
that it does not parse).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

WATCH = """
import json, os, sys, warnings
home = os.environ["HOME"]
seen = []
def hook(event, args):
    if event in ("open", "os.listdir", "os.scandir", "os.mkdir") and args:
        if str(args[0]).startswith(home):
            seen.append([event, str(args[0])])
sys.addaudithook(hook)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import montlab
    import montlab.cli
    at_import = (list(seen), len(caught))
    {use}
print(json.dumps({{"import": at_import, "use": [seen[len(at_import[0]):], len(caught)]}}))
"""


def _watch(tmp_path: Path, use: str) -> dict[str, list[object]]:
    home = tmp_path / "home"
    table = home / ".config" / "montlab" / "thresholds.toml"
    table.parent.mkdir(parents=True)
    table.write_text("[thresholds\nnot toml\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MONTLAB_"))}
    env["HOME"] = str(home)
    res = subprocess.run(
        [sys.executable, "-c", WATCH.format(use=use)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    out: dict[str, list[object]] = json.loads(res.stdout.strip().splitlines()[-1])
    return out


def test_import_touches_nothing_under_home(tmp_path: Path) -> None:
    out = _watch(tmp_path, "pass")
    assert out["import"] == [[], 0], out


def test_first_use_reads_the_table(tmp_path: Path) -> None:
    import montlab._native  # noqa: F401  (built by make test: its absence is a failure)

    out = _watch(tmp_path, "montlab.FastModulus(2**127 - 1)")
    assert out["import"] == [[], 0], out
    opened, warned = out["use"]
    assert any(str(p).endswith("thresholds.toml") for _, p in opened), out  # type: ignore[misc]
    assert warned == 1, out  # the broken table is reported and the generic one used
