"""The dataflow of the NTT64 transform (rtl/ntt64): bank map, passes, block order, replayed;
and the cycle counts of our schedule.

A **model** of the data movement and the schedule our RTL implements, not a measurement and not
the paper's figure. The paper (Sec. IV-C) gives only the outline: two stages of 32-point DFTs, each done as
four uses of the radix-16 unit, twiddles by 8 ModMuls, 32 banks of 32 words, in-place,
conflict-free addressing. This module fixes one consistent reading and replays it word by word
(:func:`transform`), so that the tests can compare it with ``montlab.transforms.ntt64`` before
any RTL depends on it.

Contract:
  * Side S in (8, 16, 32): an S^2-point transform (64, 256, 1024) as S x S (SPEC 4.1 roots,
    ``transforms.NTT64_ROOTS``), on an S/2-PE unit (``ntt64_unit``, STEP = 192/S), L = S/4
    samples per cycle, S banks of S words.
  * Layout: sample i = S r + c (row r, column c) lives in bank (r + c) mod S at address r. A row
    and a column each touch every bank once, so any L consecutive samples of one are in L
    distinct banks (:func:`bank`).
  * Passes: COL j reads column j (input n at (n, j)) and writes output k at (k, j); ROW j reads
    row j (input n at (j, n)) and writes output k at (j, k); one pass runs its S DFTs j = 0 ..
    S-1. Forward = COL with twiddles omega^(j k), then ROW: position (r, c) then holds X[r + S c]
    (transposed). Inverse = ROW on that order with twiddles omega^(-j k) / S^2 (the 1/S^2 folded
    into the twiddle ROM), then COL: natural order. Inverse DFTs are the unit's forward DFT with
    output k taken from index -k mod S (an interchange permutation). The forward's ROW pass has no twiddles, so its
    ModMuls form the pointwise product with a stored spectrum (the paper's reuse).
  * One DFT: its S inputs are read L per cycle in ascending n over 4 cycles; the unit takes four
    blocks (n1h, k1h) in the order (0, 0), (1, 0), (0, 1), (1, 1), each S/2 inputs
    x[n0 + S/2 n1h] to the S/2 outputs sum_n0 x 2^(STEP n0 k0) (-1)^(n0 k1h + n1h k0); half k1h
    of the output (k = k0 + S/2 k1h) is block (0, k1h) + block (1, k1h), ready every 2 cycles
    and written L per cycle in ascending k after the twiddle.
  * :data:`PASSES`: Algorithm 1's 14 transform passes (7 transforms) and the 3 carry passes.

  * Cycles of our RTL (its tests check done_o against them): :func:`pass_cycles`, one pass of
    rtl/ntt64/ntt64_pass.v, 4S issue cycles plus DEPTH = 9 + the unit's and the ModMul's
    latencies; :func:`carry_cycles` and :func:`product_cycles` for rtl/ntt64/ntt64.v, which runs
    the 17 steps one after another.

Left out: overlapping a pass with the next (the next pass reads what the last DFTs write).
"""

from __future__ import annotations

from dataclasses import dataclass

from montlab import transforms as tf

P = tf.P64


@dataclass(frozen=True)
class Layout:
    side: int  #: S

    def __post_init__(self) -> None:
        if self.side not in tf.NTT64_SIDES:
            raise ValueError(f"side = {self.side} must be one of {tf.NTT64_SIDES}")

    @property
    def points(self) -> int:
        return self.side * self.side

    @property
    def lanes(self) -> int:
        """L, samples read (and written) per cycle."""
        return self.side // 4

    @property
    def step(self) -> int:
        """The unit's rotation step: omega_S = 2^STEP."""
        return 192 // self.side

    def bank(self, r: int, c: int) -> tuple[int, int]:
        """(bank, address) of the sample at row r, column c."""
        return (r + c) % self.side, r

    def position(self, kind: str, j: int, n: int) -> tuple[int, int]:
        """(row, column) of input (and output) n of DFT j in a ``kind`` ("COL"/"ROW") pass."""
        return (n, j) if kind == "COL" else (j, n)


