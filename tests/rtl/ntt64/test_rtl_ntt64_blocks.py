"""rtl/ntt64's Goldilocks blocks (p = 2^64 - 2^32 + 1), simulated with cocotb against
montlab.transforms and Python integers.

  * ntt64_reduce: res = transforms.reduce_eq3(z) (eq. (3), SPEC 4.4) for 192-bit z: every
    pattern of the six 32-bit limbs at 0 or all ones (64 words, which reach all four
    corrections, -p, none, +p and +2p: the +2p case of docs/errata.md is asserted to occur),
    powers of two, multiples of p, all ones (the end-around-carry zero) and random words.
  * ntt64_modmul: a b mod p for any 64-bit operands (edges: 0, 1, p - 1, p, 2^32 +- 1, 2^63,
    2^64 - 1), streamed with bubbles, LATENCY = karatsuba_mul's + 1 edges later with its tag;
    Yosys maps it to 9 ECP5 multipliers (the paper's 9 DSPs per ModMul, 72 = 8 x 9).
  * ntt64_unit (N PEs of ntt64_pe on shared inputs): every (n1, k1) block of random and edge
    vectors streamed with bubbles, each block against Python integers, the blocks assembled
    against transforms.shift_dft (the 2N-point DFT, 2^(STEP N) = -1) or pe16 (STEP = 12). CI
    runs the scaled unit (N = 4, omega_8 = 2^24); rtl_wide the paper's 16 PEs (STEP = 6 and 12).
All are `verilator --lint-only -Wall` clean. Seeds: the ``rng`` fixture (MONTLAB_SEED) derives
each cocotb seed, printed with the parameters; counts scale with MONTLAB_TEST_MULTIPLIER.
"""

from __future__ import annotations

import itertools
import random
import subprocess
from typing import Any

import pytest
from common_helpers import (
    Checker,
    cocotb_test,
    go,
    karatsuba_latency,
    load_job,
    param_id,
    run_stream,
    sources,
    yosys_ecp5_cells,
)
from montlab import transforms as tf
from rtl_helpers import scaled

MODULE = "test_rtl_ntt64_blocks"
P = tf.P64
MASK32 = (1 << 32) - 1


def eq3_branch(z: int) -> str:
    """Which correction eq. (3)'s raw sum r of z needs: '-p', 'none', '+p' or '+2p'."""
    a, b, c = (z >> 160) & MASK32, (z >> 128) & MASK32, (z >> 96) & MASK32
    d, e, f = (z >> 64) & MASK32, (z >> 32) & MASK32, z & MASK32
    r = ((e << 32) + f) + ((d << 32) + a) - ((b << 32) + c) - ((a << 32) + d)
    return "-p" if r >= P else "none" if r >= 0 else "+p" if r >= -P else "+2p"


def limb_patterns() -> list[int]:
    """The 64 words whose six 32-bit limbs are each 0 or all ones."""
    return [
        sum(MASK32 << (32 * i) for i, on in enumerate(bits) if on)
        for bits in itertools.product((0, 1), repeat=6)
    ]


# --- pytest --------------------------------------------------------------------------------------


def test_rtl_ntt64_reduce(rng: random.Random) -> None:
    go(rng, "ntt64_reduce", {}, "ntt64_reduce_vectors", MODULE, count=scaled(3000))


MODMUL = [{"TW": 4}, {"LEVEL_LAT": 1, "BASE_LAT": 1, "TW": 3}]


@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in MODMUL])
def test_rtl_ntt64_modmul(rng: random.Random, params: dict[str, int]) -> None:
    go(rng, "ntt64_modmul", params, "ntt64_modmul_stream", MODULE, count=scaled(800))


def test_ntt64_modmul_dsps() -> None:
    """Two Karatsuba levels at 64 bits: 9 ECP5 MULT18X18D (the paper: 9 DSPs per ModMul)."""
    cells = yosys_ecp5_cells("ntt64_modmul", {})
    mults = cells.get("MULT18X18D", 0)
    print(f"[yosys] ntt64_modmul: {mults} MULT18X18D, {cells.get('TRELLIS_FF', 0)} FF")
    assert mults == 9


UNIT = [{"N": 4, "STEP": 24, "STAGES": 1}]  # the scaled set's 8-point DFT in four 4 x 4 blocks
UNIT_WIDE = [
    {"N": 16, "STEP": 6, "STAGES": 2},  # the 32-point DFT in four 16 x 16 blocks
    {"N": 16, "STEP": 12, "STAGES": 3},  # block (0, 0): the radix-16 DFT (pe16)
]


