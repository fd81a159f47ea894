# Two commands for a new machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
export FLASK_APP := wsgi

PORT ?= 5000

.PHONY: run venue test cards bench bench-web bench-routes bench-load bench-public bench-proxy bench-uploads bench-abr bench-restore bench-backup-follow bench-participation bench-stats bench-player-live bench-ranking bench-series bench-recall bench-import simulate sweep clean bench-ratings bench-round-entry bench-hall bench-player-check bench-push

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

run: $(VENV)/.installed
	$(PY) -m flask db upgrade
	$(PY) -m flask run --host 127.0.0.1 --port $(PORT)

venue: $(VENV)/.installed
	$(PY) -m flask db upgrade
	PORT=$(PORT) $(PY) -m flask venue

test: $(VENV)/.installed
	$(PY) -m pytest -n auto --dist worksteal

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

bench-stats: $(VENV)/.installed
	$(PY) -m bench.bench_stats

bench-load: $(VENV)/.installed
	$(PY) -m bench.bench_status_load

bench-public: $(VENV)/.installed
	$(PY) -m bench.bench_public_load

bench-uploads: $(VENV)/.installed
	$(PY) -m bench.bench_uploads

# an ABR send of a finished 300-player event to a stand-in ABR on 127.0.0.1 (build, click, send, click to sent)
bench-abr: $(VENV)/.installed
	$(PY) -m bench.bench_abr

# a published round's push messages to 2,000 players, through the outbox and sender, to a stand-in push service
bench-push: $(VENV)/.installed
	$(PY) -m bench.bench_push

bench-series: $(VENV)/.installed
	$(PY) -m bench.bench_series

# phones through deploy/nginx-sass.conf and straight to gunicorn (needs PostgreSQL, nginx and wrk from Debian)
bench-proxy: $(VENV)/.installed
	$(PY) -m bench.bench_proxy_load

# 10,000 players' phones through the shipped site, each polling its own page (bench/bench_hall.py)
bench-hall: $(VENV)/.installed
	$(PY) -m pip install --quiet -r bench/requirements.txt && $(PY) -m bench.bench_hall

# one player's check (revalidated and fresh) straight to gunicorn at a 10,000-player event (bench/bench_player_check.py)
bench-player-check: $(VENV)/.installed
	$(PY) -m bench.bench_player_check

bench-restore: $(VENV)/.installed
	$(PY) -m bench.bench_restore_sizes

bench-backup-follow: $(VENV)/.installed
	$(PY) -m bench.bench_backup_follow

bench-participation: $(VENV)/.installed
	$(PY) -m bench.bench_participation

bench-player-live: $(VENV)/.installed
	$(PY) -m bench.bench_player_live

bench-round-entry: $(VENV)/.installed
	$(PY) -m bench.bench_round_entry

bench-ranking: $(VENV)/.installed
	$(PY) -m bench.bench_ranking
	$(PY) -m bench.bench_ranking --series 200
	$(PY) -m bench.bench_ranking --series 1000 --league churn

bench-ratings: $(VENV)/.installed
	$(PY) -m bench.bench_ratings

bench-recall: $(VENV)/.installed
	$(PY) -m bench.bench_recall_rounds --write

bench-import: $(VENV)/.installed
	$(PY) -m bench.bench_import

simulate: $(VENV)/.installed
	$(PY) -m app.core.pairing.simulate

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
