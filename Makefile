# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-core bench lint clean

run: $(VENV)/.run-installed
	$(BIN)/python -m battletracker --demo

test: $(VENV)/.test-installed test-core
	$(BIN)/python -m pytest

# The non-UI layers must work without Qt: run their tests in a venv that has none.
test-core: .venv-core/.installed
	PYTHONPATH=. .venv-core/bin/python -m pytest -c tests/core-only.ini -p no:cacheprovider \
		tests/core tests/model tests/rules tests/test_layers.py

bench: $(VENV)/.test-installed
	$(BIN)/python -m tests.benchmarks

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check battletracker tests
	$(BIN)/mypy

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11 or newer is needed (found $$($(PYTHON) --version))"; exit 1; }
	@$(PYTHON) -m venv $(VENV) || { echo "Could not create a virtual environment: on Debian, apt-get install python3-venv"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.run-installed

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $@ $(VENV)/.test-installed $(VENV)/.run-installed

.venv-core/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11 or newer is needed (found $$($(PYTHON) --version))"; exit 1; }
	@$(PYTHON) -m venv .venv-core || { echo "Could not create a virtual environment: on Debian, apt-get install python3-venv"; exit 1; }
	.venv-core/bin/python -m pip install --quiet --upgrade pip
	.venv-core/bin/python -m pip install --quiet "pytest>=8" "hypothesis>=6.100"
	touch $@

clean:
	rm -rf $(VENV) .venv-core .pytest_cache .hypothesis
