"""rtl/common, the Fermat-ring blocks shared by the spectral designs (ISM3, FMLM3): fermat_addsub,
fermat_shift and fermat_reduce (one harness build per K, fermat_comb_tb.v), fermat_bfly,
karatsuba_mul and fermat_mul, simulated with cocotb against montlab.transforms and Python
integers.

  * fermat_addsub: s = (a + b) mod q, d = (a - b) mod q, q = 2^K + 1.
  * fermat_shift: y = x 2^e mod q against transforms.fermat_mul_pow2 (FermatRing.mul_pow2), over
    every exponent word (e >= 2K included when 2K is not a power of two).
  * fermat_reduce: step = transforms.ism3_alg1_step(A, K) (ISM3 Algorithm 1, one sign-magnitude
    step, SPEC 2.5) and res = transforms.ism3_alg1(A, K) = A mod q, for |A| <= 2^(2K+1).
  * fermat_bfly: a stream with gaps, each result LATENCY edges after its operands with its tag,
    and whole eq. (3) stages (transforms.ism3_stage, forward and inverse) fed pair by pair.
  * karatsuba_mul: p = a b LATENCY edges later, LATENCY = BASE_LAT + LEVELS LEVEL_LAT (the Python
    rule, and 7/11/15 at the paper's 34/66/130 bits), the side band and valid alongside.
  * fermat_mul: redundant signed operands in [-2^K - 1, 2^K]: step and res against
    ism3_alg1_step / ism3_alg1 on the product, the tag alongside.
Besides, Yosys maps karatsuba_mul to ECP5 cells and counts its 18 x 18 multipliers: 3^LEVELS
(3 at 34 bits by default; 9 and 27 at 66 and 130 bits under rtl_wide).

K sets: CI runs K = 8 and 12 (a K that is not a power of two, for the shifter) for the
combinational blocks, K = 16 for the butterfly, K = 32 for the multiplier; rtl_wide runs K = 4
(exhaustive), 8, 16, 32, 64 and 128 (the multiplier's 130-bit Karatsuba at K = 128). Seeds: the ``rng`` fixture (MONTLAB_SEED)
derives each cocotb seed, printed with the parameters; counts scale with MONTLAB_TEST_MULTIPLIER.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from common_helpers import (
    Checker,
    Stream,
    cocotb_test,
    go,
    karatsuba_latency,
    karatsuba_levels,
    load_job,
    param_id,
    run_stream,
    yosys_cells,
)
from montlab import transforms as tf
from rtl_helpers import scaled

MODULE = "test_rtl_fermat"

# --- pytest: the parameter sweeps ------------------------------------------------------------------

COMB = [({"K": 8}, "random"), ({"K": 12}, "random")]
COMB_WIDE = [({"K": 4}, "exhaustive")] + [({"K": k}, "random") for k in (16, 32, 64, 128)]


def _comb(rng: random.Random, params: dict[str, int], mode: str) -> None:
    go(rng, "fermat_comb_tb", params, "fermat_comb_vectors", MODULE, mode=mode, count=scaled(400))


@pytest.mark.parametrize(("params", "mode"), [pytest.param(p, m, id=param_id(p)) for p, m in COMB])
def test_rtl_fermat_comb(rng: random.Random, params: dict[str, int], mode: str) -> None:
    _comb(rng, params, mode)


@pytest.mark.rtl_wide
@pytest.mark.parametrize(
    ("params", "mode"), [pytest.param(p, m, id=param_id(p)) for p, m in COMB_WIDE]
)
def test_rtl_fermat_comb_wide(rng: random.Random, params: dict[str, int], mode: str) -> None:
    _comb(rng, params, mode)


BFLY = [{"K": 16, "LATENCY": 2, "TW": 8}]
BFLY_WIDE = [{"K": 8, "LATENCY": 1, "TW": 8}, {"K": 32, "LATENCY": 3, "TW": 8},
             {"K": 64, "LATENCY": 2, "TW": 8}, {"K": 128, "LATENCY": 6, "TW": 8}]  # fmt: skip


def _bfly(rng: random.Random, params: dict[str, int]) -> None:
    go(rng, "fermat_bfly", params, "fermat_bfly_stream", MODULE, count=scaled(300))
    go(rng, "fermat_bfly", params, "fermat_bfly_stages", MODULE, count=scaled(4))


@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in BFLY])
def test_rtl_fermat_bfly(rng: random.Random, params: dict[str, int]) -> None:
    _bfly(rng, params)


@pytest.mark.rtl_wide
@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in BFLY_WIDE])
def test_rtl_fermat_bfly_wide(rng: random.Random, params: dict[str, int]) -> None:
    _bfly(rng, params)


def _kmul(w: int, base_lat: int = 3, level_lat: int = 4, base_w: int = 17) -> dict[str, int]:
    return {"W": w, "BASE_W": base_w, "BASE_LAT": base_lat, "LEVEL_LAT": level_lat, "SW": 5}


KMUL = [_kmul(34)]
KMUL_WIDE = [_kmul(35, 1, 2), _kmul(130), _kmul(66), _kmul(17), _kmul(10, 0, 0, 3), _kmul(66, 2, 1),
             _kmul(130, 0, 3), _kmul(1, 1, 4)]  # fmt: skip


@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in KMUL])
def test_rtl_karatsuba_mul(rng: random.Random, params: dict[str, int]) -> None:
    go(rng, "karatsuba_mul", params, "karatsuba_stream", MODULE, count=scaled(600))


@pytest.mark.rtl_wide
@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in KMUL_WIDE])
def test_rtl_karatsuba_mul_wide(rng: random.Random, params: dict[str, int]) -> None:
    go(rng, "karatsuba_mul", params, "karatsuba_stream", MODULE, count=scaled(600))


FMUL = [{"K": 32, "TW": 6}]
FMUL_WIDE = [{"K": 8}, {"K": 16}, {"K": 64}, {"K": 64, "LEVEL_LAT": 1, "RED_LAT": 0}, {"K": 128}]
#: Stream length per set: K = 128 (a 130-bit Karatsuba inside) simulates slowly, so fewer.
FMUL_COUNT = {128: 150}


@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in FMUL])
def test_rtl_fermat_mul(rng: random.Random, params: dict[str, int]) -> None:
    go(
        rng,
        "fermat_mul",
        params,
        "fermat_mul_stream",
        MODULE,
        count=scaled(FMUL_COUNT.get(params["K"], 600)),
    )


@pytest.mark.rtl_wide
@pytest.mark.parametrize("params", [pytest.param(p, id=param_id(p)) for p in FMUL_WIDE])
def test_rtl_fermat_mul_wide(rng: random.Random, params: dict[str, int]) -> None:
    count = scaled(FMUL_COUNT.get(params["K"], 600))
    go(rng, "fermat_mul", params, "fermat_mul_stream", MODULE, count=count)


def test_karatsuba_rule() -> None:
    """The Python mirror of the level rule gives the paper's 1/2/3 levels and 7/11/15 cycles at
    34/66/130 bits (SPEC 2.6), and matches the RTL's closed form clog2(ceil(W / BASE_W))."""
    assert [karatsuba_levels(w, 17) for w in (34, 66, 130)] == [1, 2, 3]
    assert [karatsuba_latency(w, 17, 3, 4) for w in (34, 66, 130)] == [7, 11, 15]
    for w, bw in itertools.product(range(1, 300), range(1, 40)):
        assert karatsuba_levels(w, bw) == (-(-w // bw) - 1).bit_length()


def _dsps(w: int) -> None:
    cells = yosys_cells("karatsuba_mul", {"W": w})
    mults = cells.get("MULT18X18D", 0)
    print(f"[yosys] karatsuba_mul W={w}: {mults} MULT18X18D, {cells.get('TRELLIS_FF', 0)} FF")
    assert mults == 3 ** karatsuba_levels(w, 17)


def test_karatsuba_dsps() -> None:
    """34 bits: 3 multipliers (ISM3 Sec. V: 3 DSP48E1s for the 34-bit multiplier)."""
    _dsps(34)


@pytest.mark.rtl_wide
@pytest.mark.parametrize("w", [66, 130])
def test_karatsuba_dsps_wide(w: int) -> None:
    """66 and 130 bits: 9 and 27 multipliers (ISM3 Sec. V), not 16 and 64."""
    _dsps(w)


# --- cocotb: the checkers (run inside the simulator) -----------------------------------------------

try:
    from cocotb.triggers import FallingEdge, Timer
except ImportError:  # pragma: no cover - the sweeps above skip through toolchain()
    pass


def fermat_edges(k: int) -> list[int]:
    """Residues in [0, q) at the edges: 0, 1, 2, 2^(K-1), 2^K - 1, 2^K (= q - 1 = -1)."""
    return sorted({0, 1, 2, 1 << (k - 1), (1 << k) - 1, 1 << k})


def residue(rng: random.Random, k: int) -> int:
    """A residue in [0, q): an edge one time in four, else uniform."""
    return rng.choice(fermat_edges(k)) if rng.random() < 0.25 else rng.randrange((1 << k) + 1)


def signed(v: int, bits: int) -> int:
    return v - (1 << bits) if v >> (bits - 1) else v


@cocotb_test
async def fermat_comb_vectors(dut: Any) -> None:
    job = load_job()
    k = job["params"]["K"]
    ew = int(dut.EW.value)
    q, exhaustive = (1 << k) + 1, job["mode"] == "exhaustive"
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"fermat_comb_tb K={k} EW={ew} {job['mode']}")

    # fermat_addsub
    pairs = (
        list(itertools.product(range(q), repeat=2))
        if exhaustive
        else [(a, b) for a in fermat_edges(k) for b in fermat_edges(k)]
        + [(residue(rng, k), residue(rng, k)) for _ in range(job["count"])]
    )
    for a, b in pairs:
        dut.a_i.value, dut.b_i.value = a, b
        await Timer(1, "ns")
        s, d = int(dut.s_o.value), int(dut.d_o.value)
        chk.check(
            (s, d) == ((a + b) % q, (a - b) % q),
            f"addsub a={a:#x} b={b:#x}: s={s:#x} d={d:#x}, want {(a + b) % q:#x} {(a - b) % q:#x}",
        )

    # fermat_shift: every exponent word (e_i >= 2K is reduced mod 2K by the block)
    xs = (
        list(range(q))
        if exhaustive
        else fermat_edges(k) + [residue(rng, k) for _ in range(job["count"] // 8)]
    )
    for x in xs:
        for e in range(1 << ew):
            dut.x_i.value, dut.e_i.value = x, e
            await Timer(1, "ns")
            y, want = int(dut.y_o.value), tf.fermat_mul_pow2(x, e, k)
            chk.check(y == want, f"shift x={x:#x} e={e}: y={y:#x}, want {want:#x}")

    # fermat_reduce: A = +-mag with mag <= 2^(2K+1)
    top = 1 << (2 * k + 1)
    mags = (
        list(range(top + 1))
        if exhaustive
        else sorted(
            {
                0,
                1,
                q,
                (1 << k) - 1,
                1 << k,
                q * q - 1,
                q * q,
                (1 << (2 * k)) - 1,
                1 << (2 * k),
                top - 1,
                top,
            }
        )  # fmt: skip
        + [rng.randrange(top + 1) for _ in range(job["count"])]
        + [rng.randrange(1 << (2 * k)) for _ in range(job["count"])]
    )
    for mag in mags:
        for neg in (0, 1):
            a = -mag if neg else mag
            dut.neg_i.value, dut.mag_i.value = neg, mag
            await Timer(1, "ns")
            step, res = signed(int(dut.step_o.value), k + 3), int(dut.res_o.value)
            want_step, want_res = tf.ism3_alg1_step(a, k), tf.ism3_alg1(a, k)
            ok = step == want_step and res == want_res == a % q
            if mag < 1 << (2 * k):  # Sec. IV-B's redundant range
                ok = ok and -(1 << k) + 1 <= step <= (1 << k) - 1
            chk.check(
                ok, f"reduce A={a:#x}: step={step} res={res:#x}, want {want_step} {want_res:#x}"
            )
    chk.done()


@cocotb_test
async def fermat_bfly_stream(dut: Any) -> None:
    job = load_job()
    p = job["params"]
    k, lat, tw = p["K"], p["LATENCY"], p["TW"]
    ew = int(dut.EW.value)
    q = (1 << k) + 1
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"fermat_bfly {p} stream")
    ops: list[Any] = []
    for j in range(job["count"]):
        if rng.random() < 0.2:
            ops.append(None)
        else:
            ops.append((residue(rng, k), residue(rng, k), rng.randrange(1 << ew), j % (1 << tw)))

    def drive(op: Any) -> None:
        dut.valid_i.value = 0 if op is None else 1
        if op is not None:
            dut.a_i.value, dut.b_i.value, dut.e_i.value, dut.tag_i.value = op
        else:  # garbage on the data inputs of a bubble
            dut.a_i.value, dut.b_i.value = rng.randrange(q), rng.randrange(q)

    def read() -> tuple[int, tuple[int, int, int]]:
        return int(dut.valid_o.value), (
            int(dut.s_o.value),
            int(dut.d_o.value),
            int(dut.tag_o.value),
        )

    def expect(op: Any) -> tuple[int, int, int]:
        a, b, e, tag = op
        t = tf.fermat_mul_pow2(b, e, k)
        return (a + t) % q, (a - t) % q, tag

    await run_stream(dut, lat, chk, ops, drive, read, expect)
    chk.done()


@cocotb_test
async def fermat_bfly_stages(dut: Any) -> None:
    """Whole eq. (3) stages of an ISM3 ring with v = K (transforms.ism3_stage): every pair
    (x_2k, x_2k+1) with e = sign * omega_log2 * floor(k / 2^n) 2^n mod 2K, outputs at k and
    k + d/2, tag = k; forward and inverse, every stage n, for each admissible root."""
    job = load_job()
    p = job["params"]
    k, lat = p["K"], p["LATENCY"]
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"fermat_bfly {p} stages")
    t_log = k.bit_length() - 1
    assert 1 << t_log == k, "stage checks need K a power of two (v = 2^t)"
    bench = Stream(dut, lat, chk)
    await bench.start()
    for trial in range(job["count"]):
        ring = tf.Ism3Ring(k, trial % (t_log + 1) if t_log >= 1 else 0)
        if ring.d // 2 > 1 << p["TW"]:
            continue
        x = [residue(rng, k) for _ in range(ring.d)]
        for n in range(ring.L):
            for sign in (1, -1):
                want = tf.ism3_stage(ring, x, n, sign)
                got = [-1] * ring.d
                half = ring.d // 2
                for t in range(half + lat + 1):
                    if t < half:
                        e = (sign * ring.omega_log2 * ((t >> n) << n)) % (2 * k)
                        dut.valid_i.value, dut.tag_i.value = 1, t
                        dut.a_i.value, dut.b_i.value, dut.e_i.value = x[2 * t], x[2 * t + 1], e
                    else:
                        dut.valid_i.value = 0
                    await FallingEdge(dut.clk_i)
                    if int(dut.valid_o.value):
                        j = int(dut.tag_o.value)
                        got[j], got[j + half] = int(dut.s_o.value), int(dut.d_o.value)
                chk.check(
                    got == want,
                    f"ring (v={k}, d={ring.d}) stage n={n} sign={sign}: "
                    f"{sum(g != w for g, w in zip(got, want))} of {ring.d} outputs differ",
                )
    chk.done()


@cocotb_test
async def karatsuba_stream(dut: Any) -> None:
    job = load_job()
    p = job["params"]
    w, sw = p["W"], p["SW"]
    lat = karatsuba_latency(w, p["BASE_W"], p["BASE_LAT"], p["LEVEL_LAT"])
    lat_dut = int(dut.u_core.LATENCY.value)
    assert lat_dut == lat, f"LATENCY = {lat_dut}, the rule gives {lat}"
    levels = karatsuba_levels(w, p["BASE_W"])
    assert int(dut.u_core.LEVELS.value) == levels
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"karatsuba_mul {p} (LEVELS {levels}, LATENCY {lat})")
    mask = (1 << w) - 1
    edges = sorted({0, 1, mask, 1 << (w - 1), mask >> 1, mask ^ 1})
    ops: list[Any] = [(a, b, 0) for a in edges for b in edges]
    for j in range(job["count"]):
        ops.append(None if rng.random() < 0.1 else
                   (rng.getrandbits(w), rng.getrandbits(w), rng.getrandbits(sw)))  # fmt: skip

    def drive(op: Any) -> None:
        dut.valid_i.value = 0 if op is None else 1
        a, b, side = op if op is not None else (rng.getrandbits(w), rng.getrandbits(w), 0)
        dut.a_i.value, dut.b_i.value, dut.side_i.value = a, b, side

    def read() -> tuple[int, tuple[int, int]]:
        return int(dut.valid_o.value), (int(dut.p_o.value), int(dut.side_o.value))

    def expect(op: Any) -> tuple[int, int]:
        return op[0] * op[1], op[2]

    if lat == 0:  # combinational: check at once
        bench = Stream(dut, lat, chk)
        await bench.start()
        for op in ops:
            if op is None:
                continue
            drive(op)
            await Timer(1, "ns")
            chk.check(read() == (1, expect(op)), f"op {op}: got {read()}")
    else:
        await run_stream(dut, lat, chk, ops, drive, read, expect)
    chk.done()


