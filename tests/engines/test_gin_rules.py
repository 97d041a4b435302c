"""Gin Rummy rules on constructed hands (docs/gin.md), options, errors, views and JSON."""
from __future__ import annotations

import json
import random

import pytest

from games.engines import gin
from games.engines.base import IllegalAction, InvalidOptions, InvalidState, NotYourTurn
from games.engines.gin import best_split

DECK = {r + s for s in "SHDC" for r in "A23456789TJQK"}


def rig(hands, *, current=0, dealer=1, phase="discard", stock=None, pile=("5C",), scores=(0, 0),
        target=100, taken=None) -> gin.State:
    """A state in the middle of a hand with the given cards; every other card goes to the stock
    unless ``stock`` is given (its last card is the top)."""
    state = gin.new_game({"target": target}, seed=1)
    hands = [h.split() for h in hands]
    assert sorted(map(len, hands)) == [10, 11 if phase == "discard" else 10]
    used = set(hands[0]) | set(hands[1]) | set(pile)
    assert len(used) == len(hands[0]) + len(hands[1]) + len(pile)
    state.hands = hands
    state.discard_pile = list(pile)
    state.stock = stock.split() if stock is not None else sorted(DECK - used)
    state.current_player, state.dealer, state.phase = current, dealer, phase
    state.points, state.taken_card = list(scores), taken
    return state


def unchanged_after(state, seat, action):
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        state.apply(seat, action)
    assert state.to_json() == before
    return error.value


# --- options -----------------------------------------------------------------------------------

def test_options():
    assert gin.parse_options(None).to_json() == {"players": 2, "target": 100}
    assert gin.parse_options({"target": 30, "players": 2}).target == 30
    for bad in ({"target": 0}, {"target": 1001}, {"target": "100"}, {"target": True},
                {"target": 50.0}, {"players": 3}, {"players": 2.0}, {"colour": "red"}, "target=100"):
        with pytest.raises(InvalidOptions):
            gin.parse_options(bad)


# --- deal and upcard ---------------------------------------------------------------------------

def test_deal():
    dealers = set()
    for seed in range(20):
        state = gin.new_game(None, seed)
        cards = state.hands[0] + state.hands[1] + state.discard_pile + state.stock
        assert sorted(cards) == sorted(DECK)
        assert [len(h) for h in state.hands] == [10, 10] and len(state.discard_pile) == 1
        assert len(state.stock) == 31
        assert state.phase == "upcard" and state.current_player == 1 - state.dealer
        assert state.to_json() == gin.new_game(None, seed).to_json()  # same seed, same deal
        dealers.add(state.dealer)
    assert dealers == {0, 1}  # the first dealer is drawn from the seed
    assert gin.new_game(None, 1).hands != gin.new_game(None, 2).hands


def test_upcard_phase_both_pass():
    state = gin.new_game(None, 3)
    first, dealer = 1 - state.dealer, state.dealer
    upcard = state.discard_pile[-1]
    assert state.legal_actions(first) == [{"type": "take_upcard"}, {"type": "pass"}]
    assert state.legal_actions(dealer) == []
    assert isinstance(unchanged_after(state, dealer, {"type": "pass"}), NotYourTurn)
    unchanged_after(state, first, {"type": "draw", "source": "stock"})
    state.apply(first, {"type": "pass"})
    assert state.current_player == dealer
    state.apply(dealer, {"type": "pass"})
    # Both passed: the non-dealer draws from the stock, and only from the stock.
    assert state.current_player == first
    assert state.legal_actions(first) == [{"type": "draw", "source": "stock"}]
    assert unchanged_after(state, first, {"type": "draw", "source": "discard"}).code == "stock_only"
    top = state.stock[-1]
    state.apply(first, {"type": "draw", "source": "stock"})
    assert top in state.hands[first] and state.discard_pile == [upcard]
    # Then play goes on normally: the dealer may take the upcard from the pile.
    state.apply(first, {"type": "discard", "card": top})
    assert {"type": "draw", "source": "discard"} in state.legal_actions(dealer)


