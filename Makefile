# montlab task runner. `make demo` and `make test` work on a fresh machine with Python >= 3.11
# and Rust: they create .venv, build the Rust extension into it and install the test tools.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.montlab-installed
RUST_SOURCES := $(shell find crates -name '*.rs' -o -name 'Cargo.toml' 2>/dev/null) Cargo.toml
PYTEST_ARGS ?=
# pytest workers (pytest-xdist); a test file stays on one worker (its builds are shared)
PYTEST_JOBS ?= auto

.PHONY: all demo test test-py test-rust lint clean vectors soak

all: test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Editable install: Python sources are live; the extension is rebuilt when Rust sources change.
$(STAMP): $(BIN)/python pyproject.toml $(RUST_SOURCES)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

demo: $(STAMP)
	$(BIN)/montlab demo

test: test-rust test-py

test-rust:
	cargo test --workspace --quiet

test-py: $(STAMP)
	$(BIN)/ruff check python/montlab tests/py tests/rtl tests/fuzz vectors/generators bench
	$(BIN)/ruff format --check python/montlab tests/py tests/rtl tests/fuzz vectors/generators bench
	$(BIN)/python -m mypy
	$(BIN)/python -m mypy.stubtest montlab._native --allowlist stubtest-allowlist.txt
	$(BIN)/python vectors/generators/verify_all.py
	$(BIN)/python -m pytest -n $(PYTEST_JOBS) --dist loadfile $(PYTEST_ARGS)

vectors: $(STAMP)
	$(BIN)/python vectors/generators/gen_all.py
	$(BIN)/python vectors/generators/verify_all.py

lint: $(STAMP)
	cargo clippy --workspace --all-targets -- -D warnings
	cargo fmt --all -- --check

clean:
	rm -rf $(VENV) target .pytest_cache .hypothesis

# Differential soak (montlab selftest) for MINUTES minutes; SEED fixes the cases.
MINUTES ?= 60
soak: $(STAMP)
	$(BIN)/montlab selftest --minutes $(MINUTES) $(if $(SEED),--seed $(SEED)) --json soak.json
