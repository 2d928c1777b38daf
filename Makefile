PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
DEMO_STAMP := $(VENV)/.installed-demo

.PHONY: install demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# the demo needs toolclause alone (its MCP server, SQLite and the SDK's client come with it), not the test extras
$(DEMO_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(DEMO_STAMP)

# the food app: lint, export, two replicas serving it, a scripted MCP session and a retry storm
demo: $(DEMO_STAMP)
	$(BIN)/python examples/food/demo.py

test: $(STAMP)
	$(BIN)/python -m pytest; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$rc

$(DEV_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

# ruff (style, imports, likely bugs) and mypy (types), both configured in pyproject.toml
lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests bench; ruff=$$?; $(BIN)/mypy; mypy=$$?; exit $$((ruff || mypy))

bench: $(STAMP)
	$(BIN)/python bench/lint_corpus.py

clean:
	rm -rf $(VENV) build src/*.egg-info
