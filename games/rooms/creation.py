"""Creating rooms: the values of a client's JSON checked, the first game dealt, the creator's
seat token made (games/rooms/links.py).
"""
from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import specs
from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.models import Room
from games.rooms import changes, commands, pace, registry, replays, sessions, storage
from games.rooms.changes import Work
from games.rooms.commands import OnThreads
from games.rooms.links import hash_token, new_room_id, new_token
from games.rooms.seats import Seat

# --------------------------------------------------------------------------------------------
# Creating rooms.

SEED_LIMIT = 2 ** 63  # seeds are 63-bit, as random ones are


@OnThreads
def create_room(game: Any, mode: Any, options: Any, cpu_level: Any = None, origin: Any = None,
                seed: Any = None, room_pace: Any = None) -> tuple[Room, str]:
    """Validates everything (the values come from a client's JSON), deals the first game and
    returns the room and the creator's token. ``seed`` (a client tester's reproducible room; the
    caller decides who may ask for one) fixes the deal, every later deal and the CPUs' choices;
    ``None`` draws a random one. ``room_pace``: a friends room's pace (games/rooms/pace.py)."""
    games = specs.names()
    if game not in games:
        raise GameError(f"game must be one of {', '.join(games)}.", ErrorCode.INVALID_GAME)
    if mode not in specs.MODES:
        raise GameError(f"mode must be one of {', '.join(specs.MODES)}.", ErrorCode.INVALID_MODE)
    spec = registry.spec(game)
    if mode not in spec.modes:
        raise GameError(f"The {mode} mode is not offered for {game}.", ErrorCode.INVALID_MODE)
    levels = spec.level_names
    if cpu_level in (None, ""):
        cpu_level = spec.cpu_default
    if cpu_level not in levels:
        raise GameError(f"cpu_level must be one of {', '.join(levels)}.", ErrorCode.INVALID_CPU_LEVEL)
    if origin not in (None, "menu", "result", "new_link"):
        raise GameError("origin must be menu, result or new_link.", ErrorCode.INVALID_OPTIONS)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise GameError("options must be a JSON object.", ErrorCode.INVALID_OPTIONS)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed < SEED_LIMIT):
        raise GameError("seed must be a whole number from 0 to 2**63 - 1.", ErrorCode.INVALID_SEED)
    room_pace = pace.check_pace(room_pace, mode)
    engine = registry.engine(game)
    if mode == "solo":
        options = {**options, "players": 1}
    try:
        parsed = engine.parse_options(options)
        players = parsed.to_json()["players"]
        if mode == "local" and not 2 <= players:
            raise GameError("Playing on one device needs 2 or more players.", ErrorCode.INVALID_OPTIONS)
        if mode in ("cpu", "friends") and players < 2:
            raise GameError(f"The {mode} mode needs 2 or more players.", ErrorCode.INVALID_OPTIONS)
        if seed is None:
            seed = secrets.randbits(63)
        state = engine.new_game(parsed, seed)
    except GameError as exc:
        raise GameError(exc.message, ErrorCode.INVALID_OPTIONS) from None
    token = new_token()
    token_hash = hash_token(token)
    if mode in ("local", "solo"):
        seats = [Seat("human", token_hash) for _ in range(players)]
    elif mode == "cpu":
        seats = [Seat("human", token_hash)] + [Seat.for_cpu() for _ in range(players - 1)]
    else:
        seats = [Seat("human", token_hash)] + [Seat("none") for _ in range(players - 1)]
    room = Room(id=new_room_id(), game=game, mode=mode, options=parsed.to_json(),
                cpu_level=cpu_level, origin=origin or "", pace=room_pace,
                status="waiting" if mode == "friends" else "playing",
                version=1, seed=seed, state=state.to_json(), seats=[s.to_json() for s in seats], cpus={},
                session=sessions.new_session(spec.name, players) if spec.session else None)
    replays.begin(room, seed, room.version)
    work = Work(room=room, now=timezone.now(), _state=state, state_changed=True)
    changes.settle(work)
    storage.insert(room)
    if room.due_at is not None:  # a CPU to move first: its step is timed once the room exists
        due_at = room.due_at
        transaction.on_commit(lambda: commands.wake(room.id, due_at))
    return room, token
