"""Test vectors: the one Python loader and writer for ``vectors/*.jsonl``.

Format (JSON Lines, one record per line). Big integers are JSON strings in lower-case ``0x`` hex;
small integers (parameters, counts) may be plain JSON numbers. Every record has ``"kind"``:

* ``"mul"``: ``algo``, ``params`` (resolved), ``modulus``, ``x``, ``y``, ``r`` (the Montgomery
  constant), ``result`` (the algorithm's exact output, ``result == x*y*r^-1 mod modulus``,
  ``0 <= result < bound*modulus``), ``bound``; optional ``note`` and ``trace``.
* ``"cycles"``: ``algo``, ``params``, ``quantity``, ``cycles``: a cycle count of a model.
* ``"reject"``: ``algo``, ``params``, ``modulus`` (and optional ``x``, ``y``): inputs that must be
  rejected, with ``error`` naming the montlab.errors class.
* ``"table"``: ``algo``, ``name``, ``entries``: a lookup table of a model.
* ``"digits"``: ``x``, ``u``, ``standard`` and ``redundant`` digit vectors (FMLM3 eq. (17)).
* ``"reduce"``: ``v``, ``A``, ``result``, ``printed``: ISM3 Algorithm 1 mod 2^v + 1.
* ``"field"``: identities of the NTT64 prime and its 1024th root of unity.

Negative integers (signed trace values) are written as ``-0x`` hex.

The Rust tests read the same files through their own single loader
(crates/montlab-core/tests/common/vectors.rs); the RTL tests import this module.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any, Iterable, Iterator

from montlab import registry
from montlab.api import Modulus, config_params
from montlab.testing import edge_moduli_for, edge_operands, random_modulus_for

_HEX = re.compile(r"^-?0x[0-9a-f]+$")


def vectors_dir() -> Path:
    """The repository's ``vectors/`` folder (``MONTLAB_VECTORS`` overrides it)."""
    env = os.environ.get("MONTLAB_VECTORS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "vectors"


def _decode(value: Any) -> Any:
    if isinstance(value, str) and _HEX.match(value):
        return int(value, 16)
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        return {k: _decode(v) for k, v in value.items()}
    return value


def hexify(value: Any) -> Any:
    """Integers to 0x-hex strings, recursively through lists and dicts (bools are kept)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return hex(value)
    if isinstance(value, list):
        return [hexify(v) for v in value]
    if isinstance(value, dict):
        return {k: hexify(v) for k, v in value.items()}
    return value


def encode_record(record: dict[str, Any]) -> str:
    """One JSON line: big integers as 0x-hex strings, ``params`` and small counts as numbers."""
    plain = {"params", "bound", "cycles", "count", "bits"}
    out = {k: (v if k in plain else hexify(v)) for k, v in record.items()}
    return json.dumps(out, separators=(",", ":"))


def open_vector_file(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """The records of one ``.jsonl`` file, with hex strings decoded to ints."""
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{lineno}: not JSON: {exc}") from None
            rec = _decode(rec)
            rec.setdefault("kind", "mul")
            rec["_source"] = f"{Path(path).name}:{lineno}"
            yield rec


def all_vector_files() -> list[Path]:
    return sorted(vectors_dir().glob("*/*.jsonl"))


def load_all(kind: str | None = None, algo: str | None = None) -> list[dict[str, Any]]:
    """Every record under ``vectors/``, optionally filtered by kind and algorithm."""
    out = []
    for path in all_vector_files():
        for rec in open_vector_file(path):
            if kind is not None and rec["kind"] != kind:
                continue
            if algo is not None and rec.get("algo") != algo:
                continue
            out.append(rec)
    return out


def write_vector_file(path: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> int:
    """Write records as JSON Lines; returns how many."""
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        for rec in records:
            f.write(encode_record(rec) + "\n")
            n += 1
    return n


# --- generation --------------------------------------------------------------------------------


def mul_record(
    algo: str,
    modulus: int,
    x: int,
    y: int,
    params: dict[str, Any] | None = None,
    note: str = "",
    trace: bool = False,
    layer: str = "ref",
) -> dict[str, Any]:
    """A ``mul`` record computed by ``algo`` (reference model by default)."""
    m = Modulus(modulus)
    eng = m.engine(algo, layer, **(params or {}))
    tr: list[dict[str, Any]] | None = [] if trace else None
    result = m.mul(x, y, algo, layer, tr, **(params or {}))
    rec: dict[str, Any] = {
        "kind": "mul",
        "algo": algo,
        "params": config_params(algo, eng.config, params or {}),
        "modulus": modulus,
        "x": x,
        "y": y,
        "r": eng.config.r,
        "result": result,
        "bound": eng.config.bound,
    }
    if note:
        rec["note"] = note
    if tr is not None:
        rec["trace"] = tr
    return rec


def random_mul_records(
    algo: str, bits: int, count: int, seed: int, params: dict[str, Any] | None = None
) -> Iterator[dict[str, Any]]:
    """``count`` records with random ``bits``-bit moduli and random in-range operands."""
    rng = random.Random(f"montlab-vectors:{algo}:{bits}:{seed}")
    for _ in range(count):
        n_mod = random_modulus_for(rng, algo, bits, params)
        cfg = Modulus(n_mod).config(algo, **(params or {}))
        hi = cfg.in_bound * n_mod
        yield mul_record(algo, n_mod, rng.randrange(hi), rng.randrange(hi), params, "random")


def edge_mul_records(
    algo: str, bits: int, params: dict[str, Any] | None = None
) -> Iterator[dict[str, Any]]:
    """Records for every structured edge modulus of ``bits`` bits and edge operand pair."""
    for n_mod in edge_moduli_for(algo, bits, params):
        cfg = Modulus(n_mod).config(algo, **(params or {}))
        for x, y in edge_operands(n_mod, cfg.in_bound):
            yield mul_record(algo, n_mod, x, y, params, "edge")


def known_algorithms() -> list[str]:
    return registry.ids()
