"""The registry is the single list of algorithms: every layer named there must exist."""

from __future__ import annotations

import pytest
from montlab import registry
from montlab.errors import ParameterError


def test_every_id_has_a_reference_model_and_doc_page() -> None:
    from conftest import REPO

    for a in registry.all_algorithms():
        assert "ref" in a.layers, a.id
        mod = a.ref_module()
        assert mod.ID == a.id
        assert callable(mod.configure) and callable(mod.mont_mul)
        assert (REPO / "docs" / "algorithms" / f"{a.id}.md").is_file(), f"docs page for {a.id}"


def test_native_layers_exist() -> None:
    from montlab.api import native_available

    if not native_available():
        pytest.skip("native extension not built")
    from montlab import _native
    from montlab.api import NATIVE_CLASSES

    native = {a.id for a in registry.all_algorithms() if "native" in a.layers}
    assert set(_native.ALGORITHMS) == native == set(NATIVE_CLASSES)
    for algo, cls in NATIVE_CLASSES.items():
        assert cls == "".join(w.capitalize() for w in algo.split("_")), algo
        assert hasattr(_native, cls), algo


def test_unknown_algorithm_and_parameter() -> None:
    with pytest.raises(ParameterError, match="unknown algorithm 'nope'"):
        registry.get("nope")
    with pytest.raises(ParameterError, match="unknown parameter 'q'"):
        registry.resolve_params("mwr2mm", {"q": 3})


@pytest.mark.parametrize(
    "algo, params, match",
    [
        ("mwr2mm", {"w": 1}, "w = 1 is illegal"),
        ("mwr2mm_arch1", {"p": 0}, "p = 0 is illegal"),
        ("drmmm", {"t": 0}, "t = 0 is illegal"),
        ("drmmm", {"k": 0}, "k = 0 is illegal"),
        ("radix2k", {"k": 0}, "k = 0 is illegal"),
        ("radix2", {"walter": 2}, "walter = 2 is illegal"),
        ("mwr2mm", {"w": "sixteen"}, "decimal or 0x-hex"),
    ],
)
def test_parameter_bounds(algo: str, params: dict, match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        registry.resolve_params(algo, params)


def test_parse_int_accepts_decimal_and_hex() -> None:
    assert registry.parse_int("0x1F") == 31
    assert registry.parse_int("0X1f") == 31
    assert registry.parse_int("31") == 31
    assert registry.parse_int("-0x10") == -16
    assert registry.parse_int("+0x_ff") == 255  # as Python: '_' after the prefix
    assert registry.parse_int("1_000_000") == 10**6
    assert registry.parse_int(" 007\n") == 7


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "0x",
        "1e3",
        "0b101",
        "12a",
        "-0x-5",
        "0x0x5",
        "+-5",
        "--5",
        "1__0",
        "_1",
        "5_",
        "0x_",
        "0x1__f",
        "\u0661\u0662",
        "\uff11",
        "1 2",
        "0x 5",
        "5.0",
        "inf",
    ],
)
def test_parse_int_grammar_is_strict(bad: str) -> None:
    """One grammar: optional sign, ASCII decimal or 0x hex, '_' only between digits."""
    with pytest.raises(ParameterError, match="decimal or 0x-hex"):
        registry.parse_int(bad)


def test_parse_int_long_decimal_and_index_objects() -> None:
    """Decimal text has no length limit (Python's int() stops at 4300 digits), objects with
    __index__ are integers, bool and float are not."""
    import sys

    value = 7**50_000 + 12345  # 42,255 digits
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        text = str(value)
    finally:
        sys.set_int_max_str_digits(old)
    assert registry.parse_int(text) == value
    assert registry.parse_int("-" + text) == -value

    class Index:
        def __index__(self) -> int:
            return 42

    assert registry.parse_int(Index()) == 42
    for bad in (True, 1.0, b"12", None):
        with pytest.raises(ParameterError, match="must be an integer"):
            registry.parse_int(bad)


def test_parameters_without_a_max_are_bounded() -> None:
    with pytest.raises(ParameterError, match=f"<= {registry.PARAM_MAX}"):
        registry.resolve_params("mwr2mm", {"w": "99999999999999999999"})
    with pytest.raises(ParameterError, match="a 333-bit integer"):
        registry.resolve_params("mwr2mm", {"w": str(10**100)})


def test_paper_figures_are_attached_to_known_quantities() -> None:
    for a in registry.all_algorithms():
        for f in a.figures:
            assert f.cycles > 0 and f.source
            assert set(f.params) <= set(a.params) | {"n"}, (a.id, f.params)


def test_docs_index_is_generated_from_the_registry() -> None:
    """docs/algorithms/README.md is `montlab algorithms --markdown`; regenerate it if this fails."""
    from click.testing import CliRunner
    from conftest import REPO
    from montlab.cli import main

    res = CliRunner().invoke(main, ["algorithms", "--markdown"])
    assert res.exit_code == 0
    assert (REPO / "docs" / "algorithms" / "README.md").read_text() == res.stdout
