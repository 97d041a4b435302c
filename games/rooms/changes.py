"""A change to one room, start to end: ``apply`` takes the room (this process's copy of the row
it wrote last, or a fresh read), runs a command's ``change(work)`` on it, ``settle``s what follows
from any change (the CPUs see the new state, the game may be over, the next step is timed) and
hands the room to ``storage.commit``, which writes it under a version check with its public event
row, all or nothing. A writer that lost the race updates nothing; ``apply`` reloads and runs the
change again on the new room (a client that named the version it acted on gets
``stale_version`` instead), so concurrent changes are never merged. A refusal is a
``GameError``; nothing is written.

The commands themselves, and who may make them, are games/rooms/service.py's; how they are
called and announced, games/rooms/commands.py's.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any

import psycopg
from django.db import DatabaseError
from django.utils import timezone

from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.models import Room
from games.rooms import allowed, cache, processes, registry, replays, sessions, storage
from games.rooms.pace import Turns
from games.rooms.seats import Seat

log = logging.getLogger(__name__)

MAX_RETRIES = 8


@dataclass
class Work:
    """A room being changed: the caller edits it, ``storage.commit`` writes it if anything changed."""

    room: Room
    now: datetime
    _state: Any = None  # the engine's state, decoded (or copied from ``_written``) on first use
    _written: Any = None  # the state ``room.state`` was encoded from, when this process kept it
    _seats: list[Seat] | None = None  # the room's seats, decoded on first use
    _turns: Turns | None = None  # the room's turns (games/rooms/pace.py), decoded on first use
    state_changed: bool = False
    changed: bool = False
    # The change is a pure function of the row it started from, which the scheduler redoes the
    # same if a PostgreSQL crash loses it (an automatic step): storage.commit need not wait for
    # its WAL flush.
    redoable: bool = False
    event: dict[str, Any] | None = None
    finished_record: dict[str, Any] | None = None
    reply: dict[str, Any] = field(default_factory=dict)

    @property
    def engine(self) -> ModuleType:
        return registry.engine(self.room.game)

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = (self._written.copy() if self._written is not None
                           else self.engine.State.from_json(self.room.state))
        return self._state

    @property
    def seats(self) -> list[Seat]:
        if self._seats is None:
            self._seats = [Seat.from_json(s) for s in self.room.seats]
        return self._seats

    @property
    def turns(self) -> Turns:
        if self._turns is None:
            self._turns = Turns.from_json(self.room.turns, len(self.seats))
        return self._turns

    def new_turns(self) -> None:
        """A new game: its turns are counted from nothing."""
        self._turns = Turns.from_json(None, len(self.seats))

    def check(self, held: Sequence[int], kind: str, seat: int | None = None) -> list[int]:
        """Refuses the room action ``kind`` as ``room.allowed`` would leave it out (one rule,
        games/rooms/allowed.py); else the seats of ``held`` still held."""
        refused = allowed.refusal(self.room, self.seats, held, kind, seat, self.turns, self.now)
        if refused:
            code, message = refused
            raise GameError(message, code)
        return allowed.holding(self.seats, held)

    def set_state(self, state: Any) -> None:
        self._state = state
        self.state_changed = True
        self.changed = True

    def mark(self, event: dict[str, Any]) -> None:
        self.changed = True
        self.event = event


@dataclass
class Outcome:
    room: Room
    changed: bool
    reply: dict[str, Any]
    event: dict[str, Any] | None = None


@dataclass
class Change:
    """A command's change to one room, not yet applied: ``apply`` runs it on the calling thread's
    database connection, ``apply_on_loop`` from the event loop (games/rooms/commands.py)."""

    room_id: str
    change: Callable[[Work], None]
    expected_version: int | None = None


@dataclass
class _Load:
    room_id: str


@dataclass
class _Commit:
    work: Work
    event: dict[str, Any]

    def arguments(self) -> tuple[Room, dict[str, Any], dict[str, Any] | None, datetime, bool]:
        """``storage.commit``'s (and ``commit_on_loop``'s)."""
        work = self.work
        return work.room, self.event, work.finished_record, work.now, work.redoable


Attempts = Generator["_Load | _Commit", Any, Outcome]


def _next(attempts: Attempts, answer: Room | storage.Texts | None) -> _Load | _Commit | Outcome:
    """The attempts' next request for I/O, given the answer to the last; or their outcome."""
    try:
        return attempts.send(answer)
    except StopIteration as done:
        outcome: Outcome = done.value
        return outcome


