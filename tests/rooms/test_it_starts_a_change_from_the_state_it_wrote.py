"""A process keeps the engine state of each row it wrote (games/rooms/storage.py, ``written``)
and starts the room's next change from a ``copy()`` of it instead of decoding the row's state
again. What must hold: the kept state is exactly what the row holds, a change never edits it
(not even one that edits its own state and is then refused), and a game played from the kept
states ends in the same rows as one decoded from the database at every change."""
from __future__ import annotations

import random

import pytest

from games.engines import memory
from games.engines.base import GameError
from games.models import Room
from games.rooms import changes, service, storage

pytestmark = pytest.mark.django_db(transaction=True)


def new_room(settings, seed: int) -> Room:
    settings.GAME_DELAYS = {**settings.GAME_DELAYS, "memory_conceal": 0.0}
    room, token = service.create_room("memory", "local", {"cards": 24}, seed=seed)
    return service.hello(room.id, token, None).room


def next_change(room: Room, rng: random.Random):
    state = memory.State.from_json(room.state)
    if state.pending_automatic():
        return lambda: service.run_step(room.id)
    seat = state.current_player
    return lambda: service.act(room.id, list(range(state.players)), rng.choice(state.legal_actions(seat)), seat)


def kept_state(room_id: str):
    _, state = storage.written.copy(room_id)
    return state


def test_it_starts_a_change_from_a_copy_of_the_state_it_wrote(settings, monkeypatch):
    room = new_room(settings, seed=11)
    outcome = next_change(room, random.Random(1))()
    kept = kept_state(room.id)
    # The state the change left: the snapshot's, and what the row holds.
    assert kept is outcome.state
    assert kept.to_json() == Room.objects.get(pk=room.id).state
    before = kept.to_json()

    # The next change decodes nothing: it starts from a copy, and leaves the kept one as it was.
    change = next_change(outcome.room, random.Random(2))

    def refuse(cls, data):
        raise AssertionError("the change decoded the row's state")
    monkeypatch.setattr(memory.State, "from_json", classmethod(refuse))
    outcome = change()
    monkeypatch.undo()
    assert outcome.changed and kept_state(room.id) is outcome.state is not kept
    assert kept.to_json() == before
    assert outcome.state.to_json() == Room.objects.get(pk=room.id).state


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
    assert outcome.changed and outcome.state.to_json() == Room.objects.get(pk=room.id).state


def test_it_ends_a_game_in_the_rows_it_would_write_decoding_every_change(settings):
    def play(seed: int, decode: bool) -> list[tuple[int, dict]]:
        room, rng, rows = new_room(settings, seed), random.Random(seed), []
        while room.status == "playing":
            if decode:
                storage.written.forget(room.id)  # as after another process's change: read the row
            room = next_change(room, rng)().room
            stored = Room.objects.get(pk=room.id)
            rows.append((stored.version, stored.state))
        assert rows and room.status == "finished"
        return rows

    assert play(21, decode=False) == play(21, decode=True)


def test_it_hands_on_the_kept_state_when_a_change_leaves_the_state_as_it_was(settings, monkeypatch):
    """A change of the seats alone (a connection gone) leaves the row's state: the outcome, and
    so the process's snapshot, has the kept state and decodes nothing."""
    room = new_room(settings, seed=13)
    next_change(room, random.Random(1))()
    kept = kept_state(room.id)
    monkeypatch.setattr(memory.State, "from_json", classmethod(lambda cls, data: pytest.fail("decoded")))
    outcome = service.disconnect(room.id, [0])
    assert outcome.changed and outcome.event["type"] != "move"
    assert outcome.state is kept is kept_state(room.id)
    assert kept.to_json() == Room.objects.get(pk=room.id).state
