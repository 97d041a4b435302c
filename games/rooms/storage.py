"""A room's row and its events: reading them, and the one write of every change.

``load`` reads a room; ``load_with_event`` reads it with the event that made its version (what a
process reads after another process changed the room); ``events_after`` the events a
reconnecting client missed. ``insert`` writes a new room with its first event. ``commit`` writes
a change: the version-checked UPDATE of the row and the event row of the new version, together
or not at all; when the change finished a game, ``game_finished`` goes out once that has
committed (the operators' copy of the game waits for the hourly flush: games/finished.py).
``written`` is this process's copy of the rows it wrote (or read) last, which the next change
of such a room starts from. From the event loop, ``commit_on_loop`` and
``load_with_event_on_loop`` run the same statements, on PostgreSQL through the loop's own
connections (loop_db.py), else on the rooms' threads (db.py).

The commands (``service.py``) decide what a change is and never write a row themselves; the
searches that only find rooms (``service.due_rooms``, ``service.rooms_of_user``,
``processes.rooms_counting``) and the idle rooms' deletion (``cleanup.py``) query them too.
"""
from __future__ import annotations

import threading
import uuid
import weakref
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import AutoField, Field, JSONField, Model

from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.models import JSONTextField, Room, RoomEvent
from games.rooms import jsontext, loop_db, replays
from games.rooms.db import threads
from games.signals import game_finished

REPLAY_LIMIT = 200  # a client further behind than this gets a full resync instead of events

_ROOM = Room._meta.concrete_fields
_ROOM_FIELDS = [f.attname for f in _ROOM]  # a row's values, in the order ``Room.from_db`` takes
_ROOM_JSON_FIELDS = {f.attname for f in _ROOM if isinstance(f, JSONField)}


def _no_such_room() -> GameError:
    return GameError("There is no such room.", ErrorCode.ROOM_NOT_FOUND)


def load(room_id: str) -> Room:
    # PostgreSQL text cannot hold NUL: such an id names no room, and querying it would fail
    # as a database error (a 500, or "unavailable" and every rooms thread reconnecting).
    if "\x00" in room_id:
        raise _no_such_room()
    try:
        room: Room = Room.objects.get(pk=room_id)
        return room
    except Room.DoesNotExist:
        raise _no_such_room() from None


def events_after(room_id: str, after: int, upto: int) -> list[dict[str, Any]] | None:
    """The public events of versions after..upto, or None when they cannot be replayed: too far
    back, or ``after`` ahead of the room (the client saw another room's versions, or this one's
    before it was reset), where an empty list would wrongly say that nothing was missed."""
    if upto - after > REPLAY_LIMIT or after < 0 or after > upto:
        return None
    if upto <= after:
        return []
    rows = (RoomEvent.objects.filter(room_id=room_id, version__gt=after, version__lte=upto)
            .order_by("version").values_list("version", "event"))
    return [{"version": v, **e} for v, e in rows]


# --------------------------------------------------------------------------------------------
# This process's copy of the rows it wrote.

