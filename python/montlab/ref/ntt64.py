"""ntt64: Montgomery multiplication with NTT products over p = 2^64 - 2^32 + 1.

Citation: NTT64 paper (003), Algorithm 1 (corrected statement, SPEC 4.3), each product computed
as a cyclic convolution mod p of points/2 b-bit samples zero-padded to ``points`` (SPEC
4.1-4.2): FFT of both operands, component-wise product, IFFT, carry resolution. The transform is
the S x S four-step of :func:`montlab.transforms.ntt64_four_step` (S^2 = points) with shift-only
S-point sub-transforms (omega^S = 2^(192/S): 64 at the paper's 1024 points, 2^24 at 64); the
inverse's 1/points is folded into its twiddles. The radix-16 PE of SPEC 4.4 is modelled in
montlab.transforms.

Contract:
  * Parameters: points (64, 256 or 1024, the paper's; others are a ParameterError), samples =
    points/2; b, the sample width (the dynamic-range limit samples*(2^b-1)^2 < p: b <= 27 at
    1024 points); auto = ceil(bitlen(M)/samples): 16 at 8192 bits, 24 at 12,288 bits. A modulus
    wider than samples*b bits is a ModulusError.
  * fixed_r = 0: n = bitlen(M) (the paper's garbled "ceil(log_M 2)"); fixed_r = 1: n =
    samples*b, the hardware's fixed width. R = 2^n, M' = -M^-1 mod R; FFT(M) and FFT(M') are
    precomputed. Inputs 0 <= X, Y < M; output X*Y*R^-1 mod M in [0, M) (one final subtraction;
    the value before it is < 2M because M < R).
  * Seven transforms per product: FFT(X), FFT(Y), IFFT(T); FFT(t), IFFT(U); FFT(u), IFFT(W),
    with U = t*M' and W = u*M.
  * Trace: one entry per multiplication: T, t, U, u, W, C, c (before the subtraction) and the
    largest convolution coefficient seen; with ``spectral=True`` also ``spectra`` (FFT(X),
    FFT(Y), FFT(t), FFT(u) and the product spectra T, U, W, natural order), ``coeffs`` (T, U,
    W: the IFFT outputs before carries) and ``mid`` (each of the seven transforms after its
    first pass and twiddles, y[n2][k1] at n2*S + k1), which the RTL's probes compare.

Left out: the pipelined hardware schedule (the paper's 2030 cycles cannot be derived, SPEC 4.5)
and the IFFT output block layouts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from montlab import registry
from montlab import spectral_params as sp
from montlab import transforms as tf
from montlab.errors import ModulusError, ParameterError
from montlab.ref._base import (
    MontConfig,
    Trace,
    check_modulus,
    check_operands,
    final_subtraction,
    from_words,
    words,
)

ID = "ntt64"


@dataclass(frozen=True)
class Config(MontConfig):
    b: int  #: sample width
    points: int  #: transform points (samples = points/2)
    fixed_r: int  #: 1: R = 2^(samples b)
    n: int  #: log2 R
    m_prime: int  #: M' = -M^-1 mod R
    fft_m: tuple[int, ...]
    fft_mprime: tuple[int, ...]

    @property
    def samples(self) -> int:
        return self.points // 2


def configure(n_mod: int, params: Mapping[str, Any] | None = None) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)
    points, b, fixed_r = params["points"], params["b"], params["fixed_r"]
    assert points is not None and fixed_r is not None  # registry defaults, never "auto"
    try:
        tf.ntt64_side(points)
    except ValueError as exc:
        raise ParameterError(f"{exc}") from None
    samples = points // 2
    bits = n_mod.bit_length()
    pset = sp.ntt64_set(bits, None, samples) if b is None else sp.ntt64_set(samples * b, b, samples)
    if bits > pset.bits:
        raise ModulusError(
            f"{ID}: a {bits}-bit modulus does not fit in {samples} samples of b = {pset.b} bits "
            f"(at most {pset.bits} bits; use b >= {-(-bits // samples)})"
        )
    n = pset.bits if fixed_r else bits
    r = 1 << n
    m_prime = (-pow(n_mod, -1, r)) % r
    cfg = Config(
        algo=ID,
        modulus=n_mod,
        r=r,
        bound=1,
        in_bound=1,
        iterations=1,
        b=pset.b,
        points=points,
        fixed_r=fixed_r,
        n=n,
        m_prime=m_prime,
        fft_m=(),
        fft_mprime=(),
    )
    object.__setattr__(cfg, "fft_m", tuple(fft(cfg, n_mod)))
    object.__setattr__(cfg, "fft_mprime", tuple(fft(cfg, m_prime)))
    return cfg


def _samples(cfg: Config, z: int) -> list[int]:
    """The samples of z (0 <= z < 2^(samples b)), zero-padded to ``points``."""
    return words(z, cfg.b, cfg.samples) + [0] * cfg.samples


def fft(cfg: Config, z: int, mid: list[int] | None = None) -> list[int]:
    """The NTT of z's samples; ``mid`` (when given) receives the first pass, flattened."""
    y, out = tf.ntt64_four_step(_samples(cfg, z), +1)
    if mid is not None:
        mid.extend(v for row in y for v in row)
    return out


