"""The benchmark runner: operands, the correctness check, interleaved timed rounds, medians.

Contract. :func:`run_bench` measures every operation of ``config.ops`` at every size of
``config.sizes`` (ascending) for montlab and each peer, and returns a :class:`BenchReport`.
Per (operation, size) block:

1. One random odd modulus N of exactly ``bits`` bits, operands in [0, N) and one full-size
   exponent (``bits`` bits, top bit set), drawn from ``random.Random`` seeded with
   ``(seed, bits)``; every implementation gets the same operands (the batch's first base is the
   modexp base).
2. The expected value comes from Python (``a*b % n``, ``pow(b, e, n)``). Above
   :data:`POW_ORACLE_MAX_BITS` bits Python's ``pow`` takes minutes per call, so ``gmpy2.powmod``
   (GMP) is the modexp oracle there when installed; the report says which oracle was used.
3. An implementation whose call is predicted (from the two previous sizes) to take longer than
   ``max_call_s`` is skipped with a note; so is one that does not offer the operation.
4. Check round: each implementation is called once and its result compared with the expected
   value. A wrong result or an exception makes that entry an error, never a figure. A check
   call of at least :data:`WARM_SAMPLE_S` counts as the first timed sample (warm-up effects are
   far below noise there); one longer than ``max_call_s`` is the only sample.
5. Fast calls are repeated so that one sample lasts about ``sample_s``. The number of rounds is
   ``rounds``, reduced so that the block's estimated time stays under ``budget_s`` but never
   below ``min_rounds``.
6. Rounds are interleaved: each round times every implementation once, the starting one
   rotating, so drift on a shared machine hits every implementation alike. The garbage
   collector is off while timing.

Figures are seconds per operation (per modexp for ``batch``): the median over rounds. The
ratio is montlab's median divided by the peer's: below 1, montlab is faster.
"""

from __future__ import annotations

import datetime
import gc
import importlib
import importlib.util
import itertools
import math
import os
import platform
import random
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from montlab.bench.impls import (
    DEFAULT_OPS,
    DEFAULT_PEERS,
    NATIVE_PEERS,
    OPS,
    PEERS,
    Bound,
    Case,
    Impl,
    Unavailable,
    Unsupported,
    load_montlab,
)
from montlab.errors import ParameterError

#: Default operand sizes in bits.
DEFAULT_SIZES = (2048, 4096, 8192, 16384, 32768, 65536)
#: Sizes of ``--quick``.
QUICK_SIZES = (2048, 4096, 8192)
#: Smallest size accepted.
MIN_BITS = 64
#: Largest size at which Python's pow is the modexp oracle (above it: gmpy2.powmod, if installed).
POW_ORACLE_MAX_BITS = 16384
#: A check call at least this long (seconds) counts as the first timed sample.
WARM_SAMPLE_S = 0.5
#: /proc/cpuinfo flags worth recording for big-integer arithmetic.
CPU_FLAGS = ("bmi2", "adx", "avx2", "avx512f", "avx512ifma", "avx512vl")
#: Growth exponent (time ~ bits^k) assumed when only one smaller size has been measured.
DEFAULT_GROWTH = {"modmul": 2.0, "modexp": 3.0, "batch": 3.0, "modexp_sec": 3.0}


@dataclass(frozen=True)
class Timing:
    """How much to measure; see the module contract for each field."""

    rounds: int
    min_rounds: int
    budget_s: float
    max_call_s: float
    sample_s: float


DEFAULT_TIMING = Timing(rounds=7, min_rounds=3, budget_s=60.0, max_call_s=30.0, sample_s=0.05)
QUICK_TIMING = Timing(rounds=3, min_rounds=1, budget_s=3.0, max_call_s=5.0, sample_s=0.01)


def default_batch() -> int:
    """Bases per batch: one per core, at least 2."""
    return max(2, os.cpu_count() or 1)