def _attempts(room_id: str, change: Callable[[Work], None], expected_version: int | None) -> Attempts:
    """Runs ``change(work)`` on a fresh copy of the room until a write under the version check
    succeeds. It asks its driver for the I/O: ``_Load`` (the row, as ``storage.load``) and
    ``_Commit`` (the texts written, or None), so one definition serves the threads and the event
    loop. It starts from this process's cache of the room (games/rooms/cache.py) and puts the
    committed change there, before any other change can start from the room."""
    for attempt in range(MAX_RETRIES):
        kept = cache.copy(room_id) if attempt == 0 else None
        cached = kept is not None
        if kept is not None:
            room, written_state = kept
        else:
            room, written_state = (yield _Load(room_id)), None
        try:
            if expected_version is not None and room.version != expected_version:
                raise GameError(f"The room is at version {room.version}, not "
                                f"{expected_version}; nothing was done.", ErrorCode.STALE_VERSION)
            work = Work(room=room, now=timezone.now(), _written=written_state)
            change(work)
        except GameError as exc:
            if cached and (not processes.this_process.alone or exc.code == ErrorCode.STALE_VERSION):
                continue  # decided again from the database's row
            raise
        if not work.changed:
            if cached:
                continue
            return Outcome(room, False, work.reply)
        settle(work)
        event = work.event or {"type": "room"}
        # The state the row now holds: the change's own, or the one it started from.
        state = work.state if work.state_changed else written_state
        texts = yield _Commit(work, event)
        if texts is None:
            cache.forget(room_id)  # the row moved on without this process
            continue
        cache.committed(work.room, texts, event, state, work._seats)
        return Outcome(work.room, True, work.reply, event)
    raise GameError("The room is busy; try again.", ErrorCode.UNAVAILABLE)


def apply(room_id: str, change: Callable[[Work], None], expected_version: int | None = None) -> Outcome:
    """Runs ``change(work)`` on a fresh copy of the room and writes it under a version check,
    on this thread's database connection."""
    attempts = _attempts(room_id, change, expected_version)
    try:
        step = _next(attempts, None)
        while not isinstance(step, Outcome):
            step = _next(attempts, storage.load(step.room_id) if isinstance(step, _Load)
                         else storage.commit(*step.arguments()))
        return step
    except DatabaseError:
        log.exception("database error while changing a room")
        raise GameError("The server cannot save right now; try again.", ErrorCode.UNAVAILABLE) from None


async def apply_on_loop(change: Change) -> Outcome:
    """``apply`` from the event loop: on PostgreSQL the change's write goes through the loop's
    own connections (games/rooms/loop_db.py), without a hop to the rooms' threads; a read, a
    change that finishes a game (its records go out from the threads) and SQLite's writes go to
    the threads. The change itself is computed here, as it is on a thread."""
    attempts = _attempts(change.room_id, change.change, change.expected_version)
    try:
        step = _next(attempts, None)
        while not isinstance(step, Outcome):
            step = _next(attempts, await storage.load_on_loop(step.room_id) if isinstance(step, _Load)
                         else await storage.commit_on_loop(*step.arguments()))
        return step
    except (DatabaseError, psycopg.Error):
        log.exception("database error while changing a room")
        raise GameError("The server cannot save right now; try again.", ErrorCode.UNAVAILABLE) from None


