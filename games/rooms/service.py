"""The room service, the rooms' front door: the commands (every change to a room, and who may
make it) and the reads the consumers, the HTTP API and ``accounts/`` call. Creating a room is
games/rooms/creation.py's; the scheduler's timed steps and sweeps are games/rooms/steps.py's.

Each command builds a ``change(work)`` function that ``changes.apply`` runs on the room and
writes under a version check (games/rooms/changes.py). Every command is a ``Command``
(games/rooms/commands.py) with one calling convention, ``service.act(...)`` from synchronous
code and ``await service.act.on_loop(...)`` from the event loop, and announces itself once
committed: the caller never has to. A refusal, the engine's or the service's, is a
``GameError`` (games/engines/base.py) with its code and message, and nothing is written.
Which room actions a connection may send is games/rooms/allowed.py's rule, which ``Work.check``
enforces. Seats count connections under this process's id (games/rooms/processes.py).
"""
from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.models import Room
from games.rooms import cache, changes, creation, links, pace, processes, replays, sessions, steps, storage
from games.rooms.changes import Change, Outcome, Work
from games.rooms.commands import Command, OnThreads, command
from games.rooms.links import hash_token, new_token
from games.rooms.processes import PROCESS_ID
from games.rooms.seats import Seat, seats_held_by

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# Connections.

@command(on_threads=True)
def hello(room_id: str, token: str | None, user_id: int | None) -> Change:
    """A connection introduces itself: it holds the token's seats (reclaiming any the CPU took
    over), counts as connected there, and binds the signed-in user to them."""
    processes.this_process.ensure_registered()
    token_hash = hash_token(token) if token else None

    def change(work: Work) -> None:
        seats = work.seats
        held = seats_held_by(seats, token_hash)
        work.reply["seats"] = held
        work.reply["bad_token"] = bool(token) and not held
        work.reply["lost_seat"] = _lost_seat(seats, token_hash) if work.reply["bad_token"] else None
        for i in held:
            s = seats[i]
            covered = s.cpu
            if s.connect(PROCESS_ID, user_id):
                work.room.reconnections += 1
            if covered:  # the holder is back: the CPU gave the seat back
                work.room.cpus.pop(str(i), None)
                work.turns.restart(i, work.now)
                if work.room.status == "playing":
                    work.room.step_at = changes.next_step_at(work)
        if held:
            work.mark({"type": "presence", "seats": held, "presence": "connected"})

    return Change(room_id, change)


def _lost_seat(seats: list[Seat], token_hash: str | None) -> dict[str, Any] | None:
    """The seat a token held before it changed hands, so a returning player learns what became
    of it: ``taken`` by someone else, or ``left`` by them and played by the CPU since."""
    for i, s in enumerate(seats):
        if s.was_held_by(token_hash):
            return {"seat": i, "reason": "left" if s.left else "taken"}
    return None


@Command
def disconnect(room_id: str, seats_held: list[int]) -> Change:
    """The connection closed; a seat left with no connection is away (CPU after the delay)."""

    def change(work: Work) -> None:
        away = []
        for i in seats_held:
            s = work.seats[i]
            s.drop(PROCESS_ID)
            if s.went_away(work.now.isoformat()):
                away.append(i)
        work.mark({"type": "presence", "seats": away, "presence": "disconnected"})

    return Change(room_id, change)


# --------------------------------------------------------------------------------------------
# Requests from a connection. ``held`` is the seats the connection's token holds.

