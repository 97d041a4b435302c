"""What the database does for each change of a room, counted: on PostgreSQL every change a
process makes to a room it wrote last (a move, Memory's conceal, the move that finishes the
game, play again) is one round trip, one statement (the version-checked UPDATE and the event
row together), with no read of the row first; on SQLite (the embedded default) the ORM's
transaction of the UPDATE and INSERT, no read either. The operators' copy of a finished game
is not written with the change: it waits in memory for the hourly flush (games/finished.py).

PostgreSQL's round trips are counted on the wire, with libpq's protocol trace of the test's
connection: every exchange with the server ends with its ReadyForQuery message. SQLite's
statements are the ones Django's connection executes."""
from __future__ import annotations

import asyncio
import contextlib
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.finished import copies
from games.models import FinishedGame, Room, RoomEvent
from games.rooms import cache, creation, pg_wire, registry, service, steps, storage
from tests.rooms.helpers import message_type, protocol_trace

pytestmark = pytest.mark.django_db(transaction=True)


class Calls:
    count = 0


@contextlib.contextmanager
def database_calls():
    """Counts PostgreSQL round trips, or SQLite statements, made on this thread's connection."""
    calls = Calls()
    connection.ensure_connection()
    if connection.vendor == "postgresql":
        with protocol_trace() as messages:
            yield calls
        calls.count = sum(1 for m in messages if message_type(m) == "ReadyForQuery")
    else:
        with CaptureQueriesContext(connection) as queries:
            yield calls
        calls.count = len(queries.captured_queries)


def expected() -> int:
    # PostgreSQL: one statement; SQLite: BEGIN IMMEDIATE, UPDATE room, INSERT event, COMMIT
    return 1 if connection.vendor == "postgresql" else 4


def next_change(room: Room, rng: random.Random):
    """The change a player would make now: a random legal flip, or the conceal when it is due."""
    state = registry.engine("memory").State.from_json(room.state)
    if state.pending_automatic():
        return lambda: steps.run_step(room.id)
    seat = state.current_player
    return lambda: service.act(room.id, [seat], rng.choice(state.legal_actions(seat)), seat, room.version)


def play_game(room: Room) -> tuple[Room, list[tuple[int, int]]]:
    """Plays to the end; returns the finished room and (database calls, expected) per change."""
    counts, rng = [], random.Random(1)
    while room.status == "playing":
        change = next_change(room, rng)
        with database_calls() as calls:
            outcome = change()
        assert outcome.changed
        room = outcome.room
        counts.append((calls.count, expected()))
    return room, counts


def test_it_writes_every_change_of_a_game_in_one_round_trip(settings):
    settings.GAME_DELAYS = {**settings.GAME_DELAYS, "memory_conceal": 0.0}
    room, token = creation.create_room("memory", "friends", {"cards": 24})
    service.join(room.id, None)
    room = service.hello(room.id, token, None).room
    # The first game prepares each statement on this connection (one round trip more, once).
    room, _ = play_game(room)
    with database_calls() as calls:
        room = service.play_again(room.id, [0]).room
    assert calls.count == expected()

    room, counts = play_game(room)

    assert len(counts) > 24  # flips, conceals and the finishing move
    assert [c for c, _ in counts] == [e for _, e in counts]
    # Nothing was left out of the one statement: every version has its event, and the row is
    # what the last change made it. The finished games' operators' copies wait for the flush.
    assert list(RoomEvent.objects.filter(room_id=room.id).order_by("version")
                .values_list("version", flat=True)) == list(range(1, room.version + 1))
    assert (FinishedGame.objects.count(), len(copies.held())) == (0, 2)
    stored = Room.objects.get(pk=room.id)
    assert (stored.version, stored.status, stored.state) == (room.version, "finished", room.state)


def test_it_reads_another_processes_change_in_one_round_trip_and_changes_on_from_it(settings):
    settings.GAME_DELAYS = {**settings.GAME_DELAYS, "memory_conceal": 0.0}
    room, token = creation.create_room("memory", "friends", {"cards": 24})
    service.join(room.id, None)
    room = service.hello(room.id, token, None).room
    room, _ = play_game(room)  # prepares the statements on this connection
    room = service.play_again(room.id, [0]).room
    rng = random.Random(2)
    for _ in range(3):
        room = next_change(room, rng)().room
    # As after another process's change: this process holds no copy of the row it may change.
    assert cache.copy(room.id) is not None
    storage.load_with_event(room.id)  # prepares the read on this connection (its first call parses it)
    cache.forget(room.id)
    last_event = RoomEvent.objects.get(room_id=room.id, version=room.version).event

    with database_calls() as calls:
        read, event, _ = storage.load_with_event(room.id)
    assert calls.count == 1  # the row and its event together
    # Every JSON column decoded as the ORM would (the read is raw SQL on PostgreSQL).
    assert (read.version, read.state, read.session, event) == (
        room.version, room.state, room.session, last_event)
    assert Room.objects.get(pk=room.id).session == room.session is not None

    # The row a notice of the change reads into this process's cache is the copy the next
    # change starts from: no read before the write.
    assert asyncio.run(cache.latest(room.id)).version == read.version
    with database_calls() as calls:
        room = next_change(read, rng)().room
    assert calls.count == expected()
    assert Room.objects.get(pk=room.id).version == read.version + 1


@pytest.mark.services
@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_it_prepares_the_change_and_the_read_once_per_connection():
    """The change and the read are named prepared statements of the connection, parsed and
    planned once: Django's default (psycopg's prepare_threshold None) would silently send them
    unprepared every time, which was a third of PostgreSQL's CPU per move (config/env.py)."""
    room, token = creation.create_room("memory", "friends", {"cards": 24})
    service.join(room.id, None)
    service.hello(room.id, token, None)
    cache.forget(room.id)
    storage.load_with_event(room.id)
    prepared = [text for (text,) in connection.connection.execute(
        "SELECT statement FROM pg_prepared_statements WHERE NOT from_sql").fetchall()]
    assert any(text.startswith("WITH changed AS (UPDATE games_room") for text in prepared), prepared
    assert any(text.startswith("SELECT r.id") and "LEFT JOIN games_roomevent" in text for text in prepared), prepared


@pytest.mark.services
@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_it_prepares_nothing_where_the_connection_may_not():
    """DATABASE_URL's ``prepare_threshold=none`` (behind a pooler in transaction mode, which
    cannot keep prepared statements): the rooms' change and read are sent whole each time."""
    connection.close()
    connection.ensure_connection()
    # Page requests borrow from a pool (DB_POOL_MAX): the connection may come back with what an
    # earlier test prepared on it, so it starts from none.
    connection.connection.execute("DEALLOCATE ALL")
    pg_wire._prepared.pop(connection.connection, None)
    connection.connection.prepare_threshold = None
    try:
        room, token = creation.create_room("memory", "friends", {"cards": 24})
        service.join(room.id, None)
        service.hello(room.id, token, None)
        read, _, _ = storage.load_with_event(room.id)
        assert read.version == Room.objects.get(pk=room.id).version == 3
        assert connection.connection.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE NOT from_sql").fetchone() == (0,)
    finally:
        connection.close()
