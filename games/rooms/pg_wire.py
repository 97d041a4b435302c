"""The rooms' statements on PostgreSQL's own terms: libpq's numbered parameters, each value sent
as the text its column's input reads, a prepared statement run straight through libpq on a
Django connection, and a result row read from PostgreSQL's binary output.

games/rooms/storage.py builds the statements and says when each runs; this module knows only
the protocol. The event loop's own connections (games/rooms/loop_db.py) send the same
statements with the same parameters.
"""
from __future__ import annotations

import uuid
import weakref
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from django.db.backends.base.base import BaseDatabaseWrapper


def numbered(statement: str) -> bytes:
    """The statement with libpq's numbered parameters ($1, $2...) for its ``%s``."""
    parts = statement.split("%s")
    return "".join(part + (f"${i}" if i < len(parts) else "") for i, part in enumerate(parts, 1)).encode()


def text(value: Any) -> bytes | None:
    """A parameter as PostgreSQL's text input of its column reads it."""
    if value is None:
        return None
    if isinstance(value, str):
        if "\x00" in value:  # libpq would cut the text short at it
            raise psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return value.encode()
    if isinstance(value, int | uuid.UUID):
        return str(value).encode()
    if isinstance(value, datetime):
        return value.isoformat().encode()
    raise TypeError(f"no text for a {type(value).__name__} parameter")


# The statements prepared on each connection. By connection, not by thread: a thread served
# from Django's pool (config/env.py) takes whichever connection is free, and a connection
# keeps what was prepared on it whichever thread did it.
_prepared: weakref.WeakKeyDictionary[Any, set[bytes]] = weakref.WeakKeyDictionary()


def run_prepared(db: BaseDatabaseWrapper, key: bytes, statement: bytes, params: list[Any],
                 binary: bool = False) -> psycopg.pq.abc.PGresult:
    """Runs ``statement`` straight through libpq, prepared once per connection as ``key``
    (unless the connection prepares nothing: config/env.py's ``prepare_threshold``);
    PQexecPrepared lets go of the interpreter lock while it waits. The result comes in binary
    when ``binary``. psycopg's cursor, binding and reading back the same statement in Python
    cost more CPU per action (figures: bench/results/2026-12-02-libpq-and-async-commit.md).
    Errors are psycopg's, as Django's."""
    db.ensure_connection()
    connection = db.connection
    prepared = _prepared.setdefault(connection, set())
    result_format = 1 if binary else 0
    with db.wrap_database_errors, connection.lock:
        values = [text(p) for p in params]  # a refusal here is Django's DataError too
        pgconn = connection.pgconn
        result: psycopg.pq.abc.PGresult
        if connection.prepare_threshold is None:
            # DATABASE_URL's prepare_threshold=none: a pooler that cannot keep prepared statements
            result = pgconn.exec_params(statement, values, result_format=result_format)
        else:
            if key not in prepared:
                check(pgconn.prepare(key, statement), connection.info.encoding)
                prepared.add(key)
            result = pgconn.exec_prepared(key, values, result_format=result_format)
        return check(result, connection.info.encoding)


def check(result: psycopg.pq.abc.PGresult, encoding: str) -> psycopg.pq.abc.PGresult:
    """The result, or the error it reports raised as psycopg raises it."""
    if result.status not in (psycopg.pq.ExecStatus.COMMAND_OK, psycopg.pq.ExecStatus.TUPLES_OK):
        raise psycopg.errors.error_from_result(result, encoding=encoding)
    return result


def binary_row(result: psycopg.pq.abc.PGresult) -> tuple[Any, ...] | None:
    """The result's first row (None: no row), each value read from PostgreSQL's binary output
    as psycopg would return it, a JSON column as its text."""
    if result.ntuples == 0:
        return None
    return tuple(_value(result.ftype(i), result.get_value(0, i)) for i in range(result.nfields))


_Y2K = datetime(2000, 1, 1, tzinfo=UTC)  # PostgreSQL's binary times count microseconds from it


def _value(oid: int, data: bytes | None) -> Any:
    """A column's value from PostgreSQL's binary output, for the types of the rooms' columns."""
    if data is None:
        return None
    if oid in (20, 23):  # bigint, integer
        return int.from_bytes(data, "big", signed=True)
    if oid in (114, 1043):  # json, varchar
        return data.decode()
    if oid == 3802:  # jsonb: a version byte, then the text
        return data[1:].decode()
    if oid == 1184:  # timestamptz
        return _Y2K + timedelta(microseconds=int.from_bytes(data, "big", signed=True))
    raise TypeError(f"no reading of PostgreSQL type {oid}")