@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in UNIT])
def test_rtl_ntt64_unit(rng: random.Random, params: dict[str, int]) -> None:
    go(rng, "ntt64_unit", params, "ntt64_unit_blocks", MODULE, count=scaled(60))


@pytest.mark.rtl_wide
@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in UNIT_WIDE])
def test_rtl_ntt64_unit_wide(rng: random.Random, params: dict[str, int]) -> None:
    """The paper's 16-PE unit (minutes of Verilator build: 256 rotated 192-bit words)."""
    go(rng, "ntt64_unit", params, "ntt64_unit_blocks", MODULE, count=scaled(60))


LINT = {
    "ntt64_reduce": [{}],
    "ntt64_modmul": [{}, {"TW": 8, "LEVEL_LAT": 1, "BASE_LAT": 0}],
    "ntt64_unit": [{"N": 16, "STEP": 6, "STAGES": 2}, {"N": 4, "STEP": 24, "STAGES": 5}],
}


@pytest.mark.parametrize("top", list(LINT))
def test_lint_clean(top: str) -> None:
    """`verilator --lint-only -Wall` is clean (no waiver) at every parameter set of LINT."""
    from montlab.hw.flow import VLT, tool_env
    from rtl_helpers import toolchain

    toolchain()
    tool_env()
    for params in LINT[top]:
        cmd = ["verilator", "--lint-only", "-Wall", "--top-module", top, str(VLT)]
        cmd += [f"-G{k}={v}" for k, v in params.items()] + [str(f) for f in sources(top)]
        res = subprocess.run(cmd, capture_output=True, text=True)
        assert res.returncode == 0 and "%Warning" not in res.stderr, (params, res.stderr)


def test_limb_patterns_reach_every_correction() -> None:
    """The reduce test's limb patterns need each of eq. (3)'s four corrections (the checker
    also asserts the +2p path is exercised in simulation)."""
    branches = {eq3_branch(z) for z in limb_patterns()}
    assert branches == {"-p", "none", "+p", "+2p"}
    assert eq3_branch(MASK32 << 96 | MASK32 << 128 | MASK32 << 160) == "+2p"


# --- cocotb: the checkers (run inside the simulator) ---------------------------------------------

try:
    from cocotb.triggers import Timer
except ImportError:  # pragma: no cover - the sweeps above skip through toolchain()
    pass


@cocotb_test
async def ntt64_reduce_vectors(dut: Any) -> None:
    job = load_job()
    rng = random.Random(job["seed"])
    chk = Checker(dut, "ntt64_reduce")
    full = (1 << 192) - 1
    edges = [0, 1, P - 1, P, P + 1, 2 * P, full, full - 1, full - P]
    edges += [1 << k for k in (32, 63, 64, 95, 96, 127, 128, 159, 160, 191)]
    words = edges + limb_patterns()
    for _ in range(job["count"]):
        if rng.random() < 0.5:  # limbs near 0 or near all ones
            words.append(
                sum(
                    rng.choice((rng.randrange(4), MASK32 - rng.randrange(4))) << (32 * i)
                    for i in range(6)
                )  # fmt: skip
            )
        else:
            words.append(rng.getrandbits(192))
    hits: dict[str, int] = {}
    for z in words:
        dut.z_i.value = z
        await Timer(1, "ns")
        got, want = int(dut.res_o.value), tf.reduce_eq3(z)
        br = eq3_branch(z)
        hits[br] = hits.get(br, 0) + 1
        chk.check(got == want, f"z={z:#x} ({br}): res={got:#x}, want {want:#x}")
    dut._log.info(f"corrections taken: {hits}")
    chk.check(all(hits.get(b, 0) > 0 for b in ("-p", "none", "+p", "+2p")), f"paths {hits}")
    chk.done()


