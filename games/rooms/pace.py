"""A room's pace (issue 38): nobody waits for ever for a player who stopped playing.

A friends room is ``relaxed`` (no clock), ``normal`` or ``quick``; every other room is relaxed
(a room against the CPU, on one device or solo has nobody to keep waiting). Under a clock the
seat to play has its game's seconds per turn (``GameSpec.paces``, times ``PACE_SCALE``); when
they run out the CPU plays that whole turn for it from the seat's own view, and the seat's
next own action plays on as before. After ``IN_A_ROW`` turns played for it in a row, the CPU
takes the seat over as after a disconnection, and its holder takes it back with ``take_seat``.
In a relaxed friends room, once the seat to play has been silent ``RELAXED_WAIT`` seconds
(times ``PACE_SCALE``), another seated player may ``let_cpu_play`` that one turn.

``Turns`` (the room row's ``turns``) is the turn being played (whose, since when, from which of
the engine's move counts) and each seat's counts this game: turns begun, turns the CPU played
for a person's seat, and turns played for it in a row. Its due times join the room's ``due_at``
(games/rooms/changes.py), so a deadline survives a restart like every timed step.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.rooms import registry
from games.rooms.seats import Seat
from games.rooms.seats import public as public_seats

PACES = ("relaxed", "normal", "quick")
DEFAULT = "relaxed"
IN_A_ROW = 3  # turns played for a seat in a row before the CPU takes the seat over
RELAXED_WAIT = 120.0  # seconds of silence before the others may let the CPU play (relaxed)


def scale() -> float:
    return float(settings.PACE_SCALE)


def turn_seconds(game: str, pace: str) -> float | None:
    """A turn's seconds at ``pace`` (scaled), or None for no clock."""
    if pace not in ("normal", "quick"):
        return None
    return registry.spec(game).paces.seconds(pace) * scale()


def relaxed_wait() -> float:
    return RELAXED_WAIT * scale()


def check_pace(pace: Any, mode: str) -> str:
    """The pace a new room asks for (None: relaxed), or ``invalid_pace``."""
    if pace is None:
        return DEFAULT
    if pace not in PACES:
        raise GameError(f"pace must be one of {', '.join(PACES)}.", ErrorCode.INVALID_PACE)
    if pace != DEFAULT and mode != "friends":
        raise GameError("Only a friends room has a pace; the others are relaxed.", ErrorCode.INVALID_PACE)
    return str(pace)


def _counts(players: int, values: Any) -> list[int]:
    return [int(v) for v in values] if values else [0] * players


