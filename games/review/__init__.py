"""A finished game's review, computed from its replay by the engines and the CPUs
(docs/review.md): every figure can be computed again. A player's record keeps each review once
computed (accounts/replay_review.py), with ``VERSION``."""
from __future__ import annotations

from typing import Any

from games.review import bozu, gin, memory

REVIEWS = {"memory": memory.review, "gin": gin.review, "bozu": bozu.review}
# Raised with every change to what a review says (its figures, the tables or CPUs behind them,
# its words): a review kept at another version is computed again.
VERSION = 1


def review(game: str, options: dict[str, Any], replay: dict[str, Any], seat: int) -> dict[str, Any]:
    """The review of ``seat``'s play in the game a record's ``replay`` holds."""
    if game not in REVIEWS:
        raise ValueError(f"no review for the game {game!r}")
    return REVIEWS[game](options, replay["seed"], replay["actions"], seat)
