"""Gin Rummy for two players (docs/gin.md): deal, upcard, draw/discard, knock, gin, layoffs,
undercut, dead hand, a race to ``target`` points.

Card strings are rank + suit (``"TD"``). The scoring core lives in ``gin_melds`` and its public
functions are re-exported here: ``best_split``, ``best_discard``, ``lay_off``.
Rules decisions where the usual rules vary are written down in docs/gin.md.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import TypeVar, cast

from games.engines.base import (
    JSON,
    IllegalAction,
    InvalidOptions,
    InvalidState,
    NotYourTurn,
    common_view,
    is_int,
    is_seat,
    ranking_from_scores,
    require_action,
    require_seed,
    require_viewer,
)
from games.engines.errors import ErrorCode
from games.engines.gin_melds import (
    CARDS,
    KNOCK_LIMIT,
    all_best_splits_mask,
    best_discard,
    best_split,
    cards_by_rank,
    cards_of,
    deadwood_mask,
    indices_of,
    lay_off,
    lay_off_mask,
    mask_of,
    split_mask,
    value_of,
)

__all__ = ["GAME", "EARLIER_DEALS", "Options", "State", "parse_options", "new_game",
           "best_split", "best_discard", "lay_off"]

GAME = "gin"
PLAYERS = 2
DEFAULT_TARGET = 100
MIN_TARGET, MAX_TARGET = 1, 1000
GIN_BONUS = 25
UNDERCUT_BONUS = 25
DEAD_STOCK = 2  # a hand is dead once a discard leaves this many cards in the stock
HAND_SIZE = 10

ACTION_TYPES = ("take_upcard", "pass", "draw", "discard", "knock", "next_hand")
OUTCOMES = ("knock", "gin", "undercut", "dead")
PLAYING = ("upcard", "draw", "discard")  # the phases of a hand being played
PHASES = (*PLAYING, "hand_over", "over")
# View keys that show a finished hand: public then, and its cards are dealt again since, so
# they say nothing about the hands now being played.
EARLIER_DEALS: tuple[str, ...] = ("last_hand", "previous_hands", "deciding_hand")


@dataclass(frozen=True)
class Options:
    target: int = DEFAULT_TARGET

    @property
    def players(self) -> int:
        return PLAYERS

    def to_json(self) -> JSON:
        return {"players": PLAYERS, "target": self.target}


def parse_options(raw: Options | JSON | None) -> Options:
    if isinstance(raw, Options):
        return raw
    raw = {} if raw is None else raw
    if not isinstance(raw, dict):
        raise InvalidOptions("Options must be a JSON object.")
    unknown = set(raw) - {"players", "target"}
    if unknown:
        raise InvalidOptions(f"Unknown Gin Rummy option(s): {', '.join(sorted(map(str, unknown)))}.")
    players = raw.get("players", PLAYERS)
    if not is_int(players) or players != PLAYERS:
        raise InvalidOptions("Gin Rummy is played by exactly 2 players.")
    target = raw.get("target", DEFAULT_TARGET)
    if not is_int(target) or not MIN_TARGET <= target <= MAX_TARGET:
        raise InvalidOptions(f"target must be a whole number of points from {MIN_TARGET} to {MAX_TARGET}.")
    return Options(target=target)


def new_game(options: Options | JSON | None, seed: int) -> State:
    target = parse_options(options).target
    seed = require_seed(seed)
    state = State(target, seed, dealer=random.Random(f"gin-first-dealer/{seed}").randrange(PLAYERS))
    state._deal()
    return state


def shuffled_deck(seed: int, deal_number: int) -> list[str]:
    """The deck of a game's deal (redeals of dead hands count), top card (dealt first) first."""
    deck = list(CARDS)
    random.Random(f"gin-deal/{seed}/{deal_number}").shuffle(deck)
    return deck


def _split_for_display(cards: list[str]) -> JSON:
    """A hand sorted by its best split: melds first (each in reading order), then deadwood."""
    ordered, melds, loose, deadwood = _display_of_mask(mask_of(cards))
    return {"cards": list(ordered), "melds": [list(m) for m in melds],
            "deadwood_cards": list(loose), "deadwood": deadwood}


