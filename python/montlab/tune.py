"""Threshold tuning: where the spectral kernel overtakes the word-level one on this machine.

``montlab._native.FastModulus`` picks its kernel by modulus size from a threshold table: products
(``mul``, ``sqr``, ``mul_many``) run spectral from ``spectral_mul_bits`` on, exponentiations
(``pow``, ``pow_many``) from ``spectral_pow_bits``, constant-time ones (``pow_sec``) from
``spectral_sec_bits``, and short ones (exponents of up to 64 bits on a fresh modulus) on
``ntt_redc`` from ``ntt_redc_pow_bits`` (and ``spectral_pow_bits``: below it they stay on the word
level, so a smaller cut has no effect). The checked-in generic table is the default;
:func:`run_tune` measures the four cut-overs here (or those of ``ops``) and :func:`write_table`
writes a stamped table.

Measurement (:func:`run_tune`):

* one random odd modulus per size (top bit set, seeded by ``(seed, bits)``), operands below it,
  a full-size exponent for ``pow`` and one of ``min(bits, SEC_EXP_BITS)`` bits for ``sec``
  (``pow_sec`` with that ``exp_bits``: both kernels run the same fixed window, so the ratio per
  exponent bit does not depend on its length); both kernels are checked first against Python's
  ``%`` and GMP's ``powmod`` (gmpy2; Python's ``pow`` without it);
* ``short`` is a one-shot ``FastModulus(n).pow(a, 65537)``, setup included, on the word level
  against ``ntt_redc`` (its "spectral" side; the most common public exponent, and the shortest
  that matters: ``ntt_redc`` gains on longer ones);
* each kernel is forced through the table (cut-over 0: spectral; :data:`NEVER`: word-level);
  rounds alternate the two kernels on the same operands, and a sample repeats a call until it
  lasts about ``sample_s``; the figure is the median over rounds of the seconds per call;
* the scan of an operation stops once the spectral kernel has been faster over a whole octave
  (from some size s to 2s). The transform length doubles once per octave, so the pattern of
  ratios repeats, and the spectral kernel's n log n cost only widens its lead beyond.

The spectral kernel's transform length is a power of two, so just above each doubling it pays
for twice the length and can lose again to the word level for a stretch before it wins once
more. The cut-over of ``mul``, ``pow`` and ``sec`` (:func:`switch_points`) is therefore chosen
per transform length: within the sizes measured at one length, the cut that loses least
(:func:`crossover`), the spectral kernel running from it to the end of that length. The table
holds the sizes where the kernel switches on, off, on, ... (an int when it switches once, a list
of at most :data:`MAX_POINTS` otherwise). ``short`` (``ntt_redc``, with its own fill rule) gets
one cut. The grid (:func:`default_sizes`) has 8 sizes per octave and adds the sizes one limb
above each power of two times 64 bits, where the transform length has just doubled and the
spectral kernel is at its slowest relative to the word-level one. An operation left out of
``ops`` keeps the value of the table in force when the run started.

Installed table (:func:`apply_installed`, run once on the first use of the native kernels,
never at import): the path in ``MONTLAB_THRESHOLDS`` (the value ``generic`` forces the generic table), else
``$XDG_CONFIG_HOME/montlab/thresholds.toml`` (``~/.config/...``) if it exists. A table that
does not parse is ignored with a warning. The table is TOML: a ``[stamp]`` (CPU, date, compiler,
target, montlab version, the kernels in use, overrides, commit, command) and ``[thresholds]``
with the keys of :data:`REQUIRED_KEYS` and optionally those of :data:`OPTIONAL_KEYS` (a table
tuned before ``sec`` and ``short`` were measured lacks them: the generic values stand); every
key in the file is applied.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import threading
import tomllib
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from montlab.errors import MontlabError, ParameterError

#: Table value meaning "never spectral" (above every supported size).
NEVER = 2**63 - 1
#: The operations tuned, with their table keys.
KEYS = {
    "mul": "spectral_mul_bits",
    "pow": "spectral_pow_bits",
    "sec": "spectral_sec_bits",
    "short": "ntt_redc_pow_bits",
}
#: Keys whose value may be a list of switch points.
SPECTRAL_KEYS = frozenset({KEYS["mul"], KEYS["pow"], KEYS["sec"]})
#: Why a table key that ``montlab tune`` never measures (the IFMA keys) keeps its value.
NOT_TUNED = "not measured by montlab tune: the table in force"
#: Keys every table sets.
REQUIRED_KEYS = frozenset({KEYS["mul"], KEYS["pow"]})
#: Keys a table may also set (the generic value stands when absent): tables tuned before
#: ``sec`` and ``short`` were measured lack them, and the IFMA keys (where word-level products
#: on ints and on residues move to ``amm`` on CPUs with AVX-512 IFMA) are not measured here.
IFMA_KEYS = frozenset({"ifma_mul_bits", "ifma_residue_bits"})
OPTIONAL_KEYS = frozenset({KEYS["short"], KEYS["sec"]}) | IFMA_KEYS
#: Exponent length of the ``sec`` measurement (``pow_sec``'s ``exp_bits``), below at most.
SEC_EXP_BITS = 2048
#: The exponent of the ``short`` measurement.
SHORT_EXP = 65537
#: Environment variable naming the table to apply (or ``generic``).
ENV = "MONTLAB_THRESHOLDS"
#: Smallest size accepted (the spectral kernel needs a transform of at least 2 limbs).
MIN_BITS = 128
#: The most switch points a spectral cut-over holds (the engine's ``Cut::MAX_POINTS``).
MAX_POINTS = 8
#: Least gain of a new stretch of either kernel (time saved over the other kernel, summed over
#: its sizes as log ratios): 5 %, about the noise of these runs, so that one size that wins by
#: noise adds no switch points.
MIN_GAIN = math.log(1 / 0.95)
#: A spectral cut-over: the size from which the spectral kernel runs, or the sizes at which it
#: switches on, off, on, ... (strictly increasing).
CutValue = int | list[int]


def spectral_on(cut: CutValue, bits: int) -> bool:
    """True when a modulus of ``bits`` bits runs spectral under ``cut`` (an odd number of its
    switch points are at most ``bits``)."""
    points = [cut] if isinstance(cut, int) else cut
    return sum(p <= bits for p in points) % 2 == 1


def first_point(cut: CutValue) -> int:
    """The smallest size that runs spectral under ``cut``."""
    return cut if isinstance(cut, int) else cut[0]


@dataclass(frozen=True)
class TuneConfig:
    """What :func:`run_tune` measures (build it with :func:`make_config`)."""

    sizes: tuple[int, ...]
    rounds: int = 5
    sample_s: float = 0.02
    seed: int = 0
    command: str = "montlab tune"
    ops: tuple[str, ...] = tuple(KEYS)


def default_sizes(
    lo: int, hi: int, step: int | None = None, per_octave: int = 8
) -> tuple[int, ...]:
    """The grid: ``lo, lo + step, ... <= hi``, or without ``step`` ``per_octave`` sizes per
    doubling (multiples of 64), plus ``64 (2^k + 1)`` for every power of two in range."""
    if step is not None:
        sizes = set(range(lo, hi + 1, step))
    else:
        sizes = {lo, hi}
        i = 0
        while (b := round(lo * 2 ** (i / per_octave) / 64) * 64) < hi:
            sizes.add(max(b, lo))
            i += 1
    k = 64
    while k <= hi:
        if lo <= k + 64 <= hi:
            sizes.add(k + 64)
        k *= 2
    return tuple(sorted(sizes))


def make_config(
    lo: int | None = None,
    hi: int | None = None,
    step: int | None = None,
    rounds: int | None = None,
    sample_s: float | None = None,
    seed: int = 0,
    quick: bool = False,
    ops: tuple[str, ...] | None = None,
) -> TuneConfig:
    """A checked configuration: by default 1024 to 32768 bits, 8 sizes per octave, 5 rounds,
    every operation of :data:`KEYS`; ``quick``: 1024 to 8192 bits, 4 per octave, 3 rounds;
    ``step``: a linear grid instead; ``ops``: only these operations."""
    lo = lo if lo is not None else 1024
    hi = hi if hi is not None else (8192 if quick else 32768)
    rounds = rounds if rounds is not None else (3 if quick else 5)
    sample_s = sample_s if sample_s is not None else (0.01 if quick else 0.02)
    if lo < MIN_BITS:
        raise ParameterError(f"--from must be >= {MIN_BITS} bits, got {lo}")
    if hi < lo:
        raise ParameterError(f"--to ({hi}) must be >= --from ({lo})")
    if step is not None and step < 1:
        raise ParameterError(f"--step must be >= 1, got {step}")
    if rounds < 1:
        raise ParameterError(f"--rounds must be >= 1, got {rounds}")
    if not sample_s > 0:
        raise ParameterError(f"--sample must be > 0, got {sample_s}")
    ops = tuple(KEYS) if ops is None else ops
    if not ops or any(op not in KEYS for op in ops) or len(set(ops)) != len(ops):
        raise ParameterError(
            f"--ops must name distinct operations among {', '.join(KEYS)}, got {','.join(ops)}"
        )
    ops = tuple(op for op in KEYS if op in ops)
    per_octave = 4 if quick else 8
    grid = f"--step {step}" if step is not None else ("--quick" if quick else "")
    parts = [f"montlab tune --from {lo} --to {hi}", grid]
    parts.append(f"--rounds {rounds} --sample {sample_s:g} --seed {seed}")
    if ops != tuple(KEYS):
        parts.append(f"--ops {','.join(ops)}")
    return TuneConfig(
        default_sizes(lo, hi, step, per_octave),
        rounds,
        sample_s,
        seed,
        " ".join(p for p in parts if p),
        ops,
    )


@dataclass(frozen=True)
class Point:
    """Median seconds per call of one operation at one size, word-level and spectral."""

    op: str
    bits: int
    transform_len: int
    word_s: float
    spectral_s: float

    @property
    def ratio(self) -> float:
        """spectral / word-level: below 1 the spectral kernel is faster."""
        return self.spectral_s / self.word_s


@dataclass
class TuneReport:
    config: TuneConfig
    points: list[Point] = field(default_factory=list)
    stamp: dict[str, Any] = field(default_factory=dict)
    #: Table keys not measured, with the value written and why (``ops``, or the engine).
    kept: dict[str, tuple[CutValue, str]] = field(default_factory=dict)

    def of(self, op: str) -> list[Point]:
        return sorted((p for p in self.points if p.op == op), key=lambda p: p.bits)

    def thresholds(self) -> dict[str, CutValue]:
        def measured(op: str) -> CutValue:
            return crossover(self.of(op)) if op == "short" else switch_points(self.of(op))

        th = {k: self.kept[k][0] if k in self.kept else measured(op) for op, k in KEYS.items()}
        return th | {k: v for k, (v, _) in self.kept.items() if k not in th}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TuneReport:
        """The report of a run saved by :meth:`as_dict` (``montlab tune --json``), to pick the
        cut-overs again from its measurements under the current rule; :class:`ParameterError`
        if it is not one."""
        try:
            c = data["config"]
            ops = tuple(op for op in KEYS if op in c.get("ops", KEYS))
            config = TuneConfig(
                tuple(int(b) for b in c["sizes"]),
                int(c["rounds"]),
                float(c["sample_s"]),
                int(c["seed"]),
                str(data["stamp"].get("command", "montlab tune")),
                ops,
            )
            points = [
                Point(
                    str(p["op"]),
                    int(p["bits"]),
                    int(p["transform_len"]),
                    float(p["word_s"]),
                    float(p["spectral_s"]),
                )
                for p in data["points"]
            ]
            kept = {k: (v["value"], str(v["why"])) for k, v in data.get("not_measured", {}).items()}
            stamp = dict(data["stamp"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ParameterError(f"not a montlab tune report: {exc!r}") from None
        if any(p.op not in KEYS or not p.word_s > 0 or not p.spectral_s > 0 for p in points):
            raise ParameterError("not a montlab tune report: a point of an unknown operation")
        known = REQUIRED_KEYS | OPTIONAL_KEYS
        if any(k not in known or not _valid(k, v) for k, (v, _) in kept.items()):
            raise ParameterError("not a montlab tune report: a bad value not measured")
        return cls(config, points, stamp, kept)

    def as_dict(self) -> dict[str, Any]:
        return {
            "config": {
                "sizes": list(self.config.sizes),
                "rounds": self.config.rounds,
                "sample_s": self.config.sample_s,
                "seed": self.config.seed,
                "ops": list(self.config.ops),
                "sec_exp_bits": SEC_EXP_BITS,
            },
            "stamp": self.stamp,
            "thresholds": self.thresholds(),
            "not_measured": {k: {"value": v, "why": why} for k, (v, why) in self.kept.items()},
            "points": [
                {
                    "op": p.op,
                    "bits": p.bits,
                    "transform_len": p.transform_len,
                    "word_s": p.word_s,
                    "spectral_s": p.spectral_s,
                    "ratio": p.ratio,
                }
                for p in sorted(self.points, key=lambda p: (p.op, p.bits))
            ],
        }


def crossover(points: list[Point]) -> int:
    """The single cut-over that loses least against always taking the faster kernel.

    A cut c sends every measured size >= c to the spectral kernel and the rest to the
    word-level one; its loss is the sum over sizes of log(chosen time / faster time), each
    size weighted alike (the grid is geometric). Candidates are the measured sizes, and
    :data:`NEVER` unless the spectral kernel won at the largest one (beyond the grid it only
    gains). Ties go to the larger cut. Where the ratios cross once, this is the first size of
    the spectral run; where a doubled transform length makes spectral lose again for a while,
    it weighs the sizes on both sides.
    """
    pts = sorted(points, key=lambda p: p.bits)
    if not pts:
        return NEVER
    cands = [p.bits for p in pts] + ([NEVER] if pts[-1].ratio >= 1.0 else [])

    def loss(cut: int) -> float:
        return sum(
            math.log(max(p.ratio, 1.0)) if p.bits >= cut else math.log(max(1 / p.ratio, 1.0))
            for p in pts
        )

    return min(reversed(cands), key=loss)


def switch_points(points: list[Point]) -> CutValue:
    """Where the spectral kernel runs, chosen per transform length (see the module contract).

    The sizes measured at one transform length form a band; in each, :func:`crossover` picks
    the cut from which the spectral kernel runs to the band's end (or none). A switch must
    gain at least :data:`MIN_GAIN`: a stretch of the spectral kernel that starts after the word
    level, over the word level, and a stretch of the word level inside a spectral run, over
    the spectral kernel; else the kernel in use stays. The kernel switches off one bit above a
    band's largest measured size when the next band does not run spectral from its first size
    (sizes between two measured ones go to the word level, the safe side). Beyond
    :data:`MAX_POINTS` switch points the earliest stretches are dropped (the spectral kernel
    gains least there). One switch point is returned as an int, none as
    :data:`NEVER`.
    """
    bands: list[list[Point]] = []
    for p in sorted(points, key=lambda p: p.bits):
        if bands and bands[-1][0].transform_len == p.transform_len:
            bands[-1].append(p)
        else:
            bands.append([p])
    out: list[int] = []
    on = False
    for prev, band in zip([None, *bands], bands):
        cut = crossover(band)
        if on and sum(math.log(p.ratio) for p in band if p.bits < cut) < MIN_GAIN:
            cut = band[0].bits  # the word level would gain too little: stay spectral
        stays = on and cut == band[0].bits
        if not stays and sum(math.log(1 / p.ratio) for p in band if p.bits >= cut) < MIN_GAIN:
            cut = NEVER
        if on and not stays:
            assert prev is not None
            out.append(prev[-1].bits + 1)
            on = False
        if cut != NEVER and not stays:
            out.append(cut)
            on = True
    while len(out) > MAX_POINTS:
        del out[:2]
    if not out:
        return NEVER
    return out[0] if len(out) == 1 else out


def octave_won(points: list[Point]) -> bool:
    """True when the spectral kernel won every size of a run that spans s to 2s."""
    pts = sorted(points, key=lambda p: p.bits)
    start = None
    for p in pts:
        if p.ratio >= 1.0:
            start = None
            continue
        start = p.bits if start is None else start
        if p.bits >= 2 * start:
            return True
    return False


def _table_text(th: dict[str, CutValue]) -> str:
    return "".join(f"{k} = {v}\n" for k, v in th.items())


class _Forced:
    """Builds FastModulus objects with one kernel forced; restores the table in force."""

    def __init__(self, native: Any) -> None:
        self.native = native
        self.saved = native.thresholds()

    def make(self, n: int, spectral: bool) -> Any:
        cut = 0 if spectral else NEVER
        others = {k: v for k, v in self.saved.items() if k not in KEYS.values()}
        self.native.set_thresholds(_table_text(dict.fromkeys(KEYS.values(), cut) | others))
        try:
            return self.native.FastModulus(n)
        finally:
            self.restore()

    def restore(self) -> None:
        self.native.set_thresholds(_table_text(self.saved))


@dataclass(frozen=True)
class _Case:
    n: int
    a: int
    b: int
    e: int  # full length, for pow
    e_sec: int  # min(bits, SEC_EXP_BITS) bits, for pow_sec

    def calls(self, m: Any, fresh: Callable[[], Any]) -> dict[str, Callable[[], object]]:
        """The timed calls on ``m``; ``short`` builds its FastModulus with ``fresh``."""
        sec_bits = self.e_sec.bit_length()
        return {
            "mul": lambda: m.mul(self.a, self.b),
            "pow": lambda: m.pow(self.a, self.e),
            "sec": lambda: m.pow_sec(self.a, self.e_sec, exp_bits=sec_bits),
            "short": lambda: fresh().pow(self.a, SHORT_EXP),
        }

    def want(self, op: str) -> int:
        """The expected result of ``op`` (GMP's ``powmod`` where installed: CPython's ``pow``
        takes minutes on a full-size exponent at 32768 bits)."""
        from montlab.testing import oracle_pow

        if op == "mul":
            return self.a * self.b % self.n
        return oracle_pow(self.a, {"pow": self.e, "sec": self.e_sec}.get(op, SHORT_EXP), self.n)


def _case(bits: int, seed: int) -> _Case:
    rng = random.Random(f"montlab-tune-{seed}-{bits}")
    n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
    e = rng.getrandbits(bits) | (1 << (bits - 1))
    a, b = rng.randrange(n), rng.randrange(n)
    sec = min(bits, SEC_EXP_BITS)
    return _Case(n, a, b, e, rng.getrandbits(sec) | (1 << (sec - 1)))


def _measure(
    calls: dict[str, Callable[[], object]], rounds: int, sample_s: float
) -> dict[str, float]:
    """Median seconds per call of each callable, in alternating rounds."""
    from montlab.bench.core import calibrate, time_calls

    reps = {k: calibrate(c, sample_s)[0] for k, c in calls.items()}
    samples: dict[str, list[float]] = {k: [] for k in calls}
    order = list(calls)
    for r in range(rounds):
        for k in order if r % 2 == 0 else reversed(order):
            samples[k].append(time_calls(calls[k], reps[k]) / reps[k])
    return {k: statistics.median(v) for k, v in samples.items()}


#: Environment variables that change which kernels run; a stamp lists those set.
OVERRIDES = ("MONTLAB_NO_IFMA", "MONTLAB_NO_ADX", "MONTLAB_NO_AVX2")


def stamp(command: str) -> dict[str, Any]:
    """Where and how a table was measured: CPU, date, compiler, build, the kernels in use (IFMA,
    MULX/ADX rows, AVX2 transforms, the overrides set), the commit and the command."""
    from montlab import __version__, _native
    from montlab.bench.core import cpu_info
    from montlab.provenance import git_commit

    cpu = cpu_info()
    commit = git_commit()
    return {
        "cpu": cpu["model"],
        "cpu_flags": ", ".join(cpu["flags"]),
        "cores": cpu["cores"] or 0,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "compiler": _native.BUILD["rustc"],
        "target": _native.BUILD["target"],
        "profile": _native.BUILD["profile"],
        "montlab": __version__,
        "ifma": bool(_native.IFMA),
        "adx": bool(_native.ADX),
        "avx2": bool(_native.AVX2),
        "overrides": " ".join(f"{k}={os.environ[k]}" for k in OVERRIDES if k in os.environ),
        **({"commit": commit} if commit else {}),
        "python": sys.version.split()[0],
        "command": command,
    }


def run_tune(
    config: TuneConfig,
    notify: Callable[[str], None] = lambda _text: None,
    advance: Callable[[], None] = lambda: None,
) -> TuneReport:
    """Measures both kernels over the grid (see the module contract)."""
    try:
        from montlab import _native
    except ImportError as exc:  # pragma: no cover - the extension is built by make
        raise MontlabError(f"montlab tune needs the native extension: {exc}") from None
    report = TuneReport(config, stamp=stamp(config.command))
    forced = _Forced(_native)
    for op in KEYS:
        if op not in config.ops:
            value = _clamp(forced.saved[KEYS[op]])
            report.kept[KEYS[op]] = (value, "not in --ops: the table in force")
    for k in IFMA_KEYS:
        if k in forced.saved:
            report.kept[k] = (_clamp(forced.saved[k]), NOT_TUNED)
    live = set(config.ops)
    try:
        for bits in config.sizes:
            if live:
                _measure_size(report, forced, bits, live, notify)
                for op in list(live):
                    if octave_won(report.of(op)):
                        live.discard(op)
            advance()
    finally:
        forced.restore()
    return report


def _measure_size(
    report: TuneReport, forced: _Forced, bits: int, live: set[str], notify: Callable[[str], None]
) -> None:
    config = report.config
    case = _case(bits, config.seed)
    word, spec = forced.make(case.n, spectral=False), forced.make(case.n, spectral=True)
    if spec.mul_kernel != "spectral":  # N shares a factor with every 2^l + 1 tried
        case = _case(bits, config.seed + 1)
        word, spec = forced.make(case.n, spectral=False), forced.make(case.n, spectral=True)
    if word.mul_kernel not in ("amm", "cios") or spec.mul_kernel != "spectral":
        raise MontlabError(f"{bits} bits: could not force the two kernels")
    if word.pow_sec_kernel not in ("amm", "cios") or spec.pow_sec_kernel != "spectral":
        raise MontlabError(f"{bits} bits: could not force pow_sec onto the two kernels")
    fresh_word = lambda: forced.make(case.n, spectral=False)  # noqa: E731
    fresh_spec = lambda: forced.make(case.n, spectral=True)  # noqa: E731
    # A fresh one: once ``spectral`` is built (``mul_kernel`` above), short exponents run on it.
    if fresh_word().pow_kernel_for(SHORT_EXP) not in ("amm", "cios") or (
        "short" in live and fresh_spec().pow_kernel_for(SHORT_EXP) != "ntt_redc"
    ):
        raise MontlabError(f"{bits} bits: could not force the short exponentiation's kernels")
    word_calls, spec_calls = case.calls(word, fresh_word), case.calls(spec, fresh_spec)
    for op in (op for op in KEYS if op in live):
        want = case.want(op)
        for name, calls in (("word-level", word_calls), ("spectral", spec_calls)):
            if calls[op]() != want:
                raise MontlabError(f"{bits} bits: the {name} kernel gave a wrong {op} result")
    for op in (op for op in KEYS if op in live):
        notify(f"{bits} bits: {op}")
        t = _measure(
            {"word": word_calls[op], "spectral": spec_calls[op]},
            config.rounds,
            config.sample_s,
        )
        plen = _ntt_redc_len(case.n) if op == "short" else spec.transform_len
        report.points.append(Point(op, bits, plen, t["word"], t["spectral"]))


def _clamp(cut: CutValue) -> CutValue:
    """``cut`` with the engine's "never" (which may be 2^64 - 1) as :data:`NEVER`."""
    if isinstance(cut, int):
        return min(cut, NEVER)
    return [min(p, NEVER) for p in cut]


