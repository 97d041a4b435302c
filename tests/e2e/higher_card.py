"""A toy fourth game for tests/e2e/test_it_adds_a_game.py, kept to the engine contract
(games/engines/base.py): two players are dealt one card each from 1..10, face down; each in
turn turns their card face up; the higher card wins, equal cards draw. An option sets the
highest card. A room keeps a session of it (the contract's optional hook, ``session_tally``):
each seat's points are the card it showed, and the winner's are won against the loser. Nothing
outside the tests knows it."""
from __future__ import annotations

import random
from dataclasses import dataclass

from games.engines.base import (
    GameError,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    ranking_from_scores,
)

GAME = "higher_card"
PLAYERS = 2


@dataclass(frozen=True)
class Options:
    players: int = PLAYERS
    highest: int = 10

    def to_json(self) -> dict:
        return {"players": self.players, "highest": self.highest}


def parse_options(raw: dict | None) -> Options:
    raw = dict(raw or {})
    unknown = set(raw) - {"players", "highest"}
    if unknown:
        raise InvalidOptions(f"Unknown option(s): {', '.join(sorted(unknown))}.")
    if raw.get("players", PLAYERS) != PLAYERS:
        raise InvalidOptions("Higher card is played by exactly 2 players.")
    highest = raw.get("highest", 10)
    if isinstance(highest, bool) or highest not in (5, 10):
        raise InvalidOptions("highest must be 5 or 10.")
    return Options(PLAYERS, highest)


def new_game(options: Options | dict | None, seed: int) -> State:
    options = options if isinstance(options, Options) else parse_options(options)
    rng = random.Random(seed)
    return State(options, [rng.randint(1, options.highest) for _ in range(PLAYERS)], [False, False])


class State:
    def __init__(self, options: Options, cards: list[int], shown: list[bool]):
        self.options, self.cards, self.shown = options, cards, shown
        self.players = PLAYERS

    @property
    def moves(self) -> int:
        return sum(self.shown)

    @property
    def is_over(self) -> bool:
        return all(self.shown)

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.shown.index(False)

    def legal_actions(self, seat: int | None = None) -> list[dict]:
        return [] if self.is_over or seat not in (None, self.current_player) else [{"type": "show"}]

    def apply(self, seat: int, action: dict) -> dict:
        if self.is_over:
            raise IllegalAction("The game is over.", "game_over")
        if seat != self.current_player:
            raise NotYourTurn("It is not your turn.")
        if action != {"type": "show"}:
            raise IllegalAction("The only action is {\"type\": \"show\"}.")
        self.shown[seat] = True
        return {"type": "show", "seat": seat, "card": self.cards[seat]}

    def pending_automatic(self) -> str | None:
        return None

    def apply_automatic(self) -> dict:
        raise IllegalAction("Nothing happens by itself in this game.")

    def scores(self) -> list[int]:
        return list(self.cards)

    def result(self) -> dict:
        if not self.is_over:
            raise IllegalAction("The game is not over yet.", "not_over")
        ranking = ranking_from_scores(self.scores())
        return {"scores": self.scores(), "ranking": ranking, "winners": ranking[0],
                "draw": len(ranking[0]) > 1}

    def session_tally(self) -> dict:
        shown = [card if self.shown[s] else 0 for s, card in enumerate(self.cards)]
        won = [[shown[s] if self.is_over and shown[s] > shown[o] else 0 for o in range(PLAYERS)]
               for s in range(PLAYERS)]
        return {"points": shown, "against": won}

    def hidden_cards(self, seat: int | None) -> list[int]:
        return [card for s, card in enumerate(self.cards) if not self.shown[s] and s != seat]

    def view(self, seat: int | None) -> dict:
        cards = [card if self.shown[s] or s == seat else None for s, card in enumerate(self.cards)]
        return {"game": GAME, "seat": seat, "players": PLAYERS, "cards": cards,
                "current_player": self.current_player, "is_over": self.is_over,
                "legal_actions": self.legal_actions(seat) if seat is not None else [],
                "options": self.options.to_json()}

    def to_json(self) -> dict:
        return {"options": self.options.to_json(), "cards": self.cards, "shown": self.shown}

    def copy(self) -> State:
        return State(self.options, list(self.cards), list(self.shown))

    @classmethod
    def from_json(cls, data: dict) -> State:
        try:
            return cls(parse_options(data["options"]), list(data["cards"]), list(data["shown"]))
        except (KeyError, TypeError, InvalidOptions) as exc:
            raise GameError(f"Not a higher card state: {exc}", "invalid_state") from None
