"""The Gin Rummy simulator's summary, and the CPU levels' order of strength on fixed seeds.

The full measurement (1,000 games per pairing) is ``manage.py simulate gin``; these are small
fixed-seed versions: the same seed always plays the same games, so they cannot be flaky, and a
level that stopped being stronger would fail them.
"""
from __future__ import annotations

import pytest

from games.engines.base import InvalidOptions
from games.sim import gin as sim


def without_time(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "seconds"}


def test_summary_shape_and_hand_counts():
    summary = sim.run(levels=["normal", "easy"], games=6, seed=3, options={"target": 40})
    assert set(summary) == {"game", "games", "players", "cpu", "wins", "draws", "mean_score",
                            "mean_winner_score", "unfinished", "seconds", "hands"}
    assert summary["game"] == "gin" and summary["players"] == 2 and summary["cpu"] == ["normal", "easy"]
    assert sum(summary["wins"]) == 6 and summary["draws"] == 0 and summary["unfinished"] == 0
    assert set(summary["hands"]) == {"knock", "gin", "undercut", "dead"}
    assert sum(summary["hands"].values()) >= 6
    assert summary["mean_winner_score"] >= 40
    assert without_time(sim.run(levels=["normal", "easy"], games=6, seed=3, options={"target": 40})) \
        == without_time(summary)


@pytest.mark.parametrize("bad", [
    {"players": 3}, {"levels": ["hard", "genius"]}, {"levels": ["hard", "easy", "normal"]},
    {"games": 0}, {"options": {"target": 0}},
])
def test_bad_arguments_are_refused(bad):
    arguments = {"levels": ["hard", "simple"], "games": 1, "seed": 1, **bad}
    with pytest.raises(InvalidOptions):
        sim.run(**arguments)


@pytest.mark.parametrize("strong, weak", [("hard", "simple"), ("hard", "normal"), ("normal", "easy")])
def test_stronger_level_wins_more_games_on_fixed_seeds(strong, weak):
    # Both seat orders, so that neither level always sits in the same seat.
    wins = 0
    for levels, seat in (([strong, weak], 0), ([weak, strong], 1)):
        summary = sim.run(levels=levels, games=30, seed=2024)
        wins += summary["wins"][seat]
    assert wins > 30, f"{strong} won {wins} of 60 games against {weak}"
