"""What each connection is sent, built from a per-process cache of each room's latest version.

After a change, every consumer of the room in this process is told the new version number; the
first one to ask loads the room once and the others reuse that snapshot (and its views), so a
change costs one read per process, not one per connection.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field


from games.models import RoomEvent
from games.rooms import db, registry, service

CACHE_SIZE = 2000


@dataclass
class Snapshot:
    room: object          # games.models.Room at ``version``
    event: dict | None    # the public event that made this version
    _state: object = None
    _views: dict = field(default_factory=dict)

    @property
    def version(self) -> int:
        return self.room.version

    def view(self, seat: int | None) -> dict:
        if seat not in self._views:
            if self._state is None:
                self._state = registry.engine(self.room.game).State.from_json(self.room.state)
            self._views[seat] = self._state.view(seat)
        return self._views[seat]

    @property
    def current_player(self):
        self.view(None)
        return self._state.current_player


def _read(room_id: str) -> Snapshot:
    room = service.load(room_id)
    row = RoomEvent.objects.filter(room_id=room_id, version=room.version).values_list("event", flat=True).first()
    return Snapshot(room=room, event={"version": room.version, **row} if row else None)


_cache: OrderedDict[str, Snapshot] = OrderedDict()
_locks: dict[str, asyncio.Lock] = {}


async def snapshot(room_id: str, min_version: int = 0) -> Snapshot:
    lock = _locks.setdefault(room_id, asyncio.Lock())
    async with lock:
        snap = _cache.get(room_id)
        if snap is None or snap.version < min_version:
            snap = await db.call(_read, room_id)
            service.note_version(room_id, snap.version)
            _cache[room_id] = snap
        _cache.move_to_end(room_id)
        while len(_cache) > CACHE_SIZE:
            old, _ = _cache.popitem(last=False)
            _locks.pop(old, None)
        return snap


def remember(room, event: dict | None) -> None:
    """A change made by this process: its result is the newest snapshot, no need to read it."""
    current = _cache.get(room.id)
    if current is None or current.version < room.version:
        _cache[room.id] = Snapshot(room=room, event={"version": room.version, **event} if event else None)


def seats_view(snap: Snapshot, seats: list[int]) -> dict:
    """The engine view this connection may see: its seat's, a spectator's, or (holding several
    seats on one device) the view of the seat whose turn it is."""
    if not seats:
        return snap.view(None)
    if len(seats) == 1:
        return snap.view(seats[0])
    current = snap.current_player
    return snap.view(current if current in seats else seats[0])


def room_info(snap: Snapshot, seats: list[int]) -> dict:
    room = snap.room
    return {
        "id": room.id,
        "game": room.game,
        "mode": room.mode,
        "status": room.status,
        "options": room.options,
        "cpu_level": room.cpu_level,
        "creator": 0 in seats,
        "you": {"role": "player" if seats else "spectator", "seats": list(seats)},
        "seats": service.public_seats(room.seats),
        "result": room.result,
        "next_room": service.invite_url(room.next_room) if room.next_room else None,
    }


def state_message(snap: Snapshot, seats: list[int], ref=None, missed=None, resync=None) -> dict:
    message = {"type": "state", "version": snap.version, "room": room_info(snap, seats),
               "view": seats_view(snap, seats), "event": snap.event}
    if ref is not None:
        message["ref"] = ref
    if resync is not None:
        message["missed"] = missed
        message["resync"] = resync
    return message
