"""The rooms' PostgreSQL statements run on the event loop itself, for the two calls every move
makes: a change's one write (``storage.commit_on_loop``) and the read of another process's
change (``storage.load_with_event_on_loop``).

Handing those to the rooms' threads (games/rooms/db.py) cost more than the statements: a hop
to a thread and back, and the thread's Python work contending with the event loop's for the
interpreter lock, woke a sleeping thread several times per move (a tenth of a server process's
CPU was the kernel switching threads: bench/results/2026-12-04-sixteen-cores-evening.md). Here a process keeps a few
libpq connections of its own per event loop, in non-blocking mode, each registered with the
loop's selector once: a statement is sent, the coroutine waits for the socket to be readable,
and reads the result. Nothing blocks the loop and no thread is woken.

Only the prepared statements of games/rooms/storage.py run here; everything else (Django's
ORM, a change that finishes a game and sends ``game_finished``, SQLite) stays on the threads.
A connection that fails is dropped, so an outage costs the calls made during it, and the next
call connects again (as server/db_threads.py's threads do).
"""
from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg import pq

from config.env import env_int
from games.rooms import pg_wire


def enabled() -> bool:
    return bool(settings.DATABASES[DEFAULT_DB_ALIAS]["ENGINE"].endswith("postgresql"))


def size() -> int:
    """Connections per event loop: as many as the rooms' threads (ROOMS_DB_THREADS), whose
    reasons hold here too (a change waits for its commit's WAL flush; more connections would
    only queue in PostgreSQL)."""
    return env_int("ROOMS_DB_THREADS", 2)


_NOT_LIBPQ = ("cursor_factory", "context", "prepare_threshold")


class LoopConnection:
    """One libpq connection, read from the event loop: the loop calls ``_readable`` whenever its
    socket has data, which wakes the statement waiting for it (or, with none waiting, reads a
    notice or the server closing, so the loop does not call again for the same bytes)."""

    def __init__(self, connection: psycopg.AsyncConnection[Any], prepares: bool) -> None:
        self.connection = connection
        self.pgconn = connection.pgconn
        self.pgconn.nonblocking = 1
        self.prepares = prepares
        self.prepared: set[bytes] = set()
        self.broken = False
        self._socket = self.pgconn.socket
        self._loop = asyncio.get_running_loop()
        self._waiter: asyncio.Future[None] | None = None
        self._loop.add_reader(self._socket, self._readable)

    def _readable(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
            return
        try:
            self.pgconn.consume_input()
        except psycopg.OperationalError:
            self.close()

    async def _wait_writable(self) -> None:
        writable = self._loop.create_future()
        self._loop.add_writer(self._socket, writable.set_result, None)
        try:
            await writable
        finally:
            self._loop.remove_writer(self._socket)

    async def result(self) -> pq.abc.PGresult:
        """The last result of the statement just sent (each statement sends one)."""
        pgconn = self.pgconn
        while pgconn.flush():
            await self._wait_writable()
        last = None
        while True:
            while pgconn.is_busy():
                self._waiter = self._loop.create_future()
                try:
                    await self._waiter
                finally:
                    self._waiter = None
                pgconn.consume_input()
            result = pgconn.get_result()
            if result is None:
                break
            last = result
        if last is None:
            raise psycopg.OperationalError("the server sent no result")
        return pg_wire.check(last, self.connection.info.encoding)

    def close(self) -> None:
        """Once only: after ``finish`` the socket's number may be another connection's."""
        if self.broken:
            return
        self.broken = True
        if not self._loop.is_closed():
            self._loop.remove_reader(self._socket)
        self.pgconn.finish()


class LoopConnections:
    """One event loop's connections: at most ``size()`` statements at once, each on a
    connection of its own, made when first needed and kept while they work."""

    def __init__(self) -> None:
        self._idle: list[LoopConnection] = []
        self._slots = asyncio.Semaphore(size())

    async def _connect(self) -> LoopConnection:
        params = dict(connections[DEFAULT_DB_ALIAS].get_connection_params())
        prepares = params.get("prepare_threshold") is not None
        for key in _NOT_LIBPQ:
            params.pop(key, None)
        connection = await psycopg.AsyncConnection.connect(psycopg.conninfo.make_conninfo(**params),
                                                           autocommit=True)
        return LoopConnection(connection, prepares)

    async def _take(self) -> LoopConnection:
        while self._idle:
            connection = self._idle.pop()
            if not connection.broken:  # (the server may have closed it while it was idle)
                return connection
        return await self._connect()

    async def run(self, key: bytes, statement: bytes, values: Sequence[bytes | None],
                  binary: bool = False) -> pq.abc.PGresult:
        """Runs one of storage.py's statements, prepared once per connection as ``key`` (unless
        DATABASE_URL's prepare_threshold says the connection prepares nothing, config/env.py)."""
        async with self._slots:
            connection = await self._take()
            try:
                pgconn = connection.pgconn
                result_format = 1 if binary else 0
                if not connection.prepares:
                    pgconn.send_query_params(statement, values, result_format=result_format)
                else:
                    if key not in connection.prepared:
                        pgconn.send_prepare(key, statement)
                        await connection.result()
                        connection.prepared.add(key)
                    pgconn.send_query_prepared(key, values, result_format=result_format)
                return await connection.result()
            except BaseException:
                # A statement's own error leaves the connection idle and ready for the next; a
                # failed connection, or a caller that stopped waiting before the result was
                # read, leaves it unusable.
                if connection.pgconn.transaction_status != pq.TransactionStatus.IDLE:
                    connection.close()
                raise
            finally:
                if not connection.broken:
                    self._idle.append(connection)

    def close(self) -> None:
        for connection in self._idle:
            connection.close()
        self._idle.clear()


_pools: dict[asyncio.AbstractEventLoop, LoopConnections] = {}


def pool() -> LoopConnections:
    """The running event loop's connections (Daphne runs one loop per process; tests, many)."""
    loop = asyncio.get_running_loop()
    found = _pools.get(loop)
    if found is None:
        found = _pools[loop] = LoopConnections()
    return found


def close_all() -> None:
    """Closes every loop's connections and forgets them (tests do, so that the test database
    can be dropped)."""
    for loop in list(_pools):
        _pools.pop(loop).close()
