# Two commands do all the set-up on a fresh machine with Python 3.11 and make:
#   make run    serve on the embedded SQLite store at http://127.0.0.1:8000
#   make test   the whole suite, PostgreSQL included
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/tracker serve

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) var .pytest_cache .hypothesis
