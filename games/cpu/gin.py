"""CPU players for Gin Rummy (docs/gin.md, "CPU players").

Every level decides from its seat's view alone: its hand, the discard pile, the stock's count,
the opponent's card count and the public history of the hand (who took or threw which card to
the discard pile, and which top cards were passed over). None of them searches ahead; they
differ in what they look at:

- ``simple``: the well-known baseline used to measure the others (not in the menu): take the
  face-up card only if it then belongs to some meld with cards of the hand; discard a card
  among those leaving the least deadwood (never the one just taken), at random among equals;
  knock as soon as it may.
- ``easy``: takes the face-up card only for a meld, throws its highest loose card (now and then
  a careless one instead, never weighing what it breaks), and knocks as soon as it may,
  whatever the undercut risk.
- ``normal``: throws a card that leaves the least deadwood; among equal ones, the one keeping
  most unseen cards that would make a meld ("outs"), and not a card that melds with what the
  opponent has visibly picked up; takes a face-up card that lowers its deadwood clearly more
  than a stock card is expected to, or that lets it knock at once; weighs the undercut risk
  with hard's knock plan, a little later in the hand, but never plays on for gin.
- ``hard``: scores every discard by the deadwood it keeps, the unseen cards that would make a
  meld or let it knock next turn ("outs"), and the chance of feeding the opponent, read from
  its pickups, discards and passes. It knocks with the plan below instead of at once.

Hard's knock plan: while the stock is still long and some unseen cards would give it gin, it
keeps the hand closest to gin and plays on (gin scores 25 more and allows no layoffs, and a low
hand held back undercuts an opponent who knocks in haste). Otherwise any legal knock is taken
early in the hand; as the stock runs down the defender has had time to meld, so the deadwood
it knocks with must be lower, and lower still for each card the opponent has visibly picked up
(an undercut costs 25). On its last turn before a dead hand, the alternative is scoring
nothing, so it knocks a little more readily. Gin is always taken, at every level.

Measured strength: bench/results/README.md (``manage.py simulate gin --cpu hard,simple --games 1000``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engines.base import IllegalAction, InvalidOptions
from games.engines.errors import ErrorCode
from games.engines.gin_melds import (
    CARD_INDEX,
    CARD_VALUES,
    CARDS,
    FULL_DECK,
    KNOCK_LIMIT,
    deadwood_mask,
    discard_deadwood_mask,
    indices_of,
    split_mask,
)

LEVELS = ("simple", "easy", "normal", "hard")
DEAD_STOCK = 2  # the engine's rule: a discard that leaves this many stock cards ends the hand


@dataclass(frozen=True)
class KnockPlan:
    """When a level that weighs its knocks knocks (deadwood allowances by stock left)."""
    mid_stock: int = 20         # below this many stock cards, allow only ``mid_allowance``
    late_stock: int = 12        # below this many, only ``late_allowance``
    mid_allowance: int = 8
    late_allowance: int = 6
    per_known_card: int = 1     # one point less per card the opponent has visibly picked up
    last_turn_bonus: int = 2    # on the last turn before a dead hand, this much more
    gin_outs: float | None = 0.04  # wait for gin if this share of unseen cards gives gin (None: never)...
    gin_stock: int = 8          # ...and at least this many cards are left in the stock


@dataclass(frozen=True)
class Style:
    """What a level looks at, and how much weight it gives each thing."""
    discard_rule: str                  # "least_deadwood" | "highest_loose" | "evaluate"
    careless: float = 0.0              # chance of throwing a random loose card instead
    avoids_feeding: bool = False       # among equal discards, not one the opponent visibly melds
    prefers_outs: bool = False         # among equal discards, the one keeping most meld outs
    meld_weight: float = 0.0           # points per point of deadwood an average draw melds away
    knock_weight: float = 0.0          # points per share of unseen cards that let it knock next
    feed_weight: float = 0.0           # points per unit of chance the opponent melds the card
    take_margin: float | None = None   # take a non-meld face-up card that beats the stock by this
    knock_plan: KnockPlan | None = None  # None: knock as soon as it may


STYLES = {
    "simple": Style("least_deadwood"),
    "easy": Style("highest_loose", careless=0.2),
    # Weighs the undercut risk like hard, a little later in the hand, but never plays on for gin.
    "normal": Style("least_deadwood", prefers_outs=True, avoids_feeding=True, take_margin=4.0,
                    knock_plan=KnockPlan(mid_stock=16, late_stock=10, gin_outs=None)),
    "hard": Style("evaluate", meld_weight=2.0, knock_weight=10.0, feed_weight=6.0,
                  take_margin=2.0, knock_plan=KnockPlan()),
}
EVALUATE_BAND = 10  # hard never keeps more than this much deadwood above the least, for outs


def _meld_partners(index: int) -> tuple[tuple[int, int], ...]:
    """Pairs of cards that make a meld together with this card."""
    suit, rank = divmod(index, 13)
    same_rank = [13 * s + rank for s in range(4) if s != suit]
    pairs = [(1 << a, 1 << b) for i, a in enumerate(same_rank) for b in same_rank[i + 1:]]
    for low in (rank - 2, rank - 1, rank):
        if low >= 0 and low + 2 <= 12:
            first, second = (13 * suit + r for r in (low, low + 1, low + 2) if r != rank)
            pairs.append((1 << first, 1 << second))
    return tuple(pairs)


MELD_PARTNERS = tuple(_meld_partners(i) for i in range(52))
# Cards whose fate says something about this card: same rank, or same suit within two ranks.
NEIGHBOURS = tuple(
    sum(1 << j for j in range(52)
        if j != i and (j % 13 == i % 13 or (j // 13 == i // 13 and abs(j - i) <= 2)))
    for i in range(52))


def forms_meld(hand: int, index: int) -> bool:
    """Whether the card makes some meld with two or more cards of the hand."""
    return any(hand & a and hand & b for a, b in MELD_PARTNERS[index])


@dataclass
class Table:
    """What a seat knows, read from its view."""
    hand: int
    taken: int | None       # card just taken from the discard pile (may not be thrown back)
    top: int | None         # top of the discard pile
    opponent_known: int     # cards the opponent took from the pile and still holds
    opponent_threw: int     # cards the opponent threw, or passed over on the pile, this hand
    opponent_hidden: int    # how many of the opponent's cards nobody has seen
    unseen: int             # cards in the stock or hidden in the opponent's hand
    stock: int


def read_table(view: dict[str, Any]) -> Table:
    seat = view["seat"]
    hand = sum(1 << CARD_INDEX[c] for c in view["hand"]["cards"])
    pile_cards = view["discard_pile"]
    pile = sum(1 << CARD_INDEX[c] for c in pile_cards)
    opponent = view["opponent"]
    known = sum(1 << CARD_INDEX[c] for c in opponent["known_cards"])
    threw = 0
    for event in view["history"]:
        if event["seat"] == seat:
            continue
        card = event.get("passed") if event["action"] == "draw_stock" else event.get("card")
        if card and event["action"] in ("pass", "draw_stock", "discard", "knock"):
            threw |= 1 << CARD_INDEX[card]
    taken = view["cannot_discard"]
    return Table(
        hand=hand,
        taken=CARD_INDEX[taken] if taken and view["phase"] == "discard" else None,
        top=CARD_INDEX[pile_cards[-1]] if pile_cards else None,
        opponent_known=known,
        opponent_threw=threw,
        opponent_hidden=opponent["card_count"] - bin(known).count("1"),
        unseen=FULL_DECK & ~hand & ~pile & ~known,
        stock=view["stock_count"],
    )


class GinCpu:
    def __init__(self, level: str, seat: int, seed: int):
        if level not in LEVELS:
            raise InvalidOptions(f"Unknown CPU level {level!r}; expected one of {', '.join(LEVELS)}.")
        self.level = level
        self.style = STYLES[level]
        self.seat = seat
        self.seed = seed

    def to_json(self) -> dict[str, Any]:
        return {"game": "gin", "level": self.level, "seat": self.seat, "seed": self.seed}

    def observe(self, view: dict[str, Any]) -> None:
        """Nothing to remember: the view carries the whole public history of the hand."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        if not view["legal_actions"]:
            raise IllegalAction(f"Seat {self.seat} has nothing to do now.", ErrorCode.NOT_YOUR_TURN)
        phase = view["phase"]
        if phase == "hand_over":
            return {"type": "next_hand"}
        table = read_table(view)
        if phase == "upcard":
            return {"type": "take_upcard"} if self._takes(table) else {"type": "pass"}
        if phase == "draw":
            if view["stock_only"]:
                return {"type": "draw", "source": "stock"}
            return {"type": "draw", "source": "discard" if self._takes(table) else "stock"}
        # Random choices come from a generator seeded by this decision's place in the game, so
        # the same seed and the same views always give the same choices.
        rng = random.Random(f"{self.seed}/{view['hand_number']}/{view['moves']}")
        return self._discard(table, rng)

    # --- drawing -------------------------------------------------------------------------------

    def _takes(self, table: Table) -> bool:
        top = table.top
        if top is None:
            return False
        # Deadwood after taking it (it may not be thrown back this turn). No level takes a card
        # that does not lower its deadwood: two CPUs could otherwise pass cards back and forth
        # for ever without the stock going down.
        with_top = table.hand | 1 << top
        kept = min((with_top & ~(1 << i) for i in indices_of(table.hand)), key=deadwood_mask)
        after_take = deadwood_mask(kept)
        if after_take >= deadwood_mask(table.hand):
            return False
        if forms_meld(table.hand, top):
            return True
        if self.style.take_margin is None:
            return False
        # Against what a stock card gives on average; a card that brings it within knocking
        # range is taken if it would knock or play on for gin with it.
        if after_take <= KNOCK_LIMIT and (self._knocks(table, after_take, table.stock)
                                          or self._waits_for_gin(table, kept, table.stock)):
            return True
        return after_take + self.style.take_margin <= self._expected_after_stock(table)

    def _expected_after_stock(self, table: Table) -> float:
        unseen = indices_of(table.unseen)
        if not unseen:
            return deadwood_mask(table.hand)
        return sum(discard_deadwood_mask(table.hand | 1 << u) for u in unseen) / len(unseen)

    # --- discarding ------------------------------------------------------------------------------

    def _discard(self, table: Table, rng: random.Random) -> dict[str, Any]:
        candidates = [i for i in indices_of(table.hand) if i != table.taken]
        left = {i: deadwood_mask(table.hand & ~(1 << i)) for i in candidates}
        if table.taken is not None:
            # A card taken from the pile must pay for itself (see _takes): keep the deadwood
            # below what it was before the take.
            before = deadwood_mask(table.hand & ~(1 << table.taken))
            candidates = [i for i in candidates if left[i] < before] or candidates
            left = {i: left[i] for i in candidates}
        least = min(left.values())
        lowest = [i for i in candidates if left[i] == least]
        if least <= KNOCK_LIMIT:
            if least and self.style.knock_plan:
                # Of the discards that could knock, the one keeping most outs to gin.
                closest = max(lowest, key=lambda i: self._gin_outs(table, table.hand & ~(1 << i)))
                if self._waits_for_gin(table, table.hand & ~(1 << closest), table.stock):
                    return {"type": "discard", "card": CARDS[closest]}
            if self._knocks(table, least, table.stock):
                return {"type": "knock", "card": CARDS[self._safest(table, lowest, rng)]}
        rule = self.style.discard_rule
        if rule == "least_deadwood":
            if self.style.prefers_outs:
                lowest = self._most_outs(table, lowest, least)
            card = self._safest(table, lowest, rng)
        elif rule == "highest_loose":
            card = self._highest_loose(table, candidates, lowest, rng)
        else:
            card = self._evaluated(table, candidates, left)
        return {"type": "discard", "card": CARDS[card]}

    def _safest(self, table: Table, cards: list[int], rng: random.Random) -> int:
        """One of equally good cards: the least likely to feed the opponent, if the level looks."""
        style = self.style
        if style.discard_rule == "evaluate":
            return min(cards, key=lambda i: self._feeds(table, i))
        if style.avoids_feeding:
            safe = [i for i in cards if not forms_meld(table.opponent_known, i)]
            cards = safe or cards
        return rng.choice(cards)

    def _highest_loose(self, table: Table, candidates: list[int], lowest: list[int], rng: random.Random) -> int:
        _, melds = split_mask(table.hand)
        loose = [i for i in candidates if not any(m >> i & 1 for m in melds)]
        if not loose:
            return lowest[0]
        if rng.random() < self.style.careless:
            return rng.choice(loose)
        highest = max(CARD_VALUES[i] for i in loose)
        return rng.choice([i for i in loose if CARD_VALUES[i] == highest])

    def _evaluated(self, table: Table, candidates: list[int], left: dict[int, int]) -> int:
        """The discard with the lowest score: deadwood kept, minus what the next draw is likely
        to bring (deadwood melded away, the chance to knock), plus the risk of feeding."""
        least = min(left.values())
        unseen = indices_of(table.unseen)
        best_card, best_score = None, None
        for card in candidates:
            if left[card] > least + EVALUATE_BAND:
                continue
            score = self.discard_score(table, card, left[card], unseen)
            if best_score is None or score < best_score:
                best_card, best_score = card, score
        assert best_card is not None, "a candidate leaves the least deadwood"
        return best_card

    def discard_score(self, table: Table, card: int, deadwood: int, unseen: list[int]) -> float:
        """What throwing ``card`` (keeping ``deadwood``) is worth to this level, lower better:
        the deadwood kept, minus what the next draw is likely to bring, plus the risk of feeding
        the opponent (also the review's yardstick, games/review/gin.py)."""
        style = self.style
        meld_gain, knock_outs = self._prospects(table.hand & ~(1 << card), deadwood, unseen)
        return (deadwood - style.meld_weight * meld_gain - style.knock_weight * knock_outs
                + style.feed_weight * self._feeds(table, card))

    def _most_outs(self, table: Table, cards: list[int], deadwood: int) -> list[int]:
        """Of discards leaving the same deadwood, those keeping the most meld outs."""
        if len(cards) == 1:
            return cards
        unseen = indices_of(table.unseen)
        gains = {i: self._prospects(table.hand & ~(1 << i), deadwood, unseen)[0] for i in cards}
        return [i for i in cards if gains[i] == max(gains.values())]

    @staticmethod
    def _prospects(rest: int, deadwood: int, unseen: list[int]) -> tuple[float, float]:
        """What one unseen card brings these 10 cards, on average: deadwood melded away (by
        cards that make a meld with the hand), and the chance to be able to knock."""
        if not unseen:
            return 0.0, 0.0
        meld_gain = knock_outs = 0
        for u in unseen:
            after = discard_deadwood_mask(rest | 1 << u)
            if forms_meld(rest, u):
                meld_gain += deadwood - after
            if after <= KNOCK_LIMIT:
                knock_outs += 1
        return meld_gain / len(unseen), knock_outs / len(unseen)

    def _feeds(self, table: Table, card: int) -> float:
        """Chance that the opponent can meld this card (and so would take it)."""
        threw = table.opponent_threw
        if threw >> card & 1:
            return 0.0  # it has already passed over this very card
        known, unseen = table.opponent_known, table.unseen
        share = table.opponent_hidden / max(1, bin(unseen).count("1"))

        def held(bit: int) -> float:
            if known & bit:
                return 1.0
            if not unseen & bit:
                return 0.0
            # A card next to one the opponent threw away is less likely to be in its hand.
            return share * (0.5 if NEIGHBOURS[bit.bit_length() - 1] & threw else 1.0)

        miss = 1.0
        for a, b in MELD_PARTNERS[card]:
            miss *= 1.0 - held(a) * held(b)
        return 1.0 - miss

    # --- knocking ------------------------------------------------------------------------------

    def _knocks(self, table: Table, deadwood: int, stock: int) -> bool:
        """Whether to knock with ``deadwood`` (at most 10), ``stock`` cards left in the stock
        (the caller has already decided not to wait for gin)."""
        plan = self.style.knock_plan
        if plan is None or deadwood == 0:
            return True
        if stock >= plan.mid_stock:
            allowance = KNOCK_LIMIT
        elif stock >= plan.late_stock:
            allowance = plan.mid_allowance
        else:
            allowance = plan.late_allowance
        allowance -= plan.per_known_card * bin(table.opponent_known).count("1")
        if stock <= DEAD_STOCK:
            allowance += plan.last_turn_bonus
        return deadwood <= allowance

    def _waits_for_gin(self, table: Table, kept: int, stock: int) -> bool:
        """Whether to keep these 10 cards (deadwood at most 10) and play on for gin."""
        plan = self.style.knock_plan
        return (plan is not None and plan.gin_outs is not None and stock >= plan.gin_stock
                and self._gin_outs(table, kept) >= plan.gin_outs)

    def _gin_outs(self, table: Table, kept: int) -> float:
        """Share of unseen cards that would give these 10 cards gin next turn."""
        unseen = indices_of(table.unseen)
        if not unseen:
            return 0.0
        return sum(1 for u in unseen if discard_deadwood_mask(kept | 1 << u) == 0) / len(unseen)


def make_cpu(level: str, seat: int, seed: int, options: dict[str, Any] | None = None) -> GinCpu:
    """``options`` are accepted for the common interface; no level needs them."""
    return GinCpu(level, seat, seed)


def cpu_from_json(data: dict[str, Any]) -> GinCpu:
    return GinCpu(data["level"], data["seat"], data["seed"])