@cocotb_test
async def fermat_mul_stream(dut: Any) -> None:
    job = load_job()
    p = job["params"]
    k = p["K"]
    lat = int(dut.u_mul.u_core.LATENCY.value) + p.get("RED_LAT", 1)
    want_mul = karatsuba_latency(k + 2, 17, 3, p.get("LEVEL_LAT", 4))
    assert int(dut.u_mul.u_core.LATENCY.value) == want_mul
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"fermat_mul {p} (LATENCY {lat})")
    lo, hi = -(1 << k) - 1, 1 << k  # Sec. IV-B's storage range
    edges = sorted({lo, lo + 1, -(1 << k) + 1, -1, 0, 1, hi - 1, hi})
    tw = p.get("TW", 1)
    ops: list[Any] = [(a, b, rng.getrandbits(tw)) for a in edges for b in edges]
    for _ in range(job["count"]):
        ops.append(None if rng.random() < 0.1 else
                   (rng.randint(lo, hi), rng.randint(lo, hi), rng.getrandbits(tw)))  # fmt: skip
    bits = k + 2

    def drive(op: Any) -> None:
        dut.valid_i.value = 0 if op is None else 1
        a, b, tag = op if op is not None else (0, 0, 0)
        dut.a_i.value, dut.b_i.value, dut.tag_i.value = a % (1 << bits), b % (1 << bits), tag

    def read() -> tuple[int, tuple[int, int, int]]:
        return int(dut.valid_o.value), (
            signed(int(dut.step_o.value), k + 3),
            int(dut.res_o.value),
            int(dut.tag_o.value),
        )

    def expect(op: Any) -> tuple[int, int, int]:
        prod = op[0] * op[1]
        return tf.ism3_alg1_step(prod, k), tf.ism3_alg1(prod, k), op[2]

    await run_stream(dut, lat, chk, ops, drive, read, expect)
    chk.done()
