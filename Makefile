# Two commands do all the set-up on a fresh machine with Python 3.11 and make:
#   make run    serve on the embedded SQLite store at http://127.0.0.1:8000 (production: `tracker front`, README)
#   make test   the whole suite, PostgreSQL included
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=
# The suite runs on every core (pytest-xdist), a test file to a worker: each test keeps its own database
# schema, temporary files and ports, and a file's shared set-up (a browser, a second cluster) is made once.
PYTEST_WORKERS ?= auto

.PHONY: run test bench bench-replay clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/tracker serve

# nginx, for the production front's tests (.ci/install-nginx installs Debian's package as root, else says why they skip);
# pg_auto_failover, for the failover tests' formations (.ci/install-pg-auto-failover, the same way).
test: $(STAMP)
	@.ci/install-nginx
	@.ci/install-pg-auto-failover
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

# The HTTP benchmark drives gunicorn with wrk (Debian's package), installed here when it is missing
# and apt-get may run; without it, bench/http_load.py falls back to Python client threads.
bench: $(STAMP)
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
		{ apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }; }; } || \
		echo "wrk is not installed: the HTTP benchmark uses Python client threads"
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[bench]' || echo "py-spy did not install: the HTTP section has no profile of the server"
	$(BIN)/python bench/run.py

# Replay alone on one log, this code beside another checkout's (BASELINE=dir, e.g. `git worktree add dir main`).
bench-replay: $(STAMP)
	$(BIN)/python bench/replay_bench.py $(if $(BASELINE),--baseline $(BASELINE))

clean:
	rm -rf $(VENV) var .pytest_cache .hypothesis