def test_taken_upcard_cannot_be_thrown_back():
    state = gin.new_game(None, 4)
    first = state.current_player
    upcard = state.discard_pile[-1]
    state.apply(first, {"type": "take_upcard"})
    assert state.phase == "discard" and upcard in state.hands[first] and state.discard_pile == []
    actions = state.legal_actions(first)
    assert all(a.get("card") != upcard for a in actions)
    assert len([a for a in actions if a["type"] == "discard"]) == 10
    assert unchanged_after(state, first, {"type": "discard", "card": upcard}).code == "just_taken"
    assert unchanged_after(state, first, {"type": "knock", "card": upcard}).code == "just_taken"
    thrown = state.hands[first][0]
    state.apply(first, {"type": "discard", "card": thrown})
    # The dealer now draws normally (it already had its chance at the upcard: the first took it).
    assert state.current_player == 1 - first and state.phase == "draw"
    assert state.legal_actions(1 - first) == [{"type": "draw", "source": "stock"},
                                              {"type": "draw", "source": "discard"}]


def test_card_taken_from_discard_pile_cannot_be_discarded_but_stock_card_can():
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 9C", "2H 4H 6H 8H TH 2C 4C 6C 8C TC"],
                phase="draw", pile=("5C", "KS"))
    state.apply(0, {"type": "draw", "source": "discard"})
    assert state.taken_card == "KS"
    assert unchanged_after(state, 0, {"type": "discard", "card": "KS"}).code == "just_taken"
    state.apply(0, {"type": "discard", "card": "9C"})
    state.apply(1, {"type": "draw", "source": "stock"})
    drawn = state.hands[1][-1]
    assert {"type": "discard", "card": drawn} in state.legal_actions(1)


# --- knocking ----------------------------------------------------------------------------------

def test_knock_actions_only_when_deadwood_after_discard_is_ten_or_less():
    rng = random.Random(9)
    for _ in range(300):
        dealt = rng.sample(sorted(DECK), 22)
        cards = dealt[:11]
        state = rig([" ".join(cards), " ".join(dealt[11:21])], pile=dealt[21:])
        knocks = {a["card"] for a in state.legal_actions(0) if a["type"] == "knock"}
        expected = {c for c in cards if best_split([x for x in cards if x != c])[0] <= 10}
        assert knocks == expected
        for card in sorted(set(cards) - expected)[:2]:
            assert unchanged_after(state, 0, {"type": "knock", "card": card}).code == "cannot_knock"


def test_gin_scores_25_plus_deadwood_without_layoffs():
    # Knocker melds AS-4S, three sevens and JD QD KD; the defender's 5S and 7S could be laid off
    # on a knock, but not on gin.
    state = rig(["AS 2S 3S 4S 7H 7D 7C JD QD KD 9C", "5S 7S 9H TH 2C 3C 8D KH KS 6H"])
    state.apply(0, {"type": "knock", "card": "9C"})
    hand = state.last_hand
    assert hand["outcome"] == "gin" and hand["layoffs"] == []
    assert hand["deadwoods"] == [0, 70]
    assert hand["points"] == 70 + 25 and state.scores() == [95, 0]


def test_knock_with_layoffs_scores_the_difference():
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 4C KC", "4S 5S 7S 2H 9H TH 8C 6D 3D KH"])
    state.apply(0, {"type": "knock", "card": "KC"})
    hand = state.last_hand
    assert hand["outcome"] == "knock" and hand["winner"] == 0 and hand["knocker"] == 0
    assert sorted(layoff["card"] for layoff in hand["layoffs"]) == ["4S", "5S", "7S"]
    assert hand["deadwoods"] == [4, 48]
    assert hand["points"] == 44 and state.scores() == [44, 0]
    assert hand["hands"][1]["deadwood_cards"] == ["2H", "3D", "6D", "8C", "9H", "TH", "KH"]


def test_tie_is_an_undercut():
    state = rig(["AS 2S 3S 8H 8D 8C JD QD KD 7H KC", "4H 5H 6H 9C 9S 9H 2C 3C 4C 7D"], scores=(10, 20))
    state.apply(0, {"type": "knock", "card": "KC"})
    hand = state.last_hand
    assert hand["deadwoods"] == [7, 7]
    assert hand["outcome"] == "undercut" and hand["winner"] == 1 and hand["points"] == 25
    assert state.scores() == [10, 45]


def test_undercut_after_layoffs_scores_difference_plus_25():
    # The defender keeps 4S 5S 2H (11 > 9) unless it lays 4S 5S off on AS 2S 3S: then 2 < 9.
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 9C KC", "4S 5S 2H 8H 8S 8D 8C 6C 6D 6H"])
    state.apply(0, {"type": "knock", "card": "KC"})
    hand = state.last_hand
    assert sorted(layoff["card"] for layoff in hand["layoffs"]) == ["4S", "5S"]
    assert hand["deadwoods"] == [9, 2]
    assert hand["outcome"] == "undercut" and hand["winner"] == 1
    assert hand["points"] == 9 - 2 + 25 and state.scores() == [0, 32]


