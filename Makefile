# The two commands of the quick start: `make play` and `make test`.
# Both create .venv if it is missing and (re)install the project into it whenever
# pyproject.toml is newer than the last install.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: play test bench clean

$(STAMP): pyproject.toml
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/plyground

test: $(STAMP)
	$(VENV)/bin/python -m pytest

bench: $(STAMP)
	$(VENV)/bin/python -m tests.bench

clean:
	rm -rf $(VENV) .pytest_cache
