"""Memory engine (docs/memory.md): options, grids, deal, turn flow, scores, views, JSON, properties."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import memory
from games.engines.base import GameError, IllegalAction, InvalidOptions, NotYourTurn


def flip(pos):
    return {"type": "flip", "pos": pos}


def constructed(order, players=2, first=0, **options):
    """A game whose cards lie in this order (A1, A2, …), ``first`` to move."""
    opts = memory.parse_options({"players": players, **options})
    assert sorted(order) == sorted(memory.deck(opts))
    state = memory.new_game(opts, 0)
    state.cards = list(order)
    state.turn_seat = first
    return state


def layout_of(state):
    return {entry["pos"]: entry for entry in state.view(None)["layout"]}


def ordered_deck(**options):
    return memory.deck(memory.parse_options(options))


# ------------------------------------------------------------------------------ options

def test_default_options():
    assert memory.parse_options(None).to_json() == {
        "players": 2, "cards": 52, "jokers": False, "match": "rank", "one_flip": False}
    assert memory.parse_options({}).to_json() == memory.Options().to_json()


@pytest.mark.parametrize("raw", [
    {"players": 0}, {"players": 7}, {"players": "2"}, {"players": True}, {"players": 2.0},
    {"cards": 30}, {"cards": "52"}, {"cards": 54}, {"jokers": "yes"}, {"jokers": 1},
    {"match": "suit"}, {"match": None}, {"one_flip": "no"}, {"colour": True},
    {"cards": 104, "match": "rank"}, {"cards": 52, "match": "identical"},
    {"cards": 104, "match": "colour"}, "players=2", [1, 2],
])
def test_bad_options_are_refused_with_a_message(raw):
    with pytest.raises(InvalidOptions) as err:
        memory.parse_options(raw)
    assert err.value.message and err.value.code == "invalid_options"


def test_two_decks_and_identical_imply_each_other():
    assert memory.parse_options({"cards": 104}).match == "identical"
    assert memory.parse_options({"match": "identical"}).cards == 104
    every = [memory.parse_options({"players": p, "cards": c, "jokers": j, "match": m, "one_flip": f})
             for p in range(1, 7) for c in (24, 40, 52) for j in (False, True)
             for m in ("rank", "colour", "zebra") for f in (False, True)]
    assert len(every) == 6 * 3 * 2 * 3 * 2


@pytest.mark.parametrize("cards, ranks", [(24, "A23456"), (40, "A23456789T"), (52, "A23456789TJQK")])
def test_decks_have_four_of_each_rank(cards, ranks):
    deck = ordered_deck(cards=cards)
    assert len(deck) == cards and len(set(deck)) == cards
    assert {c[0] for c in deck} == set(ranks)
    assert all(sum(c[0] == r for c in deck) == 4 for r in ranks)
    assert ordered_deck(cards=cards, jokers=True).count("JK") == 2


def test_two_decks_hold_every_card_twice():
    deck = ordered_deck(cards=104, jokers=True)
    assert len(deck) == 106
    assert all(deck.count(c) == 2 for c in set(deck))


# ------------------------------------------------------------------------------ grid

@pytest.mark.parametrize("options, columns, rows, lengths", [
    ({}, 9, 6, [9, 9, 9, 9, 9, 7]),
    ({"jokers": True}, 9, 6, [9] * 6),
    ({"cards": 24}, 6, 4, [6] * 4),
    ({"cards": 24, "jokers": True}, 7, 4, [7, 7, 7, 5]),
    ({"cards": 40}, 8, 5, [8] * 5),
    ({"cards": 40, "jokers": True}, 7, 6, [7] * 6),
    ({"cards": 104}, 13, 8, [13] * 8),
    ({"cards": 104, "jokers": True}, 12, 9, [12] * 8 + [10]),
])
def test_fixed_grids(options, columns, rows, lengths):
    view = memory.new_game(options, 1).view(None)
    assert (view["columns"], view["rows"], view["row_lengths"]) == (columns, rows, lengths)
    assert [e["pos"] for e in view["layout"]][:2] == ["A1", "A2"]
    last_row = chr(ord("A") + rows - 1)
    assert view["layout"][-1]["pos"] == f"{last_row}{lengths[-1]}"
    assert len({e["pos"] for e in view["layout"]}) == sum(lengths)


def test_position_names_rows_from_the_back_columns_from_the_left():
    grid = memory.grid_for(memory.parse_options({}))
    assert grid.name(0) == "A1" and grid.name(8) == "A9" and grid.name(9) == "B1"
    assert grid.name(51) == "F7"
    assert grid.index("B4") == 12
    for bad in ("F8", "G1", "A0", "A10", "A01", "a1", "", "B", 3, None, "4B", "A²", "A١", "B4 ", "AA1"):
        assert grid.index(bad) is None
    assert sorted(grid.neighbours(0)) == [1, 9]
    assert sorted(grid.neighbours(grid.index("E8"))) == [grid.index("D8"), grid.index("E7"), grid.index("E9")]


# ------------------------------------------------------------------------------ deal

def test_deal_and_start_are_deterministic_and_vary_with_the_seed():
    a, b = memory.new_game({}, 42), memory.new_game({}, 42)
    assert a.to_json() == b.to_json()
    assert memory.new_game({}, 43).cards != a.cards
    for players in (2, 3, 4, 6):
        starts = {memory.new_game({"players": players}, seed).turn_seat for seed in range(200)}
        assert starts == set(range(players))


def test_bad_seed_is_refused():
    with pytest.raises(InvalidOptions):
        memory.new_game({}, "1")


# ------------------------------------------------------------------------------ turn flow

def test_match_takes_both_and_the_same_player_goes_on():
    cards = ["AS", "AH", "2S"] + [c for c in ordered_deck() if c not in ("AS", "AH", "2S")]
    state = constructed(cards, first=1)
    state.apply(1, flip("A1"))
    view = state.view(0)
    assert view["phase"] == "second" and view["first"] == "A1"
    assert layout_of(state)["A1"] == {"pos": "A1", "row": 0, "column": 0, "state": "up", "card": "AS"}
    state.apply(1, flip("A2"))
    assert state.current_player == 1 and state.phase == "first"
    assert state.scores() == [0, 2] and state.pairs == [0, 1]
    assert layout_of(state)["A2"]["state"] == "taken" and layout_of(state)["A2"]["by"] == 1
    assert state.last == {"type": "flip", "seat": 1, "pos": "A2", "card": "AH",
                          "result": "match", "pair": ["A1", "A2"]}
    assert state.moves == 2 and state.turn_number == 0


def test_mismatch_shows_both_then_conceals_and_passes_the_turn():
    state = constructed(ordered_deck())  # A1 = AS, A2 = AH... A5 = 2S
    state.apply(0, flip("A1"))
    state.apply(0, flip("A5"))
    assert state.current_player is None and state.pending_automatic() == "conceal"
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    up = {pos for pos, e in layout_of(state).items() if e["state"] == "up"}
    assert up == {"A1", "A5"}
    before = state.to_json()
    for seat in (0, 1):
        with pytest.raises(IllegalAction):
            state.apply(seat, flip("A3"))
    assert state.to_json() == before
    state.apply_automatic()
    assert state.current_player == 1 and state.pending_automatic() is None
    assert all(e["state"] == "down" for e in layout_of(state).values())
    assert state.last == {"type": "conceal", "seat": 0, "positions": ["A1", "A5"], "next": 1}
    assert state.failed == [1, 0] and state.turn_number == 1
    with pytest.raises(IllegalAction) as err:
        state.apply_automatic()
    assert err.value.code == "no_automatic_step"


def test_one_flip_a_match_ends_the_turn():
    state = constructed(ordered_deck(), one_flip=True)
    state.apply(0, flip("A1"))
    state.apply(0, flip("A2"))
    assert state.pairs == [1, 0] and state.current_player == 1 and state.pending_automatic() is None


def test_turn_order_wraps_around():
    state = constructed(ordered_deck(), players=3, first=2)
    state.apply(2, flip("A1"))
    state.apply(2, flip("A5"))
    state.apply_automatic()
    assert state.current_player == 0


def test_jokers_match_only_each_other_and_count_two_pairs():
    deck = ordered_deck(jokers=True)
    cards = ["JK", "AS", "JK"] + [c for c in deck if c not in ("JK", "AS")]
    state = constructed(cards, jokers=True)
    state.apply(0, flip("A1"))
    state.apply(0, flip("A2"))  # joker and ace: no match
    state.apply_automatic()
    state.apply(1, flip("A1"))
    state.apply(1, flip("A3"))
    assert state.pairs == [0, 2] and state.scores() == [0, 4]
    for rule in ("rank", "colour", "zebra", "identical"):
        assert memory.cards_match("JK", "JK", rule)
        assert not memory.cards_match("JK", "AS", rule) and not memory.cards_match("AS", "JK", rule)


@pytest.mark.parametrize("a, b, rank, colour, zebra, identical", [
    ("QH", "QD", True, True, False, False),
    ("QS", "QC", True, True, False, False),
    ("QH", "QS", True, False, True, False),
    ("QH", "QH", True, True, False, True),
    ("QH", "KH", False, False, False, False),
    ("TS", "TD", True, False, True, False),
])
def test_match_rules(a, b, rank, colour, zebra, identical):
    assert memory.cards_match(a, b, "rank") is rank
    assert memory.cards_match(a, b, "colour") is colour
    assert memory.cards_match(a, b, "zebra") is zebra
    assert memory.cards_match(a, b, "identical") is identical


def test_colour_rule_game_takes_only_same_colour():
    cards = ["QH", "QS", "QD"] + [c for c in ordered_deck() if c not in ("QH", "QS", "QD")]
    state = constructed(cards, match="colour")
    state.apply(0, flip("A1"))
    state.apply(0, flip("A2"))
    assert state.pending_automatic() == "conceal"
    state.apply_automatic()
    state.apply(1, flip("A1"))
    state.apply(1, flip("A3"))
    assert state.pairs == [0, 1]


def test_illegal_flips_are_refused_and_change_nothing():
    state = constructed(ordered_deck())
    state.apply(0, flip("A1"))
    state.apply(0, flip("A2"))  # taken by seat 0
    state.apply(0, flip("A3"))  # face up
    before = state.to_json()
    cases = [
        (0, flip("A3"), "card_face_up", "A3 is already face up."),
        (0, flip("A1"), "card_taken", "A1 has already been taken."),
        (0, flip("Z9"), "bad_position", None),
        (0, flip("F8"), "bad_position", None),
        (0, flip("A²"), "bad_position", None),
        (0, flip(["A", 1]), "bad_position", None),
        (0, {"type": "flip"}, "malformed_action", None),
        (0, {"type": "flip", "pos": "B1", "extra": 1}, "malformed_action", None),
        (0, {"type": "draw"}, "unknown_action", None),
        (0, "flip B1", "malformed_action", None),
        (1, flip("B1"), "not_your_turn", None),
        (5, flip("B1"), "not_a_player", None),
        (None, flip("B1"), "not_a_player", None),
    ]
    for seat, action, code, message in cases:
        with pytest.raises(IllegalAction) as err:
            state.apply(seat, action)
        assert err.value.code == code, (action, err.value.code)
        assert err.value.message
        if message:
            assert err.value.message == message
        assert state.to_json() == before


def test_wrong_seat_is_not_your_turn():
    state = constructed(ordered_deck())
    with pytest.raises(NotYourTurn):
        state.apply(1, flip("A1"))


# ------------------------------------------------------------------------------ end and result

def play_in_order(state, order):
    """Flips positions in this order (each turn: two of them), concealing after mismatches."""
    for pos in order:
        if state.pending_automatic():
            state.apply_automatic()
        state.apply(state.current_player, flip(pos))


def test_solo_counts_failed_flips_and_pairs():
    cards = ordered_deck(cards=24)  # A1..A4 aces, A5.. twos
    state = constructed(cards, players=1, cards=24)
    grid = state.grid
    play_in_order(state, ["A1", "A5"])  # a failed turn
    assert state.pending_automatic() == "conceal"
    state.apply_automatic()
    assert state.current_player == 0
    order = [grid.name(i) for i in range(24)]
    play_in_order(state, order)
    assert state.is_over
    result = state.result()
    assert result["scores"] == [12] and result["pairs"] == [12]
    assert result["failed_flips"] == 1 and result["failed_flips_by_seat"] == [1]
    assert result["ranking"] == [[0]] and result["winners"] == [0] and result["draw"] is False


def test_most_cards_wins_and_a_tie_for_first_is_a_draw():
    state = constructed(ordered_deck(cards=24), cards=24)
    grid = state.grid
    # Seat 0 takes the aces (2 pairs), misses; seat 1 takes the rest.
    play_in_order(state, ["A1", "A2", "A3", "A4", "A5", "B3"])
    state.apply_automatic()
    play_in_order(state, [grid.name(i) for i in range(4, 24)])
    result = state.result()
    assert result["scores"] == [4, 20] and result["winners"] == [1] and not result["draw"]
    assert result["ranking"] == [[1], [0]]

    # Seat 0 takes aces, twos and threes (6 pairs), misses; seat 1 takes the other 6 pairs.
    state = constructed(ordered_deck(cards=24), cards=24)
    play_in_order(state, [grid.name(i) for i in range(12)] + ["C1", "C5"])
    state.apply_automatic()
    play_in_order(state, [grid.name(i) for i in range(12, 24)])
    result = state.result()
    assert result["scores"] == [12, 12] and result["draw"] is True
    assert result["winners"] == [0, 1] and result["ranking"] == [[0, 1]]


def test_result_before_the_end_is_refused():
    with pytest.raises(IllegalAction):
        memory.new_game({}, 1).result()


# ------------------------------------------------------------------------------ views

def test_views_hold_every_field_of_the_contract():
    state = memory.new_game({"players": 3}, 5)
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        for key in ("game", "players", "seat", "current_player", "is_over", "scores", "moves",
                    "last", "legal_actions", "result", "options"):
            assert key in view
        assert view["seat"] == seat
        assert json.loads(json.dumps(view)) == view
        if seat == state.current_player:
            assert len(view["legal_actions"]) == 52
        else:
            assert view["legal_actions"] == []
    with pytest.raises(IllegalAction):
        state.view(3)


def assert_no_hidden_identity(state, view):
    """No face-down card's identity anywhere in the view."""
    visible = [c for c, taker in zip(state.cards, state.taken_by, strict=True) if taker is not None]
    visible += [state.cards[i] for i in state.face_up]
    codes = set(memory.deck(state.options))

    def strings(node):
        if isinstance(node, dict):
            for value in node.values():
                yield from strings(value)
        elif isinstance(node, list):
            for value in node:
                yield from strings(value)
        elif isinstance(node, str):
            yield node

    shown = [s for s in strings(view) if s in codes]
    assert set(shown) <= set(visible)
    for entry in view["layout"]:
        if entry["state"] == "down":
            assert set(entry) == {"pos", "row", "column", "state"}


