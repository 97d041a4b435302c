"""``room.allowed`` (docs/protocol.md) is exactly what the room service accepts: in rooms of every
mode at every stage (solo, hotseat, against the CPU, friends waiting and playing, with a
spectator, a seat taken over by the CPU, a seat taken, a seat left, after the end), every room
action a connection's state lists is accepted and every other one is refused, with nothing
written. So a client that offers what is listed needs no room rule of its own."""
from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engines.base import GameError
from games.models import Room
from games.rooms import cache, creation, links, registry, service, state_messages, steps
from games.rooms.messages import ROOM_ACTIONS
from games.rooms.seats import seats_held_by
from tests.rooms.helpers import steps_at_once

pytestmark = pytest.mark.django_db(transaction=True)

# What each room action does, called as games/consumers.py calls it for a connection holding
# ``held`` (``seat``: the seat take_seat names).
TRIES = {
    "join": lambda room_id, held, seat: service.join(room_id, None, held),
    "take_seat": lambda room_id, held, seat: service.take_seat(room_id, seat, None, held),
    "start": lambda room_id, held, seat: service.start(room_id, held),
    "leave": lambda room_id, held, seat: service.leave(room_id, held),
    "resign": lambda room_id, held, seat: service.resign(room_id, held),
    "play_again": lambda room_id, held, seat: service.play_again(room_id, held),
    "new_session": lambda room_id, held, seat: service.new_session(room_id, held),
    "new_link": lambda room_id, held, seat: service.new_link(room_id, held),
    "let_cpu_play": lambda room_id, held, seat: service.let_cpu_play(room_id, held),
}


@pytest.fixture(autouse=True)
def no_delays(settings):
    # Every timed step (a CPU's move, Memory's conceal, a takeover) is due at once; nothing runs
    # it but the test (steps.run_step), so each room is exactly where the test left it.
    steps_at_once(settings)


def held_by(room: Room, token: str | None) -> list[int]:
    """The seats a connection with this token holds, as the consumer works them out."""
    return seats_held_by(cache.Entry(room, {}, None).seats,
                         links.hash_token(token) if token else None)


def listed(room: Room, held: list[int]) -> dict:
    """``room.allowed`` of the state message this connection is sent."""
    text = state_messages.state_text(cache.Entry(room, {}, None), held)
    return json.loads(text)["room"]["allowed"]


def copy_of(room_id: str) -> str:
    """A new room exactly as this one is stored, so each try starts from the same room."""
    room = Room.objects.get(pk=room_id)
    room.pk = links.new_room_id()
    room.save(force_insert=True)
    return room.pk


def accepts(room_id: str, held: list[int], kind: str, seat: int | None = None) -> bool:
    copy = copy_of(room_id)
    try:
        outcome = TRIES[kind](copy, held, seat)
    except GameError as refused:
        room = Room.objects.get(pk=copy)
        assert room.version == Room.objects.get(pk=room_id).version  # nothing written
        assert refused.code != "unavailable", refused.message
        return False
    assert outcome.changed, (kind, held)
    return True


def check(room_id: str, connections: dict[str, str | None]) -> dict[str, dict]:
    """Every room action for every connection: listed if and only if accepted. Returns what
    each connection was listed."""
    room = Room.objects.get(pk=room_id)
    shown = {}
    for name, token in connections.items():
        held = held_by(room, token)
        offered = listed(room, held)
        assert set(offered) <= set(ROOM_ACTIONS)
        for kind in ROOM_ACTIONS:
            if kind == "take_seat":
                # Every seat of the room and a number past either end (the schema lets any
                # whole number through): only the listed ones are taken.
                for seat in range(-1, len(room.seats) + 1):
                    ok = accepts(room_id, held, kind, seat)
                    assert ok == (seat in offered.get(kind, [])), (name, kind, seat, offered)
            else:
                ok = accepts(room_id, held, kind)
                assert ok == (offered.get(kind) is True), (name, kind, offered)
        shown[name] = offered
    return shown


def advance(room_id: str, tokens: dict[int, str], rng: random.Random) -> Room:
    """One step of the game: a due timed step (a CPU's move, a conceal), else the player to
    move plays one of its legal actions."""
    room = Room.objects.get(pk=room_id)
    state = registry.engine(room.game).State.from_json(room.state)
    if room.due_at is not None and room.due_at <= timezone.now():  # (not a relaxed room's two minutes)
        return steps.run_step(room_id).room
    seat = state.current_player
    return service.act(room_id, held_by(room, tokens[seat]), rng.choice(state.legal_actions(seat)), seat).room


def play_to_end(room_id: str, tokens: dict[int, str]) -> Room:
    rng = random.Random(1)
    for _ in range(5000):
        room = advance(room_id, tokens, rng)
        if room.status == "finished":
            return room
    raise AssertionError("the game did not end")