def block(lay: Layout, x: list[int], n1h: int, k1h: int) -> list[int]:
    """One use of the unit: the S/2 outputs of block (n1h, k1h) of the S-point shift DFT."""
    h = lay.side // 2
    return [
        sum(
            (-1) ** ((n0 * k1h + n1h * k0) % 2) * x[n0 + h * n1h] * pow(2, lay.step * n0 * k0, P)
            for n0 in range(h)
        ) % P
        for k0 in range(h)
    ]  # fmt: skip


BLOCK_ORDER = ((0, 0), (1, 0), (0, 1), (1, 1))


def dft(lay: Layout, x: list[int]) -> list[int]:
    """The S-point DFT (root 2^STEP) from four blocks in :data:`BLOCK_ORDER`."""
    out = [0] * lay.side
    h = lay.side // 2
    for n1h, k1h in BLOCK_ORDER:
        for k0, v in enumerate(block(lay, x, n1h, k1h)):
            out[k0 + h * k1h] = (out[k0 + h * k1h] + v) % P
    return out


def run_pass(
    lay: Layout,
    mem: list[list[int]],
    kind: str,
    twiddle: int | None,
    scale: int = 1,
    inverse: bool = False,
) -> None:
    """One pass in place over ``mem[bank][address]``, checking that every cycle's L reads (and
    L writes) fall in distinct banks. ``inverse``: the root 2^-STEP, as the unit's forward DFT
    with output k taken from index -k mod S (the interchange permutation; the unit keeps one
    rotation set). ``twiddle`` = omega^(+-1) multiplies output k of DFT j by scale
    twiddle^(j k); None: no twiddle (the pointwise product is left to the caller)."""
    s, lanes = lay.side, lay.lanes
    for j in range(s):
        cells = [lay.bank(*lay.position(kind, j, n)) for n in range(s)]
        for cyc in range(4):
            banks = {cells[n][0] for n in range(cyc * lanes, (cyc + 1) * lanes)}
            assert len(banks) == lanes, f"{kind} {j} cycle {cyc}: bank conflict"
        x = [mem[b][a] for b, a in cells]
        y = dft(lay, x)
        if inverse:
            y = [y[-k % s] for k in range(s)]
        if twiddle is not None:
            y = [v * pow(twiddle, j * k, P) % P * scale % P for k, v in enumerate(y)]
        for (b, a), v in zip(cells, y, strict=True):
            mem[b][a] = v


