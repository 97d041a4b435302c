"""What a Memory position is worth, and what each choice of card is worth, in expected pairs,
from the exact tables the hard CPU plays by (games/cpu/memory_tables.py, docs/memory.md).

The tables describe the perfect-memory game: everybody remembers every card ever shown. A
position is therefore the cards shown and still face down on the table (``known``, by identity)
and the cards not shown yet (``unseen``, a multiset: where each lies is unknown, what they are is
not). Values are vectors, one entry a seat, the player to move first (``memory_tables.rotate``
turns them to another seat's frame); with one player the single entry is minus the expected
failed turns, as in the tables.

Every figure comes from the tables; this module only plays out the one or two flips of a move
that the tables do not name (a known card turned first, a known pair left on the table, a card
turned second other than the table's choice), each ending in a position the tables value.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from games.cpu import memory_tables
from games.cpu.memory import _KNOWN_PAIR, card_class, class_type
from games.engines.memory import JOKER, Options, cards_match, deck, pair_value

Vector = tuple[float, ...]
UNSEEN = None  # the choice of "a card not shown yet" (all of them are alike to the player)


def _gain(vector: Vector, seat: int, amount: float) -> Vector:
    if not amount:
        return vector
    return vector[:seat] + (vector[seat] + amount,) + vector[seat + 1:]


def _weighted(terms: Iterable[tuple[float, Vector]], players: int) -> Vector:
    total = [0.0] * players
    for weight, vector in terms:
        for seat in range(players):
            total[seat] += weight * vector[seat]
    return tuple(total)


class Values:
    """The tables of one game's options, read for positions of that game."""

    def __init__(self, options: Options):
        self.match = options.match
        self.players = options.players
        self.one_flip = options.one_flip and options.players > 1
        self.solo = options.players == 1
        structure = memory_tables.structure_for_match(options.match)
        self.table = memory_tables.table(structure, options.players, options.one_flip)
        self.class_of = {card: card_class(card, options.match) for card in set(deck(options))}

    # ------------------------------------------------------------------ positions

    def known_pair(self, known: list[str]) -> tuple[str, str] | None:
        """Two known cards that match (only cards of one class can); the jokers first, the
        pair worth most (with one flip a turn the next pair is the next player's)."""
        by_class: dict[str, list[str]] = {}
        found = None
        for card in known:
            same = by_class.setdefault(self.class_of[card], [])
            for other in same:
                if cards_match(other, card, self.match):
                    if card == JOKER:
                        return other, card
                    found = found or (other, card)
            same.append(card)
        return found

    def counts(self, known: list[str], unseen: Counter[str]) -> Counter[str]:
        """The position as the tables count it: classes by type (no known pair in it)."""
        by_class: dict[str, list[str]] = {}
        left: Counter[str] = Counter()
        for card in known:
            by_class.setdefault(self.class_of[card], []).append(card)
            left[self.class_of[card]] += 1
        for card, number in unseen.items():
            left[self.class_of[card]] += number
        counts: Counter[str] = Counter()
        for cls, remaining in left.items():
            kind = class_type(self.match, cls == JOKER, remaining, by_class.get(cls, []))
            assert kind is not None and kind != _KNOWN_PAIR, "known pairs are taken first"
            counts[kind] += 1
        return counts

    def _pair_gain(self, card: str) -> int:
        return 0 if self.solo else pair_value(card)

    def _miss(self, vector: Vector) -> Vector:
        """The turn passes after a failed turn (one player: it costs one failed turn)."""
        return _gain(memory_tables.rotate(vector, 1), 0, -1.0 if self.solo else 0.0)

    def _after_pair(self, card: str, vector: Vector) -> Vector:
        """The mover took a pair of ``card``: it moves on (one flip a turn: the turn passes)."""
        return _gain(memory_tables.rotate(vector, 1) if self.one_flip else vector, 0,
                     self._pair_gain(card))

    def value(self, known: list[str], unseen: Counter[str], stale: int = 0) -> Vector:
        """The position with the mover to play, ``stale`` turns in a row just passed in it
        (two known cards turned: nothing shown, nothing taken). A known pair is taken first."""
        pair = self.known_pair(known)
        if pair is not None:
            rest = list(known)
            rest.remove(pair[0])
            rest.remove(pair[1])
            return self._after_pair(pair[0], self.value(rest, unseen))
        if not known and not unseen:
            return (0.0,) * self.players
        row = self.table.row(self.counts(known, unseen))
        active = self.table.active(row)
        if self.players >= 2 and len(known) >= 2 and stale < self.players:
            return memory_tables.chain_outcome(active, stale)[0]
        return active  # (after every seat passed once, the first to pass must move)

    # ------------------------------------------------------------------ one move

    def second(self, known: list[str], unseen: Counter[str], first: str, first_known: bool,
               stale: int, choice: str | None) -> Vector:
        """The move's value once ``first`` is face up and ``choice`` is turned second: a known
        card (by identity; ``known`` holds the other face-down known cards) or ``UNSEEN``."""
        if choice is not UNSEEN:
            rest = list(known)
            rest.remove(choice)
            if cards_match(first, choice, self.match):
                return self._after_pair(first, self.value(rest, unseen))
            # Nothing new shown when the first card was known too: a pass.
            return self._miss(self.value(known + [first], unseen, stale + 1 if first_known else 0))
        return self._over_unseen(unseen, lambda card, rest_unseen: (
            self._after_pair(first, self.value(known, rest_unseen)) if cards_match(first, card, self.match)
            else self._miss(self.value(known + [first, card], rest_unseen))))

    def _over_unseen(self, unseen: Counter[str], value_of: Callable[[str, Counter[str]], Vector]) -> Vector:
        """The expected value when an unseen card is turned: ``value_of(card, the unseen cards
        left)`` weighted by how many of each card are unseen."""
        total = sum(unseen.values())
        terms = []
        for card, number in unseen.items():
            rest_unseen = unseen.copy()
            rest_unseen[card] -= 1
            rest_unseen += Counter()
            terms.append((number / total, value_of(card, rest_unseen)))
        return _weighted(terms, self.players)

    def second_choices(self, known: list[str], unseen: Counter[str], first: str) -> list[str | None]:
        """Every different second card: each known card that matches the first, one known card
        that does not (any of them leaves the same position), and an unseen one."""
        matching = [c for c in dict.fromkeys(known) if cards_match(first, c, self.match)]
        other = next((c for c in known if not cards_match(first, c, self.match)), None)
        return matching + ([other] if other is not None else []) + ([UNSEEN] if unseen else [])

    def best_second(self, known: list[str], unseen: Counter[str], first: str, first_known: bool,
                    stale: int) -> tuple[Vector, str | None]:
        """The best second card and its value (ties: a match, then a new card)."""
        best: tuple[Vector, str | None] | None = None
        choices = sorted(self.second_choices(known, unseen, first),
                         key=lambda c: 0 if c is not UNSEEN and cards_match(first, c, self.match)
                         else 1 if c is UNSEEN else 2)
        for choice in choices:
            vector = self.second(known, unseen, first, first_known, stale, choice)
            if best is None or vector[0] > best[0][0] + memory_tables.TIE:
                best = (vector, choice)
        assert best is not None, "a second card is always there to turn"
        return best

    def first(self, known: list[str], unseen: Counter[str], stale: int, choice: str | None) -> Vector:
        """The move's value when ``choice`` (a known card, or ``UNSEEN``) is turned first and
        the best second card follows."""
        if choice is not UNSEEN:
            rest = list(known)
            rest.remove(choice)
            return self.best_second(rest, unseen, choice, True, stale)[0]
        if self.known_pair(known) is None:
            # The tables' own value of a 2- or 1-move, whichever is better after the first card.
            return self.table.active(self.table.row(self.counts(known, unseen)))
        return self._over_unseen(
            unseen, lambda card, rest_unseen: self.best_second(known, rest_unseen, card, False, stale)[0])

    def best_first(self, known: list[str], unseen: Counter[str], stale: int) -> tuple[Vector, str]:
        """What the move is worth with the best play, and what that play is: ``pair`` (take a
        known pair), ``new`` (an unseen card first) or ``pass`` (two known cards)."""
        pair = self.known_pair(known)
        if pair is not None:
            return self.first(known, unseen, stale, pair[0]), "pair"
        best = (self.first(known, unseen, stale, UNSEEN), "new") if unseen else None
        if self.players >= 2 and len(known) >= 2 and stale < self.players:
            passed = self._miss(self.value(known, unseen, stale + 1))
            if best is None or passed[0] > best[0][0] + memory_tables.TIE:
                best = (passed, "pass")
        if best is None:  # only known cards left, none matching: impossible on a real table
            best = (self.first(known, unseen, stale, known[0]), "pass")
        return best
