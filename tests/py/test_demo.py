"""montlab demo: the embedded modulus is a real RSA modulus, and every row of the demo is correct."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from montlab import registry
from montlab.api import native_available, native_runs
from montlab.cli import main
from montlab.cli.demo import E, N, P, Q


def is_probable_prime(n: int, rounds: int = 40) -> bool:
    """Miller-Rabin with fixed random bases (independent of gmpy2)."""
    if n < 4:
        return n in (2, 3)
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    rng = random.Random(n)
    for _ in range(rounds):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def test_embedded_modulus_is_rsa() -> None:
    assert N == P * Q and N.bit_length() == 2048
    assert P.bit_length() == Q.bit_length() == 1024 and P != Q
    assert is_probable_prime(P) and is_probable_prime(Q)
    assert not is_probable_prime(N)
    lam = (P - 1) * (Q - 1)
    assert pow(pow(12345, E, N), pow(E, -1, lam), N) == 12345
    try:
        import gmpy2

        assert gmpy2.is_prime(P) and gmpy2.is_prime(Q)
    except ImportError:
        pass


def _demo_json(*args: str) -> dict:
    res = CliRunner().invoke(main, ["demo", "--json", *args])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["all_correct"] is True
    return data


@pytest.mark.slow
def test_demo_json_all_correct() -> None:
    """The README's main job as shipped (2048 bits, about 2 minutes on 2 cores: opt-in)."""
    data = _demo_json()
    assert data["bits"] == 2048 and int(data["modulus"], 16) == N
    _check_rows(data)


def test_demo_json_small_modulus() -> None:
    """The same job on a generated 512-bit modulus: every algorithm and layer, checked."""
    data = _demo_json("--bits", "512")
    assert data["bits"] == 512 and int(data["modulus"], 16) != N
    _check_rows(data)


def _check_rows(data: dict) -> None:
    seen = {(r["algo"], r["layer"]) for r in data["rows"]}
    for a in registry.all_algorithms():
        assert (a.id, "ref") in seen
        if "native" in a.layers and native_runs(a.id):
            assert (a.id, "native") in seen
    assert ("auto", "native") in seen or not native_available()
    assert all(r["correct"] for r in data["rows"])
    for r in data["rows"]:  # an id's row runs that id; the auto row names the table's pick
        if r["algo"] == "auto":
            assert r["pow_kernel"] in ("amm", "cios", "spectral", "ntt_redc"), r
        else:
            assert r["pow_kernel"] == r["algo"], r
