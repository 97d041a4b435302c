"""games/rooms/storage.py writes every change with its own statements, built from the models'
fields (one statement on PostgreSQL, the same UPDATE and INSERTs in a transaction on SQLite).
What it writes must be what Django reads back: every column of the row, the event and the
operators' copy of a finished game, and the texts and times that the rooms' searches compare
(the seats' JSON text, the due time). Run on either backend (TEST_BACKEND)."""
from __future__ import annotations

import pytest
from django.db import DataError, connection
from django.db.models import JSONField
from django.utils import timezone

from games.engines import memory
from games.engines.base import GameError
from games.models import FinishedGame, Room, RoomEvent
from games.rooms import cache, creation, jsontext, service, steps, storage
from server import hourly_buffer

pytestmark = pytest.mark.django_db(transaction=True)

USER = 424242


def columns(room: Room) -> dict:
    return {f.attname: getattr(room, f.attname) for f in Room._meta.concrete_fields}


def test_it_stores_each_column_of_a_change_as_the_orm_reads_it():
    room, token = creation.create_room("memory", "cpu", {"cards": 24})
    outcome = service.hello(room.id, token, USER)  # binds the account to seat 0
    assert outcome.changed

    stored = Room.objects.get(pk=room.id)
    assert columns(stored) == columns(outcome.room)
    assert (stored.version, stored.created_at) == (2, room.created_at)
    assert stored.updated_at > room.created_at
    # The copy this process keeps is the same row: the next change starts from it.
    assert columns(cache.copy(room.id)[0]) == columns(stored)
    assert RoomEvent.objects.get(room_id=room.id, version=2).event == outcome.event
    # The searches that compare the stored text and times find the room.
    assert service.rooms_of_user(USER) == [room.id]
    assert stored.due_at is None or room.id in dict(steps.due_rooms(stored.due_at))


def test_it_finds_an_accounts_seat_in_text_the_orm_wrote_too():
    # A room's JSON columns keep the text they were written as: the ORM's (a space after each
    # colon) where Django saved the row, the change statement's (none) after a change.
    room, token = creation.create_room("memory", "cpu", {"cards": 24})
    seats = Room.objects.get(pk=room.id).seats
    seats[0]["user"] = USER
    Room.objects.filter(pk=room.id).update(seats=seats)
    assert service.rooms_of_user(USER) == [room.id]
    assert service.rooms_of_user(USER // 10) == []  # 42424 is in the text, not in a seat


def test_it_keeps_a_finished_games_copy_for_the_hourly_flush_not_with_the_change():
    room, token = creation.create_room("memory", "cpu", {"cards": 24})
    service.hello(room.id, token, None)
    outcome = service.resign(room.id, [0])

    stored = Room.objects.get(pk=room.id)
    assert (stored.status, stored.result) == ("finished", outcome.room.result)
    assert columns(stored) == columns(outcome.room)
    # Written with the change, the copy would share its transaction (games/finished.py).
    assert not FinishedGame.objects.exists()
    assert hourly_buffer.flush() == {"finished games": 1}
    kept = FinishedGame.objects.get()
    assert (kept.game, kept.mode, kept.options, kept.cpu_level) == ("memory", "cpu", room.options, room.cpu_level)
    assert kept.seats == [{"seat": 0, "holder": "human", "result": "loss", "rank": 2, "resigned": True},
                          {"seat": 1, "holder": "cpu", "result": "win", "rank": 1, "resigned": False}]
    assert kept.finished_at == stored.updated_at.replace(minute=0, second=0, microsecond=0)
    assert RoomEvent.objects.get(room_id=room.id, version=stored.version).event == {
        "type": "resign", "seat": 0}


def test_it_writes_nothing_when_the_row_moved_on():
    room, token = creation.create_room("memory", "cpu", {"cards": 24})
    stale = Room.objects.get(pk=room.id)
    service.hello(room.id, token, None)  # version 2

    stale.status = "finished"
    assert storage.commit(stale, {"type": "room"}, None, timezone.now()) is None

    assert stale.version == 1
    assert Room.objects.get(pk=room.id).status == "playing"
    assert list(RoomEvent.objects.filter(room_id=room.id).values_list("version", flat=True)
                .order_by("version")) == [1, 2]


def test_it_reads_a_room_another_process_changed_as_the_orm_reads_it():
    """``load_with_event`` (a notice of another process's change) reads the row and its event
    with one statement of its own: the same values as Django's, every column and the times
    included, and the JSON columns' texts the cache keeps (games/rooms/cache.py)."""
    room, token = creation.create_room("memory", "cpu", {"cards": 24})
    outcome = service.hello(room.id, token, USER)

    read, event, texts = storage.load_with_event(room.id)

    stored = Room.objects.get(pk=room.id)
    assert columns(read) == columns(stored)
    assert read.updated_at.tzinfo is not None and read.created_at == room.created_at
    assert event == RoomEvent.objects.get(room_id=room.id, version=stored.version).event == outcome.event
    assert {f: jsontext.loads(text) for f, text in texts.items()} == {
        f.attname: getattr(stored, f.attname) for f in Room._meta.concrete_fields
        if isinstance(f, JSONField) and getattr(stored, f.attname) is not None}


def test_it_reads_no_room_that_is_not_there():
    for room_id in ("no-such-room", "nul\x00"):
        with pytest.raises(GameError) as refused:
            storage.load_with_event(room_id)
        assert refused.value.code == "room_not_found"


def test_it_keeps_the_rooms_json_columns_as_the_text_it_wrote():
    # PostgreSQL keeps them as ``json`` (games/models.py's JSONTextField: the text is checked, not
    # parsed into jsonb, on every change); the ORM and the rooms' own reads decode them alike.
    room, token = creation.create_room("memory", "cpu", {"cards": 24}, "hard")
    service.hello(room.id, token, None)
    # A change of the state: the player's flip, or the CPU's when it opens the game.
    if memory.State.from_json(storage.load(room.id).state).current_player == 0:
        outcome = service.act(room.id, [0], {"type": "flip", "pos": "A1"})
    else:
        outcome = steps.run_step(room.id)
    assert outcome.room.cpus  # the CPU seat's memory, written by the change
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT column_name, data_type FROM information_schema.columns "
                           "WHERE table_name IN ('games_room', 'games_roomevent') AND data_type LIKE 'json%%'")
            columns_types = dict(cursor.fetchall())
            cursor.execute("SELECT state, cpus, seats, options FROM games_room WHERE id = %s", [room.id])
            texts = cursor.fetchone()
        assert columns_types == {"state": "json", "cpus": "json", "seats": "json", "options": "json",
                                 "result": "json", "session": "json", "event": "json", "turns": "json",
                                 "fairness": "json"}
        # The very text the change sent: no spaces jsonb's output would add.
        assert texts == tuple(jsontext.dumps(getattr(outcome.room, f)) for f in ("state", "cpus", "seats", "options"))
    stored = Room.objects.get(pk=room.id)
    fields = ("state", "cpus", "seats", "options", "result", "session")
    assert [getattr(stored, f) for f in fields] == [getattr(outcome.room, f) for f in fields]
    assert storage.load_with_event(room.id)[0].state == outcome.room.state



