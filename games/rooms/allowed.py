"""The room actions a connection may send now: one rule, which the service enforces and every
``state`` message lists as ``room.allowed`` (docs/protocol.md), so a client that offers only
what is listed is never refused and needs no rule of its own.

``refusal`` says why an action is refused (the code and message of the ``GameError`` the service
raises) or None; ``allowed`` lists every action ``refusal`` lets through. Game actions are the
engine's (a view's ``legal_actions``), not these.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.engines.errors import ErrorCode
from games.models import Room
from games.rooms import registry
from games.rooms.messages import ROOM_ACTIONS
from games.rooms.pace import Turns
from games.rooms.seats import Seat, take_refusal

Refusal = tuple[ErrorCode, str]

# In the order of docs/protocol.md's table of client messages.


def holding(seats: list[Seat], held: Sequence[int]) -> list[int]:
    """Of the seats a connection held when it last heard from the room, those still held."""
    return [i for i in held if seats[i].held]


def _join(room: Room, seats: list[Seat], now_held: list[int]) -> Refusal | None:
    if room.mode != "friends" or room.status != "waiting":
        return ErrorCode.NO_FREE_SEAT, "This room has no free seat to join."
    if not any(s.holder == "none" for s in seats):
        return ErrorCode.NO_FREE_SEAT, "Every seat is taken."
    return None


def _start(room: Room, seats: list[Seat], now_held: list[int]) -> Refusal | None:
    if 0 not in now_held:
        return ErrorCode.NOT_CREATOR, "Only the room's creator can start the game."
    if room.status != "waiting":
        return ErrorCode.NOT_ALLOWED, "The game has already started."
    return None


def _leave(room: Room, seats: list[Seat], now_held: list[int]) -> Refusal | None:
    if room.mode != "friends" or len(seats) < 3:
        return (ErrorCode.NOT_ALLOWED,
                "Leaving is for games of 3 or more players with friends; in a 2-player game, resign.")
    if room.status != "playing":
        return ErrorCode.NOT_ALLOWED, "The game is not being played."
    return None


def _resign(room: Room, seats: list[Seat], now_held: list[int]) -> Refusal | None:
    if len(seats) != 2 or room.mode not in ("cpu", "friends"):
        return ErrorCode.NOT_ALLOWED, "Resigning is for 2-player games; in larger games, leave."
    if room.status != "playing":
        code = ErrorCode.GAME_OVER if room.status == "finished" else ErrorCode.GAME_NOT_STARTED
        return code, "The game is not being played."
    return None


def _play_again(room: Room, seats: list[Seat], now_held: list[int]) -> Refusal | None:
    if room.status != "finished":
        return ErrorCode.NOT_ALLOWED, "Play again once the game is over."
    return None


def _new_session(room: Room, seats: list[Seat], now_held: list[int]) -> Refusal | None:
    if not_over := _play_again(room, seats, now_held):
        return not_over
    if registry.spec(room.game).session is None:
        return ErrorCode.NOT_ALLOWED, "This game keeps no session."
    if room.mode == "solo":
        # A solo player is shown no session (only the game's own failed flips): nothing to restart.
        return ErrorCode.NOT_ALLOWED, "A solo game keeps no session to start again; play again."
    return None


def _new_link(room: Room, seats: list[Seat], now_held: list[int]) -> Refusal | None:
    if room.status != "finished":
        return ErrorCode.NOT_ALLOWED, "A new link is made from the result screen."
    return None


def let_cpu_play_refusal(room: Room, seats: list[Seat], now_held: list[int], turns: Turns | None,
                         now: datetime | None) -> Refusal | None:
    """A relaxed friends room whose seat to play, a person's, has been silent for the relaxed
    wait (games/rooms/pace.py): any other seated player may let the CPU play that turn."""
    if room.mode != "friends" or room.pace != "relaxed" or room.status != "playing":
        return ErrorCode.NOT_ALLOWED, "Letting the CPU play a turn is for relaxed rooms with friends."
    turns = turns or Turns.from_json(room.turns, len(seats))
    waiting = turns.waiting_on_person(seats)
    if waiting is None:
        return ErrorCode.NOT_ALLOWED, "Nobody is keeping the table waiting."
    if waiting in now_held:
        return ErrorCode.NOT_ALLOWED, "It is your own turn: play it."
    offer = turns.offer_at(room.pace, seats)
    if offer is None or (now or timezone.now()) < offer:
        return ErrorCode.NOT_ALLOWED, "The CPU can be asked to play a turn only after 2 minutes without a move."
    return None


_HOLDERS_ONLY: dict[str, Callable[[Room, list[Seat], list[int]], Refusal | None]] = {
    "start": _start, "leave": _leave, "resign": _resign, "play_again": _play_again,
    "new_session": _new_session, "new_link": _new_link}


def _take_back_refusal(room: Room, seats: list[Seat], now_held: list[int], seat: int | None) -> Refusal | None:
    """A seat holder's ``take_seat`` names its own seat, which the CPU took over (its time ran
    out too often, or it was away): it takes it back."""
    if seat not in now_held or room.mode != "friends" or room.status != "playing":
        return ErrorCode.NOT_ALLOWED, "You already hold a seat."
    if not seats[seat].cpu:
        return ErrorCode.SEAT_NOT_AVAILABLE, "You are playing this seat already."
    return None


def refusal(room: Room, seats: list[Seat], held: Sequence[int], kind: str, seat: int | None = None,
            turns: Turns | None = None, now: datetime | None = None) -> Refusal | None:
    """Why a connection holding ``held`` may not send the room action ``kind`` now (``seat``:
    the seat ``take_seat`` names; ``turns`` and ``now``: the room's turns and the time, read
    from the room and the clock when not given), or None when it may."""
    now_held = holding(seats, held)
    if kind in ("join", "take_seat"):
        if now_held:
            return _take_back_refusal(room, seats, now_held, seat) if kind == "take_seat" else (
                ErrorCode.NOT_ALLOWED, "You already hold a seat.")
        if kind == "join":
            return _join(room, seats, now_held)
        return take_refusal(room.mode, room.status, seats, seat)
    if not now_held:
        return ErrorCode.NOT_A_PLAYER, "Only a seat holder can do that."
    if kind == "let_cpu_play":
        return let_cpu_play_refusal(room, seats, now_held, turns, now)
    return _HOLDERS_ONLY[kind](room, seats, now_held)


def allowed(room: Room, seats: list[Seat], held: Sequence[int]) -> dict[str, Any]:
    """``room.allowed``: each room action ``refusal`` lets through, ``true``, or for
    ``take_seat`` the seats it may name; an action left out is refused."""
    listed: dict[str, Any] = {}
    for kind in ROOM_ACTIONS:
        if kind == "take_seat":
            free = [i for i in range(len(seats)) if refusal(room, seats, held, kind, i) is None]
            if free:
                listed[kind] = free
        elif refusal(room, seats, held, kind) is None:
            listed[kind] = True
    return listed
