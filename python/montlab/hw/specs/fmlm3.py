"""fmlm3: FFT-based McLaughlin Montgomery multiplication (FMLM3 paper, Algorithms 2 and 3; SPEC 1),
rtl/fmlm3/fmlm3.v on the shared transform engine rtl/common/fermat_ntt.v.

Contract: parameters p (P), u, ring (K: M = 2^K + 1, K = cP) and alg, the registry's, completed
by montlab.ref.fmlm3.resolve_set (the corrected Algorithm 4 and rules (15)/(20)); n (modulus
bits, default l = uP; the model rejects N >= 2^l - 1); and the RTL's own: bfs (butterfly structures), bfly_lat,
sw_lat, rd_lat (the paper's 6 / 2 / 1) and the Karatsuba ranks. Load: T(x), T'(x), T(y), T'(y),
T(N'), T'(N) (natural order) and N's digits into their RAMs, x0y0_i = x_0 AND y_0 on the port.
Result: the read port returns t's P digits (sel 0), T(t) (sel 1) and T'(t) (sel 2);
:meth:`Fmlm3.assemble` packs them as t + (T(t) + T'(t) M^P) M^i 2^l summed, and
:meth:`Fmlm3.expect` packs the model's the same way. Cycle model: montlab.hw.fmlm3_schedule (a
model of our schedule; Table 6's totals are not derivable, SPEC 1.7).

Probes, for a traced product, at the edge each phase's results are complete (the engine's
banks read position by position, ORDER 1 mapping): every product vector (G or T(x).T(N'), Z1,
T'(x).T'(y), Z4), every transform's output before its scaling; for the inverses, the digits
their final-stage operators leave (FSO A's lower half, FSO B's upper-half sum), the merged
floor(. / 2^l) and every digit mod 2^l as the next pass reads it (g, z1 and eval(w), the last
after the window lift); z0, both m candidates and m, X =
lo - hi mod 2^l, S, s, t before step 17, t, T(t) and T'(t); and within every transform,
each stage's vector at the edge of its last write (montlab.transforms.cg_stage), and the edges
at which the engine's busy_o rises and its done_o rises: each transform's cycles, measured.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from montlab import registry
from montlab import transforms as tf
from montlab.errors import ParameterError
from montlab.hw.fmlm3_schedule import Fmlm3Hw
from montlab.hw.fmlm3_ucode import PROGRAMS
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
    Variant,
)
from montlab.ref._base import Trace, from_words, words


def fso_merge(coeffs: list[int], p: int, u: int, k: int) -> tuple[int, bool]:
    """The merge of rtl/fmlm3's final-stage operators on an inverse's (scaled, lifted)
    coefficients, as the RTL computes it: (cd, reaches_top). FSO A leaves r_lo = floor(lower
    half's sum / B^(P/2)), FSO B the upper half's digits H; cd = floor((r_lo + H mod B^DM) /
    B^DM) with DM = min(ceil((K + 2) / u), P/2), and reaches_top when H's digits above DM are
    all B - 1 (cd = 1) or all 0 (cd = -1), so the carry reaches floor(value / 2^l)."""
    half, b = p // 2, 1 << u
    dm = min(-(-(k + 2) // u), half)
    lo = from_words(coeffs[:half], u)
    hi = from_words(coeffs[half:], u) % b**half
    h = words(hi, u, half)
    cd = ((lo >> (u * half)) + hi % b**dm) >> (u * dm)
    run = h[dm:]
    top = all(d == b - 1 for d in run) if cd == 1 else all(d == 0 for d in run)
    return cd, top and cd != 0


#: --set names the hardware flow takes for the registry's parameters (the issue's spelling).
ALIASES = {"p": "P", "ring": "m_exp"}


class Fmlm3(HwSpec):
    name = "fmlm3"
    ref = "fmlm3"
    cycle_model = (
        "montlab.hw.fmlm3_schedule: per microprogram word, MUL P + ML + 5, NTT engine done + 2, "
        "an inverse's NTT its last streamed pair + 7 (+2 sqrt 2, NCT^-1), HALF/COPY P + 3, "
        "other digit passes P + 2"
    )
    doc = "FMLM3 Algorithms 2/3: one split-halves Fermat transform unit, one multiply-adder"
    max_n = 8192
    hw_params = {
        "bfs": HwParam(1, 1, 4, "butterfly structures (the paper: 1 and 2; 4 estimated)"),
        "bfly_lat": HwParam(6, 1, 16, "butterfly structure depth (the paper: 6)"),
        "sw_lat": HwParam(2, 0, 8, "channel switch depth (the paper: 2)"),
        "rd_lat": HwParam(1, 0, 4, "extra read rank (with the RAM's and the write: 3 cycles)"),
        **KARATSUBA_PARAMS,
        "step12": HwParam(0, 0, 1, "1 = the printed step 12, NCT^-1 of T'(z1) (erratum 1)"),
        "gt_n": HwParam(0, 0, 1, "1 = the printed step 17, t > N (erratum 2)"),
        "sym_lift": HwParam(0, 0, 1, "1 = a symmetric lift, w_n > M/2, not the eq. (12) window"),
    }
    variants = {
        "step12": {1: Variant(1, "FMLM3 erratum 1: step 12 as printed, NCT^-1(T'(z1))")},
        "gt_n": {1: Variant(1, "FMLM3 erratum 2: step 17 as printed, t > N")},
        "sym_lift": {1: Variant(1, "SPEC 1.4: a symmetric lift instead of the eq. (12) window")},
    }

    def param_docs(self) -> dict[str, dict[str, Any]]:
        entry = registry.get(self.ref)
        out: dict[str, dict[str, Any]] = {
            "n": {"default": "l", "max": self.max_n, "doc": "modulus bits (N < R = 2^l - 1)"}
        }
        for alias, name in (("p", "P"), ("u", "u"), ("ring", "m_exp"), ("alg", "alg")):
            p = entry.params[name]
            out[alias] = {"default": p.default, "doc": p.doc}
        return {**out, **self._hw_param_docs()}

    def resolve(self, sets: Mapping[str, Any] | None = None) -> HwParams:
        from montlab.ref.fmlm3 import resolve_set

        own = self._hw_params(sets)
        given = {ALIASES.get(k, k): v for k, v in dict(sets or {}).items()}
        n_given = given.pop("n", None)
        params = self._registry_params(given)
        n = None if n_given is None else registry.parse_int(n_given, f"{self.name}: n")
        if n is None and all(params[k] is None for k in ("P", "u")):
            raise ParameterError(f"{self.name}: give p and u (or n) to pick the FMLM3 set")
        pset = resolve_set(n or 2, params)
        if n is None:
            n = pset.l
        if n > pset.l:
            raise ParameterError(f"{self.name}: n = {n} exceeds l = {pset.l} (N < 2^l - 1)")
        self.check_n(n)
        if n < 2:
            raise ParameterError(f"{self.name}: n = {n} must be >= 2")
        p_len, k = pset.P, int(pset.c * pset.P)
        sqrt2 = pset.c == Fraction(1, 2)
        if p_len < 8:
            raise ParameterError(f"{self.name}: P = {p_len} must be >= 8 for the RTL")
        if p_len < 4 * own["bfs"]:
            raise ParameterError(f"{self.name}: P = {p_len} must be >= 4 bfs = {4 * own['bfs']}")
        if own["bfs"] & (own["bfs"] - 1):
            raise ParameterError(f"{self.name}: bfs = {own['bfs']} must be 1, 2 or 4")
        values = {"n": n, "p": p_len, "u": pset.u, "ring": k, "alg": pset.alg, **own}
        derived = {"l": pset.l, "sqrt2": int(sqrt2)}
        hdl = {
            "P": p_len,
            "U": pset.u,
            "K": k,
            "ALG": pset.alg,
            "SQRT2": int(sqrt2),
            "LANES": own["bfs"],
            "BFLY_LAT": own["bfly_lat"],
            "SW_LAT": own["sw_lat"],
            "RD_LAT": own["rd_lat"],
            "BASE_W": 17,
            "BASE_LAT": own["base_lat"],
            "LEVEL_LAT": own["level_lat"],
            "STEP12": own["step12"],
            "GT_N": own["gt_n"],
            "SYM_LIFT": own["sym_lift"],
        }
        return HwParams(self.name, values, derived, hdl)

    def ref_params(self, ap: HwParams) -> dict[str, int]:
        return {"P": ap["p"], "u": ap["u"], "m_exp": ap["ring"], "alg": ap["alg"]}

    def hw(self, ap: HwParams) -> Fmlm3Hw:
        return Fmlm3Hw(
            ap["p"], ap["ring"], ap["alg"], bool(ap["sqrt2"]), ap["bfs"], ap["bfly_lat"],
            ap["sw_lat"], ap["rd_lat"], 17, ap["base_lat"], ap["level_lat"],
        )  # fmt: skip

    # --- results ----------------------------------------------------------------------------------

    def pack(self, ap: HwParams, t: int, tt: list[int], ttn: list[int]) -> int:
        m_ring = (1 << ap["ring"]) + 1
        spec = sum(e * m_ring**i for i, e in enumerate(list(tt) + list(ttn)))
        return t | spec << ap["l"]

    def expect(self, ap: HwParams, cfg: Any, x: int, y: int, trace: Trace | None) -> int:
        mod = registry.get(self.ref).ref_module()
        tr: Trace = [] if trace is None else trace
        t, (tt, ttn) = mod.mont_mul_spectral(
            cfg, mod.spectral(cfg, x), mod.spectral(cfg, y), x & y & 1, tr
        )
        return self.pack(ap, t, tt, ttn)

    def readout(self, ap: HwParams) -> list[RamRead]:
        p = ap["p"]
        return [RamRead("rd", i, (("rd_sel_i", sel),)) for sel in (0, 1, 2) for i in range(p)]

    def assemble(self, ap: HwParams, words_: list[int]) -> int:
        p, u = ap["p"], ap["u"]
        t = from_words(words_[:p], u)
        return self.pack(ap, t, words_[p : 2 * p], words_[2 * p :])

    def readout_words(self, ap: HwParams, z: int) -> list[int]:
        p, u, bits = ap["p"], ap["u"], ap["l"]
        m_ring = (1 << ap["ring"]) + 1
        spec = z >> bits
        t = z & ((1 << bits) - 1)
        return words(t, u, p) + [spec // m_ring**i % m_ring for i in range(2 * p)]

    def cycles(self, ap: HwParams) -> int:
        return self.hw(ap).cycles()

    # --- loading ----------------------------------------------------------------------------------

    def load(self, ap: HwParams, cfg: Any, x: int, y: int) -> Load:
        mod = registry.get(self.ref).ref_module()
        tx, txn = mod.spectral(cfg, x)
        ty, tyn = mod.spectral(cfg, y)
        writes = [RamWrite("tnp", i, e) for i, e in enumerate(cfg.t_nprime)]
        writes += [RamWrite("tn", i, e) for i, e in enumerate(cfg.t_n)]
        writes += [RamWrite("dn", i, e) for i, e in enumerate(mod.digits(cfg, cfg.modulus))]
        for port, vec in (("tx", tx), ("txn", txn), ("ty", ty), ("tyn", tyn)):
            writes += [RamWrite(port, i, e) for i, e in enumerate(vec)]
        return Load({"x0y0_i": x & y & 1}, writes)

    def load_idle(self, ap: HwParams) -> dict[str, int]:
        out = {
            f"{p}_{s}": 0
            for p in ("tx", "txn", "ty", "tyn", "tnp", "tn", "dn")
            for s in ("we_i", "addr_i", "data_i")
        }
        out.update({"x0y0_i": 0, "rd_re_i": 0, "rd_sel_i": 0, "rd_addr_i": 0})
        return out

    # --- probes ---------------------------------------------------------------------------------

    def expected_vectors(self, ap: HwParams, cfg: Any, ent: dict[str, Any]) -> list[list[Any]]:
        """Per microprogram word, the (RAM, vector, what) triples its phase leaves (RAM "eng"
        with the group the engine's bookkeeping gives; "eng+" the other group, bit-reversed)."""
        mod = registry.get(self.ref).ref_module()
        p, u, l_ = ap["p"], ap["u"], ap["l"]
        ring = cfg.ring
        m_ring, q = ring.M, cfg.q_prime
        mask = (1 << l_) - 1

        def pm(a: list[int], b: list[int]) -> list[int]:
            return [x * y % m_ring for x, y in zip(a, b, strict=True)]

        def dig(v: int) -> list[int]:
            return words(v % (1 << l_), u, p)

        def raw_inv(vec: list[int], nega: bool) -> list[int]:
            # The network's output before its scaling: x P, or x A^n P.
            return [
                w * p * (pow(ring.A, n, m_ring) if nega else 1) % m_ring for n, w in enumerate(vec)
            ]

        half = p // 2
        hmask = (1 << (u * half)) - 1

        def fso(coeffs: list[int], what: str) -> list[Any]:
            # FSO A's digits 0 .. P/2-1, FSO B's H (the upper half's sum mod B^(P/2)), the
            # value's floor(. / 2^l) after the merge, and its digits as the next pass reads them.
            val = from_words(coeffs, u)
            upper = from_words(coeffs[half:], u)
            return [
                ("dla", words(val & hmask, u, half), f"{what}: digits 0 .. P/2-1 (FSO A)"),
                ("dlb", words(upper & hmask, u, half), f"{what}: upper half's digits (FSO B)"),
                ("hiw", [val >> l_], f"{what}: floor(. / 2^l) after the merge"),
                ("dlfix", dig(val), f"{what} mod 2^l, read with the merge"),
            ]

        tx, txn = ent["T(x)"], ent["T'(x)"]
        ty, tyn = ent["T(y)"], ent["T'(y)"]
        m = ent["m"]
        out: list[list[Any]] = []
        z1_vec = None
        lifted = ent["z4"]
        e_w = from_words(list(lifted), u)
        lo_w, hi_w = e_w & mask, e_w >> l_
        x_val = (lo_w - hi_w) % (1 << l_)
        t_pre = ent["t"]
        t_fin = t_pre - cfg.modulus if t_pre >= cfg.modulus else t_pre
        tt, ttn = mod.spectral(cfg, t_fin)
        s_val = ent["s"]
        seen_ict = 0
        after_out = False
        written: list[int] = []
        for op, f in PROGRAMS[ap["alg"]]:
            v: list[Any] = []
            if op == "MUL":
                if ap["alg"] == 3 and f["d"]:
                    v = [("ma", pm(tx, list(cfg.t_nprime)), "T(x) . T(N')")]
                elif ap["alg"] == 3 and f["a"] == "TY":
                    z1 = pm(ty, pm(tx, list(cfg.t_nprime)))
                    v = [("eng+", z1, "Z1 = T(y) . (T(x) . T(N'))")]
                    z1_vec = z1
                elif f["a"] == "TX":
                    z1_vec = pm(tx, list(cfg.t_nprime))
                    v = [("eng+", z1_vec, "G = T(x) . T(N')")]
                elif f["b"] == "ENG":
                    z1_vec = pm(ty, mod.ct(cfg, list(ent["z0"])))
                    v = [("eng+", z1_vec, "Z1 = T(y) . T(z0)")]
                else:
                    tm = mod.nct(cfg, mod.digits(cfg, m))
                    z4 = [
                        (a * b + c * d) % m_ring
                        for a, b, c, d in zip(txn, tyn, tm, cfg.t_n, strict=True)
                    ]
                    v = [("eng+", z4, "Z4 = T'(m) . T'(N) + T'(x) . T'(y)")]
            elif op == "NTT":
                kind = f["kind"]
                if kind == "ict":
                    assert z1_vec is not None
                    coeffs = mod.ict(cfg, z1_vec)
                    v = [("eng", raw_inv(coeffs, False), "CT^-1 x P")]
                    seen_ict += 1
                    what = "g" if ap["alg"] == 2 and seen_ict == 1 else "z1"
                    v += fso(coeffs, what)
                elif kind == "ct" and not after_out:
                    v = [("eng", mod.ct(cfg, list(ent["z0"])), "T(z0)")]
                elif kind == "nct" and f["par"]:
                    v = [
                        ("eng", mod.nct(cfg, mod.digits(cfg, m)), "T'(m)"),
                        ("ma", pm(txn, tyn), "T'(x) . T'(y)"),
                    ]
                elif kind == "inct":
                    v = [("eng", raw_inv(list(ent["z4_unrestricted"]), True), "NCT^-1 x A^n P")]
                    v += fso(list(lifted), "eval(w) (lifted w)")
                elif kind == "ct":
                    v = [("eng", tt, "T(t)")]
                else:
                    v = [("eng", ttn, "T'(t)")]
            elif op == "Z0":
                v = [("eng+", list(ent["z0"]), "z0 (digit-wise)")]
            elif op == "MODR":
                z1 = ent["z1"]
                s_sum = (z1 & mask) + (z1 >> l_)
                v = [("d1", dig(s_sum), "lo + hi"), ("d2", dig(s_sum + 1), "lo + hi + 1")]
            elif op == "WRM":
                v = [("eng+", mod.digits(cfg, m), "m")]
            elif op == "MODQ":
                v = [("d1", dig(x_val), "X = lo - hi mod 2^l")]
            elif op == "HALF":
                v = [("d2", dig(ent["S"]), "S mod 2^l"), ("d3", dig(s_val or q), "s (Q' for 0)")]
            elif op == "TSEL":
                v = [("d1", dig(t_pre), "t before step 17, mod 2^l")]
            elif op == "OUT":
                after_out = True
                v = [("dr", dig(t_fin), "t"), ("eng+", mod.digits(cfg, t_fin), "t")]
            elif op == "COPY":
                v = [("rt", tt, "T(t)")]
            elif op == "OUTN":
                v = [("eng+", mod.digits(cfg, t_fin), "t")]
            if op == "NTT":  # the network's input: the vector the previous phase wrote
                v.append(("stages", list(written), str(f["kind"])))
            written = next((vec for where, vec, _ in v if where == "eng+"), written)
            out.append(v)
        return out

    def probes(self, ap: HwParams, cfg: Any, trace: Trace) -> dict[int, list[Probe]]:
        hw = self.hw(ap)
        p, lanes = ap["p"], ap["bfs"]
        nb, s = 2 * lanes, p // (2 * lanes)
        big_l = p.bit_length() - 1
        rev = tf.bit_reverse
        ent = trace[0]
        out: dict[int, list[Probe]] = {}
        cur = 0  # the engine's current group

        def engine(vec: list[int], grp: int, what: str) -> list[Probe]:
            res = []
            for pos in range(p):
                bank = (pos // s + pos % 2) % nb
                sig = f"u_ntt.g_bank[{bank}].u_ram.mem"
                res.append(Probe(((sig, grp * s + pos % s),), vec[pos], f"{what}[{pos}]"))
            return res

        ram = {"ma": "u_ma.mem", "dla": "u_dla.mem", "dlb": "u_dlb.mem", "d1": "u_d1.mem",
               "d2": "u_d2.mem", "d3": "u_d3.mem", "dr": "u_dr.mem", "rt": "u_rt.mem"}  # fmt: skip
        aw = ap["ring"] + 4  # the accumulators' width
        vecs = self.expected_vectors(ap, cfg, ent)
        eng = hw.engine
        starts = [c for _, c, _ in hw.phases()]
        for pc, ((op, _), exp) in enumerate(zip(PROGRAMS[ap["alg"]], vecs, strict=False)):
            if op == "END":
                break
            g0 = cur ^ 1  # a transform's stages start from the group its swap makes current
            if op == "NTT":
                cur ^= 1 ^ (big_l % 2)  # the swap, then the stages' own group changes
            edge = hw.phase_done_edge(pc)
            lst = out.setdefault(edge, [])
            for where, vec, what in exp:
                label = f"{pc}:{op}: {what}"
                if where == "stages":
                    # The transform's length, seen on the engine: busy_o rises at the edge that
                    # takes start_i (the phase's second) and done_o at start + its done cycle.
                    c0 = starts[pc]
                    done = hw.engine_cycles(what)
                    for e, sig, val in (
                        (c0, "busy_q", 0),
                        (c0 + 1, "busy_q", 1),
                        (c0 + done - 1, "done_q", 0),
                        (c0 + done, "done_q", 1),
                    ):
                        out.setdefault(e, []).append(
                            Probe(((f"u_ntt.{sig}", None),), val, f"{pc}:{what} {sig} = {val}")
                        )  # fmt: skip
                    # Stage j (ping-pong) writes group g0 ^ (j + 1 mod 2), last in the engine
                    # cycle that ends a (j + 1)-stage run, the engine's cycle 0 being the
                    # phase's second.
                    kind = {"ct": "ct", "nct": "nct"}.get(what, "inv")
                    stage_vec = rev(list(vec))
                    for j in range(big_l):
                        stage_vec = tf.cg_stage(cfg.ring, stage_vec, j, kind)
                        supp = bool(ap["sqrt2"]) and kind == "nct" and j == big_l - 1
                        last = eng.last_write(j + 1, supp)
                        out.setdefault(c0 + 1 + last, []).extend(
                            engine(stage_vec, g0 ^ ((j + 1) % 2), f"{pc}:{what} stage {j}")
                        )
                elif where == "hiw":
                    lst.append(Probe((("hiw_q", None),), vec[0] % (1 << aw), label))
                elif where == "dlfix":
                    # The next phase reads digit i at its cycle i + 1: dlr after edge c1 + i.
                    c1 = starts[pc + 1]
                    for i, w in enumerate(vec):
                        out.setdefault(c1 + i, []).append(
                            Probe((("dlr", None),), int(w), f"{label}[{i}]")
                        )
                elif where == "eng":
                    lst += engine(list(vec), cur, label)
                elif where == "eng+":
                    lst += engine(rev(list(vec)), cur ^ 1, label + " (bit-reversed)")
                else:
                    lst += [
                        Probe(((ram[where], i),), int(w), f"{label}[{i}]")
                        for i, w in enumerate(vec)
                    ]
        return out

    def ports(self, ap: HwParams) -> list[Port]:
        k, u = ap["ring"], ap["u"]
        lg = ap["p"].bit_length() - 1
        out = [Port("x0y0_i", 1, "in")]
        for name in ("tx", "txn", "ty", "tyn", "tnp", "tn", "dn"):
            out += [Port(f"{name}_we_i", 1, "in"), Port(f"{name}_addr_i", lg, "in")]
            out += [Port(f"{name}_data_i", u if name == "dn" else k + 1, "in")]
        out += [Port("rd_re_i", 1, "in"), Port("rd_sel_i", 2, "in"), Port("rd_addr_i", lg, "in")]
        out += [Port("rd_valid_o", 1, "out"), Port("rd_data_o", k + 1, "out")]
        out += [Port("phase_o", 5, "out")]
        return out
