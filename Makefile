# The two commands of the quick start: `make play` and `make test`.
# Both create .venv if it is missing and (re)install the project into it whenever
# pyproject.toml is newer than the last install; with it, the tic-tac-toe example game
# (examples/tictactoe, a package of its own that the tests play), installed without
# build isolation, so its build tools must be in the venv (setuptools, wheel).
# Then every game's numba kernels are compiled into numba's cache (about 30 s, a line a
# game), so that no game's first move waits for a compile; `make play` checks again
# (a second when all is cached) in case a kernel or numba changed since.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
PRECOMPILE := $(VENV)/bin/python -m plyground.core.fast.precompile

.PHONY: play test bench fuzz stress clean

$(STAMP): pyproject.toml examples/tictactoe/pyproject.toml
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet -e '.[test,cluster,learn]'
	$(VENV)/bin/python -m pip install --quiet 'setuptools>=64' wheel
	$(VENV)/bin/python -m pip install --quiet --no-build-isolation -e examples/tictactoe
	$(PRECOMPILE)
	@touch $(STAMP)

play: $(STAMP)
	@$(PRECOMPILE)
	$(VENV)/bin/plyground

# The browser test (tests/tui/test_browser.py) drives `plyground serve` with Debian's
# headless Chromium and its driver: installed here if missing (as root, or with sudo).
BROWSER := /usr/bin/chromium /usr/bin/chromedriver
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(BROWSER):
	$(SUDO) apt-get install -y --no-install-recommends chromium chromium-driver \
	  || { $(SUDO) apt-get update && \
	       $(SUDO) apt-get install -y --no-install-recommends chromium chromium-driver; }

# `games repair` rebuilds a damaged history with the sqlite3 program; its test needs it
/usr/bin/sqlite3:
	$(SUDO) apt-get install -y --no-install-recommends sqlite3 \
	  || { $(SUDO) apt-get update && $(SUDO) apt-get install -y --no-install-recommends sqlite3; }

test: $(STAMP) $(BROWSER) /usr/bin/sqlite3
	$(VENV)/bin/python -m pytest -n 2

bench: $(STAMP)
	$(VENV)/bin/python -m tests.bench

# the UI fuzzer's long run: 10,000 random keys, clicks and resizes (the suite runs a
# short one); SEED=n for another run, the same events for the same seed
SEED ?= 1
fuzz: $(STAMP)
	$(VENV)/bin/python -m tests.tui.fuzz --events 10000 --seed $(SEED)

# the suite RUNS times in random orders (seeds SEED, SEED+1, ...), every core kept busy
# beside it: a test that needs an idle machine or a set order fails here
RUNS ?= 5
stress: $(STAMP)
	$(VENV)/bin/python -m tests.stress --runs $(RUNS) --seed $(SEED)

clean:
	rm -rf $(VENV) .pytest_cache
