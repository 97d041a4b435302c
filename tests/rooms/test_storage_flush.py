"""An automatic step (Memory's conceal, Gin's next hand) follows from the row it starts from
alone, and that row keeps the due time that makes the scheduler run it: on PostgreSQL it commits
without waiting for its WAL flush (storage.commit's ``redoable``), which was a quarter of
PostgreSQL's CPU per change. A player's move and a change that finishes the game still wait.
If PostgreSQL loses the step in a crash, the room is back at the version before it, and the
scheduler's poll redoes the step with the same result."""
from __future__ import annotations

import random

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Room, RoomEvent
from games.rooms import cache, creation, registry, service, steps
from tests.rooms.helpers import message_type, protocol_trace

pytestmark = pytest.mark.django_db(transaction=True)


def memory_room(settings) -> Room:
    settings.GAME_DELAYS = {**settings.GAME_DELAYS, "memory_conceal": 0.0}
    room, token = creation.create_room("memory", "friends", {"cards": 24})
    service.join(room.id, None)
    return service.hello(room.id, token, None).room


def pending(room: Room) -> bool:
    return bool(registry.engine("memory").State.from_json(room.state).pending_automatic())


def flip(room: Room, rng: random.Random) -> Room:
    state = registry.engine("memory").State.from_json(room.state)
    seat = state.current_player
    return service.act(room.id, [seat], rng.choice(state.legal_actions(seat)), seat, room.version).room


@pytest.mark.skipif(connection.vendor != "postgresql", reason="synchronous_commit is PostgreSQL's")
def test_it_relaxes_only_the_automatic_steps(settings):
    room, rng = memory_room(settings), random.Random(3)
    relaxed = {"conceal": [], "flip": [], "finishing": []}
    while room.status == "playing":
        kind = "conceal" if pending(room) else "flip"
        with protocol_trace() as messages:
            room = steps.run_step(room.id).room if kind == "conceal" else flip(room, rng)
        kind = "finishing" if room.status == "finished" else kind
        # set_config returns the setting's new value in the change's one row.
        relaxed[kind].append(any("'off'" in m for m in messages if message_type(m) == "DataRow"))

    assert relaxed["conceal"] and all(relaxed["conceal"])
    assert relaxed["flip"] and not any(relaxed["flip"])
    assert relaxed["finishing"] == [False]
    # The next statement on the connection runs with the setting as it was: SET LOCAL ended
    # with the step's own transaction.
    assert connection.connection.execute("SHOW synchronous_commit").fetchone() == ("on",)


def test_it_redoes_a_lost_automatic_step_the_same(settings):
    room, rng = memory_room(settings), random.Random(4)
    while not pending(room):
        room = flip(room, rng)
    before = Room.objects.filter(pk=room.id).values().get()
    stepped = steps.run_step(room.id).room
    step_event = RoomEvent.objects.get(room_id=room.id, version=stepped.version).event

    # What a crash before the step's WAL flush leaves: the row as it was before the step.
    Room.objects.filter(pk=room.id).update(**{k: v for k, v in before.items() if k != "id"})
    RoomEvent.objects.filter(room_id=room.id, version=stepped.version).delete()
    cache.forget(room.id)

    assert (room.id, before["due_at"]) in steps.due_rooms(timezone.now())
    redone = steps.run_step(room.id).room
    assert (redone.version, redone.state) == (stepped.version, stepped.state)
    # In a friends room the step begins the next seat's turn, and the relaxed pace's offer to
    # let the CPU play it is due a wait after that (games/rooms/pace.py): after the redo, then.
    assert stepped.due_at is not None and redone.due_at >= stepped.due_at
    assert RoomEvent.objects.get(room_id=room.id, version=redone.version).event == step_event
