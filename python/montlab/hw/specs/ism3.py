"""ism3: interleaved spectral Montgomery multiplication over q = 2^v + 1 (ISM3 paper,
Algorithm 3; SPEC 2), rtl/ism3/ism3.v on the shared transform engine rtl/common/fermat_ntt.v.

Contract: parameters v, d, mu (the registry's, auto by the Table II rules), n (modulus bits,
default the set's largest l = s mu - 2), and the RTL's own: lanes (butterflies per cycle),
bfly_lat, pingpong, base_lat and level_lat (the Karatsuba multiplier's ranks). Load: FFT(x),
FFT(y), FFT(n) and FFT(n') (the model's spectra, natural order) written into the x, y, n and
np RAMs before start_i (N and N' once per modulus). Result: the read port returns the s digits
of z (sel 0) and FFT(z) (sel 1, the engine's current group); :meth:`Ism3.assemble` packs them as
z + FFT(z)_i q^i 2^(s mu) summed over i, and :meth:`Ism3.expect` packs the model's (z, FFT(z))
the same way, so one comparison checks both. Cycle model: montlab.hw.ism3_schedule (a model of
our schedule; the paper's Table III cycles are not derivable, SPEC 2.6).

Probes, for a traced operation, at the edge each phase's results are complete: the T RAM
(T_red, the redundant signed residues, two's complement) and every phase's vector in the engine's
RAM, read position by position from the bank arrays: T, U and Z (bit-reversed, other group), t, u
and zc times d (before the 2^-L scaling), the digits of g, m and z (bit-reversed, zero-padded),
G, M and FFT(z), and epsilon (u_acc.eps_q).
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab import registry
from montlab import spectral_params as sp
from montlab import transforms as tf
from montlab.errors import ParameterError
from montlab.hw.ism3_schedule import Ism3Hw
from montlab.hw.specs.base import (
    KARATSUBA_PARAMS,
    HwParam,
    HwParams,
    HwSpec,
    Load,
    Port,
    Probe,
    RamRead,
    RamWrite,
)
from montlab.ref._base import Trace, words


class Ism3(HwSpec):
    name = "ism3"
    ref = "ism3"
    cycle_model = (
        "montlab.hw.ism3_schedule: 3 MUL (d + ML + 5) + 2 ACC (d + 4) + ACC_Z (d + 6) + "
        "6 transforms (engine done cycle + 2)"
    )
    doc = "ISM3 Algorithm 3: one Fermat-ring transform engine, one Karatsuba multiplier"
    max_n = 8192
    hw_params = {
        "lanes": HwParam(4, 1, 16, "butterflies per cycle (the paper: 4, 8 coefficients a cycle)"),
        "bfly_lat": HwParam(
            6, 1, 32, "butterfly latency (6: only d = 256 races in place, as Sec. IV-E says)"
        ),
        "pingpong": HwParam(0, 0, 1, "1 = stages alternate RAM groups (no racing)"),
        **KARATSUBA_PARAMS,
    }

    def param_docs(self) -> dict[str, dict[str, Any]]:
        entry = registry.get(self.ref)
        out: dict[str, dict[str, Any]] = {
            "n": {"default": "l", "max": self.max_n, "doc": "modulus bits (default: l = s mu - 2)"}
        }
        for name in ("v", "d", "mu"):
            p = entry.params[name]
            out[name] = {"default": p.default, "doc": p.doc}
        return {**out, **self._hw_param_docs()}

    def resolve(self, sets: Mapping[str, Any] | None = None) -> HwParams:
        own = self._hw_params(sets)
        given = dict(sets or {})
        n_given = given.pop("n", None)
        params = self._registry_params(given)
        if params["v"] is None and params["d"] is None and n_given is None:
            raise ParameterError(f"{self.name}: give v and d (or n) to pick the ISM3 set")
        n = None if n_given is None else registry.parse_int(n_given, f"{self.name}: n")
        pset = sp.ism3_resolve(n or 2, params["v"], params["d"], params["mu"])
        if n is None:
            n = pset.l
        if n > pset.l:
            raise ParameterError(f"{self.name}: n = {n} exceeds l = {pset.l} for this set")
        self.check_n(n)
        if n < 3:
            raise ParameterError(f"{self.name}: n = {n} must be >= 3 (an odd modulus > 2)")
        v = 1 << pset.t
        lanes = own["lanes"]
        if pset.d < 4 * lanes:
            raise ParameterError(f"{self.name}: d = {pset.d} must be >= 4 lanes = {4 * lanes}")
        omega_log2 = pset.omega.bit_length() - 1
        values = {"n": n, "v": v, "d": pset.d, "mu": pset.mu, **own}
        derived = {"s": pset.s, "l": pset.l, "omega_log2": omega_log2}
        hdl = {
            "V": v,
            "D": pset.d,
            "MU": pset.mu,
            "OMEGA_LOG2": omega_log2,
            "LANES": lanes,
            "BFLY_LAT": own["bfly_lat"],
            "PINGPONG": own["pingpong"],
            "BASE_W": 17,
            "BASE_LAT": own["base_lat"],
            "LEVEL_LAT": own["level_lat"],
        }
        return HwParams(self.name, values, derived, hdl)

    def ref_params(self, ap: HwParams) -> dict[str, int]:
        return {"v": ap["v"], "d": ap["d"], "mu": ap["mu"]}

    def hw(self, ap: HwParams) -> Ism3Hw:
        return Ism3Hw(
            ap["v"], ap["d"], ap["lanes"], ap["bfly_lat"], bool(ap["pingpong"]),
            17, ap["base_lat"], ap["level_lat"],
        )  # fmt: skip

    # --- results ----------------------------------------------------------------------------------

    def pack(self, ap: HwParams, z: int, fft_z: list[int]) -> int:
        """z in the low s mu bits, FFT(z) as a base-q number above them."""
        spec = sum(e * ((1 << ap["v"]) + 1) ** i for i, e in enumerate(fft_z))
        return z | spec << (ap["s"] * ap["mu"])

    def expect(self, ap: HwParams, cfg: Any, x: int, y: int, trace: Trace | None) -> int:
        mod = registry.get(self.ref).ref_module()
        tr: Trace = [] if trace is None else trace
        z, fft_z = mod.mont_mul_spectral(cfg, mod.fft(cfg, x), mod.fft(cfg, y), tr)
        return self.pack(ap, z, fft_z)

    def variant(self, ap: HwParams) -> list[str]:
        """An in-place engine that races (B + 2 < S/2) is expected to give wrong products."""
        if self.hw(ap).engine.races:
            return ["ISM3 Sec. IV-E racing: in-place storage, B + 2 < S/2 (see fermat_ntt)"]
        return []

    def status_ports(self, ap: HwParams) -> list[str]:
        """race_o: the engine overwrote a word before reading it (in-place racing)."""
        return ["race_o"]

    def readout(self, ap: HwParams) -> list[RamRead]:
        digits = [RamRead("rd", j, (("rd_sel_i", 0),)) for j in range(ap["s"])]
        return digits + [RamRead("rd", i, (("rd_sel_i", 1),)) for i in range(ap["d"])]

    def assemble(self, ap: HwParams, words_: list[int]) -> int:
        s, mu = ap["s"], ap["mu"]
        z = sum(w << (mu * j) for j, w in enumerate(words_[:s]))
        return self.pack(ap, z, words_[s:])

    def readout_words(self, ap: HwParams, z: int) -> list[int]:
        s, mu, q = ap["s"], ap["mu"], (1 << ap["v"]) + 1
        spec = z >> (s * mu)
        digits = [(z >> (mu * j)) & ((1 << mu) - 1) for j in range(s)]
        return digits + [spec // q**i % q for i in range(ap["d"])]

    def cycles(self, ap: HwParams) -> int:
        return self.hw(ap).cycles()

    # --- loading ----------------------------------------------------------------------------------

    def load(self, ap: HwParams, cfg: Any, x: int, y: int) -> Load:
        mod = registry.get(self.ref).ref_module()
        writes = [RamWrite("n", i, e) for i, e in enumerate(cfg.fft_n)]
        writes += [RamWrite("np", i, e) for i, e in enumerate(cfg.fft_nprime)]
        writes += [RamWrite("x", i, e) for i, e in enumerate(mod.fft(cfg, x))]
        writes += [RamWrite("y", i, e) for i, e in enumerate(mod.fft(cfg, y))]
        return Load({}, writes)

    def load_idle(self, ap: HwParams) -> dict[str, int]:
        out = {f"{p}_{s}": 0 for p in ("x", "y", "n", "np") for s in ("we_i", "addr_i", "data_i")}
        out.update({"step_i": 0, "go_i": 0, "rd_re_i": 0, "rd_sel_i": 0, "rd_addr_i": 0})
        return out

    # --- probes ---------------------------------------------------------------------------------

    def probes(self, ap: HwParams, cfg: Any, trace: Trace) -> dict[int, list[Probe]]:
        hw = self.hw(ap)
        d, s, v, mu, lanes = ap["d"], ap["s"], ap["v"], ap["mu"], ap["lanes"]
        q = (1 << v) + 1
        nb = 2 * lanes
        depth = d // nb  # words per group and bank
        big_l = d.bit_length() - 1
        pp = ap["pingpong"]
        ent = trace[0]
        rev = tf.bit_reverse
        out: dict[int, list[Probe]] = {}
        cur = 0  # the engine's current group (0 after reset and after every product)

        def group(vec: list[int], grp: int, what: str) -> list[Probe]:
            return [
                Probe(
                    ((f"u_ntt.g_bank[{p % nb}].u_ram.mem", grp * depth + p // nb),),
                    vec[p],
                    f"{what}[{p}]",
                )
                for p in range(d)
            ]

        def digits(value: int) -> list[int]:
            dg = words(value, mu, s) + [0] * s
            return rev(dg)  # digit j at position bitrev(j)

        def scaled(coefs: list[object]) -> list[int]:
            return [int(c) * d % q for c in coefs]  # type: ignore[call-overload]

        vecs: dict[str, tuple[list[int], str]] = {
            "MUL_T": (rev(list(ent["T"])), "T (bit-reversed)"),  # type: ignore[arg-type]
            "IFFT_T": (scaled(ent["t"]), "t * d"),  # type: ignore[arg-type]
            "ACC_G": (digits(int(ent["g"])), "digits of g"),  # type: ignore[arg-type]
            "FFT_G": (list(ent["G"]), "G"),  # type: ignore[arg-type]
            "MUL_U": (rev(list(ent["U"])), "U (bit-reversed)"),  # type: ignore[arg-type]
            "IFFT_U": (scaled(ent["u"]), "u * d"),  # type: ignore[arg-type]
            "ACC_M": (digits(int(ent["m"])), "digits of m"),  # type: ignore[arg-type]
            "FFT_M": (list(ent["M"]), "M"),  # type: ignore[arg-type]
            "MUL_K": (rev(list(ent["Z"])), "Z = T + K (bit-reversed)"),  # type: ignore[arg-type]
            "IFFT_Z": (scaled(ent["zc"]), "zc * d"),  # type: ignore[arg-type]
            "ACC_Z": (digits(int(ent["z"])), "digits of z"),  # type: ignore[arg-type]
            "FFT_Z": (list(ent["fft_z"]), "FFT(z)"),  # type: ignore[arg-type]
        }
        for name, _, _ in hw.phases():
            edge = hw.phase_done_edge(name)
            vec, what = vecs[name]
            lst = out.setdefault(edge, [])
            if name.startswith(("MUL", "ACC")):
                lst += group(vec, cur ^ 1, f"{name}: {what}")
            else:
                cur ^= 1  # the swap
                cur ^= pp * (big_l % 2)  # the stages' own group changes
                lst += group(vec, cur, f"{name}: {what}")
        t_word = [int(e) % (1 << (v + 2)) for e in ent["T_red"]]  # type: ignore[union-attr]
        out[hw.phase_done_edge("MUL_T")] += [
            Probe((("u_t.mem", i),), t_word[i], f"MUL_T: T RAM[{i}] (redundant)") for i in range(d)
        ]
        eps = ent["epsilon"]
        assert isinstance(eps, int)
        out[hw.phase_done_edge("ACC_Z")].append(
            Probe((("u_acc.eps_q", None),), eps, "ACC_Z: epsilon")
        )
        return out

    def ports(self, ap: HwParams) -> list[Port]:
        v, d, mu = ap["v"], ap["d"], ap["mu"]
        lg = d.bit_length() - 1
        out = [Port("step_i", 1, "in"), Port("go_i", 1, "in")]
        for p in ("x", "y", "n", "np"):
            out += [Port(f"{p}_we_i", 1, "in"), Port(f"{p}_addr_i", lg, "in")]
            out += [Port(f"{p}_data_i", v + 1, "in")]
        out += [Port("rd_re_i", 1, "in"), Port("rd_sel_i", 2, "in"), Port("rd_addr_i", lg, "in")]
        out += [Port("rd_valid_o", 1, "out"), Port("rd_data_o", v + 2, "out")]
        out += [Port("paused_o", 1, "out"), Port("phase_o", 4, "out"), Port("eps_o", 2, "out")]
        out += [Port("race_o", 1, "out")]
        assert mu >= 1
        return out
