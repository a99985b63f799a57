"""Type stub for ``montlab._native``, the Rust engines (crates/montlab-py).

Checked against the built module by ``python -m mypy.stubtest montlab._native``.
Every int argument must be a non-negative Python int (``__index__`` objects such as gmpy2.mpz
are accepted, bool is not); moduli must be odd and > 1 (``ModulusError``), operands must satisfy
``0 <= x < N`` and exponents ``>= 0`` (``OperandError``); bool, bytes, str, float and other
types, and list arguments that are bytes or str, raise ``OperandTypeError`` (a ``TypeError``).
"""

from collections.abc import Sequence
from typing import SupportsIndex, final, overload

__all__ = [
    "pow_crt",
    "CrtKey",
    "powm",
    "thresholds",
    "set_thresholds",
    "Amm",
    "Cios",
    "FastModulus",
    "NttRedc",
    "Residue",
    "Spectral",
    "ALGORITHMS",
    "GENERIC_THRESHOLDS",
    "ADX",
    "AVX2",
    "IFMA",
    "MAX_BITS",
    "SPECTRAL_MAX_BITS",
    "BUILD",
]

#: Algorithm ids with a native engine (the ids marked "native" in algorithms.toml).
ALGORITHMS: tuple[str, ...]
#: The checked-in generic threshold table for this CPU (``key = bits`` lines): one for CPUs whose
#: word-level kernel runs on AVX-512 IFMA, one for the rest.
GENERIC_THRESHOLDS: str
#: True when the kernels (word-level and spectral) run on AVX-512 IFMA on this CPU.
IFMA: bool
#: True when the word level runs its MULX/ADX assembly rows (BMI2 and ADX, MONTLAB_NO_ADX unset).
ADX: bool
#: True when the spectral transforms run on AVX2 and FMA (no IFMA in use, MONTLAB_NO_AVX2 unset).
AVX2: bool
#: The largest modulus (bits) FastModulus and powm take: 2^25, the ntt_redc kernel's range.
MAX_BITS: int
#: The largest modulus (bits) of spectral and of pow_sec: 2^22. Above it every variable-time
#: operation runs on ntt_redc and pow_sec raises ModulusError.
SPECTRAL_MAX_BITS: int
#: How the extension was built: "rustc" (the compiler's version line), "target", "profile",
#: "version".
BUILD: dict[str, str]

@final
class Cios:
    """CIOS Montgomery arithmetic modulo one odd N > 1; word size 64, R = 2^(64 * limbs)."""

    def __new__(cls, n: SupportsIndex) -> Cios: ...
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
    def mul(self, x: SupportsIndex, y: SupportsIndex) -> int:
        """The Montgomery product x * y * R^-1 mod N, for 0 <= x, y < N."""
    def to_mont(self, x: SupportsIndex) -> int:
        """x * R mod N, for 0 <= x < N."""
    def from_mont(self, x: SupportsIndex) -> int:
        """x * R^-1 mod N, for 0 <= x < N."""
    def pow(self, base: SupportsIndex, exp: SupportsIndex) -> int:
        """base ** exp mod N, for 0 <= base < N and exp >= 0 (variable time in exp)."""

@final
class Amm:
    """The amm kernel alone: almost Montgomery multiplication in radix 2^52 on AVX-512 IFMA,
    R = 2^(52 k), k = ceil((bitlen(N) + 2) / 52), N up to 52830 bits. Raises ParameterError on a
    CPU without IFMA."""

    def __new__(cls, n: SupportsIndex) -> Amm: ...
    @property
    def modulus(self) -> int:
        """The modulus N."""
    @property
    def r(self) -> int:
        """The Montgomery constant R = 2^(52 k)."""
    @property
    def digits(self) -> int:
        """Digit count k."""
    @property
    def n0_inv(self) -> int:
        """-N^-1 mod 2^52."""
    def mul(self, x: SupportsIndex, y: SupportsIndex) -> int:
        """x * y * R^-1 mod N up to one N: in [0, 2N), for lazy 0 <= x, y < 2N."""
    def pow(self, base: SupportsIndex, exp: SupportsIndex) -> int:
        """base ** exp mod N, fully reduced, for 0 <= base < N and exp >= 0 (variable time)."""

