"""``montlab bench``: montlab against GMP (gmpy2), FLINT (python-flint), Python and OpenSSL.

Contract. One process runs montlab and every loadable peer on the same operands (random odd
moduli of exactly the requested size, operands below N, full-size exponents), in interleaved
rounds, and reports median seconds per operation and the ratio montlab/peer (below 1: montlab
faster) for three operations:

* ``modmul``: one modular multiplication (montlab: the native engine's fastest ``mul``, in
  Montgomery form; OpenSSL: ``BN_mod_mul_montgomery``, also in Montgomery form);
* ``modexp``: one modular exponentiation with a full-size exponent (``montlab.powm``);
* ``batch``: modexp throughput over a batch of bases sharing one exponent (montlab's
  ``pow_many`` when the native module has one, single calls otherwise; peers: single calls);
* ``modexp_sec`` (only when asked for): one constant-time modexp (montlab's ``pow_sec``).

``--native-peers`` adds GMP 6.3 and OpenSSL 4 built from source for this CPU
(:mod:`~montlab.bench.native_peers`; cached outside the repository, minutes the first time).

Every result is checked against Python's arithmetic (``gmpy2.powmod`` for modexp above
:data:`~montlab.bench.core.POW_ORACLE_MAX_BITS` bits) before its timing counts; a wrong result
is an error, not a figure. A peer that is not installed or cannot be loaded is skipped with a
note. The modules: :mod:`~montlab.bench.core` (runner), :mod:`~montlab.bench.impls` (what each
implementation calls), :mod:`~montlab.bench.native` (the one adapter to ``montlab._native``),
:mod:`~montlab.bench.openssl` (libcrypto by ctypes), :mod:`~montlab.bench.output` (tables,
Markdown, JSON, plot).
"""

from montlab.bench.core import (
    DEFAULT_SIZES,
    QUICK_SIZES,
    BenchConfig,
    BenchReport,
    Measurement,
    make_config,
    run_bench,
)
from montlab.bench.impls import DEFAULT_OPS, DEFAULT_PEERS, NATIVE_PEERS, OPS, PEERS

__all__ = [
    "DEFAULT_OPS",
    "DEFAULT_PEERS",
    "NATIVE_PEERS",
    "DEFAULT_SIZES",
    "QUICK_SIZES",
    "OPS",
    "PEERS",
    "BenchConfig",
    "BenchReport",
    "Measurement",
    "make_config",
    "run_bench",
]
