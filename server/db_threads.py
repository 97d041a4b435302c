"""Threads of a process that keep their database connections, for work that must not open one per call.

Under Daphne, Django runs a request's synchronous code in a thread made for that request, so a
connection opened there serves one request and is gone (connecting to PostgreSQL was most of the
cost of a telemetry ingest, bench/telemetry_bench.py). Channels' ``database_sync_to_async`` runs
every call of a process in one shared thread and wraps each call in ``close_old_connections``,
which with CONN_HEALTH_CHECKS costs a ``SELECT 1`` round trip per call, and queues behind every
other sync call of the process. A ``KeptConnections`` pool (the rooms and telemetry ingestion
each have one) runs the work on its own threads instead, which keep their connections.

One locking rule: the pool is made once, under a lock, because its first user may be any of
Django's request threads (telemetry) as well as the event loop (rooms).

One pool rule: page requests borrow PostgreSQL connections from Django's bounded pool
(config/env.py), which would lose a connection for good to each of these threads. Each thread
therefore connects outside the pool, with a connection of its own kept for ``KEPT_FOR``
seconds, and docs/production.md's connection budget counts them apart.

One reconnection rule: a connection is checked only after it reported an error, outlived
CONN_MAX_AGE or was left inside a transaction, so a broken connection costs one failed call and
the next call reconnects. And when one thread's connection fails, the pool's other connections
(made to the same server) are most likely broken too: each thread drops its connection before
its next call, so an outage costs the calls made during it, not one more failed call per thread
afterwards.
"""
from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from django.db import connections
from django.db.utils import load_backend

P = ParamSpec("P")
T = TypeVar("T")

KEPT_FOR = 60  # seconds a thread keeps a PostgreSQL connection before replacing it


def _connect_outside_the_pool() -> None:
    """Each thread's first act: its own (thread-local) handle on every pooled database, with
    the same settings less the pool, kept ``KEPT_FOR`` seconds."""
    for alias in connections:
        settings_dict = connections.settings[alias]
        if settings_dict["OPTIONS"].get("pool"):
            own = {**settings_dict, "CONN_MAX_AGE": KEPT_FOR,
                   "OPTIONS": {k: v for k, v in settings_dict["OPTIONS"].items() if k != "pool"}}
            connections[alias] = load_backend(own["ENGINE"]).DatabaseWrapper(own, alias)


class KeptConnections:
    def __init__(self, name: str, thread_count: Callable[[], int]) -> None:
        """``thread_count`` is asked once, when the first call starts the threads (settings are
        read by then)."""
        self.name = name
        self._thread_count = thread_count
        self._executor: ThreadPoolExecutor | None = None
        self._threads = 0
        self._lock = threading.Lock()
        self._failures = 0  # connection errors seen by any thread of this pool
        self._local = threading.local()  # per thread: the failures count it has acted on

    def _pool(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._threads = self._thread_count()
                self._executor = ThreadPoolExecutor(self._threads, thread_name_prefix=self.name,
                                                    initializer=_connect_outside_the_pool)
            return self._executor

    async def call(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``await pool.call(service.act, ...)``, from the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), functools.partial(self._run, function, *args, **kwargs))

    def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``pool.run(function, ...)`` from a synchronous thread: waits for the result."""
        return self._pool().submit(functools.partial(self._run, function, *args, **kwargs)).result()

    def close_connections(self) -> None:
        """Closes every thread's connection (tests do, so that the test database can be dropped).
        One task per thread, each waiting until all have started, so that every thread runs one."""
        if self._executor is None:
            return
        barrier = threading.Barrier(self._threads)

        def close() -> None:
            barrier.wait(timeout=10)
            connections.close_all()
        for future in [self._executor.submit(close) for _ in range(self._threads)]:
            future.result(timeout=20)

    def _run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        if getattr(self._local, "failures", 0) != self._failures:
            self._local.failures = self._failures
            for conn in connections.all(initialized_only=True):
                conn.close()
        try:
            return function(*args, **kwargs)
        finally:
            self._tidy_connections()

    def _tidy_connections(self) -> None:
        for conn in connections.all(initialized_only=True):
            if conn.connection is None:
                continue
            expired = conn.close_at is not None and time.monotonic() >= conn.close_at
            if conn.errors_occurred:
                with self._lock:
                    self._failures += 1
            if conn.errors_occurred or expired or conn.in_atomic_block:
                conn.close_if_unusable_or_obsolete()
