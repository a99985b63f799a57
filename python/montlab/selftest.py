"""A differential soak: every entry point against Python's own arithmetic, for a set time.

Contract: :func:`soak` draws cases until its time is up. Each case picks an entry point, a size
band and a modulus (random, or structured: 2^k +- small, all-ones, random2-style runs of ones
and zeros), operands (random, 0, 1, N-1, N-2, powers of two) and exponents (random, 0, 1, 2,
65537, N-1, all-ones), runs the entry point and checks the result against ``%`` and
exponentiation by GMP (gmpy2's ``powmod``) where installed, else Python's ``pow`` (the oracle
shares no code with montlab; GMP keeps a full-length exponent at 32768 bits to a fraction of a
second, where Python's ``pow`` takes most of a short soak). Native entry points run under three threshold tables
(the generic one, spectral from 1 bit and never spectral), so both kernels see every size;
``pow_sec`` and ``pow_sec_many``, word-level under every table, run once.
Reference models (``montlab.ref``, every registered algorithm at its defaults) run in the small
bands only: they are naive and slow.

Case i of seed s is drawn from ``random.Random(f"{s}:{i}")`` alone, so a mismatch report
(seed, case, entry point, operands) reproduces with :func:`run_case`. Counts are kept per entry
point and per size band.
"""

from __future__ import annotations

import random
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

from montlab import registry
from montlab.errors import ModulusError, ParameterError
from montlab.testing import oracle_pow

#: Size bands (bits of N, inclusive) and their weights: small sizes are cheap and most varied.
BANDS: tuple[tuple[str, int, int, int], ...] = (
    ("3-64", 3, 64, 30),
    ("65-512", 65, 512, 30),
    ("513-2048", 513, 2048, 20),
    ("2049-8192", 2049, 8192, 10),
    ("8193-32768", 8193, 32768, 3),
)
#: Threshold tables the native entry points run under (None: the generic table).
TABLES: dict[str, str | None] = {
    "generic": None,
    "spectral": "spectral_mul_bits = 1\nspectral_pow_bits = 1\nntt_redc_pow_bits = 1\n",
    "word": f"spectral_mul_bits = {2**63}\nspectral_pow_bits = {2**63}\n",
}
#: The largest N the reference models run at (bits), and their exponent bits.
REF_MAX_BITS = 512
REF_EXP_BITS = 48
#: Models that simulate every bit or every transform point: smaller N and exponents.
SLOW_REF: dict[str, tuple[int, int]] = {
    "mwr2mm_arch1": (64, 12),
    "mwr2mm_arch2": (128, 16),
    "ntt64": (64, 12),
}


@dataclass
class Mismatch:
    """One wrong answer, with what reproduces it."""

    seed: int
    case: int
    entry: str
    detail: str


@dataclass
class SoakReport:
    """Counts of checks per entry point and per size band, and any mismatches."""

    seed: int
    seconds: float = 0.0
    cases: int = 0
    by_entry: Counter[str] = field(default_factory=Counter)
    by_band: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)  #: N outside the model's sizes
    time_s: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    mismatches: list[Mismatch] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "seconds": round(self.seconds, 1),
            "cases": self.cases,
            "checks": sum(self.by_entry.values()),
            "by_entry": dict(sorted(self.by_entry.items())),
            "by_band": {b[0]: self.by_band[b[0]] for b in BANDS},
            "skipped": dict(sorted(self.skipped.items())),
            "seconds_by_entry": {k: round(v, 1) for k, v in sorted(self.time_s.items())},
            "mismatches": [m.__dict__ for m in self.mismatches],
        }


# --- drawing ---------------------------------------------------------------------------------


