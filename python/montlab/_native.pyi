"""Type stub for ``montlab._native``, the Rust engines (crates/montlab-py).

Checked against the built module by ``python -m mypy.stubtest montlab._native``.
Every int argument must be a non-negative Python int (``__index__`` objects are accepted);
moduli must be odd and > 1 (``ModulusError``), operands must satisfy ``0 <= x < N`` and
exponents ``>= 0`` (``OperandError``); other types raise ``TypeError``.
"""

from typing import final

__all__ = ["powm", "Cios", "ALGORITHMS"]

#: Algorithm ids with a native engine (the ids marked "native" in algorithms.toml).
ALGORITHMS: tuple[str, ...]

@final
class Cios:
    """CIOS Montgomery arithmetic modulo one odd N > 1; word size 64, R = 2^(64 * limbs)."""

    def __new__(cls, n: int) -> Cios: ...
    @property
    def modulus(self) -> int:
        """The modulus N."""
    @property
    def r(self) -> int:
        """The Montgomery constant R = 2^(64 * limbs)."""
    @property
    def r2(self) -> int:
        """R^2 mod N."""
    @property
    def limbs(self) -> int:
        """Number of 64-bit limbs s of N."""
    @property
    def n0_inv(self) -> int:
        """-N^-1 mod 2^64."""
    def mul(self, x: int, y: int) -> int:
        """The Montgomery product x * y * R^-1 mod N, for 0 <= x, y < N."""
    def to_mont(self, x: int) -> int:
        """x * R mod N, for 0 <= x < N."""
    def from_mont(self, x: int) -> int:
        """x * R^-1 mod N, for 0 <= x < N."""
    def pow(self, base: int, exp: int) -> int:
        """base ** exp mod N, for 0 <= base < N and exp >= 0 (variable time in exp)."""

def powm(base: int, exp: int, modulus: int) -> int:
    """base ** exp mod modulus, for odd modulus > 1, 0 <= base < modulus and exp >= 0."""
