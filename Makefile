# The two commands of the quick start: `make play` and `make test`.
# Both create .venv if it is missing and (re)install the project into it whenever
# pyproject.toml is newer than the last install; with it, the tic-tac-toe example game
# (examples/tictactoe, a package of its own that the tests play), installed without
# build isolation, so its build tools must be in the venv (setuptools, wheel).
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: play test bench clean

$(STAMP): pyproject.toml examples/tictactoe/pyproject.toml
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	$(VENV)/bin/python -m pip install --quiet 'setuptools>=64' wheel
	$(VENV)/bin/python -m pip install --quiet --no-build-isolation -e examples/tictactoe
	@touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/plyground

test: $(STAMP)
	$(VENV)/bin/python -m pytest

bench: $(STAMP)
	$(VENV)/bin/python -m tests.bench

clean:
	rm -rf $(VENV) .pytest_cache
