"""The toy game's CPU (tests/e2e/higher_card.py): it shows its card when its turn comes, the
one legal action. Kept to the CPU contract: make_cpu, observe, choose, to_json, cpu_from_json."""
from __future__ import annotations

from games.engines.base import InvalidOptions

LEVELS = ("only",)


class HigherCardCpu:
    def __init__(self, level: str, seat: int):
        if level not in LEVELS:
            raise InvalidOptions(f"Unknown CPU level {level!r}; expected one of {', '.join(LEVELS)}.")
        self.level, self.seat = level, seat

    def observe(self, view: dict) -> None:
        pass  # nothing to remember: every card is shown once and the game ends

    def choose(self, view: dict) -> dict:
        return view["legal_actions"][0]

    def to_json(self) -> dict:
        return {"level": self.level, "seat": self.seat}


def make_cpu(level: str, seat: int, seed: int, options=None) -> HigherCardCpu:
    return HigherCardCpu(level, seat)


def cpu_from_json(data: dict) -> HigherCardCpu:
    return HigherCardCpu(data["level"], data["seat"])
