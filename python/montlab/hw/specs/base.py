"""What every RTL architecture's spec provides to the flow (montlab.hw.flow, montlab.hw.tb).

Contract: one :class:`HwSpec` subclass per architecture, in ``montlab/hw/specs/<arch>.py``,
owns everything the flow must know about that design and nothing about the tools:

  * :meth:`HwSpec.resolve` turns ``--set key=value`` pairs into an :class:`HwParams` (the
    architecture's own parameter names, defaults and limits; its HDL parameter names) or raises
    :class:`~montlab.errors.ParameterError`;
  * :meth:`HwSpec.expect` is the value the design's result port must show (from the reference
    model ``montlab.ref.<ref>``, imported, never copied);
  * :meth:`HwSpec.probes` gives, per clock edge after the start, the internal values to compare
    with the model's trace;
  * :meth:`HwSpec.load` says how constants and operands reach the design: port values taken with
    ``start_i`` and RAM writes made before it (load cycles, reported apart from the operation's);
  * :meth:`HwSpec.readout` and :meth:`HwSpec.assemble` say how a design that keeps its result
    in RAM returns it: reads through a read port after done_o, assembled into the value
    :meth:`HwSpec.expect` gives (designs with a result port read it at done_o instead);
  * :meth:`HwSpec.cycles` is the cycle count of *our* schedule: a model (``cycle_model`` says
    which formula), which the simulation checks and measures;
  * :meth:`HwSpec.ports` lists the data ports, so that a place-and-route top can feed them from
    shift registers.

The common interface every top shares: ``clk_i``, ``rst_ni`` (asynchronous, active low),
``start_i`` (taken at a clock edge while ``busy_o`` is low), ``busy_o``, ``done_o`` (high for one
cycle after the last edge of the operation) and the result port.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Mapping

from montlab import registry
from montlab.errors import ParameterError
from montlab.ref._base import MontConfig, Trace

#: The RTL sources ship inside the package (``montlab/rtl``; a source checkout's top-level
#: ``rtl`` links to it), so the flow runs from an installed wheel as from a checkout.
RTL_DIR = Path(str(resources.files("montlab") / "rtl"))


def _checkout() -> Path | None:
    """The source checkout around this package, or None when it runs from an installed wheel
    (the reports' pages and the build cache live in a checkout)."""
    root = Path(__file__).resolve().parents[4]
    is_checkout = (root / "pyproject.toml").is_file() and (root / "python" / "montlab").is_dir()
    return root if is_checkout else None


REPO = _checkout()


def rtl_relative(path: Path) -> str:
    """``rtl/...``: a source's name as the file lists, docs and exports give it."""
    return f"rtl/{path.relative_to(RTL_DIR).as_posix()}"


#: Default operand width when --set n is not given.
DEFAULT_N = 64


@dataclass(frozen=True)
class HwParams:
    """One parameter set of one architecture: the user's values, what follows from them, and the
    HDL parameters of the top module."""

    arch: str
    values: dict[str, int]  #: resolved user-level parameters (n, w, k, ...)
    derived: dict[str, int]  #: sizes that follow (e, d, rounds, ...)
    hdl: dict[str, int]  #: HDL parameter name -> value

    def __getitem__(self, name: str) -> int:
        if name in self.values:
            return self.values[name]
        return self.derived[name]

    def get(self, name: str, default: int | None = None) -> int | None:
        try:
            return self[name]
        except KeyError:
            return default

    def key(self) -> str:
        """A file-name-safe name of the parameter set (the build cache folder)."""
        return "_".join(f"{k.lower()}{v}" for k, v in self.hdl.items())

    def as_dict(self) -> dict[str, int]:
        return {**self.values, **self.derived}


@dataclass(frozen=True)
class Probe:
    """One internal value to compare: the sum of ``signals`` (paths under the top, each with an
    optional array index) must equal ``want`` at the edge it is filed under."""

    signals: tuple[tuple[str, int | None], ...]
    want: int
    what: str


@dataclass(frozen=True)
class RamWrite:
    """One write through a RAM/table write port before start_i: ``<port>_we_i``,
    ``<port>_addr_i``, ``<port>_data_i``."""

    port: str
    addr: int
    data: int


@dataclass(frozen=True)
class RamRead:
    """One read through a read port after done_o: ``<port>_re_i`` high for one cycle with
    ``<port>_addr_i`` and the ``fixed`` inputs (name, value); the word is ``<port>_data_o`` in
    a cycle in which ``<port>_valid_o`` is high (reads return in order)."""

    port: str
    addr: int
    fixed: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Load:
    """How one operation reaches the design."""

    ports: dict[str, int]  #: values held on input ports when start_i is taken
    writes: list[RamWrite] = field(default_factory=list)  #: RAM writes before start_i


@dataclass(frozen=True)
class Port:
    """A data port of the top (clock, reset and handshake excluded)."""

    name: str
    width: int
    direction: str  #: "in" or "out"


@dataclass(frozen=True)
class HwParam:
    """A parameter of the RTL alone (the reference model does not take it)."""

    default: int
    lo: int
    hi: int
    doc: str

    def check(self, arch: str, name: str, value: Any) -> int:
        v = registry.parse_int(value, f"{arch}: {name}")
        if not self.lo <= v <= self.hi:
            raise ParameterError(
                f"{arch}: {name} = {v} is illegal (allowed: {self.lo} .. {self.hi})"
            )
        return v


#: The rank parameters of rtl/common/karatsuba_mul (the designs that multiply on it share them).
KARATSUBA_PARAMS = {
    "base_lat": HwParam(3, 0, 8, "ranks in each 17 x 17 base multiplier (the DSP48E1's: 3)"),
    "level_lat": HwParam(4, 0, 4, "ranks per Karatsuba level (ISM3: 4, latency 7/11/15)"),
}


@dataclass(frozen=True)
class Variant:
    """A hardware variant kept to show an erratum failing (tests expect mismatches)."""

    value: int
    erratum: str


class HwSpec:
    """One RTL architecture. Subclasses set the class attributes and override the methods."""

    name: ClassVar[str]  #: top module, rtl/<name>/ and the spec's id
    ref: ClassVar[str]  #: registry id of the reference model
    doc: ClassVar[str]  #: one line
    cycle_model: ClassVar[str]  #: the formula of :meth:`cycles` (a model of our schedule)
    max_n: ClassVar[int] = 4096  #: largest n the flow accepts
    result_port: ClassVar[str] = "z_o"
    variants: ClassVar[dict[str, dict[int, Variant]]] = {}  #: parameter -> value -> erratum
    hw_params: ClassVar[dict[str, HwParam]] = {}  #: the RTL's own parameters
    #: RAMs the design overwrites while it runs: every load writes them in full (the others
    #: only where their content changes)
    volatile_rams: ClassVar[tuple[str, ...]] = ()

    @property
    def top(self) -> str:
        return self.name

    @property
    def synth_top(self) -> str:
        """The module synthesized for area (the simulation top unless a spec says otherwise)."""
        return self.top

    def files(self) -> list[Path]:
        """The sources, in compile order, from rtl/<name>/files.f (paths relative to rtl/)."""
        flist = RTL_DIR / self.name / "files.f"
        if not flist.is_file():
            raise ParameterError(
                f"{self.name}: {flist} not found (an incomplete install of montlab)"
            )
        lines = [ln.strip() for ln in flist.read_text().splitlines()]
        return [RTL_DIR / ln for ln in lines if ln and not ln.startswith("#")]

    # --- parameters ---------------------------------------------------------------------------

    def param_docs(self) -> dict[str, dict[str, Any]]:
        """The parameters ``--set`` takes, with default and doc (for ``montlab rtl list``)."""
        raise NotImplementedError

    def resolve(self, sets: Mapping[str, Any] | None = None) -> HwParams:
        raise NotImplementedError

    def _hw_param_docs(self) -> dict[str, dict[str, Any]]:
        """:attr:`hw_params` as :meth:`param_docs` rows."""
        return {name: {"default": hp.default, "doc": hp.doc} for name, hp in self.hw_params.items()}

    def _registry_params(self, sets: Mapping[str, Any] | None) -> dict[str, Any]:
        """``sets`` minus :attr:`hw_params`, checked by the registry (names, types, bounds)."""
        given = {k: v for k, v in dict(sets or {}).items() if k not in self.hw_params}
        return registry.resolve_params(self.ref, given)

    def _hw_params(self, sets: Mapping[str, Any] | None) -> dict[str, int]:
        """:attr:`hw_params` from ``sets``, parsed and bounded, defaults filled."""
        given = dict(sets or {})
        return {
            name: p.default if given.get(name) is None else p.check(self.name, name, given[name])
            for name, p in self.hw_params.items()
        }

    def check_n(self, n: int) -> None:
        if n > self.max_n:
            raise ParameterError(
                f"{self.name}: n = {n} is too large for the RTL flow (max {self.max_n})"
            )

    def ref_params(self, ap: HwParams) -> dict[str, int]:
        """The reference model's parameters for this parameter set."""
        raise NotImplementedError

    def variant(self, ap: HwParams) -> list[str]:
        """The errata this parameter set deliberately reproduces (empty: the corrected design)."""
        out = []
        for name, table in self.variants.items():
            v = ap.get(name)
            if v is not None and v in table:
                out.append(table[v].erratum)
        return out

    # --- the model side -----------------------------------------------------------------------

    def configure(self, ap: HwParams, m: int) -> MontConfig:
        """The reference model's configuration for modulus ``m``."""
        mod = registry.get(self.ref).ref_module()
        cfg: MontConfig = mod.configure(m, registry.resolve_params(self.ref, self.ref_params(ap)))
        return cfg

    def expect(self, ap: HwParams, cfg: Any, x: int, y: int, trace: Trace | None) -> int:
        """The value the result port shows for x, y (and fills ``trace``)."""
        raise NotImplementedError

    def probes(self, ap: HwParams, cfg: Any, trace: Trace) -> dict[int, list[Probe]]:
        """Per clock edge k after the start edge (k = 1, 2, ...), the values to compare."""
        raise NotImplementedError

    def load(self, ap: HwParams, cfg: Any, x: int, y: int) -> Load:
        """The ports and RAM writes of one operation."""
        raise NotImplementedError

    def cycles(self, ap: HwParams) -> int:
        """Clock edges from the one that takes start_i to the one after which done_o is high,
        by the model of our schedule (:attr:`cycle_model`)."""
        raise NotImplementedError

    def load_idle(self, ap: HwParams) -> dict[str, int]:
        """Input values held from reset on (RAM write enables low)."""
        return {}

    def status_ports(self, ap: HwParams) -> list[str]:
        """Sticky 1-bit outputs (error flags) that the simulation summary reports: each one's
        OR over the run's operations, read at done_o."""
        return []

    def readout(self, ap: HwParams) -> list[RamRead]:
        """Reads that return the result after done_o; empty: the result port holds it."""
        return []

    def assemble(self, ap: HwParams, words: list[int]) -> int:
        """The result from the words of :meth:`readout`, in its order."""
        raise NotImplementedError

    def readout_words(self, ap: HwParams, z: int) -> list[int]:
        """The words :meth:`readout` returns for the result z (:meth:`assemble`'s inverse)."""
        raise NotImplementedError

    def path_groups(self, ap: HwParams) -> dict[str, list[str]]:
        """Register groups (name -> wire-name patterns of the registers' outputs, as named in
        the flattened netlist) whose incoming logic depth synthesis reports apart (``paths``);
        none by default."""
        return {}

    def keep_wires(self, ap: HwParams) -> list[str]:
        """Wire patterns synthesis marks ``keep`` (``setattr -set keep 1``, before elaboration)
        so that the mapped netlist still shows their names: by default every pattern of
        :meth:`path_groups`."""
        return [g for pats in self.path_groups(ap).values() for g in pats]

    def ports(self, ap: HwParams) -> list[Port]:
        raise NotImplementedError
