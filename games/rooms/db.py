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
    # PostgreSQL two by default: with one, every change queued behind the one before's commit
    # and that queue made the latency tail; more take the interpreter lock from the event loop
    # more often (figures: bench/results/2026-12-02-database-threads.md).
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return 1
    return env_int("ROOMS_DB_THREADS", 2)


threads = KeptConnections("rooms-db", thread_count)
call = threads.call  # ``await db.call(function, ...)``: what games/rooms/commands.py runs on the threads