@final
class Spectral:
    """The spectral kernel alone: McLaughlin's Montgomery multiplication with R = 2^l + 1
    (l = 64 P) over three-prime NTTs. Raises ModulusError when gcd(N, R) > 1."""

    def __new__(cls, n: SupportsIndex, transform_len: int | None = None) -> Spectral: ...
    @property
    def modulus(self) -> int:
        """The modulus N."""
    @property
    def transform_len(self) -> int:
        """Transform length P."""
    @property
    def r(self) -> int:
        """The Montgomery constant R = 2^(64 P) + 1."""
    def mul(self, x: SupportsIndex, y: SupportsIndex) -> int:
        """x * y * R^-1 mod N, for 0 <= x, y < N."""
    def trace(self, x: SupportsIndex, y: SupportsIndex) -> dict[str, int | list[int]]:
        """mul's intermediate values: h_residues, m_residues, S_residues (3 P values each,
        prime by prime) and h, m, S, t, result."""
    def pow(self, base: SupportsIndex, exp: SupportsIndex) -> int:
        """base ** exp mod N, for 0 <= base < N and exp >= 0 (variable time)."""

@final
class NttRedc:
    """The ntt_redc kernel alone: Montgomery's REDC with R = 2^l (l = 64 P) over three-prime
    NTTs, N up to 2^25 bits."""

    def __new__(cls, n: SupportsIndex) -> NttRedc: ...
    @property
    def modulus(self) -> int:
        """The modulus N."""
    @property
    def transform_len(self) -> int:
        """Transform length P."""
    @property
    def r(self) -> int:
        """The Montgomery constant R = 2^(64 P)."""
    def mul(self, x: SupportsIndex, y: SupportsIndex) -> int:
        """x * y * R^-1 mod N, for 0 <= x, y < N."""
    def trace(self, x: SupportsIndex, y: SupportsIndex) -> dict[str, int | list[int]]:
        """mul's intermediate values: T_cyc_residues, T_nega_residues (3 P values each) and
        T_lo, T_hi, m, U, H, t, result."""
    def pow(self, base: SupportsIndex, exp: SupportsIndex) -> int:
        """base ** exp mod N, for 0 <= base < N and exp >= 0 (variable time)."""

