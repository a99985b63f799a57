"""cocotb testbench parts shared by every architecture: driver, monitor, model and checker.

Contract: the DUT has the common interface of ``rtl/*/`` (clk_i, rst_ni, start_i, busy_o,
done_o and the result port; see :mod:`montlab.hw.specs.base`). The architecture's spec says
everything that differs: how an operation is loaded (:class:`Driver` writes the spec's RAM
writes one per cycle before start_i, counted as load cycles, then holds the port values and
pulses start_i for one cycle while busy_o is low), how the result comes back (the result port at
done_o, or reads through a read port after it, :meth:`Driver.read_words`), the sticky status
flags reported in the summary, the expected result (:class:`Model`, the
reference model ``montlab.ref.<id>``, imported, never copied), the per-edge probes against the
model's trace, and the cycle count of our schedule (a model, checked here). :class:`Monitor`
counts the clock edges from the one that takes start_i to the one after which done_o is high.

Every wait is bounded: an operation that does not raise done_o within ``limit`` cycles fails
with the state it reached (busy_o, done_o, the edges waited), and a bounded loop replaces every
wait on a signal edge. Every HDL parameter the spec declares is read back from the design, and
one the simulator does not expose fails the test.

Only imported inside a simulator (it needs cocotb).
"""

from __future__ import annotations

import importlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge
from cocotb.utils import get_sim_time

from montlab.hw import specs
from montlab.hw.specs.base import HwParams, HwSpec, Load, Probe, RamRead
from montlab.ref._base import Trace


def load_job() -> dict[str, Any]:
    """The job the flow wrote (montlab.hw.flow.simulate) for this run."""
    with open(os.environ["MONTLAB_HW_JOB"]) as f:
        job: dict[str, Any] = json.load(f)
    return job


def write_result(job: dict[str, Any], result: dict[str, Any]) -> None:
    with open(job["result"], "w") as f:
        json.dump(result, f)


def note_scenario(job: dict[str, Any], name: str, info: dict[str, Any]) -> None:
    """Adds a scenario's outcome to the run's result file under "scenarios" (a summary of
    checked vectors already there stays as it is)."""
    out: dict[str, Any] = {}
    if os.path.isfile(job["result"]):
        with open(job["result"]) as f:
            out = json.load(f)
    out.setdefault("scenarios", {})[name] = info
    write_result(job, out)


def spec_of(job: dict[str, Any]) -> HwSpec:
    """The job's spec: a registered architecture, or ``module:Class`` (test-only designs)."""
    ref = job.get("spec")
    if ref:
        mod, _, cls = ref.partition(":")
        spec: HwSpec = getattr(importlib.import_module(mod), cls)()
        return spec
    return specs.get(job["arch"])


class Model:
    """The reference model of one architecture at one parameter set."""

    def __init__(self, spec: HwSpec, ap: HwParams) -> None:
        self.spec, self.ap = spec, ap
        self._cfg: dict[int, Any] = {}

    def config(self, m: int) -> Any:
        cfg = self._cfg.get(m)
        if cfg is None:
            cfg = self._cfg[m] = self.spec.configure(self.ap, m)
        return cfg

    def expect(self, m: int, x: int, y: int, trace: Trace | None = None) -> int:
        """The value the result port shows (the spec decides: unreduced or reduced)."""
        return self.spec.expect(self.ap, self.config(m), x, y, trace)


def _handle(dut: Any, path: str, index: int | None) -> Any:
    """The handle at a dotted path under the top; a part may index a generate block or array
    (``g_bank[3]``)."""
    obj: Any = dut
    for part in path.split("."):
        name, _, rest = part.partition("[")
        obj = getattr(obj, name)
        if rest:
            obj = obj[int(rest.rstrip("]"))]
    return obj if index is None else obj[index]


def _probe_value(dut: Any, probe: Probe) -> int:
    return sum(int(_handle(dut, path, idx).value) for path, idx in probe.signals)


def _signal_name(probe: Probe) -> str:
    return "+".join(p if i is None else f"{p}[{i}]" for p, i in probe.signals)


class Timeout(AssertionError):
    """A wait ran past its cycle limit."""


@dataclass
class OpResult:
    z: int
    cycles: int
    load_cycles: int = 0
    probe_errors: list[str] = field(default_factory=list)
    probed: int = 0  #: internal values compared


