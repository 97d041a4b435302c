"""Bozu Mekuri ("monk flip") with the 100 Ogura Hyakunin Isshu picture cards (docs/bozu.md).

One face-down deck; Red (seat 0) starts and play goes clockwise (seat order). A turn is one
action, ``{"type": "flip"}``: the current player flips the top card and what happens depends on
the card's *role*, which is its type (``bozu_cards``) read through the options:

- noble → onto the flipper's pile;
- monk → the flipper's whole pile and the monk go to the centre;
- lady → the flipper takes the whole centre and the lady onto their pile;
- emperor (``emperor="again"``) → onto the pile, and the same player flips again;
- Semimaru (``semimaru="skip"``) → onto the pile, and the flipper misses their next turn;
- Semimaru (``semimaru="others_to_centre"``) → onto the pile, and every *other* pile goes to
  the centre.

The game ends when the deck is empty; most cards on one's pile wins, a tie for first is a draw,
the centre belongs to nobody. Edge cases (a flip-again on the last card, a pending skip at the
end...) are decided in docs/bozu.md.

The deal is ``deal(seed)``: poem k gets the k-th output of a SplitMix64 generator seeded with
the seed (``base.SplitMix64``) as its key, and the deck is the poems sorted by key. It is
defined this way (not with ``random.shuffle``) so that the NumPy simulator in
``games/sim/bozu.py`` deals exactly the same decks for the same seeds.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.engines.base import (
    JSON,
    IllegalAction,
    InvalidOptions,
    InvalidState,
    NotYourTurn,
    SplitMix64,
    common_view,
    is_int,
    is_seat,
    ranking_from_scores,
    require_action,
    require_seed,
    require_viewer,
)
from games.engines.bozu_cards import (
    CARD_TYPES,
    EMPEROR,
    LADY,
    MONK,
    NOBLE,
    POEMS,
    SEMIMARU,
    card_of,
)
from games.engines.errors import ErrorCode

GAME = "bozu"
EARLIER_DEALS: tuple[str, ...] = ()  # one deal per game
MIN_PLAYERS, MAX_PLAYERS = 2, 4
SEMIMARU_RULES = ("monk", "noble", "skip", "others_to_centre")
EMPEROR_RULES = ("noble", "again")

# Roles: what a flipped card does. These names are also the ``effect`` shown in ``last``.
TO_PILE = "to_pile"
PILE_TO_CENTRE = "pile_to_centre"
TAKES_CENTRE = "takes_centre"
FLIP_AGAIN = "flip_again"
MISS_NEXT_TURN = "miss_next_turn"
OTHERS_TO_CENTRE = "others_to_centre"
ROLES = (TO_PILE, PILE_TO_CENTRE, TAKES_CENTRE, FLIP_AGAIN, MISS_NEXT_TURN, OTHERS_TO_CENTRE)
STATE_FIELDS = {"game", "options", "deck", "piles", "centre", "current_player", "skip", "moves",
                "last"}  # to_json's keys


@dataclass(frozen=True)
class Options:
    players: int = 4
    semimaru: str = "monk"
    emperor: str = "noble"
    lady_empty_again: bool = False

    def to_json(self) -> JSON:
        return {
            "players": self.players,
            "semimaru": self.semimaru,
            "emperor": self.emperor,
            "lady_empty_again": self.lady_empty_again,
        }


def parse_options(raw: Options | JSON | None) -> Options:
    if raw is None:
        return Options()
    if isinstance(raw, Options):
        return raw
    if not isinstance(raw, dict):
        raise InvalidOptions("Options must be a JSON object.")
    unknown = sorted(set(raw) - set(Options().to_json()))
    if unknown:
        raise InvalidOptions(f"Unknown option(s) for Bozu Mekuri: {', '.join(map(str, unknown))}.")
    players = raw.get("players", Options.players)
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions(f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}.")
    semimaru = raw.get("semimaru", Options.semimaru)
    if semimaru not in SEMIMARU_RULES:
        raise InvalidOptions(f"semimaru must be one of {', '.join(SEMIMARU_RULES)}.")
    emperor = raw.get("emperor", Options.emperor)
    if emperor not in EMPEROR_RULES:
        raise InvalidOptions(f"emperor must be one of {', '.join(EMPEROR_RULES)}.")
    lady_empty_again = raw.get("lady_empty_again", Options.lady_empty_again)
    if not isinstance(lady_empty_again, bool):
        raise InvalidOptions("lady_empty_again must be true or false.")
    return Options(players, semimaru, emperor, lady_empty_again)


def card_roles(options: Options) -> dict[str, str]:
    """Card type → role under these options (shared with the fast simulator)."""
    return {
        NOBLE: TO_PILE,
        EMPEROR: FLIP_AGAIN if options.emperor == "again" else TO_PILE,
        LADY: TAKES_CENTRE,
        MONK: PILE_TO_CENTRE,
        SEMIMARU: {
            "monk": PILE_TO_CENTRE,
            "noble": TO_PILE,
            "skip": MISS_NEXT_TURN,
            "others_to_centre": OTHERS_TO_CENTRE,
        }[options.semimaru],
    }


def deal(seed: int) -> list[int]:
    """The deck for this seed, top card first: poems sorted by their SplitMix64 key."""
    return sorted(POEMS, key=lambda poem: SplitMix64.output_at(seed, poem))


def new_game(options: Options | JSON | None, seed: int) -> State:
    options = parse_options(options)
    return State(options, deal(require_seed(seed)), [[] for _ in range(options.players)], [], 0,
                 [False] * options.players, 0, None)


class State:
    def __init__(self, options: Options, deck: list[int], piles: list[list[int]],
                 centre: list[int], current_player: int | None, skip: list[bool], moves: int,
                 last: JSON | None):
        self.options = options
        self.deck = deck            # face down, top card first; never leaves the server
        self.piles = piles          # per seat, bottom card first (face up)
        self.centre = centre        # bottom card first (face up)
        self.current_player = current_player
        self.skip = skip            # per seat: misses their next turn (Semimaru "skip")
        self.moves = moves
        self.last = last
        self._roles = card_roles(options)

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def is_over(self) -> bool:
        return not self.deck

    def legal_actions(self, seat: int | None) -> list[JSON]:
        if self.is_over or seat is None or seat != self.current_player:
            return []
        return [{"type": "flip"}]

    def pending_automatic(self) -> str | None:
        return None  # every step of Bozu Mekuri is a player's flip

    def apply_automatic(self) -> None:
        raise IllegalAction("Bozu Mekuri has no automatic step.", ErrorCode.NO_AUTOMATIC_STEP)

    def apply(self, seat: int | None, action: JSON) -> None:
        if self.is_over:
            raise IllegalAction("The game is over.", ErrorCode.GAME_OVER)
        if not is_seat(seat, self.players):
            raise IllegalAction("Only a seated player can flip.", ErrorCode.NOT_A_PLAYER)
        if seat != self.current_player:
            raise NotYourTurn(f"It is seat {self.current_player}'s turn, not seat {seat}'s.")
        require_action(action, ("flip",))
        if set(action) != {"type"}:
            raise IllegalAction("A flip takes no other fields.", ErrorCode.MALFORMED_ACTION)
        self._flip(seat)
        self.moves += 1

    def _flip(self, seat: int) -> None:
        poem = self.deck.pop(0)
        card = card_of(poem)
        role = self._roles[card.type]
        pile, centre = self.piles[seat], self.centre
        moved = 0  # cards that moved along with the flipped one
        again = False
        if role == PILE_TO_CENTRE:
            moved = len(pile)
            centre.extend(pile)
            pile.clear()
            centre.append(poem)
        elif role == TAKES_CENTRE:
            moved = len(centre)
            # "If the centre is empty": judged before the lady arrives, i.e. she took nothing.
            again = self.options.lady_empty_again and moved == 0
            pile.extend(centre)
            centre.clear()
            pile.append(poem)
        else:
            if role == OTHERS_TO_CENTRE:
                for other in _clockwise_after(seat, self.players):
                    moved += len(self.piles[other])
                    centre.extend(self.piles[other])
                    self.piles[other].clear()
            elif role == MISS_NEXT_TURN:
                self.skip[seat] = True
            pile.append(poem)
            again = role == FLIP_AGAIN
        # A flip-again (or a pending skip) on the last card changes nothing: the game ends.
        again = again and bool(self.deck)
        skipped: list[int] = []
        if not self.deck:
            self.current_player = None
        elif not again:
            self.current_player = self._next_seat(seat, skipped)
        self.last = {
            "seat": seat,
            "card": card.to_json(),
            "effect": role,
            "moved": moved,
            "again": again,
            "skipped": skipped,
        }

    def _next_seat(self, seat: int, skipped: list[int]) -> int:
        """Clockwise, passing over (and clearing) a seat that must miss its turn."""
        nxt = (seat + 1) % self.players
        while self.skip[nxt]:
            self.skip[nxt] = False
            skipped.append(nxt)
            nxt = (nxt + 1) % self.players
        return nxt

    def scores(self) -> list[int]:
        return [len(pile) for pile in self.piles]

    def result(self) -> JSON:
        if not self.is_over:
            raise IllegalAction("The game is not over yet.", ErrorCode.NOT_OVER)
        scores = self.scores()
        ranking = ranking_from_scores(scores)
        return {
            "scores": scores,
            "ranking": ranking,
            "winners": ranking[0],
            "draw": len(ranking[0]) > 1,
            "centre": len(self.centre),
        }

    def deck_by_type(self) -> dict[str, int]:
        counts = dict.fromkeys(CARD_TYPES, 0)
        for poem in self.deck:
            counts[card_of(poem).type] += 1
        return counts

    def hidden_cards(self, seat: int | None) -> list[JSON]:
        """The deck, whoever asks: every other card is face up."""
        return [card_of(poem).to_json() for poem in self.deck]

    def view(self, seat: int | None) -> JSON:
        """What anyone may see: everything but the order of the deck (all else is face up)."""
        require_viewer(seat, self.players)
        left = self.deck_by_type()
        view = common_view(self, seat, game=GAME, last=_copy_last(self.last), options=self.options.to_json())
        view.update({
            "piles": [{"count": len(pile), "top": _top(pile)} for pile in self.piles],
            "centre": {"count": len(self.centre), "top": _top(self.centre)},
            "deck_count": len(self.deck),
            # Monks here are the cards that will act as monks: Semimaru counts when he is one.
            "deck_monks": left[MONK] + (left[SEMIMARU] if self._roles[SEMIMARU] == PILE_TO_CENTRE else 0),
            "deck_ladies": left[LADY],
            "deck_by_type": left,
            "skip": list(self.skip),
        })
        return view

    def to_json(self) -> JSON:
        return {
            "game": GAME,
            "options": self.options.to_json(),
            "deck": list(self.deck),
            "piles": [list(pile) for pile in self.piles],
            "centre": list(self.centre),
            "current_player": self.current_player,
            "skip": list(self.skip),
            "moves": self.moves,
            "last": _copy_last(self.last),
        }

    def copy(self) -> State:
        return State(self.options, list(self.deck), [list(pile) for pile in self.piles], list(self.centre),
                     self.current_player, list(self.skip), self.moves, _copy_last(self.last))

    @classmethod
    def from_json(cls, data: JSON) -> State:
        try:
            if data["game"] != GAME:
                raise ValueError("not a Bozu Mekuri state")
            if set(data) != STATE_FIELDS:
                raise ValueError(f"the fields must be {', '.join(sorted(STATE_FIELDS))}")
            options = parse_options(data["options"])
            deck = [int(p) for p in data["deck"]]
            piles = [[int(p) for p in pile] for pile in data["piles"]]
            centre = [int(p) for p in data["centre"]]
            skip = [bool(s) for s in data["skip"]]
            current = data["current_player"]
            moves = int(data["moves"])
            last = _copy_last(data["last"])
        except (KeyError, TypeError, ValueError, InvalidOptions) as exc:
            raise InvalidState(f"Not a valid Bozu Mekuri state: {exc}") from exc
        everywhere = deck + centre + [p for pile in piles for p in pile]
        if sorted(everywhere) != list(POEMS):
            raise InvalidState("Not a valid Bozu Mekuri state: the 100 cards must each be "
                               "somewhere exactly once.")
        if len(piles) != options.players or len(skip) != options.players:
            raise InvalidState("Not a valid Bozu Mekuri state: one pile and one skip flag per "
                               "seat.")
        if (current is None) != (not deck) or (current is not None and not is_seat(current, options.players)):
            raise InvalidState("Not a valid Bozu Mekuri state: bad current player.")
        if not 0 <= moves <= len(POEMS) - len(deck):
            # Every move draws one card: never more moves than cards gone from the deck.
            raise InvalidState("Not a valid Bozu Mekuri state: moves must be a count of cards "
                               "drawn from the deck.")
        return cls(options, deck, piles, centre, current, skip, moves, last)


def _clockwise_after(seat: int, players: int) -> list[int]:
    return [(seat + k) % players for k in range(1, players)]


def _top(cards: list[int]) -> JSON | None:
    return card_of(cards[-1]).to_json() if cards else None


def _copy_last(last: JSON | None) -> JSON | None:
    if last is None:
        return None
    return {**last, "card": dict(last["card"]), "skipped": list(last["skipped"])}
