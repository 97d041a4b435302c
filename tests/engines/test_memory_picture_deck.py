"""Memory's picture deck: pairs of pictures played like two identical cards (docs/memory.md)."""
import re
from pathlib import Path

import pytest

from games.engines import memory
from games.engines.base import InvalidOptions, InvalidState

SPRITE = Path(__file__).resolve().parents[2] / "site" / "img" / "pictures.svg"
PICTURES_JS = Path(__file__).resolve().parents[2] / "site" / "js" / "games" / "pictures.js"


def flip(pos):
    return {"type": "flip", "pos": pos}


def picture_game(cards=24, players=2, **options):
    """A game whose pictures lie in the deck's order (A1 and A2 the first pair), seat 0 first."""
    state = memory.new_game({"deck": "pictures", "cards": cards, "players": players, **options}, 0)
    state.cards = memory.deck(state.options)
    state.turn_seat = 0
    return state


@pytest.mark.parametrize("cards", [24, 40, 52])
def test_it_deals_each_of_the_first_pictures_twice(cards):
    deck = memory.deck(memory.parse_options({"deck": "pictures", "cards": cards}))
    assert len(deck) == cards
    assert sorted(set(deck)) == sorted(memory.PICTURES[:cards // 2])
    assert all(deck.count(picture) == 2 for picture in deck)


def test_it_plays_the_identical_rule_without_jokers():
    options = memory.parse_options({"deck": "pictures"})
    assert options.to_json() == {"players": 2, "cards": 52, "jokers": False, "match": "identical",
                                 "one_flip": False, "deck": "pictures"}
    # Said explicitly, the only rule it has is accepted too.
    assert memory.parse_options({"deck": "pictures", "match": "identical", "jokers": False}) == options


@pytest.mark.parametrize("raw, words", [
    ({"deck": "pictures", "cards": 104}, "24, 40 or 52"),
    ({"deck": "pictures", "cards": 30}, "24, 40 or 52"),
    ({"deck": "pictures", "match": "rank"}, "match=identical"),
    ({"deck": "pictures", "match": "zebra"}, "match=identical"),
    ({"deck": "pictures", "jokers": True}, "no jokers"),
    ({"deck": "pictures", "jokers": "no"}, "true or false"),
    ({"deck": "emoji"}, "deck must be one of playing_cards, pictures"),
    ({"deck": None}, "deck must be one of"),
    ({"deck": ["pictures"]}, "deck must be one of"),
])
def test_it_refuses_what_a_picture_deck_cannot_be_with_a_clear_error(raw, words):
    with pytest.raises(InvalidOptions) as err:
        memory.parse_options(raw)
    assert words in err.value.message and err.value.code == "invalid_options"


def test_it_matches_only_the_same_picture():
    state = picture_game()  # A1 A2 apple, A3 A4 banana
    state.apply(0, flip("A1"))
    state.apply(0, flip("A3"))
    assert state.phase == "reveal" and state.failed == [1, 0]
    state.apply_automatic()
    state.apply(1, flip("A1"))
    state.apply(1, flip("A2"))
    assert state.pairs == [0, 1] and state.current_player == 1
    assert state.last == {"type": "flip", "seat": 1, "pos": "A2", "card": "apple",
                          "result": "match", "pair": ["A1", "A2"]}


def test_its_views_hide_face_down_pictures_exactly_as_cards():
    state = picture_game()
    state.apply(0, flip("A3"))
    for seat in (None, 0, 1):
        view = state.view(seat)
        down = [entry for entry in view["layout"] if entry["state"] == "down"]
        assert len(down) == 23 and all(set(entry) == {"pos", "row", "column", "state"} for entry in down)
        shown = {entry["pos"]: entry["card"] for entry in view["layout"] if "card" in entry}
        assert shown == {"A3": "banana"}
        # The face-down pictures' names are nowhere in the view, not even in the last move.
        text = repr(view)
        assert [p for p in memory.PICTURES[:12] if f"'{p}'" in text] == ["banana"]


def test_a_seed_deals_the_same_picture_game_and_its_json_replays():
    a = memory.new_game({"deck": "pictures", "cards": 40}, 7)
    b = memory.new_game({"deck": "pictures", "cards": 40}, 7)
    assert a.to_json() == b.to_json()
    assert memory.new_game({"deck": "pictures", "cards": 40}, 8).cards != a.cards
    assert memory.State.from_json(a.to_json()).to_json() == a.to_json()
    # A state whose pictures are not its deck's is refused, like a wrong card.
    data = a.to_json()
    data["cards"][0] = "AS"
    with pytest.raises(InvalidState):
        memory.State.from_json(data)


def test_playing_cards_keep_the_options_they_had_before_pictures_existed():
    # Saved rooms and game records compare options as they are: a game with playing cards
    # names neither the deck nor the long table, so today's equal those saved before.
    options = memory.parse_options({"deck": "playing_cards", "long_table": False})
    assert options.to_json() == {"players": 2, "cards": 52, "jokers": False, "match": "rank",
                                 "one_flip": False}
    assert memory.parse_options(options.to_json()) == options
    assert memory.parse_options({"deck": "pictures", "long_table": True}).to_json()["long_table"] is True


def test_the_sprite_and_the_client_draw_and_name_every_picture_in_the_engines_order():
    # The client finds a picture in the sprite by its place in this list: all three must agree.
    sprite = SPRITE.read_text()
    assert re.findall(r'<g id="([a-z]+)" transform="translate\((\d+)', sprite) == [
        (name, str(100 * index)) for index, name in enumerate(memory.PICTURES)]
    assert f'viewBox="0 0 {100 * len(memory.PICTURES)} 100"' in sprite
    client = re.findall(r'^  ([a-z]+): gettext\("', PICTURES_JS.read_text(), re.MULTILINE)
    assert client == list(memory.PICTURES)
