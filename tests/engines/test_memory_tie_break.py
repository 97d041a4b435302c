"""Memory's tie-break round and pairs won against another player (games/engines/memory.py).

The games here are played by a script that knows where every card lies, so a tie is made on
purpose: with ``one_flip`` each turn takes at most one pair, so two players who take a pair on
every turn tie, and a seat that misses on purpose takes none.
"""
from collections import Counter

import pytest

from games.engines import memory
from games.engines.base import InvalidOptions, NotYourTurn


def flip(state, seat, index):
    state.apply(seat, {"type": "flip", "pos": state.grid.name(index)})


def take_pair(state):
    """The player to move takes the first pair still on the table."""
    down = state.face_down()
    first = down[0]
    second = next(i for i in down[1:] if memory.cards_match(state.cards[first], state.cards[i],
                                                            state.options.match))
    seat = state.current_player
    flip(state, seat, first)
    flip(state, seat, second)


def miss(state):
    """The player to move turns up two cards that do not match; they are turned back."""
    down = state.face_down()
    first = down[0]
    second = next(i for i in down[1:] if not memory.cards_match(state.cards[first], state.cards[i],
                                                                state.options.match))
    seat = state.current_player
    flip(state, seat, first)
    flip(state, seat, second)
    state.apply_automatic()


def miss_if_it_can(state):
    """Misses, unless only one pair is left (then it must be taken)."""
    take_pair(state) if len(state.face_down()) == 2 else miss(state)


def tied_game(players=2, seed=3, missing=()):
    """A game played to the end where every seat takes a pair per turn except ``missing``."""
    state = memory.new_game({"players": players, "cards": 24, "one_flip": True, "tie_break": True},
                            seed)
    while not state.in_tie_break and not state.is_over:
        if state.current_player in missing:
            miss(state)
        else:
            take_pair(state)
    return state


def test_it_is_off_by_default_and_checked():
    assert memory.parse_options(None).tie_break is False
    # Named in the options only when chosen: older games' options compare equal.
    assert "tie_break" not in memory.parse_options(None).to_json()
    assert memory.parse_options({"tie_break": True}).to_json()["tie_break"] is True
    with pytest.raises(InvalidOptions):
        memory.parse_options({"tie_break": "yes"})


def test_it_deals_the_same_game_with_or_without_the_option():
    # The round's secret seed is drawn after the deal: switching the option changes no deal.
    plain = memory.new_game({"cards": 24}, 99)
    with_round = memory.new_game({"cards": 24, "tie_break": True}, 99)
    assert plain.cards == with_round.cards and plain.turn_seat == with_round.turn_seat


def test_it_lays_out_eight_cards_of_the_tied_piles_face_down_in_two_rows_of_four():
    state = tied_game()
    assert state.pairs == [6, 6] and state.in_tie_break and not state.is_over
    view = state.view(0)
    assert (view["rows"], view["columns"], view["row_lengths"]) == (2, 4, [4, 4])
    assert [e["state"] for e in view["layout"]] == ["down"] * 8
    assert all("card" not in e for e in view["layout"])
    assert view["tie_break"] == {"round": 1, "seats": [0, 1], "pairs": [0, 0], "rounds": [],
                                 "winner": None}
    assert view["last"]["tie_break_round"] == 1
    # Whole pairs of the game's cards; the game's table and scores stay as they were.
    game_cards = state.tie_break.game_cards
    assert not Counter(state.cards) - Counter(game_cards)
    assert len(state.cards) == 8
    assert all(sum(memory.cards_match(c, d, "rank") for d in state.cards) >= 2 for c in state.cards)
    assert state.scores() == [12, 12]
    # The secret seed and the cards' places are in no view.
    assert "seed" not in str(view["tie_break"]) and "game_cards" not in view["tie_break"]


def test_it_plays_again_when_the_round_ties_and_ends_when_one_wins_more():
    state = tied_game()
    for _ in range(4):  # one pair a turn, in turn: 2 pairs each, a tie within the tie-break
        take_pair(state)
    assert state.tie_break.round == 2 and state.tie_break.rounds == [[2, 2]]
    assert state.view(None)["tie_break"]["pairs"] == [0, 0]
    loser = state.current_player
    while not state.is_over:  # the other player takes every pair it can (the loser misses)
        miss_if_it_can(state) if state.current_player == loser else take_pair(state)
    winner = 1 - loser
    result = state.result()
    assert result["winners"] == [winner] and result["draw"] is False
    assert result["ranking"] == [[winner], [loser]]
    assert result["scores"] == [12, 12]  # the game's own score; the round only decides
    assert result["tie_break"]["rounds"][0] == [2, 2]
    assert result["tie_break"]["rounds"][1] == ([3, 1] if winner == 0 else [1, 3])
    assert result["tie_break"]["winner"] == winner
    # Over, the view shows the game's table again, every card taken.
    assert len(state.view(None)["layout"]) == 24


