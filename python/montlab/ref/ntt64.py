"""ntt64: Montgomery multiplication with NTT products over p = 2^64 - 2^32 + 1.

Citation: NTT64 paper (003), Algorithm 1 (corrected statement, SPEC 4.3), each product computed
as a 1024-point cyclic convolution mod p of 512 b-bit samples (SPEC 4.1-4.2): FFT of both
operands, component-wise product, IFFT, carry resolution. The 1024-point transform is the
32 x 32 four-step of :func:`montlab.transforms.ntt64` with shift-only 32-point sub-transforms
(omega_1024^32 = 64); the radix-16 PE of SPEC 4.4 is modelled in montlab.transforms.

Contract:
  * Parameter b, the sample width (1 <= b <= 27, the dynamic-range limit 512*(2^b-1)^2 < p);
    auto = ceil(bitlen(M)/512): 16 at 8192 bits, 24 at 12,288 bits. A modulus wider than 512*b
    bits is a ModulusError; b > 27 a ParameterError.
  * n = bitlen(M) (the paper's garbled "ceil(log_M 2)"), R = 2^n, M' = -M^-1 mod R; FFT(M) and
    FFT(M') are precomputed. Inputs 0 <= X, Y < M; output X*Y*R^-1 mod M in [0, M) (one final
    subtraction; the value before it is < 2M).
  * Seven transforms per product: FFT(X), FFT(Y), IFFT(T); FFT(t), IFFT(u); FFT(u), IFFT(u*M).
  * Trace: one entry per multiplication: T, t, u, C, c (before the subtraction) and the largest
    convolution coefficient seen.

Left out: the pipelined hardware schedule (the paper's 2030 cycles cannot be derived, SPEC 4.5)
and the IFFT output block layouts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from montlab import registry
from montlab import spectral_params as sp
from montlab import transforms as tf
from montlab.errors import ModulusError
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
SAMPLES = sp.NTT64_SAMPLES  # 512 b-bit samples, zero-padded to 1024 points


@dataclass(frozen=True)
class Config(MontConfig):
    b: int  #: sample width
    n: int  #: bitlen(M); R = 2^n
    m_prime: int  #: M' = -M^-1 mod R
    fft_m: tuple[int, ...]
    fft_mprime: tuple[int, ...]


def configure(n_mod: int, params: Mapping[str, Any] | None = None) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)
    bits = n_mod.bit_length()
    b = params["b"]
    pset = sp.ntt64_set(bits) if b is None else sp.ntt64_set(sp.NTT64_SAMPLES * b, b)
    if bits > pset.bits:
        raise ModulusError(
            f"{ID}: a {bits}-bit modulus does not fit in 512 samples of b = {pset.b} bits "
            f"(at most {pset.bits} bits; use b >= {-(-bits // SAMPLES)})"
        )
    r = 1 << bits
    m_prime = (-pow(n_mod, -1, r)) % r
    cfg = Config(
        algo=ID,
        modulus=n_mod,
        r=r,
        bound=1,
        in_bound=1,
        iterations=1,
        b=pset.b,
        n=bits,
        m_prime=m_prime,
        fft_m=(),
        fft_mprime=(),
    )
    object.__setattr__(cfg, "fft_m", tuple(fft(cfg, n_mod)))
    object.__setattr__(cfg, "fft_mprime", tuple(fft(cfg, m_prime)))
    return cfg


def fft(cfg: Config, z: int) -> list[int]:
    """The 1024-point NTT of the 512 b-bit samples of z (0 <= z < 2^(512 b)), zero-padded."""
    return tf.ntt64(words(z, cfg.b, SAMPLES) + [0] * SAMPLES)


def ntt_product(
    cfg: Config, fa: list[int] | tuple[int, ...], fb: list[int] | tuple[int, ...]
) -> tuple[int, int]:
    """IFFT(FFT(a) . FFT(b)) with carry resolution: (a*b, the largest coefficient)."""
    coeffs = tf.intt64([x * y % tf.P64 for x, y in zip(fa, fb, strict=True)])
    top = max(coeffs)
    assert top <= sp.ntt64_coeff_max(cfg.b) < tf.P64, "coefficient beyond the dynamic range"
    return from_words(coeffs, cfg.b), top


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    check_operands(cfg, x, y)
    r, mask = cfg.r, cfg.r - 1
    # T = X*Y (FFT both operands, product, IFFT, carries).
    big_t, top1 = ntt_product(cfg, fft(cfg, x), fft(cfg, y))
    assert big_t == x * y
    # t = T mod R; u = t*M' mod R (FFT(M') precomputed).
    t = big_t & mask
    tm, top2 = ntt_product(cfg, fft(cfg, t), cfg.fft_mprime)
    u = tm & mask
    # C = T + u*M (FFT(M) precomputed); c = C/R exactly.
    um, top3 = ntt_product(cfg, fft(cfg, u), cfg.fft_m)
    big_c = big_t + um
    assert big_c & mask == 0, "T + u*M is not divisible by R"
    c = big_c >> cfg.n
    if trace is not None:
        trace.append(
            {"T": big_t, "t": t, "u": u, "C": big_c, "c": c, "max_coeff": max(top1, top2, top3)}
        )
    z = final_subtraction(cfg, c)
    assert z * r % cfg.modulus == x * y % cfg.modulus
    return z