def test_a_card_seen_then_turned_back_is_not_in_the_view():
    state = constructed(ordered_deck())
    state.apply(0, flip("A1"))
    state.apply(0, flip("A5"))
    state.apply_automatic()
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert_no_hidden_identity(state, view)
        assert "AS" not in json.dumps(view) and "2S" not in json.dumps(view)


# ------------------------------------------------------------------------------ JSON

def test_json_round_trip_is_exact():
    state = memory.new_game({"players": 3, "jokers": True, "match": "zebra"}, 9)
    rng = random.Random(3)
    while not state.is_over:
        data = json.loads(json.dumps(state.to_json()))
        again = memory.State.from_json(data)
        assert again.to_json() == state.to_json()
        assert again.view(1) == state.view(1)
        if state.pending_automatic():
            state.apply_automatic()
        else:
            state.apply(state.current_player, rng.choice(state.legal_actions(state.current_player)))
    assert memory.State.from_json(state.to_json()).result() == state.result()


@pytest.mark.parametrize("corrupt", [
    lambda d: d.update(game="bozu"),
    lambda d: d.pop("cards"),
    lambda d: d["cards"].__setitem__(0, "XX"),
    lambda d: d.update(phase="second"),
    lambda d: d.update(turn_seat=2),
    lambda d: d["taken_by"].__setitem__(0, 0),
    lambda d: d.update(pairs=[1, 0]),
    lambda d: d.update(face_up=[0, 0], phase="reveal"),
    lambda d: d.update(phase="over"),
    lambda d: d.update(moves="many"),
    lambda d: d["options"].update(cards=30),
])
def test_corrupt_states_are_refused(corrupt):
    data = memory.new_game({}, 1).to_json()
    corrupt(data)
    with pytest.raises(GameError) as err:
        memory.State.from_json(data)
    assert err.value.code == "invalid_state"


