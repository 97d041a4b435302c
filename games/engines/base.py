"""The contract every game engine keeps (docs/architecture.md, "Engines").

Engines are pure Python: no Django import anywhere under ``games/engines`` or ``games/cpu``.
Each game is one module ``games/engines/<game>.py`` exposing:

- ``GAME``: the game's name (``"memory"``, ``"bozu"``, ``"gin"``).
- ``parse_options(raw: dict | None) -> Options``: validates a JSON-ish dict into a frozen
  options object (``Options.to_json()`` gives the canonical dict back). Unknown keys or bad
  values raise :class:`InvalidOptions` with a message a person can read.
- ``new_game(options, seed: int) -> State``: deals deterministically from the seed.
- ``State`` (a class), with:
    - ``players`` (int), ``current_player`` (seat to act, ``None`` when the game is over or
      when only an automatic step can move it on);
    - ``legal_actions(seat) -> list[dict]``: JSON actions that seat may send now;
    - ``apply(seat, action: dict) -> None``: raises :class:`IllegalAction` (state unchanged)
      when the action is malformed, out of turn or against the rules;
    - ``pending_automatic() -> str | None``: the name of a step that happens by itself after a
      delay (Memory's ``"conceal"`` after a mismatch), applied by ``apply_automatic()``;
    - ``is_over`` (bool) and ``result() -> dict`` once over:
      ``{"scores": [...], "ranking": [[seat, ...], ...], "winners": [...], "draw": bool}``
      plus game-specific keys;
    - ``moves`` (int): actions applied by players so far;
    - ``view(seat | None) -> dict``: everything that seat (``None``: a spectator) may see and
      nothing else; the only thing that ever leaves the server;
    - ``to_json() -> dict`` and ``State.from_json(d)``: an exact round trip.

A CPU player (``games/cpu/<game>.py``) is built by ``make_cpu(level, seat, seed, options)``
and has ``observe(view)`` (fed the seat's view after every change, as the seat would receive
it), ``choose(view) -> action``, and ``to_json()`` / ``cpu_from_json(d)`` so that its memory
survives a server restart. It never receives a State, so it cannot cheat.
"""
from __future__ import annotations


class GameError(Exception):
    """Base of every error an engine raises on purpose; ``code`` is machine-readable."""

    code = "game_error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class InvalidOptions(GameError):
    code = "invalid_options"


class IllegalAction(GameError):
    code = "illegal_action"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


SEAT_COLOURS = ("red", "green", "yellow", "blue", "purple", "orange")


def ranking_from_scores(scores: list[int | float], higher_is_better: bool = True) -> list[list[int]]:
    """Seats grouped by equal score, best group first."""
    order = sorted(set(scores), reverse=higher_is_better)
    return [[seat for seat, s in enumerate(scores) if s == value] for value in order]


def require_action(action: object, allowed_types: tuple[str, ...]) -> dict:
    """Checks an action's outer shape; engines check the rest."""
    if not isinstance(action, dict):
        raise IllegalAction("An action must be a JSON object.", "malformed_action")
    kind = action.get("type")
    if kind not in allowed_types:
        raise IllegalAction(
            f"Unknown action type {kind!r}; expected one of {', '.join(allowed_types)}.",
            "unknown_action",
        )
    return action
