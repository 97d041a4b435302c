# Two commands matter: `make run` serves the site, `make test` runs the linters and the whole suite.
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint migrate clean lock upgrade audit hooks backup restore

install: $(STAMP)

# Exactly the versions locked in requirements/test.txt, each file checked against its hash, then
# the project itself, editable, without its dependencies (they are the lock's). Re-installs only
# when pyproject.toml or the lock changes (idempotent and fast otherwise). CONTRIBUTING.md
# "Dependencies" says how the lock is made and refreshed.
LOCK := requirements/test.txt
$(STAMP): pyproject.toml $(LOCK)
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11+ is required"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $(STAMP)

# The lock files, written by uv from pyproject.toml for Python 3.11+ on every platform, with the
# hashes of every file of each pinned release: requirements/test.txt (what `make install` puts in
# .venv), requirements/production.txt (the image's; the same versions, less the test tools) and
# requirements/tools.txt (uv and pip-audit themselves, in .cache/tools so .venv holds only the
# lock). `make lock` after editing pyproject.toml keeps every pin that still fits; `make upgrade`
# moves every pin to the newest release pyproject.toml allows. Commit the lock files with it.
TOOLS := .cache/tools
TOOLS_STAMP := $(TOOLS)/.installed
COMPILE = $(TOOLS)/bin/uv pip compile --universal --python-version 3.11 --generate-hashes --quiet \
	--custom-compile-command 'make lock' $(LOCK_FLAGS)

$(TOOLS_STAMP): requirements/tools.txt
	@test -x $(TOOLS)/bin/python || $(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet --require-hashes -r requirements/tools.txt
	@touch $@

lock: $(TOOLS_STAMP)
	$(COMPILE) pyproject.toml --extra test -o requirements/test.txt
	$(COMPILE) pyproject.toml -c requirements/test.txt -o requirements/production.txt
	$(COMPILE) requirements/tools.in -o requirements/tools.txt

upgrade:
	@$(MAKE) --no-print-directory lock LOCK_FLAGS=--upgrade

# Known vulnerabilities in the locked Python packages (pip-audit) and in eslint's npm packages
# (npm audit). Both ask an advisory service on the network; where none answers, scripts/audit.py
# says that nothing was audited and exits 2, never a silent pass.
audit: $(TOOLS_STAMP)
	@$(TOOLS)/bin/python scripts/audit.py

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
# under .cache/ make a second run take seconds. Then no model change without its migration:
# makemigrations --check fails, writing nothing, when a model differs from its migrations.
ESLINT_DIR := tools/eslint
ESLINT_STAMP := $(ESLINT_DIR)/node_modules/.installed

lint: install $(ESLINT_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(ESLINT_DIR)/node_modules/.bin/eslint --config $(ESLINT_DIR)/eslint.config.js \
		--cache --cache-location .cache/eslint/ site/js
	$(BIN)/python manage.py makemigrations --check --dry-run

# eslint and its plugins, exactly as the committed lock file says (npm ci starts from empty).
# Its audit is `make audit`'s (npm audit), not a side effect of every install.
$(ESLINT_STAMP): $(ESLINT_DIR)/package-lock.json
	@command -v npm >/dev/null || { echo "eslint needs Node.js: apt-get install nodejs npm"; exit 1; }
	npm ci --prefix $(ESLINT_DIR) --no-audit --no-fund --loglevel=error
	@touch $@

# Once per clone: the git hook that runs .pre-commit-config.yaml (ruff, eslint and the
# migrations check on the files of each commit, with the repository's own tools).
hooks: install $(ESLINT_STAMP) $(TOOLS_STAMP)
	$(TOOLS)/bin/pre-commit install

# The PostgreSQL database of DATABASE_URL to backups/<database>-<UTC time>.dump, and one such file
# back into an empty database (games/backups.py; docs/production.md, "Backups and retention").
backup: install
	$(BIN)/python manage.py backup

restore: install
	@test -n "$(BACKUP)" || { echo "usage: make restore BACKUP=backups/<file>.dump"; exit 2; }
	$(BIN)/python manage.py restore "$(BACKUP)"

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
