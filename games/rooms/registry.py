"""How each game's engine and CPU module are found, and the delays of its timed steps.

Which games, modes and CPU levels exist is each game's GameSpec (games/specs.py); engines and
CPUs are imported by the names their spec gives, so rooms know nothing about any one game.
"""
from __future__ import annotations

from types import ModuleType

from django.conf import settings

from games import specs

DEFAULT_AUTOMATIC_DELAY = 1.0


def spec(game: str) -> specs.GameSpec:
    found = specs.get(game)
    if found is None:
        raise KeyError(f"no game named {game!r}")
    return found


def engine(game: str) -> ModuleType:
    return spec(game).engine_module()


def cpu_module(game: str) -> ModuleType:
    return spec(game).cpu_module()


def cpu_delay(game: str) -> float:
    """A CPU seat's delay before each of its actions: its spec's GAME_TIMING key."""
    return float(settings.GAME_TIMING.get(spec(game).cpu_delay, DEFAULT_AUTOMATIC_DELAY))


def automatic_delay(game: str, step: str) -> float | None:
    """The delay before an engine's automatic step: GAME_TIMING["<game>_<step>"] if defined.
    None there means never: the step waits for a seat to send it as an action."""
    delay = settings.GAME_TIMING.get(f"{game}_{step}", DEFAULT_AUTOMATIC_DELAY)
    return None if delay is None else float(delay)


def takeover_delay() -> float:
    return float(settings.GAME_TIMING["takeover"])


def heartbeat_interval() -> float:
    """How often each server process writes its ServerProcess row."""
    return float(settings.GAME_TIMING.get("heartbeat", 5.0))


def process_dead_after() -> float:
    """A process not seen for this long is dead: its connections no longer count."""
    return float(settings.GAME_TIMING.get("process_dead_after", 20.0))
