"""The room service, the rooms' front door: the commands (every change to a room, and who may
make it) and the reads the consumers, the HTTP API, the scheduler and ``accounts/`` call.

Each command is a ``change(work)`` function that ``changes.apply`` runs on the room and writes
under a version check (games/rooms/changes.py). The commands that only build their change (a
``changes.Command``: ``act``, ``run_step`` and the like) also run from the event loop, with
``await service.act.on_loop(...)``: the consumers and the scheduler call them so, which on
PostgreSQL writes through the loop's own connections (games/rooms/loop_db.py). Everything else
is called on the rooms' threads, ``await games.rooms.db.call(service.hello, ...)``, or
directly from a synchronous caller (the HTTP API). A refusal, the engine's or the service's,
is a ``GameError`` (games/engines/base.py) with its code and message, and nothing is written.
Which room actions a connection may send is games/rooms/allowed.py's rule, which ``Work.check``
enforces. Seats count connections under this process's id (games/rooms/processes.py).
"""
from __future__ import annotations

import hashlib
import logging
import random
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from games import specs
from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.models import Room
from games.rooms import cache, changes, pace, processes, registry, replays, sessions, storage
from games.rooms.changes import Outcome, Work
from games.rooms.processes import PROCESS_ID
from games.rooms.seats import Seat, seats_held_by

log = logging.getLogger(__name__)

def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_room_id() -> str:
    return secrets.token_urlsafe(16)  # 128 bits


def invite_url(room_id: str) -> str:
    return f"/r/{room_id}"


# --------------------------------------------------------------------------------------------
# Creating rooms.

SEED_LIMIT = 2 ** 63  # seeds are 63-bit, as random ones are


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
    return room, token


# --------------------------------------------------------------------------------------------
# Connections.

def hello(room_id: str, token: str | None, user_id: int | None) -> Outcome:
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

    return changes.apply(room_id, change)


def _lost_seat(seats: list[Seat], token_hash: str | None) -> dict[str, Any] | None:
    """The seat a token held before it changed hands, so a returning player learns what became
    of it: ``taken`` by someone else, or ``left`` by them and played by the CPU since."""
    for i, s in enumerate(seats):
        if s.was_held_by(token_hash):
            return {"seat": i, "reason": "left" if s.left else "taken"}
    return None


@changes.Command
def disconnect(room_id: str, seats_held: list[int]) -> changes.Change:
    """The connection closed; a seat left with no connection is away (CPU after the delay)."""

    def change(work: Work) -> None:
        away = []
        for i in seats_held:
            s = work.seats[i]
            s.drop(PROCESS_ID)
            if s.went_away(work.now.isoformat()):
                away.append(i)
        work.mark({"type": "presence", "seats": away, "presence": "disconnected"})

    return changes.Change(room_id, change)


# --------------------------------------------------------------------------------------------
# Requests from a connection. ``held`` is the seats the connection's token holds.

@changes.Command
def act(room_id: str, held: list[int], action: Any, seat: Any = None, version: int | None = None) -> changes.Change:
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

    return changes.Change(room_id, change, expected_version=version)


def join(room_id: str, user_id: int | None, held: Sequence[int] = ()) -> Outcome:
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

    return changes.apply(room_id, change)


def _start(work: Work) -> None:
    room = work.room
    for i, s in enumerate(work.seats):
        if s.holder == "none":
            work.seats[i] = Seat.for_cpu()
    room.status = "playing"
    work.new_turns()
    work.set_state(work.state)


@changes.Command
def start(room_id: str, held: list[int]) -> changes.Change:
    def change(work: Work) -> None:
        work.check(held, "start")
        _start(work)
        work.mark({"type": "start"})

    return changes.Change(room_id, change)


def take_seat(room_id: str, seat: int, user_id: int | None, held: Sequence[int] = ()) -> Outcome:
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

    return changes.apply(room_id, change)


@changes.Command
def leave(room_id: str, held: list[int]) -> changes.Change:
    def change(work: Work) -> None:
        seats = work.check(held, "leave")
        for i in seats:
            work.seats[i].leave()
        work.set_state(work.state)  # the CPU takes the seat from here
        work.mark({"type": "leave", "seats": seats})

    return changes.Change(room_id, change)


