"""A finished game's review, computed on demand from its replay by the engines and the CPUs
(docs/review.md): nothing of it is stored, every figure can be computed again."""
from __future__ import annotations

from typing import Any

from games.review import bozu, gin, memory

REVIEWS = {"memory": memory.review, "gin": gin.review, "bozu": bozu.review}


def review(game: str, options: dict[str, Any], replay: dict[str, Any], seat: int) -> dict[str, Any]:
    """The review of ``seat``'s play in the game a record's ``replay`` holds."""
    if game not in REVIEWS:
        raise ValueError(f"no review for the game {game!r}")
    return REVIEWS[game](options, replay["seed"], replay["actions"], seat)
