"""Memory: time to build every Zwick–Paterson table, table lookups per second, games per second.

    .venv/bin/python bench/memory_bench.py [--lookups 200000] [--games 1000] [--seed 1]

Prints measured figures only (a benchmark, not a test):

- seconds to build every table from nothing (the three rules' position arrays, then each rule
  for 1–6 players and both turn rules: 33 tables), wall clock and CPU;
- table lookups per second: what a table CPU does per decision, a position's row from its
  type counts, then its value and the 1-move choice (random positions of the 2-player rank
  table), and the bare row-and-value access;
- 2-player 52-card ``hard`` vs ``hard`` games per second, by the fast path (what ``simulate``
  uses from 200 games up) and by the view path (every seat's view after every step).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.cpu import memory as memory_cpu  # noqa: E402
from games.cpu import memory_tables  # noqa: E402
from games.engines import memory  # noqa: E402
from games.sim import memory as memory_sim  # noqa: E402
from games.sim.common import play_one  # noqa: E402


def build_every_table() -> tuple[float, float]:
    memory_tables._LAYOUTS.clear()
    memory_tables._TABLES.clear()
    wall, cpu = time.perf_counter(), time.process_time()
    for name, players, one_flip in memory_tables.all_table_keys():
        memory_tables.table(name, players, one_flip)
    return time.perf_counter() - wall, time.process_time() - cpu


def lookups_per_second(count: int, seed: int) -> tuple[float, float]:
    table = memory_tables.table("rank", 2)
    names = [t.name for t in table.structure.types]
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        counts = [rng.randrange(4) for _ in names[:-2]]
        if sum(counts) > 13:
            continue
        joker = rng.randrange(3)
        counts += [int(joker == 1), int(joker == 2)]
        positions.append(dict(zip(names, counts, strict=True)))
    started = time.perf_counter()
    for counts in positions:
        row = table.row(counts)
        table.active(row)
        table.second_is_known(row, "four_open")
    full = count / (time.perf_counter() - started)
    rows = [table.row(c) for c in positions]
    started = time.perf_counter()
    for row in rows:
        table.value(row)
    bare = count / (time.perf_counter() - started)
    return full, bare


def games_per_second(games: int, seed: int) -> tuple[float, float]:
    options = memory.parse_options({"players": 2, "cards": 52})
    levels = ["hard", "hard"]
    memory_tables.table("rank", 2)  # built already; keep it out of the timing either way
    started = time.perf_counter()
    for game_seed in range(seed, seed + games):
        memory_sim.play_fast(options, game_seed, levels)
    fast = games / (time.perf_counter() - started)
    view_games = max(1, games // 10)
    started = time.perf_counter()
    for game_seed in range(seed, seed + view_games):
        play_one(memory, memory_cpu, options, game_seed, levels)
    by_views = view_games / (time.perf_counter() - started)
    return fast, by_views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lookups", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    wall, cpu = build_every_table()
    print(f"tables: {len(memory_tables.all_table_keys())} built in {wall:.2f} s "
          f"({cpu:.2f} s CPU)")
    full, bare = lookups_per_second(args.lookups, args.seed)
    print(f"table lookups: {full:,.0f} per second (row from counts + value + 1-move choice); "
          f"{bare:,.0f} per second (value of a row)")
    fast, by_views = games_per_second(args.games, args.seed)
    print(f"2-player 52-card hard vs hard: {fast:,.0f} games per second (fast path), "
          f"{by_views:,.0f} per second (views)")


if __name__ == "__main__":
    main()
