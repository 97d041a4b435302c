"""Bozu Mekuri engine (docs/bozu.md): cards, options, every rule on constructed decks, properties."""
import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cpu import bozu as bozu_cpu
from games.engines import bozu
from games.engines.base import GameError, IllegalAction, InvalidOptions, NotYourTurn
from games.engines.bozu_cards import (
    CARDS,
    EMPEROR_POEMS,
    LADY_POEMS,
    MONK_POEMS,
    NYUDO_POEMS,
    SEMIMARU_POEM,
)

FLIP = {"type": "flip"}

# Handy poems of each type for constructed decks.
NOBLES = [p for p in range(1, 101) if CARDS[p].type == "noble"]
EMPERORS = list(EMPEROR_POEMS)
LADIES = list(LADY_POEMS)
MONKS = list(MONK_POEMS)


def poems_of(type_):
    return [c.poem for c in CARDS[1:] if c.type == type_]


# ---------------------------------------------------------------------------- the 100 cards

def test_the_hundred_cards_are_poems_one_to_a_hundred():
    assert CARDS[0] is None
    assert [c.poem for c in CARDS[1:]] == list(range(1, 101))


def test_card_types_are_exactly_those_of_spec_3_1():
    assert poems_of("monk") == [8, 12, 21, 47, 66, 69, 70, 82, 85, 86, 87, 95]
    assert poems_of("lady") == [2, 9, 19, 38, 53, 54, 56, 57, 58, 59, 60, 61, 62, 65, 67, 72,
                                80, 88, 89, 90, 92]
    assert poems_of("emperor") == [1, 13, 15, 68, 77, 99, 100]
    assert poems_of("semimaru") == [10]
    assert len(poems_of("monk")) == 12
    assert len(poems_of("lady")) == 21
    assert len(poems_of("emperor")) == 7
    # 66 nobles counting the 7 emperors and the two nyūdō poets.
    assert len(poems_of("noble")) + len(poems_of("emperor")) == 66
    assert NYUDO_POEMS == (76, 96)
    assert all(CARDS[p].type == "noble" for p in NYUDO_POEMS)
    assert CARDS[2].type == "lady" and CARDS[2].poet == "Jitō Tennō"  # Empress Jitō
    assert CARDS[SEMIMARU_POEM].poet == "Semimaru"


def test_poet_names_romanised_and_in_japanese_script():
    assert CARDS[1].poet == "Tenji Tennō" and CARDS[1].poet_ja == "天智天皇"
    assert CARDS[10].poet_ja == "蝉丸"
    assert CARDS[9].poet == "Ono no Komachi" and CARDS[9].poet_ja == "小野小町"
    assert CARDS[97].poet == "Gon-chūnagon Sadaie" and CARDS[97].poet_ja == "権中納言定家"
    assert CARDS[100].poet == "Juntoku-in" and CARDS[100].poet_ja == "順徳院"
    assert len({c.poet for c in CARDS[1:]}) == 100
    assert len({c.poet_ja for c in CARDS[1:]}) == 100
    for card in CARDS[1:]:
        # Romanised: Latin letters (macrons allowed), spaces, hyphens, apostrophes only.
        assert all(ch.isascii() and (ch.isalpha() or ch in " -'") or ch in "āēīōūĀĒĪŌŪ"
                   for ch in card.poet), card
        # Japanese script: CJK ideographs (and kana), nothing Latin.
        assert all(unicodedata.name(ch).startswith(("CJK UNIFIED", "HIRAGANA", "KATAKANA"))
                   for ch in card.poet_ja), card
    assert sum("ō" in c.poet or "ū" in c.poet for c in CARDS[1:]) > 20  # macrons kept


# ------------------------------------------------------------------------------- options

def test_default_options_are_canonical():
    assert bozu.parse_options(None).to_json() == {
        "players": 4, "semimaru": "monk", "emperor": "noble", "lady_empty_again": False}
    assert bozu.parse_options({}) == bozu.Options()