@final
class FastModulus:
    """Fast arithmetic modulo one odd N > 1, the kernel picked by size from the threshold table.

    Operands are ordinary (not Montgomery) ints in [0, N); an operand >= N raises
    ``OperandError`` (it is never reduced silently). Results are fully reduced.
    """

    def __new__(cls, n: SupportsIndex) -> FastModulus: ...
    @property
    def modulus(self) -> int:
        """The modulus N."""
    @property
    def bits(self) -> int:
        """Bit length of N."""
    @property
    def mul_kernel(self) -> str:
        """Registry id of the kernel of mul, sqr and mul_many: "amm", "cios", "spectral" or
        "ntt_redc"."""
    @property
    def mul_reduction(self) -> str:
        """How mul, sqr and mul_many on ints reduce: "barrett" (word level without IFMA: one
        product, then a Barrett reduction) or "montgomery" (two Montgomery products)."""
    @property
    def pow_sec_kernel(self) -> str:
        """Registry id of the kernel of pow_sec: "amm" (AVX-512 IFMA, 513 to 52830 bits), "cios",
        or "spectral" where the table's spectral_sec_bits is on (N with a spectral kernel). Builds
        nothing."""
    @property
    def blinding(self) -> bool:
        """Whether pow_sec and pow_sec_many blind their operands (False by default): every
        table entry and the starting accumulator carry a random factor, removed at the end.
        Same results; a fresh factor pair (first blinded call per exponent length, then every
        256 calls) costs one more exponentiation."""
    @blinding.setter
    def blinding(self, on: bool) -> None: ...
    @property
    def pow_kernel(self) -> str:
        """Registry id of the kernel of pow and pow_many for long exponents: "amm", "cios",
        "spectral", or "ntt_redc" (a modulus without a spectral kernel). Builds the spectral
        setup, after which short exponents run on it too."""
    def pow_kernel_for(self, exp: SupportsIndex) -> str:
        """Registry id of the kernel the next pow(x, exp) runs on: "amm", "cios", "spectral",
        or "ntt_redc" (a short exponent at a spectral size while the spectral setup is not
        built). Builds nothing."""
    @property
    def thresholds(self) -> dict[str, int | list[int]]:
        """The threshold table this modulus dispatches with (a spectral cut-over is an int, or
        the list of sizes at which the spectral kernel switches on, off, on, ...)."""
    @property
    def transform_len(self) -> int | None:
        """Transform length P of the spectral kernel (R = 2^(64 P) + 1), or None. Builds the
        spectral setup, after which short exponents run on it too."""
    def mul(self, x: SupportsIndex, y: SupportsIndex) -> int:
        """x * y mod N, for 0 <= x, y < N."""
    def sqr(self, x: SupportsIndex) -> int:
        """x * x mod N, for 0 <= x < N."""
    def pow(self, base: SupportsIndex, exp: SupportsIndex) -> int:
        """base ** exp mod N, for 0 <= base < N and exp >= 0 (variable time in exp)."""
    def pow_sec(self, base: SupportsIndex, exp: SupportsIndex, exp_bits: int | None = None) -> int:
        """base ** exp mod N in constant time in base and the exponent bits (fixed window on
        pow_sec_kernel: the word level, or spectral where the table's spectral_sec_bits is on).
        The exponent runs to a public length: exp_bits when given (at most 2^24; a longer
        exponent raises OperandError), else N's length or its own if longer; never trimmed to
        its top bit."""
    def __call__(self, x: SupportsIndex) -> Residue:
        """The residue of x (any int, taken mod N), in Montgomery form in native memory."""
    def from_form(self, form: SupportsIndex) -> Residue:
        """The residue whose Montgomery form is form (0 <= form < N), no conversion."""
    @property
    def residue_kernel(self) -> str:
        """Registry id of the kernel residues multiply on (that of mul), which fixes their R."""
    @overload
    def mul_many(self, xs: Sequence[Residue], ys: Sequence[Residue]) -> list[Residue]: ...
    @overload
    def mul_many(self, xs: Sequence[SupportsIndex], ys: Sequence[SupportsIndex]) -> list[int]:
        """[x * y mod N for x, y in zip(xs, ys)] on all cores; equal, non-zero lengths. Ints
        from ints, residues from residues of this modulus."""
    @overload
    def pow_many(
        self, bases: Sequence[Residue], exps: SupportsIndex | Sequence[SupportsIndex]
    ) -> list[Residue]: ...
    @overload
    def pow_many(
        self, bases: Sequence[SupportsIndex], exps: SupportsIndex | Sequence[SupportsIndex]
    ) -> list[int]:
        """[b ** e mod N] per base (one exponent for all, or one per base), on all cores. Ints
        from ints, residues from residues of this modulus."""
    def pow_sec_many(
        self,
        bases: Sequence[SupportsIndex],
        exps: SupportsIndex | Sequence[SupportsIndex],
        exp_bits: int | None = None,
    ) -> list[int]:
        """[b ** e mod N] per base (one exponent for all, or one per base), on all cores, each
        as pow_sec. Every exponent runs to one public length: exp_bits when given (at most
        2^24; a longer exponent raises OperandError), else N's length or the longest
        exponent's if longer. Bad input raises OperandError before any work."""