def settle(work: Work) -> None:
    """What follows from any change: CPUs see it, the game may be over, the next step is timed."""
    room = work.room
    if work.state_changed:
        room.state = work.state.to_json()
        if room.status == "playing":
            work.turns.follow(work.state, work.seats, work.now, registry.spec(room.game).paces.actions_per_turn)
        if room.status == "playing" and work.state.is_over:
            finish(work, work.state.result(), resigned=None)
        feed_cpus(work)
        room.step_at = next_step_at(work)
    if work._seats is not None:
        room.seats = [s.to_json() for s in work._seats]
    if work._turns is not None:
        room.turns = work._turns.to_json()
    if room.status != "playing":
        room.step_at = None
    dues = [room.step_at] if room.step_at else []
    if room.status == "playing" and room.mode == "friends":
        delay = timedelta(seconds=registry.takeover_delay())
        dues += [at for s in work.seats if (at := s.takeover_at(delay)) is not None]
        dues += work.turns.due_times(room.game, room.pace, work.seats)
    room.due_at = min(dues) if dues else None


def next_step_at(work: Work) -> datetime | None:
    state = work.state
    room = work.room
    if room.status != "playing" or state.is_over:
        return None
    step = state.pending_automatic()
    if step:
        delay = registry.automatic_delay(room.game, step)
        return None if delay is None else work.now + timedelta(seconds=delay)
    seat = state.current_player
    if seat is not None and (work.seats[seat].cpu or work.turns.covering(seat)):
        return work.now + timedelta(seconds=registry.cpu_delay(room.game))
    return None


def feed_cpus(work: Work) -> None:
    """Every CPU seat sees its own view after every change of the state (and only that)."""
    room = work.room
    cpu = registry.cpu_module(room.game)
    memories = {}
    for seat, s in enumerate(work.seats):
        if not s.cpu:
            continue
        raw = room.cpus.get(str(seat))
        if raw:
            player = cpu.cpu_from_json(raw)
        else:
            player = cpu.make_cpu(room.cpu_level, seat, replays.cpu_seed(room, seat), room.options)
            replays.cpu_started(room, seat, replays.new_version(room))
        player.observe(work.state.view(seat))
        memories[str(seat)] = player.to_json()
    room.cpus = memories


def finish(work: Work, result: dict[str, Any], resigned: int | None) -> None:
    room = work.room
    room.status = "finished"
    replays.game_over(room, work.state)
    turns = work.turns
    # Turns the CPU played for each person's seat (its time ran out, the others let it, or it
    # was taken over): the result says so, and a seat mostly played by the CPU is unfinished
    # for its person, neither a win nor a loss (docs/protocol.md, "Pace").
    room.result = {**result, "resigned": resigned, "cpu_turns": list(turns.cpu)}
    ranking = result["ranking"]
    draw = result.get("draw", False)
    winners = set(result.get("winners") or ranking[0])
    started = room.first_action_at or room.created_at
    if registry.spec(room.game).session is not None:
        room.session = sessions.add_game(room.session, room.game, work.state.session_tally(), winners, draw,
                                         (work.now - started).total_seconds(), resigned is not None)
    seats = []
    for i, s in enumerate(work.seats):
        rank = next(r for r, group in enumerate(ranking, 1) if i in group)
        scores = result.get("scores")
        seats.append({
            "seat": i,
            "holder": "cpu" if s.cpu or s.holder != "human" else "human",
            "user_id": s.user if not s.cpu else None,
            "result": ("unfinished" if turns.cpu[i] * 2 > turns.played[i]
                       else "draw" if draw and i in winners else ("win" if i in winners else "loss")),
            "score": scores[i] if scores else None,
            "rank": rank,
            "resigned": resigned == i,
            "failed_flips": result.get("failed_flips") if room.mode == "solo" else None,
        })
    work.finished_record = {
        "game": room.game,
        "mode": room.mode,
        "options": room.options,
        "cpu_level": room.cpu_level or None,
        "moves": int(getattr(work.state, "moves", 0)),
        "duration_seconds": round((work.now - started).total_seconds(), 3),
        "started_at": started,
        "finished_at": work.now,
        "seats": seats,
        "room_origin": room.origin or None,
        "reconnections": room.reconnections,
    }
