"""The room row's JSON columns are decoded by games/rooms/jsontext.py (orjson where it gives the
same values) to exactly what the standard library's decoder gives: every state, view and CPU
memory of whole engine-played games of each game, and the texts where orjson alone would differ
(an integer beyond 64 bits becomes a float there) or refuse (NaN, a lone surrogate's escape)."""
import json

import pytest

from games.rooms import jsontext, registry
from tests.rooms.test_state_messages import same, states


@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
def test_it_decodes_every_state_and_cpu_memory_as_the_standard_decoder(game):
    cpu = registry.cpu_module(game)
    player = cpu.make_cpu(registry.spec(game).level_names[-1], 0, 5, registry.engine(game).parse_options({}))
    texts = []
    for state in states(game, seed=11):
        texts.append(jsontext.dumps(state.to_json()))
        texts.append(jsontext.dumps(state.view(state.current_player)))
        player.observe(state.view(0))
        texts.append(jsontext.dumps(player.to_json()))
    assert len(texts) > 20
    for text in texts:
        assert same(jsontext.loads(text), json.loads(text))


@pytest.mark.parametrize("text", [
    "12345678901234567890123", "-9223372036854775809", "[18446744073709551616, 1]",
    '{"seed": 99999999999999999999}', '"a string of 1234567890123456789 digits"',
    "NaN", '{"x": Infinity}', '"\\ud800"', '{"name": "Gr\\u00fc\\u00dfe", "ja": "カード"}',
    '{"a": 1e16, "b": [2.5, 0.1, -0.0, 1e-05]}', '{"a": 1, "a": 2}', "null", "[]",
])
def test_it_decodes_as_the_standard_decoder_where_orjson_would_differ(text):
    assert same(jsontext.loads(text), json.loads(text))
    assert same(jsontext.loads(text.encode()), json.loads(text))
