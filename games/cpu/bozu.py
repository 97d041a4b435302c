"""CPU players for Bozu Mekuri.

The game is pure luck: the only action is to flip the top card, so every level plays the same
way. The levels exist so that the menu is the same for every game. The CPU decides
from its seat's view only, like every CPU on this site.
"""
from __future__ import annotations

from typing import Any

from games.engines.base import IllegalAction, InvalidOptions
from games.engines.bozu import parse_options
from games.engines.errors import ErrorCode

LEVELS = ("easy", "medium", "hard")


class BozuCpu:
    def __init__(self, level: str, seat: int, seed: int, options: dict[str, Any] | None):
        if level not in LEVELS:
            raise InvalidOptions(f"Unknown CPU level {level!r}; expected one of {', '.join(LEVELS)}.")
        self.level = level
        self.seat = seat
        self.seed = seed  # kept for the common interface; a flip needs no randomness
        self.options = parse_options(options).to_json()

    def observe(self, view: dict[str, Any]) -> None:
        """Nothing to remember: every card is face up and no choice depends on the past."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        if not view["legal_actions"]:
            raise IllegalAction(f"Seat {self.seat} has nothing to do now.", ErrorCode.NOT_YOUR_TURN)
        return {"type": "flip"}

    def to_json(self) -> dict[str, Any]:
        return {"game": "bozu", "level": self.level, "seat": self.seat, "seed": self.seed,
                "options": dict(self.options)}


def make_cpu(level: str, seat: int, seed: int, options: dict[str, Any] | None) -> BozuCpu:
    return BozuCpu(level, seat, seed, options)


def cpu_from_json(data: dict[str, Any]) -> BozuCpu:
    return BozuCpu(data["level"], data["seat"], data["seed"], data["options"])
