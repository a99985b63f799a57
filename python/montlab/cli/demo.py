"""``montlab demo``: every algorithm and layer on an embedded 2048-bit RSA-style modulus.

The (algorithm, layer) jobs run on a process pool, one worker per core, slowest first. For each
it checks one Montgomery product against x*y*r^-1 mod N (Python
``pow``), then an RSA public operation m^65537 mod N against ``pow``. Layers fast enough for a
full-size exponent (native) also run the private operation c^d mod N and check that it returns m.
Each native row runs exactly its kernel; the ``auto`` row is the front door (``montlab.powm``,
``FastModulus``), whose size table picks the kernel that the row names.
"""

from __future__ import annotations

import json
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from montlab import registry
from montlab.api import AUTO, Modulus, config_params, native_available, native_runs
from montlab.testing import accepts, random_modulus

# An RSA-style modulus N = P*Q with two 1024-bit primes, drawn once from
# random.Random("montlab-demo-2048") with gmpy2.next_prime and gcd(P-1, 65537) = gcd(Q-1, 65537) = 1.
# tests/py/test_demo.py re-checks that P and Q are probable primes and that N has 2048 bits.
P = int(
    "c2bb7032756e29641bea2e1cc15b3e5659e1673ac04a094a78eb2f21a2f7461484d2d9d20bb83dbf82cd5554f57cf3"
    "99863cc6eb937d2f6f3d2e073451dc6b3643d2e0fc2f707d7e7ab6bb98839e7dbfb7e7cd339973704dc4d4328b33"
    "0284e4779f5794a495dc1429ef680c7621ee882a88a65085ce3ee20b21ead7cce4a49d",
    16,
)
Q = int(
    "d07fb40a1d74408253621a36d5423739656de396e06d7f6e5c614ced888637d10711930c9f315e3cf9db171b14c680"
    "eaaee60faf305df66de15aad153e7dd7b258162b9cbb45305edd493247661572a225e5a95dee83fc9d7862185e85"
    "5acb367568c0ab373fe2309366fb6f755738fc7fecc6a25feac33db16c1facc8fec1e9",
    16,
)
N = P * Q
E = 65537


def demo_modulus(bits: int) -> tuple[int, int | None]:
    """(N, d): the embedded RSA modulus and its private exponent, or a random odd modulus that
    every algorithm accepts (McLaughlin's needs gcd(N, 2^l - 1) = 1, for example)."""
    if bits == N.bit_length():
        lam = (P - 1) * (Q - 1)
        return N, pow(E, -1, lam)
    rng = random.Random(f"montlab-demo:{bits}")
    ids = registry.ids()
    for _ in range(1000):
        n = random_modulus(rng, bits)
        if all(accepts(a, n) for a in ids):
            return n, None
    raise ValueError(f"no {bits}-bit modulus accepted by every algorithm in 1000 draws")


def run_auto(n: int, d: int | None) -> dict[str, Any]:
    """The front door: FastModulus's product and the size table's pow kernel."""
    m = Modulus(n)
    rng = random.Random(f"montlab-demo:{AUTO}")
    x, y = rng.randrange(n), rng.randrange(n)
    t0 = time.perf_counter()
    z = m.fast.mul(x, y)
    t_mul = time.perf_counter() - t0
    msg = rng.randrange(2, n - 1)
    c = m.pow(msg, E)
    ok = z == x * y % n and c == pow(msg, E, n)
    exp = d if d is not None else E
    kernel = m.pow_kernel(exp)
    t0 = time.perf_counter()
    back = m.pow(c, exp)
    t_pow = time.perf_counter() - t0
    ok = ok and back == pow(c, exp, n) and (d is None or back == msg)
    return {
        "algo": AUTO,
        "layer": "native",
        "params": {},
        "correct": ok,
        "iterations": None,
        "model_cycles": None,
        "mul_seconds": t_mul,
        "pow_seconds": t_pow,
        "pow_kernel": kernel,
        "exponent_bits": exp.bit_length(),
    }