def load(lay: Layout, x: list[int]) -> list[list[int]]:
    """Banks holding x in natural order (sample i at row i // S, column i % S)."""
    mem = [[0] * lay.side for _ in range(lay.side)]
    for i, v in enumerate(x):
        b, a = lay.bank(i // lay.side, i % lay.side)
        mem[b][a] = v
    return mem


def read(lay: Layout, mem: list[list[int]], transposed: bool = False) -> list[int]:
    """The banks as a vector: natural order, or (transposed) position (r, c) as index r + S c."""
    s = lay.side
    out = [0] * lay.points
    for r in range(s):
        for c in range(s):
            b, a = lay.bank(r, c)
            out[r + s * c if transposed else s * r + c] = mem[b][a]
    return out


def transform(lay: Layout, x: list[int], sign: int) -> list[int]:
    """Forward (sign +1: natural order in, X[k] out) or inverse (sign -1: X[k] in, x[n] out,
    with 1/S^2 folded into the twiddles), replayed pass by pass on the banks."""
    w = pow(tf.NTT64_ROOTS[lay.side], sign, P)
    if sign > 0:
        mem = load(lay, x)
        run_pass(lay, mem, "COL", w)
        run_pass(lay, mem, "ROW", None)
        return read(lay, mem, transposed=True)
    s = lay.side
    mem = [[0] * s for _ in range(s)]
    for r in range(s):  # X[k1 + S k2] at (k1, k2): the forward's transposed order
        for c in range(s):
            b, a = lay.bank(r, c)
            mem[b][a] = x[r + s * c]
    run_pass(lay, mem, "ROW", w, pow(lay.points, -1, P), inverse=True)
    run_pass(lay, mem, "COL", None, inverse=True)
    return read(lay, mem)


#: Algorithm 1 (SPEC 4.3) as passes: (what, pass kind, the ModMuls' job).
PASSES: tuple[tuple[str, str, str], ...] = (
    ("FFT(X)", "COL", "twiddle"),
    ("FFT(X)", "ROW", "-"),
    ("FFT(Y)", "COL", "twiddle"),
    ("FFT(Y)", "ROW", "times FFT(X)"),
    ("IFFT(T)", "ROW", "twiddle / S^2"),
    ("IFFT(T)", "COL", "-"),
    ("carries of T", "CARRY", "-"),
    ("FFT(t)", "COL", "twiddle"),
    ("FFT(t)", "ROW", "times FFT(M')"),
    ("IFFT(U)", "ROW", "twiddle / S^2"),
    ("IFFT(U)", "COL", "-"),
    ("carries of U (low half: u)", "CARRY", "-"),
    ("FFT(u)", "COL", "twiddle"),
    ("FFT(u)", "ROW", "times FFT(M)"),
    ("IFFT(W)", "ROW", "twiddle / S^2"),
    ("IFFT(W)", "COL", "-"),
    ("carries of W, C = T + W, c = C / R, c - M", "CARRY", "-"),
)


#: Edges between two transform passes of rtl/ntt64/ntt64.v: the step's go register and the
#: pass's start edge.
HANDOVER = 2


def min_b(side: int) -> int:
    """The least digit width rtl/ntt64/ntt64.v takes at side S: its carry unit reads
    coefficients of CW = 2b + 2 lg S bits as R = ceil(CW/b) blocks, and its chunk of L = S/4
    digits must hold R - 1 of them (6, 3, 2 at S = 8, 16, 32)."""
    lg = side.bit_length() - 1
    b = 1
    while -(-(2 * b + 2 * lg) // b) - 1 > side // 4:
        b += 1
    return b


def pass_cycles(side: int, unit_latency: int, modmul_latency: int) -> int:
    """Edges from ntt64_pass's start edge to the one after which done_o is high: DFT S-1's last
    quarter is addressed in cycle 4S - 1 and read at edge 4S; then the gather into the unit's
    input register (1), its blocks 1..3 (3), the unit, the two-block sum (1), the serializer's
    two groups (2), the operand/twiddle register (1), the ModMul, and the write register (1):
    9 edges beside the two latencies."""
    return 4 * side + 9 + unit_latency + modmul_latency


def carry_cycles(side: int, carry_latency: int) -> int:
    """Edges a carry pass of rtl/ntt64/ntt64.v takes, from its step's start to the next step's:
    the 4S chunks and one zero chunk that flushes the top (4S + 1), the RAM read (1), the carry
    unit, and the hand-over (2)."""
    return 4 * side + carry_latency + 4


def product_cycles(side: int, unit_latency: int, modmul_latency: int, carry_latency: int) -> int:
    """Edges from ntt64's start edge to the one after which done_o is high: 14 passes of
    :func:`pass_cycles` plus 2 edges of hand-over each, and 3 carry passes."""
    passes = sum(1 for _, kind, _ in PASSES if kind != "CARRY")
    carries = len(PASSES) - passes
    return passes * (
        pass_cycles(side, unit_latency, modmul_latency) + HANDOVER
    ) + carries * carry_cycles(side, carry_latency)


def step_ends(side: int, unit_latency: int, modmul_latency: int, carry_latency: int) -> list[int]:
    """For each of the 17 steps, the edge (after ntt64's start edge) after which its last
    write has landed: the edge that starts the next step, and for the last step the edge
    after which done_o is high."""
    pc = pass_cycles(side, unit_latency, modmul_latency) + HANDOVER
    cc = carry_cycles(side, carry_latency)
    out, edge = [], 0
    for _, kind, _ in PASSES:
        edge += cc if kind == "CARRY" else pc
        out.append(edge)
    return out
