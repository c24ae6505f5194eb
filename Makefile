# tabletop-widgets: `make play` (serve the dashboards), `make test` (all tests), `make bench`,
# `make lab` (JupyterLab for your own notebooks).
#
# Everything installs into ./.venv; a stamp file per extra means pip runs again only when
# pyproject.toml changes (or the venv is new). pip's own output (a hundred lines, warnings about
# a machine's pip config among them) goes to $(VENV)/pip-<extra>.log: one line says so, and the
# log's end is shown only when pip fails.

PYTHON3     ?= python3
VENV        ?= .venv
PY          := $(VENV)/bin/python
PORT        ?= 8866
LAB_PORT    ?= 8888
HOST        ?= 127.0.0.1
TABLETOP_DB ?= $(HOME)/.local/share/tabletop-widgets/table.db
PYTEST_ARGS ?=
CHROMIUM    ?= /usr/bin/chromium
PG_TEST_DIR ?= /tmp/tabletop-pg-$(shell id -u)
NO_LOBBY_KEY ?=
MAX_KERNELS ?=

export TABLETOP_DB

.PHONY: play lab test bench chromium postgres postgres-stop screenshots clean-venv

$(PY):
	$(PYTHON3) -m venv $(VENV)

# one stamp per extra, rebuilt when pyproject.toml (or the venv itself) is newer
PIP_QUIETLY = @echo "installing tabletop-widgets[$(1)] into $(VENV) (pip's output: $(VENV)/pip-$(1).log)"; \
	$(PY) -m pip install -e '.[$(1)]' > $(VENV)/pip-$(1).log 2>&1 || \
	{ tail -n 30 $(VENV)/pip-$(1).log; echo "pip failed: its whole output is in $(VENV)/pip-$(1).log"; exit 1; }

$(VENV)/.stamp-voila: pyproject.toml | $(PY)
	$(call PIP_QUIETLY,voila)
	@touch $@

$(VENV)/.stamp-lab: pyproject.toml | $(PY)
	$(PY) -m pip install -e '.[lab]'
	touch $@

$(VENV)/.stamp-test: pyproject.toml | $(PY)
	$(call PIP_QUIETLY,test)
	@touch $@

# The lobby asks for a key before it creates a table: `make play` sets one in the store (generated
# and printed once when there is none; TABLETOP_LOBBY_KEY=... sets a chosen one, stored hashed).
# `make play NO_LOBBY_KEY=1` lets anyone who reaches the server create tables, and says so.
# Opening the store creates its directory (0700) and file (0600) private. The pages and the lobby
# key are printed once the server is up and its ready kernels made, last on the screen.
# `make play MAX_KERNELS=N` caps the server's kernels (default: sized from the machine's memory).
play: $(VENV)/.stamp-voila
	@$(PY) -m tabletop_widgets play --host "$(HOST)" --port "$(PORT)" --db "$(TABLETOP_DB)" $(if $(NO_LOBBY_KEY),--no-lobby-key,) $(if $(NO_PREHEAT),--no-preheat,) $(if $(MAX_KERNELS),--max-kernels "$(MAX_KERNELS)",)

# JupyterLab in the same venv, opened on notebooks/ (the tutorial runs as it is): in a notebook of
# your own, `%load_ext tabletop_widgets` and `from tabletop_systems.ret import Character`. As root
# (a container) JupyterLab needs --allow-root: given then.
lab: $(VENV)/.stamp-lab
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks --ServerApp.ip="$(HOST)" --ServerApp.port="$(LAB_PORT)" $(if $(filter 0,$(shell id -u)),--allow-root,)

# Debian's chromium for the browser tests: installed when missing and we are root (as in CI).
# Elsewhere the browser tests skip with the reason (and fail when CI is set).
chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
	  : ; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing Debian chromium for the browser tests"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-dejavu-core; \
	else \
	  echo "note: $(CHROMIUM) not found and not root: browser tests (tests/ui) will skip"; \
	fi

# A throwaway PostgreSQL (127.0.0.1, data under $(PG_TEST_DIR)) for the PostgreSQL store tests:
# started by scripts/pg-test-server (which apt-installs Debian's postgresql if missing) when we
# are root, as in CI, and left running for the next `make test` (`make postgres-stop` ends it).
# An explicit TABLETOP_TEST_POSTGRES wins. Elsewhere those tests skip with the reason (and fail
# when CI is set).
postgres:
	@if [ -n "$$TABLETOP_TEST_POSTGRES" ]; then \
	  echo "PostgreSQL tests on the server in TABLETOP_TEST_POSTGRES"; \
	elif [ "$$(id -u)" = "0" ]; then \
	  scripts/pg-test-server start --dir "$(PG_TEST_DIR)"; \
	else \
	  echo "note: not root and TABLETOP_TEST_POSTGRES unset: PostgreSQL tests will skip (eval \$$(scripts/pg-test-server) starts one)"; \
	fi

postgres-stop:
	scripts/pg-test-server stop --dir "$(PG_TEST_DIR)"

test: $(VENV)/.stamp-test chromium postgres
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	@if [ -z "$$TABLETOP_TEST_POSTGRES" ] && [ -f "$(PG_TEST_DIR)/env" ]; then . "$(PG_TEST_DIR)/env"; fi; \
	  echo "$(PY) -m pytest $(PYTEST_ARGS)"; $(PY) -m pytest $(PYTEST_ARGS)

bench: $(VENV)/.stamp-test postgres
	@if [ -z "$$TABLETOP_TEST_POSTGRES" ] && [ -f "$(PG_TEST_DIR)/env" ]; then . "$(PG_TEST_DIR)/env"; fi; \
	if [ -f bench/run.py ]; then \
	  $(PY) bench/run.py; \
	else \
	  found=0; \
	  for f in bench/*.py; do \
	    [ -f "$$f" ] || continue; found=1; \
	    echo "== $$f"; $(PY) "$$f" || exit $$?; \
	  done; \
	  [ $$found = 1 ] || echo "no benchmarks in bench/"; \
	fi

# refresh docs/screenshots/*.png from the browser tests
screenshots: $(VENV)/.stamp-test chromium
	TT_SCREENSHOTS=1 $(PY) -m pytest tests/ui -q

clean-venv:
	rm -rf $(VENV)
