"""Two writers on the same room version at once (two threads, each its own database
connection, both held until both have read the room): exactly one change is written; the other
is refused (it named the version) or re-checked against the new room and refused by the rules.
The room's versions and events stay one-to-one and the state is what the winner made it."""
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games.engines.base import GameError
from games.models import Room, RoomEvent
from games.rooms import changes, creation, links, registry, service, storage
from games.rooms.seats import Seat, seats_held_by

pytestmark = pytest.mark.django_db(transaction=True)


def race(monkeypatch, *calls):
    """Runs the calls in parallel threads; each thread's first read of the room waits until
    every thread has read it, so they all start from the same version."""
    barrier = threading.Barrier(len(calls), timeout=10)
    first = threading.local()
    load = storage.load

    def held_load(room_id):
        room = load(room_id)
        if not getattr(first, "done", False):
            first.done = True
            barrier.wait()
        return room

    monkeypatch.setattr(storage, "load", held_load)
    if connection.vendor == "sqlite":
        # The test database is SQLite in memory (shared cache), where a second writer fails at
        # once instead of waiting as the servers' file database does (IMMEDIATE, timeout 20 s):
        # a lock around the write gives the same one-writer-at-a-time order.
        commit, write_lock = storage.commit, threading.Lock()

        def waiting_commit(*change, **how):
            with write_lock:
                return commit(*change, **how)
        monkeypatch.setattr(storage, "commit", waiting_commit)

    def run(call):
        try:
            return call()
        except GameError as exc:
            return exc
        finally:
            connection.close()  # each thread's own connection

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def memory_room():
    """A two-seat room on one device; returns it and the seat to play (the engine decides)."""
    room, _ = creation.create_room("memory", "local", {"players": 2, "cards": 24})
    state = registry.engine("memory").State.from_json(room.state)
    return room, state.current_player


def check_consistent(room_id):
    room = Room.objects.get(pk=room_id)
    versions = list(RoomEvent.objects.filter(room_id=room_id).order_by("version")
                    .values_list("version", flat=True))
    assert versions == list(range(1, room.version + 1))
    return room


@pytest.mark.parametrize("same_card", [True, False])
def test_it_refuses_the_loser_that_named_the_version(monkeypatch, same_card):
    room, seat = memory_room()
    v = room.version
    first, second = ("A1", "A1") if same_card else ("A1", "A2")
    results = race(monkeypatch,
                   lambda: service.act(room.id, [0, 1], {"type": "flip", "pos": first}, seat, v),
                   lambda: service.act(room.id, [0, 1], {"type": "flip", "pos": second}, seat, v))
    applied = [r for r in results if isinstance(r, changes.Outcome)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].code == "stale_version"
    after = check_consistent(room.id)
    assert after.version == v + 1
    event = RoomEvent.objects.get(room_id=room.id, version=v + 1).event
    assert event == applied[0].event
    state = registry.engine("memory").State.from_json(after.state)
    assert len(state.face_down()) == 23  # exactly one card turned


def test_it_rechecks_the_loser_against_the_winners_room(monkeypatch):
    room, seat = memory_room()
    v = room.version
    flip = {"type": "flip", "pos": "B2"}
    results = race(monkeypatch, lambda: service.act(room.id, [0, 1], flip, seat),
                   lambda: service.act(room.id, [0, 1], flip, seat))
    applied = [r for r in results if isinstance(r, changes.Outcome)]
    refused = [r for r in results if isinstance(r, GameError)]
    # The loser re-read the room, found B2 already face up and was refused by the rules.
    assert len(applied) == 1 and len(refused) == 1 and refused[0].code != "stale_version"
    after = check_consistent(room.id)
    assert after.version == v + 1


def test_it_gives_the_last_seat_to_one_of_two_joiners(monkeypatch):
    room, _ = creation.create_room("gin", "friends", {})
    results = race(monkeypatch, lambda: service.join(room.id, None),
                   lambda: service.join(room.id, None))
    joined = [r for r in results if isinstance(r, changes.Outcome)]
    refused = [r for r in results if isinstance(r, GameError)]
    assert len(joined) == 1 and [r.code for r in refused] == ["no_free_seat"]
    after = check_consistent(room.id)
    assert after.status == "playing" and after.version == room.version + 1
    assert seats_held_by([Seat.from_json(s) for s in after.seats], links.hash_token(joined[0].reply["token"])) == [1]