def test_it_lets_only_the_tied_players_play_the_round():
    state = tied_game(players=3, missing=(2,))
    assert state.pairs[2] == 0 and state.tie_break.seats == [0, 1]
    assert state.legal_actions(2) == []
    with pytest.raises(NotYourTurn):
        state.apply(2, {"type": "flip", "pos": "A1"})
    seen = set()
    while not state.is_over:
        seen.add(state.current_player)
        miss_if_it_can(state) if state.current_player == 0 else take_pair(state)
    assert seen == {0, 1}
    assert state.result()["ranking"] == [[1], [0], [2]]


def test_it_is_a_draw_without_the_option():
    state = memory.new_game({"players": 2, "cards": 24, "one_flip": True}, 3)
    while not state.is_over:
        take_pair(state)
    result = state.result()
    assert result["draw"] is True and "tie_break" not in result and state.view(0)["tie_break"] is None


def test_it_replays_exactly_and_survives_json_in_the_middle_of_a_round():
    def played():
        state = tied_game()
        take_pair(state)
        return state
    a, b = played(), played()
    assert a.to_json() == b.to_json()
    again = memory.State.from_json(a.to_json())
    assert again.to_json() == a.to_json() and again.grid.rows == 2
    while not a.is_over:  # seat 0 misses when it can: a round that ties is replayed forever
        for state in (a, again):
            miss_if_it_can(state) if state.current_player == 0 else take_pair(state)
    assert again.result() == a.result()


def test_it_copies_a_game_through_its_rounds_as_json_would():
    # A room's next change starts from copy() of the state its process keeps (games/rooms/cache.py):
    # a copy taken at any step plays on exactly as the state read back from JSON.
    state = tied_game()
    while not state.is_over:
        copied, read = state.copy(), memory.State.from_json(state.to_json())
        assert copied.to_json() == read.to_json() and copied.grid.rows == read.grid.rows
        before = state.to_json()
        for trial in (copied, read):
            miss_if_it_can(trial) if trial.current_player == 0 else take_pair(trial)
        assert copied.to_json() == read.to_json() and state.to_json() == before
        miss_if_it_can(state) if state.current_player == 0 else take_pair(state)
    assert state.tie_break.winner is not None and state.copy().result() == state.result()


def test_it_counts_a_pair_against_the_player_who_turned_up_its_card():
    state = memory.new_game({"players": 2, "cards": 24}, 5)
    seat = state.current_player
    other = 1 - seat
    first = 0
    partner = next(i for i in range(1, 24) if memory.cards_match(state.cards[0], state.cards[i], "rank"))
    stranger = next(i for i in range(1, 24) if not memory.cards_match(state.cards[0], state.cards[i], "rank"))
    flip(state, seat, first)
    flip(state, seat, stranger)
    state.apply_automatic()
    # The other player takes the pair whose card the first one showed: a pair won against it.
    flip(state, other, partner)
    flip(state, other, first)
    against = memory.State.from_json(state.to_json()).against
    assert against[other][seat] == 1 and against[seat][other] == 0
    # A pair of cards nobody else had seen counts against nobody.
    remaining = [i for i in state.face_down() if i != stranger]
    a = remaining[0]
    b = next(i for i in remaining[1:] if memory.cards_match(state.cards[a], state.cards[i], "rank"))
    flip(state, other, a)
    flip(state, other, b)
    assert state.against[other][seat] == 1


def test_it_loads_a_game_saved_before_the_round_and_the_pairs_against_existed():
    # Rooms store their state between moves: a game in play across the deploy that added these
    # fields must go on, with no card seen and no pair won against anyone so far.
    state = memory.new_game({"players": 2, "cards": 24}, 7)
    take_pair(state)
    miss(state)
    saved = {key: value for key, value in state.to_json().items()
             if key not in ("seen", "against", "tie_break")}
    loaded = memory.State.from_json(saved)
    assert loaded.against == [[0, 0], [0, 0]] and loaded.tie_break is None
    assert loaded.cards == state.cards and loaded.pairs == state.pairs
    assert loaded.current_player == state.current_player
    while not loaded.is_over:
        take_pair(loaded)
    assert loaded.result()["winners"]
    # Only that older shape is accepted: one of the three fields alone is still refused.
    with pytest.raises(memory.InvalidState):
        memory.State.from_json({**saved, "seen": state.to_json()["seen"]})


def test_it_refuses_a_stored_round_whose_game_lost_a_taker():
    state = tied_game()
    saved = state.to_json()
    assert saved["tie_break"]["game_taken_by"]
    saved["tie_break"]["game_taken_by"] = saved["tie_break"]["game_taken_by"][:-1]
    with pytest.raises(memory.InvalidState):
        memory.State.from_json(saved)