def _modulus(rng: random.Random, lo: int, hi: int) -> int:
    bits = rng.randint(lo, hi)
    kind = rng.randrange(6)
    if kind == 0:  # 2^k - small
        n = (1 << bits) - rng.randrange(1, 200)
    elif kind == 1:  # 2^(k-1) + small
        n = (1 << (bits - 1)) + rng.randrange(1, 200)
    elif kind == 2:  # all ones
        n = (1 << bits) - 1
    elif kind == 3:  # runs of ones and zeros (GMP's random2)
        n, pos = 0, 0
        while pos < bits:
            run = rng.randint(1, max(1, bits // 4))
            if rng.random() < 0.5:
                n |= ((1 << run) - 1) << pos
            pos += run
        n |= 1 << (bits - 1)
    else:
        n = rng.getrandbits(bits) | (1 << (bits - 1))
    n |= 1
    return n if n > 1 else 3


def _operand(rng: random.Random, n: int) -> int:
    kind = rng.randrange(8)
    if kind == 0:
        return 0
    if kind == 1:
        return 1
    if kind == 2:
        return n - 1
    if kind == 3:
        return max(n - 2, 0)
    if kind == 4:
        return (1 << rng.randrange(n.bit_length())) % n
    return rng.randrange(n)


def _exponent(rng: random.Random, n: int, max_bits: int | None = None) -> int:
    bits = max_bits or n.bit_length()
    kind = rng.randrange(8)
    e = {0: 0, 1: 1, 2: 2, 3: 65537, 4: n - 1, 5: (1 << bits) - 1}.get(kind)
    if e is None:
        e = rng.getrandbits(rng.randint(1, bits))
    return e if max_bits is None else e % (1 << max_bits)


# --- entry points ----------------------------------------------------------------------------

#: A check: the failures found (empty: all correct), or None when N is outside its sizes.
Check = Callable[[random.Random, int], "list[str] | None"]


@contextmanager
def _thresholds(table: str) -> Iterator[None]:
    """Threshold table ``table`` of :data:`TABLES` in force; the previous one restored after."""
    from montlab import _native
    from montlab.tune import ensure_applied

    ensure_applied()  # the installed table first, so that it cannot replace this one later
    before = "".join(f"{k} = {v}\n" for k, v in _native.thresholds().items())
    _native.set_thresholds(TABLES[table])
    try:
        yield
    finally:
        _native.set_thresholds(before)


def _native_checks(table: str) -> dict[str, Check]:
    from montlab import _native

    def fast(n: int) -> Any:
        with _thresholds(table):
            return _native.FastModulus(n)

    def mul(rng: random.Random, n: int) -> list[str]:
        x, y = _operand(rng, n), _operand(rng, n)
        m = fast(n)
        bad = []
        if m.mul(x, y) != x * y % n:
            bad.append(f"mul({x:#x}, {y:#x})")
        if m.sqr(x) != x * x % n:
            bad.append(f"sqr({x:#x})")
        return bad

    def pow_(rng: random.Random, n: int) -> list[str]:
        b, e = _operand(rng, n), _exponent(rng, n)
        return [] if fast(n).pow(b, e) == oracle_pow(b, e, n) else [f"pow({b:#x}, {e:#x})"]

    def pow_sec(rng: random.Random, n: int) -> list[str]:
        b, e = _operand(rng, n), _exponent(rng, n)
        return [] if fast(n).pow_sec(b, e) == oracle_pow(b, e, n) else [f"pow_sec({b:#x}, {e:#x})"]

    def mul_many(rng: random.Random, n: int) -> list[str]:
        k = rng.randint(1, 6)
        xs = [_operand(rng, n) for _ in range(k)]
        ys = [_operand(rng, n) for _ in range(k)]
        want = [x * y % n for x, y in zip(xs, ys, strict=True)]
        return [] if fast(n).mul_many(xs, ys) == want else [f"mul_many({xs}, {ys})"]

    def pow_batch(method: str, most: int) -> Check:
        """The check of batch exponentiation ``method`` on 1 to ``most`` bases."""

        def check(rng: random.Random, n: int) -> list[str]:
            k = rng.randint(1, most)
            bs = [_operand(rng, n) for _ in range(k)]
            es = [_exponent(rng, n) for _ in range(k)]
            want = [oracle_pow(b, e, n) for b, e in zip(bs, es, strict=True)]
            got = getattr(fast(n), method)(bs, es)
            return [] if got == want else [f"{method}({bs}, {es})"]

        return check

    def powm(rng: random.Random, n: int) -> list[str]:
        import montlab

        b, e = _operand(rng, n), _exponent(rng, n)
        with _thresholds(table):
            got = montlab.powm(b, e, n)
        return [] if got == oracle_pow(b, e, n) else [f"powm({b:#x}, {e:#x})"]

    def native_powm(rng: random.Random, n: int) -> list[str]:
        b, e = _operand(rng, n), _exponent(rng, n)
        with _thresholds(table):
            got = _native.powm(b, e, n)
        return [] if got == oracle_pow(b, e, n) else [f"_native.powm({b:#x}, {e:#x})"]

    checks: dict[str, Check] = {
        f"FastModulus.mul+sqr[{table}]": mul,
        f"FastModulus.pow[{table}]": pow_,
        f"FastModulus.mul_many[{table}]": mul_many,
        f"FastModulus.pow_many[{table}]": pow_batch("pow_many", 4),
        f"montlab.powm[{table}]": powm,
        f"_native.powm[{table}]": native_powm,
    }
    if table == "generic":  # pow_sec runs the word kernel under every table: once is enough
        checks["FastModulus.pow_sec"] = pow_sec
        checks["FastModulus.pow_sec_many"] = pow_batch("pow_sec_many", 3)
    return checks


def _cios(rng: random.Random, n: int) -> list[str]:
    from montlab import _native

    c = _native.Cios(n)
    x, y, e = _operand(rng, n), _operand(rng, n), _exponent(rng, n)
    r_inv = pow(c.r, -1, n)
    bad = []
    if c.mul(x, y) % n != x * y * r_inv % n:
        bad.append(f"Cios.mul({x:#x}, {y:#x})")
    if c.from_mont(c.to_mont(x)) != x:
        bad.append(f"Cios.to_mont/from_mont({x:#x})")
    if c.pow(x, e) != oracle_pow(x, e, n):
        bad.append(f"Cios.pow({x:#x}, {e:#x})")
    return bad


def _ref_check(algo: str, exp_bits: int) -> Check:
    def check(rng: random.Random, n: int) -> list[str] | None:
        import montlab

        m = montlab.Modulus(n)
        try:
            cfg = m.config(algo)
        except (ParameterError, ModulusError):
            return None  # N is outside the algorithm's sizes or rings (counted as skipped)
        x, y = _operand(rng, n), _operand(rng, n)
        z = m.mul(x, y, algo=algo, layer="ref")
        bad = []
        if not (0 <= z < cfg.bound * n and z % n == x * y * pow(cfg.r, -1, n) % n):
            bad.append(f"{algo}.mul({x:#x}, {y:#x}) = {z:#x}")
        b, e = _operand(rng, n), _exponent(rng, n, exp_bits)
        if m.pow(b, e, algo=algo, layer="ref") != oracle_pow(b, e, n):
            bad.append(f"{algo}.pow({b:#x}, {e:#x})")
        return bad

    return check


def entry_points(native: bool = True) -> dict[str, tuple[Check, int]]:
    """Entry point name -> (its check, the largest N it runs at)."""
    out: dict[str, tuple[Check, int]] = {}
    if native:
        for table in TABLES:
            for name, chk in _native_checks(table).items():
                out[name] = (chk, BANDS[-1][2])
        out["Cios.mul+pow"] = (_cios, BANDS[-1][2])
    for algo in registry.ids():
        max_bits, exp_bits = SLOW_REF.get(algo, (REF_MAX_BITS, REF_EXP_BITS))
        out[f"ref.{algo}"] = (_ref_check(algo, exp_bits), max_bits)
    return out


# --- running ---------------------------------------------------------------------------------


def run_case(
    seed: int, case: int, entries: dict[str, tuple[Check, int]]
) -> tuple[str, str, list[str] | None]:
    """Case ``case`` of ``seed``: (entry point, band, failures or None when skipped);
    reproducible on its own."""
    rng = random.Random(f"{seed}:{case}")
    name = rng.choice(sorted(entries))
    check, max_bits = entries[name]
    bands = [b for b in BANDS if b[1] <= max_bits]
    band = rng.choices(bands, weights=[b[3] for b in bands])[0]
    n = _modulus(rng, band[1], min(band[2], max_bits))
    if name.startswith("ref.") and n.bit_length() < 3:
        n = 5
    try:
        return name, band[0], check(rng, n)
    except Exception as exc:  # an error on a valid input is a failure too
        return name, band[0], [f"N = {n:#x}: raised {type(exc).__name__}: {exc}"]


def soak(
    seconds: float,
    seed: int,
    native: bool = True,
    progress: Callable[[float], None] | None = None,
) -> SoakReport:
    """Runs cases for ``seconds``; ``progress(fraction)`` after each case."""
    entries = entry_points(native)
    report = SoakReport(seed)
    start = time.monotonic()
    case = 0
    while (elapsed := time.monotonic() - start) < seconds:
        t0 = time.monotonic()
        name, band, bad = run_case(seed, case, entries)
        report.time_s[name] += time.monotonic() - t0
        case += 1
        if bad is None:
            report.skipped[name] += 1
            continue
        report.by_entry[name] += 1
        report.by_band[band] += 1
        for detail in bad:
            report.mismatches.append(Mismatch(seed, case - 1, name, detail))
        if progress is not None:
            progress(min(elapsed / seconds, 1.0))
    report.cases = case
    report.seconds = time.monotonic() - start
    return report