@Command
def act(room_id: str, held: list[int], action: Any, seat: Any = None, version: int | None = None) -> Change:
    """Plays a seat's action; ``action`` and ``seat`` are the client's JSON, checked here."""
    def change(work: Work) -> None:
        room = work.room
        if not held:
            raise GameError("Spectators cannot play; join or take a seat first.", ErrorCode.NOT_A_PLAYER)
        if room.status == "waiting":
            raise GameError("The game has not started yet.", ErrorCode.GAME_NOT_STARTED)
        if room.status == "finished":
            raise GameError("The game is over.", ErrorCode.GAME_OVER)
        state = work.state
        if seat is None:
            if len(held) == 1:
                acting = held[0]
            elif state.current_player in held:
                acting = state.current_player
            else:
                raise GameError("None of your seats is to play now.", ErrorCode.NOT_YOUR_TURN)
        else:
            if seat not in held:
                raise GameError(f"You do not hold seat {seat}.", ErrorCode.NOT_A_PLAYER)
            acting = seat
        if work.seats[acting].cpu:
            raise GameError("The CPU is playing this seat.", ErrorCode.NOT_A_PLAYER)
        state.apply(acting, action)
        work.turns.played_by_human(acting, work.now, room.pace)  # the seat is its person's again at once
        if room.first_action_at is None:
            room.first_action_at = work.now
        work.set_state(state)
        work.mark({"type": "action", "seat": acting, "by": "human", "action": action})

    return Change(room_id, change, expected_version=version)


@command(on_threads=True)
def join(room_id: str, user_id: int | None, held: Sequence[int] = ()) -> Change:
    """Takes the lowest free seat for a connection that holds ``held`` (none, to be allowed)."""
    processes.this_process.ensure_registered()

    def change(work: Work) -> None:
        work.check(held, "join")
        free = [i for i, s in enumerate(work.seats) if s.holder == "none"]
        seat = free[0]
        token = new_token()
        work.seats[seat] = Seat.arrived(hash_token(token), user_id, PROCESS_ID)
        work.reply.update(seat=seat, token=token)
        work.mark({"type": "join", "seat": seat})
        if len(free) == 1:
            _start(work)

    return Change(room_id, change)


def _start(work: Work) -> None:
    room = work.room
    for i, s in enumerate(work.seats):
        if s.holder == "none":
            work.seats[i] = Seat.for_cpu()
    room.status = "playing"
    work.new_turns()
    work.set_state(work.state)


@Command
def start(room_id: str, held: list[int]) -> Change:
    def change(work: Work) -> None:
        work.check(held, "start")
        _start(work)
        work.mark({"type": "start"})

    return Change(room_id, change)


@command(on_threads=True)
def take_seat(room_id: str, seat: int, user_id: int | None, held: Sequence[int] = ()) -> Change:
    """Takes a seat the CPU plays (``seat``: a whole number, the message's schema says so) for a
    connection that holds ``held`` (none, to be allowed)."""
    processes.this_process.ensure_registered()

    def change(work: Work) -> None:
        room = work.room
        work.check(held, "take_seat", seat)
        if seat in held:  # its own holder takes it back from the CPU: same token, same person
            work.seats[seat].cpu = False
            room.cpus.pop(str(seat), None)
            work.turns.restart(seat, work.now)
            room.step_at = changes.next_step_at(work)
            work.reply.update(seat=seat, token=None)
            work.mark({"type": "take_seat", "seat": seat})
            return
        token = new_token()
        work.seats[seat] = work.seats[seat].taken_by(hash_token(token), user_id, PROCESS_ID)
        room.cpus.pop(str(seat), None)
        work.turns.restart(seat, work.now)  # a new person: nothing played for it yet
        room.step_at = changes.next_step_at(work)
        work.reply.update(seat=seat, token=token)
        work.mark({"type": "take_seat", "seat": seat})

    return Change(room_id, change)


@Command
def leave(room_id: str, held: list[int]) -> Change:
    def change(work: Work) -> None:
        seats = work.check(held, "leave")
        for i in seats:
            work.seats[i].leave()
        work.set_state(work.state)  # the CPU takes the seat from here
        work.mark({"type": "leave", "seats": seats})

    return Change(room_id, change)


@Command
def resign(room_id: str, held: list[int]) -> Change:
    def change(work: Work) -> None:
        room = work.room
        loser = work.check(held, "resign")[0]
        winner = 1 - loser
        changes.finish(work, {"scores": work.state.scores(), "ranking": [[winner], [loser]],
                       "winners": [winner], "draw": False}, resigned=loser)
        room.step_at = None
        work.mark({"type": "resign", "seat": loser})

    return Change(room_id, change)


@Command
def play_again(room_id: str, held: list[int]) -> Change:
    """A new game at the table; a Memory session goes on (``new_session`` starts one)."""
    return _new_game(room_id, held, "play_again")