@cocotb_test
async def ntt64_modmul_stream(dut: Any) -> None:
    job = load_job()
    p = job["params"]
    tw = p.get("TW", 1)
    mul_lat = karatsuba_latency(64, 17, p.get("BASE_LAT", 3), p.get("LEVEL_LAT", 4))
    assert int(dut.u_mul.u_core.LATENCY.value) == mul_lat
    lat = mul_lat + 1
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"ntt64_modmul {p} (LATENCY {lat})")
    edges = [0, 1, 2, P - 1, P, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 1 << 63, (1 << 64) - 1]
    ops: list[Any] = [(a, b, rng.getrandbits(tw)) for a in edges for b in edges]
    for _ in range(job["count"]):
        if rng.random() < 0.1:
            ops.append(None)
        else:
            a = rng.randrange(P) if rng.random() < 0.7 else rng.getrandbits(64)
            ops.append((a, rng.randrange(P), rng.getrandbits(tw)))

    def drive(op: Any) -> None:
        dut.valid_i.value = 0 if op is None else 1
        a, b, tag = op if op is not None else (rng.getrandbits(64), rng.getrandbits(64), 0)
        dut.a_i.value, dut.b_i.value, dut.tag_i.value = a, b, tag

    def read() -> tuple[int, tuple[int, int]]:
        return int(dut.valid_o.value), (int(dut.res_o.value), int(dut.tag_o.value))

    def expect(op: Any) -> tuple[int, int]:
        return op[0] * op[1] % P, op[2]

    await run_stream(dut, lat, chk, ops, drive, read, expect)
    chk.done()


def block_outputs(x: list[int], step: int, n1: int, k1: int) -> list[int]:
    """Block (n1, k1) of a 2N-point shift DFT, by Python integers: output k0 is
    sum_n0 x_n0 2^(step n0 k0) (-1)^(n0 k1 + n1 k0) mod p."""
    n = len(x)
    return [
        sum(
            (-1) ** ((n0 * k1 + n1 * k0) % 2) * x[n0] * pow(2, step * n0 * k0, P)
            for n0 in range(n)
        ) % P
        for k0 in range(n)
    ]  # fmt: skip


@cocotb_test
async def ntt64_unit_blocks(dut: Any) -> None:
    """Stream every block of random and edge vectors, one per clock with bubbles; check each
    block against :func:`block_outputs`, and the blocks of each vector, assembled, against
    transforms.shift_dft (STEP N = 96: the 2N-point DFT) or pe16 (STEP = 12, block (0, 0))."""
    job = load_job()
    p = job["params"]
    n, step = p["N"], p["STEP"]
    lat = int(dut.g_pe[0].u_pe.LATENCY.value)
    assert lat == p["STAGES"] + 2
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"ntt64_unit {p} (LATENCY {lat})")
    full = step * n % 192 == 96
    length = 2 * n if full else n
    edge = [0, 1, P - 1, P, (1 << 64) - 1, 1 << 63]
    vecs = [[e] * length for e in edge] + [[rng.choice(edge) for _ in range(length)]]
    vecs += [[rng.getrandbits(64) for _ in range(length)] for _ in range(job["count"])]
    blocks = [(0, 0), (0, 1), (1, 0), (1, 1)] if full else [(0, 0)]
    ops: list[Any] = []
    for v in vecs:
        for n1, k1 in blocks:
            ops.append((tuple(v[n * n1 : n * (n1 + 1)]), n1, k1))
            if rng.random() < 0.15:
                ops.append(None)
    got_blocks: dict[tuple[tuple[int, ...], int, int], list[int]] = {}

    def drive(op: Any) -> None:
        dut.valid_i.value = 0 if op is None else 1
        x, n1, k1 = op if op is not None else ((0,) * n, 0, 0)
        dut.x_i.value = sum(w << (64 * i) for i, w in enumerate(x))
        dut.n1_i.value, dut.k1_i.value = n1, k1

    def read() -> tuple[int, tuple[int, ...]]:
        y = int(dut.y_o.value)
        return int(dut.valid_o.value), tuple((y >> (64 * k)) & ((1 << 64) - 1) for k in range(n))

    def expect(op: Any) -> tuple[int, ...]:
        return tuple(block_outputs(list(op[0]), step, op[1], op[2]))

    def record(op: Any, got: tuple[int, ...]) -> None:
        got_blocks[op] = list(got)

    await run_stream(dut, lat, chk, ops, drive, read, expect, record)
    for v in vecs:
        if full:
            want = tf.shift_dft(v, step)
            lo, hi = tuple(v[:n]), tuple(v[n:])
            asm = [
                (got_blocks[(lo, 0, k1)][k0] + got_blocks[(hi, 1, k1)][k0]) % P
                for k1 in (0, 1)
                for k0 in range(n)
            ]
        else:
            want = tf.pe16(v) if (n, step) == (16, 12) else tf.shift_dft(v, step)
            asm = got_blocks[(tuple(v), 0, 0)]
        chk.check(asm == want, f"x={[hex(e) for e in v]}: assembled {asm}, want {want}")
    chk.done()
