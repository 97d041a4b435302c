"""What each connection is sent, built from a per-process cache of each room's latest version.

After a change, every consumer of the room in this process is told the new version number; the
first one to ask loads the room once and the others reuse that snapshot (and its views), so a
change costs one read per process, not one per connection.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from games.models import Room
from games.rooms import allowed, pace, registry, replays, service, sessions, storage
from games.rooms.jsontext import dumps as _dumps
from games.rooms.seats import Seat

CACHE_SIZE = 2000


@dataclass
class Snapshot:
    room: Room                      # at ``version``
    event: dict[str, Any] | None    # the public event that made this version
    _state: Any = None              # the engine's state, decoded for the first view
    _view_texts: dict[int | None, str] = field(default_factory=dict)
    _seats: list[Seat] | None = None  # the room's seats, decoded for the first connection
    _shared_room_text: str | None = None  # what every connection's ``room`` says alike
    _clocked: bool | None = None  # a turn's clock runs: the seats' seconds left change with time
    _event_text: str | None = None

    @property
    def seats(self) -> list[Seat]:
        if self._seats is None:
            self._seats = [Seat.from_json(s) for s in self.room.seats]
        return self._seats

    @property
    def version(self) -> int:
        return int(self.room.version)

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = registry.engine(self.room.game).State.from_json(self.room.state)
            # A row read after another process's change: this process's next change of the
            # room starts from this state too (a copy), not from its text decoded again.
            storage.written.keep_state(self.room.id, self.version, self._state)
        return self._state

    def view_text(self, seat: int | None) -> str:
        """The JSON text of the engine's ``view(seat)``, built and encoded once per seat and
        snapshot: every connection of that seat in this process is sent the same text. Encoded
        whole, in one orjson call: encoding key by key to share the values the seats' views have
        in common cost more than building the view."""
        text = self._view_texts.get(seat)
        if text is None:
            text = self._view_texts[seat] = _dumps(self.state.view(seat))
        return text

    @property
    def current_player(self) -> int | None:
        player: int | None = self.state.current_player
        return player


async def _read(room_id: str) -> Snapshot:
    room, event = await storage.load_with_event_on_loop(room_id)
    return Snapshot(room=room, event={"version": room.version, **event} if event else None)


_cache: OrderedDict[str, Snapshot] = OrderedDict()
_locks: dict[str, asyncio.Lock] = {}


async def snapshot(room_id: str, min_version: int = 0) -> Snapshot:
    lock = _locks.setdefault(room_id, asyncio.Lock())
    async with lock:
        snap = _cache.get(room_id)
        if snap is None or snap.version < min_version:
            snap = await _read(room_id)
            storage.written.note_version(room_id, snap.version)
            _cache[room_id] = snap
        _cache.move_to_end(room_id)
        while len(_cache) > CACHE_SIZE:
            old, _ = _cache.popitem(last=False)
            _locks.pop(old, None)
        return snap


def rooms_kept() -> int:
    """How many rooms this process keeps a snapshot of (GET /metrics)."""
    return len(_cache)


def remember(room: Room, event: dict[str, Any] | None, state: Any = None, seats: list[Seat] | None = None) -> None:
    """A change made by this process: its result is the newest snapshot, no need to read it.
    ``state`` and ``seats``, when given, are what ``room.state`` and ``room.seats`` were encoded
    from (not decoded again for the views and the room's seats; nothing changes them once
    written)."""
    current = _cache.get(room.id)
    if current is None or current.version < room.version:
        _cache[room.id] = Snapshot(room=room, event={"version": room.version, **event} if event else None,
                                   _state=state, _seats=seats)


def view_seat(snap: Snapshot, seats: list[int]) -> int | None:
    """Whose view this connection is sent: its seat's, a spectator's, or (holding several
    seats on one device) the view of the seat whose turn it is."""
    if not seats:
        return None
    if len(seats) == 1:
        return seats[0]
    current = snap.current_player
    return current if current in seats else seats[0]


def _shared_room_text(snap: Snapshot) -> str:
    """What every connection's ``room`` says alike, as JSON members: once per snapshot, or
    once per message while a turn's clock runs (its seconds left are counted from now)."""
    if snap._clocked is None:
        snap._clocked = pace.running_deadline(snap.room, snap.seats) is not None
    if snap._shared_room_text is None or snap._clocked:
        room = snap.room
        shared = _dumps({
            "id": room.id,
            "game": room.game,
            "mode": room.mode,
            "status": room.status,
            "pace": room.pace,
            "options": room.options,
            "cpu_level": room.cpu_level,
            "seats": pace.seats_with_clock(room, snap.seats, timezone.now()),
            "result": room.result,
            "session": sessions.public(room.session, room.game),
            "next_room": service.invite_url(room.next_room) if room.next_room else None,
            "fairness": replays.public(room),
        })
        snap._shared_room_text = shared[1:-1]
    return snap._shared_room_text


def room_info_text(snap: Snapshot, seats: list[int]) -> str:
    """The ``room`` of a state message for a connection holding ``seats``, as JSON text: the
    members every connection shares (encoded once per snapshot), then this connection's own."""
    own = _dumps({
        "creator": 0 in seats,
        "you": {"role": "player" if seats else "spectator", "seats": list(seats)},
        "allowed": allowed.allowed(snap.room, snap.seats, seats),
    })
    return "{" + _shared_room_text(snap) + "," + own[1:]


def state_text(snap: Snapshot, seats: list[int], ref: Any = None, missed: list[dict[str, Any]] | None = None,
               resync: bool | None = None) -> str:
    """The ``state`` message for a connection holding ``seats``, as the JSON text it is sent.
    The room's shared members, the event and the view go in as text encoded once per snapshot
    (the view once per seat): each connection encodes only what is its own."""
    if snap._event_text is None:
        snap._event_text = _dumps(snap.event)
    text = (f'{{"type":"state","version":{snap.version},"room":{room_info_text(snap, seats)},'
            f'"event":{snap._event_text}')
    if ref is not None:
        text += f',"ref":{_dumps(ref)}'
    if resync is not None:
        text += f',"missed":{_dumps(missed)},"resync":{_dumps(resync)}'
    return f'{text},"view":{snap.view_text(view_seat(snap, seats))}}}'
