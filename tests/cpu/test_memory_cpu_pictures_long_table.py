"""Memory CPU players with the picture deck and on the long table: every level plays them
unchanged (the pictures are pairs of the identical rule; the long table only renames places)."""
from collections import Counter

import pytest

from games.cpu import memory as memory_cpu
from games.engines import memory
from games.sim import memory as memory_sim
from games.sim.common import play_one

PICTURES = {"deck": "pictures"}
LONG = {"long_table": True}


def flip(pos):
    return {"type": "flip", "pos": pos}


def step(state, cpus, action=None):
    """One step: the automatic conceal, a scripted action, or the CPU's choice; all observe."""
    if state.pending_automatic():
        state.apply_automatic()
    else:
        seat = state.current_player
        action = action or cpus[seat].choose(state.view(seat))
        state.apply(seat, action)
    for seat, cpu in enumerate(cpus):
        if cpu is not None:
            cpu.observe(state.view(seat))
    return action


def in_deck_order(first=1, **options):
    """A game whose cards lie in the deck's order (A1, A2, …), ``first`` to move."""
    state = memory.new_game(options, 0)
    state.cards = memory.deck(state.options)
    state.turn_seat = first
    return state


@pytest.mark.parametrize("options, levels", [
    ({**PICTURES, "cards": 24}, ["easy", "medium"]),
    ({**PICTURES, "cards": 40, "players": 3}, ["hard", "perfect", "easy"]),
    ({**PICTURES, "one_flip": True}, ["perfect", "hard"]),
    ({**PICTURES, "players": 1, "cards": 24}, ["hard"]),
    ({**LONG}, ["easy", "hard"]),
    ({**LONG, "match": "zebra", "players": 4}, ["perfect", "medium", "easy", "hard"]),
    ({**LONG, **PICTURES}, ["medium", "perfect"]),
])
def test_every_level_plays_whole_games_from_its_views(options, levels):
    # The room's way (a view per step, every action checked by the engine) and the simulator's
    # fast way must play the very same legal games to the end.
    opts = memory.parse_options(options)
    for seed in range(3):
        by_views, done_views = play_one(memory, memory_cpu, opts, seed, levels)
        fast, done_fast = memory_sim.play_fast(opts, seed, levels)
        assert done_views and done_fast and by_views.is_over
        assert fast.to_json() == by_views.to_json()


@pytest.mark.parametrize("level", ["medium", "hard", "perfect"])
def test_the_long_table_changes_only_the_names_of_the_places(level):
    # Only the easy level looks at a card's neighbours; the others choose among the same card
    # indices whatever the grid, so the same seed plays the same game on both layouts.
    for options in ({}, PICTURES):
        grid = memory_sim.play_fast(memory.parse_options(options), 11, [level, level])[0]
        long = memory_sim.play_fast(memory.parse_options({**options, **LONG}), 11, [level, level])[0]
        assert (long.cards, long.taken_by, long.pairs, long.failed, long.moves) == (
            grid.cards, grid.taken_by, grid.pairs, grid.failed, grid.moves)


@pytest.mark.parametrize("level", ["medium", "hard", "perfect"])
def test_known_pairs_of_pictures_are_taken_first(level):
    state = in_deck_order(cards=24, **PICTURES)  # A1 A2 apple, A3 A4 banana, A5 A6 cherries …
    cpus = [None, memory_cpu.make_cpu(level, 1, 3, {**PICTURES, "cards": 24})]
    for pos in ("A1", "A3"):        # seat 1 (scripted here) shows an apple and a banana
        step(state, cpus, flip(pos))
    step(state, cpus)
    for pos in ("A2", "A4"):        # seat 0 shows the other apple and the other banana
        step(state, cpus, flip(pos))
    step(state, cpus)
    taken = [step(state, cpus)["pos"] for _ in range(4)]
    assert sorted(taken[:2]) == ["A1", "A2"] and sorted(taken[2:]) == ["A3", "A4"]
    assert state.pairs == [0, 2] and state.current_player == 1


def test_easy_confuses_a_card_with_its_neighbours_on_the_long_table():
    # A13 ends the first of 4 rows of 13: its neighbours there are A12 and B13 (a place the
    # 9 × 6 grid does not have), so the CPU must use the long table's grid.
    seconds = Counter()
    for seed in range(600):
        state = in_deck_order(**LONG)    # A13 is the four of spades, B1 the four of hearts
        cpus = [memory_cpu.make_cpu("easy", 0, seed, LONG), None]
        step(state, cpus, flip("A13"))   # seat 1 shows 4S and AS
        step(state, cpus, flip("A1"))
        step(state, cpus)                # conceal: seat 0's turn
        step(state, cpus, flip("B1"))    # its first card, by hand: 4H, a partner of A13's 4S
        second = cpus[0].choose(state.view(0))["pos"]
        if 12 in cpus[0].remembered():   # it still knows A13 (easy often has forgotten it)
            seconds[second] += 1
    # When it remembers A13 it aims at it or, by mistake, at one of its two neighbours.
    assert sum(seconds.values()) >= 100 and set(seconds) == {"A13", "A12", "B13"}
