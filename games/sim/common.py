"""Plays CPU-only games through the engine interface; shared by every game's simulator."""
from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from typing import Any

from games.engines.base import InvalidOptions

MAX_STEPS = 100_000  # a game that needs more is counted as unfinished
# Called with the state, the CPU to move and the action it chose, before the action is applied.
Watch = Callable[[Any, Any, dict[str, Any]], None]


def load(game: str):
    engine = importlib.import_module(f"games.engines.{game}")
    cpu = importlib.import_module(f"games.cpu.{game}")
    return engine, cpu


def play_one(engine, cpu_module, options, seed: int, levels: list[str], max_steps: int = MAX_STEPS,
             watch: Watch | None = None):
    """Plays one game to the end; returns the final state and whether it finished. ``watch``
    sees every CPU's action before it is applied (the measurements of games/sim)."""
    state = engine.new_game(options, seed)
    rng = random.Random(seed ^ 0x5EED)
    cpus = [cpu_module.make_cpu(levels[s % len(levels)], s, rng.getrandbits(63), options)
            for s in range(state.players)]
    for s, cpu in enumerate(cpus):
        cpu.observe(state.view(s))
    for _ in range(max_steps):
        if state.is_over:
            return state, True
        if state.pending_automatic():
            state.apply_automatic()
        else:
            seat = state.current_player
            action = cpus[seat].choose(state.view(seat))
            if watch:
                watch(state, cpus[seat], action)
            state.apply(seat, action)
        for s, cpu in enumerate(cpus):
            cpu.observe(state.view(s))
    return state, state.is_over


def game_seeds(seed: int, games: int) -> list[int]:
    """The per-game seeds of ``games`` games from ``seed`` (every simulator draws them so)."""
    seeds = random.Random(seed)
    return [seeds.getrandbits(63) for _ in range(games)]


def summarise(game: str, games: int, players: int, levels: list[str], seed: int,
              run_one: Callable[[int], tuple[Any, bool]],
              extra: Callable[[list], dict] | None = None) -> dict:
    """Runs ``games`` games (seeds derived from ``seed``) and builds the common JSON summary."""
    started = time.perf_counter()
    wins = [0] * players
    score_sums = [0.0] * players
    winner_score_sum = 0.0
    draws = unfinished = 0
    finished_states = []
    for game_seed in game_seeds(seed, games):
        state, finished = run_one(game_seed)
        if not finished:
            unfinished += 1
            continue
        result = state.result()
        finished_states.append(state)
        for s, score in enumerate(result["scores"]):
            score_sums[s] += score
        winner_score_sum += result["scores"][result["ranking"][0][0]]
        if result["draw"]:
            draws += 1
        else:
            wins[result["winners"][0]] += 1
    done = max(1, games - unfinished)
    summary = {
        "game": game,
        "games": games,
        "players": players,
        "cpu": levels,
        "wins": wins,
        "draws": draws,
        "mean_score": [round(x / done, 4) for x in score_sums],
        "mean_winner_score": round(winner_score_sum / done, 4),
        "unfinished": unfinished,
    }
    if extra:
        summary.update(extra(finished_states))
    summary["seconds"] = round(time.perf_counter() - started, 3)
    return summary


def run(spec, players: int | None = None, levels: list[str] | None = None, games: int = 100,
        seed: int = 1, options: dict | None = None) -> dict:
    """``manage.py simulate`` for a game with no simulator of its own (games/sim/<game>.py):
    the engine and CPU of its GameSpec (games/specs.py), every seat at the level given or the
    spec's default."""
    engine, cpu = spec.engine_module(), spec.cpu_module()
    raw = dict(options or {})
    if players is not None:
        raw["players"] = players
    parsed = engine.parse_options(raw)
    seats = parsed.to_json()["players"]
    levels = list(levels) if levels else [spec.cpu_default]
    if len(levels) == 1:
        levels *= seats
    if len(levels) != seats:
        raise InvalidOptions("Give one CPU level per seat, or one level for every seat.")
    for level in levels:
        if level not in spec.level_names:
            raise InvalidOptions(f"Unknown CPU level {level!r}; choose from {', '.join(spec.level_names)}.")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidOptions("games must be a positive whole number.")
    return summarise(spec.name, games, seats, levels, seed,
                     lambda game_seed: play_one(engine, cpu, parsed, game_seed, levels))
