"""CPU players for Gin Rummy (SPEC 4.4).

Every level decides from its seat's view alone: its hand, the discard pile, the stock's count,
the opponent's card count and the public history of the hand (who took or threw which card to
the discard pile, and which top cards were passed). None of them searches ahead; they differ in
what they look at:

- ``simple``: the well-known baseline used to measure the others (not in the menu): take the
  face-up card only if it then belongs to some meld in the hand; discard a card among those
  leaving the least deadwood (never the one just taken), picked at random among equals; knock
  as soon as it may.
- ``easy``: takes the face-up card only for a meld, throws its highest loose card (sometimes a
  careless one instead), and knocks as soon as it may, whatever the undercut risk.
- ``normal``: keeps the hand with the least deadwood, breaking near-ties towards cards that
  many unseen cards would improve ("outs"), avoids throwing a card that melds with what the
  opponent has visibly picked up, and takes a face-up card that lowers its deadwood more than
  a stock card is expected to.
- ``hard``: weighs deadwood against outs over the whole hand, reads the opponent's pickups,
  discards and passes to estimate which cards would feed it, and decides whether to knock
  from its deadwood, how far the hand has gone and the risk of an undercut.

Gin is always taken, at every level.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from games.engines.base import IllegalAction, InvalidOptions
from games.engines.gin_melds import (CARD_INDEX, CARD_VALUES, CARDS, FULL_DECK, KNOCK_LIMIT,
                                     deadwood_mask, discard_deadwood_mask, indices_of, split_mask)

LEVELS = ("simple", "easy", "normal", "hard")
MENU_LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Style:
    """What a level looks at, and how much weight it gives each thing."""
    discard_rule: str              # "least_deadwood" | "highest_loose" | "evaluate"
    careless: float = 0.0          # chance of throwing a random loose card instead
    outs_weight: float = 0.0       # deadwood points per point of expected gain from one draw
    meld_weight: float = 0.0       # the same, counting only draws that make a meld
    knock_weight: float = 0.0      # deadwood points per share of unseen cards that let it knock
    feed_weight: float = 0.0       # deadwood points per unit of "the opponent wants this card"
    reads_discards: bool = False   # use the opponent's discards and passes, not only pickups
    take_margin: float | None = None  # take a non-meld face-up card if it beats the stock by this
    weighs_knock: bool = False     # judge the undercut risk instead of knocking at once


STYLES = {
    "simple": Style("least_deadwood"),
    "easy": Style("highest_loose", careless=0.2),
    "normal": Style("evaluate", outs_weight=1.0, feed_weight=3.0, take_margin=4.0),
    "hard": Style("evaluate", outs_weight=2.0, feed_weight=6.0, reads_discards=True,
                  take_margin=2.0, weighs_knock=True),
}


def _meld_partners(index: int) -> tuple[tuple[int, int], ...]:
    """Pairs of cards that make a meld together with this card."""
    suit, rank = divmod(index, 13)
    same_rank = [13 * s + rank for s in range(4) if s != suit]
    pairs = [(1 << a, 1 << b) for i, a in enumerate(same_rank) for b in same_rank[i + 1:]]
    for low in (rank - 2, rank - 1, rank):
        run = [r for r in (low, low + 1, low + 2) if r != rank]
        if low >= 0 and low + 2 <= 12:
            pairs.append((1 << (13 * suit + run[0]), 1 << (13 * suit + run[1])))
    return tuple(pairs)


MELD_PARTNERS = tuple(_meld_partners(i) for i in range(52))
# Cards whose fate says something about this card: same rank, or same suit within two ranks.
NEIGHBOURS = tuple(
    sum(1 << j for j in range(52) if j != i and (j % 13 == i % 13 or (j // 13 == i // 13 and abs(j - i) <= 2)))
    for i in range(52))


def forms_meld(hand: int, index: int) -> bool:
    """Whether the card makes some meld with two or more cards of the hand."""
    return any(hand & a and hand & b for a, b in MELD_PARTNERS[index])


@dataclass
class Table:
    """What a seat knows, read from its view."""
    hand: int
    taken: int | None       # card index just taken from the discard pile (may not be thrown)
    top: int | None         # top of the discard pile
    pile: int               # every card in the discard pile
    opponent_known: int     # cards the opponent took from the pile and still holds
    opponent_threw: int     # cards the opponent threw or declined this hand
    opponent_hidden: int    # how many of the opponent's cards nobody has seen
    unseen: int             # cards in the stock or hidden in the opponent's hand
    stock: int
    turns: int              # draws so far this hand


def read_table(view: dict) -> Table:
    seat = view["seat"]
    hand = sum(1 << CARD_INDEX[c] for c in view["hand"]["cards"])
    pile_cards = view["discard_pile"]
    pile = sum(1 << CARD_INDEX[c] for c in pile_cards)
    opponent = view["opponent"]
    known = sum(1 << CARD_INDEX[c] for c in opponent["known_cards"])
    threw = turns = 0
    for event in view["history"]:
        if event["action"] in ("take", "draw_stock"):
            turns += 1
        if event["seat"] == seat:
            continue
        card = event.get("passed") if event["action"] == "draw_stock" else event.get("card")
        if card and event["action"] in ("pass", "draw_stock", "discard", "knock"):
            threw |= 1 << CARD_INDEX[card]
    taken = view["cannot_discard"]
    return Table(
        hand=hand,
        taken=CARD_INDEX[taken] if taken and view["phase"] == "discard" and view["current_player"] == seat else None,
        top=CARD_INDEX[pile_cards[-1]] if pile_cards else None,
        pile=pile,
        opponent_known=known,
        opponent_threw=threw,
        opponent_hidden=opponent["card_count"] - bin(known).count("1"),
        unseen=FULL_DECK & ~hand & ~pile & ~known,
        stock=view["stock_count"],
        turns=turns,
    )


class GinCpu:
    def __init__(self, level: str, seat: int, seed: int):
        if level not in LEVELS:
            raise InvalidOptions(f"Unknown CPU level {level!r}; expected one of {', '.join(LEVELS)}.")
        self.level = level
        self.style = STYLES[level]
        self.seat = seat
        self.seed = seed

    def to_json(self) -> dict:
        return {"game": "gin", "level": self.level, "seat": self.seat, "seed": self.seed}

    def observe(self, view: dict) -> None:
        """Nothing to remember: the view carries the whole public history of the hand."""

    def choose(self, view: dict) -> dict:
        legal = view["legal_actions"]
        if not legal:
            raise IllegalAction(f"Seat {self.seat} has nothing to do now.", "not_your_turn")
        phase = view["phase"]
        if phase == "hand_over":
            return {"type": "next_hand"}
        # Ties are broken by a generator seeded from this decision's place in the game, so the
        # same seed and the same views give the same choices.
        rng = random.Random(f"{self.seed}/{view['hand_number']}/{view['moves']}")
        table = read_table(view)
        if phase == "upcard":
            return {"type": "take_upcard"} if self._takes(table) else {"type": "pass"}
        if phase == "draw":
            if view["stock_only"]:
                return {"type": "draw", "source": "stock"}
            return {"type": "draw", "source": "discard" if self._takes(table) else "stock"}
        return self._discard(table, rng)

    # --- drawing -------------------------------------------------------------------------------

    def _takes(self, table: Table) -> bool:
        top = table.top
        if top is None:
            return False
        if forms_meld(table.hand, top):
            return True
        if self.style.take_margin is None:
            return False
        # Deadwood after taking it (it may not be thrown back) against what a stock card gives
        # on average; a card that lets it knock at once is taken if it would knock.
        with_top = table.hand | 1 << top
        after_take = min(deadwood_mask(with_top & ~(1 << i)) for i in indices_of(table.hand))
        if after_take <= KNOCK_LIMIT and self._knocks(table, after_take):
            return True
        return after_take + self.style.take_margin <= self._expected_after_stock(table)

    def _expected_after_stock(self, table: Table) -> float:
        unseen = indices_of(table.unseen)
        if not unseen:
            return deadwood_mask(table.hand)
        return sum(discard_deadwood_mask(table.hand | 1 << u) for u in unseen) / len(unseen)

    # --- discarding ------------------------------------------------------------------------------

    def _discard(self, table: Table, rng: random.Random) -> dict:
        candidates = [i for i in indices_of(table.hand) if i != table.taken]
        left = {i: deadwood_mask(table.hand & ~(1 << i)) for i in candidates}
        least = min(left.values())
        if least == 0 or (least <= KNOCK_LIMIT and self._knocks(table, least)):
            lowest = [i for i in candidates if left[i] == least]
            card = rng.choice(lowest) if self.style.discard_rule != "evaluate" else min(
                lowest, key=lambda i: self._feeds(table, i))
            return {"type": "knock", "card": CARDS[card]}
        rule = self.style.discard_rule
        if rule == "least_deadwood":
            card = rng.choice([i for i in candidates if left[i] == least])
        elif rule == "highest_loose":
            card = self._highest_loose(table, candidates, left, rng)
        else:
            card = self._evaluated(table, candidates, left)
        return {"type": "discard", "card": CARDS[card]}

    def _highest_loose(self, table: Table, candidates, left, rng) -> int:
        _, melds = split_mask(table.hand)
        loose = [i for i in candidates if not any(m >> i & 1 for m in melds)]
        if not loose:
            least = min(left.values())
            return next(i for i in candidates if left[i] == least)
        if rng.random() < self.style.careless:
            return rng.choice(loose)
        highest = max(CARD_VALUES[i] for i in loose)
        return rng.choice([i for i in loose if CARD_VALUES[i] == highest])

    def _evaluated(self, table: Table, candidates, left) -> int:
        """The discard with the lowest score: deadwood - outs + the risk of feeding the opponent."""
        least = min(left.values())
        unseen = indices_of(table.unseen)
        style = self.style
        best_card, best_score = None, None
        for card in candidates:
            if left[card] > least + 10:  # never worth more than a ten of outs
                continue
            rest = table.hand & ~(1 << card)
            gain = meld_gain = knock_outs = 0
            for u in unseen:
                after = discard_deadwood_mask(rest | 1 << u)
                gain += left[card] - after
                if forms_meld(rest, u):
                    meld_gain += left[card] - after
                if after <= KNOCK_LIMIT:
                    knock_outs += 1
            if unseen:
                gain /= len(unseen)
                meld_gain /= len(unseen)
                knock_outs /= len(unseen)
            score = (left[card] - style.outs_weight * gain - style.meld_weight * meld_gain
                     - style.knock_weight * knock_outs + style.feed_weight * self._feeds(table, card))
            if best_score is None or score < best_score:
                best_card, best_score = card, score
        return best_card

    def _feeds(self, table: Table, card: int) -> float:
        """Chance that the opponent can meld this card (and so will take it)."""
        known = table.opponent_known
        if not self.style.reads_discards:
            return 1.0 if forms_meld(known, card) else 0.0
        unseen = table.unseen
        share = table.opponent_hidden / max(1, bin(unseen).count("1"))
        threw = table.opponent_threw
        if threw >> card & 1:
            return 0.0  # it already passed on this very card

        def held(bit: int) -> float:
            if known & bit:
                return 1.0
            if not unseen & bit:
                return 0.0
            index = bit.bit_length() - 1
            # A card next to one the opponent threw away is less likely to be in its hand.
            return share * (0.5 if NEIGHBOURS[index] & threw else 1.0)

        miss = 1.0
        for a, b in MELD_PARTNERS[card]:
            miss *= 1.0 - held(a) * held(b)
        return 1.0 - miss

    # --- knocking ------------------------------------------------------------------------------

    def _knocks(self, table: Table, deadwood: int) -> bool:
        if not self.style.weighs_knock:
            return True
        # Early in the hand the defender still holds loose cards: any knock is good. Later, a
        # knock with much deadwood risks an undercut, so the allowance shrinks with the stock.
        allowance = KNOCK_LIMIT if table.stock >= 20 else 8 if table.stock >= 12 else 6
        return deadwood <= allowance


def make_cpu(level: str, seat: int, seed: int, options=None) -> GinCpu:
    return GinCpu(level, seat, seed)


def cpu_from_json(data: dict) -> GinCpu:
    return GinCpu(data["level"], data["seat"], data["seed"])