class Driver:
    """Loads and starts one operation, changing inputs on the falling edge."""

    def __init__(self, dut: Any, volatile: tuple[str, ...] = ()) -> None:
        self.dut = dut
        self._loaded: dict[str, dict[int, int]] = {}  #: what each RAM holds, as written
        self._volatile = volatile  #: RAMs the design overwrites: always written

    async def write_rams(self, load: Load) -> int:
        """The load's RAM writes that change a RAM's content, one per cycle; returns cycles."""
        dut = self.dut
        cycles = 0
        for wr in load.writes:
            held = self._loaded.setdefault(wr.port, {})
            if held.get(wr.addr) == wr.data and wr.port not in self._volatile:
                continue
            getattr(dut, f"{wr.port}_we_i").value = 1
            getattr(dut, f"{wr.port}_addr_i").value = wr.addr
            getattr(dut, f"{wr.port}_data_i").value = wr.data
            await RisingEdge(dut.clk_i)
            await FallingEdge(dut.clk_i)
            held[wr.addr] = wr.data
            cycles += 1
        for port in {wr.port for wr in load.writes}:
            getattr(dut, f"{port}_we_i").value = 0
        return cycles

    def forget(self) -> None:
        """A reset cleared the RAMs' contents as far as the driver knows."""
        self._loaded.clear()

    async def read_words(self, reads: list[RamRead], limit: int) -> list[int]:
        """The reads, one per cycle, and the words they return (at most ``limit`` cycles)."""
        dut = self.dut
        out: list[int] = []
        ports = {rd.port for rd in reads}
        for t in range(len(reads) + limit):
            for port in ports:
                getattr(dut, f"{port}_re_i").value = 0
            if t < len(reads):
                rd = reads[t]
                getattr(dut, f"{rd.port}_re_i").value = 1
                getattr(dut, f"{rd.port}_addr_i").value = rd.addr
                for name, value in rd.fixed:
                    getattr(dut, name).value = value
            await RisingEdge(dut.clk_i)
            await FallingEdge(dut.clk_i)
            for port in ports:
                if int(getattr(dut, f"{port}_valid_o").value):
                    out.append(int(getattr(dut, f"{port}_data_o").value))
            if len(out) == len(reads):
                break
        for port in ports:
            getattr(dut, f"{port}_re_i").value = 0
        if len(out) != len(reads):
            raise Timeout(f"read-out: {len(out)} of {len(reads)} words within {limit} cycles")
        return out

    async def start(self, load: Load) -> None:
        dut = self.dut
        assert not int(dut.busy_o.value), "start while busy"
        for name, value in load.ports.items():
            getattr(dut, name).value = value
        dut.start_i.value = 1
        await RisingEdge(dut.clk_i)  # the edge that takes the operation
        await FallingEdge(dut.clk_i)
        dut.start_i.value = 0


class Monitor:
    """Counts the edges from start to done_o, reads the result and samples the probes."""

    def __init__(self, dut: Any, clock_ns: int, limit: int, result_port: str = "z_o") -> None:
        self.dut, self.clock_ns, self.limit = dut, clock_ns, limit
        self.result_port = result_port

    def _state(self, k: int) -> str:
        dut = self.dut
        return (
            f"no done_o within {self.limit} cycles: after {k} edges busy_o = "
            f"{dut.busy_o.value}, done_o = {dut.done_o.value}"
        )

    async def wait_done(self, t_start: float, expect: dict[int, list[Probe]] | None) -> OpResult:
        """Every edge up to done_o (at most ``limit``); probes sampled at their edges."""
        dut = self.dut
        errors: list[str] = []
        probed = 0
        expect = expect or {}
        last = max(expect, default=0)
        while True:
            await RisingEdge(dut.clk_i)
            await ReadOnly()
            k = round((get_sim_time("ns") - t_start) / self.clock_ns)
            for probe in expect.get(k, ()):
                got = _probe_value(dut, probe)
                probed += 1
                if got != probe.want:
                    errors.append(
                        f"edge {k}: {probe.what}: {_signal_name(probe)} = {got:#x}, "
                        f"want {probe.want:#x}"
                    )
            if int(dut.done_o.value) and k >= last:
                break
            if k >= self.limit:
                raise Timeout(self._state(k))
        cycles = round((get_sim_time("ns") - t_start) / self.clock_ns)
        assert probed == sum(len(v) for v in expect.values()), "a probe was never sampled"
        z = int(getattr(dut, self.result_port).value) if self.result_port else -1
        return OpResult(z, cycles, probe_errors=errors, probed=probed)