@pytest.mark.parametrize("raw", [
    {"players": 1}, {"players": 5}, {"players": "4"}, {"players": True}, {"players": 4.0},
    {"semimaru": "hermit"}, {"semimaru": None}, {"emperor": "skip"},
    {"lady_empty_again": "yes"}, {"lady_empty_again": 1}, {"colour": "red"}, ["players", 2], "4",
])
def test_bad_options_are_refused_with_a_message(raw):
    with pytest.raises(InvalidOptions) as info:
        bozu.parse_options(raw)
    assert info.value.message


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("semimaru", bozu.SEMIMARU_RULES)
@pytest.mark.parametrize("emperor", bozu.EMPEROR_RULES)
@pytest.mark.parametrize("lady", [False, True])
def test_every_option_combination_parses_and_round_trips(players, semimaru, emperor, lady):
    raw = {"players": players, "semimaru": semimaru, "emperor": emperor, "lady_empty_again": lady}
    assert bozu.parse_options(raw).to_json() == raw


# ---------------------------------------------------------------------------------- deal

def test_deal_is_a_deterministic_permutation():
    assert sorted(bozu.deal(7)) == list(range(1, 101))
    assert bozu.deal(7) == bozu.deal(7)
    assert bozu.deal(7) != bozu.deal(8)
    assert bozu.new_game(None, 7).deck == bozu.deal(7)
    assert sorted(bozu.deal(-3)) == list(range(1, 101))


@pytest.mark.parametrize("seed", ["1", 1.5, None, True])
def test_bad_seed_is_refused(seed):
    with pytest.raises(InvalidOptions):
        bozu.new_game(None, seed)


# ------------------------------------------------------------------------ helpers for rigging

def rigged(options, top, *, piles=None, centre=(), current=0, skip=None):
    """A state whose deck starts with ``top`` (then every other card), built through from_json."""
    opts = bozu.parse_options(options)
    piles = [list(p) for p in (piles or [[] for _ in range(opts.players)])]
    placed = set(top) | set(centre) | {p for pile in piles for p in pile}
    rest = [p for p in range(1, 101) if p not in placed]
    return bozu.State.from_json({
        "game": "bozu", "options": opts.to_json(), "deck": list(top) + rest, "piles": piles,
        "centre": list(centre), "current_player": current,
        "skip": skip or [False] * opts.players, "moves": 0, "last": None,
    })


def flip(state, times=1):
    for _ in range(times):
        state.apply(state.current_player, FLIP)
    return state


# ----------------------------------------------------------------------------- basic play

def test_red_starts_and_only_the_current_seat_may_flip():
    state = bozu.new_game({"players": 3}, 1)
    assert state.current_player == 0
    assert state.legal_actions(0) == [FLIP]
    assert state.legal_actions(1) == [] and state.legal_actions(None) == []
    assert state.pending_automatic() is None
    assert state.view(0)["last"] is None


@pytest.mark.parametrize("seat, action, error", [
    (1, FLIP, NotYourTurn),
    (None, FLIP, IllegalAction),
    (7, FLIP, IllegalAction),
    (True, FLIP, IllegalAction),
    (0, "flip", IllegalAction),
    (0, {"type": "draw"}, IllegalAction),
    (0, {"type": "flip", "card": 3}, IllegalAction),
    (0, {}, IllegalAction),
])
def test_illegal_actions_are_refused_and_change_nothing(seat, action, error):
    state = flip(bozu.new_game(None, 5), 4)  # a round played: seat 0 (Red) to flip again
    assert state.current_player == 0
    before = state.to_json()
    with pytest.raises(error) as info:
        state.apply(seat, action)
    assert info.value.message and info.value.code
    assert state.to_json() == before


def test_no_automatic_step_and_no_result_before_the_end():
    state = bozu.new_game(None, 2)
    with pytest.raises(IllegalAction):
        state.apply_automatic()
    with pytest.raises(IllegalAction):
        state.result()
    with pytest.raises(IllegalAction):
        state.view(4)


