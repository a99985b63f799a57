"""cocotb testbench parts shared by every architecture: driver, monitor, model and checker.

Contract: the DUT has the common interface of ``rtl/*/`` (clk_i, rst_ni, start_i, x_i, y_i, m_i,
busy_o, done_o, z_o; see the module headers). :class:`Driver` takes one operation at a time
(start_i for one cycle while busy_o is low); :class:`Monitor` counts the clock edges from the
one that takes start_i to the one after which done_o is high, and reads z_o; :class:`Model`
runs the reference model ``montlab.ref.<id>`` (imported, never copied) and its trace; the
checker (:class:`Bench`) compares z_o with the model's unreduced result, the cycle count with
the closed form, and, for traced operations, the per-round state the module exposes
(:func:`probes`) against the model's trace at the cycle the model's schedule gives.

Only imported inside a simulator (it needs cocotb).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer
from cocotb.utils import get_sim_time

from montlab import registry
from montlab.cycles import schedule
from montlab.hw import archs
from montlab.ref._base import Trace, from_words

#: One expected value: (signal path under the top, array index, value, description).
Probe = tuple[str, int, int, str]


def load_job() -> dict[str, Any]:
    """The job the flow wrote (montlab.hw.flow.simulate) for this run."""
    with open(os.environ["MONTLAB_HW_JOB"]) as f:
        job: dict[str, Any] = json.load(f)
    return job


def write_result(job: dict[str, Any], result: dict[str, Any]) -> None:
    with open(job["result"], "w") as f:
        json.dump(result, f)


class Model:
    """The reference model of one architecture at one parameter set."""

    def __init__(self, arch: archs.Arch, ap: archs.ArchParams) -> None:
        self.arch, self.ap = arch, ap
        self.mod = registry.get(arch.ref).ref_module()
        self.params = registry.resolve_params(arch.ref, arch.ref_params(ap))
        self._cfg: dict[int, Any] = {}

    def config(self, m: int) -> Any:
        cfg = self._cfg.get(m)
        if cfg is None:
            cfg = self._cfg[m] = self.mod.configure(m, self.params)
        return cfg

    def expect(self, m: int, x: int, y: int, trace: Trace | None = None) -> int:
        """The unreduced product x*y*r^-1 mod m in [0, 2m), as the RTL returns it."""
        z: int = self.mod.unreduced(self.config(m), x, y, trace)
        return z


def probes(arch: archs.Arch, ap: archs.ArchParams, trace: Trace) -> dict[int, list[Probe]]:
    """Per clock edge k after start (k = 1, 2, ...), the internal values to compare.

    Task (i, j) runs in cycle c of the model's schedule and is registered at edge c + 1:
      * mwr2mm_tk: PE (i mod p) holds the final word S^(j-1) of round i (trace "S") in pe_s;
      * mwr2mm_arch1 / mwr2mm_arch2: the selected unshifted word U^(j) (trace "U") shows on
        pe_u of the PE that ran it, and Architecture 2's PE 0 passes q_i on (pe_q[1]);
      * mwr4mm_arch2: U^(j) = word j of 4*S_i mod 2^(w*e) (trace "S") and q^(i) (trace "q_i").
    """
    w, e = ap.w, ap.e
    mask = (1 << w) - 1
    out: dict[int, list[Probe]] = {}

    def add(edge: int, probe: Probe) -> None:
        out.setdefault(edge, []).append(probe)

    if arch.name == "mwr2mm_tk":
        assert ap.p is not None
        sched = schedule.tenca_koc(ap.n, e, ap.p)
        for ent in trace:
            i = ent["i"]
            s_words = ent["S"]
            assert isinstance(i, int) and isinstance(s_words, list)
            for j in range(1, e + 1):
                edge = sched.start[(i, j)] + 1
                add(edge, ("pe_s", sched.pe[(i, j)], s_words[j - 1], f"S^({j - 1}) of round {i}"))
        return out
    core = "u_core." if arch.name == "mwr4mm_arch2" else ""
    for ent in trace:
        i = ent["i"]
        q_i = ent["q_i"]
        assert isinstance(i, int) and isinstance(q_i, int)
        if arch.name == "mwr4mm_arch2":
            s_words = ent["S"]
            assert isinstance(s_words, list)
            t = 4 * from_words(s_words, w)
            u = [(t >> (w * j)) & mask for j in range(e)]
            cycles = [i + j for j in range(e)]  # the Architecture-2 schedule, checked below
            pes = list(range(e))
        else:
            u_raw, c_raw, p_raw = ent["U"], ent["cycle"], ent["pe"]
            assert isinstance(u_raw, list) and isinstance(c_raw, list) and isinstance(p_raw, list)
            u, cycles, pes = u_raw, c_raw, p_raw
        for j in range(e):
            add(cycles[j] + 1, (f"{core}pe_u", pes[j], u[j], f"U^({j}) of round {i}"))
        if arch.name != "mwr2mm_arch1":
            add(cycles[0] + 1, (f"{core}pe_q", 1, q_i, f"q of round {i}"))
    if arch.name == "mwr4mm_arch2":
        sched = schedule.arch2(ap.rounds, e)
        assert all(sched.start[(i, j)] == i + j for i in range(ap.rounds) for j in range(e))
    return out


def _handle(dut: Any, path: str, index: int) -> Any:
    obj: Any = dut
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj[index]


@dataclass
class OpResult:
    z: int
    cycles: int
    probe_errors: list[str] = field(default_factory=list)
    probed: int = 0  #: internal values compared


class Driver:
    """Drives one operation: operands and a one-cycle start_i, on the falling edge."""

    def __init__(self, dut: Any) -> None:
        self.dut = dut

    async def idle(self) -> None:
        self.dut.start_i.value = 0

    async def start(self, m: int, x: int, y: int) -> None:
        dut = self.dut
        assert not int(dut.busy_o.value), "start while busy"
        dut.x_i.value, dut.y_i.value, dut.m_i.value = x, y, m
        dut.start_i.value = 1
        await RisingEdge(dut.clk_i)  # the edge that takes the operation
        await FallingEdge(dut.clk_i)
        dut.start_i.value = 0


class Monitor:
    """Counts the edges from start to done_o, reads z_o and samples the probes on the way."""

    def __init__(self, dut: Any, clock_ns: int, limit: int) -> None:
        self.dut, self.clock_ns, self.limit = dut, clock_ns, limit

    async def wait_done(self, t_start: float, expect: dict[int, list[Probe]] | None) -> OpResult:
        dut = self.dut
        errors: list[str] = []
        probed = 0
        if not expect:
            # Fast path: wait for done_o itself; the cycle count follows from the time.
            await RisingEdge(dut.done_o)
            await ReadOnly()
        else:
            last = max(expect)
            while True:
                await RisingEdge(dut.clk_i)
                await ReadOnly()
                k = round((get_sim_time("ns") - t_start) / self.clock_ns)
                for path, idx, want, what in expect.get(k, ()):
                    got = int(_handle(dut, path, idx).value)
                    probed += 1
                    if got != want:
                        errors.append(f"edge {k}: {what}: {path}[{idx}] = {got:#x}, want {want:#x}")
                if int(dut.done_o.value) and k >= last:
                    break
                if k > self.limit:
                    raise AssertionError(f"no done_o within {self.limit} cycles")
        cycles = round((get_sim_time("ns") - t_start) / self.clock_ns)
        if expect:
            assert probed == sum(len(v) for v in expect.values()), "a probe was never sampled"
        return OpResult(int(dut.z_o.value), cycles, errors, probed)


class Bench:
    """Clock, reset, and one checked operation at a time (the checker)."""

    def __init__(self, dut: Any, job: dict[str, Any]) -> None:
        self.dut = dut
        self.arch = archs.get(job["arch"])
        self.ap = self.arch.resolve(job["set"])
        self.clock_ns = int(job.get("clock_ns", 10))
        self.model = Model(self.arch, self.ap)
        self.driver = Driver(dut)
        self.closed_form = self.arch.closed_form(self.ap)
        self.monitor = Monitor(dut, self.clock_ns, 4 * self.closed_form + 16)
        self.failures: list[str] = []
        self.cycles: list[int] = []
        self.checked = 0
        self.traced = 0
        self.probed = 0

    def check_params(self) -> None:
        """The DUT's own parameters match the job (read back from the design)."""
        for name, want in self.ap.hdl().items():
            handle = getattr(self.dut, name, None)
            if handle is not None:
                got = int(handle.value)
                assert got == want, f"DUT parameter {name} = {got}, job says {want}"

    async def setup(self) -> None:
        Clock(self.dut.clk_i, self.clock_ns, unit="ns").start()
        await self.reset()
        self.check_params()

    async def reset(self, cycles: int = 2) -> None:
        dut = self.dut
        dut.start_i.value = 0
        dut.rst_ni.value = 0
        for _ in range(cycles):
            await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        dut.rst_ni.value = 1
        await FallingEdge(dut.clk_i)
        assert not int(dut.busy_o.value) and not int(dut.done_o.value), "busy or done after reset"

    async def op(self, m: int, x: int, y: int, kind: str = "random", trace: bool = False) -> bool:
        """Run one multiplication and check it; returns True when it matched."""
        tr: Trace | None = [] if trace else None
        want = self.model.expect(m, x, y, tr)
        expect = probes(self.arch, self.ap, tr) if tr is not None else None
        await self.driver.start(m, x, y)
        t_start = get_sim_time("ns") - self.clock_ns / 2  # the edge half a cycle ago
        res = await self.monitor.wait_done(t_start, expect)
        self.checked += 1
        self.traced += int(trace)
        self.probed += res.probed
        self.cycles.append(res.cycles)
        ok = res.z == want and res.cycles == self.closed_form and not res.probe_errors
        if not ok:
            msg = (
                f"{kind}: m={m:#x} x={x:#x} y={y:#x}: z={res.z:#x} want={want:#x} "
                f"cycles={res.cycles} closed form={self.closed_form}"
            )
            self.failures.append("; ".join([msg, *res.probe_errors[:4]]))
            self.dut._log.error(self.failures[-1])
        await FallingEdge(self.dut.clk_i)  # back to a writable phase, start may follow at once
        return ok

    async def wait_cycles(self, k: int) -> None:
        for _ in range(k):
            await RisingEdge(self.dut.clk_i)
        await FallingEdge(self.dut.clk_i)

    async def settle(self) -> None:
        await Timer(1, unit="ns")

    def summary(self) -> dict[str, Any]:
        distinct = sorted(set(self.cycles))
        cycles: int | list[int] | None = None
        if len(distinct) == 1:
            cycles = distinct[0]
        elif distinct:
            cycles = distinct
        return {
            "vectors": self.checked,
            "mismatches": len(self.failures),
            "cycles": cycles,
            "closed_form": self.closed_form,
            "traced": self.traced,
            "probed": self.probed,
            "failures": self.failures[:10],
        }


async def job_bench(dut: Any) -> tuple[dict[str, Any], Bench]:
    """The job of this run and a :class:`Bench` on ``dut``, clock started and reset done."""
    job = load_job()
    bench = Bench(dut, job)
    await bench.setup()
    return job, bench


async def run_job(dut: Any) -> Bench:
    """Every vector of the job, back to back (start_i in the done_o cycle), the first
    ``trace`` checked round by round; writes :meth:`Bench.summary` to the job's result file."""
    job, bench = await job_bench(dut)
    for k, (m, x, y, kind) in enumerate(job["vectors"]):
        await bench.op(int(m, 16), int(x, 16), int(y, 16), kind, trace=k < job["trace"])
    write_result(job, bench.summary())
    return bench