def test_alone_hotseat_and_against_the_cpu():
    room, token = creation.create_room("memory", "solo", {"cards": 24})
    service.hello(room.id, token, None)
    people = {"player": token, "spectator": None}
    assert check(room.id, people) == {"player": {}, "spectator": {}}
    play_to_end(room.id, {0: token})
    # A solo player is shown no session: a new session is only play again by another name.
    assert check(room.id, people)["player"] == {"play_again": True, "new_link": True}

    room, token = creation.create_room("memory", "local", {"players": 2, "cards": 24})
    service.hello(room.id, token, None)
    people = {"player": token, "spectator": None}
    assert check(room.id, people)["player"] == {}
    play_to_end(room.id, {0: token, 1: token})
    assert check(room.id, people) == {
        "player": {"play_again": True, "new_session": True, "new_link": True}, "spectator": {}}

    room, token = creation.create_room("gin", "cpu", {"target": 25})
    service.hello(room.id, token, None)
    people = {"player": token, "spectator": None}
    assert check(room.id, people) == {"player": {"resign": True}, "spectator": {}}
    service.resign(room.id, [0])
    assert check(room.id, people)["player"] == {"play_again": True, "new_link": True}

    room, token = creation.create_room("bozu", "cpu", {"players": 3})
    service.hello(room.id, token, None)
    people = {"player": token, "spectator": None}
    advance(room.id, {0: token}, random.Random(1))
    assert check(room.id, people)["player"] == {}  # neither resign nor leave with 3 CPUs


def test_with_friends_from_waiting_to_the_end():
    room, creator = creation.create_room("memory", "friends", {"players": 3, "cards": 24})
    service.hello(room.id, creator, None)
    people = {"creator": creator, "spectator": None}
    assert check(room.id, people) == {"creator": {"start": True}, "spectator": {"join": True}}

    people["green"] = service.join(room.id, None).reply["token"]
    assert check(room.id, people) == {
        "creator": {"start": True}, "spectator": {"join": True}, "green": {}}

    service.start(room.id, [0])  # yellow is the CPU's
    assert check(room.id, people) == {
        "creator": {"leave": True}, "spectator": {"take_seat": [2]}, "green": {"leave": True}}

    # Green's connection closes and the CPU takes the seat over: Green's token still holds it.
    service.disconnect(room.id, [1])
    assert Room.objects.get(pk=room.id).seats[1]["away_since"]
    steps.run_step(room.id)
    assert check(room.id, people)["spectator"] == {"take_seat": [1, 2]}

    # The spectator takes yellow's seat; then leaves it, and the CPU plays it for good.
    people["yellow"] = service.take_seat(room.id, 2, None).reply["token"]
    assert check(room.id, people)["spectator"] == {"take_seat": [1]}
    service.leave(room.id, held_by(Room.objects.get(pk=room.id), people["yellow"]))
    shown = check(room.id, people)
    assert shown["yellow"] == shown["spectator"] == {"take_seat": [1, 2]}

    play_to_end(room.id, {0: creator, 1: people["green"], 2: people["yellow"]})
    shown = check(room.id, people)
    assert shown["creator"] == shown["green"] == {"play_again": True, "new_session": True, "new_link": True}
    assert shown["spectator"] == shown["yellow"] == {}


def test_with_a_friend_in_two_player_gin():
    room, creator = creation.create_room("gin", "friends", {"target": 25})
    service.hello(room.id, creator, None)
    people = {"creator": creator, "spectator": None}
    people["green"] = service.join(room.id, None).reply["token"]  # the last seat: play begins
    assert check(room.id, people) == {
        "creator": {"resign": True}, "spectator": {}, "green": {"resign": True}}
    service.resign(room.id, [1])
    assert check(room.id, people) == {
        "creator": {"play_again": True, "new_link": True}, "spectator": {},
        "green": {"play_again": True, "new_link": True}}


def silent_since(room_id: str, seconds: float, **counts: list[int]) -> int:
    """The seat to play has been silent ``seconds`` (its turn began that long ago), with the
    turns' ``counts`` as given; returns that seat."""
    room = Room.objects.get(pk=room_id)
    turns = {**room.turns, **counts}
    turns["since"] = (timezone.now() - timedelta(seconds=seconds)).isoformat()
    Room.objects.filter(pk=room_id).update(turns=turns, due_at=timezone.now())
    return int(turns["seat"])


def test_with_a_silent_friend(settings):
    settings.PACE_SCALE = 1.0
    # Relaxed: after two minutes of silence the other player may let the CPU play the turn.
    room, creator = creation.create_room("gin", "friends", {"target": 25})
    service.hello(room.id, creator, None)
    people = {"creator": creator, "spectator": None}
    people["green"] = service.join(room.id, None).reply["token"]
    silent = silent_since(room.id, 100)
    assert "let_cpu_play" not in str(check(room.id, people))
    silent_since(room.id, 121)
    shown = check(room.id, people)
    other = "green" if silent == 0 else "creator"
    assert shown[other] == {"resign": True, "let_cpu_play": True}
    assert shown["creator" if silent == 0 else "green"] == {"resign": True}

    # Under a clock: the third turn in a row played for a seat hands it to the CPU; its holder
    # (and a spectator) may take it back.
    room, creator = creation.create_room("bozu", "friends", {"players": 2}, room_pace="quick")
    service.hello(room.id, creator, None)
    people = {"creator": creator, "spectator": None}
    people["green"] = service.join(room.id, None).reply["token"]
    silent = silent_since(room.id, 6, in_a_row=[2, 2])
    assert steps.run_step(room.id).event == {"type": "action", "seat": silent, "by": "cpu",
                                               "action": {"type": "flip"}}
    holder = "creator" if silent == 0 else "green"
    shown = check(room.id, people)
    assert shown[holder] == {"take_seat": [silent], "resign": True}
    assert shown["spectator"] == {"take_seat": [silent]}
