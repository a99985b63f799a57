"""What every reference model shares: its configuration record, its trace and its range checks.

A reference model is a module ``montlab.ref.<id>`` with two functions:

``configure(N, params) -> Config``
    ``params`` holds exactly the registry's parameters for the id, already type-checked and
    bounded by :mod:`montlab.registry`; a parameter whose default is ``"auto"`` arrives as
    ``None``. ``configure`` derives everything else, checks the cross-parameter rules and the
    modulus, and raises :class:`~montlab.errors.ModulusError` or
    :class:`~montlab.errors.ParameterError` with a message a user can act on.

``mont_mul(cfg, x, y, trace=None) -> int``
    One Montgomery multiplication, step for step as the paper states it (errata fixed). It calls
    :func:`check_operands` first, asserts its invariants as it goes, and appends one dict per
    iteration to ``trace`` when a list is given. It returns ``z`` with
    ``z == x*y*r^-1 (mod N)`` and ``0 <= z < cfg.bound * N``.

Models are naive and slow on purpose: they are the oracle for the engines and the RTL.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from montlab.errors import ModulusError, OperandError, OperandTypeError, show_int

TraceValue = Union[int, str, list[int]]
TraceEntry = dict[str, TraceValue]
Trace = list[TraceEntry]


@dataclass(frozen=True)
class MontConfig:
    """The per-modulus constants of one algorithm and parameter set.

    Subclasses add the algorithm's own derived quantities (word count, digit count, ...).
    """

    algo: str
    modulus: int  #: N, odd, > 1
    r: int  #: the Montgomery constant: mont_mul returns x*y*r^-1 mod N
    bound: int  #: outputs lie in [0, bound*N)
    in_bound: int  #: inputs must lie in [0, in_bound*N)
    iterations: int  #: main-loop iterations of one multiplication

    @property
    def r_inv(self) -> int:
        """r^-1 mod N."""
        return pow(self.r, -1, self.modulus)


def check_modulus(algo: str, n_mod: int) -> None:
    """Reject N <= 1 and even N, the rules every Montgomery algorithm shares."""
    if not isinstance(n_mod, int) or isinstance(n_mod, bool):
        raise OperandTypeError(
            f"{algo}: the modulus must be an integer, got {type(n_mod).__name__}"
        )
    if n_mod <= 1:
        raise ModulusError(f"{algo}: the modulus must be > 1, got {n_mod}")
    if n_mod % 2 == 0:
        raise ModulusError(f"{algo}: the modulus must be odd, got an even modulus {hex(n_mod)}")


def check_width(algo: str, n_mod: int, n: int, what: str = "n") -> None:
    """Reject a modulus wider than the datapath width n."""
    if n_mod.bit_length() > n:
        raise ModulusError(
            f"{algo}: the modulus has {n_mod.bit_length()} bits, too wide for {what} = {n}"
        )


def check_operands(cfg: MontConfig, *operands: int) -> None:
    """Reject operands that are not integers in [0, cfg.in_bound * N)."""
    limit = cfg.in_bound * cfg.modulus
    names = "xyzuvw"
    for i, v in enumerate(operands):
        name = names[i] if i < len(names) else f"operand {i}"
        if not isinstance(v, int) or isinstance(v, bool):
            raise OperandTypeError(f"{cfg.algo}: {name} must be an integer, got {type(v).__name__}")
        if v < 0:
            raise OperandError(f"{cfg.algo}: {name} is negative ({show_int(v)})")
        if v >= limit:
            rng = "N" if cfg.in_bound == 1 else f"{cfg.in_bound}*N"
            raise OperandError(
                f"{cfg.algo}: {name} = {show_int(v)} is out of range: it must be < {rng}"
            )


def final_subtraction(cfg: MontConfig, z: int) -> int:
    """The one conditional subtraction that takes an output in [0, 2N) to [0, N)."""
    assert 0 <= z < 2 * cfg.modulus, "the value before the final subtraction is not < 2N"
    if z >= cfg.modulus:
        z -= cfg.modulus
    assert 0 <= z < cfg.bound * cfg.modulus, "output outside the contract range"
    return z


def words(value: int, w: int, count: int) -> list[int]:
    """The radix-2^w digits of ``value``, least significant first, exactly ``count`` of them."""
    assert value >= 0 and value >> (w * count) == 0, "value does not fit in count words"
    mask = (1 << w) - 1
    return [(value >> (w * j)) & mask for j in range(count)]


def from_words(ws: list[int], w: int) -> int:
    """Inverse of :func:`words` (digits may exceed 2^w: eval_w)."""
    return sum(d << (w * j) for j, d in enumerate(ws))


def bit(value: int, i: int) -> int:
    """Bit i of a non-negative integer."""
    return (value >> i) & 1