@lru_cache(maxsize=4096)
def _display_of_mask(mask: int) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...], int]:
    # Cached: both seats' views and the CPU ask for the same hands many times in a row.
    deadwood, melds = split_mask(mask)
    loose = mask
    for meld in melds:
        loose &= ~meld
    meld_cards = tuple(tuple(cards_of(m)) for m in melds)
    loose_cards = tuple(cards_by_rank(loose))
    return tuple(c for meld in meld_cards for c in meld) + loose_cards, meld_cards, loose_cards, deadwood


@lru_cache(maxsize=4096)
def _knock_cards(mask: int) -> frozenset[str]:
    """Cards of an 11-card hand whose discard leaves 10 or fewer deadwood points."""
    return frozenset(CARDS[i] for i in indices_of(mask) if deadwood_mask(mask & ~(1 << i)) <= KNOCK_LIMIT)


@lru_cache(maxsize=4096)
def _deadwood_after_discard(mask: int, banned: str | None) -> int:
    """Least deadwood an 11-card hand keeps after one legal discard: the figure a player about
    to discard compares with the knock limit (the 11-card split counts one card too many)."""
    return min(deadwood_mask(mask & ~(1 << i)) for i in indices_of(mask) if CARDS[i] != banned)


@dataclass(eq=False)
class State:
    """One game. Every field is plain JSON data, so ``to_json`` is a deep copy of them (the
    running ``points`` are stored as ``"scores"``, the name ``scores()`` shows them by)."""

    target: int
    seed: int
    dealer: int
    deal_number: int = 0        # deals so far, redeals of dead hands included (seeds each shuffle)
    hand_number: int = 1        # hands played in this game, this one included
    phase: str = "upcard"       # one of PHASES
    current_player: int | None = None
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    stock: list[str] = field(default_factory=list)  # the top card is the last one
    discard_pile: list[str] = field(default_factory=list)  # the top card is the last one
    upcard_passes: int = 0
    stock_only: bool = False    # both passed the upcard: the non-dealer must draw from the stock
    taken_card: str | None = None  # taken from the discard pile this turn: may not go back
    history: list[JSON] = field(default_factory=list)  # this hand's public events
    points: list[int] = field(default_factory=lambda: [0, 0])  # each seat's game score
    moves: int = 0
    last: JSON | None = None
    last_hand: JSON | None = None
    # The finished hands before last_hand, oldest first, so that any earlier hand can be shown.
    previous_hands: list[JSON] = field(default_factory=list)
    hand_outcomes: list[JSON] = field(default_factory=list)  # {"outcome", "winner", "points"} per hand

    @property
    def players(self) -> int:
        return PLAYERS

    # --- dealing -----------------------------------------------------------------------------

    def _deal(self) -> None:
        deck = shuffled_deck(self.seed, self.deal_number)
        non_dealer = 1 - self.dealer
        # One card at a time, non-dealer first.
        self.hands = [[], []]
        for i in range(2 * HAND_SIZE):
            self.hands[non_dealer if i % 2 == 0 else self.dealer].append(deck[i])
        self.discard_pile = [deck[2 * HAND_SIZE]]
        self.stock = deck[2 * HAND_SIZE + 1:][::-1]  # deck[21] is on top
        self.phase = "upcard"
        self.current_player = non_dealer
        self.upcard_passes = 0
        self.stock_only = False
        self.taken_card = None
        self.history = []

    # --- queries -------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, seat: int | None) -> list[JSON]:
        if self.phase == "hand_over":
            return [{"type": "next_hand"}] if seat in (0, 1) else []
        if seat is None or seat != self.current_player:
            return []
        if self.phase == "upcard":
            return [{"type": "take_upcard"}, {"type": "pass"}]
        if self.phase == "draw":
            actions = [{"type": "draw", "source": "stock"}]
            if not self.stock_only:
                actions.append({"type": "draw", "source": "discard"})
            return actions
        mask = mask_of(self.hands[seat])
        discards = [c for c in _display_of_mask(mask)[0] if c != self.taken_card]
        can_knock = _knock_cards(mask)
        knocks = [c for c in discards if c in can_knock]
        return ([{"type": "discard", "card": c} for c in discards]
                + [{"type": "knock", "card": c} for c in knocks])

    def pending_automatic(self) -> str | None:
        return "next_hand" if self.phase == "hand_over" else None

    def known_cards(self, seat: int) -> list[str]:
        """Cards ``seat`` took from the discard pile this hand and still holds (public)."""
        held: list[str] = []
        for event in self.history:
            if event["seat"] != seat:
                continue
            if event["action"] == "take":
                held.append(event["card"])
            elif event["action"] in ("discard", "knock") and event["card"] in held:
                held.remove(event["card"])
        return held

    def scores(self) -> list[int]:
        return list(self.points)

    def result(self) -> JSON:
        if not self.is_over:
            raise IllegalAction("The game is not over yet.", ErrorCode.NOT_OVER)
        winner = max(range(PLAYERS), key=lambda s: self.points[s])
        return {
            "scores": self.scores(),
            "ranking": ranking_from_scores(self.points),
            "winners": [winner],
            "draw": False,
            "target": self.target,
            "hands_played": len(self.hand_outcomes),
            "hands": self.hand_counts(),
            "deciding_hand": _copy(self.last_hand),
        }

    def hand_counts(self) -> JSON:
        """How the finished hands ended: knock (knocker won), gin, undercut, dead."""
        counts = {outcome: 0 for outcome in OUTCOMES}
        for hand in self.hand_outcomes:
            counts[hand["outcome"]] += 1
        return counts

    # --- actions -------------------------------------------------------------------------------

    def apply(self, seat: int | None, action: JSON) -> None:
        """Checks everything before changing anything, so a refused action leaves no trace."""
        action = require_action(action, ACTION_TYPES)
        kind = action["type"]
        if not is_seat(seat, PLAYERS):
            raise IllegalAction(f"There is no seat {seat!r} in Gin Rummy.", ErrorCode.BAD_SEAT)
        if self.phase == "over":
            raise IllegalAction("The game is over.", ErrorCode.GAME_OVER)
        if kind == "next_hand":
            _expect_keys(action, ())
            if self.phase != "hand_over":
                raise IllegalAction("The hand is still being played.", ErrorCode.WRONG_PHASE)
            self.apply_automatic()
            return
        if self.phase == "hand_over":
            raise IllegalAction("The hand is over: the next hand must be dealt first.", ErrorCode.WRONG_PHASE)
        if seat != self.current_player:
            raise NotYourTurn("It is not your turn.")
        if kind in ("take_upcard", "pass"):
            _expect_keys(action, ())
            if self.phase != "upcard":
                raise IllegalAction("The upcard has already been decided.", ErrorCode.WRONG_PHASE)
            self._upcard(seat, kind == "take_upcard")
        elif kind == "draw":
            _expect_keys(action, ("source",))
            if self.phase != "draw":
                raise IllegalAction("You have already drawn this turn." if self.phase == "discard"
                                    else "Decide on the upcard first.", ErrorCode.WRONG_PHASE)
            source = action.get("source")
            if source not in ("stock", "discard"):
                raise IllegalAction("source must be 'stock' or 'discard'.", ErrorCode.MALFORMED_ACTION)
            if source == "discard" and self.stock_only:
                raise IllegalAction("Both players passed the upcard: draw from the stock.", ErrorCode.STOCK_ONLY)
            self._draw(seat, source)
        else:
            _expect_keys(action, ("card",))
            if self.phase != "discard":
                raise IllegalAction("Draw a card first.", ErrorCode.WRONG_PHASE)
            card = action.get("card")
            if not isinstance(card, str) or card not in self.hands[seat]:
                raise IllegalAction(f"{card!r} is not a card in your hand.", ErrorCode.NOT_IN_HAND)
            if card == self.taken_card:
                raise IllegalAction("A card just taken from the discard pile cannot be discarded "
                                    "in the same turn.", ErrorCode.JUST_TAKEN)
            rest = [c for c in self.hands[seat] if c != card]
            if kind == "knock":
                deadwood = deadwood_mask(mask_of(rest))
                if deadwood > KNOCK_LIMIT:
                    raise IllegalAction(f"Knocking needs {KNOCK_LIMIT} or fewer deadwood points; "
                                        f"after discarding {card} you would keep {deadwood}.",
                                        ErrorCode.CANNOT_KNOCK)
            self._discard(seat, card, rest, knock=kind == "knock")
        self.moves += 1

    def apply_automatic(self) -> None:
        if self.phase != "hand_over":
            raise IllegalAction("Nothing happens by itself now.", ErrorCode.NO_AUTOMATIC_STEP)
        self.deal_number += 1
        self.hand_number += 1
        self._deal()
        self.last = {"type": "deal", "dealer": self.dealer, "hand_number": self.hand_number}

    def _upcard(self, seat: int, take: bool) -> None:
        upcard = self.discard_pile[-1]
        if take:
            self.hands[seat].append(self.discard_pile.pop())
            self.taken_card = upcard
            self.phase = "discard"
            self.history.append({"seat": seat, "action": "take", "card": upcard})
            self.last = {"type": "take_upcard", "seat": seat, "card": upcard}
            return
        self.upcard_passes += 1
        self.history.append({"seat": seat, "action": "pass", "card": upcard})
        self.last = {"type": "pass", "seat": seat, "card": upcard}
        if self.upcard_passes == 1:
            self.current_player = self.dealer
        else:
            self.current_player = 1 - self.dealer
            self.phase = "draw"
            self.stock_only = True

    def _draw(self, seat: int, source: str) -> None:
        if source == "stock":
            top = self.discard_pile[-1] if self.discard_pile else None
            self.hands[seat].append(self.stock.pop())
            self.taken_card = None
            self.history.append({"seat": seat, "action": "draw_stock", "passed": top})
            self.last = {"type": "draw", "seat": seat, "source": "stock"}
        else:
            card = self.discard_pile.pop()
            self.hands[seat].append(card)
            self.taken_card = card
            self.history.append({"seat": seat, "action": "take", "card": card})
            self.last = {"type": "draw", "seat": seat, "source": "discard", "card": card}
        self.stock_only = False
        self.phase = "discard"

    def _discard(self, seat: int, card: str, rest: list[str], knock: bool) -> None:
        self.hands[seat] = rest
        self.discard_pile.append(card)
        self.taken_card = None
        self.history.append({"seat": seat, "action": "knock" if knock else "discard", "card": card})
        if knock:
            self._score_knock(seat, card)
        elif len(self.stock) <= DEAD_STOCK:
            self._end_dead_hand(seat, card)
        else:
            self.last = {"type": "discard", "seat": seat, "card": card}
            self.current_player = 1 - seat
            self.phase = "draw"

    # --- end of a hand -----------------------------------------------------------------------

    def _score_knock(self, knocker: int, card: str) -> None:
        defender = 1 - knocker
        knocker_mask = mask_of(self.hands[knocker])
        defender_mask = mask_of(self.hands[defender])
        knocker_deadwood, splits = all_best_splits_mask(knocker_mask)
        layoffs: list[tuple[int, int]]
        if knocker_deadwood == 0:
            # Gin: no layoffs; any best split shows the same thing.
            melds = splits[0]
            defender_deadwood, layoffs, defender_melds = deadwood_mask(defender_mask), [], split_mask(defender_mask)[1]
        else:
            # The knocker lays down the best split that leaves the defender the most deadwood.
            chosen: tuple[tuple[int, ...], tuple[int, list[tuple[int, int]], tuple[int, ...]]] | None = None
            for melds in splits:
                laid = lay_off_mask(melds, defender_mask)
                if chosen is None or laid[0] > chosen[1][0]:
                    chosen = (melds, laid)
            assert chosen is not None  # a hand has at least one best split
            melds, (defender_deadwood, layoffs, defender_melds) = chosen
        if knocker_deadwood == 0:
            outcome, winner, points = "gin", knocker, defender_deadwood + GIN_BONUS
        elif knocker_deadwood < defender_deadwood:
            outcome, winner, points = "knock", knocker, defender_deadwood - knocker_deadwood
        else:
            outcome, winner = "undercut", defender
            points = knocker_deadwood - defender_deadwood + UNDERCUT_BONUS
        laid_mask = sum(1 << i for i, _ in layoffs)
        sides: list[JSON | None] = [None, None]
        sides[knocker] = _side(knocker_mask, melds)
        sides[defender] = _side(defender_mask & ~laid_mask, defender_melds)
        deadwoods = [0, 0]
        deadwoods[knocker], deadwoods[defender] = knocker_deadwood, defender_deadwood
        self._finish_hand({
            "outcome": outcome,
            "knocker": knocker,
            "knock_card": card,
            "winner": winner,
            "points": points,
            "deadwoods": deadwoods,
            "hands": sides,
            "layoffs": [{"card": CARDS[i], "meld": number} for i, number in layoffs],
        })

    def _end_dead_hand(self, seat: int, card: str) -> None:
        sides = []
        for hand in self.hands:
            mask = mask_of(hand)
            sides.append(_side(mask, split_mask(mask)[1]))
        self._finish_hand({
            "outcome": "dead",
            "knocker": None,
            "knock_card": None,
            "winner": None,
            "points": 0,
            "deadwoods": [side["deadwood"] for side in sides],
            "hands": sides,
            "layoffs": [],
            "last_discard": {"seat": seat, "card": card},
        })

    def _finish_hand(self, summary: JSON) -> None:
        winner, points = summary["winner"], summary["points"]
        if winner is not None:
            self.points[winner] += points
            self.dealer = winner  # the winner of a hand deals the next; a dead hand keeps the dealer
        summary.update({"hand_number": self.hand_number, "scores": self.scores()})
        if self.last_hand is not None:
            self.previous_hands.append(self.last_hand)
        self.last_hand = summary
        self.hand_outcomes.append({"outcome": summary["outcome"], "winner": winner, "points": points})
        self.last = {"type": "hand_over", "outcome": summary["outcome"], "seat": summary["knocker"],
                     "winner": winner, "points": points}
        self.current_player = None
        self.taken_card = None
        self.phase = "over" if max(self.points) >= self.target else "hand_over"
        if self.phase == "over":
            self.last["type"] = "game_over"

    # --- views and persistence ---------------------------------------------------------------

    def hidden_cards(self, seat: int | None) -> list[str]:
        """The stock, and while a hand is played every other hand's cards except those taken
        from the discard pile (public); a finished hand is shown whole."""
        hidden = list(self.stock)
        if self.phase in PLAYING:
            for other in range(PLAYERS):
                if other != seat:
                    known = self.known_cards(other)
                    hidden += [card for card in self.hands[other] if card not in known]
        return hidden

    def view(self, seat: int | None) -> JSON:
        require_viewer(seat, PLAYERS, f"There is no seat {seat!r} in Gin Rummy.")
        playing = self.phase in PLAYING
        known = [self.known_cards(s) for s in range(PLAYERS)]
        counts = [len(h) for h in self.hands]
        last = dict(self.last) if self.last else None
        if last and seat is not None and last.get("source") == "stock" and last["seat"] == seat \
                and self.phase == "discard":
            last["card"] = self.hands[seat][-1]  # only the drawer learns what came off the stock
        view = common_view(self, seat, game=GAME, last=last, options={"players": PLAYERS, "target": self.target})
        view.update({
            "target": self.target,
            "phase": self.phase,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "hand": self._hand_view(seat) if seat is not None and playing else None,
            "card_counts": counts if playing else [0, 0],
            "known_cards": known if playing else [[], []],
            "opponent": None,
            "discard_pile": list(self.discard_pile) if playing else [],
            "stock_count": len(self.stock) if playing else 0,
            "cannot_discard": self.taken_card,
            "upcard_passes": self.upcard_passes,
            "stock_only": self.stock_only,
            "history": [dict(event) for event in self.history] if playing else [],
            "last_hand": _copy(self.last_hand),
            "previous_hands": _copy(self.previous_hands),
        })
        if seat is not None:
            other = 1 - seat
            view["opponent"] = {"seat": other, "card_count": view["card_counts"][other],
                                "known_cards": view["known_cards"][other]}
        return view

    def _hand_view(self, seat: int) -> JSON:
        hand = _split_for_display(self.hands[seat])
        full = len(self.hands[seat]) == HAND_SIZE + 1
        hand["deadwood_after_discard"] = (
            _deadwood_after_discard(mask_of(self.hands[seat]), self.taken_card) if full else None)
        return hand

    def to_json(self) -> JSON:
        data = {item.name: getattr(self, item.name) for item in fields(self)}
        data["scores"] = data.pop("points")
        return _copy(data)

    def copy(self) -> State:
        return State(**_copy({item.name: getattr(self, item.name) for item in fields(self)}))

    @classmethod
    def from_json(cls, data: JSON) -> State:
        """The state back, refused (``invalid_state``) unless every invariant below holds."""
        stored = {"scores" if item.name == "points" else item.name for item in fields(cls)}
        if not isinstance(data, dict) or set(data) != stored:
            raise InvalidState("Not a Gin Rummy state: it must have exactly the fields "
                               f"{', '.join(sorted(stored))}.")
        values = _copy(data)
        values["points"] = values.pop("scores")
        state = cls(**values)
        try:
            problem = next((problem for holds, problem in state._invariants() if not holds()), None)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            problem = f"a field has the wrong shape ({exc})"
        if problem:
            raise InvalidState(f"Not a valid Gin Rummy state: {problem}.")
        return state

    def _invariants(self) -> tuple[tuple[Callable[[], bool], str], ...]:
        """Checks in order (a later one relies on the earlier ones), each with what it means."""
        def whole(value: object, low: int, high: int | None = None) -> bool:
            return is_int(value) and low <= value and (high is None or value <= high)

        def seat_or_none(value: object) -> bool:
            return value is None or is_seat(value, PLAYERS)

        def json_or_none(value: object) -> bool:
            return value is None or isinstance(value, dict)

        playing = self.phase in PLAYING
        return (
            (lambda: whole(self.target, MIN_TARGET, MAX_TARGET) and is_int(self.seed)
             and whole(self.deal_number, 0) and whole(self.hand_number, 1) and whole(self.moves, 0),
             "target, seed and counters must be whole numbers in range"),
            (lambda: isinstance(self.points, list) and len(self.points) == PLAYERS
             and all(whole(p, 0) for p in self.points), "one score of 0 or more per seat"),
            (lambda: is_seat(self.dealer, PLAYERS) and seat_or_none(self.current_player),
             "the dealer and the player to act must be seats"),
            (lambda: self.phase in PHASES, f"the phase must be one of {', '.join(PHASES)}"),
            (lambda: (self.current_player is None) != playing,
             "someone is to act exactly while a hand is played"),
            (lambda: (self.phase == "over") == (max(self.points) >= self.target),
             "the game is over exactly when a score reaches the target"),
            (lambda: isinstance(self.hands, list) and len(self.hands) == PLAYERS
             and all(isinstance(hand, list) for hand in (*self.hands, self.stock, self.discard_pile))
             and sorted(card for cards in (*self.hands, self.stock, self.discard_pile) for card in cards)
             == sorted(CARDS),
             "the 52 cards must each be in a hand, the stock or the discard pile exactly once"),
            (lambda: [len(hand) for hand in self.hands]
             == [HAND_SIZE + (self.phase == "discard" and seat == self.current_player)
                 for seat in range(PLAYERS)],
             "a hand holds 10 cards, 11 for the player about to discard"),
            (lambda: self.taken_card is None
             or (self.phase == "discard" and self.current_player is not None
                 and self.taken_card in self.hands[self.current_player]),
             "the card just taken must be in the hand of the player about to discard"),
            (lambda: self.upcard_passes in (0, 1, 2) and isinstance(self.stock_only, bool),
             "the upcard is passed at most twice"),
            (lambda: isinstance(self.history, list) and all(isinstance(e, dict) for e in self.history)
             and isinstance(self.hand_outcomes, list)
             and all(isinstance(h, dict) and h.get("outcome") in OUTCOMES for h in self.hand_outcomes)
             and json_or_none(self.last) and json_or_none(self.last_hand)
             and isinstance(self.previous_hands, list)
             and all(isinstance(h, dict) and h.get("outcome") in OUTCOMES for h in self.previous_hands),
             "the history and the finished hands must be JSON objects"),
        )


T = TypeVar("T")


def _copy(data: T) -> T:
    """A deep copy of plain JSON data (much faster than copy.deepcopy, which views need often)."""
    return cast(T, json.loads(json.dumps(data)))


def _side(mask: int, melds: Iterable[int]) -> JSON:
    """One player's cards at the end of a hand: melds and deadwood."""
    loose = mask
    for meld in melds:
        loose &= ~meld
    return {"melds": [cards_of(m) for m in melds], "deadwood_cards": cards_by_rank(loose),
            "deadwood": value_of(loose)}


def _expect_keys(action: JSON, keys: tuple[str, ...]) -> None:
    extra = set(action) - {"type", *keys}
    if extra:
        raise IllegalAction(f"Unexpected field(s) in action: {', '.join(sorted(map(str, extra)))}.",
                            ErrorCode.MALFORMED_ACTION)