def _ntt_redc_len(n: int) -> int:
    from montlab import _native

    return int(_native.NttRedc(n).transform_len)


# --- the table file -------------------------------------------------------------------------


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def table_text(report: TuneReport) -> str:
    """The stamped table, with the measured ratios as comments."""
    lines = [
        "# montlab threshold table, measured by `montlab tune` (format: montlab.tune).",
        "[stamp]",
        *(f"{k} = {_toml_value(v)}" for k, v in report.stamp.items()),
        "",
        "[thresholds]",
        *(f"{k} = {v}" for k, v in report.thresholds().items()),
        "",
        *(f"# {k}: not measured ({why})" for k, (_, why) in report.kept.items()),
        *(
            [f"# sec: pow_sec with an exponent of min(bits, {SEC_EXP_BITS}) bits"]
            * bool(report.of("sec"))
        ),
        *(
            [f"# short: one-shot FastModulus(n).pow(a, {SHORT_EXP}); spectral = ntt_redc"]
            * bool(report.of("short"))
        ),
        "# op   bits  transform  word (s)  spectral (s)  spectral/word",
    ]
    for op in KEYS:
        for p in report.of(op):
            lines.append(
                f"# {op:<4} {p.bits:>5} {p.transform_len:>10} {p.word_s:>9.3g}"
                f" {p.spectral_s:>13.3g} {p.ratio:>14.2f}"
            )
    return "\n".join(lines) + "\n"


