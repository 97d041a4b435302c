"""Every message the server sends on a WebSocket but a room's ``state`` (whose text is built once
per room version and seat, games/rooms/state_messages.py): their shapes in one place, as
docs/protocol.md's "Server → client" lists them. On /ws/rooms/<room_id>/ each carries the
version the connection has seen, and ``ref`` when it answers a request that had an ``id``.
"""
from __future__ import annotations

import json
from typing import Any

from games.engines.errors import ErrorCode
from games.rooms.links import invite_url


def text(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def _ref(ref: str | None) -> dict[str, str]:
    return {"ref": ref} if ref is not None else {}


def pong(version: int, ref: str | None) -> dict[str, Any]:
    return {"type": "pong", "version": version, **_ref(ref)}


def joined(seat: int, token: str | None, version: int, ref: str | None) -> dict[str, Any]:
    """A seat taken (join, take_seat) and the token it is held by from now on."""
    return {"type": "joined", "seat": seat, "token": token, "version": version, **_ref(ref)}


def next_room(room_id: str, version: int, *, seat: int | None = None, seat_token: str | None = None,
              ref: str | None = None) -> dict[str, Any]:
    """The table moved to a new room: to everyone, its invite; to whoever asked (new_link),
    also the seat made for them there and its token."""
    message: dict[str, Any] = {"type": "next_room", "invite_url": invite_url(room_id), "room_id": room_id}
    if seat_token is not None:
        message.update(seat=seat, seat_token=seat_token)
    return {**message, "version": version, **_ref(ref)}


def error(code: str, message: str, version: int, ref: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "version": version, **fields, **_ref(ref)}


# /ws/ping/, the endpoint that proves WebSockets work end to end: no room, no version.

def echo(echo: Any) -> dict[str, Any]:
    return {"type": "pong", "echo": echo}


def echo_refused() -> dict[str, Any]:
    return {"type": "error", "code": ErrorCode.UNKNOWN_TYPE, "message": 'Send {"type": "ping"}.'}
