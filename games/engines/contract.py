"""Every engine, checked against the contract by mypy (``mypy --strict games/engines``).

The rooms find an engine by its name at run time, which no type checker can follow; this table
names each module once with the type of the contract, so a module that drifts from
``base.GameEngine`` (a missing method, a changed signature) fails the type check.
tests/engines/test_engine_contract.py checks that it lists exactly the games the rooms offer.
"""
from __future__ import annotations

from games.engines import bozu, gin, memory
from games.engines.base import GameEngine, KeepsSession

# One item per module (a comprehension over the modules would type them all as ModuleType,
# which lets any attribute through).
ENGINES: dict[str, GameEngine] = {memory.GAME: memory, bozu.GAME: bozu, gin.GAME: gin}
# The states of the games whose GameSpec keeps a session, typed with the optional hook.
SESSION_STATES: dict[str, type[KeepsSession]] = {memory.GAME: memory.State}
