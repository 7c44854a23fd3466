# The two commands of the README:
#   make play   - set up .venv (first time only) and open the game
#   make test   - set up everything the tests need and run the whole suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
ARGS ?=

.PHONY: play test lint bench clean compiled pure translations

# the translation catalogues and the page's texts; an install compiles them
# (setup.py: the .mo and the page's JSON catalogues)
CATALOGUES := $(wildcard src/lucie/locale/*/LC_MESSAGES/*.po) $(wildcard src/lucie/web/static/*.js)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.play-installed: pyproject.toml setup.py $(CATALOGUES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[tui,web]'
	touch $@

$(VENV)/.test-installed: pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.play-installed

play: $(VENV)/.play-installed
	$(BIN)/lucie $(ARGS)

test: $(VENV)/.test-installed
	scripts/ensure-chromium
	scripts/ensure-postgresql
	PYBABEL=$(BIN)/pybabel scripts/translations compile >/dev/null
	$(BIN)/python -m ruff check src tests benchmarks
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -n auto $(ARGS)

lint: $(VENV)/.test-installed
	$(BIN)/python -m ruff check src tests benchmarks
	$(BIN)/python -m mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m vulture src/lucie scripts/vulture_whitelist.py
	$(BIN)/python scripts/check_function_length.py src

# extract the marked texts, merge them into each language's .po, compile
translations: $(VENV)/.test-installed
	PYBABEL=$(BIN)/pybabel scripts/translations

bench: $(VENV)/.test-installed
	$(BIN)/python benchmarks/run.py $(ARGS)

# optional: the one-deal search compiled with mypyc (needs a C compiler);
# the pure-Python source stays the reference and is used when the build is
# missing, stale, or LUCIE_PURE=1 is set
# (scripts/native.py: the build tool is no part of the installed package)
NATIVE = $(BIN)/python scripts/native.py

compiled: $(VENV)/.test-installed
	$(NATIVE) build

pure: | $(BIN)/python
	$(NATIVE) remove

clean:
	$(NATIVE) remove 2>/dev/null || true
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
