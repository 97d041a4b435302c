"""Live sites for the hardening tests: like tests/e2e (the embedded default, and two Daphne
processes on PostgreSQL + Redis when they are up), with each test's own timing overrides, since
these tests kill servers, cut the database and restart Redis."""
from __future__ import annotations

import secrets

import pytest

from tests.e2e.conftest import FAST_TIMING, SERVICES_DB_ADMIN, Site, _drop_database, migrate, two_process_backends
from tests.live import embedded_env, services_reachable

# A process silent for a second is dead; seats are taken over a second after that.
QUICK_HEARTBEAT = {"SERVER_HEARTBEAT_SECONDS": "0.2", "SERVER_DEAD_AFTER": "1.0",
                   "SEAT_TAKEOVER_DELAY": "1.0"}


def start_site(kind: str, tmp_path, processes: int | None = None, database_url: str | None = None,
               redis_url: str | None = None, **overrides: str):
    """Starts a site; returns (site, cleanup). ``database_url``/``redis_url`` point the servers
    somewhere else (a proxy, a Redis of the test's own) after migrating the real database."""
    env = embedded_env(tmp_path, **{**FAST_TIMING, **QUICK_HEARTBEAT, **overrides})
    name = None
    if kind == "two-processes":
        if not services_reachable():
            pytest.fail("PostgreSQL and Redis were reachable when the suite started but are not now.")
        import psycopg
        name = f"hardening_{secrets.token_hex(6)}"
        with psycopg.connect(SERVICES_DB_ADMIN, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
        env["REDIS_URL"] = "redis://127.0.0.1:6379/1"
    try:
        migrate(env)
        if database_url:
            env["DATABASE_URL"] = database_url.format(name=name)
        if redis_url:
            env["REDIS_URL"] = redis_url
        site = Site(kind, env, tmp_path, processes or (2 if kind == "two-processes" else 1))
    except Exception:
        if name:
            _drop_database(name)
        raise

    def cleanup():
        site.stop()
        if name:
            _drop_database(name)
    return site, cleanup


@pytest.fixture(params=two_process_backends())
def killable_site(request, tmp_path):
    made, cleanup = start_site(request.param, tmp_path)
    try:
        yield made
    finally:
        cleanup()