def test_noble_goes_on_own_pile_and_the_turn_passes_clockwise():
    state = flip(rigged({"players": 3}, [NOBLES[0], NOBLES[1], NOBLES[2], NOBLES[3]]), 4)
    assert state.piles == [[NOBLES[0], NOBLES[3]], [NOBLES[1]], [NOBLES[2]]]
    assert state.current_player == 1
    assert state.last == {"seat": 0, "card": CARDS[NOBLES[3]].to_json(), "effect": "to_pile",
                          "moved": 0, "again": False, "skipped": []}


def test_monk_sends_own_pile_and_itself_to_the_centre_then_a_lady_takes_it():
    monk, lady = MONKS[0], LADIES[1]
    state = rigged({"players": 2}, [NOBLES[0], NOBLES[1], NOBLES[2], monk, lady])
    flip(state, 4)  # seat 1 had one noble, flips the monk
    assert state.piles == [[NOBLES[0], NOBLES[2]], []]
    assert state.centre == [NOBLES[1], monk]
    assert state.last["effect"] == "pile_to_centre" and state.last["moved"] == 1
    flip(state)  # seat 0 flips the lady: takes the centre and the lady
    assert state.piles == [[NOBLES[0], NOBLES[2], NOBLES[1], monk, lady], []]
    assert state.centre == []
    assert state.last["effect"] == "takes_centre" and state.last["moved"] == 2
    assert state.current_player == 1


def test_monk_on_an_empty_pile_sends_only_itself():
    state = flip(rigged(None, [MONKS[3]]))
    assert state.piles[0] == [] and state.centre == [MONKS[3]]
    assert state.last["moved"] == 0


def test_lady_on_an_empty_centre_takes_only_herself_and_by_default_the_turn_passes():
    state = flip(rigged(None, [LADIES[0]]))
    assert state.piles[0] == [LADIES[0]] and state.current_player == 1
    assert state.last["again"] is False


# ------------------------------------------------------------------------ each option's effect

def test_semimaru_as_monk_by_default():
    state = flip(rigged(None, [NOBLES[0], NOBLES[1], NOBLES[2], NOBLES[3], NOBLES[4], SEMIMARU_POEM]), 6)
    assert state.piles[1] == [] and state.centre == [NOBLES[1], SEMIMARU_POEM]
    assert state.last["effect"] == "pile_to_centre"


def test_semimaru_as_noble():
    state = flip(rigged({"semimaru": "noble"}, [NOBLES[0], SEMIMARU_POEM]), 2)
    assert state.piles[1] == [SEMIMARU_POEM] and state.centre == []
    assert state.last["effect"] == "to_pile" and state.current_player == 2


def test_semimaru_skip_keeps_it_and_misses_the_next_turn():
    state = rigged({"players": 3, "semimaru": "skip"}, [SEMIMARU_POEM] + NOBLES[:4])
    flip(state)
    assert state.piles[0] == [SEMIMARU_POEM] and state.skip == [True, False, False]
    assert state.view(None)["skip"] == [True, False, False]
    assert state.current_player == 1
    flip(state, 2)  # seats 1 and 2; seat 0 misses its turn, so seat 1 again
    assert state.current_player == 1 and state.skip == [False, False, False]
    assert state.last["skipped"] == [0] and state.last["seat"] == 2
    flip(state)
    assert state.current_player == 2  # the skip is served once only


def test_semimaru_skip_with_two_players_gives_the_other_two_turns_in_a_row():
    state = rigged({"players": 2, "semimaru": "skip"}, [NOBLES[0], SEMIMARU_POEM] + NOBLES[1:4])
    flip(state, 2)  # seat 1 keeps Semimaru
    assert state.current_player == 0
    flip(state)
    assert state.current_player == 0 and state.last["skipped"] == [1]
    flip(state)
    assert state.current_player == 1


def test_semimaru_skip_is_not_served_during_a_flip_again():
    options = {"players": 2, "semimaru": "skip", "emperor": "again"}
    state = rigged(options, [NOBLES[0], SEMIMARU_POEM, EMPERORS[0], NOBLES[1], NOBLES[2]])
    flip(state, 2)  # seat 1 keeps Semimaru and must miss its next turn
    flip(state)  # seat 0: emperor, flips again; the turn does not pass, so no skip yet
    assert state.current_player == 0 and state.skip == [False, True]
    flip(state)  # seat 0: noble; the turn would pass to seat 1, who misses it
    assert state.current_player == 0 and state.skip == [False, False]
    assert state.last["skipped"] == [1]


