"""The MWR2MM family's shared spec: Tenca-Koc and Huang et al.'s Architectures 1 and 2, radix 2
and radix 4 (Huang, Gaj, El-Ghazawi, IEEE TC 2011; SPEC 5).

Contract: parameters n (operand bits, default 64, at most 4096), w (word bits) and, where the
architecture has it, p (PEs); e = ceil((n+1)/w) words. HDL parameters N, W (and P). Operands x,
y, m are ports taken with start_i; z_o (N+1 bits) is the unreduced product in [0, 2m), the
model's ``unreduced``. The probes and cycle counts are each architecture's (its own module).
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

from montlab import registry
from montlab.errors import ParameterError
from montlab.hw.specs.base import DEFAULT_N, HwParams, HwSpec, Load, Port, Probe
from montlab.ref._base import Trace
from montlab.ref.mwr2mm import word_count


class Mwr2mmFamily(HwSpec):
    radix_bits: ClassVar[int] = 1  #: 1 (radix 2) or 2 (radix 4)
    has_p: ClassVar[bool] = False

    def param_docs(self) -> dict[str, dict[str, Any]]:
        entry = registry.get(self.ref)
        out: dict[str, dict[str, Any]] = {
            "n": {"default": DEFAULT_N, "max": self.max_n, "doc": "operand width in bits"}
        }
        for name in ("w", "p") if self.has_p else ("w",):
            p = entry.params[name]
            out[name] = {"default": "auto" if p.default is None else p.default, "doc": p.doc}
        return out

    def default_p(self, n: int, e: int, p: int | None) -> int | None:
        """Architecture-specific rule for p (only with :attr:`has_p`)."""
        return None

    def resolve(self, sets: Mapping[str, Any] | None = None) -> HwParams:
        params = self._registry_params(sets)
        n = params.get("n")
        n = DEFAULT_N if n is None else n
        w = params["w"]
        assert w is not None
        self.check_n(n)
        if w > n:
            raise ParameterError(
                f"{self.name}: w = {w} must be <= n = {n}: the RTL needs at least two words "
                f"(e = ceil((n+1)/w) >= 2)"
            )
        if self.radix_bits == 2 and (w % 2 or w < 4):
            raise ParameterError(
                f"{self.name}: w = {w} is illegal: the radix-4 PE needs an even w >= 4 "
                f"(a digit must not straddle two words)"
            )
        e = word_count(n, w)
        values = {"n": n, "w": w}
        hdl = {"N": n, "W": w}
        if self.has_p:
            p = self.default_p(n, e, params.get("p"))
            assert p is not None
            if p > n:
                raise ParameterError(f"{self.name}: p = {p} must be <= n = {n}")
            values["p"] = p
            hdl["P"] = p
        rounds = n if self.radix_bits == 1 else -(-n // 2)
        return HwParams(self.name, values, {"e": e, "rounds": rounds}, hdl)

    def ref_params(self, ap: HwParams) -> dict[str, int]:
        return dict(ap.values)

    def expect(self, ap: HwParams, cfg: Any, x: int, y: int, trace: Trace | None) -> int:
        z: int = registry.get(self.ref).ref_module().unreduced(cfg, x, y, trace)
        return z

    def load(self, ap: HwParams, cfg: Any, x: int, y: int) -> Load:
        return Load({"x_i": x, "y_i": y, "m_i": cfg.modulus})

    def ports(self, ap: HwParams) -> list[Port]:
        n = ap["n"]
        return [Port("x_i", n, "in"), Port("y_i", n, "in"), Port("m_i", n, "in")] + [
            Port("z_o", n + 1, "out")
        ]


def word_probes(
    trace: Trace, e: int, w: int, path: str, q_path: str | None
) -> dict[int, list[Probe]]:
    """Architectures 1 and 2 (radix 2): the selected unshifted word U^(j) of round i (trace "U")
    shows on ``path``[PE that ran it] at the edge after its cycle; ``q_path``[1] carries q_i."""
    out: dict[int, list[Probe]] = {}
    for ent in trace:
        i, q_i = ent["i"], ent["q_i"]
        u, cycles, pes = ent["U"], ent["cycle"], ent["pe"]
        assert isinstance(i, int) and isinstance(q_i, int)
        assert isinstance(u, list) and isinstance(cycles, list) and isinstance(pes, list)
        for j in range(e):
            probe = Probe(((path, pes[j]),), u[j], f"U^({j}) of round {i}")
            out.setdefault(cycles[j] + 1, []).append(probe)
        if q_path is not None:
            out.setdefault(cycles[0] + 1, []).append(Probe(((q_path, 1),), q_i, f"q of round {i}"))
    return out
