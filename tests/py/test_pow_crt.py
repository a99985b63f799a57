"""``montlab._native.pow_crt``: the RSA private operation by CRT, constant time by default, and
``CrtKey``, the key prepared for many of them.

Against ``pow(c, d, n)`` on random keys (gmpy2's primes) of one to sixteen limbs a prime, on
edge ciphertexts, in both modes; against OpenSSL's raw RSA private operation
(``openssl pkeyutl -decrypt -pkeyopt rsa_padding_mode:none``) on keys OpenSSL generated; and
every bad key shape. The constant-time property itself is tested under valgrind
(``crates/montlab-ct/tests/taint.rs``).
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import scaled
from montlab.errors import OperandError, OperandTypeError

native = pytest.importorskip("montlab._native", reason="native extension not built")
gmpy2 = pytest.importorskip("gmpy2")


def key(rng: random.Random, bits: int) -> tuple[int, int, int, int, int, int, int]:
    """(n, d, p, q, dp, dq, qinv) of an RSA key with e = 65537 and primes of ``bits`` bits."""
    while True:
        p = int(gmpy2.next_prime(rng.getrandbits(bits) | 1 << (bits - 1)))
        q = int(gmpy2.next_prime(rng.getrandbits(bits) | 1 << (bits - 1)))
        lam = (p - 1) * (q - 1) // int(gmpy2.gcd(p - 1, q - 1))
        if p != q and p.bit_length() == q.bit_length() == bits and int(gmpy2.gcd(65537, lam)) == 1:
            break
    d = pow(65537, -1, lam)
    return p * q, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p)


@pytest.mark.parametrize("bits", [62, 64, 127, 512, 1024])
def test_matches_pow(bits: int, rng: random.Random) -> None:
    for _ in range(scaled(2)):
        n, d, p, q, dp, dq, qinv = key(rng, bits)
        top = 2 ** (128 * -(-bits // 64)) - 1  # the longest c: 2 s limbs
        for c in [0, 1, n - 1, rng.randrange(n), rng.randrange(n), n, min(3 * n + 7, top), top]:
            want = pow(c, d, n)
            assert native.pow_crt(c, dp, dq, p, q, qinv) == want, f"p={p:#x} q={q:#x} c={c:#x}"
            assert native.pow_crt(c, dp, dq, p, q, qinv, sec=False) == want
        # The prepared key, its constants reused from call to call.
        prepared = native.CrtKey(dp, dq, p, q, qinv)
        assert prepared.limbs == -(-bits // 64)
        for c in [0, 1, n - 1, rng.randrange(n), n, top]:
            want = pow(c, d, n)
            assert prepared.pow(c) == want, f"CrtKey p={p:#x} q={q:#x} c={c:#x}"
            assert prepared.pow(c, sec=False) == want
            assert prepared.pow(c, sec=True) == want
        # Blinded exponents, fresh each call: the same results.
        prepared.blinding = True
        for c in [0, 1, n - 1, rng.randrange(n), top]:
            assert prepared.pow(c) == prepared.pow(c) == pow(c, d, n), f"blinded c={c:#x}"
        # q > p or p > q: Garner's step works either way.
        c = rng.randrange(n)
        assert native.pow_crt(c, dq, dp, q, p, pow(p, -1, q)) == pow(c, d, n)


def _openssl_key(tmp: Path, bits: int) -> dict[str, int]:
    pem = tmp / f"rsa{bits}.pem"
    subprocess.run(
        ["openssl", "genrsa", "-out", str(pem), str(bits)], check=True, capture_output=True
    )
    text = subprocess.run(
        ["openssl", "rsa", "-in", str(pem), "-text", "-noout"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    fields: dict[str, int] = {}
    for name, body in re.findall(r"^(\w+):\s*\n((?:\s+[0-9a-f:]+\n)+)", text, re.M):
        fields[name] = int(re.sub(r"[\s:]", "", body), 16)
    fields["pem"] = 0
    return fields


@pytest.mark.skipif(shutil.which("openssl") is None, reason="the openssl command is missing")
@pytest.mark.parametrize("bits", [1024, 2048])
def test_matches_openssl_raw_private_operation(
    bits: int, rng: random.Random, tmp_path: Path
) -> None:
    k = _openssl_key(tmp_path, bits)
    n = k["modulus"]
    assert k["prime1"] * k["prime2"] == n
    for _ in range(scaled(2)):
        c = rng.randrange(n)
        cfile, mfile = tmp_path / "c.bin", tmp_path / "m.bin"
        cfile.write_bytes(c.to_bytes(bits // 8, "big"))
        subprocess.run(
            [
                "openssl", "pkeyutl", "-decrypt", "-inkey", str(tmp_path / f"rsa{bits}.pem"),
                "-pkeyopt", "rsa_padding_mode:none", "-in", str(cfile), "-out", str(mfile),
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
        want = int.from_bytes(mfile.read_bytes(), "big")
        args = (c, k["exponent1"], k["exponent2"], k["prime1"], k["prime2"], k["coefficient"])
        assert native.pow_crt(*args) == want
        assert native.pow_crt(*args, sec=False) == want
        assert native.CrtKey(*args[1:]).pow(c) == want
        assert want == pow(c, k["privateExponent"], n)


def test_bad_keys() -> None:
    p, q = 2**61 - 1, 2**64 - 59
    ok = (5, 3, 3, p, q, pow(q, -1, p))
    assert native.pow_crt(*ok) == native.pow_crt(*ok, sec=False)
    with pytest.raises(OperandError, match="odd"):
        native.pow_crt(5, 3, 3, p + 1, q, 1)
    with pytest.raises(OperandError, match="same number"):
        native.pow_crt(5, 3, 3, p, 2**127 - 1, 1)
    with pytest.raises(OperandError, match="greater than 1"):
        native.pow_crt(5, 3, 3, 1, 3, 1)
    with pytest.raises(OperandError, match="no longer"):
        native.pow_crt(5, 2**64, 3, p, q, 1)
    with pytest.raises(OperandError, match="c is too long"):
        native.pow_crt(2**128, 3, 3, p, q, 1)
    with pytest.raises(OperandError, match="negative"):
        native.pow_crt(-5, 3, 3, p, q, 1)
    with pytest.raises(OperandTypeError):
        native.pow_crt(5, 3, 3, p, q, True)  # type: ignore[arg-type]


def test_crt_key_shapes() -> None:
    p, q = 2**61 - 1, 2**64 - 59
    key = native.CrtKey(3, 3, p, q, pow(q, -1, p))
    assert key.pow(5) == native.pow_crt(5, 3, 3, p, q, pow(q, -1, p))
    assert repr(key) == "CrtKey(<1-limb primes>)"
    assert key.blinding is False
    key.blinding = True
    assert key.blinding is True and key.pow(5) == native.pow_crt(5, 3, 3, p, q, pow(q, -1, p))
    assert str(p) not in repr(key) and hex(p)[2:] not in repr(key)
    with pytest.raises(OperandError, match="odd"):
        native.CrtKey(3, 3, p + 1, q, 1)
    with pytest.raises(OperandError, match="same number"):
        native.CrtKey(3, 3, p, 2**127 - 1, 1)
    with pytest.raises(OperandError, match="greater than 1"):
        native.CrtKey(3, 3, 1, 3, 1)
    with pytest.raises(OperandError, match="no longer"):
        native.CrtKey(2**64, 3, p, q, 1)
    with pytest.raises(OperandError, match="c is too long"):
        key.pow(2**128)
    with pytest.raises(OperandError, match="negative"):
        key.pow(-5)
    with pytest.raises(OperandTypeError):
        key.pow(True)  # type: ignore[arg-type]
    with pytest.raises(OperandTypeError):
        native.CrtKey(3, 3, p, q, 1.0)  # type: ignore[arg-type]
