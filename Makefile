# Two commands do all the set-up: `make run` and `make test`.
# Every install is pinned by constraints.txt, the versions the tests last passed with.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --constraint constraints.txt
# make install-desktop: the battletracker the desktop entry starts (default: this checkout's).
BATTLETRACKER ?= $(CURDIR)/$(BIN)/battletracker

.PHONY: run test test-core bench lint smoke-install dist install-desktop uninstall-desktop constraints clean

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
	$(BIN)/ruff check battletracker tests packaging setup.py
	$(BIN)/mypy

# The wheel installed into a fresh venv outside the checkout, started on the demo and a saved game.
smoke-install:
	.ci/smoke-install

# dist/: the wheel, the one-folder standalone bundle and a .tar.gz of it; the bundle is used
# as a player would (demos, saved games replayed and exported) before it is packed.
dist: $(VENV)/.dist-installed
	rm -rf dist build/pyinstaller
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir dist .
	$(BIN)/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/battletracker.spec
	packaging/check-bundle.sh dist/battletracker/battletracker dist/battletracker/_internal/battletracker/resources
	tar -C dist -czf dist/battletracker-$$($(BIN)/python -c 'import battletracker; print(battletracker.version())')-linux-$$(uname -m).tar.gz battletracker
	@du -sh dist/battletracker dist/*.tar.gz dist/*.whl

install-desktop: $(VENV)/.run-installed
	packaging/install-desktop.sh "$(BATTLETRACKER)"

uninstall-desktop:
	packaging/install-desktop.sh --uninstall

# Refresh constraints.txt: the newest versions pyproject.toml allows, in a throwaway venv;
# run `make clean test lint dist` afterwards and commit the file if they pass.
constraints:
	rm -rf .venv-constraints
	$(PYTHON) -m venv .venv-constraints
	.venv-constraints/bin/python -m pip install --quiet --upgrade pip
	.venv-constraints/bin/python -m pip install --quiet '.[test,dev,dist]'
	{ grep '^#' constraints.txt; .venv-constraints/bin/python -m pip freeze --exclude battletracker; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf .venv-constraints
	@echo "constraints.txt refreshed; now run: make clean test lint dist"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11 or newer is needed (found $$($(PYTHON) --version))"; exit 1; }
	@$(PYTHON) -m venv $(VENV) || { echo "Could not create a virtual environment: on Debian, apt-get install python3-venv"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml setup.py constraints.txt | $(BIN)/python
	$(PIP) -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml setup.py constraints.txt | $(BIN)/python
	$(PIP) -e '.[test]'
	touch $@ $(VENV)/.run-installed

$(VENV)/.dev-installed: pyproject.toml setup.py constraints.txt | $(BIN)/python
	$(PIP) -e '.[test,dev]'
	touch $@ $(VENV)/.test-installed $(VENV)/.run-installed

$(VENV)/.dist-installed: pyproject.toml setup.py constraints.txt | $(BIN)/python
	$(PIP) -e '.[dist]'
	touch $@ $(VENV)/.run-installed

.venv-core/.installed: pyproject.toml setup.py constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11 or newer is needed (found $$($(PYTHON) --version))"; exit 1; }
	@$(PYTHON) -m venv .venv-core || { echo "Could not create a virtual environment: on Debian, apt-get install python3-venv"; exit 1; }
	.venv-core/bin/python -m pip install --quiet --upgrade pip
	.venv-core/bin/python -m pip install --quiet --constraint constraints.txt "pytest>=8" "hypothesis>=6.100"
	touch $@

clean:
	rm -rf $(VENV) .venv-core .venv-constraints .pytest_cache .hypothesis build dist
