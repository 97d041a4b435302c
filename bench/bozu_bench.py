"""Bozu Mekuri simulator speed: games per second, engine path and NumPy fast path.

    .venv/bin/python bench/bozu_bench.py [--engine-games 2000] [--fast-games 200000] [--seed 1]

Prints measured figures only (a benchmark, not a test). Four players, default options:

- engine path: what ``manage.py simulate bozu`` runs without ``--fast``: the engine plus a CPU
  per seat, every seat's view built after every flip (``common.play_one``);
- engine rules only: the same games by ``State.apply`` alone, no views or CPUs;
- fast path: ``games.sim.bozu.play_fast`` (NumPy, whole batches of games per flip).

It then prints, for the fast-path games, each seat's share of outright wins, the draws and
the winner's mean card count (the README's figures).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engines import bozu  # noqa: E402
from games.sim import bozu as sim  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-games", type=int, default=2000)
    parser.add_argument("--fast-games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    options = bozu.parse_options({"players": 4})
    levels = ["medium"] * 4

    started = time.perf_counter()
    sim.run_engine(options, levels, args.engine_games, args.seed)
    engine_seconds = time.perf_counter() - started
    print(f"engine path (views + CPUs): {args.engine_games / engine_seconds:12,.0f} games/s "
          f"({args.engine_games:,} games in {engine_seconds:.2f} s)")

    started = time.perf_counter()
    for seed in sim.game_seeds(args.seed, args.engine_games):
        state = bozu.new_game(options, seed)
        while not state.is_over:
            state.apply(state.current_player, {"type": "flip"})
    rules_seconds = time.perf_counter() - started
    print(f"engine rules only:          {args.engine_games / rules_seconds:12,.0f} games/s "
          f"({args.engine_games:,} games in {rules_seconds:.2f} s)")

    started = time.perf_counter()
    summary = sim.run_fast(options, levels, args.fast_games, args.seed)
    fast_seconds = time.perf_counter() - started
    print(f"fast path (NumPy):          {args.fast_games / fast_seconds:12,.0f} games/s "
          f"({args.fast_games:,} games in {fast_seconds:.2f} s, seed {args.seed})")

    games = summary["games"]
    shares = ", ".join(f"seat {seat} {wins / games:.2%}" for seat, wins in enumerate(summary["wins"]))
    print(f"outright wins: {shares}; draws {summary['draws'] / games:.2%}")
    print(f"winner's mean card count: {summary['mean_winner_score']}; "
          f"mean pile per seat: {summary['mean_score']}; mean centre: {summary['mean_centre']}")
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