@final
class Residue:
    """An element of Z/NZ in the Montgomery form of its modulus's product kernel, made by
    FastModulus(n)(x). Operators take residues of the same N (another kernel's are converted)
    or ints (taken mod N); residues of different moduli raise OperandError. Immutable and
    hashable like int: a == x for an int x when x is a's value in [0, N)."""

    def __mul__(self, other: Residue | SupportsIndex, /) -> Residue: ...
    def __rmul__(self, other: SupportsIndex, /) -> Residue: ...
    def __add__(self, other: Residue | SupportsIndex, /) -> Residue: ...
    def __radd__(self, other: SupportsIndex, /) -> Residue: ...
    def __sub__(self, other: Residue | SupportsIndex, /) -> Residue: ...
    def __rsub__(self, other: SupportsIndex, /) -> Residue: ...
    def __truediv__(self, other: Residue | SupportsIndex, /) -> Residue:
        """self * other^-1; OperandError when other is not invertible."""
    def __rtruediv__(self, other: SupportsIndex, /) -> Residue: ...
    def __neg__(self) -> Residue: ...
    def __pos__(self) -> Residue: ...
    def __pow__(self, exp: SupportsIndex, modulo: None = None, /) -> Residue:
        """self ** exp (negative: a power of the inverse). Variable time."""
    def inverse(self) -> Residue:
        """The inverse; OperandError when gcd(value, N) > 1 (0 included)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __int__(self) -> int:
        """The value in [0, N)."""
    @property
    def modulus(self) -> int:
        """The modulus N."""
    @property
    def form(self) -> int:
        """The Montgomery form x R mod N (R is the kernel's constant)."""
    @property
    def kernel(self) -> str:
        """Registry id of the kernel the residue's products run on."""

def powm(base: SupportsIndex, exp: SupportsIndex, modulus: SupportsIndex) -> int:
    """base ** exp mod modulus, for odd modulus > 1, 0 <= base < modulus and exp >= 0."""

def pow_crt(
    c: SupportsIndex,
    dp: SupportsIndex,
    dq: SupportsIndex,
    p: SupportsIndex,
    q: SupportsIndex,
    qinv: SupportsIndex,
    sec: bool = True,
) -> int:
    """c^d mod p q from an RSA key in CRT form; constant time in the key and c unless
    sec=False. p, q odd, > 1, of one 64-bit limb count s; dp, dq, qinv of at most s limbs;
    c of at most 2 s limbs. Only those shapes are checked."""

@final
class CrtKey:
    """An RSA private key in CRT form with its primes' constants built once, in constant time,
    for repeated private operations. The shapes are those of pow_crt (checked here); a
    consistent key is the caller's."""

    def __new__(
        cls,
        dp: SupportsIndex,
        dq: SupportsIndex,
        p: SupportsIndex,
        q: SupportsIndex,
        qinv: SupportsIndex,
    ) -> CrtKey: ...
    def pow(self, c: SupportsIndex, sec: bool = True) -> int:
        """c^d mod p q, as pow_crt(c, dp, dq, p, q, qinv, sec) with this key."""
    @property
    def blinding(self) -> bool:
        """Whether pow (constant time) blinds the exponents: dp + r_p (p - 1) and
        dq + r_q (q - 1) for fresh random 64-bit r_p, r_q each call (off by default)."""
    @blinding.setter
    def blinding(self, on: bool) -> None: ...
    @property
    def limbs(self) -> int:
        """The limb count s of p and q (64-bit limbs; public)."""

def thresholds() -> dict[str, int | list[int]]:
    """The threshold table in force for new FastModulus objects and powm (a spectral cut-over
    is an int, or the list of sizes at which the spectral kernel switches on, off, on, ...)."""

def set_thresholds(table: str | None) -> None:
    """Replace the threshold table (text of a tuned table); None restores the generic one."""
