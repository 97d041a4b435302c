"""Runs the rooms' database work off the event loop, in this module's own thread(s).

Channels' ``database_sync_to_async`` runs every call of a process in one shared thread and
wraps each call in ``close_old_connections``, which with CONN_HEALTH_CHECKS costs a
``SELECT 1`` round trip per call, and queues behind every other sync call of the process.
Here the rooms' own thread(s) (``ROOMS_DB_THREADS``, one by default) keep their connection,
and a connection is checked only after it reported an error or outlived CONN_MAX_AGE, so a
broken connection costs one failed call ("unavailable") and the next call reconnects.
Concurrent writers on one room are safe: every write is checked against the room's version
(``service._commit``).
"""
from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import connections

from config.env import env_int

_executor: ThreadPoolExecutor | None = None
P = ParamSpec("P")
T = TypeVar("T")


def thread_count() -> int:
    # One by default. SQLite takes one writer at a time, so more threads would only wait on
    # its lock; on PostgreSQL, more threads made the 500-client run of bench/ws_load.py slower
    # (p99 114 ms with two, 89 with one, on the 2-core machine): each adds Python work that
    # takes the interpreter lock from the event loop. Raise it where the database is far.
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return 1
    return env_int("ROOMS_DB_THREADS", 1)


def _executor_for_process() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(thread_count(), thread_name_prefix="rooms-db")
    return _executor


# When one thread's connection fails, the others' connections (made to the same server) are
# most likely broken too: each thread drops its connection before its next call, so an outage
# costs the calls made during it, not one more failed call per thread afterwards.
_failures = 0
_local = threading.local()


def _tidy_connections() -> None:
    global _failures
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        expired = conn.close_at is not None and time.monotonic() >= conn.close_at
        if conn.errors_occurred:
            _failures += 1
        if conn.errors_occurred or expired or conn.in_atomic_block:
            conn.close_if_unusable_or_obsolete()


def _run(function: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    if getattr(_local, "failures", 0) != _failures:
        _local.failures = _failures
        for conn in connections.all(initialized_only=True):
            conn.close()
    try:
        return function(*args, **kwargs)
    finally:
        _tidy_connections()


async def call(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``await call(service.act, ...)``: runs a synchronous function that uses the database."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor_for_process(),
                                      functools.partial(_run, function, args, kwargs))
