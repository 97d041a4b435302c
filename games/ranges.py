"""The ranges a finished game's counts are cut into wherever they are kept without a player.

A finished game's moves and duration, exact, could single out the record a player keeps of it
(accounts.GameRecord); the operators' copy (games/finished.py) and the anonymous statistics
(telemetry/schema.py, which adds the browser's own ranges) keep only the range. They live here,
in ``games``, because ``telemetry`` may import ``games`` and never the other way round
(docs/architecture.md, "Packages").
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Buckets:
    """Labels for a raw measurement: value < edges[0] → labels[0], edges[i-1] <= value < edges[i]
    → labels[i], value >= edges[-1] → labels[-1]. "unknown" when the browser cannot measure."""

    unit: str
    edges: tuple[float, ...]
    labels: tuple[str, ...]

    def __post_init__(self) -> None:
        assert len(self.labels) == len(self.edges) + 1

    def label(self, value: float) -> str:
        for edge, label in zip(self.edges, self.labels, strict=False):
            if value < edge:
                return label
        return self.labels[-1]

    @property
    def values(self) -> tuple[str, ...]:
        return self.labels + ("unknown",)


GAME_RANGES = {
    # Moves in a finished game: a count, bucketed so that it cannot single out the game's
    # record (accounts.GameRecord keeps the exact count for its player).
    "move_count": Buckets("moves", (10, 25, 50, 100, 200, 400),
                          ("<10", "10-24", "25-49", "50-99", "100-199", "200-399", "400+")),
    # Game duration, first action to end.
    "duration": Buckets("s", (60, 180, 600, 1800, 3600),
                        ("<1m", "1-3m", "3-10m", "10-30m", "30-60m", "60m+")),
}