class Bench:
    """Clock, reset, and one checked operation at a time (the checker)."""

    def __init__(self, dut: Any, job: dict[str, Any]) -> None:
        self.dut = dut
        self.spec = spec_of(job)
        self.ap = self.spec.resolve(job["set"])
        self.clock_ns = int(job.get("clock_ns", 10))
        self.model = Model(self.spec, self.ap)
        self.driver = Driver(dut, self.spec.volatile_rams)
        self.expected_cycles = self.spec.cycles(self.ap)
        limit = int(job.get("timeout_cycles") or 4 * self.expected_cycles + 16)
        self.readout = self.spec.readout(self.ap)
        port = "" if self.readout else self.spec.result_port
        self.monitor = Monitor(dut, self.clock_ns, limit, port)
        self.failures: list[str] = []
        self.cycles: list[int] = []
        self.load_cycles: list[int] = []
        self.status = {name: 0 for name in self.spec.status_ports(self.ap)}
        self.checked = 0
        self.traced = 0
        self.probed = 0

    def check_params(self) -> None:
        """Every HDL parameter of the spec, read back from the design, matches the job."""
        for name, want in self.ap.hdl.items():
            handle = getattr(self.dut, name, None)
            assert handle is not None, (
                f"the design exposes no parameter {name}: the spec declares it, so the test "
                "cannot confirm the build is the one it checks"
            )
            got = int(handle.value)
            assert got == want, f"DUT parameter {name} = {got}, job says {want}"

    async def setup(self) -> None:
        Clock(self.dut.clk_i, self.clock_ns, unit="ns").start()
        for name, value in self.spec.load_idle(self.ap).items():
            getattr(self.dut, name).value = value
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
        self.driver.forget()
        await FallingEdge(dut.clk_i)
        assert not int(dut.busy_o.value) and not int(dut.done_o.value), "busy or done after reset"

    async def start(self, m: int, x: int, y: int) -> int:
        """Load and start one operation without checking it; returns the load cycles."""
        load = self.spec.load(self.ap, self.model.config(m), x, y)
        loads = await self.driver.write_rams(load)
        await self.driver.start(load)
        return loads

    async def op(self, m: int, x: int, y: int, kind: str = "random", trace: bool = False) -> bool:
        """Run one multiplication and check it; returns True when it matched."""
        tr: Trace | None = [] if trace else None
        want = self.model.expect(m, x, y, tr)
        cfg = self.model.config(m)
        expect = self.spec.probes(self.ap, cfg, tr) if tr is not None else None
        loads = await self.start(m, x, y)
        t_start = get_sim_time("ns") - self.clock_ns / 2  # the edge half a cycle ago
        res = await self.monitor.wait_done(t_start, expect)
        for name in self.status:
            self.status[name] |= int(getattr(self.dut, name).value)
        if self.readout:  # the result stays in RAM: read it out (cycles not counted)
            await FallingEdge(self.dut.clk_i)
            words = await self.driver.read_words(self.readout, 16)
            res.z = self.spec.assemble(self.ap, words)
        self.checked += 1
        self.traced += int(trace)
        self.probed += res.probed
        self.cycles.append(res.cycles)
        self.load_cycles.append(loads)
        ok = res.z == want and res.cycles == self.expected_cycles and not res.probe_errors
        if not ok:
            msg = (
                f"{kind}: m={m:#x} x={x:#x} y={y:#x}: z={res.z:#x} want={want:#x} "
                f"cycles={res.cycles} model={self.expected_cycles}"
            )
            self.failures.append("; ".join([msg, *res.probe_errors[:4]]))
            self.dut._log.error(self.failures[-1])
        await FallingEdge(self.dut.clk_i)  # back to a writable phase, start may follow at once
        return ok

    async def wait_cycles(self, k: int) -> None:
        for _ in range(k):
            await RisingEdge(self.dut.clk_i)
        await FallingEdge(self.dut.clk_i)

    def summary(self) -> dict[str, Any]:
        def one(values: list[int]) -> int | list[int] | None:
            distinct = sorted(set(values))
            if len(distinct) == 1:
                return distinct[0]
            return distinct or None

        return {
            "vectors": self.checked,
            "mismatches": len(self.failures),
            "cycles": one(self.cycles),
            "cycle_model": self.expected_cycles,
            "load_cycles": one([c for c in self.load_cycles if c]) or 0,
            "traced": self.traced,
            "probed": self.probed,
            "failures": self.failures[:10],
            **({"status": dict(self.status)} if self.status else {}),
        }


async def job_bench(dut: Any) -> tuple[dict[str, Any], Bench]:
    """The job of this run and a :class:`Bench` on ``dut``, clock started and reset done."""
    job = load_job()
    bench = Bench(dut, job)
    await bench.setup()
    return job, bench


async def run_job(dut: Any) -> Bench:
    """Every vector of the job, back to back (start_i in the done_o cycle), the first
    ``trace`` checked edge by edge; writes :meth:`Bench.summary` to the job's result file.
    A timeout is written as a result too (``timeout``), then raised."""
    job, bench = await job_bench(dut)
    try:
        for k, (m, x, y, kind) in enumerate(job["vectors"]):
            await bench.op(int(m, 16), int(x, 16), int(y, 16), kind, trace=k < job["trace"])
    except Timeout as exc:
        write_result(job, {**bench.summary(), "timeout": str(exc)})
        raise
    write_result(job, bench.summary())
    return bench
