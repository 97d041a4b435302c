"""Which games and modes exist, and how each game's engine and CPU module are found.

Engines and CPUs are imported by name so that rooms know nothing about any one game's rules.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from django.conf import settings

GAMES = ("memory", "bozu", "gin")
MODES = ("cpu", "local", "solo", "friends")
# Where each mode is offered: hotseat for Memory and Bozu only, solo for Memory only.
MODE_GAMES = {
    "cpu": GAMES,
    "friends": GAMES,
    "local": ("memory", "bozu"),
    "solo": ("memory",),
}
CPU_LEVELS = {
    "memory": ("easy", "medium", "hard"),
    "bozu": ("easy", "medium", "hard"),
    "gin": ("easy", "normal", "hard"),
}
DEFAULT_CPU_LEVEL = {"memory": "medium", "bozu": "medium", "gin": "normal"}
# GAME_TIMING key of a CPU seat's delay before each of its actions.
CPU_DELAY_KEY = {"memory": "memory_flip", "bozu": "bozu_flip", "gin": "gin_step"}
DEFAULT_AUTOMATIC_DELAY = 1.0


@lru_cache(maxsize=None)
def engine(game: str):
    return importlib.import_module(f"games.engines.{game}")


@lru_cache(maxsize=None)
def cpu_module(game: str):
    return importlib.import_module(f"games.cpu.{game}")


def cpu_delay(game: str) -> float:
    return float(settings.GAME_TIMING[CPU_DELAY_KEY[game]])


def automatic_delay(game: str, step: str) -> float:
    """The delay before an engine's automatic step: GAME_TIMING["<game>_<step>"] if defined."""
    return float(settings.GAME_TIMING.get(f"{game}_{step}", DEFAULT_AUTOMATIC_DELAY))


def takeover_delay() -> float:
    return float(settings.GAME_TIMING["takeover"])


def heartbeat_interval() -> float:
    """How often each server process writes its ServerProcess row."""
    return float(settings.GAME_TIMING.get("heartbeat", 5.0))


def process_dead_after() -> float:
    """A process not seen for this long is dead: its connections no longer count."""
    return float(settings.GAME_TIMING.get("process_dead_after", 20.0))
