"""ntt64: Montgomery multiplication with NTT products over p = 2^64 - 2^32 + 1 (the NTT paper,
Algorithm 1; SPEC 4), rtl/ntt64/ntt64.v.

Contract: parameters points (64, 256 or 1024: the side S = sqrt(points), S/2 PEs, S/4 samples a
cycle), b (sample bits, at least ntt64_schedule.min_b (6, 3, 2) for the carry unit; default
ceil(n / (points/2)) raised to that least width, or 16 without n), n (modulus bits, default
b points/2), and the RTL's own: stages (the PE's carry-save ranks), base_lat and level_lat (the
ModMul's Karatsuba ranks). The model is montlab.ref.ntt64 with fixed_r = 1 (R = 2^(b points/2),
the hardware's width). Load, before start_i: X and Y as samples (natural order) into the a and
b banks, FFT(M) and FFT(M') (the model's, in the forward transform's transposed order) into fm
and fmp, M's digits as 2S chunks into m; bank words at address {bank, word}, sample (r, c) in
bank (r + c) mod S, word r. Result: the read port returns z in 2S chunks of S/4 digits. Cycle
model: montlab.hw.ntt64_schedule.product_cycles (a model of our schedule; the paper's 2030 is not
derivable, SPEC 4.5).

Probes, for a traced operation, at the edge each of the first 16 steps ends (the last step's c,
c - M and selection are checked through z; ntt64_schedule.step_ends):
every word of the bank set the step wrote, from the RAM arrays, against the model's trace: each
transform's first pass, FFT(X), the product spectra T, U, W, the coefficients before carries,
the samples of t and u; after the carries of T also T's digits in their RAM.
"""

from __future__ import annotations

from typing import Any, Mapping

from montlab import registry
from montlab import spectral_params as sp
from montlab import transforms as tf
from montlab.errors import ParameterError
from montlab.hw import ntt64_schedule as ns
from montlab.hw.karatsuba import karatsuba_latency
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
from montlab.ref._base import Trace

#: The bank set each step writes, the trace value it then holds, and its layout.
STEPS: list[tuple[str, str, str]] = [
    ("a", "mid:fft_X", "colmid"),
    ("a", "spectra:X", "transposed"),
    ("b", "mid:fft_Y", "colmid"),
    ("b", "spectra:T", "transposed"),
    ("b", "mid:ifft_T", "rowmid"),
    ("b", "coeffs:T", "natural"),
    ("a", "samples:t", "natural"),
    ("a", "mid:fft_t", "colmid"),
    ("a", "spectra:U", "transposed"),
    ("a", "mid:ifft_U", "rowmid"),
    ("a", "coeffs:U", "natural"),
    ("a", "samples:u", "natural"),
    ("a", "mid:fft_u", "colmid"),
    ("a", "spectra:W", "transposed"),
    ("a", "mid:ifft_W", "rowmid"),
    ("a", "coeffs:W", "natural"),
]
CSA_STAGES = 1  # the carry unit's compressor ranks (the RTL's default)


def grid(vec: list[int], side: int, layout: str) -> dict[tuple[int, int], int]:
    """(row, column) -> word of a vector in one of ntt64_schedule's layouts: natural (sample
    S r + c), transposed (X[r + S c], the forward output), colmid (a COL pass's first-pass array
    y[j][k] at (k, j), y flat as S j + k) and rowmid (an inverse ROW pass's, y[j][k] at (j, k))."""
    out = {}
    for r in range(side):
        for c in range(side):
            if layout == "transposed":
                out[(r, c)] = vec[r + side * c]
            elif layout == "colmid":
                out[(r, c)] = vec[side * c + r]
            else:  # natural, rowmid
                out[(r, c)] = vec[side * r + c]
    return out


def _int(v: object) -> int:
    assert isinstance(v, int)
    return v