@dataclass
class Turns:
    """``Room.turns``: the turn being played and each seat's counts this game."""

    seat: int | None = None  # whose turn it is; None while nobody's (an automatic step, the end)
    since: str | None = None  # ISO time the turn began (or its holder took the seat back)
    moves: int = 0  # the engine's move count when it began: a whole turn is ``actions_per_turn`` more
    covered: bool = False  # the CPU plays this turn for the seat (its time ran out, or let_cpu_play)
    offered: bool = False  # relaxed: the others have been told they may let the CPU play it
    played: list[int] = field(default_factory=list)  # turns begun, per seat
    cpu: list[int] = field(default_factory=list)  # of those, played by the CPU for a person's seat
    in_a_row: list[int] = field(default_factory=list)  # turns played for the seat in a row

    @classmethod
    def from_json(cls, data: dict[str, Any] | None, players: int) -> Turns:
        data = data or {}
        return cls(seat=data.get("seat"), since=data.get("since"), moves=int(data.get("moves", 0)),
                   covered=bool(data.get("covered")), offered=bool(data.get("offered")),
                   played=_counts(players, data.get("played")), cpu=_counts(players, data.get("cpu")),
                   in_a_row=_counts(players, data.get("in_a_row")))

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "since": self.since, "moves": self.moves, "covered": self.covered,
                "offered": self.offered, "played": list(self.played), "cpu": list(self.cpu),
                "in_a_row": list(self.in_a_row)}

    @property
    def since_time(self) -> datetime | None:
        return datetime.fromisoformat(self.since) if self.since else None

    def covering(self, seat: int | None) -> bool:
        """The CPU plays this turn of ``seat`` for its person."""
        return seat is not None and self.covered and self.seat == seat

    def follow(self, state: Any, seats: list[Seat], now: datetime, actions_per_turn: int) -> None:
        """After a change of the engine's state: a new turn begins when another seat is to play,
        or the same seat once it has played a whole turn; none runs while nobody is to play."""
        seat = None if state.is_over else state.current_player
        if seat is None:
            self.seat, self.since, self.covered, self.offered = None, None, False, False
            return
        if seat != self.seat or state.moves - self.moves >= actions_per_turn:
            self.seat, self.since, self.moves = seat, now.isoformat(), state.moves
            self.covered = self.offered = False
            self.played[seat] += 1
            if seats[seat].cpu and seats[seat].holder == "human":
                self.cpu[seat] += 1  # taken over: the CPU plays the whole turn

    def restart(self, seat: int, now: datetime) -> None:
        """The seat's holder is back (took it back, reconnected): its turn's clock starts again."""
        self.in_a_row[seat] = 0
        if self.seat == seat:
            self.since, self.covered, self.offered = now.isoformat(), False, False

    def played_by_human(self, seat: int, now: datetime, pace: str) -> None:
        """The seat's own action: whatever the CPU played for it before, it plays on now. In a
        relaxed room the silence before the others may let the CPU play starts again (under a
        clock the turn's deadline stays: its seconds are the whole turn's)."""
        self.in_a_row[seat] = 0
        if self.seat == seat:
            self.covered = False
            if pace == "relaxed":
                self.since, self.offered = now.isoformat(), False

    def cover(self, seat: int) -> bool:
        """The CPU plays this turn for ``seat`` (its time ran out, or the others asked). True
        when that makes ``IN_A_ROW`` in a row: the caller hands the seat to the CPU."""
        self.covered = True
        self.cpu[seat] += 1
        self.in_a_row[seat] += 1
        return self.in_a_row[seat] >= IN_A_ROW

    def waiting_on_person(self, seats: list[Seat]) -> int | None:
        """The seat to play when a person is to play it (not the CPU, for good or this turn)."""
        seat = self.seat
        if seat is None or self.covered or seats[seat].cpu or seats[seat].holder != "human":
            return None
        return seat

    def deadline(self, game: str, pace: str, seats: list[Seat]) -> datetime | None:
        """When the CPU plays the turn of the person to play, under a clock; else None."""
        seconds = turn_seconds(game, pace)
        since = self.since_time
        if seconds is None or since is None or self.waiting_on_person(seats) is None:
            return None
        return since + timedelta(seconds=seconds)

    def offer_at(self, pace: str, seats: list[Seat]) -> datetime | None:
        """Relaxed: when the others may let the CPU play the silent person's turn."""
        since = self.since_time
        if pace != "relaxed" or since is None or self.waiting_on_person(seats) is None:
            return None
        return since + timedelta(seconds=relaxed_wait())

    def due_times(self, game: str, pace: str, seats: list[Seat]) -> list[datetime]:
        """The times the scheduler must act at: the deadline, or telling the others they may
        let the CPU play (once)."""
        dues = [self.deadline(game, pace, seats)]
        if not self.offered:
            dues.append(self.offer_at(pace, seats))
        return [at for at in dues if at is not None]


def running_deadline(room: Any, seats: list[Seat]) -> datetime | None:
    """The deadline of the turn being played in the room, while a clock runs."""
    if room.status != "playing" or room.mode != "friends" or not room.turns:
        return None
    return Turns.from_json(room.turns, len(seats)).deadline(room.game, room.pace, seats)


def seats_with_clock(room: Any, seats: list[Seat], now: datetime) -> list[dict[str, Any]]:
    """``room.seats`` (docs/protocol.md, "Seats" and "Pace"): each seat's public entry, with
    ``timeouts`` (the turns the CPU played for it in a row) when there are any, and for the seat
    to play under a clock ``due`` (ms since the epoch), ``seconds_left`` (from ``now``) and
    ``turn_seconds`` (the whole turn's)."""
    entries = public_seats(seats)
    if not room.turns:
        return entries
    turns = Turns.from_json(room.turns, len(seats))
    for entry, timeouts in zip(entries, turns.in_a_row, strict=True):
        if timeouts:
            entry["timeouts"] = timeouts
    deadline = running_deadline(room, seats)
    if deadline is not None and turns.seat is not None:
        entries[turns.seat].update(due=int(deadline.timestamp() * 1000),
                                   seconds_left=round(max(0.0, (deadline - now).total_seconds()), 3),
                                   turn_seconds=turn_seconds(room.game, room.pace))
    return entries