class WrittenRows:
    """The rows this process wrote last, by room (or read last, after another process's change:
    ``load_with_event``): a change to such a room starts from here instead of reading the row
    again (one round trip per action instead of two). A write from it is checked by the version
    as always. A refusal from it is trusted only while this is the only live server process
    (then every write went through this copy, so it is current) and a flood of illegal requests
    costs no database work; with several processes a refusal, like "nothing to do", is decided
    again from the database (``changes.apply``), so a copy made stale by another process
    never refuses or skips anything. ``note_version`` drops a copy older than a version seen.

    A row is kept as its values, the JSON columns as their text: ``copy`` decodes a fresh room
    each time, which the change may then edit freely. A row this process wrote also keeps the
    engine state its ``state`` column was encoded from, and a row it read the state its views
    decoded from that column (``keep_state``); nothing edits either: the change is handed it
    to start from a ``copy()`` of it (the engines' contract, games/engines/base.py) instead of
    decoding and checking the column again."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._rows: dict[str, tuple[dict[str, Any], Any]] = {}
        self._lock = threading.Lock()

    def remember(self, room: Room, json_texts: dict[str, str], read: bool = False, state: Any = None) -> None:
        row = {f: json_texts.get(f, getattr(room, f)) for f in _ROOM_FIELDS}
        with self._lock:
            kept = self._rows.get(room.pk)
            if read and kept is not None and kept[0]["version"] >= room.version:
                return  # another thread wrote a newer row since this one was read
            self._rows.pop(room.pk, None)
            self._rows[room.pk] = (row, state)
            if len(self._rows) > self.size:
                del self._rows[next(iter(self._rows))]

    def keep_state(self, room_id: str, version: int, state: Any) -> None:
        """``state`` was decoded from the ``state`` of the room's row at ``version`` (a process
        reading another's change decodes it for its views): if that row is the kept one, the
        next change here starts from a copy of it instead of decoding the text again. Nothing
        may edit it from now on."""
        with self._lock:
            kept = self._rows.get(room_id)
            if kept is not None and kept[0]["version"] == version and kept[1] is None:
                self._rows[room_id] = (kept[0], state)

    def note_version(self, room_id: str, version: int) -> None:
        """This process saw ``version`` of the room (another process wrote it): forget older copies."""
        with self._lock:
            kept = self._rows.get(room_id)
            if kept is not None and kept[0]["version"] < version:
                del self._rows[room_id]

    def forget(self, room_id: str) -> None:
        with self._lock:
            self._rows.pop(room_id, None)

    def copy(self, room_id: str) -> tuple[Room, Any] | None:
        """A fresh room of the kept row, and the engine state its ``state`` column was encoded
        from (None: not kept), which the caller must not edit."""
        with self._lock:
            kept = self._rows.get(room_id)
        if kept is None:
            return None
        row, state = kept
        # from_db (Django's documented way to make an instance of a row read from the database):
        # the values in field order, which Model.__init__ takes far faster than by name.
        room: Room = Room.from_db("default", _ROOM_FIELDS, [
            jsontext.loads(v) if f in _ROOM_JSON_FIELDS and v is not None else v for f, v in row.items()])
        return room, state


written = WrittenRows(2000)


# --------------------------------------------------------------------------------------------
# Writing.

def _db_values(vendor: str, fields: list[Field[Any, Any]], values: dict[str, Any]) -> list[Any]:
    """The statement's parameters: each value as its column takes it. On PostgreSQL psycopg
    takes Python's values as they are (Django's conversions there return them unchanged, at a
    cost of most of the time spent here) and a JSON value goes as the text jsontext encodes (far
    faster than Django's encoder; cast to jsonb in the statement). On SQLite each field converts
    its value as the ORM does, JSON included: ``Cast(seats, TextField())`` searches
    (``service.rooms_of_user``) expect Django's text."""
    if vendor == "postgresql":
        return [jsontext.dumps(values[f.attname]) if isinstance(f, JSONField) and values[f.attname] is not None
                else values[f.attname] for f in fields]
    db = connections[DEFAULT_DB_ALIAS]
    return [f.get_db_prep_save(values[f.attname], db) for f in fields]


def _placeholder(field: Field[Any, Any], cast_json: bool) -> str:
    """A parameter, cast on PostgreSQL to its JSON column's type: ``json`` for a JSONTextField
    (kept as its text), else ``jsonb``."""
    if not (cast_json and isinstance(field, JSONField)):
        return "%s"
    return "%s::json" if isinstance(field, JSONTextField) else "%s::jsonb"


def _placeholders(fields: list[Field[Any, Any]], cast_json: bool) -> str:
    return ", ".join(_placeholder(f, cast_json) for f in fields)


def _inserted(model: type[Model]) -> tuple[list[Field[Any, Any]], str]:
    """The fields an insert into the model's table writes (all but a key the database makes),
    and its ``INSERT INTO table (columns)``."""
    fields = [f for f in model._meta.concrete_fields if not isinstance(f, AutoField)]
    return fields, f"INSERT INTO {model._meta.db_table} ({', '.join(f.column for f in fields)}) "


# The one write of a change, built once from the models' fields: no column list of its own. A
# change rewrites every column of the row but its key (those no change touches as they were
# read). Both backends run the same UPDATE and INSERTs, with the same parameters.
_CHANGED = [f for f in _ROOM if not f.primary_key]
_EVENT, _INSERT_EVENT = _inserted(RoomEvent)


def _update(cast_json: bool) -> str:
    return (f"UPDATE {Room._meta.db_table} SET "
            + ", ".join(f"{f.column} = {_placeholder(f, cast_json)}" for f in _CHANGED)
            + " WHERE id = %s AND version = %s")


# SQLite (the embedded default): the two statements in one short transaction.
_SQLITE_UPDATE = _update(False)
_SQLITE_INSERT_EVENT = _INSERT_EVENT + f"VALUES ({_placeholders(_EVENT, False)})"
# PostgreSQL: every change in one round trip. The same UPDATE and INSERT chained in one
# statement (atomic by itself), the INSERT selecting from the row the UPDATE wrote, so nothing
# is inserted when the version check fails. The ORM's transaction took four or five
# round trips (BEGIN, UPDATE, INSERTs, COMMIT), which under load was most of an action's cost.
# tests/rooms/test_it_writes_a_move_in_one_round_trip.py counts them.
_CHANGE_AND_EVENT = (
    f"WITH changed AS ({_update(True)} RETURNING id), "
    f"event AS ({_INSERT_EVENT}SELECT {_placeholders(_EVENT, True)} FROM changed RETURNING room_id) ")
_ONE_STATEMENT = _CHANGE_AND_EVENT + "SELECT room_id FROM event"
# A redoable change (``commit``) commits without waiting for its WAL flush: set_config(..., true)
# is SET LOCAL, for this statement's own transaction, and runs only when the row was written.
# The flush was a quarter of PostgreSQL's CPU per change (perf, bench/ws_load.py); the next
# change's flush, or the WAL writer within a fifth of a second, makes it durable.
_ONE_STATEMENT_REDOABLE = (
    _CHANGE_AND_EVENT + "SELECT room_id, set_config('synchronous_commit', 'off', true) FROM event")


# The statements prepared on each connection. By connection, not by thread: a thread served
# from Django's pool (config/env.py) takes whichever connection is free, and a connection
# keeps what was prepared on it whichever thread did it.
_prepared: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


def _numbered(statement: str) -> bytes:
    """The statement with libpq's numbered parameters ($1, $2...) for its ``%s``."""
    parts = statement.split("%s")
    return "".join(part + (f"${i}" if i < len(parts) else "") for i, part in enumerate(parts, 1)).encode()


def _text(value: Any) -> bytes | None:
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


def _run_prepared(db: BaseDatabaseWrapper, name: str, params: list[Any],
                  binary: bool = False) -> psycopg.pq.abc.PGresult:
    """Runs one of the rooms' statements (``_PREPARED``) straight through libpq, prepared once
    per connection (unless the connection prepares nothing: config/env.py's
    ``prepare_threshold``); PQexecPrepared lets go of the interpreter lock while it waits. The
    result comes in binary when ``binary``. psycopg's cursor, binding, sending and reading back
    the same statement in Python, was 5.7% of a server process's interpreter time (py-spy);
    without it the CPU per action went 1.31/1.21 -> 1.09/1.09 ms (bench/ws_load.py,
    alternated). Errors are psycopg's, as Django's."""
    db.ensure_connection()
    connection = db.connection
    prepared = _prepared.setdefault(connection, set())
    key, statement = _PREPARED[name]
    result_format = 1 if binary else 0
    with db.wrap_database_errors, connection.lock:
        values = [_text(p) for p in params]  # a refusal here is Django's DataError too
        pgconn = connection.pgconn
        result: psycopg.pq.abc.PGresult
        if connection.prepare_threshold is None:
            # DATABASE_URL's prepare_threshold=none: a pooler that cannot keep prepared statements
            result = pgconn.exec_params(statement, values, result_format=result_format)
        else:
            if name not in prepared:
                _check(connection, pgconn.prepare(key, statement))
                prepared.add(name)
            result = pgconn.exec_prepared(key, values, result_format=result_format)
        _check(connection, result)
        return result


def _check(connection: psycopg.Connection[Any], result: psycopg.pq.abc.PGresult) -> None:
    if result.status not in (psycopg.pq.ExecStatus.COMMAND_OK, psycopg.pq.ExecStatus.TUPLES_OK):
        raise psycopg.errors.error_from_result(result, encoding=connection.info.encoding)


def _write(db: BaseDatabaseWrapper, params: list[list[Any]], redoable: bool) -> bool:
    """Runs the change's statements (the room's UPDATE, the event's INSERT); True when the
    version check let them write."""
    if db.vendor == "postgresql":
        name = "rooms_change_redoable" if redoable else "rooms_change"
        # Server-side binding, prepared once per connection: Django's client-side binding quoted
        # the whole state text into the SQL in Python on every action, and PostgreSQL parsed and
        # planned it again each time (bench/ws_load.py). Errors still become Django's.
        result = _run_prepared(db, name, [p for part in params for p in part])
        return result.command_tuples == 1  # the rows the last of the chained statements wrote
    with transaction.atomic(), db.cursor() as cursor:
        cursor.execute(_SQLITE_UPDATE, params[0])
        if cursor.rowcount != 1:
            return False  # the room changed since it was read: nothing was written
        cursor.execute(_SQLITE_INSERT_EVENT, params[1])
    return True


def commit(room: Room, event: dict[str, Any], finished: dict[str, Any] | None, now: datetime,
           state: Any = None, redoable: bool = False) -> bool:
    """Writes the change made to ``room`` if its row is still at the version it was read at, with
    ``event`` as the new version's event; ``finished``: the ``game_finished`` record of the game
    the change finished. Then the room is at the new version, this process keeps the
    row (``written``: its next change of the room reads nothing) with ``state``, the engine
    state ``room.state`` holds (if the caller has it; nothing may edit it from now on), and
    ``game_finished`` is sent once the transaction (the caller's, if any) has committed.
    False: nothing was written.

    ``redoable``: the change follows from the row it started from alone, and that row keeps
    the due time that makes the scheduler redo it (``scheduler.py`` polls ``due_at`` every
    second): an automatic step. PostgreSQL then commits it without waiting for the WAL flush.
    If PostgreSQL itself crashes in the fifth of a second before that flush, the room is back
    at the version before the step, which is redone with the same result; a client that saw
    the lost version resyncs as from any room behind it (``events_after``). A change that
    finishes a game is never redoable: the game's records go out once it is durable."""
    db = connections[DEFAULT_DB_ALIAS]  # this thread's, looked up once (not per ``connection.x``)
    params = _change_params(db.vendor, room, event, now)
    written_now = _write(db, params, redoable and not finished)
    _after_write(room, params[0][:len(_CHANGED)], now, state, written_now)
    if written_now and finished:
        # At once in autocommit (the common case); after the commit inside a caller's transaction.
        transaction.on_commit(lambda: game_finished.send(sender=Room, record=_with_replay(room, finished)))
    return written_now


def _with_replay(room: Room, record: dict[str, Any]) -> dict[str, Any]:
    """The record, with the game's replay when a signed-in player will keep it (their own
    record, accounts/records.py): read from the game's events once they are committed."""
    if not any(seat["user_id"] is not None for seat in record["seats"]):
        return record
    return {**record, "replay": replays.record_replay(room)}


async def commit_on_loop(room: Room, event: dict[str, Any], finished: dict[str, Any] | None, now: datetime,
                         state: Any = None, redoable: bool = False) -> bool:
    """``commit`` from the event loop. On PostgreSQL the statement goes through the loop's own
    connections (games/rooms/loop_db.py), unless the change finishes a game: that one's
    records go out from the rooms' threads, as does every write on SQLite."""
    if finished or not loop_db.enabled():
        return await threads.call(commit, room, event, finished, now, state, redoable)
    params = _change_params("postgresql", room, event, now)
    key, statement = _PREPARED["rooms_change_redoable" if redoable else "rooms_change"]
    result = await loop_db.pool().run(key, statement, [_text(p) for part in params for p in part])
    written_now = result.command_tuples == 1
    _after_write(room, params[0][:len(_CHANGED)], now, state, written_now)
    return written_now


async def load_on_loop(room_id: str) -> Room:
    """``load`` from the event loop (on the rooms' threads: a change whose kept row was stale)."""
    return await threads.call(load, room_id)


def _change_params(vendor: str, room: Room, event: dict[str, Any], now: datetime) -> list[list[Any]]:
    """The parameters of a change's statements: the room's (its new values, then its key and
    the version it was read at) and the event's."""
    old = room.version
    values = {**{f.attname: getattr(room, f.attname) for f in _CHANGED}, "version": old + 1, "updated_at": now}
    params = [_db_values(vendor, _CHANGED, values) + [room.pk, old],
              _db_values(vendor, _EVENT, {"room_id": room.pk, "version": old + 1, "event": event, "created_at": now})]
    return params


def _after_write(room: Room, room_params: list[Any], now: datetime, state: Any, written_now: bool) -> None:
    """The room is at its new version and this process keeps the row, or (nothing written) forgets it."""
    if not written_now:
        written.forget(room.pk)
        return
    room.version, room.updated_at = room.version + 1, now
    # The JSON parameters are the columns' texts on either backend: the copy keeps them.
    written.remember(room, {f.attname: p for f, p in zip(_CHANGED, room_params, strict=True)
                            if isinstance(f, JSONField) and p is not None}, state=state)


def insert(room: Room) -> None:
    """A new room, at version 1, with its ``created`` event."""
    with transaction.atomic():
        room.save(force_insert=True)
        RoomEvent.objects.create(room=room, version=1, event={"type": "created"})


# --------------------------------------------------------------------------------------------
# Reading another process's change.

# Django's ORM took more CPU to build this query than PostgreSQL took to run it (profiles of
# bench/ws_load.py --spread): one statement, prepared on PostgreSQL, the same on SQLite.
_READ_WITH_EVENT = (
    "SELECT " + ", ".join(f"r.{f.column}" for f in _ROOM) + ", e.event "
    f"FROM {Room._meta.db_table} r LEFT JOIN {RoomEvent._meta.db_table} e "
    "ON e.room_id = r.id AND e.version = r.version WHERE r.id = %s")


def _fetch_one(db: BaseDatabaseWrapper, statement: str, params: list[Any]) -> tuple[Any, ...] | None:
    """One row, as psycopg would return it (a JSON column as its text, on both backends:
    Django's loader on PostgreSQL)."""
    if db.vendor == "postgresql":
        return _binary_row(_run_prepared(db, "rooms_read_with_event", params, binary=True))
    with db.cursor() as cursor:
        cursor.execute(statement, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row


def _binary_row(result: psycopg.pq.abc.PGresult) -> tuple[Any, ...] | None:
    if result.ntuples == 0:
        return None
    return tuple(_value(result.ftype(i), result.get_value(0, i)) for i in range(result.nfields))


_PREPARED = {name: (name.encode(), _numbered(text)) for name, text in (
    ("rooms_change", _ONE_STATEMENT), ("rooms_change_redoable", _ONE_STATEMENT_REDOABLE),
("rooms_read_with_event", _READ_WITH_EVENT))}
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


Converter = Callable[[Any, Any, Any], Any]
# Per backend: the room's columns that the ORM converts after reading (index, column,
# converters), JSON columns aside (``jsontext.loads`` decodes those).
_conversions: dict[str, list[tuple[int, Any, list[Converter]]]] = {}


def _converted_columns(db: BaseDatabaseWrapper) -> list[tuple[int, Any, list[Converter]]]:
    """The backend's and the fields' own conversions of the room's non-JSON columns, as
    Django's query compiler applies them (a time read from SQLite is text), listed once per
    backend: on PostgreSQL none. Looking them up per column and read (a field's hash is
    computed in Python) was a third of the cross-process read's CPU: 47 of 150 µs."""
    converted = _conversions.get(db.vendor)
    if converted is None:
        converted = []
        for i, field in enumerate(_ROOM):
            if field.attname in _ROOM_JSON_FIELDS:
                continue
            column = field.get_col(field.model._meta.db_table)
            converters = db.ops.get_db_converters(column) + field.get_db_converters(db)
            if converters:
                converted.append((i, column, converters))
        _conversions[db.vendor] = converted
    return converted


_JSON_COLUMNS = [i for i, f in enumerate(_ROOM) if f.attname in _ROOM_JSON_FIELDS]


def load_with_event(room_id: str) -> tuple[Room, dict[str, Any] | None]:
    """The room and the event that made its version, in one query: what a process reads when
    another one changed the room. The row read becomes this process's copy to change the room
    from, as one it wrote would, so its own next change reads nothing more: a room played
    across processes costs two round trips a change instead of four (bench/ws_load.py
    --spread)."""
    if "\x00" in room_id:
        raise _no_such_room()
    db = connections[DEFAULT_DB_ALIAS]
    return _room_with_event(db, _fetch_one(db, _READ_WITH_EVENT, [room_id]))


async def load_with_event_on_loop(room_id: str) -> tuple[Room, dict[str, Any] | None]:
    """``load_with_event`` from the event loop: on PostgreSQL through the loop's own connections
    (games/rooms/loop_db.py), else on the rooms' threads."""
    if not loop_db.enabled():
        return await threads.call(load_with_event, room_id)
    if "\x00" in room_id:
        raise _no_such_room()
    key, statement = _PREPARED["rooms_read_with_event"]
    result = await loop_db.pool().run(key, statement, [_text(room_id)], binary=True)
    return _room_with_event(connections[DEFAULT_DB_ALIAS], _binary_row(result))


def _room_with_event(db: BaseDatabaseWrapper, row: tuple[Any, ...] | None) -> tuple[Room, dict[str, Any] | None]:
    if row is None:
        raise _no_such_room()
    *values, event_text = row
    texts: dict[str, str] = {}
    for i in _JSON_COLUMNS:
        if (text := values[i]) is not None:
            texts[_ROOM_FIELDS[i]] = text
            values[i] = jsontext.loads(text)
    for i, column, converters in _converted_columns(db):
        if (value := values[i]) is not None:
            for convert in converters:
                value = convert(value, column, db)
            values[i] = value
    room: Room = Room.from_db(DEFAULT_DB_ALIAS, _ROOM_FIELDS, values)
    event = jsontext.loads(event_text) if event_text is not None else None
    written.remember(room, texts, read=True)
    return room, event
