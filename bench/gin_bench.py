"""Speed of Gin Rummy's scoring core on random hands, through the public functions.

    .venv/bin/python bench/gin_bench.py [--hands N] [--seed S]

Prints 10-card ``best_split`` and 11-card ``best_discard`` hands per second on one core
(targets: 100,000 and 50,000), timed in process CPU time. A benchmark, not a test: it prints what it measures.
"""
from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from games.engines.gin import best_discard, best_split  # noqa: E402
from games.engines.gin_melds import CARDS  # noqa: E402


def rate(function, hands) -> float:
    """Hands per second of this process's CPU time: what one core does, even when other
    programs share the machine (wall-clock time would count their turns too)."""
    started = time.process_time()
    for hand in hands:
        function(hand)
    return len(hands) / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deck = list(CARDS)
    tens = [rng.sample(deck, 10) for _ in range(args.hands)]
    elevens = [rng.sample(deck, 11) for _ in range(args.hands)]
    # Best of three runs: the figure least disturbed by whatever else the machine is doing.
    split_rate = max(rate(best_split, tens) for _ in range(3))
    discard_rate = max(rate(best_discard, elevens) for _ in range(3))
    print(f"best_split   10 cards: {split_rate:>10,.0f} hands/s  (target 100,000)")
    print(f"best_discard 11 cards: {discard_rate:>10,.0f} hands/s  (target  50,000)")


if __name__ == "__main__":
    main()