def ifft(cfg: Config, spectrum: list[int], mid: list[int] | None = None) -> list[int]:
    """The inverse NTT with 1/points folded into the twiddles; ``mid`` as for :func:`fft`."""
    y, out = tf.ntt64_four_step(spectrum, -1, pow(cfg.points, -1, tf.P64))
    if mid is not None:
        mid.extend(v for row in y for v in row)
    return out


def ntt_product(
    cfg: Config,
    fa: list[int] | tuple[int, ...],
    fb: list[int] | tuple[int, ...],
    rec: dict[str, Any] | None = None,
    name: str = "",
) -> tuple[int, int]:
    """IFFT(FFT(a) . FFT(b)) with carry resolution: (a*b, the largest coefficient). ``rec``
    (when given) receives the product spectrum, the coefficients and the IFFT's first pass."""
    spec = [x * y % tf.P64 for x, y in zip(fa, fb, strict=True)]
    mid: list[int] = []
    coeffs = ifft(cfg, spec, mid)
    top = max(coeffs)
    assert top <= sp.ntt64_coeff_max(cfg.b, 1, cfg.samples) < tf.P64, "beyond the dynamic range"
    if rec is not None:
        rec["spectra"][name] = spec
        rec["coeffs"][name] = coeffs
        rec["mid"][f"ifft_{name}"] = mid
    return from_words(coeffs, cfg.b), top


def _fft_traced(cfg: Config, z: int, rec: dict[str, Any] | None, name: str) -> list[int]:
    mid: list[int] | None = [] if rec is not None else None
    out = fft(cfg, z, mid)
    if rec is not None:
        rec["spectra"][name] = out
        rec["mid"][f"fft_{name}"] = mid
    return out


def mont_mul(
    cfg: Config, x: int, y: int, trace: Trace | None = None, spectral: bool = False
) -> int:
    check_operands(cfg, x, y)
    r, mask = cfg.r, cfg.r - 1
    rec: dict[str, Any] | None = None
    if trace is not None and spectral:
        rec = {"spectra": {}, "coeffs": {}, "mid": {}}
    # T = X*Y (FFT both operands, product, IFFT, carries).
    fx = _fft_traced(cfg, x, rec, "X")
    fy = _fft_traced(cfg, y, rec, "Y")
    big_t, top1 = ntt_product(cfg, fx, fy, rec, "T")
    assert big_t == x * y
    # t = T mod R; U = t*M', u = U mod R (FFT(M') precomputed).
    t = big_t & mask
    big_u, top2 = ntt_product(cfg, _fft_traced(cfg, t, rec, "t"), cfg.fft_mprime, rec, "U")
    assert big_u == t * cfg.m_prime
    u = big_u & mask
    # W = u*M (FFT(M) precomputed); C = T + W; c = C/R exactly.
    big_w, top3 = ntt_product(cfg, _fft_traced(cfg, u, rec, "u"), cfg.fft_m, rec, "W")
    assert big_w == u * cfg.modulus
    big_c = big_t + big_w
    assert big_c & mask == 0, "T + u*M is not divisible by R"
    c = big_c >> cfg.n
    if trace is not None:
        trace.append(
            {
                "T": big_t,
                "t": t,
                "U": big_u,
                "u": u,
                "W": big_w,
                "C": big_c,
                "c": c,
                "max_coeff": max(top1, top2, top3),
                **(rec or {}),
            }
        )
    z = final_subtraction(cfg, c)
    assert z * r % cfg.modulus == x * y % cfg.modulus
    return z
