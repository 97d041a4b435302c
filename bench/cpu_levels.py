"""How each CPU level plays, in the terms the rules pages use: Memory's memory and slips, Gin's
readiness to knock.

    .venv/bin/python bench/cpu_levels.py [--memory-games 100] [--gin-games 50] [--seed 1]

Prints two Markdown tables (the ones in docs/memory.md and docs/gin.md), measured figures only:

- Memory (``games.sim.memory.measure_level``, two-player games of 104 cards where both seats
  play the level): the share of face-down cards last shown k turns ago that the CPU still
  remembers, at each of its flips, and the share of its flips aimed at a remembered card that
  turned another (the neighbour slip);
- Gin (``games.sim.gin.knock_rate``, whole games to 100 where both seats play the level): of
  the discards at which it could knock, the share where it knocked.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.sim import gin as gin_sim  # noqa: E402
from games.sim import memory as memory_sim  # noqa: E402

MEMORY_LEVELS = ("easy", "medium", "hard")
GIN_LEVELS = ("easy", "normal", "hard")


def percent(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:.1f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memory-games", type=int, default=100)
    parser.add_argument("--gin-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    turns = memory_sim.RETENTION_TURNS
    print(f"Memory, {args.memory_games} two-player 104-card games per level (seed {args.seed}): "
          "still remembered k turns after it was last seen")
    print()
    print("| level | " + " | ".join(f"k = {k}" for k in turns) + " | neighbour slip |")
    print("|---|" + "---|" * (len(turns) + 1))
    for level in MEMORY_LEVELS:
        measured = memory_sim.measure_level(level, args.memory_games, args.seed)
        cells = [percent(measured["retention"][k]) for k in turns]
        print(f"| {level} | " + " | ".join(cells)
              + f" | {percent(measured['slip'])} of {measured['aims']:,} aimed flips |")
    print()
    print(f"Gin Rummy, {args.gin_games} games to 100 per level, both seats at that level (seed {args.seed})")
    print()
    print("| level | legal chances to knock | knocked | knock rate |")
    print("|---|---|---|---|")
    for level in GIN_LEVELS:
        measured = gin_sim.knock_rate(level, args.gin_games, args.seed)
        print(f"| {level} | {measured['chances']:,} | {measured['knocks']:,} | {percent(measured['rate'])} |")


if __name__ == "__main__":
    main()
