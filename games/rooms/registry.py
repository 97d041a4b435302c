"""How each game's engine and CPU module are found, and the delays of its timed steps.

Which games, modes and CPU levels exist is each game's GameSpec (games/specs.py); engines and
CPUs are imported by the names their spec gives, so rooms know nothing about any one game. A
game's delays are its spec's too (``GameSpec.delays``), unless the settings' ``GAME_DELAYS``
override them from the environment (config/settings.py).
"""
from __future__ import annotations

from types import ModuleType

from django.conf import settings

from games import specs


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
    """A CPU seat's delay before each of its actions: GAME_DELAYS["<game>_cpu"], else its spec's."""
    return float(settings.GAME_DELAYS.get(f"{game}_cpu", spec(game).delays.cpu))


def automatic_delay(game: str, step: str) -> float | None:
    """The delay before an engine's automatic step: GAME_DELAYS["<game>_<step>"], else its spec's.
    None means never: the step waits for a seat to send it as an action."""
    delay = settings.GAME_DELAYS.get(f"{game}_{step}", spec(game).delays.step(step))
    return None if delay is None else float(delay)


def takeover_delay() -> float:
    return float(settings.GAME_TIMING["takeover"])


def heartbeat_interval() -> float:
    """How often each server process writes its ServerProcess row."""
    return float(settings.GAME_TIMING.get("heartbeat", 5.0))


def process_dead_after() -> float:
    """A process not seen for this long is dead: its connections no longer count."""
    return float(settings.GAME_TIMING.get("process_dead_after", 20.0))
