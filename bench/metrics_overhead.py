"""What GET /metrics's counting costs a room action (games/metrics.py): the room consumer's
``_action`` runs under ``timed_action`` (a counter and a histogram observation) and every error
it sends under ``counted_error`` (a counter by code). This times an action handler that does
nothing, awaited bare and through each wrapper, on one event loop, and prints the CPU each
wrapper adds per call next to a move's server CPU (about 1.1 ms: README, Performance).

    .venv/bin/python bench/metrics_overhead.py [--calls 200000] [--rounds 5]

Rounds alternate bare and wrapped, and the best round of each is kept, so that another process
on the machine slows the figures as little as possible.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from games import metrics  # noqa: E402

MOVE_SERVER_CPU_US = 1100  # a move's server CPU on one process, 1,000 clients (README, Performance)


async def handler(self, message, ref):
    """The shape of RoomConsumer._action, doing nothing."""


async def error(self, code, message, ref, **fields):
    """The shape of RoomConsumer._error, doing nothing."""


async def per_call(function, args: tuple, calls: int) -> float:
    """CPU microseconds per awaited call."""
    started = time.process_time()
    for _ in range(calls):
        await function(*args)
    return (time.process_time() - started) / calls * 1e6


async def main(calls: int, rounds: int) -> None:
    cases = {
        "action": (handler, metrics.timed_action(handler), (None, {}, None)),
        "error": (error, metrics.counted_error(error), (None, "illegal_action", "", None)),
    }
    for name, (bare, wrapped, args) in cases.items():
        bare_times, wrapped_times = [], []
        for _ in range(rounds):
            bare_times.append(await per_call(bare, args, calls))
            wrapped_times.append(await per_call(wrapped, args, calls))
        added = min(wrapped_times) - min(bare_times)
        print(f"{name:6}: bare {min(bare_times):.3f} µs, counted {min(wrapped_times):.3f} µs per call: "
              f"+{added:.3f} µs = {100 * added / MOVE_SERVER_CPU_US:.3f} % of a move's "
              f"{MOVE_SERVER_CPU_US} µs of server CPU")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    asyncio.run(main(options.calls, options.rounds))
