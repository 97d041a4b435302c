"""The contract every game engine keeps, written as types (:class:`GameEngine` for a game's
module ``games/engines/<game>.py``, :class:`GameState` for its ``State``), the one error type,
the checks every engine makes and :class:`SplitMix64`, the one seeded generator of the project.

Why the contract, each name's meaning and what tests/engines/test_engine_contract.py checks on
every registered game: docs/engines.md. Where the engines sit and why they are pure Python with
no Django, and CPU players see only views: docs/architecture.md, "Engines". ``mypy --strict
games/engines`` holds every engine to the types below.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, Self, TypedDict, TypeGuard

from games.engines.errors import ErrorCode

JSON = dict[str, Any]
"""A JSON object as Python reads it: options, actions, views, results, stored states."""


class GameError(Exception):
    """A refused request, the one error type of the protocol: its ``code`` (machine-readable)
    and ``message`` go to the client as an ``error`` (docs/protocol.md). The engines raise it
    (through the classes below) for a bad option, action or stored state; the rooms
    (``games/rooms/``) raise the same class for everything else they refuse, so one error
    crosses from an engine to the client unchanged. It lives here because the engines may not
    import the rooms. Each code is one of :class:`ErrorCode`'s: a ``GameError`` itself is always
    given one, each class below has its own for when none is given."""

    code: ErrorCode

    def __init__(self, message: str, code: ErrorCode | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class InvalidOptions(GameError):
    code = ErrorCode.INVALID_OPTIONS


class IllegalAction(GameError):
    code = ErrorCode.ILLEGAL_ACTION


class NotYourTurn(IllegalAction):
    code = ErrorCode.NOT_YOUR_TURN


class InvalidState(GameError, ValueError):
    """A stored state that breaks the game's invariants (also a ValueError: it is bad data)."""

    code = ErrorCode.INVALID_STATE


SEAT_COLOURS = ("red", "green", "yellow", "blue", "purple", "orange")


# ---------------------------------------------------------------------------- the contract

class GameOptions(Protocol):
    """A game's parsed options: frozen, and the same dict back from ``to_json``."""

    @property
    def players(self) -> int: ...

    def to_json(self) -> JSON: ...


class GameState(Protocol):
    """One game in progress; everything a room, a simulator or a test may ask of it."""

    @property
    def players(self) -> int: ...

    @property
    def current_player(self) -> int | None:
        """The seat to act; ``None`` when the game is over or only an automatic step (or, in
        Gin Rummy, either seat's "next hand") moves it on."""

    @property
    def is_over(self) -> bool: ...

    @property
    def moves(self) -> int:
        """Actions applied by players so far."""

    def legal_actions(self, seat: int | None) -> list[JSON]:
        """The JSON actions that seat may send now (none for a spectator)."""

    def apply(self, seat: int | None, action: JSON) -> None:
        """Plays an action, or raises :class:`IllegalAction` (with its ``code``) and changes
        nothing when it is malformed, out of turn or against the rules."""

    def pending_automatic(self) -> str | None:
        """The name of a step that happens by itself after a delay (Memory's ``"conceal"``
        after a mismatch), applied by ``apply_automatic()``; ``None`` when there is none."""

    def apply_automatic(self) -> None: ...

    def scores(self) -> list[int]:
        """One score per seat, as the game shows it now."""

    def result(self) -> JSON:
        """Once over: ``{"scores", "ranking", "winners", "draw"}`` plus game-specific keys."""

    def view(self, seat: int | None) -> JSON:
        """Everything that seat (``None``: a spectator) may see and nothing else."""

    def hidden_cards(self, seat: int | None) -> Sequence[object]:
        """Every card that seat may not see now, as the views show a card (a string like
        ``"TD"``, or a JSON object)."""

    def to_json(self) -> JSON: ...

    @classmethod
    def from_json(cls, data: JSON) -> Self:
        """The state back from ``to_json``'s dict, its invariants checked (``invalid_state``)."""

    def copy(self) -> Self:
        """An independent state equal to ``from_json(to_json())``, without the round trip
        through JSON or the checks (this state passed them): a room's next change starts from
        a copy of the state its process keeps of the room (games/rooms/cache.py)."""


class GameEngine(Protocol):
    """A game's module (``games/engines/<game>.py``), as the registry loads it."""

    GAME: str
    EARLIER_DEALS: tuple[str, ...]
    """View keys that show the cards of a finished deal: public then, and dealt again since."""

    def parse_options(self, raw: JSON | None) -> GameOptions: ...

    def new_game(self, options: JSON | None, seed: int) -> GameState: ...

    @property
    def State(self) -> type[GameState]: ...  # the module's class, hence the capital