# ------------------------------------------------------------------------------ properties

options_strategy = st.one_of(
    st.fixed_dictionaries({
        "players": st.integers(1, 6),
        "cards": st.sampled_from([24, 40, 52, 104]),
        "jokers": st.booleans(),
        "one_flip": st.booleans(),
        "match": st.sampled_from(["rank", "colour", "zebra"]),
    }).map(lambda o: {**o, "match": "identical"} if o["cards"] == 104 else o),
    # The picture deck and the long table keep the same invariants (their own files test the rest).
    st.fixed_dictionaries({
        "players": st.integers(1, 6), "deck": st.just("pictures"),
        "cards": st.sampled_from([24, 40, 52]), "one_flip": st.booleans(),
    }),
    st.fixed_dictionaries({
        "players": st.integers(1, 6), "long_table": st.just(True),
        "deck": st.sampled_from(["playing_cards", "pictures"]), "one_flip": st.booleans(),
    }),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_strategy, seed=st.integers(0, 2**63 - 1), play_seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(options, seed, play_seed):
    state = memory.new_game(options, seed)
    rng = random.Random(play_seed)
    players = state.players
    all_names = [state.grid.name(i) for i in range(state.grid.count)]
    steps = 0
    while not state.is_over:
        steps += 1
        assert steps < 20_000
        if rng.random() < 0.2:  # an illegal attempt changes nothing
            before = state.to_json()
            seat = rng.randrange(players)
            pos = rng.choice(all_names)
            legal = seat == state.current_player and state.grid.index(pos) in state.face_down()
            if not legal:
                with pytest.raises(IllegalAction):
                    state.apply(seat, flip(pos))
                assert state.to_json() == before
        if rng.random() < 0.05:
            data = json.loads(json.dumps(state.to_json()))
            assert memory.State.from_json(data).to_json() == state.to_json()
            view = state.view(rng.choice([None] + list(range(players))))
            assert_no_hidden_identity(state, view)
        if state.pending_automatic():
            assert state.current_player is None
            state.apply_automatic()
            continue
        seat = state.current_player
        down = state.face_down()
        choice = rng.choice(down)
        if state.face_up and rng.random() < 0.5:  # the driver may peek, so that games end sooner
            first = state.cards[state.face_up[0]]
            partners = [i for i in down if memory.cards_match(first, state.cards[i], state.options.match)]
            choice = partners[0] if partners else choice
        assert flip(state.grid.name(choice)) in state.legal_actions(seat)
        state.apply(seat, flip(state.grid.name(choice)))
    result = state.result()
    # Every card taken exactly once; scores are the cards taken (solo: pairs).
    assert all(taker is not None for taker in state.taken_by)
    pairs = [sum(memory.pair_value(c) for c, t in zip(state.cards, state.taken_by, strict=True) if t == seat) // 2
             for seat in range(players)]
    assert pairs == result["pairs"]
    expected_pairs = len(state.cards) // 2 + (1 if state.options.jokers else 0)
    assert sum(result["pairs"]) == expected_pairs
    if players == 1:
        assert result["scores"] == result["pairs"]
    else:
        assert result["scores"] == [2 * p for p in pairs]
    best = max(result["scores"])
    assert result["winners"] == [s for s in range(players) if result["scores"][s] == best]
    assert result["draw"] is (len(result["winners"]) > 1)
    assert sorted(s for group in result["ranking"] for s in group) == list(range(players))
    assert_no_hidden_identity(state, state.view(None))
