"""games/rooms/cache.py: one entry per room in each process, which a change starts from, its
commit updates and the connections' state messages read.

What must hold: a move touches the cache once at each of those steps (counted under the
cache's lock) and reads nothing from the database; the engine state an entry keeps is exactly
what the row holds, whether this process wrote the row or read it, and a change never edits it
(not even one that edits its own state and is then refused); a game played from the entries
ends in the same rows as one decoded from the database at every change; a read never replaces
a newer version."""
from __future__ import annotations

import asyncio
import random
import threading

import pytest

from games.engines import memory
from games.engines.base import GameError
from games.models import Room
from games.rooms import cache, changes, creation, service, steps, storage

pytestmark = pytest.mark.django_db(transaction=True)


def new_room(settings, seed: int) -> Room:
    settings.GAME_DELAYS = {**settings.GAME_DELAYS, "memory_conceal": 0.0}
    room, token = creation.create_room("memory", "local", {"cards": 24}, seed=seed)
    return service.hello(room.id, token, None).room


def next_change(room: Room, rng: random.Random):
    state = memory.State.from_json(room.state)
    if state.pending_automatic():
        return lambda: steps.run_step(room.id)
    seat = state.current_player
    return lambda: service.act(room.id, list(range(state.players)), rng.choice(state.legal_actions(seat)), seat)


def kept_state(room_id: str):
    _, state = cache.copy(room_id)
    return state


