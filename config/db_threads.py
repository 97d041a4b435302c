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

One reconnection rule: a connection is checked only after it reported an error, outlived
CONN_MAX_AGE or was left inside a transaction, so a broken connection costs one failed call and
the next call reconnects. And when one thread's connection fails, the pool's other connections
(made to the same server) are most likely broken too: each thread drops its connection before
its next call, so an outage costs the calls made during it, not one more failed call per thread
afterwards.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.db import connections

P = ParamSpec("P")
T = TypeVar("T")


# A call handed to the threads: the work, and where its result goes (an event loop's future, or
# a concurrent future that a synchronous caller waits on).
_Call = tuple[Callable[[], Any], asyncio.AbstractEventLoop | None,
              "asyncio.Future[Any] | concurrent.futures.Future[Any]"]


class KeptConnections:
    """The threads take calls from one queue and hand each result back to the caller's event
    loop with one ``call_soon_threadsafe``. ``loop.run_in_executor`` on a ThreadPoolExecutor
    did the same through a concurrent future, its condition lock and two chained callbacks: a
    hop cost 50-100 µs of CPU there against 35-70 µs here (and 20-35 against 5-15 µs when calls
    come in bursts), and every change of a room makes at least one."""

    def __init__(self, name: str, thread_count: Callable[[], int]) -> None:
        """``thread_count`` is asked once, when the first call starts the threads (settings are
        read by then)."""
        self.name = name
        self._thread_count = thread_count
        self._calls: queue.SimpleQueue[_Call] = queue.SimpleQueue()
        self._threads = 0  # started, once the first call came
        self._lock = threading.Lock()
        self._failures = 0  # connection errors seen by any thread of this pool
        self._local = threading.local()  # per thread: the failures count it has acted on

    def _start(self) -> None:
        with self._lock:
            if self._threads:
                return
            count = self._thread_count()
            for i in range(count):
                threading.Thread(target=self._serve, name=f"{self.name}_{i}", daemon=True).start()
            self._threads = count

    async def call(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``await pool.call(service.act, ...)``, from the event loop."""
        if not self._threads:
            self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._calls.put((functools.partial(self._run, function, *args, **kwargs), loop, future))
        return await future

    def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``pool.run(function, ...)`` from a synchronous thread: waits for the result."""
        if not self._threads:
            self._start()
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._calls.put((functools.partial(self._run, function, *args, **kwargs), None, future))
        return future.result()

    def close_connections(self) -> None:
        """Closes every thread's connection (tests do, so that the test database can be dropped).
        One call per thread, each waiting until all have started, so that every thread runs one."""
        if not self._threads:
            return
        barrier = threading.Barrier(self._threads)

        def close() -> None:
            barrier.wait(timeout=10)
            connections.close_all()
        futures: list[concurrent.futures.Future[None]] = []
        for _ in range(self._threads):
            futures.append(concurrent.futures.Future())
            self._calls.put((close, None, futures[-1]))
        for future in futures:
            future.result(timeout=20)

    def _serve(self) -> None:
        while True:
            work, loop, future = self._calls.get()
            if future.cancelled():
                continue  # the caller stopped waiting before the call began: nothing is done
            result, error = None, None
            try:
                result = work()
            except BaseException as exc:  # handed to the caller, who raises it
                error = exc
            if loop is None:
                assert isinstance(future, concurrent.futures.Future)
                if error is None:
                    future.set_result(result)
                else:
                    future.set_exception(error)
                continue
            assert isinstance(future, asyncio.Future)
            try:
                loop.call_soon_threadsafe(_settle, future, result, error)
            except RuntimeError:
                pass  # that event loop is closed: nobody waits for the result any more

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


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """In the caller's event loop: the call's result, unless the caller stopped waiting."""
    if future.cancelled():
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)