@changes.Command
def resign(room_id: str, held: list[int]) -> changes.Change:
    def change(work: Work) -> None:
        room = work.room
        loser = work.check(held, "resign")[0]
        winner = 1 - loser
        changes.finish(work, {"scores": work.state.scores(), "ranking": [[winner], [loser]],
                       "winners": [winner], "draw": False}, resigned=loser)
        room.step_at = None
        work.mark({"type": "resign", "seat": loser})

    return changes.Change(room_id, change)


@changes.Command
def play_again(room_id: str, held: list[int]) -> changes.Change:
    """A new game at the table; a Memory session goes on (``new_session`` starts one)."""
    return _new_game(room_id, held, "play_again")


@changes.Command
def new_session(room_id: str, held: list[int]) -> changes.Change:
    """The session's totals start again from nothing, with a new game (like play again)."""
    return _new_game(room_id, held, "new_session")


def _new_game(room_id: str, held: list[int], kind: str) -> changes.Change:
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

    return changes.Change(room_id, change)


def new_link(room_id: str, held: list[int]) -> Outcome:
    # Checked before the new room is made, so that a refusal makes none.
    room = storage.load(room_id)
    Work(room=room, now=timezone.now()).check(held, "new_link")
    new_room, token = create_room(room.game, room.mode, room.options, room.cpu_level, "new_link")

    def change(work: Work) -> None:
        work.room.next_room = new_room.id
        work.reply.update(room_id=new_room.id, seat_token=token, seat=0)
        work.mark({"type": "new_link"})

    return changes.apply(room_id, change)


# --------------------------------------------------------------------------------------------
# Timed steps.

def due_rooms(now: datetime | None = None, limit: int = 100) -> list[tuple[str, datetime]]:
    now = now or timezone.now()
    return list(Room.objects.filter(due_at__lte=now).order_by("due_at")
                .values_list("id", "due_at")[:limit])


@changes.Command
def run_step(room_id: str) -> changes.Change:
    """Does the room's one step that is due now, if any: a takeover, an automatic step or a CPU
    move. Two processes may both try; the version check lets exactly one of them write."""

    def change(work: Work) -> None:
        room, now = work.room, work.now
        if room.due_at is None or room.due_at > now or room.status != "playing":
            return
        delay = timedelta(seconds=registry.takeover_delay())
        if room.mode == "friends":
            for i, s in enumerate(work.seats):
                at = s.takeover_at(delay)
                if at is not None and at <= now:
                    s.take_over()
                    work.set_state(work.state)
                    work.mark({"type": "takeover", "seat": i})
                    return
        turns = work.turns
        if room.mode == "friends":
            deadline = turns.deadline(room.game, room.pace, work.seats)
            if deadline is not None and deadline <= now and turns.seat is not None:
                _play_for(work, turns.seat)  # its time ran out
                return
            offer = None if turns.offered else turns.offer_at(room.pace, work.seats)
            if offer is not None and offer <= now:
                turns.offered = True  # room.allowed lists let_cpu_play from this version on
                work.mark({"type": "room"})
                return
        if room.step_at is None or room.step_at > now:
            return
        state = work.state
        step = state.pending_automatic()
        if step:
            state.apply_automatic()
            work.set_state(state)
            work.mark({"type": "automatic", "step": step})
            work.redoable = True  # decided by the state alone (Gin's deals are seeded too)
            return
        seat = state.current_player
        if seat is None or not (work.seats[seat].cpu or turns.covering(seat)):
            room.step_at = None
            work.changed = True
            work.event = {"type": "room"}
            return
        action = _cpu_action(work, seat)
        state.apply(seat, action)
        if room.first_action_at is None:
            room.first_action_at = now
        work.set_state(state)
        work.mark({"type": "action", "seat": seat, "by": "cpu", "action": action})

    return changes.Change(room_id, change)