def _valid(key: str, v: Any) -> bool:
    """An integer in [0, 2^63), or for a spectral key a list of 1 to :data:`MAX_POINTS` such
    integers, strictly increasing."""

    def whole(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= NEVER

    if isinstance(v, list) and key in SPECTRAL_KEYS:
        return (
            1 <= len(v) <= MAX_POINTS
            and all(map(whole, v))
            and all(a < b for a, b in zip(v, v[1:]))
        )
    return whole(v)


def read_table(path: Path) -> tuple[dict[str, CutValue], dict[str, Any]]:
    """(thresholds, stamp) of a table file; :class:`ParameterError` if it is malformed."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8, or not TOML
        raise ParameterError(f"threshold table {path}: {exc}") from None
    th = data.get("thresholds")
    if not isinstance(th, dict) or not REQUIRED_KEYS <= set(th) <= REQUIRED_KEYS | OPTIONAL_KEYS:
        raise ParameterError(
            f"threshold table {path}: needs a [thresholds] table with "
            + ", ".join(sorted(REQUIRED_KEYS))
            + " and optionally "
            + ", ".join(sorted(OPTIONAL_KEYS))
        )
    for k, v in th.items():
        if not _valid(k, v):
            raise ParameterError(
                f"threshold table {path}: {k} must be an integer in [0, 2^63)"
                + (
                    f", or a list of 1 to {MAX_POINTS} such integers, increasing"
                    if k in SPECTRAL_KEYS
                    else ""
                )
            )
    st = data.get("stamp", {})
    return dict(th), st if isinstance(st, dict) else {}


def write_table(report: TuneReport, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(table_text(report))
    read_table(path)  # what was written reads back


def installed_path() -> Path:
    """Where ``montlab tune`` writes and ``montlab`` reads the tuned table by default."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "montlab" / "thresholds.toml"


#: Where the table in force came from: "generic", or the path of the table applied.
SOURCE = "generic"


def apply_table(path: Path) -> dict[str, CutValue]:
    """Makes the table at ``path`` the one new FastModulus objects and ``powm`` use."""
    global SOURCE
    from montlab import _native

    th, _ = read_table(path)
    _native.set_thresholds(_table_text(th))
    SOURCE = str(path)
    return th


def apply_installed() -> str:
    """Applies ``MONTLAB_THRESHOLDS`` or the installed table if any; returns the source."""
    global SOURCE
    env = os.environ.get(ENV, "").strip()
    path = None if env == "generic" else Path(env) if env else installed_path()
    try:
        from montlab import _native
    except ImportError:
        return SOURCE
    _native.set_thresholds(None)
    SOURCE = "generic"
    if path is None or (not env and not path.exists()):
        return SOURCE
    try:
        apply_table(path)
    except MontlabError as exc:
        warnings.warn(f"montlab: using the generic thresholds: {exc}", stacklevel=2)
    return SOURCE


_APPLIED = threading.Lock()
_applied = False


def ensure_applied() -> str:
    """:func:`apply_installed`, once, on the first use of the native kernels (importing montlab
    reads no file); returns the source of the table in force."""
    global _applied
    with _APPLIED:
        if not _applied:
            _applied = True
            apply_installed()
    return SOURCE
