"""What a connection is sent and PostgreSQL is written decodes to what the standard library's
compact JSON of the same value decodes to (games/rooms/jsontext.py encodes it with orjson): every
view of every seat and the spectator's, through whole engine-played games of each game, and the
values where the two encoders write different texts (floats, non-ASCII text, big integers, lone
surrogates) decode to the same values of the same types."""
import json
import math
import random
from types import SimpleNamespace

import pytest

from games.rooms import cache, jsontext, registry

STANDARD = json.JSONEncoder(separators=(",", ":")).encode


def states(game: str, seed: int, limit: int = 400):
    engine = registry.engine(game)
    state = engine.new_game(engine.parse_options({}), seed)
    rng = random.Random(seed)
    for _ in range(limit):
        yield state
        if state.is_over:
            return
        if state.pending_automatic():
            state.apply_automatic()
        else:
            seat = state.current_player
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def same(a, b):
    """Equal and of the same types all the way down (1 == 1.0 would hide a float)."""
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
def test_it_sends_every_view_as_the_standard_encoder_would_decode(game):
    checked = 0
    for state in states(game, seed=7):
        room = SimpleNamespace(id="not-kept", game=game, state=state.to_json(), version=1)
        snap = cache.Entry(room, {}, None)
        for seat in [None, *range(len(state.view(None).get("scores") or [0, 0]))]:
            assert same(json.loads(snap.view_text(seat)), json.loads(STANDARD(state.view(seat))))
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("value", [
    {"a": 1e16, "b": [1, 2.5, 0.1, 100.0, -0.0]}, {"x": 1e-05}, 1e-7, 5e-324, 1.7976931348623157e308,
    {"name": "Grüße", "ja": "カード", "line": "a\u2028b", "emoji": "🂡"}, 2 ** 70, -(2 ** 63) - 1, 2 ** 64 - 1,
    {1: "int key"}, {True: "bool key"}, {None: "null key"}, {"tuple": (1, 2)}, {"controls": "\x00\x1f\"\\"},
    "</script>", "\ud800", {"ref": "a\udfff"}, None, [], {},
])
def test_it_encodes_to_the_standard_encoders_values(value):
    assert same(json.loads(jsontext.dumps(value)), json.loads(STANDARD(value)))


def test_it_encodes_nan_as_null():
    """The one value where the texts differ in meaning: the standard library writes NaN, which
    is not JSON (a browser's JSON.parse and PostgreSQL's jsonb refuse it); orjson writes null."""
    assert jsontext.dumps({"x": math.nan, "y": math.inf}) == '{"x":null,"y":null}'