@changes.Command
def let_cpu_play(room_id: str, held: list[int]) -> changes.Change:
    """Relaxed friends room: another seated player lets the CPU play the silent seat's turn."""

    def change(work: Work) -> None:
        work.check(held, "let_cpu_play")
        seat = work.turns.seat
        assert seat is not None  # the rule lets it through only while a person is to play
        _play_for(work, seat)

    return changes.Change(room_id, change)


def _play_for(work: Work, seat: int) -> None:
    """The CPU plays the turn of ``seat``'s person from the seat's own view: its first action
    now, the rest as a CPU's timed steps (``changes.next_step_at``), until the turn is over or
    the person plays. The third such turn in a row hands the seat to the CPU (the holder takes
    it back with ``take_seat``, or by connecting again)."""
    room = work.room
    if work.turns.cover(seat):
        work.seats[seat].take_over()
    state = work.state
    action = _cpu_action(work, seat)
    state.apply(seat, action)
    if room.first_action_at is None:
        room.first_action_at = work.now
    work.set_state(state)
    work.mark({"type": "action", "seat": seat, "by": "cpu", "action": action})


def _cpu_action(work: Work, seat: int) -> dict[str, Any]:
    room = work.room
    cpu = registry.cpu_module(room.game)
    raw = room.cpus.get(str(seat))
    view = work.state.view(seat)
    player = cpu.cpu_from_json(raw) if raw else cpu.make_cpu(
        room.cpu_level, seat, replays.cpu_seed(room, seat), room.options)
    if not raw:
        player.observe(view)
        replays.cpu_started(room, seat, room.version)  # it saw the state the change started from
    try:
        action: dict[str, Any] = player.choose(view)
        room.cpus[str(seat)] = player.to_json()
        return action
    except GameError:
        # A CPU that cannot decide must not stall the room: play the first legal action.
        log.exception("CPU for %s could not choose; playing the first legal action", room.game)
        first: dict[str, Any] = work.state.legal_actions(seat)[0]
        return first


# --------------------------------------------------------------------------------------------
# Server processes (processes.py): a process that dies without closing its connections
# (SIGKILL) stops beating, and the next sweep by any live process forgets its connections, so
# their seats become disconnected and are taken over after the usual delay.

def sweep(process_id: str, last_seen: datetime) -> list[Outcome]:
    """Forgets a dead process's connections in every room that counts one, then its row. The
    seats left without a connection are away since the process was last seen alive."""

    def change(work: Work) -> None:
        away = []
        for i, s in enumerate(work.seats):
            if not s.forget(process_id):
                continue
            work.changed = True
            if s.went_away(last_seen.isoformat()):
                away.append(i)
        if work.changed:
            work.mark({"type": "presence", "seats": away, "presence": "disconnected"})

    outcomes = []
    for room_id in processes.rooms_counting(process_id):
        try:
            outcomes.append(changes.apply(room_id, change))
        except GameError as exc:
            if exc.code != ErrorCode.ROOM_NOT_FOUND:
                raise  # the row stays: the next sweep tries again
    processes.forget(process_id)
    return outcomes


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
    but name nobody, so a game they finish is recorded for nobody. No view or summary shows a
    seat's user, so no connection needs a notice; the next change's carries the new version."""

    def change(work: Work) -> None:
        for s in work.seats:
            if s.user == user_id:
                s.user = None
                work.mark({"type": "room"})

    outcome = changes.apply(room_id, change)
    # Written inside the deletion's transaction, which may yet roll back: keep no copy of a
    # version that might never be committed (a later write from it could pass the version check).
    cache.forget(room_id)
    return outcome


# --------------------------------------------------------------------------------------------
# Reading: the front door's names for what storage.py reads.

load = storage.load  # the room as stored (the HTTP API, accounts' export)
events_after = storage.events_after  # what a reconnecting connection missed (the consumer)


def summary(room: Room) -> dict[str, Any]:
    """The public summary of GET /api/rooms/<id>: never a token or a hidden card."""
    return {"room_id": room.id, "game": room.game, "mode": room.mode, "options": room.options,
            "cpu_level": room.cpu_level, "status": room.status, "pace": room.pace,
            "seats": pace.seats_with_clock(room, [Seat.from_json(s) for s in room.seats], timezone.now()),
            "version": room.version, "invite_url": invite_url(room.id)}