@dataclass(frozen=True)
class BenchConfig:
    """A validated benchmark configuration (build it with :func:`make_config`)."""

    sizes: tuple[int, ...] = DEFAULT_SIZES
    peers: tuple[str, ...] = DEFAULT_PEERS
    ops: tuple[str, ...] = DEFAULT_OPS
    timing: Timing = DEFAULT_TIMING
    batch: int = field(default_factory=default_batch)
    seed: int = 0
    quick: bool = False

    def command(self) -> str:
        """The command line that repeats this configuration, every setting explicit."""
        t = self.timing
        return " ".join(
            [
                "montlab bench",
                f"--sizes {','.join(map(str, self.sizes))}",
                f"--peers {','.join(self.peers)}" if self.peers else "--peers ''",
                f"--ops {','.join(self.ops)}",
                f"--rounds {t.rounds} --min-rounds {t.min_rounds}",
                f"--budget {t.budget_s:g} --max-call {t.max_call_s:g} --sample {t.sample_s:g}",
                f"--batch {self.batch} --seed {self.seed}",
            ]
        )

    def as_dict(self) -> dict[str, Any]:
        t = self.timing
        return {
            "sizes": list(self.sizes),
            "peers": list(self.peers),
            "ops": list(self.ops),
            "rounds": t.rounds,
            "min_rounds": t.min_rounds,
            "budget_s": t.budget_s,
            "max_call_s": t.max_call_s,
            "sample_s": t.sample_s,
            "batch": self.batch,
            "seed": self.seed,
            "quick": self.quick,
        }


def _split(texts: Iterable[str]) -> list[str]:
    return [part.strip() for text in texts for part in text.split(",") if part.strip()]


def parse_sizes(texts: Iterable[str]) -> tuple[int, ...]:
    """Sizes from comma-separated texts: integers >= MIN_BITS, deduplicated, ascending."""
    sizes = set()
    for part in _split(texts):
        try:
            bits = int(part, 0)
        except ValueError:
            raise ParameterError(f"--sizes: {part!r} is not an integer") from None
        if bits < MIN_BITS:
            raise ParameterError(f"--sizes: {bits} is below the minimum of {MIN_BITS} bits")
        sizes.add(bits)
    if not sizes:
        raise ParameterError("--sizes: no size given")
    return tuple(sorted(sizes))


def parse_names(texts: Iterable[str], allowed: Sequence[str], option: str) -> tuple[str, ...]:
    """Names from comma-separated texts, each in ``allowed``, kept in ``allowed`` order."""
    names = _split(texts)
    for name in names:
        if name not in allowed:
            raise ParameterError(f"{option}: unknown {name!r} (choose from {', '.join(allowed)})")
    return tuple(n for n in allowed if n in names)


def _peers(peers: Iterable[str] | None, native: bool) -> tuple[str, ...]:
    """The peers named (default: :data:`DEFAULT_PEERS`), plus the native builds if asked."""
    chosen = DEFAULT_PEERS if peers is None else parse_names(peers, tuple(PEERS), "--peers")
    if native:
        chosen = tuple(p for p in PEERS if p in chosen or p in NATIVE_PEERS)
    return chosen