def test_semimaru_others_to_centre():
    options = {"players": 4, "semimaru": "others_to_centre"}
    state = rigged(options, NOBLES[:6] + [SEMIMARU_POEM], centre=[MONKS[0]])
    flip(state, 7)  # seats 0,1 hold two nobles, seats 2,3 one; seat 2 flips Semimaru
    assert state.last["seat"] == 2
    assert state.piles == [[], [], [NOBLES[2], SEMIMARU_POEM], []]
    # Others' cards go to the centre clockwise from the flipper: seat 3, then 0, then 1.
    assert state.centre == [MONKS[0], NOBLES[3], NOBLES[0], NOBLES[4], NOBLES[1], NOBLES[5]]
    assert state.last["effect"] == "others_to_centre" and state.last["moved"] == 5
    assert state.current_player == 3


def test_emperor_is_a_noble_by_default():
    state = flip(rigged(None, [EMPERORS[0]]))
    assert state.piles[0] == [EMPERORS[0]] and state.current_player == 1
    assert state.last["effect"] == "to_pile"


def test_emperor_again_keeps_it_and_flips_another_even_twice():
    state = rigged({"emperor": "again"}, [EMPERORS[0], EMPERORS[1], NOBLES[0]])
    flip(state)
    assert state.current_player == 0 and state.last["effect"] == "flip_again"
    assert state.last["again"] is True and state.legal_actions(0) == [FLIP]
    flip(state, 2)
    assert state.piles[0] == [EMPERORS[0], EMPERORS[1], NOBLES[0]]
    assert state.current_player == 1


def test_lady_empty_again_only_when_the_centre_was_empty():
    options = {"lady_empty_again": True}
    state = flip(rigged(options, [LADIES[0], LADIES[1], MONKS[0], NOBLES[0], LADIES[2]]), 2)
    assert state.piles[0] == [LADIES[0], LADIES[1]]  # two ladies, centre empty both times
    assert state.current_player == 0 and state.last["again"] is True
    flip(state)  # seat 0 flips the monk: pile and monk to the centre
    assert state.current_player == 1 and len(state.centre) == 3
    flip(state, 2)  # seat 1 noble; seat 2 lady takes a non-empty centre: no extra flip
    assert state.last["effect"] == "takes_centre" and state.last["moved"] == 3
    assert state.last["again"] is False and state.current_player == 3


def test_lady_empty_again_is_off_by_default():
    state = flip(rigged(None, [LADIES[0]]))
    assert state.current_player == 1


# --------------------------------------------------------------------------- the end, edge cases

def near_end(options, last_card, piles, centre=(), current=0, skip=None):
    """A state with only ``last_card`` left in the deck; piles take all other cards as given."""
    return bozu.State.from_json({
        "game": "bozu", "options": bozu.parse_options(options).to_json(), "deck": [last_card],
        "piles": piles, "centre": list(centre), "current_player": current,
        "skip": skip or [False] * len(piles), "moves": 99, "last": None,
    })


def split_others(exclude, sizes):
    rest = [p for p in range(1, 101) if p not in exclude]
    out = []
    for size in sizes:
        out.append(rest[:size])
        rest = rest[size:]
    return out + [rest]


def test_flip_again_on_the_last_card_just_ends_the_game():
    emperor = EMPERORS[2]
    a, b = split_others({emperor}, [40])
    state = flip(near_end({"players": 2, "emperor": "again"}, emperor, [a, b]))
    assert state.is_over and state.current_player is None
    assert state.last["effect"] == "flip_again" and state.last["again"] is False
    assert state.legal_actions(0) == []
    assert state.result()["scores"] == [41, 59]


