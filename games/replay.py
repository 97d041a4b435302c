"""A finished game played again from its log (docs/verify.md): the engine deals from the seed
and applies the actions in order, so every state, and every view any seat was shown, comes back
exactly. Pure Python like the engines: ``python -m games.verify`` needs no server.

A log entry is ``[seat, action, by]``: a player's action (``by`` ``human`` or ``cpu``), or an
automatic step, ``[null, {"type": step}, "auto"]`` (Memory's ``conceal``, Gin's ``next_hand``).
"""
from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from games import fairness
from games.engines.base import JSON, GameError, GameState, IllegalAction
from games.engines.contract import ENGINES
from games.engines.errors import ErrorCode

FORMAT = "cardtable-replay/1"  # a replay file's "format" (docs/verify.md)
# What a replay file takes from a record's replay (docs/verify.md); the record also keeps the
# commitment, which a file carries in "fairness".
RECORD_KEYS = ("seed", "salt", "actions", "cpus", "result")


def engine(game: str) -> Any:
    if game not in ENGINES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(sorted(ENGINES))}")
    return ENGINES[game]


def cpu_module(game: str) -> ModuleType:
    engine(game)  # a known game: never import a module a file names
    return importlib.import_module(f"games.cpu.{game}")


def new_state(game: str, options: JSON, seed: int) -> GameState:
    module = engine(game)
    state: GameState = module.new_game(module.parse_options(options), seed)
    return state


def apply_entry(state: GameState, entry: list[Any]) -> None:
    """Plays one log entry, or raises ``IllegalAction`` (the engine's) and changes nothing."""
    if not isinstance(entry, list) or len(entry) != 3:
        raise IllegalAction("A log entry is [seat, action, by].", ErrorCode.MALFORMED_ACTION)
    seat, action, by = entry
    if by == "auto":
        step = state.pending_automatic()
        if step is None or action != {"type": step}:
            raise IllegalAction(f"No automatic step {action!r} is due now.", ErrorCode.NO_AUTOMATIC_STEP)
        state.apply_automatic()
    elif by in ("human", "cpu"):
        state.apply(seat, action)
    else:
        raise IllegalAction(f"by must be human, cpu or auto, not {by!r}.", ErrorCode.MALFORMED_ACTION)


def states(game: str, options: JSON, seed: int, actions: list[Any]) -> Iterator[tuple[int, GameState]]:
    """(k, the state after k entries of ``actions``), k from 0 to the end: one state, changed
    in place between yields."""
    state = new_state(game, options, seed)
    yield 0, state
    for k, entry in enumerate(actions, 1):
        apply_entry(state, entry)
        yield k, state


def replay_views(replay: dict[str, Any], seats: list[int]) -> list[dict[str, Any]]:
    """What ``seats`` were shown after every step of a replay: ``{"step", "seat", "view"}``."""
    return [{"step": k, "seat": seat, "view": state.view(seat)}
            for k, state in states(replay["game"], replay["options"], replay["seed"], replay["actions"])
            for seat in seats]


def record_file(game: str, mode: str, options: JSON, players: int, replay: dict[str, Any],
                seats: list[int]) -> dict[str, Any]:
    """The replay file (docs/verify.md) of the game a player's record keeps, for ``seats``: the
    commitment the game's players were shown before the first move, as the record kept it, and
    the reveal made again from the record's seed and salt, so that a record whose game, options,
    seed or salt changed since no longer hashes to it. ``shown``: the seats' views after every
    step the actions reach (the check names an action the engine refuses)."""
    shown: list[dict[str, Any]] = []
    final = None
    try:
        for k, state in states(game, options, replay["seed"], replay["actions"]):
            shown += [{"step": k, "seat": seat, "view": state.view(seat)} for seat in seats]
            final = state
    except GameError:
        pass  # the views end at the refused action, which the check names
    reveal = None if final is None else fairness.reveal(game, options, replay["seed"], replay["salt"], final)
    return {"format": FORMAT, "game": game, "mode": mode, "options": options,
            "cpu_level": replay.get("cpu_level"), "players": players,
            **{key: replay[key] for key in RECORD_KEYS},
            "fairness": {"commitment": replay.get("commitment"), "reveal": reveal}, "shown": shown}
