"""A move made from the event loop (the consumers' and the scheduler's ``command.on_loop``) is
the same change as one made on a thread: on PostgreSQL its write, and the read of another
process's change, go through the loop's own connections (games/rooms/loop_db.py) without a
hop to the rooms' threads; a move that finishes a game, and every write on SQLite, go to the
threads. A statement's error leaves its connection in use; a connection the server dropped
costs one refused change, and the next connects again."""
from __future__ import annotations

import asyncio
import random

import pytest
from django.db import connection

from games.engines.base import GameError
from games.finished import copies
from games.models import FinishedGame, Room, RoomEvent
from games.rooms import creation, loop_db, registry, service, steps, storage
from games.rooms.db import threads

pytestmark = pytest.mark.django_db(transaction=True)


def seated_room(cards: int = 24) -> Room:
    room, token = creation.create_room("memory", "friends", {"cards": cards})
    service.join(room.id, None)
    return service.hello(room.id, token, None).room


async def next_move(room: Room, rng: random.Random):
    """A random legal flip, or the conceal when it is due, made from the event loop."""
    state = registry.engine("memory").State.from_json(room.state)
    if state.pending_automatic():
        return await steps.run_step.on_loop(room.id)
    seat = state.current_player
    return await service.act.on_loop(room.id, [seat], rng.choice(state.legal_actions(seat)), seat, room.version)


class ThreadCalls:
    """The functions handed to the rooms' threads."""

    def __init__(self, monkeypatch) -> None:
        self.names: list[str] = []
        call = threads.call

        async def counted(function, *args, **kwargs):
            self.names.append(function.__name__)
            return await call(function, *args, **kwargs)
        monkeypatch.setattr(threads, "call", counted)


def test_it_plays_a_game_from_the_loop_as_on_a_thread(settings, monkeypatch):
    settings.GAME_DELAYS = {**settings.GAME_DELAYS, "memory_conceal": 0.0}
    room = seated_room()
    calls = ThreadCalls(monkeypatch)

    async def play() -> Room:
        rng, current = random.Random(3), room
        while current.status == "playing":
            outcome = await next_move(current, rng)
            assert outcome.changed
            current = outcome.room
        return current

    finished = asyncio.run(play())

    stored = Room.objects.get(pk=room.id)
    assert (stored.version, stored.status, stored.state) == (finished.version, "finished", finished.state)
    assert list(RoomEvent.objects.filter(room_id=room.id).order_by("version")
                .values_list("version", flat=True)) == list(range(1, finished.version + 1))
    assert (FinishedGame.objects.count(), len(copies.held())) == (0, 1)  # the copy waits for the flush
    if connection.vendor == "postgresql":
        assert calls.names == ["commit"]  # the finishing move alone: its records go out from a thread
    else:
        assert calls.names == ["commit"] * (finished.version - room.version)


def test_it_refuses_a_stale_version_from_the_loop_and_writes_nothing():
    room = seated_room()
    state = registry.engine("memory").State.from_json(room.state)
    seat = state.current_player
    flip = state.legal_actions(seat)[0]

    with pytest.raises(GameError) as refused:
        asyncio.run(service.act.on_loop(room.id, [seat], flip, seat, room.version - 1))

    assert refused.value.code == "stale_version"
    assert Room.objects.get(pk=room.id).version == room.version


def test_it_reads_another_processes_change_from_the_loop_as_on_a_thread():
    room = seated_room()
    on_thread = storage.load_with_event(room.id)
    on_loop = asyncio.run(storage.load_with_event_on_loop(room.id))

    assert [(r.version, r.state, r.seats, r.session, r.due_at, r.updated_at) for r, _, _ in (on_thread, on_loop)] == \
        [(room.version, room.state, room.seats, room.session, room.due_at, on_thread[0].updated_at)] * 2
    assert on_loop[1] == on_thread[1] == RoomEvent.objects.get(room_id=room.id, version=room.version).event
    assert on_loop[2] == on_thread[2]  # the JSON columns' texts, which the cache keeps
    with pytest.raises(GameError) as missing:
        asyncio.run(storage.load_with_event_on_loop("no-such-room"))
    assert missing.value.code == "room_not_found"


postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql",
                                     reason="the loop's own connections are PostgreSQL's")


@pytest.mark.services
@postgresql_only
def test_it_keeps_a_connection_after_a_statements_own_error():
    room = seated_room()

    async def error_then_move() -> tuple[int, int]:
        pool = loop_db.pool()
        key, statement = b"not_a_column", b"SELECT no_such_column FROM games_room"
        with pytest.raises(Exception) as failed:
            await pool.run(key, statement, [])
        assert "no_such_column" in str(failed.value)
        first = pool._idle[0].pgconn.backend_pid
        await next_move(room, random.Random(1))
        return first, pool._idle[0].pgconn.backend_pid

    before, after = asyncio.run(error_then_move())
    assert before == after  # the same connection served the move
    assert Room.objects.get(pk=room.id).version == room.version + 1


@pytest.mark.services
@postgresql_only
def test_it_refuses_at_most_one_change_when_the_server_drops_the_connection():
    room = seated_room()
    rng = random.Random(2)

    async def moves() -> tuple[list[str], Room]:
        pool = loop_db.pool()
        current = (await next_move(room, rng)).room
        pid = pool._idle[0].pgconn.backend_pid
        await asyncio.to_thread(_terminate, pid)
        refused = []
        for _ in range(2):
            try:
                current = (await next_move(current, rng)).room
                break
            except GameError as exc:
                refused.append(exc.code)
        assert pool._idle[0].pgconn.backend_pid != pid
        return refused, current

    refused, current = asyncio.run(moves())
    # Refused when the loop had not yet read that the server closed it; else not even that.
    assert refused in ([], ["unavailable"])
    assert Room.objects.get(pk=room.id).version == current.version == room.version + 2


def _terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    connection.close()


@pytest.mark.services
@postgresql_only
def test_it_drops_a_connection_whose_caller_stopped_waiting():
    async def cancelled() -> tuple[int, int]:
        pool = loop_db.pool()
        key, statement = b"slow", b"SELECT pg_sleep(5)"
        waiting = asyncio.ensure_future(pool.run(key, statement, []))
        await asyncio.sleep(0.2)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        left = len(pool._idle)
        result = await pool.run(b"one", b"SELECT 1", [])
        return left, int(result.get_value(0, 0))

    left, one = asyncio.run(cancelled())
    assert (left, one) == (0, 1)  # the half-read connection was closed, a new one answered


async def _prepared_on_loop_connection(room: Room) -> list[str]:
    """Makes a move from the loop, then lists the statements its connection has prepared."""
    await next_move(room, random.Random(4))
    result = await loop_db.pool().run(b"", b"SELECT name FROM pg_prepared_statements WHERE NOT from_sql", [])
    return sorted(result.get_value(i, 0).decode() for i in range(result.ntuples))


@pytest.mark.services
@postgresql_only
def test_it_prepares_the_moves_statement_once_on_the_loops_connection():
    room = seated_room()
    assert asyncio.run(_prepared_on_loop_connection(room)) == ["rooms_change"]


@pytest.mark.services
@postgresql_only
def test_it_prepares_nothing_on_the_loops_connection_where_the_database_url_says_so(monkeypatch):
    """DATABASE_URL's ``prepare_threshold=none`` (a pooler in transaction mode) holds for the
    loop's connections too: the move is sent whole."""
    room = seated_room()
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "prepare_threshold", None)
    assert asyncio.run(_prepared_on_loop_connection(room)) == []
    assert Room.objects.get(pk=room.id).version == room.version + 1