class Ntt64(HwSpec):
    name = "ntt64"
    ref = "ntt64"
    cycle_model = (
        "montlab.hw.ntt64_schedule.product_cycles: 14 (4S + 9 + unit + ModMul latency + 2) + "
        "3 (4S + carry latency + 4)"
    )
    doc = "NTT64 Algorithm 1: one S/2-PE transform pass engine, S/4 ModMuls, a carry unit"
    max_n = sp.NTT64_SAMPLES * sp.ntt64_max_b()
    volatile_rams = ("a", "b")  # the transforms work in place
    hw_params = {
        "stages": HwParam(1, 0, 8, "register ranks in each PE's carry-save tree"),
        **KARATSUBA_PARAMS,
    }

    def param_docs(self) -> dict[str, dict[str, Any]]:
        entry = registry.get(self.ref)
        out: dict[str, dict[str, Any]] = {
            "n": {"default": "b points/2", "max": self.max_n, "doc": "modulus bits"},
            "b": {"default": "ceil(n/(points/2)), 16 without n", "doc": entry.params["b"].doc},
            "points": {"default": 1024, "doc": entry.params["points"].doc},
        }
        return {**out, **self._hw_param_docs()}

    def resolve(self, sets: Mapping[str, Any] | None = None) -> HwParams:
        own = self._hw_params(sets)
        given = dict(sets or {})
        n_given = given.pop("n", None)
        params = self._registry_params(given)
        if params["fixed_r"] == 0 and "fixed_r" in given:
            raise ParameterError(f"{self.name}: the RTL has the fixed R = 2^(b points/2)")
        points = params["points"]
        assert points is not None
        try:
            side = tf.ntt64_side(points)
        except ValueError as exc:
            raise ParameterError(str(exc)) from None
        samples = points // 2
        n = None if n_given is None else registry.parse_int(n_given, f"{self.name}: n")
        b_min = ns.min_b(side)
        if params["b"] is not None:
            b = params["b"]
            if b < b_min:
                raise ParameterError(
                    f"{self.name}: b = {b} is below {b_min}, the carry unit's least digit width at "
                    f"{points} points (its chunk of {side // 4} digits must hold ceil(CW/b) - 1 "
                    f"blocks, CW = 2b + {2 * (side.bit_length() - 1)})"
                )
        else:
            b = 16 if n is None else max(b_min, -(-n // samples))
        pset = sp.ntt64_set(samples * b, b, samples)  # the dynamic-range check
        n = pset.bits if n is None else n
        if not 2 <= n <= pset.bits:
            raise ParameterError(f"{self.name}: n = {n} must be in 2 .. {pset.bits} (b points/2)")
        self.check_n(n)
        values = {"n": n, "points": points, "b": b, **own}
        derived = {"side": side, "lanes": side // 4, "samples": samples}
        hdl = {
            "S": side,
            "B": b,
            "STAGES": own["stages"],
            "BASE_LAT": own["base_lat"],
            "LEVEL_LAT": own["level_lat"],
        }
        return HwParams(self.name, values, derived, hdl)

    def ref_params(self, ap: HwParams) -> dict[str, int]:
        return {"points": ap["points"], "b": ap["b"], "fixed_r": 1}

    def latencies(self, ap: HwParams) -> tuple[int, int, int]:
        """(the unit's, the ModMul's, the carry unit's) latencies."""
        lm = karatsuba_latency(64, 17, ap["base_lat"], ap["level_lat"]) + 1
        return ap["stages"] + 2, lm, CSA_STAGES + 6

    def cycles(self, ap: HwParams) -> int:
        return ns.product_cycles(ap["side"], *self.latencies(ap))

    # --- results ----------------------------------------------------------------------------------

    def expect(self, ap: HwParams, cfg: Any, x: int, y: int, trace: Trace | None) -> int:
        mod = registry.get(self.ref).ref_module()
        z: int = mod.mont_mul(cfg, x, y, trace, spectral=True)
        return z

    def readout(self, ap: HwParams) -> list[RamRead]:
        return [RamRead("rd", k) for k in range(2 * ap["side"])]

    def assemble(self, ap: HwParams, words_: list[int]) -> int:
        chunk = ap["lanes"] * ap["b"]
        return sum(w << (chunk * k) for k, w in enumerate(words_))

    def readout_words(self, ap: HwParams, z: int) -> list[int]:
        chunk = ap["lanes"] * ap["b"]
        return [(z >> (chunk * k)) & ((1 << chunk) - 1) for k in range(2 * ap["side"])]

    # --- loading ----------------------------------------------------------------------------------

    def _samples(self, ap: HwParams, z: int) -> list[int]:
        b, half = ap["b"], ap["samples"]
        return [(z >> (b * i)) & ((1 << b) - 1) for i in range(half)] + [0] * half

    def _bank_writes(
        self, ap: HwParams, port: str, g: dict[tuple[int, int], int]
    ) -> list[RamWrite]:
        side = ap["side"]
        aw = side.bit_length() - 1
        return [RamWrite(port, ((r + c) % side) << aw | r, v) for (r, c), v in g.items()]

    def load(self, ap: HwParams, cfg: Any, x: int, y: int) -> Load:
        side, chunk = ap["side"], ap["lanes"] * ap["b"]
        writes = self._bank_writes(ap, "fm", grid(list(cfg.fft_m), side, "transposed"))
        writes += self._bank_writes(ap, "fmp", grid(list(cfg.fft_mprime), side, "transposed"))
        m = cfg.modulus
        writes += [
            RamWrite("m", k, (m >> (chunk * k)) & ((1 << chunk) - 1)) for k in range(2 * side)
        ]
        writes += self._bank_writes(ap, "a", grid(self._samples(ap, x), side, "natural"))
        writes += self._bank_writes(ap, "b", grid(self._samples(ap, y), side, "natural"))
        return Load({}, writes)

    def load_idle(self, ap: HwParams) -> dict[str, int]:
        out = {f"{p}_{s}": 0 for p in ("a", "b", "fm", "fmp", "m") for s in ("we_i", "addr_i")}
        out.update({f"{p}_data_i": 0 for p in ("a", "b", "fm", "fmp", "m")})
        out.update({"rd_re_i": 0, "rd_addr_i": 0})
        return out

    # --- probes -----------------------------------------------------------------------------------

    def probes(self, ap: HwParams, cfg: Any, trace: Trace) -> dict[int, list[Probe]]:
        side, b, lanes = ap["side"], ap["b"], ap["lanes"]
        ent = trace[0]
        vals: dict[str, list[int]] = {
            "samples:t": self._samples(ap, _int(ent["t"])),
            "samples:u": self._samples(ap, _int(ent["u"])),
        }
        for group in ("spectra", "coeffs", "mid"):
            for k, v in ent[group].items():  # type: ignore[union-attr]
                vals[f"{group}:{k}"] = list(v)
        ends = ns.step_ends(side, *self.latencies(ap))
        out: dict[int, list[Probe]] = {}
        for step, (bank_set, key, layout) in enumerate(STEPS):
            ram = "u_a" if bank_set == "a" else "u_b"
            out[ends[step]] = [
                Probe(
                    ((f"g_bank[{(r + c) % side}].{ram}.mem", r),),
                    v,
                    f"step {step} {key} ({r}, {c})",
                )
                for (r, c), v in grid(vals[key], side, layout).items()
            ]
        chunk = lanes * b
        big_t = _int(ent["T"])
        out[ends[6]] += [
            Probe((("u_tdig.mem", k),), (big_t >> (chunk * k)) & ((1 << chunk) - 1), f"T chunk {k}")
            for k in range(4 * side)
        ]
        return out

    def ports(self, ap: HwParams) -> list[Port]:
        side, chunk = ap["side"], ap["lanes"] * ap["b"]
        aw = side.bit_length() - 1
        out = []
        for p in ("a", "b", "fm", "fmp"):
            out += [Port(f"{p}_we_i", 1, "in"), Port(f"{p}_addr_i", 2 * aw, "in")]
            out += [Port(f"{p}_data_i", 64, "in")]
        out += [Port("m_we_i", 1, "in"), Port("m_addr_i", aw + 1, "in")]
        out += [Port("m_data_i", chunk, "in")]
        out += [Port("rd_re_i", 1, "in"), Port("rd_addr_i", aw + 1, "in")]
        out += [Port("rd_valid_o", 1, "out"), Port("rd_data_o", chunk, "out")]
        return out