class CountingLock:
    """The cache's lock, counting how often it is taken: every look at the cache takes it once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.taken = 0

    def __enter__(self) -> None:
        self.lock.acquire()
        self.taken += 1

    def __exit__(self, *exc) -> None:
        self.lock.release()


@pytest.fixture
def touches(monkeypatch):
    lock = CountingLock()
    monkeypatch.setattr(cache, "_lock", lock)
    return lock


def refuse_reads(monkeypatch) -> None:
    def refuse(*args):
        raise AssertionError("the room was read from the database")
    for name in ("load", "load_on_loop", "load_with_event", "load_with_event_on_loop"):
        monkeypatch.setattr(storage, name, refuse)


def test_a_move_touches_the_cache_once_a_step_and_reads_nothing(settings, monkeypatch, touches):
    room = new_room(settings, seed=31)
    refuse_reads(monkeypatch)
    state = memory.State.from_json(room.state)
    seat = state.current_player
    touches.taken = 0

    outcome = service.act(room.id, [seat], state.legal_actions(seat)[0], seat)
    assert outcome.changed
    assert touches.taken == 2  # the change started from it; its commit put the new version in

    entry = asyncio.run(cache.latest(room.id, outcome.room.version))
    assert touches.taken == 3  # a connection's state message read it
    assert entry.room is outcome.room and entry.event == {"version": outcome.room.version, **outcome.event}


def test_a_move_from_the_event_loop_touches_it_as_often(settings, monkeypatch, touches):
    room = new_room(settings, seed=32)
    refuse_reads(monkeypatch)
    state = memory.State.from_json(room.state)
    seat = state.current_player
    touches.taken = 0

    async def move_and_send():
        outcome = await service.act.on_loop(room.id, [seat], state.legal_actions(seat)[0], seat)
        return outcome, touches.taken, await cache.latest(room.id, outcome.room.version)
    outcome, after_commit, entry = asyncio.run(move_and_send())

    assert (after_commit, touches.taken) == (2, 3)
    assert entry.version == outcome.room.version == Room.objects.get(pk=room.id).version


def test_a_change_starts_from_the_state_decoded_for_another_processes_change(settings, monkeypatch):
    room = new_room(settings, seed=33)
    room = next_change(room, random.Random(1))().room
    cache.forget(room.id)  # as after another process's change

    entry = asyncio.run(cache.latest(room.id, room.version))  # a notice's one read
    entry.view_text(0)  # the views decode the row's state once
    assert kept_state(room.id) is entry.state
    assert entry.state.to_json() == Room.objects.get(pk=room.id).state
    before = entry.state.to_json()

    change = next_change(room, random.Random(2))
    monkeypatch.setattr(memory.State, "from_json", classmethod(lambda cls, data: pytest.fail("decoded")))
    changed = change()
    monkeypatch.undo()
    assert changed.changed and entry.state.to_json() == before
    assert cache.entry(room.id).version == room.version + 1


def test_a_read_never_replaces_a_newer_version(settings, monkeypatch):
    room = new_room(settings, seed=34)
    stale, stale_event, stale_texts = storage.load_with_event(room.id)
    room = next_change(room, random.Random(1))().room
    newest = cache.entry(room.id)

    async def read_the_stale_row(room_id):
        return stale, stale_event, stale_texts
    monkeypatch.setattr(storage, "load_with_event_on_loop", read_the_stale_row)
    # A connection that asks for a version this process has not seen yet reads the row; a read
    # that comes back older than what a commit put in meanwhile leaves the newer version.
    assert asyncio.run(cache.latest(room.id, room.version + 1)) is newest
    assert cache.entry(room.id) is newest


def test_it_starts_a_change_from_a_copy_of_the_state_it_wrote(settings, monkeypatch):
    room = new_room(settings, seed=11)
    outcome = next_change(room, random.Random(1))()
    kept = kept_state(room.id)
    # The state the change left: the entry's, and what the row holds.
    assert kept is cache.entry(room.id).state
    assert kept.to_json() == Room.objects.get(pk=room.id).state
    before = kept.to_json()

    # The next change decodes nothing: it starts from a copy, and leaves the kept one as it was.
    change = next_change(outcome.room, random.Random(2))

    def refuse(cls, data):
        raise AssertionError("the change decoded the row's state")
    monkeypatch.setattr(memory.State, "from_json", classmethod(refuse))
    outcome = change()
    monkeypatch.undo()
    assert outcome.changed and kept_state(room.id) is not kept
    assert kept.to_json() == before
    assert kept_state(room.id).to_json() == Room.objects.get(pk=room.id).state


def test_it_keeps_the_state_it_wrote_when_a_change_that_edited_its_own_is_refused(settings):
    room = new_room(settings, seed=12)
    room = next_change(room, random.Random(1))().room
    kept = kept_state(room.id)
    before = kept.to_json()

    def edit_then_refuse(work):
        state = work.state
        seat = state.current_player
        state.apply(seat, state.legal_actions(seat)[0])
        raise GameError("Refused after editing.", "not_allowed")
    with pytest.raises(GameError):
        changes.apply(room.id, edit_then_refuse)

    assert kept.to_json() == before == Room.objects.get(pk=room.id).state
    outcome = next_change(room, random.Random(3))()
    assert outcome.changed and kept_state(room.id).to_json() == Room.objects.get(pk=room.id).state


def test_it_ends_a_game_in_the_rows_it_would_write_decoding_every_change(settings):
    def play(seed: int, decode: bool) -> list[tuple[int, dict]]:
        room, rng, rows = new_room(settings, seed), random.Random(seed), []
        while room.status == "playing":
            if decode:
                cache.forget(room.id)  # as after another process's change: read the row
            room = next_change(room, rng)().room
            stored = Room.objects.get(pk=room.id)
            rows.append((stored.version, stored.state))
        assert rows and room.status == "finished"
        return rows

    assert play(21, decode=False) == play(21, decode=True)


def test_it_keeps_the_state_when_a_change_leaves_the_state_as_it_was(settings, monkeypatch):
    """A change of the seats alone (a connection gone) leaves the row's state: the new entry
    has the state kept before, and nothing is decoded."""
    room = new_room(settings, seed=13)
    next_change(room, random.Random(1))()
    kept = kept_state(room.id)
    monkeypatch.setattr(memory.State, "from_json", classmethod(lambda cls, data: pytest.fail("decoded")))
    outcome = service.disconnect(room.id, [0])
    assert outcome.changed and outcome.event["type"] != "move"
    assert cache.entry(room.id).version == outcome.room.version
    assert cache.entry(room.id).state is kept is kept_state(room.id)
    assert kept.to_json() == Room.objects.get(pk=room.id).state