class SessionTally(TypedDict):
    """What one game adds to its room's session (games/rooms/sessions.py): ``points``, per seat,
    is added to the seat's running total, which ranks the seats (Memory: the pairs taken);
    ``against[seat][other]``: of those points, the ones ``seat`` won from ``other`` (Memory: pairs
    whose card ``other`` had turned up before), which break a tie of running totals."""

    points: list[int]
    against: list[list[int]]


class KeepsSession(GameState, Protocol):
    """The optional hook of a game whose GameSpec keeps a session (``GameSpec.session``,
    games/specs.py): a room that keeps one sums its games' tallies over "Play again", and knows
    nothing else of the game's figures."""

    def session_tally(self) -> SessionTally:
        """What this game adds to the session once it has ended: played to its end, or cut short
        by a resignation (then what was won until then)."""


# ---------------------------------------------------------------------------- shared checks

def is_int(value: object) -> TypeGuard[int]:
    """A whole number, and not ``True``/``False`` (which Python counts as ints)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_seat(value: object, players: int) -> TypeGuard[int]:
    return is_int(value) and 0 <= value < players


def require_seed(seed: object) -> int:
    if not is_int(seed):
        raise InvalidOptions("The seed must be an integer.")
    return seed


def require_viewer(seat: object, players: int, message: str | None = None) -> int | None:
    """A seat of this game or ``None`` (a spectator): who may ask for a view."""
    if seat is not None and not is_seat(seat, players):
        raise IllegalAction(message or f"No seat {seat!r} in a {players}-player game.", ErrorCode.BAD_SEAT)
    return seat


def require_action(action: object, allowed_types: tuple[str, ...]) -> JSON:
    """Checks an action's outer shape; engines check the rest."""
    if not isinstance(action, dict):
        raise IllegalAction("An action must be a JSON object.", ErrorCode.MALFORMED_ACTION)
    kind = action.get("type")
    if kind not in allowed_types:
        raise IllegalAction(
            f"Unknown action type {kind!r}; expected one of {', '.join(allowed_types)}.",
            ErrorCode.UNKNOWN_ACTION,
        )
    return action


def ranking_from_scores(scores: list[int], higher_is_better: bool = True) -> list[list[int]]:
    """Seats grouped by equal score, best group first."""
    order = sorted(set(scores), reverse=higher_is_better)
    return [[seat for seat, s in enumerate(scores) if s == value] for value in order]


def common_view(state: GameState, seat: int | None, *, game: str, last: JSON | None, options: JSON) -> JSON:
    """The keys every view starts with, whatever the game (docs/protocol.md, "Games"), in this
    order; each engine's ``view`` adds its own after them. ``last`` is what the last action did
    as this seat may see it (a copy: a view shares nothing with the state), ``options`` the
    game's options as ``room.options`` shows them."""
    return {
        "game": game,
        "players": state.players,
        "seat": seat,
        "current_player": state.current_player,
        "is_over": state.is_over,
        "scores": state.scores(),
        "moves": state.moves,
        "last": last,
        "legal_actions": state.legal_actions(seat),
        "result": state.result() if state.is_over else None,
        "options": options,
    }


# ---------------------------------------------------------------------------- seeded randomness

# SplitMix64 (Steele, Lea & Flood, 2014): the k-th output from state s is mix64(s + k * gamma).
# Its whole state is one integer, so it goes into JSON as it is, and any output can be worked
# out directly (``output_at``), which lets the NumPy simulator deal a whole batch at once.
MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX_MULTIPLIER_1 = 0xBF58476D1CE4E5B9
MIX_MULTIPLIER_2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijection on 64-bit integers, so distinct inputs never tie."""
    z = ((z ^ (z >> 30)) * MIX_MULTIPLIER_1) & MASK64
    z = ((z ^ (z >> 27)) * MIX_MULTIPLIER_2) & MASK64
    return z ^ (z >> 31)


class SplitMix64:
    """A seeded 64-bit generator; ``state`` is all there is to save and restore."""

    def __init__(self, seed: int):
        self.state = seed & MASK64

    @staticmethod
    def output_at(seed: int, k: int) -> int:
        """The k-th output (k ≥ 1) of a generator seeded with ``seed``, without running it."""
        return mix64(((seed & MASK64) + k * GOLDEN_GAMMA) & MASK64)

    def next(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        return mix64(self.state)

    def uniform(self) -> float:
        """A float in [0, 1) from the top 53 bits."""
        return (self.next() >> 11) / float(1 << 53)

    def below(self, n: int) -> int:
        """A whole number in [0, n), by multiplying rather than by a biased modulo."""
        return (self.next() * n) >> 64
