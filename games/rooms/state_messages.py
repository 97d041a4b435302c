"""The ``state`` message each connection is sent (docs/protocol.md), built from the room's entry
in this process's cache (games/rooms/cache.py): what every connection of the room is sent alike
is encoded once per version, each seat's view once per seat, and each connection encodes only
what is its own.
"""
from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.rooms import allowed, links, pace, replays, sessions
from games.rooms.cache import Entry
from games.rooms.jsontext import dumps


def view_seat(entry: Entry, seats: list[int]) -> int | None:
    """Whose view this connection is sent: its seat's, a spectator's, or (holding several
    seats on one device) the view of the seat whose turn it is."""
    if not seats:
        return None
    if len(seats) == 1:
        return seats[0]
    current = entry.current_player
    return current if current in seats else seats[0]


def _shared_room_text(entry: Entry) -> str:
    """What every connection's ``room`` says alike, as JSON members: once per version, or
    once per message while a turn's clock runs (its seconds left are counted from now)."""
    if entry.clocked is None:
        entry.clocked = pace.running_deadline(entry.room, entry.seats) is not None
    if entry.shared_room_text is None or entry.clocked:
        room = entry.room
        shared = dumps({
            "id": room.id,
            "game": room.game,
            "mode": room.mode,
            "status": room.status,
            "pace": room.pace,
            "options": room.options,
            "cpu_level": room.cpu_level,
            "seats": pace.seats_with_clock(room, entry.seats, timezone.now()),
            "result": room.result,
            "session": sessions.public(room.session, room.game),
            "next_room": links.invite_url(room.next_room) if room.next_room else None,
            "fairness": replays.public(room),
        })
        entry.shared_room_text = shared[1:-1]
    return entry.shared_room_text


def room_info_text(entry: Entry, seats: list[int]) -> str:
    """The ``room`` of a state message for a connection holding ``seats``, as JSON text: the
    members every connection shares (encoded once per version), then this connection's own."""
    own = dumps({
        "creator": 0 in seats,
        "you": {"role": "player" if seats else "spectator", "seats": list(seats)},
        "allowed": allowed.allowed(entry.room, entry.seats, seats),
    })
    return "{" + _shared_room_text(entry) + "," + own[1:]


def state_text(entry: Entry, seats: list[int], ref: Any = None, missed: list[dict[str, Any]] | None = None,
               resync: bool | None = None) -> str:
    """The ``state`` message for a connection holding ``seats``, as the JSON text it is sent.
    The room's shared members, the event and the view go in as text encoded once per version
    (the view once per seat): each connection encodes only what is its own."""
    if entry.event_text is None:
        entry.event_text = dumps(entry.event)
    text = (f'{{"type":"state","version":{entry.version},"room":{room_info_text(entry, seats)},'
            f'"event":{entry.event_text}')
    if ref is not None:
        text += f',"ref":{dumps(ref)}'
    if resync is not None:
        text += f',"missed":{dumps(missed)},"resync":{dumps(resync)}'
    return f'{text},"view":{entry.view_text(view_seat(entry, seats))}}}'