def run_one(n: int, algo: str, layer: str, d: int | None) -> dict[str, Any]:
    if algo == AUTO:
        return run_auto(n, d)
    m = Modulus(n)
    rng = random.Random(f"montlab-demo:{algo}:{layer}")
    eng = m.engine(algo, layer)
    cfg = eng.config
    x, y = rng.randrange(n), rng.randrange(n)
    t0 = time.perf_counter()
    z = m.mul(x, y, algo, layer)
    t_mul = time.perf_counter() - t0
    ok_mul = z % n == x * y * pow(cfg.r, -1, n) % n and 0 <= z < cfg.bound * n

    msg = rng.randrange(2, n - 1)
    t0 = time.perf_counter()
    c = m.pow(msg, E, algo, layer)
    t_pow = time.perf_counter() - t0
    ok_pow = c == pow(msg, E, n)
    exp_bits = E.bit_length()
    ok_priv = None
    if layer == "native" and d is not None:
        t0 = time.perf_counter()
        back = m.pow(c, d, algo, layer)
        t_pow = time.perf_counter() - t0
        exp_bits = d.bit_length()
        ok_priv = back == msg and back == pow(c, d, n)

    model_cycles = None
    cyc = registry.get(algo).cycle_module()
    if cyc is not None:
        from montlab.cycles import model_for

        params = {k: v for k, v in config_params(algo, cfg, {}).items() if v is not None}
        model_cycles = model_for(algo, n.bit_length(), params).row("cycles").model
    correct = ok_mul and ok_pow and ok_priv is not False
    return {
        "algo": algo,
        "layer": layer,
        "params": config_params(algo, cfg, {}),
        "correct": correct,
        "iterations": cfg.iterations,
        "model_cycles": model_cycles,
        "mul_seconds": t_mul,
        "pow_seconds": t_pow,
        "pow_kernel": algo,
        "exponent_bits": exp_bits,
    }


#: Rough relative cost of one product, to start the slowest jobs first on the worker pool.
_COST = {"mwr2mm_arch1": 100, "mwr2mm_arch2": 60, "mwr2mm": 3, "mwr4mm": 2}


def run_demo(as_json: bool, bits: int, console: Console) -> bool:
    n, d = demo_modulus(bits)
    jobs = [
        (a.id, layer)
        for a in registry.all_algorithms()
        for layer in a.layers
        if layer == "ref" or (layer == "native" and native_runs(a.id))
    ]
    if native_available():
        jobs.append((AUTO, "native"))
    order = {job: i for i, job in enumerate(jobs)}  # registry order, for the table
    jobs.sort(key=lambda job: -_COST.get(job[0], 1))
    rows = []
    progress_console = Console(stderr=True) if as_json else console
    with (
        Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(),
            console=progress_console,
            transient=True,
        ) as progress,
        ProcessPoolExecutor(max_workers=min(len(jobs), os.cpu_count() or 1)) as pool,
    ):
        task = progress.add_task("checking every algorithm and layer", total=len(jobs))
        futures = {pool.submit(run_one, n, algo, layer, d): (algo, layer) for algo, layer in jobs}
        for fut in as_completed(futures):
            algo, layer = futures[fut]
            rows.append(fut.result())
            progress.update(task, description=f"done: {algo} ({layer})")
            progress.advance(task)
    rows.sort(key=lambda r: order[(r["algo"], r["layer"])])
    all_ok = all(r["correct"] for r in rows)
    if as_json:
        print(
            json.dumps(
                {"modulus": hex(n), "bits": n.bit_length(), "rows": rows, "all_correct": all_ok},
                indent=2,
            )
        )
        return all_ok
    title = f"montlab demo: {n.bit_length()}-bit modulus, pow = m^{E} mod N"
    if d:
        title += "\n(native: also c^d mod N with the full private exponent d)"
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    t.add_column("algorithm", no_wrap=True)
    t.add_column("layer", no_wrap=True)
    t.add_column("params", min_width=10)
    t.add_column("ok", no_wrap=True)
    t.add_column("iters", justify="right", no_wrap=True)
    t.add_column("cycles*", justify="right", no_wrap=True)
    t.add_column("mul", justify="right", no_wrap=True)
    t.add_column("pow", justify="right", no_wrap=True)
    for r in rows:
        params = ",".join(f"{k}={v}" for k, v in r["params"].items() if k != "n")
        layer = r["layer"]
        if r["pow_kernel"] != r["algo"]:
            layer += f" (pow: {r['pow_kernel']})"
        t.add_row(
            r["algo"],
            layer,
            params,
            "[green]yes[/green]" if r["correct"] else "[red]NO[/red]",
            "-" if r["iterations"] is None else str(r["iterations"]),
            "-" if r["model_cycles"] is None else str(r["model_cycles"]),
            _fmt_time(r["mul_seconds"]),
            _fmt_time(r["pow_seconds"]),
        )
    console.print(t)
    console.print(
        "iters: main-loop iterations of one product; cycles*: analytic cycle model "
        "(montlab cycles); mul, pow: wall time of one call; auto: montlab.powm and FastModulus, "
        "(pow: K) the kernel the size table ran pow on"
    )
    console.print("all algorithms correct" if all_ok else "[red]SOME ALGORITHMS FAILED[/red]")
    if not native_available():
        console.print("(native layer not built: run the README's commands to build it)")
    return all_ok


def _fmt_time(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.0f} us"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.1f} s"
