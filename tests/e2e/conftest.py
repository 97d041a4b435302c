"""Live servers for the end-to-end stories (tests/e2e, and the hardening and accounts tests that
import them): the embedded default (SQLite + in-memory layer, one Daphne)
and, when PostgreSQL and Redis are reachable, two Daphne processes sharing them.

Timings are shortened through the same environment variables an operator would set, so that
CPU seats move at once and a disconnected seat is taken over after a second.
"""
from __future__ import annotations

import secrets
import sqlite3
import time
from pathlib import Path

import pytest
from django.conf import settings

from tests.live import embedded_env, migrate, services_reachable, start_daphne

FAST_TIMING = {
    "CPU_DELAY_MEMORY_FLIP": "0.002",
    "MEMORY_CONCEAL_DELAY": "0.01",
    "CPU_DELAY_BOZU_FLIP": "0.002",
    "CPU_DELAY_GIN_STEP": "0.002",
    "GIN_NEXT_HAND_DELAY": "0.01",
    "SEAT_TAKEOVER_DELAY": "1.0",
    # Finished games' operators' copies wait in each server's memory for its flush
    # (server/hourly_buffer.py): every 0.2 s here, not every hour.
    "TELEMETRY_FLUSH_INTERVAL": "0.2",
}
SERVICES_DB_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
SERVICES_REDIS = "redis://127.0.0.1:6379/1"


def two_process_backends() -> list[str]:
    """The suite runs against PostgreSQL + Redis when they are up (CI runs it both ways)."""
    return ["embedded", "two-processes"] if settings.TEST_BACKEND == "services" else ["embedded"]


class Site:
    """One or more Daphne processes serving the same rooms; ``urls[i]`` is process i."""

    def __init__(self, kind: str, env: dict, tmp_path: Path, processes: int):
        self.kind = kind
        self.env = env
        self.tmp_path = tmp_path
        self.servers = [start_daphne(tmp_path, env, name=f"daphne{i}") for i in range(processes)]
        for server in self.servers:
            server.wait_ready()

    @property
    def url(self) -> str:
        return self.servers[0].url

    def url_for(self, i: int) -> str:
        return self.servers[i % len(self.servers)].url

    def restart(self, i: int = 0, kill: bool = True, **overrides: str):
        old = self.servers[i]
        old.kill() if kill else old.stop()
        self.env = {**self.env, **overrides}
        self.servers[i] = start_daphne(self.tmp_path, self.env, name=f"daphne{i}-restarted")
        self.servers[i].wait_ready()

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Reads the servers' database directly (the secret state, finished-game rows)."""
        url = self.env["DATABASE_URL"]
        if url.startswith("sqlite"):
            with sqlite3.connect(url[len("sqlite:///"):]) as db:
                return db.execute(sql.replace("%s", "?"), params).fetchall()
        import psycopg
        with psycopg.connect(url) as db:
            return db.execute(sql, params).fetchall()

    def query_until(self, done, sql: str, params: tuple = ()) -> list[tuple]:
        """``query`` again until ``done(rows)`` (rows the servers' next flushes write), for 10 s at most."""
        deadline = time.monotonic() + 10
        while not done(rows := self.query(sql, params)) and time.monotonic() < deadline:
            time.sleep(0.1)
        return rows

    def stop(self):
        for server in self.servers:
            server.stop()


def _embedded_site(tmp_path: Path, **overrides: str) -> Site:
    env = embedded_env(tmp_path, **{**FAST_TIMING, **overrides})
    migrate(env)
    return Site("embedded", env, tmp_path, 1)


def _services_site(tmp_path: Path, name: str, **overrides: str):
    import psycopg
    with psycopg.connect(SERVICES_DB_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    env = embedded_env(tmp_path, **{**FAST_TIMING, **overrides})
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
    env["REDIS_URL"] = SERVICES_REDIS
    migrate(env)
    return Site("two-processes", env, tmp_path, 2)


def _drop_database(name: str):
    import psycopg
    with psycopg.connect(SERVICES_DB_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_site(kind: str, tmp_path: Path, **overrides: str):
    """Starts a site; returns (site, cleanup). ``overrides``: its environment's differences."""
    if kind == "embedded":
        site = _embedded_site(tmp_path, **overrides)
        return site, site.stop
    if not services_reachable():
        pytest.fail("PostgreSQL and Redis were reachable when the suite started but are not now.")
    name = f"rooms_{secrets.token_hex(6)}"
    try:
        site = _services_site(tmp_path, name, **overrides)
    except Exception:
        _drop_database(name)
        raise

    def cleanup():
        site.stop()
        _drop_database(name)
    return site, cleanup


@pytest.fixture(scope="session", params=two_process_backends())
def site(request, tmp_path_factory):
    """A running site, once per backend for the whole rooms suite."""
    made, cleanup = make_site(request.param, tmp_path_factory.mktemp(f"site-{request.param}"))
    try:
        yield made
    finally:
        cleanup()


@pytest.fixture(scope="session")
def embedded_site(tmp_path_factory):
    made, cleanup = make_site("embedded", tmp_path_factory.mktemp("embedded-site"))
    try:
        yield made
    finally:
        cleanup()


@pytest.fixture
def private_site(request, tmp_path):
    """A site of its own (for tests that kill and restart servers); param: environment
    overrides of the embedded site."""
    made, cleanup = make_site("embedded", tmp_path, **getattr(request, "param", {}))
    try:
        yield made
    finally:
        cleanup()
