# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test lint bench setup browser clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[web,dev]'
	rm -f $(VENV)/.installed-*
	touch $@

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/pencilbox explain examples/seed-a.json
	$(BIN)/pencilbox solve examples/seed-a.json

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/nonogram.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
