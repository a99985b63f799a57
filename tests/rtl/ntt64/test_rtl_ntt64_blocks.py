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
  * ntt64_carry: numbers streamed as chunks of G coefficients (bubbles inside, a zero chunk at
    the end), every chunk's digits and carry against the prefix sums of the blocks in Python
    integers, each number's digits against sum_i c_i 2^(B i): random, all-maximum, zero,
    convolution-shaped numbers, and redundant ones whose digits are all zeros or all ones (a
    carry then runs through whole chunks; the checker asserts that it happened). CI: G = 8 at B = 16 and 24; rtl_wide: G = 32 (the paper's
    32 samples per cycle) at B = 24, and G = 3 at B = 20 (a partial top block).
  * ntt64_pass (in ntt64_pass_tb, with its data and operand banks): whole transforms on the
    banks, pass by pass: forward (COL with twiddles, then ROW) against transforms.ntt64, the
    array after the first pass against ntt64_four_step's, the inverse (ROW with the folded
    1/S^2, then COL, output permutation) against intt64, and the forward ROW pass with the
    operand banks (the pointwise product); done_o in the cycle the header gives. CI: S = 8
    (64 points on 4 PEs, 2 samples per cycle); rtl_wide: S = 32 (the paper's 1024 points).
All are `verilator --lint-only -Wall` clean. Seeds: the ``rng`` fixture (MONTLAB_SEED) derives
each cocotb seed, printed with the parameters; counts scale with MONTLAB_TEST_MULTIPLIER.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from common_helpers import (
    Checker,
    assert_lint_clean,
    assert_stops,
    cocotb_test,
    go,
    karatsuba_latency,
    load_job,
    param_id,
    run_stream,
    yosys_cells,
)
from montlab import transforms as tf
from montlab.hw.ntt64_schedule import pass_cycles
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
    cells = yosys_cells("ntt64_modmul", {})
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


CARRY = [{"G": 8, "B": 16}, {"G": 8, "B": 24, "CSA_STAGES": 0, "SEG": 20}]
CARRY_WIDE = [{"G": 32, "B": 24, "SEG": 32}, {"G": 3, "B": 20, "CSA_STAGES": 2, "SEG": 7}]


@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in CARRY])
def test_rtl_ntt64_carry(rng: random.Random, params: dict[str, int]) -> None:
    go(rng, "ntt64_carry", params, "ntt64_carry_stream", MODULE, count=scaled(40))


@pytest.mark.rtl_wide
@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in CARRY_WIDE])
def test_rtl_ntt64_carry_wide(rng: random.Random, params: dict[str, int]) -> None:
    go(rng, "ntt64_carry", params, "ntt64_carry_stream", MODULE, count=scaled(40))


