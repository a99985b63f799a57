"""rtl/common/fermat_ntt, the constant-geometry transform engine mod 2^K + 1, simulated with
cocotb against montlab.transforms, stage by stage and whole, with its cycles against the
schedule model montlab.hw.fermat_ntt_schedule.

  * ISM3 rings (v = K, d = D): FFT (sign 0) against ism3_ntt_network and the definition
    ism3_ntt, IFFT (sign 1, read back times 2^-L) against ism3_intt_network; every stage on its
    own (j0 = j, jn = 1) against ism3_stage.
  * FMLM3 rings (P = D, c = K / D): CT, NCT, CT^-1 (read back times P^-1) and NCT^-1 (times
    (A^n P)^-1), against ct_network ... inct_network and every stage against cg_stage.
  * Both issue orders: consecutive butterflies (ORDER 0, ISM3) and split halves (ORDER 1,
    FMLM3), each with its bank mapping.
  * STREAM (FMLM3's final-stage operators): the last stage's pairs (x_k, x_k+D/2) in order,
    one per cycle, each in the model's cycle, beside the RAM result.
  * Cycles: done_o exactly in the model's cycle for one stage and for a whole transform,
    busy_o high until the last write; race_o low, except where the model says the in-place
    schedule races: there race_o rises and the result is wrong, and the same run with
    PINGPONG = 1 is correct.
The default run builds 9 parameter sets; the ISM3 Table III rings and more lane counts are
rtl_wide. Seeds: the ``rng`` fixture (MONTLAB_SEED); counts scale with MONTLAB_TEST_MULTIPLIER.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from common_helpers import CLOCK_NS, Checker, cocotb_test, go, load_job, param_id
from montlab import transforms as tf
from montlab.hw.fermat_ntt_schedule import Engine
from rtl_helpers import scaled

MODULE = "test_rtl_fermat_ntt"


def _eng(
    k: int,
    d: int,
    lanes: int,
    lat: int,
    pp: int,
    g: int,
    a: int = 0,
    groups: int = 0,
    order: int = 0,
    sqrt2: int = 0,
    rd: int = 0,
    sw: int = 0,
) -> dict[str, int]:
    """Engine parameters; GROUPS defaults to 2 with ping-pong, else 1."""
    return {"K": k, "D": d, "LANES": lanes, "BFLY_LAT": lat, "GROUPS": groups or 1 + pp,
            "PINGPONG": pp, "ORDER": order, "OMEGA_LOG2": g, "A_LOG2": a, "SQRT2": sqrt2,
            "RD_LAT": rd, "SW_LAT": sw}  # fmt: skip


def _fmlm3_depths(p_len: int, bfs: int) -> dict[str, int]:
    """FMLM3's transform unit (Sec. 5.5) on the c = 1/2 ring: split halves, two RAM groups, a
    6-cycle butterfly structure, a 2-cycle channel switch and 3 read/write cycles."""
    return {**_eng(p_len // 2, p_len, bfs, 6, 1, 1, order=1, sqrt2=1, rd=1, sw=2), "STREAM": 1}


ISM3 = ["ism3_fwd", "ism3_inv"]
FMLM3 = ["ct", "nct", "ict", "inct"]

# (parameters, kinds). ISM3 (v, d) = (32, 32): S = 4, no race; (32, 64) on one lane: S = 32,
# B + 2 < 16 races in place (the racing set checks race_o and that the result is wrong).
NTT = [
    (_eng(32, 32, 4, 2, 0, 2), ISM3),
    (_eng(32, 64, 1, 2, 1, 1), ISM3),
    (_eng(32, 64, 1, 2, 0, 1), ["race"]),
    (_eng(32, 32, 2, 2, 1, 2, order=1), ISM3),
    (_fmlm3_depths(32, 2), FMLM3),  # A = sqrt 2, FMLM3's depths (and streaming)
    (_fmlm3_depths(16, 1), FMLM3),  # streaming on one lane
    (_fmlm3_depths(32, 4), FMLM3),  # streaming with three lanes drained
    (_fmlm3_depths(16, 4), FMLM3),  # S = 2: drained words read in the cycle of their write
]
#: Table 5's transform lengths and butterfly counts (eqs. (28)-(29), measured by TABLE5 below).
TABLE5_SETS = [(p, n) for p in (32, 64, 128) for n in (1, 2, 4)]
NTT_WIDE = [
    (_eng(32, 16, 2, 3, 0, 4, 2, 2), FMLM3),  # in place, a second group for staging
    (_eng(32, 16, 2, 3, 0, 4, 2, order=1), FMLM3),  # split halves in place (CI: FMLM3's depths)
    (_eng(64, 64, 4, 2, 1, 2), ISM3),  # ISM3 Table III, 926 bits
    (_eng(64, 128, 4, 2, 1, 1), ISM3),  # 1790 bits
    (_eng(128, 128, 4, 2, 1, 2), ISM3),  # 3838 bits
    (_eng(128, 256, 4, 2, 1, 1), ISM3),  # 7678 bits, ping-pong
    (_eng(128, 256, 4, 2, 0, 1), ["race"]),  # 7678 bits in place: S/2 = 16 > B + 2
    (_eng(128, 256, 4, 14, 0, 1, groups=2), ISM3),  # in place, B + 2 = S/2: no race
    (_eng(32, 32, 1, 1, 1, 2, 1), FMLM3),
    (_eng(64, 32, 8, 6, 1, 4, 2), FMLM3),
    (_eng(128, 64, 2, 6, 0, 4, 2), FMLM3),
    (_eng(8, 16, 1, 1, 1, 1), ISM3),
    (_eng(16, 32, 2, 1, 1, 1), ISM3),
    (_eng(16, 8, 2, 2, 0, 4, 2), FMLM3),
    (_eng(32, 64, 1, 2, 0, 1, order=1), ["race"]),  # split halves in place: B + 1 < S/2
    (_eng(32, 64, 1, 2, 1, 1, order=1), ISM3),
    (_eng(64, 32, 8, 6, 1, 4, 2, order=1), FMLM3),
    (_eng(128, 64, 4, 6, 0, 4, 2, order=1), FMLM3),
    (_eng(8, 8, 1, 1, 0, 2, 1, order=1), FMLM3),
    (_eng(128, 256, 4, 15, 0, 1, order=1), ISM3),  # B + 1 = S/2: no race
    (_eng(8, 16, 1, 1, 1, 1, order=1, sqrt2=1), FMLM3),  # A = sqrt 2, P = 16 (SPEC 6 item 3)
    (_eng(64, 128, 2, 1, 1, 1, order=1, sqrt2=1, rd=2, sw=1), FMLM3),
]


def _run(rng: random.Random, params: dict[str, int], kinds: list[str]) -> None:
    go(rng, "fermat_ntt", params, "fermat_ntt_kinds", MODULE, kinds=kinds, count=scaled(2))


@pytest.mark.parametrize(("params", "kinds"), [pytest.param(p, k, id=param_id(p)) for p, k in NTT])
def test_rtl_fermat_ntt(rng: random.Random, params: dict[str, int], kinds: list[str]) -> None:
    _run(rng, params, kinds)


@pytest.mark.rtl_wide
@pytest.mark.parametrize(
    ("params", "kinds"), [pytest.param(p, k, id=param_id(p)) for p, k in NTT_WIDE]
)
def test_rtl_fermat_ntt_wide(rng: random.Random, params: dict[str, int], kinds: list[str]) -> None:
    _run(rng, params, kinds)


@pytest.mark.parametrize(
    ("p_len", "bfs"),
    [pytest.param(p, n, id=f"P{p} n{n}", marks=[] if (p, n) == (32, 2) else [pytest.mark.rtl_wide])
     for p, n in TABLE5_SETS],
)  # fmt: skip
def test_rtl_fermat_ntt_table5(rng: random.Random, p_len: int, bfs: int) -> None:
    """FMLM3 Table 5 measured: with the paper's depths, CT and NCT (A = sqrt 2: +2) end exactly
    at eqs. (28)-(29) (montlab.cycles.fmlm3.transform_cycles), and all four kinds are right."""
    from montlab.cycles.fmlm3 import transform_cycles

    params = _fmlm3_depths(p_len, bfs)
    eng = _engine(params)
    v = p_len.bit_length() - 1
    assert eng.done_cycle(v) == transform_cycles("ct", p_len, bfs)
    assert eng.done_cycle(v, supp=True) == transform_cycles("nct", p_len, bfs, sqrt2=True)
    _run(rng, params, FMLM3)


def _engine(params: dict[str, int]) -> Engine:
    """The schedule model of a parameter set (B: every rank from the RAM to the write)."""
    lat = params["BFLY_LAT"] + params.get("RD_LAT", 0) + params.get("SW_LAT", 0)
    return Engine(params["D"], params["LANES"], lat, bool(params["PINGPONG"]), params["ORDER"])


def test_race_sets_match_the_model() -> None:
    """The "race" sets race in the model and their ping-pong twins do not."""
    for params, kinds in NTT + NTT_WIDE:
        assert _engine(params).races == (kinds == ["race"]), params


# --- cocotb: the checkers (run inside the simulator) -----------------------------------------------

try:
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, Timer
except ImportError:  # pragma: no cover - the sweeps above skip through toolchain()
    pass


class NttBench:
    """Drives fermat_ntt from falling edges: loads, runs and reads back through its port."""

    def __init__(self, dut: Any, params: dict[str, int], chk: Checker) -> None:
        self.dut, self.p, self.chk = dut, params, chk
        self.k, self.d = params["K"], params["D"]
        self.l = self.d.bit_length() - 1
        self.eng = _engine(params)

    async def reset(self) -> None:
        dut = self.dut
        Clock(dut.clk_i, CLOCK_NS, unit="ns").start()
        dut.rst_ni.value = 0
        for name in ("start_i", "sign_i", "nega_i", "j0_i", "jn_i", "ext_we_i", "ext_re_i",
                     "ext_widx_i", "ext_bitrev_i", "ext_wdata_i", "ext_ridx_i", "ext_rexp_i",
                     "ext_wother_i", "swap_i", "stream_i"):  # fmt: skip
            getattr(dut, name).value = 0
        await Timer(1, "ns")
        await FallingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)

    async def load(self, vec: list[int], bitrev: bool) -> None:
        """Writes the vector; with two groups into the other one, then swaps (while a stale
        vector stays current, the way a design builds the next vector)."""
        dut = self.dut
        other = int(self.p["GROUPS"] == 2)
        dut.ext_wother_i.value = other
        for i, x in enumerate(vec):
            dut.ext_we_i.value, dut.ext_widx_i.value = 1, i
            dut.ext_bitrev_i.value, dut.ext_wdata_i.value = int(bitrev), x
            await FallingEdge(dut.clk_i)
        dut.ext_we_i.value = dut.ext_wother_i.value = 0
        if other:
            dut.swap_i.value = 1
            await FallingEdge(dut.clk_i)
            dut.swap_i.value = 0

    async def read(self, exps: list[int]) -> list[int]:
        """Position i times 2^exps[i], for every i (one read per cycle, two cycles latency)."""
        dut = self.dut
        out: list[int] = []
        for t in range(self.d + 4):
            if t < self.d:
                dut.ext_re_i.value, dut.ext_ridx_i.value = 1, t
                dut.ext_rexp_i.value = exps[t] % (2 * self.k)
            else:
                dut.ext_re_i.value = 0
            await FallingEdge(dut.clk_i)
            if int(dut.ext_rvalid_o.value):
                out.append(int(dut.ext_rdata_o.value))
        self.chk.check(len(out) == self.d, f"read back {len(out)} words, want {self.d}")
        return out

    async def run(
        self, sign: int, nega: int, j0: int, jn: int, stream: bool = False
    ) -> list[tuple[int, int, int, int]]:
        """One run; checks busy_o/done_o against the model and returns what it streamed:
        (cycle, k, x_k, x_k+D/2) per pair."""
        dut = self.dut
        dut.start_i.value, dut.sign_i.value, dut.nega_i.value = 1, sign, nega
        dut.j0_i.value, dut.jn_i.value, dut.stream_i.value = j0, jn, int(stream)
        await FallingEdge(dut.clk_i)  # cycle 1: the first issue
        dut.start_i.value = dut.stream_i.value = 0
        supp = bool(self.p.get("SQRT2")) and nega == 1 and j0 + jn == self.l
        want = self.eng.done_cycle(jn, supp, stream)
        cycle = 1
        got: list[tuple[int, int, int, int]] = []
        while cycle <= want + 8:
            busy, done = int(dut.busy_o.value), int(dut.done_o.value)
            if done:
                break
            self.chk.check(busy == 1, f"busy_o low in cycle {cycle} before done_o")
            if int(dut.st_valid_o.value):
                got.append((cycle, int(dut.st_idx_o.value), int(dut.st_lo_o.value),
                            int(dut.st_hi_o.value)))  # fmt: skip
            await FallingEdge(dut.clk_i)
            cycle += 1
        self.chk.check(
            cycle == want and int(dut.busy_o.value) == 0,
            f"run j0={j0} jn={jn}: done_o in cycle {cycle}, the model says {want}",
        )
        await FallingEdge(dut.clk_i)
        self.chk.check(int(dut.done_o.value) == 0, "done_o high for more than one cycle")
        return got


def _ring_ism3(k: int, d: int) -> tf.Ism3Ring:
    t = k.bit_length() - 1
    return tf.Ism3Ring(k, t + 1 - (d.bit_length() - 1))


def _ring_fmlm3(k: int, d: int) -> tf.FermatRing:
    return tf.FermatRing(d.bit_length() - 1, Fraction(k, d))


@cocotb_test
async def fermat_ntt_kinds(dut: Any) -> None:
    job = load_job()
    p = job["params"]
    k, d = p["K"], p["D"]
    q = (1 << k) + 1
    rng = random.Random(job["seed"])
    chk = Checker(dut, f"fermat_ntt {p} {job['kinds']}")
    bench = NttBench(dut, p, chk)
    big_l = bench.l
    await bench.reset()

    for kind in job["kinds"]:
        for trial in range(job["count"]):
            x = [rng.randrange(q) for _ in range(d)]
            if trial == 0 and kind != "race":
                x = [q - 1] * d  # all entries -1 (= 2^K): the largest words
            if kind == "race":  # the flag rises, and the overwritten words spoil the result
                ring = _ring_ism3(k, d)
                await bench.load(x, True)
                await bench.run(0, 0, 0, big_l)
                chk.check(int(dut.race_o.value) == 1, "race_o low after a racing run")
                got = await bench.read([0] * d)
                chk.check(got != tf.ism3_ntt_network(ring, tf.bit_reverse(x)), "racing run right")
                break
            if kind.startswith("ism3"):
                ring = _ring_ism3(k, d)
                assert ring.d == d and ring.omega_log2 == p["OMEGA_LOG2"]
                inv = kind == "ism3_inv"
                sign, nega = int(inv), 0
                want = (tf.ism3_intt_network if inv else tf.ism3_ntt_network)(
                    ring, tf.bit_reverse(x)
                )
                if d <= 64:  # the definitions (eq. (1) and its inverse) as well
                    oracle = (tf.ism3_intt if inv else tf.ism3_ntt)(ring, x)
                    assert oracle == want
                exps = [-big_l if inv else 0] * d

                def stage(cur: list[int], j: int, ring: Any = ring, inv: bool = inv) -> list[int]:
                    return tf.ism3_stage(ring, cur, big_l - 1 - j, -1 if inv else 1)
            else:
                fr = _ring_fmlm3(k, d)
                sq = fr.c == Fraction(1, 2)
                assert fr.omega_log2 == p["OMEGA_LOG2"] and sq == bool(p.get("SQRT2"))
                assert sq or fr.c == p["A_LOG2"]
                net = {"ct": tf.ct_network, "nct": tf.nct_network, "ict": tf.ict_network,
                       "inct": tf.inct_network}[kind]  # fmt: skip
                want = net(fr, tf.bit_reverse(x))
                sign, nega = int(kind in ("ct", "nct")), int(kind == "nct")
                exps = {"ct": [0] * d, "nct": [0] * d, "ict": [-fr.v] * d,
                        "inct": [-int(fr.c * n) - fr.v for n in range(d)]}[kind]  # fmt: skip
                if sq and kind == "inct":  # (A^n P)^-1 is not a power of two: read it raw
                    exps = [0] * d
                    want = [w * pow(fr.A, n, fr.M) * d % fr.M for n, w in enumerate(want)]
                ckind = {"ct": "ct", "nct": "nct", "ict": "inv", "inct": "inv"}[kind]

                def stage(cur: list[int], j: int, fr: Any = fr, ckind: str = ckind) -> list[int]:
                    return tf.cg_stage(fr, cur, j, ckind)

            # The whole transform, back to back, against the network; with STREAM (and in
            # the second trial) its last stage streamed as well, pair k in its model cycle.
            stream = bool(p.get("STREAM")) and trial % 2 == 1
            await bench.load(x, True)
            pairs = await bench.run(sign, nega, 0, big_l, stream)
            if stream:
                raw = [w * pow(2, -e % (2 * k), q) % q for w, e in zip(want, exps, strict=True)]
                supp = bool(p.get("SQRT2")) and nega == 1
                chk.check(
                    pairs == [(bench.eng.stream_cycle(big_l, i, supp), i, raw[i], raw[i + d // 2])
                              for i in range(d // 2)],
                    f"{kind}: the streamed pairs differ from the network's, or their cycles from "
                    "the model",
                )  # fmt: skip
            else:
                chk.check(pairs == [], f"{kind}: pairs streamed without stream_i")
            got = await bench.read(exps)
            chk.check(
                got == want,
                f"{kind} trial {trial}: {sum(g != w for g, w in zip(got, want))} of {d} differ",
            )
            chk.check(int(dut.race_o.value) == 0, f"{kind}: race_o high on a non-racing set")

            # Stage by stage, each against the model's stage.
            if trial == 0:
                await bench.load(x, True)
                cur = tf.bit_reverse(x)
                for j in range(big_l):
                    await bench.run(sign, nega, j, 1)
                    cur = stage(cur, j)
                    got = await bench.read([0] * d)
                    chk.check(got == cur, f"{kind} stage {j}: RAM differs from the model")
    chk.done()
