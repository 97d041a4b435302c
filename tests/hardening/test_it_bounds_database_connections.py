"""Page requests borrow PostgreSQL connections from a bounded pool (issue 35, finding 1): under
Daphne every request runs in a thread of its own, and with persistent connections each such
thread left its connection open for a minute, so a stream of requests used up the database's
connections and then every page failed. Now a process holds at most DB_POOL_MAX connections for
pages, whatever the rate, plus its rooms' own threads (docs/production.md, "Connection budget"); requests
that find every pooled connection busy for DB_POOL_TIMEOUT are answered 503, not 500."""
from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from tests.e2e.conftest import SERVICES_DB_ADMIN, two_process_backends
from tests.hardening.conftest import start_site

pytestmark = [pytest.mark.services,
              pytest.mark.skipif("two-processes" not in two_process_backends(), reason="needs PostgreSQL")]

POOL_MAX = 3
ROOMS_THREADS = 2  # the rooms' threads keep connections of their own (/healthz uses one)


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers)


def _connections_to(database: str) -> int:
    # Counted from the maintenance database, so the count leaves this connection out.
    with psycopg.connect(SERVICES_DB_ADMIN) as admin:
        return admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                             (database,)).fetchone()[0]


class PeakConnections:
    """Samples the server's connections every 20 ms from a thread of its own."""

    def __init__(self, database: str):
        self.database = database
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, _connections_to(self.database))
            self._stop.wait(0.02)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join(5)
        return self.peak


def _database_of(site) -> str:
    return site.env["DATABASE_URL"].rsplit("/", 1)[1]


def test_it_holds_at_most_the_pool_whatever_the_request_rate(tmp_path):
    site, cleanup = start_site("two-processes", tmp_path, processes=1, DB_POOL_MAX=str(POOL_MAX),
                               ROOMS_DB_THREADS=str(ROOMS_THREADS))
    budget = POOL_MAX + ROOMS_THREADS
    database = _database_of(site)
    peak = PeakConnections(database)
    statuses = []
    try:
        # 200 page requests (each reads the accounts table), 20 at a time; the run stops at the
        # first batch that goes over the budget, so that a server without a pool does not take
        # the shared PostgreSQL's last connections from other tests.
        with ThreadPoolExecutor(20) as pool:
            for batch in range(10):
                urls = [f"{site.url}/u/nobody{batch * 20 + i}/" for i in range(20)]
                statuses += [status for status, _ in pool.map(_get, urls)]
                assert peak.peak <= budget, (
                    f"{peak.peak} connections after {len(statuses)} page requests; "
                    f"the pool allows {POOL_MAX} and the rooms' threads {ROOMS_THREADS}")
        assert statuses == [404] * 200
        time.sleep(0.5)
        assert _connections_to(database) <= budget
    finally:
        assert peak.stop() <= budget
        cleanup()


def test_it_answers_503_when_every_pooled_connection_stays_busy(tmp_path):
    site, cleanup = start_site("two-processes", tmp_path, processes=1, DB_POOL_MAX="1",
                               DB_POOL_TIMEOUT="0.5")
    database = _database_of(site)
    try:
        # The test locks the accounts table: the first page request takes the one pooled
        # connection and waits on the lock; the others find no connection within 0.5 s.
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{database}") as locker:
            locker.execute("LOCK TABLE auth_user IN ACCESS EXCLUSIVE MODE")
            with ThreadPoolExecutor(6) as pool:
                first = pool.submit(_get, f"{site.url}/u/first/")
                time.sleep(0.3)
                answers = list(pool.map(_get, [f"{site.url}/u/nobody{i}/" for i in range(5)]))
                locker.commit()
                first_status, _ = first.result(timeout=30)
        assert first_status == 404
        assert [status for status, _ in answers] == [503] * 5
        assert all(headers["Retry-After"] == "5" for _, headers in answers)
        # The pool lends its connection again once the lock is gone.
        assert _get(f"{site.url}/u/after/")[0] == 404
    finally:
        cleanup()
