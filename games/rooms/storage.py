"""A room's row and its events: reading them, and the one write of every change.

``load`` reads a room; ``load_with_event`` reads it with the event that made its version (what a
process reads after another process changed the room); ``events_after`` the events a
reconnecting client missed. ``insert`` writes a new room with its first event. ``commit`` writes
a change: the version-checked UPDATE of the row and the event row of the new version, together
or not at all; when the change finished a game, ``game_finished`` goes out once that has
committed (the operators' copy of the game waits for the hourly flush: games/finished.py).
Both hand back the JSON columns' texts they wrote or read, which this process's cache of the
room keeps (cache.py) for its next change to start from. From the event loop,
``commit_on_loop`` and ``load_with_event_on_loop`` run the same statements, on PostgreSQL
through the loop's own connections (loop_db.py), else on the rooms' threads (db.py). On
PostgreSQL the statements go straight through libpq (pg_wire.py).

The commands (``service.py``) decide what a change is and never write a row themselves; the
searches that only find rooms (``steps.due_rooms``, ``service.rooms_of_user``,
``processes.rooms_counting``) and the idle rooms' deletion (``cleanup.py``) query them too.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import AutoField, Field, JSONField, Model

from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.models import JSONTextField, Room, RoomEvent
from games.rooms import jsontext, loop_db, pg_wire, replays
from games.rooms.db import threads
from games.signals import game_finished

REPLAY_LIMIT = 200  # a client further behind than this gets a full resync instead of events

_ROOM = Room._meta.concrete_fields
_ROOM_FIELDS = [f.attname for f in _ROOM]  # a row's values, in the order ``Room.from_db`` takes
_ROOM_JSON_FIELDS = {f.attname for f in _ROOM if isinstance(f, JSONField)}

# A row's JSON columns as their texts, by field (a null column is absent): what a change wrote
# or a read found, which this process's cache keeps for the room's next change (cache.py).
Texts = dict[str, str]


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
# tests/rooms/test_storage_round_trips.py counts them.
_CHANGE_AND_EVENT = (
    f"WITH changed AS ({_update(True)} RETURNING id), "
    f"event AS ({_INSERT_EVENT}SELECT {_placeholders(_EVENT, True)} FROM changed RETURNING room_id) ")
_ONE_STATEMENT = _CHANGE_AND_EVENT + "SELECT room_id FROM event"
# A redoable change (``commit``) commits without waiting for its WAL flush: set_config(..., true)
# is SET LOCAL, for this statement's own transaction, and runs only when the row was written.
# The flush was a quarter of PostgreSQL's CPU per change
# (bench/results/2026-12-02-libpq-and-async-commit.md); the next
# change's flush, or the WAL writer within a fifth of a second, makes it durable.
_ONE_STATEMENT_REDOABLE = (
    _CHANGE_AND_EVENT + "SELECT room_id, set_config('synchronous_commit', 'off', true) FROM event")


def _write(db: BaseDatabaseWrapper, params: list[list[Any]], redoable: bool) -> bool:
    """Runs the change's statements (the room's UPDATE, the event's INSERT); True when the
    version check let them write."""
    if db.vendor == "postgresql":
        name = "rooms_change_redoable" if redoable else "rooms_change"
        # Server-side binding, prepared once per connection: Django's client-side binding quoted
        # the whole state text into the SQL in Python on every action, and PostgreSQL parsed and
        # planned it again each time (bench/results/2026-12-01-prepared-statements.md). Errors still
        # become Django's.
        key, statement = _PREPARED[name]
        result = pg_wire.run_prepared(db, key, statement, [p for part in params for p in part])
        return result.command_tuples == 1  # the rows the last of the chained statements wrote
    with transaction.atomic(), db.cursor() as cursor:
        cursor.execute(_SQLITE_UPDATE, params[0])
        if cursor.rowcount != 1:
            return False  # the room changed since it was read: nothing was written
        cursor.execute(_SQLITE_INSERT_EVENT, params[1])
    return True


def commit(room: Room, event: dict[str, Any], finished: dict[str, Any] | None, now: datetime,
           redoable: bool = False) -> Texts | None:
    """Writes the change made to ``room`` if its row is still at the version it was read at, with
    ``event`` as the new version's event; ``finished``: the ``game_finished`` record of the game
    the change finished. Then the room is at the new version, ``game_finished`` is sent once
    the transaction (the caller's, if any) has committed, and the JSON columns' texts as written
    are returned (for this process's cache: its next change of the room reads nothing). None:
    nothing was written.

    ``redoable``: the change follows from the row it started from alone, and that row keeps
    the due time that makes the scheduler redo it (``scheduler.py`` polls ``due_at`` every
    second): an automatic step. PostgreSQL then commits it without waiting for the WAL flush.
    If PostgreSQL itself crashes in the fifth of a second before that flush, the room is back
    at the version before the step, which is redone with the same result; a client that saw
    the lost version resyncs as from any room behind it (``events_after``). A change that
    finishes a game is never redoable: the game's records go out once it is durable."""
    db = connections[DEFAULT_DB_ALIAS]  # this thread's, looked up once (not per ``connection.x``)
    params = _change_params(db.vendor, room, event, now)
    texts = _written(room, params[0], now) if _write(db, params, redoable and not finished) else None
    if texts is not None and finished:
        # At once in autocommit (the common case); after the commit inside a caller's transaction.
        transaction.on_commit(lambda: game_finished.send(sender=Room, record=_with_replay(room, finished)))
    return texts


def _with_replay(room: Room, record: dict[str, Any]) -> dict[str, Any]:
    """The record, with the game's replay when a signed-in player will keep it (their own
    record, accounts/records.py): read from the game's events once they are committed."""
    if not any(seat["user_id"] is not None for seat in record["seats"]):
        return record
    return {**record, "replay": replays.record_replay(room)}


async def commit_on_loop(room: Room, event: dict[str, Any], finished: dict[str, Any] | None, now: datetime,
                         redoable: bool = False) -> Texts | None:
    """``commit`` from the event loop. On PostgreSQL the statement goes through the loop's own
    connections (games/rooms/loop_db.py), unless the change finishes a game: that one's
    records go out from the rooms' threads, as does every write on SQLite."""
    if finished or not loop_db.enabled():
        return await threads.call(commit, room, event, finished, now, redoable)
    params = _change_params("postgresql", room, event, now)
    key, statement = _PREPARED["rooms_change_redoable" if redoable else "rooms_change"]
    result = await loop_db.pool().run(key, statement, [pg_wire.text(p) for part in params for p in part])
    # command_tuples: the rows the last of the chained statements wrote
    return _written(room, params[0], now) if result.command_tuples == 1 else None


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


def _written(room: Room, room_params: list[Any], now: datetime) -> Texts:
    """The room is at its new version; its JSON columns' texts as written (the JSON parameters,
    which come first, in ``_CHANGED``'s order, are the columns' texts on either backend)."""
    room.version, room.updated_at = room.version + 1, now
    return {f.attname: p for f, p in zip(_CHANGED, room_params, strict=False)
            if isinstance(f, JSONField) and p is not None}


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
        key, prepared = _PREPARED["rooms_read_with_event"]
        return pg_wire.binary_row(pg_wire.run_prepared(db, key, prepared, params, binary=True))
    with db.cursor() as cursor:
        cursor.execute(statement, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row


# Each prepared statement: its name on a connection, and its text with libpq's parameters.
_PREPARED = {name: (name.encode(), pg_wire.numbered(text)) for name, text in (
    ("rooms_change", _ONE_STATEMENT), ("rooms_change_redoable", _ONE_STATEMENT_REDOABLE),
    ("rooms_read_with_event", _READ_WITH_EVENT))}
Converter = Callable[[Any, Any, Any], Any]
# Per backend: the room's columns that the ORM converts after reading (index, column,
# converters), JSON columns aside (``jsontext.loads`` decodes those).
_conversions: dict[str, list[tuple[int, Any, list[Converter]]]] = {}


def _converted_columns(db: BaseDatabaseWrapper) -> list[tuple[int, Any, list[Converter]]]:
    """The backend's and the fields' own conversions of the room's non-JSON columns, as
    Django's query compiler applies them (a time read from SQLite is text), listed once per
    backend: on PostgreSQL none. Looking them up per column and read (a field's hash is
    computed in Python) was a third of the cross-process read's CPU (figures:
    bench/results/2026-12-04-sixteen-cores-afternoon.md)."""
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


def load_with_event(room_id: str) -> tuple[Room, dict[str, Any] | None, Texts]:
    """The room, the event that made its version and its JSON columns' texts, in one query:
    what a process reads when another one changed the room (cache.py keeps it)."""
    if "\x00" in room_id:
        raise _no_such_room()
    db = connections[DEFAULT_DB_ALIAS]
    return _room_with_event(db, _fetch_one(db, _READ_WITH_EVENT, [room_id]))


async def load_with_event_on_loop(room_id: str) -> tuple[Room, dict[str, Any] | None, Texts]:
    """``load_with_event`` from the event loop: on PostgreSQL through the loop's own connections
    (games/rooms/loop_db.py), else on the rooms' threads."""
    if not loop_db.enabled():
        return await threads.call(load_with_event, room_id)
    if "\x00" in room_id:
        raise _no_such_room()
    key, statement = _PREPARED["rooms_read_with_event"]
    result = await loop_db.pool().run(key, statement, [pg_wire.text(room_id)], binary=True)
    return _room_with_event(connections[DEFAULT_DB_ALIAS], pg_wire.binary_row(result))


def _room_with_event(db: BaseDatabaseWrapper, row: tuple[Any, ...] | None) -> tuple[Room, dict[str, Any] | None, Texts]:
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
    return room, event, texts
