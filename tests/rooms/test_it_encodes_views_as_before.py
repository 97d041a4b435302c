"""The texts a connection is sent are the standard library's compact JSON byte for byte
(games/rooms/jsontext.py encodes them with orjson): every view of every seat and the
spectator's, through whole engine-played games of each game, and values where the two
encoders differ (floats, non-ASCII text, big integers)."""
import json
import random
from types import SimpleNamespace

import pytest

from games.rooms import jsontext, registry, snapshots

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


@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
def test_it_sends_every_view_as_the_standard_encoder_would(game):
    checked = 0
    for state in states(game, seed=7):
        room = SimpleNamespace(game=game, state=state.to_json(), version=1)
        snap = snapshots.Snapshot(room=room, event=None)
        for seat in [None, *range(len(state.view(None).get("scores") or [0, 0]))]:
            assert snap.view_text(seat) == STANDARD(state.view(seat))
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("value", [
    {"a": 1e16, "b": [1, 2.5, 0.1, 100.0, -0.0]}, {"x": 1e-05}, 1e-7,
    {"name": "Grüße", "ja": "カード", "line": "a\u2028b"}, 2 ** 70, {1: "int key"}, {True: "bool key"},
    {"tuple": (1, 2)}, {"controls": "\x00\x1f\"\\"}, "</script>", None, [],
])
def test_it_falls_back_where_the_encoders_differ(value):
    assert jsontext.dumps(value) == STANDARD(value)