def make_config(
    sizes: Iterable[str] = (),
    peers: Iterable[str] | None = None,
    ops: Iterable[str] = (),
    rounds: int | None = None,
    min_rounds: int | None = None,
    budget_s: float | None = None,
    max_call_s: float | None = None,
    sample_s: float | None = None,
    batch: int | None = None,
    seed: int = 0,
    quick: bool = False,
    native_peers: bool = False,
) -> BenchConfig:
    """A :class:`BenchConfig` from command-line style values (None or empty: the default).

    ``quick`` switches the defaults to :data:`QUICK_SIZES` and :data:`QUICK_TIMING`; explicit
    values still win. ``peers=None`` means the default peers (every one but the native builds);
    an empty list means none; ``native_peers`` adds GMP and OpenSSL built for this CPU.
    """
    sizes = list(sizes)
    base = QUICK_TIMING if quick else DEFAULT_TIMING
    timing = Timing(
        rounds=base.rounds if rounds is None else rounds,
        min_rounds=base.min_rounds if min_rounds is None else min_rounds,
        budget_s=base.budget_s if budget_s is None else budget_s,
        max_call_s=base.max_call_s if max_call_s is None else max_call_s,
        sample_s=base.sample_s if sample_s is None else sample_s,
    )
    if timing.rounds < 1:
        raise ParameterError(f"--rounds must be >= 1, got {timing.rounds}")
    if timing.min_rounds < 1:
        raise ParameterError(f"--min-rounds must be >= 1, got {timing.min_rounds}")
    timing = replace(timing, min_rounds=min(timing.min_rounds, timing.rounds))
    for name, value in (
        ("--budget", timing.budget_s),
        ("--max-call", timing.max_call_s),
        ("--sample", timing.sample_s),
    ):
        if not value > 0:
            raise ParameterError(f"{name} must be > 0, got {value:g}")
    nbatch = default_batch() if batch is None else batch
    if nbatch < 1:
        raise ParameterError(f"--batch must be >= 1, got {nbatch}")
    return BenchConfig(
        sizes=parse_sizes(sizes) if sizes else (QUICK_SIZES if quick else DEFAULT_SIZES),
        peers=_peers(peers, native_peers),
        ops=parse_names(ops, OPS, "--ops") if ops else DEFAULT_OPS,
        timing=timing,
        batch=nbatch,
        seed=seed,
        quick=quick,
    )


@dataclass
class Measurement:
    """One implementation on one block: its samples (seconds per operation) or why none."""

    op: str
    bits: int
    impl: str
    status: str = "ok"  # "ok", "error" or "skipped"
    detail: str = ""
    note: str = ""
    samples: list[float] = field(default_factory=list)
    reps: int = 0
    per_call: int = 1

    @property
    def median(self) -> float | None:
        return statistics.median(self.samples) if self.status == "ok" and self.samples else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "op": self.op,
            "bits": self.bits,
            "impl": self.impl,
            "status": self.status,
            "detail": self.detail,
            "note": self.note,
            "median_s": self.median,
            "samples_s": self.samples,
            "calls_per_sample": self.reps,
            "ops_per_call": self.per_call,
        }


@dataclass
class Block:
    """One (operation, size): the oracle used and the rounds run."""

    op: str
    bits: int
    oracle: str
    rounds: int = 0
    seconds: float = 0.0


@dataclass
class BenchReport:
    """Everything one run measured, with the context needed to read it."""

    config: BenchConfig
    impls: dict[str, dict[str, Any]]
    measurements: list[Measurement] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    machine: dict[str, Any] = field(default_factory=dict)
    date: str = ""
    invocation: str = ""
    seconds: float = 0.0

    def get(self, op: str, bits: int, impl: str) -> Measurement | None:
        for m in self.measurements:
            if (m.op, m.bits, m.impl) == (op, bits, impl):
                return m
        return None

    def impl_names(self, op: str) -> list[str]:
        """The implementations measured for ``op``, montlab first, in report order."""
        return list(dict.fromkeys(m.impl for m in self.measurements if m.op == op))

    def ratio(self, op: str, bits: int, peer: str) -> float | None:
        """montlab's median over the peer's (below 1: montlab faster), or None."""
        mine, theirs = self.get(op, bits, "montlab"), self.get(op, bits, peer)
        if mine is None or theirs is None or mine.median is None or theirs.median is None:
            return None
        return mine.median / theirs.median

    def ratios(self) -> list[dict[str, Any]]:
        out = []
        for m in self.measurements:
            if m.impl != "montlab" and (r := self.ratio(m.op, m.bits, m.impl)) is not None:
                out.append({"op": m.op, "bits": m.bits, "peer": m.impl, "ratio": r})
        return out

    def errors(self) -> list[Measurement]:
        return [m for m in self.measurements if m.status == "error"]

    def as_dict(self) -> dict[str, Any]:
        return {
            "command": self.config.command(),
            "invocation": self.invocation,
            "date": self.date,
            "seconds": self.seconds,
            "machine": self.machine,
            "config": self.config.as_dict(),
            "implementations": self.impls,
            "blocks": [vars(b) for b in self.blocks],
            "results": [m.as_dict() for m in self.measurements],
            "ratios": self.ratios(),
            "notes": self.notes,
            "errors": [
                {"op": m.op, "bits": m.bits, "impl": m.impl, "error": m.note} for m in self.errors()
            ],
        }