def carry_expect(coeffs: list[int], g: int, b: int, cw: int) -> list[tuple[int, int, bool]]:
    """Per chunk k of a number: (digits, carry, whether the digits' + c_k overflowed): the
    digits and carry of P_k, the sum of the coefficients' b-bit blocks that land below digit
    g (k + 1), and the chunk's overflow (W_k mod 2^gb) + c_k >= 2^gb, W_k = (P_k - P_(k-1)) /
    2^(gb k), c_k = P_(k-1) >> (gb k)."""
    r_blocks, gb = -(-cw // b), g * b
    out, prev = [], 0
    for k in range(len(coeffs) // g):
        top = g * (k + 1)
        pk = sum(
            ((c >> (b * r)) & ((1 << b) - 1)) << (b * (i + r))
            for i, c in enumerate(coeffs)
            for r in range(r_blocks)
            if i + r < top
        )  # fmt: skip
        wk, ck = (pk - prev) >> (gb * k), prev >> (gb * k)
        ovf = (wk % (1 << gb)) + ck >= 1 << gb
        out.append(((pk >> (gb * k)) % (1 << gb), pk >> (gb * (k + 1)), ovf))
        prev = pk
    return out


def carry_numbers(rng: random.Random, g: int, b: int, cw: int, count: int) -> list[list[int]]:
    """Coefficient lists (a whole number of chunks, the last one zeros)."""
    full = (1 << cw) - 1

    def chunks() -> int:
        return rng.randint(1, 4)

    def redundant(n: int, digit: int) -> list[int]:
        """Coefficients whose sum has every digit below 2^(b n) equal to ``digit``:
        c_i = digit + 2^b e_i - e_(i-1) with large random e_i >= 0 (each c_i >= 0)."""
        out, e_prev = [], 0
        for _ in range(n):
            lo = max(0, -(-(e_prev - digit) >> b))
            e = rng.randrange(lo, max(lo + 1, 1 << (cw - b - 1)))
            out.append(digit + (e << b) - e_prev)
            e_prev = e
        return out

    def convolution(n: int) -> list[int]:
        x = [rng.getrandbits(b) for _ in range(n // 2)]
        y = [rng.getrandbits(b) for _ in range(n // 2)]
        return [
            sum(x[j] * y[i - j] for j in range(len(x)) if 0 <= i - j < len(y)) for i in range(n)
        ]

    mask = (1 << b) - 1
    nums = [[full] * g * 3, [0] * g * 2, redundant(4 * g, 0), redundant(4 * g, mask)]
    nums.append([full] + [0] * (g - 1))
    for _ in range(count):
        n = g * chunks()
        kind = rng.randrange(4)
        nums.append(
            [rng.getrandbits(cw) for _ in range(n)] if kind == 0
            else [rng.randrange(P) for _ in range(n)] if kind == 1
            else redundant(n, rng.choice((0, mask))) if kind == 2
            else convolution(n)
        )  # fmt: skip
    return [v + [0] * g for v in nums]


PASS = [{"S": 8, "STAGES": 1}]
PASS_WIDE = [{"S": 32, "STAGES": 2}, {"S": 16, "STAGES": 1, "BASE_LAT": 1, "LEVEL_LAT": 1}]


@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in PASS])
def test_rtl_ntt64_pass(rng: random.Random, params: dict[str, int]) -> None:
    go(rng, "ntt64_pass_tb", params, "ntt64_pass_transforms", MODULE, count=scaled(2))


@pytest.mark.rtl_wide
@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in PASS_WIDE])
def test_rtl_ntt64_pass_wide(rng: random.Random, params: dict[str, int]) -> None:
    go(rng, "ntt64_pass_tb", params, "ntt64_pass_transforms", MODULE, count=scaled(1))


def pass_edges(params: dict[str, int]) -> int:
    """ntt64_pass's start-to-done_o edges by montlab.hw.ntt64_schedule.pass_cycles, with the
    unit's latency STAGES + 2 and the ModMul's (karatsuba_mul's + 1)."""
    lu = params.get("STAGES", 1) + 2
    lm = karatsuba_latency(64, 17, params.get("BASE_LAT", 3), params.get("LEVEL_LAT", 4)) + 1
    return pass_cycles(params["S"], lu, lm)


LINT = {
    "ntt64_reduce": [{}],
    "ntt64_modmul": [{}, {"TW": 8, "LEVEL_LAT": 1, "BASE_LAT": 0}],
    "ntt64_unit": [{"N": 16, "STEP": 6, "STAGES": 2}, {"N": 4, "STEP": 24, "STAGES": 5}],
    "ntt64_pass": [{"S": 8}, {"S": 16, "STAGES": 3}, {"S": 32, "STAGES": 2, "LEVEL_LAT": 1}],
    "ntt64_twiddle": [{"S": 8, "LANE": 1}, {"S": 32, "LANE": 7}],
    "ntt64_carry": [
        {},
        {"G": 32, "B": 24, "SEG": 32},
        {"G": 4, "B": 16, "CSA_STAGES": 0},
        {"G": 1, "B": 32},
        {"G": 3, "B": 20, "CSA_STAGES": 3, "SEG": 7},
    ],
}


@pytest.mark.parametrize("top", list(LINT))
def test_lint_clean(top: str) -> None:
    """`verilator --lint-only -Wall` is clean (no waiver) at every parameter set of LINT."""
    for params in LINT[top]:
        assert_lint_clean(top, params)


ILLEGAL = [
    ("ntt64_modmul", {"TW": 0}),
    ("ntt64_carry", {"B": 64}),  # CW <= B: one block per coefficient, nothing to resolve
    ("ntt64_carry", {"G": 2, "B": 16}),  # G < R - 1 = 3
    ("ntt64_twiddle", {"S": 8, "LANE": 2}),  # L = 2 lanes
    ("ntt64_twiddle", {"S": 64}),
    ("ntt64_pass", {"S": 12}),
]


@pytest.mark.parametrize(
    ("top", "params"), [pytest.param(t, p, id=f"{t},{param_id(p)}") for t, p in ILLEGAL]
)
def test_illegal_parameters_stop(top: str, params: dict[str, int]) -> None:
    """Parameters outside a header's ranges stop elaboration in that module."""
    assert_stops(top, params)


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


@cocotb_test
async def ntt64_carry_stream(dut: Any) -> None:
    job = load_job()
    p = job["params"]
    g, b, cw = p["G"], p["B"], p.get("CW", 64)
    lat = p.get("CSA_STAGES", 1) + 6
    assert int(dut.LATENCY.value) == lat
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"ntt64_carry {p} (LATENCY {lat})")
    nums = carry_numbers(rng, g, b, cw, job["count"])
    ops: list[Any] = []
    ovfs = 0
    for coeffs in nums:
        exp = carry_expect(coeffs, g, b, cw)
        ovfs += sum(e[2] for e in exp)
        digits = sum(e[0] << (g * b * k) for k, e in enumerate(exp))
        value = sum(c << (b * i) for i, c in enumerate(coeffs))
        # the model is the oracle's own arithmetic: its digits must be the number's
        chk.check(digits == value and exp[-1][1] == 0, f"model: {coeffs}")
        for k, (d, c, _) in enumerate(exp):
            ops.append((k == 0, tuple(coeffs[g * k : g * (k + 1)]), d, c))
            if rng.random() < 0.1:
                ops.append(None)
    chk.check(ovfs > 0, "no chunk carried through all-ones digits")
    dut._log.info(f"{len(nums)} numbers, {len(ops)} chunks, {ovfs} chunk-wide carries")

    def drive(op: Any) -> None:
        dut.valid_i.value = 0 if op is None else 1
        first, cs = (0, (0,) * g) if op is None else op[:2]
        dut.first_i.value = int(first)
        dut.c_i.value = sum(c << (cw * j) for j, c in enumerate(cs))

    def read() -> tuple[int, tuple[int, int]]:
        return int(dut.valid_o.value), (int(dut.d_o.value), int(dut.carry_o.value))

    def expect(op: Any) -> tuple[int, int]:
        return op[2], op[3]

    await run_stream(dut, lat, chk, ops, drive, read, expect)
    chk.done()


class PassBench:
    """Clock, reset, bank loading and read-back for ntt64_pass_tb; inputs change on falling
    edges."""

    def __init__(self, dut: Any, side: int) -> None:
        self.dut, self.side = dut, side

    async def start(self) -> None:
        from cocotb.clock import Clock
        from cocotb.triggers import FallingEdge

        d = self.dut
        Clock(d.clk_i, 10, unit="ns").start()
        d.rst_ni.value = 0
        d.start_i.value = d.ld_we_i.value = d.ld_op_i.value = 0
        d.row_i.value = d.inv_i.value = d.op_i.value = 0
        d.rb_bank_i.value = d.rb_addr_i.value = d.ld_bank_i.value = d.ld_addr_i.value = 0
        d.ld_data_i.value = 0
        await FallingEdge(d.clk_i)
        await FallingEdge(d.clk_i)
        d.rst_ni.value = 1

    async def load(self, grid: dict[tuple[int, int], int], operand: bool = False) -> None:
        """Words at (row, column) into bank (r + c) mod S, address r."""
        from cocotb.triggers import FallingEdge

        d = self.dut
        d.ld_op_i.value = int(operand)
        for (r, c), v in grid.items():
            d.ld_we_i.value = 1
            d.ld_bank_i.value, d.ld_addr_i.value, d.ld_data_i.value = (r + c) % self.side, r, v
            await FallingEdge(d.clk_i)
        d.ld_we_i.value = 0

    async def read(self) -> dict[tuple[int, int], int]:
        from cocotb.triggers import FallingEdge

        d, out = self.dut, {}
        for r in range(self.side):
            for c in range(self.side):
                d.rb_bank_i.value, d.rb_addr_i.value = (r + c) % self.side, r
                await FallingEdge(d.clk_i)
                out[(r, c)] = int(d.rb_data_o.value)
        return out

    async def run(self, row: int, inv: int, op: int) -> int:
        """One pass; returns the edges from the start edge to the one after which done_o is
        high (bounded)."""
        from cocotb.triggers import FallingEdge

        d = self.dut
        d.row_i.value, d.inv_i.value, d.op_i.value, d.start_i.value = row, inv, op, 1
        await FallingEdge(d.clk_i)  # the start edge
        d.start_i.value = 0
        for t in range(1, 8 * self.side + 200):
            await FallingEdge(d.clk_i)
            if int(d.done_o.value):
                for _ in range(4):
                    if not int(d.busy_o.value):
                        return t
                    await FallingEdge(d.clk_i)
                raise AssertionError("ntt64_pass: busy_o still high 4 cycles after done_o")
        raise AssertionError("ntt64_pass: done_o never rose")


@cocotb_test
async def ntt64_pass_transforms(dut: Any) -> None:
    job = load_job()
    p = job["params"]
    side = p["S"]
    pts = side * side
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"ntt64_pass {p}")
    bench = PassBench(dut, side)
    await bench.start()
    want_t = pass_edges(p)

    def natural(x: list[int]) -> dict[tuple[int, int], int]:
        return {(i // side, i % side): v for i, v in enumerate(x)}

    def transposed(big_x: list[int]) -> dict[tuple[int, int], int]:
        return {(r, c): big_x[r + side * c] for r in range(side) for c in range(side)}

    vecs = [[P - 1] * pts, [1] + [0] * (pts - 1)]
    vecs += [[rng.randrange(P) for _ in range(pts)] for _ in range(job["count"])]
    cycles = []
    for x in vecs:
        # forward: COL with twiddles, then ROW; then the inverse back
        await bench.load(natural(x))
        cycles.append(await bench.run(row=0, inv=0, op=1))
        y, big_x = tf.ntt64_four_step(x, +1)
        got = await bench.read()  # output k of DFT j: y[j][k] at (k, j) (COL) or (j, k) (ROW)
        chk.check(got == {(k, j): y[j][k] for j in range(side) for k in range(side)}, "COL pass")
        cycles.append(await bench.run(row=1, inv=0, op=0))
        got = await bench.read()
        chk.check(got == transposed(big_x), f"forward: {got} want {transposed(big_x)}")
        cycles.append(await bench.run(row=1, inv=1, op=1))
        yi, back = tf.ntt64_four_step(big_x, -1, pow(pts, -1, P))
        got = await bench.read()
        chk.check(got == {(j, k): yi[j][k] for j in range(side) for k in range(side)}, "inv ROW")
        cycles.append(await bench.run(row=0, inv=1, op=0))
        got = await bench.read()
        chk.check(got == natural(x) and back == x, "inverse")
        # the pointwise product in the forward ROW pass
        other = [rng.randrange(P) for _ in range(pts)]
        await bench.load(transposed(other), operand=True)
        await bench.load(natural(x))
        cycles.append(await bench.run(row=0, inv=0, op=1))
        cycles.append(await bench.run(row=1, inv=0, op=2))
        got = await bench.read()
        prod = [a * b % P for a, b in zip(big_x, other)]
        chk.check(got == transposed(prod), "forward ROW pass times the operand banks")
    chk.check(all(t == want_t for t in cycles), f"done_o after {set(cycles)} edges, want {want_t}")
    dut._log.info(f"{len(vecs)} vectors; done_o {set(cycles)} edges after start")
    chk.done()