def test_semimaru_skip_on_the_last_card_is_never_served():
    a, b = split_others({SEMIMARU_POEM}, [20])
    state = flip(near_end({"players": 2, "semimaru": "skip"}, SEMIMARU_POEM, [a, b], current=1))
    assert state.is_over and state.skip == [False, True]
    assert state.result() == {"scores": [20, 80], "ranking": [[1], [0]], "winners": [1],
                              "draw": False, "centre": 0}


def test_a_tie_for_first_is_a_draw_and_the_centre_belongs_to_nobody():
    noble = NOBLES[10]
    a, b, c = split_others({noble}, [30, 31])  # 30, 31, and 38 cards
    state = flip(near_end({"players": 3}, noble, [a, b, c[:31]], centre=c[31:], current=0))
    result = state.result()
    assert result == {"scores": [31, 31, 31], "ranking": [[0, 1, 2]], "winners": [0, 1, 2],
                      "draw": True, "centre": 7}
    assert state.view(None)["result"] == result


def test_finished_game_refuses_flips():
    state = bozu.new_game(None, 9)
    flip(state, 100)
    assert state.is_over and state.moves == 100
    with pytest.raises(IllegalAction) as info:
        state.apply(0, FLIP)
    assert info.value.code == "game_over"


def test_from_json_refuses_a_broken_state():
    good = bozu.new_game(None, 1).to_json()
    for broken in (
        {**good, "deck": good["deck"][1:]},               # a card missing
        {**good, "deck": good["deck"] + [5]},             # a card twice
        {**good, "piles": good["piles"][:3]},             # a pile missing
        {**good, "current_player": 4},
        {**good, "options": {"players": 9}},
        {**good, "game": "memory"},
        {k: v for k, v in good.items() if k != "skip"},
        {**good, "moves": -1},                            # moves count the cards drawn
        {**good, "moves": 3},                             # (none drawn yet)
    ):
        with pytest.raises(GameError):
            bozu.State.from_json(broken)


# ---------------------------------------------------------------------------------- properties

options_strategy = st.fixed_dictionaries({
    "players": st.integers(2, 4),
    "semimaru": st.sampled_from(bozu.SEMIMARU_RULES),
    "emperor": st.sampled_from(bozu.EMPEROR_RULES),
    "lady_empty_again": st.booleans(),
})


def check_invariants(state):
    everywhere = state.deck + state.centre + [p for pile in state.piles for p in pile]
    assert sorted(everywhere) == list(range(1, 101))  # every card somewhere, exactly once
    view = state.view(None)
    counts = [p["count"] for p in view["piles"]] + [view["centre"]["count"], view["deck_count"]]
    assert all(c >= 0 for c in counts) and sum(counts) == 100
    assert all(c >= 0 for c in view["deck_by_type"].values())
    assert sum(view["deck_by_type"].values()) == view["deck_count"]
    assert 0 <= view["deck_ladies"] <= 21 and 0 <= view["deck_monks"] <= 13
    assert view["scores"] == [p["count"] for p in view["piles"]]
    if state.is_over:
        assert state.current_player is None and view["result"] is not None
    else:
        assert 0 <= state.current_player < state.players
        assert sum(bool(state.legal_actions(s)) for s in range(state.players)) == 1


def assert_views_hide_the_deck_order(state):
    """A twin with the rest of the deck in another order must look exactly the same."""
    data = state.to_json()
    twin = bozu.State.from_json({**data, "deck": data["deck"][::-1]})
    for seat in [None, *range(state.players)]:
        view = state.view(seat)
        assert "deck" not in view
        assert json.dumps(view, sort_keys=True) == json.dumps(twin.view(seat), sort_keys=True)


