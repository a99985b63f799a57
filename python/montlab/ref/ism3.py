"""ism3: interleaved spectral Montgomery multiplication over Fermat rings q = 2^v + 1.

Citation: ISM3 paper (001), Algorithm 3 (corrected statement, SPEC 2.3), the NTT of eq. (1)
through the eq. (3) network with the corrected stage order (SPEC 2.2, erratum 1), Algorithm 1 for
the component-wise products mod q (SPEC 2.5: "A >= q", sign-magnitude splitting), the division
by r with the eq. (7) epsilon look-ahead (SPEC 2.4), and the Table II / Corollary 1 parameter
rules (SPEC 2.1).

Contract:
  * Parameters v (q = 2^v + 1, v a power of two), d (NTT length, s = d/2 coefficients per
    operand) and mu (b = 2^mu), all auto by :func:`montlab.spectral_params.ism3_resolve`.
    Eq. (5) 2*s*b^2 < q and the look-ahead margin s <= 2^(mu-2) are ParameterErrors; eq. (6)
    n < 2^(s*mu - 2) is a ModulusError.
  * r = 2^(s*mu); n' = -n^-1 mod r. Inputs 0 <= x, y < 2n; output z = x*y*r^-1 (mod n) with
    0 <= z < 2n and no final subtraction (the paper's caption "z = xy mod n" is erratum 2), so
    outputs feed straight back in as inputs.
  * Spectral operands: FFT(x) of the s mu-bit digits of x, zero-padded to d (natural order out of
    the network, which takes bit-reversed input); :func:`mont_mul_spectral` returns z and FFT(z).
  * Trace: one entry per multiplication, every value the hardware stores between phases: T,
    T_red (T as the redundant signed residues of one Algorithm 1 step, Sec. IV-B), t (the
    linear-convolution coefficients), g, G = FFT(g), U = G . N', u = IFFT(U), m,
    M = FFT(m), K = M . N, Z = T + K, zc = IFFT(Z), the look-ahead's truncated quotient and
    epsilon, z and FFT(z). Spectral vectors are in natural order, entries in [0, q).

Left out: the hardware pipeline and its cycle schedule (the paper's Table III cycles cannot be
derived, SPEC 2.6), the redundant signed storage of the component-wise products beyond one
Algorithm 1 step, and the Karatsuba multipliers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from montlab import registry
from montlab import spectral_params as sp
from montlab import transforms as tf
from montlab.ref._base import MontConfig, Trace, check_modulus, check_operands, from_words, words

ID = "ism3"


@dataclass(frozen=True)
class Config(MontConfig):
    pset: sp.Ism3Set
    ring: tf.Ism3Ring
    n_prime: int  #: n' = -n^-1 mod r
    fft_n: tuple[int, ...]  #: N = FFT(n), precomputed
    fft_nprime: tuple[int, ...]  #: N' = FFT(n'), precomputed

    @property
    def v(self) -> int:
        """q = 2^v + 1."""
        return self.ring.v

    @property
    def d(self) -> int:
        return self.pset.d

    @property
    def mu(self) -> int:
        return self.pset.mu


def configure(n_mod: int, params: Mapping[str, Any] | None = None) -> Config:
    check_modulus(ID, n_mod)
    params = registry.resolve_params(ID, params)
    pset = sp.ism3_resolve(n_mod.bit_length(), params["v"], params["d"], params["mu"])
    ring = tf.Ism3Ring(1 << pset.t, pset.i)
    assert ring.q == pset.q and ring.d == pset.d and ring.omega == pset.omega
    r = 1 << (pset.s * pset.mu)
    assert 4 * n_mod < r  # eq. (6)
    n_prime = (-pow(n_mod, -1, r)) % r
    cfg = Config(
        algo=ID,
        modulus=n_mod,
        r=r,
        bound=2,
        in_bound=2,
        iterations=1,
        pset=pset,
        ring=ring,
        n_prime=n_prime,
        fft_n=(),
        fft_nprime=(),
    )
    object.__setattr__(cfg, "fft_n", tuple(fft(cfg, n_mod)))
    object.__setattr__(cfg, "fft_nprime", tuple(fft(cfg, n_prime)))
    return cfg


def fft(cfg: Config, z: int) -> list[int]:
    """FFT of the s mu-bit digits of z (0 <= z < r), zero-padded to d: eq. (3) network."""
    dig = words(z, cfg.pset.mu, cfg.pset.s) + [0] * cfg.pset.s
    return tf.ism3_ntt_network(cfg.ring, tf.bit_reverse(dig))


def ifft(cfg: Config, big_z: list[int]) -> list[int]:
    return tf.ism3_intt_network(cfg.ring, tf.bit_reverse(big_z))


def _pmul(cfg: Config, a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> list[int]:
    """Component-wise product mod q by Algorithm 1: one redundant step, then the reduction."""
    v = cfg.ring.v
    return [tf.ism3_alg1(tf.ism3_alg1_step(x * y, v), v) for x, y in zip(a, b, strict=True)]


def divide_by_r(cfg: Config, zc: list[int]) -> tuple[int, int, int]:
    """eval_mu(zc) / r by the eq. (7) look-ahead (SPEC 2.4): (z, truncated quotient, epsilon).

    Each coefficient z_i (< q <= 2^(3 mu)) is three mu-bit trunks z_i0, z_i1, z_i2 at weights
    b^i, b^(i+1), b^(i+2); the trunks of weight >= b^s give the truncated quotient, and
    epsilon = ceil((floor(4 z_(s-1)0 / b) + floor(4 z_(s-2)1 / b)) / 4) supplies the carry into
    column s.
    """
    mu, s = cfg.pset.mu, cfg.pset.s
    b, mask = 1 << mu, (1 << mu) - 1
    assert all(0 <= zi < 1 << (3 * mu) for zi in zc)
    trunks = [[(zi >> (mu * j)) & mask for j in range(3)] for zi in zc]
    trunc = sum(
        trunks[i][j] << (mu * (i + j - s)) for i in range(len(zc)) for j in range(3) if i + j >= s
    )
    eps_num = (4 * trunks[s - 1][0]) // b + (4 * trunks[s - 2][1] if s >= 2 else 0) // b
    eps = -(-eps_num // 4)
    return trunc + eps, trunc, eps


def mont_mul_spectral(
    cfg: Config, big_x: list[int], big_y: list[int], trace: Trace | None = None
) -> tuple[int, list[int]]:
    """Algorithm 3 steps 1-12 on X = FFT(x), Y = FFT(y) (x, y < 2n): (z, FFT(z)), z < 2n."""
    ps, q = cfg.pset, cfg.ring.q
    mu, s, r = ps.mu, ps.s, cfg.r
    lin_max = s * ((1 << mu) - 1) ** 2  # Theorem 1: linear-convolution coefficient bound
    # 1-2: T = X . Y; t = IFFT(T) holds the exact linear-convolution coefficients.
    t_red = [tf.ism3_alg1_step(x * y, cfg.ring.v) for x, y in zip(big_x, big_y, strict=True)]
    big_t = _pmul(cfg, big_x, big_y)
    t = ifft(cfg, big_t)
    assert max(t) <= lin_max
    # 3-4: g = eval(t) mod r, G = FFT(g).
    g = from_words(t, mu) % r
    big_g = fft(cfg, g)
    # 5-6: U = G . N'; m = eval(IFFT(U)) mod r = g n' mod r.
    big_u = _pmul(cfg, big_g, cfg.fft_nprime)
    u_vec = ifft(cfg, big_u)
    assert max(u_vec) <= lin_max
    m = from_words(u_vec, mu) % r
    assert m == g * cfg.n_prime % r
    # 7-10: M = FFT(m), K = M . N, Z = T + K (eq. (5): 2 s b^2 < q keeps the sum exact).
    big_m = fft(cfg, m)
    big_k = _pmul(cfg, big_m, cfg.fft_n)
    big_z = [tf.ism3_alg1(a + k, cfg.ring.v) for a, k in zip(big_t, big_k, strict=True)]
    zc = ifft(cfg, big_z)
    assert max(zc) <= 2 * lin_max < q
    # 11: z = eval(zc) / r, exact, by the eq. (7) look-ahead.
    full = from_words(zc, mu)
    assert full % r == 0, "t + m n is not divisible by r"
    z, trunc, eps = divide_by_r(cfg, zc)
    assert z == full // r, "the eq. (7) look-ahead gave a wrong quotient"
    assert 0 <= z < 2 * cfg.modulus, "z is not < 2n (eq. (6))"
    fft_z = fft(cfg, z)
    if trace is not None:
        trace.append(
            {
                "T": big_t,
                "T_red": t_red,
                "t": t,
                "g": g,
                "G": big_g,
                "U": big_u,
                "u": u_vec,
                "m": m,
                "M": big_m,
                "K": big_k,
                "Z": big_z,
                "zc": zc,
                "trunc": trunc,
                "epsilon": eps,
                "z": z,
                "fft_z": fft_z,
            }  # fmt: skip
        )
    # 12: z and FFT(z), ready for the next product.
    return z, fft_z


def mont_mul(cfg: Config, x: int, y: int, trace: Trace | None = None) -> int:
    check_operands(cfg, x, y)
    z, _ = mont_mul_spectral(cfg, fft(cfg, x), fft(cfg, y), trace)
    assert (z * cfg.r - x * y) % cfg.modulus == 0
    return z