def test_layoffs_are_chosen_jointly_in_a_real_hand():
    # Split first, the defender keeps 7C 8C 9C and 7S 7D loose; laying off 8C 9C on TC JC QC and
    # melding the three sevens leaves only AH 2D 3H.
    state = rig(["TC JC QC 4H 4D 4S 6S 6H 6D AC KS", "7S 7D 7C 8C 9C AH 2D 3H JS JH"])
    state.apply(0, {"type": "knock", "card": "KS"})
    hand = state.last_hand
    assert sorted(layoff["card"] for layoff in hand["layoffs"]) == ["8C", "9C"]
    assert hand["deadwoods"] == [1, 26]
    assert ["7S", "7D", "7C"] in hand["hands"][1]["melds"]


def test_knocker_lays_down_the_best_split_that_leaves_the_defender_most():
    # Four sevens + 8S 9S TS, or 7H 7D 7C + 7S-TS: both leave AC 2D 3H (6). With the run from 7S
    # the defender could lay off 6S and 5S; with the four sevens it cannot, so that one is shown.
    state = rig(["7S 7H 7D 7C 8S 9S TS AC 2D 3H KC", "6S 5S JH 9D 4C KH 2H QC 8D 6H"])
    state.apply(0, {"type": "knock", "card": "KC"})
    hand = state.last_hand
    assert ["7S", "7H", "7D", "7C"] in hand["hands"][0]["melds"]
    assert hand["layoffs"] == [] and hand["deadwoods"] == [6, 70] and hand["points"] == 64


# --- end of the stock --------------------------------------------------------------------------

def test_dead_hand_when_a_discard_leaves_two_cards_in_the_stock():
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 9C", "2H 4H 6H 8H TH 2C 4C 6C 8C TC"],
                phase="draw", stock="KH KS QS", dealer=1, scores=(12, 30))
    state.deal_number, state.hand_number = 3, 4
    state.apply(0, {"type": "draw", "source": "stock"})
    assert len(state.stock) == 2
    state.apply(0, {"type": "discard", "card": "QS"})
    assert state.phase == "hand_over" and state.current_player is None
    assert state.last_hand["outcome"] == "dead" and state.last_hand["points"] == 0
    assert state.scores() == [12, 30]
    assert state.legal_actions(0) == state.legal_actions(1) == [{"type": "next_hand"}]
    assert state.pending_automatic() == "next_hand"
    state.apply_automatic()
    # Same dealer deals again, a fresh shuffle.
    assert state.dealer == 1 and state.current_player == 0 and state.phase == "upcard"
    assert state.deal_number == 4 and state.hand_number == 5
    assert len(state.stock) == 31 and state.scores() == [12, 30]
    assert state.hand_counts() == {"knock": 0, "gin": 0, "undercut": 0, "dead": 1}


def test_drawing_from_the_pile_at_three_does_not_end_the_hand():
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 9C", "2H 4H 6H 8H TH 2C 4C 6C 8C TC"],
                phase="draw", stock="KH KS QS", pile=("5C", "9S"))
    state.apply(0, {"type": "draw", "source": "discard"})
    state.apply(0, {"type": "discard", "card": "9C"})
    assert state.phase == "draw" and state.current_player == 1 and len(state.stock) == 3


def test_knock_on_the_turn_the_stock_reaches_two_wins_over_the_dead_hand():
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 9C", "2H 4H 6H 8H TH 2C 4C 6C 8C TC"],
                phase="draw", stock="KH KS QS")
    state.apply(0, {"type": "draw", "source": "stock"})
    assert len(state.stock) == 2
    state.apply(0, {"type": "knock", "card": "QS"})
    hand = state.last_hand
    assert hand["outcome"] == "knock" and hand["winner"] == 0
    assert hand["deadwoods"][0] == 9 and hand["points"] == hand["deadwoods"][1] - 9


# --- hands, dealers and the end of the game ----------------------------------------------------

def test_winner_of_a_hand_deals_the_next():
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 4C KC", "4S 5S 7S 2H 9H TH 8C 6D 3D KH"], dealer=1)
    state.apply(0, {"type": "knock", "card": "KC"})
    state.apply(1, {"type": "next_hand"})  # either seat may ask for the next deal
    assert state.dealer == 0 and state.current_player == 1 and state.hand_number == 2
    assert state.last_hand["outcome"] == "knock"  # still shown during the next hand
    assert state.view(1)["last_hand"]["points"] == 44