@settings(max_examples=150, deadline=None)
@given(options=options_strategy, seed=st.integers(-2**63, 2**64), flips=st.integers(0, 100))
def test_property_cards_conserved_counts_sane_json_exact_views_hide_deck(options, seed, flips):
    state = bozu.new_game(options, seed)
    check_invariants(state)
    for _ in range(flips):
        flip(state)
        check_invariants(state)
    assert state.moves == flips
    assert_views_hide_the_deck_order(state)
    wire = json.loads(json.dumps(state.to_json()))
    restored = bozu.State.from_json(wire)
    assert restored.to_json() == state.to_json()
    for seat in [None, *range(state.players)]:
        assert json.loads(json.dumps(state.view(seat))) == state.view(seat)
        assert restored.view(seat) == state.view(seat)
    # Continuing from the restored state plays exactly as the original does.
    while not state.is_over:
        flip(state)
        flip(restored)
    assert restored.to_json() == state.to_json()


@settings(max_examples=60, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**63))
def test_property_every_game_ends_after_exactly_100_flips(options, seed):
    state = bozu.new_game(options, seed)
    flips_by_seat = [0] * state.players
    while not state.is_over:
        flips_by_seat[state.current_player] += 1
        flip(state)
    assert sum(flips_by_seat) == 100 == state.moves
    result = state.result()
    assert sum(result["scores"]) + result["centre"] == 100
    assert result["winners"] == result["ranking"][0]
    assert result["draw"] == (len(result["winners"]) > 1)


def test_same_seed_same_game():
    def play(seed):
        state = bozu.new_game({"players": 3, "emperor": "again"}, seed)
        return flip(state, 100).to_json()
    assert play(11) == play(11)
    assert play(11) != play(12)


def test_view_shows_counts_top_cards_and_what_is_left_in_the_deck():
    state = flip(rigged({"players": 2}, [MONKS[0], NOBLES[0], SEMIMARU_POEM, LADIES[0]]), 2)
    view = state.view(0)
    assert view["piles"] == [{"count": 0, "top": None},
                             {"count": 1, "top": CARDS[NOBLES[0]].to_json()}]
    assert view["centre"] == {"count": 1, "top": CARDS[MONKS[0]].to_json()}
    assert view["deck_count"] == 98
    assert view["deck_by_type"] == {"noble": 58, "emperor": 7, "lady": 21, "monk": 11,
                                    "semimaru": 1}
    assert view["deck_monks"] == 12  # Semimaru plays as a monk by default
    assert view["deck_ladies"] == 21
    assert view["last"]["card"] == {"poem": NOBLES[0], "poet": CARDS[NOBLES[0]].poet,
                                    "poet_ja": CARDS[NOBLES[0]].poet_ja, "type": "noble"}
    assert view["seat"] == 0 and view["legal_actions"] == [FLIP] and view["current_player"] == 0
    assert state.view(1)["legal_actions"] == [] and state.view(None)["seat"] is None
    assert bozu.new_game(None, 1).view(None)["deck_monks"] == 13
    noble_semimaru = rigged({"semimaru": "noble"}, [NOBLES[0]])
    assert noble_semimaru.view(None)["deck_monks"] == 12  # Semimaru is not a monk here
    assert noble_semimaru.view(None)["deck_by_type"]["semimaru"] == 1


# ----------------------------------------------------------------------------------- CPU

@pytest.mark.parametrize("level", bozu_cpu.LEVELS)
def test_every_cpu_level_flips_and_round_trips(level):
    assert bozu_cpu.LEVELS == ("easy", "medium", "hard")
    state = bozu.new_game({"players": 2}, 4)
    cpus = [bozu_cpu.make_cpu(level, seat, 99, state.options) for seat in range(2)]
    while not state.is_over:
        seat = state.current_player
        for s in range(2):
            cpus[s].observe(state.view(s))
        action = cpus[seat].choose(state.view(seat))
        assert action == FLIP
        state.apply(seat, action)
    restored = bozu_cpu.cpu_from_json(json.loads(json.dumps(cpus[1].to_json())))
    assert restored.to_json() == cpus[1].to_json()


def test_cpu_refuses_to_act_out_of_turn_and_unknown_levels():
    state = bozu.new_game(None, 1)
    with pytest.raises(IllegalAction):
        bozu_cpu.make_cpu("hard", 2, 0, None).choose(state.view(2))
    with pytest.raises(InvalidOptions):
        bozu_cpu.make_cpu("expert", 0, 0, None)

