# Two commands for a new machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export FLASK_APP := wsgi

PORT ?= 5000

.PHONY: run venue test cards bench bench-web bench-routes bench-load bench-public bench-uploads bench-participation simulate sweep clean

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

run: $(VENV)/.installed
	$(PY) -m flask db upgrade
	$(PY) -m flask run --host 127.0.0.1 --port 5000

venue: $(VENV)/.installed
	$(PY) -m flask db upgrade
	PORT=$(PORT) $(PY) -m flask venue

test: $(VENV)/.installed
	$(PY) -m pytest -n auto

# The card data (app/core/data/cards.json) from a checkout of NetrunnerDB/netrunner-cards-json:
#   make cards SOURCE=../netrunner-cards-json
cards: $(VENV)/.installed
	test -n "$(SOURCE)" || (echo "usage: make cards SOURCE=<netrunner-cards-json checkout>" && false)
	$(PY) -m scripts.cards "$(SOURCE)"

bench: $(VENV)/.installed
	$(PY) -m bench.bench_engine
	$(PY) -m bench.bench_single
	$(PY) -m bench.bench_single --random
	$(PY) -m pip install --quiet -r bench/requirements.txt && $(PY) -m bench.bench_plain

bench-web: $(VENV)/.installed
	$(PY) -m bench.bench_web

bench-routes: $(VENV)/.installed
	$(PY) -m bench.bench_routes

bench-load: $(VENV)/.installed
	$(PY) -m bench.bench_status_load

bench-public: $(VENV)/.installed
	$(PY) -m bench.bench_public_load

bench-uploads: $(VENV)/.installed
	$(PY) -m bench.bench_uploads

bench-participation: $(VENV)/.installed
	$(PY) -m bench.bench_participation

simulate: $(VENV)/.installed
	$(PY) -m app.core.pairing.simulate

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
