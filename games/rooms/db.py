"""Runs the rooms' database work off the event loop, on the rooms' own kept-connection thread(s)
(config/db_threads.py says why and how their connections are kept and checked).

Concurrent writers on one room are safe: every write is checked against the room's version
(``storage.commit``).
"""
from __future__ import annotations

from django.conf import settings

from config.db_threads import KeptConnections
from config.env import env_int


def thread_count() -> int:
    # One by default. SQLite takes one writer at a time, so more threads would only wait on
    # its lock; on PostgreSQL, more threads made the 500-client run of bench/ws_load.py slower
    # (p99 114 ms with two, 89 with one, on the 2-core machine): each adds Python work that
    # takes the interpreter lock from the event loop. Raise it where the database is far.
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return 1
    return env_int("ROOMS_DB_THREADS", 1)


threads = KeptConnections("rooms-db", thread_count)
call = threads.call  # ``await db.call(service.act, ...)``
