"""Runs the rooms' database work off the event loop, on the rooms' own kept-connection thread(s)
(server/db_threads.py says why and how their connections are kept and checked).

Concurrent writers on one room are safe: every write is checked against the room's version
(``storage.commit``).
"""
from __future__ import annotations

from django.conf import settings

from config.env import env_int
from server.db_threads import KeptConnections


def thread_count() -> int:
    # SQLite takes one writer at a time, so more threads would only wait on its lock. On
    # PostgreSQL two by default: a change waits for its commit's round trip and WAL flush, and
    # with one thread every change of the process queued behind the one before. At 1,000 clients
    # on the 2-core machine that one thread was busy 65-95% of the time and its queue made the
    # latency tail (waits p99 25-570 ms, bench/ws_load.py p99 176-1,405 ms; with two threads
    # 36-281 ms in runs alternated with them). More threads also take the interpreter lock from
    # the event loop more often: four were no better than two there, and better where several
    # processes share a busy PostgreSQL (bench/results/2026-12-02-database-threads.md).
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return 1
    return env_int("ROOMS_DB_THREADS", 2)


threads = KeptConnections("rooms-db", thread_count)
call = threads.call  # ``await db.call(function, ...)``: what games/rooms/commands.py runs on the threads
