"""Every error code a client may be sent: over the WebSocket in an ``error`` message, from the
HTTP API in ``{"error": {"code", "message"}}`` (docs/protocol.md, "Errors (code: meaning)").

A code is the one part of a refusal a client may act on (site/js/errors.js shows each in the
page's language), so each is spelt once, here, and every ``GameError`` and every error response
names its code from this enum. tests/engines/test_error_codes.py holds it equal to
site/js/errors.js and to docs/protocol.md's table, and finds any code still written as a bare
string. It lives among the engines because they raise most of these and may import nothing from
outside ``games/engines``.
"""
from __future__ import annotations

from enum import StrEnum, unique


@unique
class ErrorCode(StrEnum):
    # The rooms protocol (games/consumers.py, games/rooms/).
    MALFORMED_JSON = "malformed_json"
    MESSAGE_TOO_LARGE = "message_too_large"
    TOO_MANY_MESSAGES = "too_many_messages"
    HELLO_REQUIRED = "hello_required"
    UNKNOWN_TYPE = "unknown_type"
    BAD_FIELD = "bad_field"
    BAD_TOKEN = "bad_token"
    NOT_A_PLAYER = "not_a_player"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_ACTION = "illegal_action"
    STALE_VERSION = "stale_version"
    GAME_OVER = "game_over"
    GAME_NOT_STARTED = "game_not_started"
    NO_FREE_SEAT = "no_free_seat"
    SEAT_NOT_AVAILABLE = "seat_not_available"
    NOT_CREATOR = "not_creator"
    NOT_ALLOWED = "not_allowed"
    ROOM_NOT_FOUND = "room_not_found"
    UNAVAILABLE = "unavailable"
    TOO_MANY_ROOMS = "too_many_rooms"
    # The engines' finer codes for an illegal action, and a stored state they refuse.
    MALFORMED_ACTION = "malformed_action"
    UNKNOWN_ACTION = "unknown_action"
    NO_AUTOMATIC_STEP = "no_automatic_step"
    BAD_SEAT = "bad_seat"
    NOT_OVER = "not_over"
    BAD_POSITION = "bad_position"
    CARD_TAKEN = "card_taken"
    CARD_FACE_UP = "card_face_up"
    WRONG_PHASE = "wrong_phase"
    STOCK_ONLY = "stock_only"
    NOT_IN_HAND = "not_in_hand"
    JUST_TAKEN = "just_taken"
    CANNOT_KNOCK = "cannot_knock"
    INVALID_STATE = "invalid_state"
    # The HTTP API: creating a room (POST /api/rooms), a finished game's replay.
    INVALID_OPTIONS = "invalid_options"
    INVALID_GAME = "invalid_game"
    INVALID_MODE = "invalid_mode"
    INVALID_CPU_LEVEL = "invalid_cpu_level"
    INVALID_SEED = "invalid_seed"
    INVALID_PACE = "invalid_pace"
    TOO_LARGE = "too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    SEED_NOT_ALLOWED = "seed_not_allowed"
    GAME_NOT_OVER = "game_not_over"