def make_case(op: str, bits: int, seed: int, batch: int) -> Case:
    """The operands of one block (the same for every op at one size and seed)."""
    rng = random.Random(f"montlab-bench:{seed}:{bits}")
    n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
    a, b = rng.randrange(n), rng.randrange(n)
    e = rng.getrandbits(bits) | (1 << (bits - 1))
    bases = (a, *(rng.randrange(n) for _ in range(batch - 1)))
    return Case(op, bits, n, a, b, e, bases if op == "batch" else ())


class Oracle:
    """Expected values: Python's arithmetic, or gmpy2.powmod for modexp above the threshold."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, int, int], int] = {}

    def name(self, case: Case) -> str:
        if case.op == "modmul":
            return "a*b % n"
        return "gmpy2.powmod" if self._use_gmpy2(case.bits) else "pow"

    @staticmethod
    def _use_gmpy2(bits: int) -> bool:
        if bits <= POW_ORACLE_MAX_BITS:
            return False
        return importlib.util.find_spec("gmpy2") is not None

    def _powm(self, b: int, e: int, n: int) -> int:
        key = (b, e, n)
        if key not in self._cache:
            if self._use_gmpy2(n.bit_length()):
                gmpy2: Any = importlib.import_module("gmpy2")
                self._cache[key] = int(gmpy2.powmod(b, e, n))
            else:
                self._cache[key] = pow(b, e, n)
        return self._cache[key]

    def expected(self, case: Case) -> int | list[int]:
        if case.op == "modmul":
            return case.a * case.b % case.n
        if case.op in ("modexp", "modexp_sec"):
            return self._powm(case.a, case.e, case.n)
        return [self._powm(x, case.e, case.n) for x in case.bases]


def time_calls(call: Callable[[], object], reps: int) -> float:
    """Seconds for ``reps`` calls."""
    it = itertools.repeat(None, reps)
    t0 = time.perf_counter()
    for _ in it:
        call()
    return time.perf_counter() - t0


def calibrate(call: Callable[[], object], target_s: float) -> tuple[int, float]:
    """(calls per sample so that a sample lasts about ``target_s``, seconds per call)."""
    reps = 1
    while True:
        total = time_calls(call, reps)
        if total >= target_s / 5 or reps >= 1 << 24:
            per = total / reps
            return max(1, math.ceil(target_s / max(per, 1e-12))), per
        reps *= 10 if total < target_s / 50 else 2


def predict(history: Sequence[tuple[int, float]], op: str, bits: int) -> float | None:
    """Seconds per call at ``bits``, extrapolated from earlier (bits, seconds) points."""
    if not history:
        return None
    b1, t1 = history[-1]
    k = DEFAULT_GROWTH[op]
    if len(history) >= 2:
        b0, t0 = history[-2]
        if b1 > b0 and t0 > 0 and t1 > 0:
            k = min(3.5, max(1.0, math.log(t1 / t0) / math.log(b1 / b0)))
    return t1 * (bits / b1) ** k


def _fmt(seconds: float) -> str:
    return f"{seconds:.3g} s"


def _short(value: Any) -> str:
    text = hex(value) if isinstance(value, int) else str(value)
    return text if len(text) <= 40 else f"{text[:20]}...{text[-12:]}"


Notify = Callable[[str], None]


def _run_block(
    case: Case,
    expected: int | list[int],
    impls: Sequence[Impl],
    timing: Timing,
    history: dict[tuple[str, str], list[tuple[int, float]]],
    notify: Notify,
) -> tuple[list[Measurement], int]:
    """Measure one block; returns the measurements (one per implementation) and the rounds."""
    op, bits = case.op, case.bits
    out: list[Measurement] = []
    live: list[tuple[Impl, Bound, Measurement]] = []
    try:
        for impl in impls:
            m = Measurement(op, bits, impl.name)
            out.append(m)
            guess = predict(history.get((impl.name, op), []), op, bits)
            if guess is not None and guess > timing.max_call_s:
                m.status = "skipped"
                m.note = f"predicted {_fmt(guess)} per call > --max-call {timing.max_call_s:g} s"
                continue
            try:
                bound = impl.bind(case)
            except Unsupported as exc:
                m.status, m.note = "skipped", str(exc)
                continue
            except Exception as exc:
                m.status, m.note = "error", f"setup failed: {type(exc).__name__}: {exc}"
                continue
            m.detail, m.per_call = bound.detail, bound.per_call
            live.append((impl, bound, m))

        # Check round: a wrong answer or an exception is an error, never a figure.
        per_call: dict[str, float] = {}
        timed: list[tuple[Impl, Bound, Measurement]] = []
        for impl, bound, m in live:
            notify(f"{op} {bits} bits: checking {impl.name}")
            try:
                t0 = time.perf_counter()
                result = bound.call()
                dt = time.perf_counter() - t0
                got = bound.read(result)
            except Exception as exc:
                m.status, m.note = "error", f"{type(exc).__name__}: {exc}"
                continue
            if got != expected:
                m.status = "error"
                m.note = f"wrong result: got {_short(got)}, expected {_short(expected)}"
                continue
            per_call[impl.name] = dt
            m.reps = 1
            if dt > timing.max_call_s:
                m.samples.append(dt / m.per_call)
                m.note = (
                    f"one sample: the call took {_fmt(dt)} > --max-call {timing.max_call_s:g} s"
                )
                continue
            if dt >= WARM_SAMPLE_S:
                m.samples.append(dt / m.per_call)
            timed.append((impl, bound, m))

        # Calls per sample, then rounds within the budget.
        for impl, bound, m in timed:
            if per_call[impl.name] < timing.sample_s:
                notify(f"{op} {bits} bits: calibrating {impl.name}")
                m.reps, per_call[impl.name] = calibrate(bound.call, timing.sample_s)
        est_round = sum(m.reps * per_call[impl.name] for impl, _, m in timed)
        rounds = timing.rounds
        if est_round > 0:
            rounds = max(timing.min_rounds, min(timing.rounds, int(timing.budget_s // est_round)))

        enabled = gc.isenabled()
        gc.disable()
        try:
            for r in range(rounds):
                k = r % len(timed) if timed else 0
                for impl, bound, m in timed[k:] + timed[:k]:
                    if len(m.samples) >= rounds:
                        continue
                    notify(f"{op} {bits} bits: round {r + 1}/{rounds}, {impl.name}")
                    m.samples.append(time_calls(bound.call, m.reps) / m.reps / m.per_call)
        finally:
            if enabled:
                gc.enable()
    finally:
        for _, bound, _ in live:
            bound.close()
    for m in out:
        if m.median is not None:
            history.setdefault((m.impl, op), []).append((bits, m.median * m.per_call))
    return out, rounds


def load_impls(config: BenchConfig) -> tuple[list[Impl], dict[str, dict[str, Any]], list[str]]:
    """montlab (and montlab-single for batch) plus the loadable peers, their info and notes."""
    mine, single = load_montlab()
    impls, notes = [mine], []
    info: dict[str, dict[str, Any]] = {
        mine.name: {"status": "ok", "version": mine.version, **mine.info}
    }
    if "batch" in config.ops and not mine.info["native"]["batch"].startswith("montlab.powm"):
        impls.append(single)
        info[single.name] = {"status": "ok", "version": single.version}
    for name in config.peers:
        try:
            impl = PEERS[name]()
        except Unavailable as exc:
            info[name] = {"status": "skipped", "note": str(exc)}
            notes.append(f"{name} skipped: {exc}")
            continue
        impls.append(impl)
        info[name] = {"status": "ok", "version": impl.version, **impl.info}
    return impls, info, notes


def run_bench(
    config: BenchConfig,
    notify: Notify | None = None,
    advance: Callable[[], None] | None = None,
) -> BenchReport:
    """Run the benchmark; ``notify`` gets progress lines, ``advance`` is called per block."""
    say = notify or (lambda _text: None)
    start = datetime.datetime.now(datetime.timezone.utc)
    t_start = time.perf_counter()
    load_start = _loadavg()
    impls, info, notes = load_impls(config)
    report = BenchReport(config, info, notes=notes)
    report.notes.append(
        f"montlab: {', '.join(f'{k} = {v}' for k, v in info['montlab']['native'].items())}"
    )
    if "openssl" in info and info["openssl"]["status"] == "ok":
        floor = _ctypes_floor()
        if floor is not None:
            info["openssl"]["ctypes_call_s"] = floor
            report.notes.append(
                f"openssl is called through ctypes; a trivial libcrypto call costs {floor * 1e9:.0f} ns here, "
                "included in its figures"
            )
    oracle = Oracle()
    history: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for bits in config.sizes:
        for op in config.ops:
            case = make_case(op, bits, config.seed, config.batch)
            block = Block(op, bits, oracle.name(case))
            t0 = time.perf_counter()
            say(f"{op} {bits} bits: expected values ({block.oracle})")
            expected = oracle.expected(case)
            block_impls = [i for i in impls if op == "batch" or i.name != "montlab-single"]
            ms, block.rounds = _run_block(case, expected, block_impls, config.timing, history, say)
            block.seconds = time.perf_counter() - t0
            report.measurements += ms
            report.blocks.append(block)
            if advance is not None:
                advance()
    report.seconds = time.perf_counter() - t_start
    report.date = start.strftime("%Y-%m-%d %H:%M UTC")
    report.invocation = shlex.join(sys.argv)
    report.machine = machine_info(report.impls)
    report.machine["load_average_1min"] = {"start": load_start, "end": _loadavg()}
    return report


def cpu_info() -> dict[str, Any]:
    """CPU model and selected flags from /proc/cpuinfo (empty values where it is absent)."""
    model, flags = platform.processor() or platform.machine(), set()
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        text = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and value.strip():
            model = value.strip()
        elif key.strip() == "flags":
            flags = set(value.split())
        if model and flags:
            break
    return {
        "model": model,
        "flags": [f for f in CPU_FLAGS if f in flags],
        "cores": os.cpu_count(),
    }


def run_env() -> dict[str, str]:
    """The environment a timing depends on: the kernel switches (``MONTLAB_NO_IFMA``...) and
    the batch calls' worker threads (``RAYON_NUM_THREADS``)."""
    return {
        k: v
        for k, v in sorted(os.environ.items())
        if k.startswith("MONTLAB_") or k == "RAYON_NUM_THREADS"
    }


def machine_info(impls: dict[str, dict[str, Any]]) -> dict[str, Any]:
    from montlab.provenance import git_commit, native_build

    return {
        "commit": git_commit(),
        "native_build": native_build(),
        "cpu": cpu_info(),
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "env": run_env(),
        "versions": {
            name: v.get("version") for name, v in impls.items() if name != "montlab-single"
        },
    }


def _loadavg() -> float | None:
    """The 1-minute load average (other work on the machine), where the OS reports it."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def _ctypes_floor() -> float | None:
    """Seconds of one trivial libcrypto call through ctypes, or None."""
    from montlab.bench import openssl

    try:
        s = openssl.load().arena()
    except Exception:
        return None
    try:
        call = s.null_call()
        calibrate(call, 0.01)
        return min(time_calls(call, 10000) / 10000 for _ in range(3))
    finally:
        s.close()