def test_game_ends_at_target_with_the_deciding_hand():
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 4C KC", "4S 5S 7S 2H 9H TH 8C 6D 3D KH"],
                scores=(60, 95))
    state.apply(0, {"type": "knock", "card": "KC"})
    assert state.is_over and state.current_player is None and state.pending_automatic() is None
    result = state.result()
    assert result["scores"] == [104, 95] and result["winners"] == [0] and result["draw"] is False
    assert result["ranking"] == [[0], [1]]
    assert result["deciding_hand"]["points"] == 44 and result["deciding_hand"]["knocker"] == 0
    assert state.legal_actions(0) == state.legal_actions(1) == []
    assert unchanged_after(state, 1, {"type": "next_hand"}).code == "game_over"
    assert state.view(None)["result"] == result


def test_result_before_the_end_is_an_error():
    with pytest.raises(IllegalAction):
        gin.new_game(None, 1).result()


# --- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [
    None, "draw", {"type": "fly"}, {"type": "discard"}, {"type": "discard", "card": "ZZ"},
    {"type": "discard", "card": "2H"}, {"type": "discard", "card": "9C", "extra": 1},
    {"type": "discard", "card": ["9C"]}, {"type": "knock", "card": {"c": 1}}, {"type": "draw", "source": []},
    {"type": "draw", "source": "stock"}, {"type": "take_upcard"}, {"type": "next_hand"},
])
def test_bad_actions_change_nothing(action):
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 9C KC", "2H 4H 6H 8H TH 2C 4C 6C 8D TC"])
    unchanged_after(state, 0, action)
    unchanged_after(state, 1, {"type": "discard", "card": "2H"})
    unchanged_after(state, 2, {"type": "discard", "card": "9C"})


# --- views and JSON ----------------------------------------------------------------------------

def play_random(seed: int, target: int = 40):
    """A whole game by seeded random choices (knocking whenever possible, so hands end)."""
    rng = random.Random(seed)
    state = gin.new_game({"target": target}, seed)
    states = [state.to_json()]
    while not state.is_over:
        if state.pending_automatic():
            state.apply_automatic()
        else:
            seat = state.current_player
            actions = state.legal_actions(seat)
            knocks = [a for a in actions if a["type"] == "knock"]
            state.apply(seat, knocks[0] if knocks else rng.choice(actions))
        states.append(state.to_json())
        yield state


def test_views_show_only_what_the_seat_may_know():
    for seed in range(4):
        for state in play_random(seed):
            for seat in (0, 1, None):
                view = state.view(seat)
                shown = dict(view, last_hand=None, previous_hands=None, result=None)  # older hands are public history
                text = json.dumps(shown)
                public = set(view["discard_pile"]) | {c for cs in view["known_cards"] for c in cs}
                public |= {e.get("card") or e.get("passed") for e in view["history"]} - {None}
                mine = set(state.hands[seat]) if seat is not None else set()
                hidden = set(state.stock) | set(state.hands[0]) | set(state.hands[1])
                for card in hidden - public - mine:
                    assert f'"{card}"' not in text, (seat, card)
                assert "stock" not in view or isinstance(view.get("stock"), int)
                playing = view["phase"] in ("upcard", "draw", "discard")
                assert view["stock_count"] == (len(state.stock) if playing else 0)
                for key in ("game", "players", "seat", "current_player", "is_over", "scores", "moves",
                            "last", "legal_actions", "result", "options"):
                    assert key in view
                if seat is None:
                    assert view["hand"] is None and view["legal_actions"] == []
                elif view["hand"] is not None:
                    hand = view["hand"]
                    assert sorted(hand["cards"]) == sorted(state.hands[seat])
                    assert hand["cards"] == [c for m in hand["melds"] for c in m] + hand["deadwood_cards"]
                    assert hand["deadwood"] == best_split(state.hands[seat])[0]
                    assert view["opponent"]["card_count"] == len(state.hands[1 - seat])
                    assert view["legal_actions"] == state.legal_actions(seat)


