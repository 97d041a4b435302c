"""Memory (Concentration, Pelmanism, shinkei-suijaku): docs/memory.md.

The cards lie face down in a fixed grid. On your turn you flip one face-down card, then a
second. If they match you take both and flip again (``one_flip``: the turn passes instead); if
not, the game enters a *reveal* phase: both stay face up, nobody may act, and the automatic
step ``"conceal"`` (``apply_automatic``; the room applies it after 1.5 s) turns them face down
and passes the turn. The game ends when the table is empty.

Action: ``{"type": "flip", "pos": "B4"}``. Positions are named like the button panel: rows
A, B, C… from the back (top of the grid), columns 1, 2, 3… from the left.

Cards are two-character codes: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` then suit ``S H D C``
(``"TH"`` is the ten of hearts); ``"JK"`` is a joker. Spades and clubs are black, hearts and
diamonds red. Match rules (``match``):

- ``rank``: same rank;
- ``colour``: same rank and colour (each card has exactly one partner);
- ``zebra``: same rank, opposite colour;
- ``identical``: the same card of two decks (``cards=104``), or the same picture.

Jokers match only each other, whatever the rule, and count as two pairs.

The picture deck (``deck="pictures"``) deals pairs of pictures instead of playing cards: a card
is then a picture's name (``PICTURES``, e.g. ``"cat"``), each of the first ``cards / 2``
pictures twice, matched with ``identical`` and without jokers; it has 24, 40 or 52 cards.

The long table (``long_table``) lays 52 cards out in 13 columns and 4 rows instead of 9 × 6.

Scores: with two or more players a seat's score is the cards it has taken (a pair is 2, the
joker pair 4); most cards wins and a tie for first is a draw. Solo (one player) scores the pairs
taken (the joker pair counts 2) and ``result()["failed_flips"]`` is the number of turns whose two
cards did not match: fewer is better.

Pairs won against another player: a pair counts against every other seat that had turned one of
its two cards face up before it was taken (``result()["pairs_against"][taker][other]``). A
room's session breaks a tie of running totals with them (games/rooms/sessions.py).

Tie-break round (``tie_break``, off by default): when the table is empty and two or more players
tie for first, 8 cards (4 pairs) drawn from the tied players' piles are shuffled and laid face
down in 2 rows of 4, and only the tied players play them, under the same rules, in turn order.
The player who takes the most pairs of the round wins the game; when two or more tie for most
of the round, a new round is drawn for them alone, until one wins. The piles are not changed:
the round decides the winner, the scores stay those of the game. Its draws come from a seed
dealt with the game and kept secret, so a game replays exactly.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field, fields
from functools import cache, cached_property

from games.engines.base import (
    JSON,
    IllegalAction,
    InvalidOptions,
    InvalidState,
    NotYourTurn,
    SessionTally,
    common_view,
    is_int,
    is_seat,
    ranking_from_scores,
    require_action,
    require_seed,
    require_viewer,
)
from games.engines.errors import ErrorCode

GAME = "memory"
EARLIER_DEALS: tuple[str, ...] = ()  # one deal per game
MIN_PLAYERS, MAX_PLAYERS = 1, 6
DECK_SIZES = (24, 40, 52, 104)
MATCH_RULES = ("rank", "colour", "zebra", "identical")
RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = "HD"
JOKER = "JK"
RANKS_IN_DECK = {24: 6, 40: 10, 52: 13, 104: 13}
DECKS = ("playing_cards", "pictures")
# The pictures, in the order of the sprite that draws them (site/img/pictures.svg); a deck of
# n cards holds the first n / 2, twice each.
PICTURES = (
    "apple", "banana", "cherries", "carrot", "mushroom", "leaf", "flower", "tree", "sun",
    "cloud", "star", "umbrella", "house", "car", "boat", "key", "cup", "clock", "bell",
    "balloon", "fish", "cat", "bird", "snail", "butterfly", "book",
)
PICTURE_DECK_SIZES = (24, 40, 52)

# Columns × rows per number of cards on the table; cards fill rows left to right from row A,
# so the last row holds what is left (52: 7 cards).
GRIDS = {
    24: (6, 4), 26: (7, 4),
    40: (8, 5), 42: (7, 6),
    52: (9, 6), 54: (9, 6),
    104: (13, 8), 106: (12, 9),
}
LONG_TABLE = (13, 4)  # 52 cards only

FIRST, SECOND, REVEAL, OVER = "first", "second", "reveal", "over"
ROUND_COLUMNS, ROUND_PAIRS = 4, 4  # a tie-break round: 4 pairs in rows of 4
_POSITION = re.compile(r"[A-Z][1-9][0-9]?")  # ASCII only: "A١" is not A1
PHASES = (FIRST, SECOND, REVEAL, OVER)
STATE_FIELDS = {"game", "options", "cards", "taken_by", "face_up", "phase", "turn_seat", "pairs",
                "failed", "moves", "turn_number", "last", "seen", "against", "tie_break"}  # to_json's keys
# A room's state is stored between moves, so games in play when these fields came (with the
# tie-break round and the pairs won against each other) were saved without them; they load as
# games in which no card still down was seen, no pair was won against anyone and no round began.
ADDED_WITH_SESSIONS = {"seen", "against", "tie_break"}


def _with_session_fields(data: JSON) -> JSON:
    players = parse_options(data["options"]).players
    return {**data, "seen": [0] * len(data["cards"]),
            "against": [[0] * players for _ in range(players)], "tie_break": None}


@dataclass(frozen=True)
class Options:
    players: int = 2
    cards: int = 52
    jokers: bool = False
    match: str = "rank"
    one_flip: bool = False
    deck: str = "playing_cards"
    long_table: bool = False
    tie_break: bool = False

    def to_json(self) -> JSON:
        """The canonical options. The picture deck, the long table and the tie-break round are
        named only when chosen, so a game with playing cards on the usual grid has the same
        options as before they existed (its records' settings compare equal to the older ones')."""
        options = {"players": self.players, "cards": self.cards, "jokers": self.jokers,
                   "match": self.match, "one_flip": self.one_flip}
        if self.deck != Options.deck:
            options["deck"] = self.deck
        if self.long_table:
            options["long_table"] = True
        if self.tie_break:
            options["tie_break"] = True
        return options

    @property
    def table_size(self) -> int:
        """Cards on the table at the start (the deck plus the jokers)."""
        return self.cards + (2 if self.jokers else 0)


def parse_options(raw: Options | JSON | None) -> Options:
    """Validates options. With playing cards ``identical`` goes with two decks (104) and only
    with them: when one of ``cards=104`` / ``match=identical`` is given alone the other is
    implied. The picture deck implies ``identical``."""
    if raw is None:
        return Options()
    if isinstance(raw, Options):
        return raw
    if not isinstance(raw, dict):
        raise InvalidOptions("Options must be a JSON object.")
    unknown = sorted(set(raw) - {field.name for field in fields(Options)})
    if unknown:
        raise InvalidOptions(f"Unknown option(s) for Memory: {', '.join(map(str, unknown))}.")
    players = raw.get("players", Options.players)
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions(f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}.")
    deck_kind = raw.get("deck", Options.deck)
    if deck_kind not in DECKS:
        raise InvalidOptions(f"deck must be one of {', '.join(DECKS)}.")
    if deck_kind == "pictures":
        cards, match, jokers = _picture_options(raw)
    else:
        cards, match, jokers = _playing_card_options(raw)
    one_flip = raw.get("one_flip", Options.one_flip)
    if not isinstance(one_flip, bool):
        raise InvalidOptions("one_flip must be true or false.")
    long_table = raw.get("long_table", Options.long_table)
    if not isinstance(long_table, bool):
        raise InvalidOptions("long_table must be true or false.")
    if long_table and (cards != 52 or jokers):
        raise InvalidOptions("The long table (13 columns, 4 rows) holds 52 cards without jokers.")
    tie_break = raw.get("tie_break", Options.tie_break)
    if not isinstance(tie_break, bool):
        raise InvalidOptions("tie_break must be true or false.")
    return Options(players, cards, jokers, match, one_flip, deck_kind, long_table, tie_break)


def _playing_card_options(raw: JSON) -> tuple[int, str, bool]:
    default_cards = 104 if raw.get("match") == "identical" else Options.cards
    cards = raw.get("cards", default_cards)
    if not is_int(cards) or cards not in DECK_SIZES:
        raise InvalidOptions("cards must be 24, 40, 52 or 104 (two decks).")
    match = raw.get("match", "identical" if cards == 104 else Options.match)
    if match not in MATCH_RULES:
        raise InvalidOptions(f"match must be one of {', '.join(MATCH_RULES)}.")
    if (cards == 104) != (match == "identical"):
        raise InvalidOptions("Two decks (cards=104) are played with match=identical, and "
                             "match=identical needs two decks.")
    return cards, match, _jokers(raw)


def _picture_options(raw: JSON) -> tuple[int, str, bool]:
    """Pairs of identical pictures: 24, 40 or 52 cards (up to 26 pictures), no jokers."""
    cards = raw.get("cards", Options.cards)
    if not is_int(cards) or cards not in PICTURE_DECK_SIZES:
        raise InvalidOptions(f"The picture deck has 24, 40 or 52 cards ({len(PICTURES)} "
                             "pictures at most, two of each).")
    match = raw.get("match", "identical")
    if match != "identical":
        raise InvalidOptions("Pictures match only the same picture: the picture deck is "
                             "played with match=identical.")
    if _jokers(raw):
        raise InvalidOptions("The picture deck has no jokers.")
    return cards, match, False


def _jokers(raw: JSON) -> bool:
    jokers = raw.get("jokers", Options.jokers)
    if not isinstance(jokers, bool):
        raise InvalidOptions("jokers must be true or false.")
    return jokers


# ---------------------------------------------------------------------------- cards

def deck(options: Options) -> list[str]:
    """The cards of the game, in a fixed order (before the shuffle)."""
    if options.deck == "pictures":
        return [picture for picture in PICTURES[:options.cards // 2] for _ in range(2)]
    ranks = RANKS[:RANKS_IN_DECK[options.cards]]
    one_deck = [rank + suit for rank in ranks for suit in SUITS]
    cards = one_deck * (2 if options.cards == 104 else 1)
    return cards + ([JOKER, JOKER] if options.jokers else [])


@cache
def _sorted_deck(options: Options) -> list[str]:
    """The deck in sorted order, which ``State.from_json`` compares a stored game's cards with
    (callers must not change it)."""
    return sorted(deck(options))


def is_red(card: str) -> bool:
    return card[-1] in RED_SUITS


def cards_match(a: str, b: str, rule: str) -> bool:
    if a == JOKER or b == JOKER:
        return a == b
    if rule == "identical":
        return a == b
    if a[0] != b[0]:
        return False
    if rule == "rank":
        return True
    same_colour = is_red(a) == is_red(b)
    return same_colour if rule == "colour" else not same_colour


def pair_value(card: str) -> int:
    """Pairs a pair of these cards is worth: the jokers count as two."""
    return 2 if card == JOKER else 1


# ---------------------------------------------------------------------------- grid

@dataclass(frozen=True)
class Grid:
    columns: int
    rows: int
    count: int

    @property
    def row_lengths(self) -> list[int]:
        full, rest = divmod(self.count, self.columns)
        return [self.columns] * full + ([rest] if rest else [])

    def place(self, index: int) -> tuple[int, int]:
        return divmod(index, self.columns)

    def name(self, index: int) -> str:
        return self.names[index]

    # Names and places are asked for every card of every view: work them out once per grid.
    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(f"{chr(ord('A') + row)}{column + 1}"
                     for row, column in map(self.place, range(self.count)))

    @cached_property
    def cells(self) -> tuple[tuple[str, int, int], ...]:
        """(name, row, column) of each position, for the views' layout."""
        return tuple((name, *self.place(i)) for i, name in enumerate(self.names))

    @cached_property
    def flips(self) -> tuple[JSON, ...]:
        """The flip action of each position (callers copy before changing one)."""
        return tuple({"type": "flip", "pos": name} for name in self.names)

    def index(self, name: object) -> int | None:
        """Position index of a name like ``"B4"``, or None when there is no such card."""
        if not isinstance(name, str) or not _POSITION.fullmatch(name):
            return None
        row, column = ord(name[0]) - ord("A"), int(name[1:]) - 1
        if not 0 <= row < self.rows or not 0 <= column < self.columns:
            return None
        index = row * self.columns + column
        return index if index < self.count else None

    def neighbours(self, index: int) -> list[int]:
        """The cards above, below, left and right of a card (for the CPU's confusions)."""
        row, column = self.place(index)
        around = [(row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)]
        return [r * self.columns + c for r, c in around
                if r >= 0 and 0 <= c < self.columns and r * self.columns + c < self.count]


