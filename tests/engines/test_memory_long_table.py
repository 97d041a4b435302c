"""Memory's long table: 52 cards in 13 columns and 4 rows instead of 9 × 6 (docs/memory.md)."""
import pytest

from games.engines import memory
from games.engines.base import InvalidOptions


@pytest.mark.parametrize("deck", ["playing_cards", "pictures"])
def test_it_lays_52_cards_out_in_four_rows_of_thirteen(deck):
    view = memory.new_game({"long_table": True, "deck": deck}, 5).view(None)
    assert (view["columns"], view["rows"], view["row_lengths"]) == (13, 4, [13] * 4)
    names = [entry["pos"] for entry in view["layout"]]
    assert names[:14] == [f"A{c}" for c in range(1, 14)] + ["B1"]
    assert names[-1] == "D13" and len(set(names)) == 52
    assert all((entry["row"], entry["column"]) == divmod(i, 13) for i, entry in enumerate(view["layout"]))


def test_its_positions_and_neighbours_follow_the_thirteen_columns():
    grid = memory.grid_for(memory.parse_options({"long_table": True}))
    assert grid.index("A13") == 12 and grid.index("B1") == 13 and grid.index("D13") == 51
    for outside in ("A14", "E1", "G7"):  # G7 is a card of the 9 × 6 grid, not of this one
        assert grid.index(outside) is None
    assert sorted(grid.neighbours(grid.index("A13"))) == [grid.index("A12"), grid.index("B13")]


def test_it_is_played_like_the_9_by_6_grid():
    state = memory.new_game({"long_table": True}, 0)
    state.cards = memory.deck(state.options)  # AS AH AD AC 2S …: A1 and A2 match
    state.turn_seat = 0
    state.apply(0, {"type": "flip", "pos": "A1"})
    state.apply(0, {"type": "flip", "pos": "A2"})
    assert state.pairs == [1, 0]
    state.apply(0, {"type": "flip", "pos": "D13"})  # KC
    state.apply(0, {"type": "flip", "pos": "B1"})   # 4H
    assert state.phase == "reveal"
    assert memory.State.from_json(state.to_json()).grid.columns == 13


@pytest.mark.parametrize("raw, words", [
    ({"long_table": True, "cards": 40}, "52 cards without jokers"),
    ({"long_table": True, "cards": 104}, "52 cards without jokers"),
    ({"long_table": True, "jokers": True}, "52 cards without jokers"),
    ({"long_table": True, "deck": "pictures", "cards": 24}, "52 cards without jokers"),
    ({"long_table": "yes"}, "long_table must be true or false"),
    ({"long_table": 1}, "long_table must be true or false"),
])
def test_it_refuses_a_long_table_that_is_not_52_cards_with_a_clear_error(raw, words):
    with pytest.raises(InvalidOptions) as err:
        memory.parse_options(raw)
    assert words in err.value.message


def test_without_it_the_grids_are_unchanged():
    assert memory.grid_for(memory.parse_options({"long_table": False})).columns == 9
