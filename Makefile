# Two commands matter: `make run` serves the site, `make test` runs the linters and the whole suite.
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint migrate clean

install: $(STAMP)

# Re-install only when the dependency list changes (idempotent and fast otherwise).
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11+ is required"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

# The suite also needs Debian's chromium, haproxy, a Japanese font and Node.js (eslint), and uses
# PostgreSQL and Redis when they run: scripts/test-prerequisites.sh installs or starts what is
# missing (or says the one command to run when it cannot). Then the linters, then the suite, in
# TEST_WORKERS processes (pytest-xdist), each taking whole files: most tests wait on servers and
# browsers they started, so two workers on two cores finish in about three quarters of the time.
TEST_WORKERS ?= 2
test: install
	@bash scripts/test-prerequisites.sh
	@$(MAKE) --no-print-directory lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# ruff (pyflakes, pycodestyle, isort, bugbear, pyupgrade) and mypy (strict for games/engines,
# games/cpu and games/rooms), configured in pyproject.toml, and eslint on site/js. Their caches
# under .cache/ make a second run take seconds.
ESLINT_DIR := tools/eslint
ESLINT_STAMP := $(ESLINT_DIR)/node_modules/.installed

lint: install $(ESLINT_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(ESLINT_DIR)/node_modules/.bin/eslint --config $(ESLINT_DIR)/eslint.config.js \
		--cache --cache-location .cache/eslint/ site/js

# eslint and its plugins, exactly as the committed lock file says (npm ci starts from empty).
$(ESLINT_STAMP): $(ESLINT_DIR)/package-lock.json
	@command -v npm >/dev/null || { echo "eslint needs Node.js: apt-get install nodejs npm"; exit 1; }
	npm ci --prefix $(ESLINT_DIR) --no-audit --no-fund --loglevel=error
	@touch $@

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles

# Translations (docs/i18n.md). `make messages` collects every marked string into
# locale/<lang>/LC_MESSAGES/django.po and djangojs.po (makemessages needs GNU gettext:
# apt-get install gettext), then compiles the .mo files in pure Python. The .mo files are
# committed, so a fresh machine needs no gettext; tests/i18n fails when one is out of date.
LOCALES := es de ja
MESSAGES_FLAGS := --no-obsolete --add-location=file $(foreach l,$(LOCALES),--locale=$(l)) \
	--ignore=.venv --ignore=node_modules --ignore=staticfiles --ignore=tests --ignore=bench --ignore=docs --ignore='*.egg-info'

.PHONY: messages compilemessages
messages: install
	@command -v xgettext >/dev/null || { echo "makemessages needs GNU gettext: apt-get install gettext"; exit 1; }
	$(BIN)/python manage.py makemessages --domain=django $(MESSAGES_FLAGS)
	$(BIN)/python manage.py makemessages --domain=djangojs $(MESSAGES_FLAGS)
	$(BIN)/python locale/compile.py

compilemessages: install
	$(BIN)/python locale/compile.py
