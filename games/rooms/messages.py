"""What a client may send on /ws/rooms/<room_id>/ (docs/protocol.md, "Client → server"): each
message type and the fields it takes, with what each field must be.

games/consumers.py checks every message against ``MESSAGES`` before its handler runs, so a
handler gets fields of the right shape. What a field means (is the seat this room's, is it this
seat's turn, is the action legal) is the room service's to check, not this schema's. A refused
message raises ``GameError`` with ``bad_field``, like every other refusal.

``parse`` reads a message's text first: JSON, an object, nested at most ``MAX_DEPTH`` deep.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engines.base import GameError
from games.engines.errors import ErrorCode


def _whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _version_count(value: Any) -> bool:
    return _whole_number(value) and value >= 0


def _token(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 256


def _anything(value: Any) -> bool:
    return True  # the engine checks an action (games/engines)


@dataclass(frozen=True)
class Field:
    """A field of a message. An optional one may be left out or null; a required one must be
    there, and its value (null included) must pass ``accepts``. ``problem`` is the message of the
    ``bad_field`` error otherwise."""

    name: str
    accepts: Callable[[Any], bool]
    problem: str
    required: bool = False

    def check(self, message: Mapping[str, Any]) -> None:
        if self.name not in message:
            if self.required:
                raise GameError(self.problem, ErrorCode.BAD_FIELD)
            return
        value = message[self.name]
        if (value is not None or self.required) and not self.accepts(value):
            raise GameError(self.problem, ErrorCode.BAD_FIELD)


@dataclass(frozen=True)
class MessageType:
    """A message type: its fields, and where it goes. ``handler`` is the consumer's method
    (games/consumers.py, ``RoomConsumer._<handler>``); ``held_seats`` ones call the service
    command of the type's name with the seats the connection holds. A ``room_action`` is
    listed in ``room.allowed`` while the service would accept it (games/rooms/allowed.py)."""

    handler: str
    fields: tuple[Field, ...] = ()
    before_hello: bool = False  # may come before the connection's hello
    room_action: bool = False

    def check(self, message: Mapping[str, Any]) -> None:
        for field in self.fields:
            field.check(message)


MESSAGES: dict[str, MessageType] = {
    "hello": MessageType("hello", (
        Field("token", _token, "token must be a string or null."),
        Field("last_version", _version_count, "last_version must be a whole number or null.")), before_hello=True),
    "action": MessageType("action", (Field("seat", _whole_number, "seat must be a seat number."),
                                     Field("version", _whole_number, "version must be a whole number."),
                                     Field("action", _anything, "An action message needs an action.", required=True))),
    "join": MessageType("join", room_action=True),
    "take_seat": MessageType("take_seat", (
        Field("seat", _whole_number, "take_seat needs a seat number.", required=True),), room_action=True),
    "start": MessageType("held_seats", room_action=True),
    "leave": MessageType("held_seats", room_action=True),
    "resign": MessageType("held_seats", room_action=True),
    "play_again": MessageType("held_seats", room_action=True),
    "new_session": MessageType("held_seats", room_action=True),
    "new_link": MessageType("new_link", room_action=True),
    "let_cpu_play": MessageType("held_seats", room_action=True),
    "ping": MessageType("ping", before_hello=True),
}

# The room actions, in the order ``room.allowed`` lists them.
ROOM_ACTIONS = tuple(kind for kind, message in MESSAGES.items() if message.room_action)
HELD_SEATS_CHANGES = tuple(kind for kind, message in MESSAGES.items() if message.handler == "held_seats")


def message_type(kind: Any) -> MessageType:
    """The schema of a message's ``type``; ``unknown_type`` when there is none."""
    if not isinstance(kind, str) or kind not in MESSAGES:
        raise GameError(f"Unknown message type {kind!r}; expected one of {', '.join(MESSAGES)}.",
                        ErrorCode.UNKNOWN_TYPE)
    return MESSAGES[kind]


# Arrays and objects inside one another: the protocol's messages need four levels at most. The
# standard library's parser recurses once per level, so a few kilobytes of brackets
# ("[" * 1500) would raise RecursionError from deep inside it; such a text is refused unread.
MAX_DEPTH = 32
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _nested_deeper_than(text: str, depth: int) -> bool:
    if text.count("[") + text.count("{") <= depth:  # each level opens a bracket: the common case
        return False
    level = 0
    for token in _STRING_OR_BRACKET.findall(text):  # brackets inside strings do not count
        if token in "[{":
            level += 1
            if level > depth:
                return True
        elif token in "]}":
            level -= 1
    return False


def parse(text: str) -> dict[str, Any]:
    """The message a text frame holds; ``malformed_json`` when it is not a JSON object nested
    at most ``MAX_DEPTH`` deep."""
    if _nested_deeper_than(text, MAX_DEPTH):
        raise GameError(f"A message may nest arrays and objects at most {MAX_DEPTH} deep.", ErrorCode.MALFORMED_JSON)
    try:
        message = json.loads(text)
    except ValueError:
        raise GameError("That message is not valid JSON.", ErrorCode.MALFORMED_JSON) from None
    if not isinstance(message, dict):
        raise GameError("A message must be a JSON object.", ErrorCode.MALFORMED_JSON)
    return message
