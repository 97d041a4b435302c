"""games/rooms/messages.py describes every client message as data; games/consumers.py checks a
message against it and hands it to the handler its table names."""
import pytest

from games.consumers import RoomConsumer
from games.engines.base import GameError
from games.rooms.messages import MESSAGES, message_type


def test_it_has_a_handler_for_every_message_type_and_no_other():
    # A type in the schema without a handler would pass the checks and then fail; a handler
    # without a schema entry could never be reached.
    assert set(RoomConsumer.HANDLERS) == set(MESSAGES)


def _refusal(kind, message):
    with pytest.raises(GameError) as refused:
        message_type(kind).check(message)
    return refused.value.code, refused.value.message


def test_it_refuses_fields_of_the_wrong_shape():
    assert _refusal("take_seat", {}) == ("bad_field", "take_seat needs a seat number.")
    assert _refusal("take_seat", {"seat": None}) == ("bad_field", "take_seat needs a seat number.")
    assert _refusal("take_seat", {"seat": True}) == ("bad_field", "take_seat needs a seat number.")
    assert _refusal("action", {"seat": 0}) == ("bad_field", "An action message needs an action.")
    assert _refusal("action", {"version": "3", "action": {}}) == ("bad_field", "version must be a whole number.")
    assert _refusal("hello", {"token": ""}) == ("bad_field", "token must be a string or null.")
    assert _refusal("hello", {"last_version": -1}) == ("bad_field",
                                                       "last_version must be a whole number or null.")


def test_it_lets_optional_fields_be_left_out_or_null():
    # The engine, not the schema, judges an action: even a null one reaches the service.
    message_type("action").check({"action": None, "seat": None, "version": None})
    message_type("hello").check({"token": None})
    message_type("hello").check({"token": "t", "last_version": 0})


def test_it_names_the_known_types_for_an_unknown_one():
    for kind in ("dance", None, ["hello"], {"a": 1}):
        with pytest.raises(GameError) as refused:
            message_type(kind)
        assert refused.value.code == "unknown_type"
    assert refused.value.message.endswith("expected one of hello, action, join, take_seat, start, leave, resign, "
                                          "play_again, new_session, new_link, let_cpu_play, ping.")
