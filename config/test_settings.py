"""Settings for the test suite: PostgreSQL + Redis when they are reachable, else the embedded default.

TEST_BACKEND=services forces PostgreSQL + Redis (and fails loudly if they are down);
TEST_BACKEND=embedded forces SQLite without Redis; auto (the default) probes.
"""
import os
import socket

from .env import ConfigError

SERVICES_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
SERVICES_REDIS_URL = "redis://127.0.0.1:6379/1"  # db 1: tests never touch a developer's db 0


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


_choice = os.environ.get("TEST_BACKEND", "auto")
if _choice not in ("auto", "services", "embedded"):
    raise ConfigError(f"TEST_BACKEND must be auto, services or embedded, got {_choice!r}")
if _choice == "auto":
    _choice = "services" if _reachable("127.0.0.1", 5432) and _reachable("127.0.0.1", 6379) else "embedded"
if _choice == "services":
    os.environ.setdefault("DATABASE_URL", SERVICES_DATABASE_URL)
    os.environ.setdefault("REDIS_URL", SERVICES_REDIS_URL)
else:
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DATABASE_URL", "sqlite:///test-db.sqlite3")
TEST_BACKEND = _choice
# The suite creates rooms far faster than people do, all from 127.0.0.1. The servers it starts
# inherit this too (tests/live.py copies the environment); the room-limit tests
# (tests/e2e/test_it_limits_room_creation.py) give theirs the production defaults.
os.environ["ROOMS_PER_ADDRESS"] = os.environ["ROOMS_PER_ACCOUNT"] = "1000000/minute"
# The same for accounts and password resets (tests/accounts/test_accounts_signup.py and
# test_accounts_reset_throttle.py set their own limits).
os.environ["SIGN_UPS_PER_ADDRESS"] = os.environ["PASSWORD_RESETS_PER_ADDRESS"] = "1000000/minute"

from .settings import *  # noqa: E402,F401,F403
from .settings import CACHES, DATABASES  # noqa: E402  (named: they are changed below)

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast sign-ups in tests

# Celery tasks called from a request in this process run where they are called, as in the
# embedded default, so a test reads their work (a password-reset mail) at once. The servers
# the suite starts read their own environment: on Redis their tasks wait for a worker.
CELERY_TASK_ALWAYS_EAGER = True

# No embedded beat in the test process (importing config/asgi.py starts it in a server): its
# purge, room cleanup and flush would run beside the tests on the test database, and met the
# telemetry migration tests' tables dropped and recreated. The servers the suite starts run it.
EMBEDDED_BEAT = False

# Parallel runs on one machine (several developers, or a run beside a bench) can each take
# their own test database name.
DATABASES["default"].setdefault("TEST", {})["NAME"] = os.environ.get(
    "TEST_DATABASE_NAME", DATABASES["default"].get("TEST", {}).get("NAME"))

# `make test` runs the suite in several pytest-xdist workers, which share the machine's Redis:
# each keeps its cache entries (sign-in counts, the cached leaderboard) under a prefix of its own.
# The test database already gets the worker's name as a suffix from pytest-django.
if os.environ.get("PYTEST_XDIST_WORKER"):
    CACHES["default"]["KEY_PREFIX"] = os.environ["PYTEST_XDIST_WORKER"]