@Command
def new_session(room_id: str, held: list[int]) -> Change:
    """The session's totals start again from nothing, with a new game (like play again)."""
    return _new_game(room_id, held, "new_session")


def _new_game(room_id: str, held: list[int], kind: str) -> Change:
    def change(work: Work) -> None:
        room = work.room
        work.check(held, kind)
        if kind == "new_session":
            room.session = sessions.new_session(room.game, len(room.seats))
        room.games_played += 1
        seed = random.Random(f"{room.seed}:{room.games_played}").getrandbits(63)
        room.status = "playing"
        room.result = None
        room.first_action_at = None
        room.cpus = {}
        work.new_turns()
        work.set_state(work.engine.new_game(work.engine.parse_options(room.options), seed))
        replays.begin(room, seed, replays.new_version(room))
        work.mark({"type": kind})

    return Change(room_id, change)


@command(on_threads=True)
def new_link(room_id: str, held: list[int]) -> Change:
    # Checked before the new room is made, so that a refusal makes none.
    room = storage.load(room_id)
    Work(room=room, now=timezone.now()).check(held, "new_link")
    new_room, token = creation.create_room(room.game, room.mode, room.options, room.cpu_level, "new_link")

    def change(work: Work) -> None:
        work.room.next_room = new_room.id
        work.reply.update(room_id=new_room.id, seat_token=token, seat=0)
        work.mark({"type": "new_link"})

    return Change(room_id, change)


@Command
def let_cpu_play(room_id: str, held: list[int]) -> Change:
    """Relaxed friends room: another seated player lets the CPU play the silent seat's turn."""

    def change(work: Work) -> None:
        work.check(held, "let_cpu_play")
        seat = work.turns.seat
        assert seat is not None  # the rule lets it through only while a person is to play
        steps.play_for(work, seat)

    return Change(room_id, change)


# --------------------------------------------------------------------------------------------
# Deleted accounts. A seat's "user" only says whose record a game it finishes goes to.

def rooms_of_user(user_id: int) -> list[str]:
    """The rooms with a seat bound to the account. The seats' text narrows the search on every
    database (SQLite has no JSON containment; rare, like ``sweep``); the seats decide. The
    column keeps the text it was written as (PostgreSQL's ``json``): Django's encoder puts a
    space after the colon, a change's (games/rooms/jsontext.py) none."""
    rows = (Room.objects.annotate(seats_text=Cast("seats", TextField()))
            .filter(Q(seats_text__contains=f'"user": {user_id}') | Q(seats_text__contains=f'"user":{user_id}'))
            .values_list("id", "seats"))
    return [room_id for room_id, seats in rows if any(s.get("user") == user_id for s in seats)]


def forget_user(room_id: str, user_id: int) -> Outcome:
    """The account is being deleted: its seats stay in the game (the token still plays them)
    but name nobody, so a game they finish is recorded for nobody."""
    outcome = _unbind_user(room_id, user_id)
    # Written inside the deletion's transaction, which may yet roll back: keep no copy of a
    # version that might never be committed (a later write from it could pass the version check).
    cache.forget(room_id)
    return outcome


@Command
def _unbind_user(room_id: str, user_id: int) -> Change:
    def change(work: Work) -> None:
        for s in work.seats:
            if s.user == user_id:
                s.user = None
                work.mark({"type": "room"})

    return Change(room_id, change)


# --------------------------------------------------------------------------------------------
# Reading: the front door's names for what storage.py reads.

load = OnThreads(storage.load)  # the room as stored (the HTTP API, accounts' export)
events_after = OnThreads(storage.events_after)  # what a reconnecting connection missed (the consumer)
replay_file = OnThreads(replays.replay_file)  # a seat's replay file (the HTTP API)


def summary(room: Room) -> dict[str, Any]:
    """The public summary of GET /api/rooms/<id>: never a token or a hidden card."""
    return {"room_id": room.id, "game": room.game, "mode": room.mode, "options": room.options,
            "cpu_level": room.cpu_level, "status": room.status, "pace": room.pace,
            "seats": pace.seats_with_clock(room, [Seat.from_json(s) for s in room.seats], timezone.now()),
            "version": room.version, "invite_url": links.invite_url(room.id)}
