"""Bozu Mekuri simulator: the NumPy fast path agrees exactly with the engine; the command's JSON."""
import io
import itertools
import json

import numpy as np
import pytest
from django.core.management import call_command

from games.engines import bozu
from games.engines.base import InvalidOptions
from games.engines.bozu_cards import SEMIMARU_POEM
from games.sim import bozu as sim

OPTION_SETS = [
    {"players": players, "semimaru": semimaru, "emperor": emperor, "lady_empty_again": lady}
    for players, semimaru, emperor, lady in itertools.product(
        (2, 3, 4), bozu.SEMIMARU_RULES, bozu.EMPEROR_RULES, (False, True))
]


def engine_outcome(options, seed):
    """Final piles, cards in the centre, and the seat that flipped Semimaru."""
    state = bozu.new_game(options, seed)
    while not state.is_over:
        if state.deck[0] == SEMIMARU_POEM:
            semimaru_seat = state.current_player
        state.apply(state.current_player, {"type": "flip"})
    return state.scores(), len(state.centre), semimaru_seat


def test_fast_deal_is_the_engine_deal():
    seeds = sim.game_seeds(3, 300) + [0, 1, 2**63 - 1, 2**64 - 1]
    decks = sim.deal_fast(np.array(seeds, dtype=np.uint64)) + 1
    for seed, deck in zip(seeds, decks, strict=True):
        assert deck.tolist() == bozu.deal(seed)


@pytest.mark.parametrize("number", range(len(OPTION_SETS)),
                         ids=["-".join(map(str, o.values())) for o in OPTION_SETS])
def test_fast_path_agrees_with_the_engine_game_by_game(number):
    raw = OPTION_SETS[number]
    options = bozu.parse_options(raw)
    seeds = sim.game_seeds(1000 + number, 1000)
    piles, centre, semimaru_seat = sim.play_fast(np.array(seeds, dtype=np.uint64), options)
    for i, seed in enumerate(seeds):
        assert (piles[i].tolist(), int(centre[i]), int(semimaru_seat[i])) == engine_outcome(options, seed), (raw, seed)


def without_time(summary):
    return {k: v for k, v in summary.items() if k != "seconds"}


@pytest.mark.parametrize("players, options, games", [
    (4, {}, 1000),
    (3, {"semimaru": "skip", "emperor": "again", "lady_empty_again": True}, 300),
    (2, {"semimaru": "others_to_centre"}, 300),
])
def test_fast_summary_equals_the_engine_summary(players, options, games):
    engine = sim.run(players=players, games=games, seed=21, options=options, fast=False)
    fast = sim.run(players=players, games=games, seed=21, options=options, fast=True)
    assert without_time(fast) == without_time(engine)
    assert list(fast) == list(engine)  # same keys in the same order
    assert engine["unfinished"] == 0 and sum(engine["wins"]) + engine["draws"] == games
    assert sum(engine["mean_score"]) + engine["mean_centre"] == pytest.approx(100, abs=1e-3)


def test_large_runs_use_the_fast_path_by_themselves(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the engine path was used")
    monkeypatch.setattr(sim, "run_engine", refuse)
    summary = sim.run(players=2, games=sim.FAST_FROM_GAMES, seed=4)
    assert sum(summary["wins"]) + summary["draws"] == sim.FAST_FROM_GAMES
    with pytest.raises(AssertionError):
        sim.run(players=2, games=10, seed=4)


def test_two_hundred_thousand_default_games_through_the_fast_path():
    summary = sim.run(players=4, games=200_000, seed=1, fast=True)
    assert summary["games"] == 200_000 and summary["unfinished"] == 0
    assert sum(summary["wins"]) + summary["draws"] == 200_000
    # Red starts but the game is luck: every seat's outright wins are near a quarter.
    assert all(0.22 < w / 200_000 < 0.27 for w in summary["wins"])
    # Speed is measured by bench/bozu_bench.py, never asserted in a test.


def test_deal_is_uniform_enough():
    """Which poem comes out on top, over 100,000 seeded deals: a chi-square test (99 df)."""
    decks = sim.deal_fast(np.array(sim.game_seeds(8, 100_000), dtype=np.uint64))
    for position in (0, 57, 99):
        counts = np.bincount(decks[:, position], minlength=100)
        chi_square = float(((counts - 1000.0) ** 2 / 1000.0).sum())
        assert chi_square < 160, (position, chi_square)  # p < 1e-4 for 99 df


@pytest.mark.parametrize("kwargs", [
    {"players": 5},
    {"players": 3, "options": {"players": 4}},
    {"options": {"semimaru": "hermit"}},
    {"levels": ["genius"]},
    {"games": 0},
])
def test_bad_arguments_are_refused(kwargs):
    with pytest.raises(InvalidOptions):
        sim.run(**{"games": 10, **kwargs})


def command(*args):
    out = io.StringIO()
    call_command("simulate", "bozu", *args, stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_manage_py_simulate_bozu_prints_the_same_json_either_way():
    args = ["--players", "3", "--games", "200", "--seed", "5", "--option", "emperor=again",
            "--option", "lady_empty_again=true"]
    engine, fast = command(*args), command(*args, "--fast")
    assert without_time(engine) == without_time(fast)
    assert set(engine) == {"game", "games", "players", "cpu", "wins", "draws", "mean_score",
                           "mean_winner_score", "unfinished", "mean_centre", "seconds"}
    assert engine["game"] == "bozu" and engine["players"] == 3 and engine["games"] == 200
