"""What Bozu Mekuri's rule options do to the seats' chances: the figures the rules page's tips
quote (games/data/bozu_options.json holds this script's output; a test runs it again).

    .venv/bin/python bench/bozu_options.py [--games 200000] [--seed 1]

Prints one JSON object: for the default rules and for each option the tips name (emperors flip
again, a lady on an empty centre flips again, Semimaru sends the other piles to the centre),
four-player games by the NumPy fast path, each seat's share of the games won outright (%), the
draws, and the share won outright by the seat that flipped Semimaru (%).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.sim import bozu as bozu_sim  # noqa: E402

# The default rules first; then each option the rules page's tips compare with them.
OPTIONS = ({}, {"emperor": "again"}, {"lady_empty_again": True}, {"semimaru": "others_to_centre"})


def effects(games: int, seed: int) -> list[dict]:
    return [bozu_sim.option_effects(options, games, seed) for options in OPTIONS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(effects(args.games, args.seed)))


if __name__ == "__main__":
    main()