def test_known_cards_are_pickups_not_thrown_back():
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 9C", "2H 4H 6H 8H TH 2C 4C 6C 8C TC"],
                phase="draw", pile=("5C", "9S"), current=1)
    state.apply(1, {"type": "draw", "source": "discard"})
    state.apply(1, {"type": "discard", "card": "TC"})
    assert state.view(0)["opponent"]["known_cards"] == ["9S"]
    assert state.view(None)["known_cards"] == [[], ["9S"]]
    state.apply(0, {"type": "draw", "source": "discard"})
    state.apply(0, {"type": "discard", "card": "9C"})
    state.apply(1, {"type": "draw", "source": "stock"})
    state.apply(1, {"type": "discard", "card": "9S"})
    assert state.view(0)["opponent"]["known_cards"] == []
    assert state.view(1)["opponent"]["known_cards"] == ["TC"]


def test_stock_draw_is_shown_only_to_the_drawer():
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 9C", "2H 4H 6H 8H TH 2C 4C 6C 8C TC"], phase="draw")
    top = state.stock[-1]
    state.apply(0, {"type": "draw", "source": "stock"})
    assert state.view(0)["last"]["card"] == top
    assert "card" not in state.view(1)["last"] and "card" not in state.view(None)["last"]


def test_json_round_trip_and_determinism():
    final = None
    for state in play_random(11):
        data = json.loads(json.dumps(state.to_json()))
        copy = gin.State.from_json(data)
        assert copy.to_json() == state.to_json()
        assert copy.view(0) == state.view(0) and copy.view(None) == state.view(None)
        final = state
    again = list(play_random(11))[-1]
    assert again.to_json() == final.to_json()
    with pytest.raises(ValueError):
        gin.State.from_json({"scores": [0, 0]})


def test_from_json_refuses_a_state_that_breaks_an_invariant():
    # A stored state is data from outside: each way of breaking it is refused with its reason,
    # not played on to fail later.
    state = rig(["AS 2S 3S 7H 7D 7C JD QD KD 9C 4H", "2H 4C 6H 8H TH 2C 5D 6C 8C TC"])
    good = state.to_json()
    assert gin.State.from_json(good).to_json() == good

    def broken(**changes):
        return {**json.loads(json.dumps(good)), **changes}

    hands = good["hands"]
    cases = {
        "must have exactly the fields": {k: v for k, v in good.items() if k != "history"},
        "whole numbers in range": broken(target=0),
        "one score of 0 or more per seat": broken(scores=[0, -5]),
        "must be seats": broken(dealer=2),
        "the phase must be one of": broken(phase="bidding"),
        "someone is to act exactly while a hand is played": broken(current_player=None),
        "the game is over exactly when a score reaches the target": broken(scores=[100, 0]),
        "exactly once": broken(hands=[hands[0][:-1] + [hands[1][0]], hands[1]]),
        "11 for the player about to discard": broken(hands=[hands[0][:-1], hands[1]],
                                                     stock=good["stock"] + [hands[0][-1]]),
        "the card just taken": broken(taken_card=hands[1][0]),
        "at most twice": broken(upcard_passes=3),
        "JSON objects": broken(history=["draw"]),
        "wrong shape": broken(stock=[7, *good["stock"][1:]]),
    }
    for reason, data in cases.items():
        with pytest.raises(InvalidState, match=reason) as error:
            gin.State.from_json(data)
        assert error.value.code == "invalid_state"

def test_view_counts_the_deadwood_the_best_legal_discard_leaves():
    # Eleven cards: 5-6-7 of spades, three nines, three kings, the ace of clubs and the queen of
    # diamonds (11 deadwood now); throwing the queen leaves 1. The queen was just taken from the
    # pile, so the best legal discard is the ace, which leaves 10.
    hands = ["5S 6S 7S 9H 9D 9C KH KD KC AC QD", "2H 3D 5C 7H 8D TC JH 2D 6C 4H"]
    assert rig(hands, pile=("4C",)).view(0)["hand"]["deadwood_after_discard"] == 1
    hand = rig(hands, pile=("4C",), taken="QD").view(0)["hand"]
    assert hand["deadwood"] == 11 and hand["deadwood_after_discard"] == 10
    assert rig(hands, pile=("4C",)).view(1)["hand"]["deadwood_after_discard"] is None  # ten cards


def test_views_keep_every_finished_hand_before_the_last_one():
    finished: list[dict] = []
    for state in play_random(2):
        if state.last_hand is not None and (not finished or finished[-1] != state.last_hand):
            finished.append(state.last_hand)
        for seat in (0, 1, None):
            assert state.view(seat)["previous_hands"] == finished[:-1]
    assert len(finished) >= 3
    assert [hand["hand_number"] for hand in finished] == list(range(1, len(finished) + 1))
    assert gin.State.from_json(state.to_json()).previous_hands == finished[:-1]