def grid_for(options: Options) -> Grid:
    columns, rows = LONG_TABLE if options.long_table else GRIDS[options.table_size]
    return _grid(columns, rows, options.table_size)


def round_grid(count: int) -> Grid:
    """A tie-break round's table: rows of ``ROUND_COLUMNS`` (2 rows for its 8 cards)."""
    return _grid(ROUND_COLUMNS, -(-count // ROUND_COLUMNS), count)


@cache
def _grid(columns: int, rows: int, count: int) -> Grid:
    return Grid(columns, rows, count)  # one per table size, so its cached names are shared


# ---------------------------------------------------------------------------- game

def new_game(options: Options | JSON | None, seed: int) -> State:
    """Deals from the seed (Python's Mersenne Twister): the same seed, the same game."""
    options = parse_options(options)
    rng = random.Random(require_seed(seed))
    cards = deck(options)
    rng.shuffle(cards)
    first = rng.randrange(options.players)
    players = options.players
    # Drawn after the deal, so the deal is the same with or without the option.
    tie_break = TieBreak(rng.getrandbits(63)) if options.tie_break and players > 1 else None
    return State(options, cards, [None] * len(cards), [], FIRST, first, [0] * players,
                 [0] * players, 0, 0, None, tie_break=tie_break)


@dataclass
class TieBreak:
    """The tie-break of one game. ``round`` 0: not needed (yet). From round 1 until there is a
    ``winner`` the table holds the round's cards and ``game_cards``/``game_taken_by`` keep the
    game's own table."""

    seed: int                      # secret: the rounds' draws and shuffles
    round: int = 0
    seats: list[int] = field(default_factory=list)    # who plays this round
    pairs: list[int] = field(default_factory=list)    # per seat, this round
    rounds: list[list[int]] = field(default_factory=list)  # per-seat pairs of rounds played
    winner: int | None = None
    game_cards: list[str] = field(default_factory=list)
    game_taken_by: list[int | None] = field(default_factory=list)

    def to_json(self) -> JSON:
        return {"seed": self.seed, "round": self.round, "seats": list(self.seats),
                "pairs": list(self.pairs), "rounds": [list(r) for r in self.rounds],
                "winner": self.winner, "game_cards": list(self.game_cards),
                "game_taken_by": list(self.game_taken_by)}

    def copy(self) -> TieBreak:
        return TieBreak(self.seed, self.round, list(self.seats), list(self.pairs),
                        [list(r) for r in self.rounds], self.winner, list(self.game_cards),
                        list(self.game_taken_by))

    @classmethod
    def from_json(cls, data: JSON) -> TieBreak:
        winner = data["winner"]
        return cls(int(data["seed"]), int(data["round"]), [int(s) for s in data["seats"]],
                   [int(p) for p in data["pairs"]], [[int(p) for p in r] for r in data["rounds"]],
                   None if winner is None else int(winner), [str(c) for c in data["game_cards"]],
                   [None if s is None else int(s) for s in data["game_taken_by"]])

    @property
    def playing(self) -> bool:
        """A round is on the table (the game's own table waits in ``game_cards``)."""
        return self.round > 0 and self.winner is None

    def public(self) -> JSON:
        """What everybody may see: never the seed nor where the round's cards lie."""
        return {"round": self.round, "seats": list(self.seats), "pairs": list(self.pairs),
                "rounds": [list(r) for r in self.rounds], "winner": self.winner}


def round_cards(cards: list[str], taken_by: list[int | None], seats: list[int], match: str,
                rng: random.Random) -> list[str]:
    """A tie-break round's cards: whole pairs drawn in turn from each tied seat's pile (4 in
    all, fewer only if the piles hold fewer), shuffled."""
    piles = []
    for seat in seats:
        left = [card for card, taker in zip(cards, taken_by, strict=True) if taker == seat]
        pairs = []
        while left:  # any two matching cards of one pile make a pair of it
            first = left.pop(0)
            partner = next(i for i, card in enumerate(left) if cards_match(first, card, match))
            pairs.append([first, left.pop(partner)])
        rng.shuffle(pairs)
        piles.append(pairs)
    drawn: list[str] = []
    while len(drawn) < 2 * ROUND_PAIRS and any(piles):
        for pile in piles:
            if pile and len(drawn) < 2 * ROUND_PAIRS:
                drawn += pile.pop()
    rng.shuffle(drawn)
    return drawn


class State:
    def __init__(self, options: Options, cards: list[str], taken_by: list[int | None],
                 face_up: list[int], phase: str, turn_seat: int, pairs: list[int],
                 failed: list[int], moves: int, turn_number: int, last: JSON | None,
                 seen: list[int] | None = None, against: list[list[int]] | None = None,
                 tie_break: TieBreak | None = None):
        self.options = options
        self.tie_break = tie_break
        self.grid = round_grid(len(cards)) if self.in_tie_break else grid_for(options)
        self.cards = cards          # identity of every position; never leaves the server
        self.taken_by = taken_by    # per position: the seat that took it, or None
        self.face_up = face_up      # positions face up this turn, in the order flipped
        self.phase = phase
        self.turn_seat = turn_seat  # whose turn it is (also while the mismatch is shown)
        self.pairs = pairs          # per seat; the joker pair counts two
        self.failed = failed        # per seat: turns whose two cards did not match
        self.moves = moves          # flips so far
        self.turn_number = turn_number  # turns completed (a new turn begins at each change of seat)
        self.last = last
        # Per position of the game's table: the seats that have turned it up (bit per seat).
        self.seen = seen if seen is not None else [0] * len(cards)
        # against[taker][other]: pairs taker won with a card that other had turned up before.
        self.against = against if against is not None else [[0] * self.players for _ in pairs]

    @property
    def in_tie_break(self) -> bool:
        return self.tie_break is not None and self.tie_break.playing

    # -------------------------------------------------------------- contract

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def current_player(self) -> int | None:
        return self.turn_seat if self.phase in (FIRST, SECOND) else None

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int | None) -> list[JSON]:
        if seat is None or seat != self.current_player:
            return []
        flips = self.grid.flips
        return [dict(flips[i]) for i in self.face_down()]

    def face_down(self) -> list[int]:
        up = set(self.face_up)
        return [i for i, seat in enumerate(self.taken_by) if seat is None and i not in up]

    def pending_automatic(self) -> str | None:
        return "conceal" if self.phase == REVEAL else None

    def apply_automatic(self) -> None:
        if self.phase != REVEAL:
            raise IllegalAction("Nothing happens by itself now.", ErrorCode.NO_AUTOMATIC_STEP)
        concealed = [self.grid.name(i) for i in self.face_up]
        seat = self.turn_seat
        self.face_up = []
        self._next_turn()
        # No identities here: these cards are face down again.
        self.last = {"type": "conceal", "seat": seat, "positions": concealed,
                     "next": self.turn_seat}

    def apply(self, seat: int | None, action: JSON) -> None:
        if self.is_over:
            raise IllegalAction("The game is over.", ErrorCode.GAME_OVER)
        if not is_seat(seat, self.players):
            raise IllegalAction("Only a seated player can flip.", ErrorCode.NOT_A_PLAYER)
        if self.phase == REVEAL:
            raise NotYourTurn("Wait: the two cards are being turned back.")
        if seat != self.turn_seat:
            raise NotYourTurn(f"It is seat {self.turn_seat}'s turn, not seat {seat}'s.")
        require_action(action, ("flip",))
        if set(action) != {"type", "pos"}:
            raise IllegalAction('A flip is {"type": "flip", "pos": "B4"} and nothing else.',
                                ErrorCode.MALFORMED_ACTION)
        index = self.grid.index(action["pos"])
        if index is None:
            raise IllegalAction(f"There is no card at {action['pos']!r}.", ErrorCode.BAD_POSITION)
        name = self.grid.name(index)
        if self.taken_by[index] is not None:
            raise IllegalAction(f"{name} has already been taken.", ErrorCode.CARD_TAKEN)
        if index in self.face_up:
            raise IllegalAction(f"{name} is already face up.", ErrorCode.CARD_FACE_UP)
        self._flip(seat, index)
        self.moves += 1

    def _flip(self, seat: int, index: int) -> None:
        card = self.cards[index]
        self.face_up.append(index)
        if not self.in_tie_break:
            self.seen[index] |= 1 << seat
        event = {"type": "flip", "seat": seat, "pos": self.grid.name(index), "card": card}
        if self.phase == FIRST:
            self.phase = SECOND
            event["result"] = "first"
            self.last = event
            return
        first, second = self.face_up
        if not cards_match(self.cards[first], card, self.options.match):
            self.phase = REVEAL
            self.failed[seat] += 1
            event["result"] = "mismatch"
            self.last = event
            return
        self.taken_by[first] = self.taken_by[second] = seat
        value = pair_value(card)
        if self.tie_break is not None and self.tie_break.playing:
            self.tie_break.pairs[seat] += value
        else:
            self.pairs[seat] += value
            turned_up = self.seen[first] | self.seen[second]
            for other in range(self.players):
                if other != seat and turned_up & (1 << other):
                    self.against[seat][other] += value
        self.face_up = []
        event["result"] = "match"
        event["pair"] = [self.grid.name(first), self.grid.name(second)]
        self.last = event
        if all(taker is not None for taker in self.taken_by):
            self._table_cleared(event)
        elif self.options.one_flip:
            self._next_turn()
        else:
            self.phase = FIRST

    def _next_turn(self) -> None:
        tie = self.tie_break
        playing = tie.seats if tie is not None and tie.playing else list(range(self.players))
        self.turn_seat = next((s for s in playing if s > self.turn_seat), playing[0])
        self.turn_number += 1
        self.phase = FIRST

    def _table_cleared(self, event: JSON) -> None:
        """The game is over, or (tie-break) a round is laid out for the players tied for most."""
        tie = self.tie_break
        if tie is None:
            self.phase = OVER
            return
        if tie.round == 0:
            best = max(self.pairs)
            tied = [s for s, p in enumerate(self.pairs) if p == best]
        else:
            tie.rounds.append(list(tie.pairs))
            best = max(tie.pairs)
            tied = [s for s in tie.seats if tie.pairs[s] == best]
        if len(tied) < 2:
            if tie.round > 0:
                tie.winner = tied[0]
                self.cards, self.taken_by = tie.game_cards, tie.game_taken_by
                self.grid = grid_for(self.options)
            self.phase = OVER
            return
        if tie.round == 0:
            tie.game_cards, tie.game_taken_by = self.cards, self.taken_by
        tie.round += 1
        rng = random.Random(f"{tie.seed}:{tie.round}")
        self.cards = round_cards(tie.game_cards, tie.game_taken_by, tied, self.options.match, rng)
        self.taken_by = [None] * len(self.cards)
        self.grid = round_grid(len(self.cards))
        tie.seats, tie.pairs = tied, [0] * self.players
        self.turn_seat = rng.choice(tied)
        self.turn_number += 1
        self.phase = FIRST
        event["tie_break_round"] = tie.round

    # -------------------------------------------------------------- scores

    def scores(self) -> list[int]:
        if self.players == 1:
            return list(self.pairs)
        return [2 * p for p in self.pairs]

    def session_tally(self) -> SessionTally:
        """The pairs each seat took (a tie-break round's are borrowed from the piles, and not
        counted) and the pairs each won against each other seat."""
        return {"points": list(self.pairs), "against": [list(row) for row in self.against]}

    def result(self) -> JSON:
        if not self.is_over:
            raise IllegalAction("The game is not over yet.", ErrorCode.NOT_OVER)
        scores = self.scores()
        ranking = ranking_from_scores(scores)
        result = {
            "scores": scores,
            "ranking": ranking,
            "winners": ranking[0],
            "draw": len(ranking[0]) > 1,
            "pairs": list(self.pairs),
            "failed_flips": sum(self.failed),
            "failed_flips_by_seat": list(self.failed),
            "pairs_against": [list(row) for row in self.against],
        }
        if self.tie_break is not None and self.tie_break.winner is not None:
            # The round decides the game: its winner alone first, the players it beat next.
            winner = self.tie_break.winner
            ranking = [[winner], [s for s in ranking[0] if s != winner]] + ranking[1:]
            result.update(ranking=ranking, winners=[winner], draw=False,
                          tie_break=self.tie_break.public())
        return result

    # -------------------------------------------------------------- views

    def hidden_cards(self, seat: int | None) -> list[str]:
        """The face-down cards, whoever asks. A card lying face up or taken elsewhere is not
        hidden: the same card twice (two decks, the jokers, the pictures) cannot be told apart."""
        down = set(self.face_down())
        shown = {card for index, card in enumerate(self.cards) if index not in down}
        return sorted({self.cards[index] for index in down} - shown)

    def view(self, seat: int | None) -> JSON:
        """What anyone may see: face-up and taken cards, never a face-down identity."""
        require_viewer(seat, self.players)
        # One dict literal per card, from the grid's table of cells: building each entry and
        # then updating it was most of a view's cost (2-4 views are built per change).
        layout = []
        up = set(self.face_up)
        for index, ((pos, row, column), card, taker) in enumerate(
                zip(self.grid.cells, self.cards, self.taken_by, strict=True)):
            if taker is not None:
                layout.append({"pos": pos, "row": row, "column": column, "state": "taken", "card": card, "by": taker})
            elif index in up:
                layout.append({"pos": pos, "row": row, "column": column, "state": "up", "card": card})
            else:
                layout.append({"pos": pos, "row": row, "column": column, "state": "down"})
        view = common_view(self, seat, game=GAME, last=_copy_last(self.last), options=self.options.to_json())
        view.update({
            "rows": self.grid.rows,
            "columns": self.grid.columns,
            "row_lengths": self.grid.row_lengths,
            "layout": layout,
            "phase": self.phase,
            "turn_seat": None if self.is_over else self.turn_seat,
            "turn_number": self.turn_number,
            "pending": self.pending_automatic(),
            "first": self.grid.name(self.face_up[0]) if self.phase == SECOND else None,
            "pairs": list(self.pairs),
            "failed_flips": sum(self.failed),
            "failed_flips_by_seat": list(self.failed),
            "cards_left": self.taken_by.count(None),
            "tie_break": self.tie_break.public() if self.tie_break is not None else None,
        })
        return view

    # -------------------------------------------------------------- JSON

    def to_json(self) -> JSON:
        return {
            "game": GAME,
            "options": self.options.to_json(),
            "cards": list(self.cards),
            "taken_by": list(self.taken_by),
            "face_up": list(self.face_up),
            "phase": self.phase,
            "turn_seat": self.turn_seat,
            "pairs": list(self.pairs),
            "failed": list(self.failed),
            "moves": self.moves,
            "turn_number": self.turn_number,
            "last": _copy_last(self.last),
            "seen": list(self.seen),
            "against": [list(row) for row in self.against],
            "tie_break": self.tie_break.to_json() if self.tie_break is not None else None,
        }

    def copy(self) -> State:
        tie = self.tie_break
        return State(self.options, list(self.cards), list(self.taken_by), list(self.face_up), self.phase,
                     self.turn_seat, list(self.pairs), list(self.failed), self.moves, self.turn_number,
                     _copy_last(self.last), list(self.seen), [list(row) for row in self.against],
                     None if tie is None else tie.copy())

    @classmethod
    def from_json(cls, data: JSON) -> State:
        try:
            if data["game"] != GAME:
                raise ValueError("not a Memory state")
            if set(data) == STATE_FIELDS - ADDED_WITH_SESSIONS:
                data = _with_session_fields(data)
            if set(data) != STATE_FIELDS:
                raise ValueError(f"the fields must be {', '.join(sorted(STATE_FIELDS))}")
            options = parse_options(data["options"])
            cards = [str(c) for c in data["cards"]]
            taken_by = [None if s is None else int(s) for s in data["taken_by"]]
            face_up = [int(i) for i in data["face_up"]]
            phase = data["phase"]
            turn_seat = int(data["turn_seat"])
            pairs = [int(p) for p in data["pairs"]]
            failed = [int(f) for f in data["failed"]]
            moves = int(data["moves"])
            turn_number = int(data["turn_number"])
            last = _copy_last(data["last"])
            tie_break = TieBreak.from_json(data["tie_break"]) if data["tie_break"] is not None else None
            game_cards, game_taken_by = ((tie_break.game_cards, tie_break.game_taken_by)
                                         if tie_break and tie_break.playing else (cards, taken_by))
            seen = [int(b) for b in data["seen"]]
            against = [[int(p) for p in row]
                       for row in data["against"]]
        except (KeyError, TypeError, ValueError, AttributeError, InvalidOptions) as exc:
            raise InvalidState(f"Not a valid Memory state: {exc}") from exc
        players = options.players

        def pairs_taken() -> list[int]:
            """Per seat, the pairs its cards of the game are worth (a taker out of range counts
            for nobody: the pairs check then fails)."""
            taken = [0] * players
            for card, seat in zip(game_cards, game_taken_by, strict=True):
                if seat is not None and 0 <= seat < players:
                    taken[seat] += pair_value(card)
            return taken

        checks = (
            (lambda: sorted(game_cards) == _sorted_deck(options), "the cards are not this deck"),
            (lambda: (tie_break is None) == (not options.tie_break or players == 1),
             "a tie-break goes with the option"),
            (lambda: tie_break is None or not tie_break.playing or (
                all(s is not None for s in game_taken_by) and not Counter(cards) - Counter(game_cards)
                and len(cards) <= 2 * ROUND_PAIRS and len(tie_break.seats) >= 2
                and set(tie_break.seats) <= set(range(players)) and turn_seat in tie_break.seats
                and len(tie_break.pairs) == players),
             "a tie-break round is played with cards of the game by tied seats"),
            (lambda: len(game_taken_by) == len(game_cards), "one taker (or none) per card of the game"),
            (lambda: len(seen) == len(game_cards) and len(against) == players
             and all(len(row) == players for row in against), "one mark per card, one row per seat"),
            (lambda: len(taken_by) == len(cards) and all(s is None or 0 <= s < players for s in taken_by),
             "one taker (or none) per card, a seat of this game"),
            (lambda: len(pairs) == players and len(failed) == players and 0 <= turn_seat < players,
             "one score per seat"),
            (lambda: phase in PHASES and len(face_up) == {FIRST: 0, SECOND: 1, REVEAL: 2, OVER: 0}.get(phase),
             "the face-up cards do not fit the phase"),
            (lambda: len(set(face_up)) == len(face_up)
             and all(0 <= i < len(cards) and taken_by[i] is None for i in face_up),
             "face-up cards must be distinct cards on the table"),
            (lambda: (phase == OVER) == all(s is not None for s in taken_by),
             "the game ends exactly when the table is empty"),
            (lambda: [2 * p for p in pairs] == pairs_taken(), "the pairs must be those of the cards taken"),
        )
        for check, problem in checks:  # in order: a later check relies on the earlier ones
            if not check():
                raise InvalidState(f"Not a valid Memory state: {problem}.")
        return cls(options, cards, taken_by, face_up, phase, turn_seat, pairs, failed, moves,
                   turn_number, last, seen, against, tie_break)


def _copy_last(last: JSON | None) -> JSON | None:
    if last is None:
        return None
    return {key: list(value) if isinstance(value, list) else value for key, value in last.items()}
