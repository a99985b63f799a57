"""drmmm: the different-radix Montgomery multiplier, Algorithm 3 (DRMMM paper; SPEC 3.3 and
docs/errata.md DRMMM 1-3, 7), rtl/drmmm/drmmm.v.

Contract: parameters n (modulus bits, default 64), k (digit bits, >= 2), t (pipeline stages),
g (guard bits above kt+n+k), f (final add/subtract stages), serial (final stage
segment-serial), pp (q^*M as AND rows (0) or a loaded table of multiples (1), window win bits),
cell (compressor cells), and two erratum switches, printed_loop and q_carries (each makes the
design fail, as the errata say). g = 0, the width that erratum 7 shows one bit short for
Algorithm 2's register, is not a failing variant here: the carry-save words fit in it. The result z_o is
fully reduced: the model's ``mont_mul`` with alg = 3. Cycle model of our schedule:
d + t + f (+1 with printed_loop), d = ceil(n/k). Load: x, y, m and M' = -m^-1 mod 2^(kt) as
ports; with pp = 1 also the 2^win table entries j*m, written before start_i once per modulus.

Probes, for a traced operation: the represented value Z0+Z1+Z2+C_l+C_m after iteration i (trace
"Z") at edge i+1; q^_(i-t+1) ("q_used" in iteration i) at edge i (i >= 1); and q^_i, the q
pipeline's adder output ("q_new"), in cycle i + max(t-2, 0) (at that edge, when it is >= 1 and
inside the run).
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab import registry
from montlab.errors import ParameterError
from montlab.hw.specs.base import (
    DEFAULT_N,
    HwParam,
    HwParams,
    HwSpec,
    Load,
    Port,
    Probe,
    RamWrite,
    Variant,
)
from montlab.ref._base import Trace

_STATE = (("z0_q", None), ("z1_q", None), ("z2_q", None), ("cl_q", None), ("cm_q", None))


class Drmmm(HwSpec):
    name = "drmmm"
    ref = "drmmm"
    cycle_model = "d + t + f (d = ceil(n/k)); + 1 with printed_loop = 1"
    doc = "DRMMM Algorithm 3: carry-save triplet, t-stage quotient pipeline, one digit a cycle"
    hw_params = {
        "g": HwParam(1, 0, 4, "guard bits above kt+n+k per word (0 = the paper's f = 0)"),
        "f": HwParam(1, 1, 64, "stages of the final add/subtract"),
        "serial": HwParam(0, 0, 1, "final stage: 0 pipelined, 1 segment-serial"),
        "pp": HwParam(0, 0, 1, "q^*M: 0 = k AND rows, 1 = loaded table of multiples j*M"),
        "win": HwParam(4, 1, 8, "with pp = 1: table window bits (divides k)"),
        "cell": HwParam(1, 0, 2, "compressor cells: 0 3:2 rows, 1 6:3 eq. (31), 2 6:3 Fig. 8(a)"),
        "printed_loop": HwParam(0, 0, 1, "1 = the printed d+t+1 iterations (erratum 2)"),
        "q_carries": HwParam(1, 0, 1, "0 = stage 1 without C_l, C_m (erratum 3)"),
    }
    variants = {
        "printed_loop": {1: Variant(1, "DRMMM erratum 2: d+t+1 iterations")},
        "q_carries": {0: Variant(0, "DRMMM erratum 3: stage 1 without the pending carries")},
    }

    def param_docs(self) -> dict[str, dict[str, Any]]:
        entry = registry.get(self.ref)
        out: dict[str, dict[str, Any]] = {
            "n": {"default": DEFAULT_N, "max": self.max_n, "doc": "modulus width in bits"}
        }
        for name in ("k", "t"):
            p = entry.params[name]
            out[name] = {"default": p.default, "doc": p.doc}
        return {**out, **self._hw_param_docs()}

    def resolve(self, sets: Mapping[str, Any] | None = None) -> HwParams:
        params = self._registry_params(sets)
        own = self._hw_params(sets)
        if params["alg"] != 3:
            raise ParameterError(f"{self.name}: the RTL implements Algorithm 3 (alg = 3)")
        n = DEFAULT_N if params["n"] is None else params["n"]
        k, t = params["k"], params["t"]
        assert k is not None and t is not None
        self.check_n(n)
        if k < 2:
            raise ParameterError(
                f"{self.name}: k = {k} is illegal: the carry bit module reads bits k-1 and k-2"
            )
        if k > n:
            raise ParameterError(f"{self.name}: k = {k} must be <= n = {n}")
        if own["pp"] and k % own["win"]:
            raise ParameterError(
                f"{self.name}: win = {own['win']} must divide k = {k} (one table row per window)"
            )
        if own["f"] > n + 1:
            raise ParameterError(f"{self.name}: f = {own['f']} must be <= n + 1 = {n + 1}")
        d = -(-n // k)
        values = {"n": n, "k": k, "t": t, **own}
        hdl = {
            "N": n,
            "K": k,
            "T": t,
            "G": own["g"],
            "F": own["f"],
            "SERIAL": own["serial"],
            "PP": own["pp"],
            "WIN": own["win"],
            "CELL": own["cell"],
            "PRINTED_LOOP": own["printed_loop"],
            "Q_CARRIES": own["q_carries"],
        }
        return HwParams(self.name, values, {"d": d}, hdl)

    def ref_params(self, ap: HwParams) -> dict[str, int]:
        return {"n": ap["n"], "k": ap["k"], "t": ap["t"], "alg": 3}

    def expect(self, ap: HwParams, cfg: Any, x: int, y: int, trace: Trace | None) -> int:
        z: int = registry.get(self.ref).ref_module().mont_mul(cfg, x, y, trace)
        return z

    def cycles(self, ap: HwParams) -> int:
        return ap["d"] + ap["t"] + ap["f"] + ap["printed_loop"]

    def probes(self, ap: HwParams, cfg: Any, trace: Trace) -> dict[int, list[Probe]]:
        out: dict[int, list[Probe]] = {}
        lag = max(ap["t"] - 2, 0)
        last = self.cycles(ap) - ap["f"] - 1  # the last iteration's cycle
        for ent in trace:
            i, z, q_new, q_used = ent["i"], ent["Z"], ent["q_new"], ent["q_used"]
            assert isinstance(i, int) and isinstance(z, int)
            assert isinstance(q_new, int) and isinstance(q_used, int)
            out.setdefault(i + 1, []).append(Probe(_STATE, z, f"Z after iteration {i}"))
            if i >= 1:
                out.setdefault(i, []).append(
                    Probe((("q_used", None),), q_used, f"q^ used in iteration {i}")
                )
            if 1 <= i + lag <= last:
                out.setdefault(i + lag, []).append(
                    Probe((("q_new", None),), q_new, f"q^_{i} (q pipeline, cycle {i + lag})")
                )
        return out

    def load(self, ap: HwParams, cfg: Any, x: int, y: int) -> Load:
        m = cfg.modulus
        ports = {"x_i": x, "y_i": y, "m_i": m, "mp_i": cfg.m_prime}
        writes = []
        if ap["pp"]:
            writes = [RamWrite("tm", j, j * m) for j in range(1 << ap["win"])]
        return Load(ports, writes)

    def load_idle(self, ap: HwParams) -> dict[str, int]:
        return {"tm_we_i": 0, "tm_addr_i": 0, "tm_data_i": 0}

    def path_groups(self, ap: HwParams) -> dict[str, list[str]]:
        """q: the q pipeline's registers (none when t = 1): qp_q, the tree's inner ranks and
        its last rank, which the flattened netlist names after the top-level wire q_cs;
        update: the state."""
        return {
            "q": ["*qp_q*", "*u_qtree*", "q_cs"],
            "update": ["z0_q", "z1_q", "z2_q", "cl_q", "cm_q"],
        }

    def keep_wires(self, ap: HwParams) -> list[str]:
        """The groups' patterns but q_cs: it keeps its name anyway (a top-level wire), and
        ``keep`` on it changes the mapping where it is combinational (t <= 2: at n = 16, k = 4,
        t = 2 the q path drops from 9 to 7 levels and the update grows from 7 to 8)."""
        return [g for pats in self.path_groups(ap).values() for g in pats if g != "q_cs"]

    def ports(self, ap: HwParams) -> list[Port]:
        n, k, t, win = ap["n"], ap["k"], ap["t"], ap["win"]
        out = [Port(p, n, "in") for p in ("x_i", "y_i", "m_i")] + [Port("mp_i", k * t, "in")]
        out += [Port("tm_we_i", 1, "in"), Port("tm_addr_i", win, "in")]
        out += [Port("tm_data_i", n + win, "in"), Port("z_o", n, "out")]
        return out
