"""montlab.hw.ntt64_schedule: the NTT64 transform's bank map and passes, replayed word by word,
against montlab.transforms (forward, inverse, a cyclic convolution) at 64, 256 and 1024 points."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from montlab import transforms as tf
from montlab.hw import ntt64_schedule as ns

P = tf.P64


@pytest.mark.parametrize("side", [8, 16, 32])
def test_transform_replay_matches_ntt64(rng: random.Random, side: int) -> None:
    lay = ns.Layout(side)
    edges = [[0] * lay.points, [P - 1] * lay.points, [1] + [0] * (lay.points - 1)]
    for x in edges + [[rng.randrange(P) for _ in range(lay.points)]]:
        big_x = ns.transform(lay, x, +1)
        assert big_x == tf.ntt64(x)
        assert ns.transform(lay, big_x, -1) == x


@pytest.mark.parametrize("side", [8, 16])
def test_convolution_through_the_passes(rng: random.Random, side: int) -> None:
    """FFT, FFT, pointwise product, IFFT on the banks = the cyclic convolution of b-bit samples."""
    lay = ns.Layout(side)
    half = lay.points // 2
    a = [rng.getrandbits(16) for _ in range(half)] + [0] * half
    b = [rng.getrandbits(16) for _ in range(half)] + [0] * half
    spec = [u * v % P for u, v in zip(ns.transform(lay, a, +1), ns.transform(lay, b, +1))]
    assert ns.transform(lay, spec, -1) == tf.cyclic_convolution(a, b, P)


def test_blocks_make_the_shift_dft(rng: random.Random) -> None:
    for side in (8, 16, 32):
        lay = ns.Layout(side)
        x = [rng.randrange(P) for _ in range(side)]
        assert ns.dft(lay, x) == tf.shift_dft(x, lay.step)
    assert ns.Layout(32).lanes == 8 and ns.Layout(8).lanes == 2  # 8 samples/cycle at 1024


def test_bank_check_can_fail() -> None:
    """A layout that puts a column in one bank conflicts on the COL pass (the replay's check
    is live)."""

    @dataclass(frozen=True)
    class ByColumn(ns.Layout):
        def bank(self, r: int, c: int) -> tuple[int, int]:
            return c, r

    lay = ByColumn(8)
    mem = ns.load(lay, list(range(64)))
    with pytest.raises(AssertionError, match="bank conflict"):
        ns.run_pass(lay, mem, "COL", None)


def test_layout_rows_and_columns_touch_every_bank() -> None:
    for side in (8, 16, 32):
        lay = ns.Layout(side)
        for j in range(side):
            for kind in ("COL", "ROW"):
                banks = [lay.bank(*lay.position(kind, j, n))[0] for n in range(side)]
                assert sorted(banks) == list(range(side))
    with pytest.raises(ValueError):
        ns.Layout(4)


def test_algorithm_1_passes() -> None:
    """Seven transforms (14 passes: the 14 of the 14 x (128 + 17) reading) and 3 carry passes."""
    kinds = [k for _, k, _ in ns.PASSES]
    assert kinds.count("COL") + kinds.count("ROW") == 14 and kinds.count("CARRY") == 3
    products = [job for _, k, job in ns.PASSES if job.startswith("times")]
    assert products == ["times FFT(X)", "times FFT(M')", "times FFT(M)"]


def test_twiddle_rom_is_generated() -> None:
    """rtl/ntt64/ntt64_twiddle.v is what its generator writes from the transform model."""
    from montlab.hw import ntt64_twiddle_rom as rom

    assert rom.OUT.read_text() == rom.render(), "run python -m montlab.hw.ntt64_twiddle_rom"
    # spot values: entry 0 of every ROM is omega^0 = 1 (forward) and N^-1 (inverse, j = 0)
    for side in (8, 16, 32):
        e = rom.entries(side, side // 4 - 1)
        assert e[0] == 1 and e[4 * side] == pow(side * side, -1, rom.P)
        assert len(e) == 8 * side and all(0 <= v < rom.P for v in e)