@pytest.mark.skipif(connection.vendor != "postgresql", reason="the change goes to libpq on PostgreSQL only")
def test_it_refuses_a_value_its_column_cannot_hold_and_writes_nothing():
    # The change goes to libpq as text, which would silently cut a NUL short: it is refused as
    # psycopg refuses it. A text too long for its column is PostgreSQL's refusal.
    room, token = creation.create_room("memory", "cpu", {"cards": 24})
    service.hello(room.id, token, None)
    for bad in ("medium\x00", "x" * 17):
        changed = cache.copy(room.id)[0]
        changed.cpu_level = bad
        with pytest.raises(DataError):
            storage.commit(changed, {"type": "room"}, None, timezone.now())
        stored = Room.objects.get(pk=room.id)
        assert (stored.version, stored.cpu_level) == (2, room.cpu_level)
        assert RoomEvent.objects.filter(room_id=room.id).count() == 2
    # The connection takes the next change as before.
    changed = cache.copy(room.id)[0]
    changed.cpu_level = "hard"
    assert storage.commit(changed, {"type": "room"}, None, timezone.now())
    assert Room.objects.get(pk=room.id).cpu_level == "hard"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the per-row checks are PostgreSQL's")
def test_it_leaves_postgresql_no_per_row_check_to_run_at_each_change():
    # A CHECK or a foreign key is evaluated for every row a change writes (the foreign key's
    # deferred trigger looked the room up and locked it at each commit: migration 0010); the
    # keys and the (room, version) constraint are all the rooms' tables need.
    with connection.cursor() as cursor:
        cursor.execute("SELECT conrelid::regclass::text, contype FROM pg_constraint "
                       "WHERE conrelid IN ('games_room'::regclass, 'games_roomevent'::regclass)")
        constraints = sorted(cursor.fetchall())
    assert constraints == [("games_room", "p"), ("games_roomevent", "p"), ("games_roomevent", "u")]
    # Deleting a room still deletes its events (Django's on_delete=CASCADE).
    room, token = creation.create_room("memory", "cpu", {"cards": 24})
    service.hello(room.id, token, None)
    Room.objects.filter(pk=room.id).delete()
    assert not RoomEvent.objects.filter(room_id=room.id).exists()
