"""Memory's picture deck and long table in a room: created through the rooms API, played to the
end over real WebSockets with every view laid out 13 × 4 and no face-down picture sent to
anyone; options that a picture deck or the long table cannot have are refused with a clear
error and create nothing."""
import pytest

from games.bot import ProtocolError
from games.engines.memory import PICTURES
from tests.rooms.helpers import close_all, connect, create_room, play_to_end, scan_messages

PICTURES_ON_THE_LONG_TABLE = {"players": 2, "cards": 52, "deck": "pictures", "long_table": True}


async def test_it_plays_a_picture_game_on_the_long_table_to_the_end(site):
    created = create_room(site.url_for(0), "memory", "cpu", PICTURES_ON_THE_LONG_TABLE)
    room_id = created["room_id"]
    creator = await connect(site.url_for(0), room_id, created["seat_token"])
    spectator = await connect(site.url_for(1), room_id)
    try:
        first = creator.state["view"]
        assert (first["rows"], first["columns"], first["row_lengths"]) == (4, 13, [13] * 4)
        assert first["options"] == {**PICTURES_ON_THE_LONG_TABLE, "jokers": False,
                                    "match": "identical", "one_flip": False}
        finals = await play_to_end([creator], [spectator])
    finally:
        await close_all(creator, spectator)
    last = finals[0]["view"]
    assert last["is_over"] and [e["pos"] for e in last["layout"]][12:14] == ["A13", "B1"]
    # Every picture was on the table twice, and nothing else.
    assert sorted(entry["card"] for entry in last["layout"]) == sorted(PICTURES * 2)
    # No message to the player or the spectator named a picture while it lay face down.
    assert scan_messages(site, room_id, {0: creator, None: spectator}) > 50


@pytest.mark.parametrize("options, words", [
    ({"deck": "pictures", "cards": 104}, "24, 40 or 52 cards"),
    ({"deck": "pictures", "jokers": True}, "no jokers"),
    ({"deck": "pictures", "match": "colour"}, "match=identical"),
    ({"deck": "stickers"}, "deck must be one of playing_cards, pictures"),
    ({"long_table": True, "cards": 24}, "52 cards without jokers"),
    ({"long_table": "yes"}, "long_table must be true or false"),
])
def test_it_refuses_a_picture_deck_or_long_table_it_cannot_lay_out(site, options, words):
    rooms = site.query("SELECT count(*) FROM games_room")
    with pytest.raises(ProtocolError) as refused:
        create_room(site.url_for(0), "memory", "cpu", options)
    assert refused.value.code == "invalid_options" and words in refused.value.error["message"]
    assert site.query("SELECT count(*) FROM games_room") == rooms
