"""``manage.py simulate gin``: whole CPU-only games to the target, plus how the hands ended."""
from __future__ import annotations

from games.engines.base import InvalidOptions
from games.sim.common import game_seeds, load, play_one, summarise

DEFAULT_LEVELS = ["normal", "normal"]


def run(players=None, levels=None, games=100, seed=1, options=None, fast=False) -> dict:
    """Plays ``games`` games; ``fast`` changes nothing (the CPU players are already the fast path)."""
    engine, cpu = load("gin")
    if players not in (None, engine.PLAYERS):
        raise InvalidOptions("Gin Rummy is played by exactly 2 players.")
    levels = list(levels) if levels else list(DEFAULT_LEVELS)
    if len(levels) == 1:
        levels *= engine.PLAYERS
    if len(levels) != engine.PLAYERS:
        raise InvalidOptions("Give one CPU level per seat, e.g. --cpu hard,simple.")
    for level in levels:
        if level not in cpu.LEVELS:
            raise InvalidOptions(f"Unknown CPU level {level!r}; choose from {', '.join(cpu.LEVELS)}.")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidOptions("games must be a positive whole number.")
    parsed = engine.parse_options(options or {})

    def hand_statistics(states) -> dict:
        totals = {outcome: 0 for outcome in engine.OUTCOMES}
        for state in states:
            for outcome, count in state.hand_counts().items():
                totals[outcome] += count
        return {"hands": totals}

    return summarise("gin", games, engine.PLAYERS, levels, seed,
                     lambda game_seed: play_one(engine, cpu, parsed, game_seed, levels),
                     extra=hand_statistics)


def knock_rate(level: str, games: int = 100, seed: int = 1) -> dict:
    """How readily a level knocks, in whole games where both seats play it: of its discards at
    which a knock was legal (``chances``, gin included), the share that knocked."""
    engine, cpu = load("gin")
    chances = knocks = 0

    def watch(state, player, action: dict) -> None:
        nonlocal chances, knocks
        if any(legal["type"] == "knock" for legal in state.legal_actions(player.seat)):
            chances += 1
            knocks += action["type"] == "knock"

    for game_seed in game_seeds(seed, games):
        play_one(engine, cpu, engine.parse_options({}), game_seed, [level, level], watch=watch)
    return {"level": level, "games": games, "chances": chances, "knocks": knocks,
            "rate": round(knocks / chances, 3) if chances else None}
