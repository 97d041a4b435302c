"""A room's seat: whom it belongs to, who plays it now, and when that changes hands.

``Room.seats`` stores one JSON object per seat (its keys: the comment in games/models.py).
``Seat`` is that object as a value with its rules, each written here once:

- ``presence``: who plays the seat now (``free``, ``cpu``, ``connected``, ``disconnected``), and
  ``public_holder``: whom it belongs to (docs/protocol.md, "Seats");
- which seats a token holds (``held_by``): a person's seat, not left, with that token;
- when the CPU covers a seat (``takeover_at``, ``take_over``): a person away for the takeover
  delay in a friends room; the same person's token brings it back (``connect``);
- which seats may be taken (``take_refusal``): in a friends game, any seat the CPU is playing.

``to_json`` writes exactly the keys of ``from_json``'s input, so a room saved by this version
loads on the version before it and back (a rolling deploy): ``former_token`` is stored once the
seat has changed hands (``take_seat``, ``leave``), null included, and absent before.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from games.engines.base import SEAT_COLOURS
from games.engines.errors import ErrorCode


@dataclass
class Seat:
    holder: str  # "human" (a person's token), "cpu" (no person's: a CPU seat), "none" (free)
    token: str | None = None  # the SHA-256 hash of the seat's token
    user: int | None = None  # the signed-in account its finished games are recorded for
    conns: dict[str, int] = field(default_factory=dict)  # open connections per server process
    away_since: str | None = None  # ISO time its last connection closed, until it is taken over
    cpu: bool = False  # the CPU plays it now
    left: bool = False  # its person left it (``leave``): the CPU plays it for good
    seen: bool = False  # its person has connected at least once (a reconnection counts after)
    former_token: str | None = None  # the token it had before it changed hands
    changed_hands: bool = False  # stored with ``former_token`` (see the module's docstring)

    @classmethod
    def for_cpu(cls) -> Seat:
        return cls("cpu", cpu=True)

    @classmethod
    def arrived(cls, token_hash: str, user_id: int | None, process: str) -> Seat:
        """A person's new seat (``join``), connected over the connection that asked for it."""
        return cls("human", token_hash, user=user_id, conns={process: 1}, seen=True)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(holder=data["holder"], token=data["token"], user=data["user"], conns=dict(data["conns"]),
                   away_since=data["away_since"], cpu=data["cpu"], left=data["left"], seen=data["seen"],
                   former_token=data.get("former_token"), changed_hands="former_token" in data)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"holder": self.holder, "token": self.token, "user": self.user,
                                "conns": dict(self.conns), "away_since": self.away_since, "cpu": self.cpu,
                                "left": self.left, "seen": self.seen}
        if self.changed_hands:
            data["former_token"] = self.former_token
        return data

    # ---- what it is now ----------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return sum(self.conns.values()) > 0

    @property
    def presence(self) -> str:
        if self.holder == "none":
            return "free"
        if self.cpu:
            return "cpu"
        return "connected" if self.connected else "disconnected"

    @property
    def public_holder(self) -> str:
        """``human`` while a person's token holds it (even away or taken over by the CPU, since
        the token brings it back), ``cpu`` once no person does (a CPU seat, or one its holder
        left), ``none`` while free."""
        return "cpu" if self.left else self.holder

    @property
    def held(self) -> bool:
        """A person's token holds it (a seat left, or never a person's, is nobody's)."""
        return self.holder == "human" and not self.left and self.token is not None

    def held_by(self, token_hash: str | None) -> bool:
        """``token_hash`` holds it now."""
        return (self.held and token_hash is not None and self.token is not None
                and secrets.compare_digest(self.token, token_hash))

    def was_held_by(self, token_hash: str | None) -> bool:
        """The token held it before it changed hands."""
        return (token_hash is not None and self.former_token is not None
                and secrets.compare_digest(self.former_token, token_hash))

    # ---- the takeover rule -------------------------------------------------------------------

    def takeover_at(self, delay: timedelta) -> datetime | None:
        """When the CPU takes over a person's seat left without a connection (in a friends game:
        the caller's to say), or None while it is connected or the CPU plays it already."""
        if self.away_since is None or self.cpu or self.holder != "human":
            return None
        return datetime.fromisoformat(self.away_since) + delay

    def take_over(self) -> None:
        self.cpu = True
        self.away_since = None

    def connect(self, process: str, user_id: int | None) -> bool:
        """A connection of its holder opened (``hello``): it is connected, bound to the signed-in
        account, and the CPU gives back a seat it took over. True when this reconnects it."""
        reconnected = self.seen and not self.connected
        self.seen = True
        self.conns[process] = self.conns.get(process, 0) + 1
        self.away_since = None
        if user_id is not None:
            self.user = user_id
        self.cpu = False
        return reconnected

    def drop(self, process: str) -> None:
        """One of its connections in ``process`` closed."""
        if self.conns.get(process, 0) > 1:
            self.conns[process] -= 1
        else:
            self.conns.pop(process, None)

    def forget(self, process: str) -> bool:
        """``process`` died: its connections are gone. True when it had any here."""
        return self.conns.pop(process, None) is not None

    def went_away(self, since: str) -> bool:
        """Its last connection closed: a person's seat is away from then (the CPU takes it over
        after the delay). True when it is away now."""
        if self.connected or self.cpu or self.holder != "human":
            return False
        self.away_since = self.away_since or since
        return True

    def leave(self) -> None:
        """Its person leaves it: the CPU plays it for good; the token only learns what happened."""
        self.former_token, self.changed_hands = self.token, True
        self.token, self.cpu, self.left, self.conns, self.away_since = None, True, True, {}, None

    def taken_by(self, token_hash: str, user_id: int | None, process: str) -> Seat:
        """The seat as a new person who took it (``take_seat``) holds it. The token it replaces
        (or its holder's who left it) is remembered, so that holder, coming back, is told it was
        taken rather than silently made a spectator."""
        seat = Seat.arrived(token_hash, user_id, process)
        seat.former_token, seat.changed_hands = self.token or self.former_token, True
        return seat


def take_refusal(mode: str, status: str, seats: list[Seat], index: int | None) -> tuple[ErrorCode, str] | None:
    """Why seat ``index`` may not be taken now (a code and a message), or None: a seat the CPU
    is playing, in a friends game. ``index`` is a whole number (the message's schema says so)."""
    if mode != "friends":
        return ErrorCode.SEAT_NOT_AVAILABLE, "Seats can only be taken in a friends room."
    if status != "playing":
        return ErrorCode.SEAT_NOT_AVAILABLE, "Seats can be taken only during a game."
    if index is None or not 0 <= index < len(seats):
        return ErrorCode.BAD_FIELD, "seat must be a seat number of this room."
    if not seats[index].cpu:
        return ErrorCode.SEAT_NOT_AVAILABLE, "Only a seat the CPU is playing can be taken."
    return None


def seats_held_by(seats: list[Seat], token_hash: str | None) -> list[int]:
    """The seats a token holds now (not one given up or taken by someone else since)."""
    return [i for i, s in enumerate(seats) if s.held_by(token_hash)]


def public(seats: list[Seat]) -> list[dict[str, Any]]:
    """``room.seats`` as every connection and the summary show it (docs/protocol.md, "Seats")."""
    return [{"seat": i, "colour": SEAT_COLOURS[i], "name": SEAT_COLOURS[i].capitalize(),
             "holder": s.public_holder, "presence": s.presence} for i, s in enumerate(seats)]
