"""best_split, best_discard and lay_off against an exhaustive brute force written here, on
thousands of random and meld-dense hands (issue 5, "Scoring core")."""
from __future__ import annotations

import itertools
import random

import pytest

from games.engines.gin import best_discard, best_split, lay_off

RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]


# --- the brute force, written from the rules and sharing nothing with the engine -----------------

def rank_of(card: str) -> int:
    return RANKS.index(card[0]) + 1


def value(card: str) -> int:
    return min(rank_of(card), 10)


def is_meld(cards) -> bool:
    cards = list(cards)
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    ranks = sorted(rank_of(c) for c in cards)
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    if len({c[1] for c in cards}) != 1:
        return False
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def melds_within(cards) -> list[frozenset]:
    """Every meld these cards can make: 3-4 cards of one rank, or a stretch of 3+ consecutive
    ranks of one suit."""
    cards = set(cards)
    found = []
    for rank in RANKS:
        same = [c for c in cards if c[0] == rank]
        for size in (3, 4):
            found.extend(frozenset(combo) for combo in itertools.combinations(same, size))
    for suit in SUITS:
        for low in range(1, 12):
            for high in range(low + 2, 14):
                run = {RANKS[r - 1] + suit for r in range(low, high + 1)}
                if run <= cards:
                    found.append(frozenset(run))
    assert all(is_meld(m) for m in found)
    return found


def brute_deadwood(cards) -> int:
    return BruteSplitter(cards).least(frozenset(cards))


class BruteSplitter:
    """Least deadwood over every split of any part of ``cards``: the lowest card left is either
    deadwood or in one of the melds (made of cards left) that contain it, and every split is
    reached this way."""

    def __init__(self, cards):
        self.melds = melds_within(cards)
        self.memo: dict[frozenset, int] = {}

    def least(self, left: frozenset) -> int:
        if not left:
            return 0
        if left not in self.memo:
            first = min(left)
            best = value(first) + self.least(left - {first})
            for meld in self.melds:
                if first in meld and meld <= left:
                    best = min(best, self.least(left - meld))
            self.memo[left] = best
        return self.memo[left]


def brute_lay_off(knocker_melds, defender) -> int:
    """Defender's least deadwood: every assignment of its cards to 'keep' or to a knocker meld
    whose result is still a meld, then the best split of what it keeps."""
    defender = list(defender)
    choices = []
    for card in defender:
        fits = [None] + [i for i, m in enumerate(knocker_melds)
                         if all(rank_of(c) == rank_of(card) for c in m)
                         or all(c[1] == card[1] for c in m)]
        choices.append(fits)
    best = None
    for assignment in itertools.product(*choices):
        extended = [list(m) for m in knocker_melds]
        for card, where in zip(defender, assignment, strict=True):
            if where is not None:
                extended[where].append(card)
        if any(len(e) > len(m) and not is_meld(e) for e, m in zip(extended, knocker_melds, strict=True)):
            continue
        kept = [c for c, where in zip(defender, assignment, strict=True) if where is None]
        deadwood = brute_deadwood(kept)
        best = deadwood if best is None else min(best, deadwood)
    return best


# --- hands -------------------------------------------------------------------------------------

def random_hands(rng: random.Random, size: int, count: int):
    return [rng.sample(DECK, size) for _ in range(count)]


def dense_hands(rng: random.Random, size: int, count: int):
    """Hands drawn from a few neighbouring ranks in 3-4 suits: melds overlap everywhere."""
    hands = []
    for _ in range(count):
        low = rng.randrange(0, 9)
        ranks = RANKS[low:low + rng.choice((4, 5))]
        suits = rng.sample(SUITS, rng.choice((3, 4)))
        pool = [r + s for r in ranks for s in suits]
        hands.append(rng.sample(pool, size) if len(pool) >= size else rng.sample(DECK, size))
    return hands


def check_split(cards, deadwood, melds):
    laid = [c for m in melds for c in m]
    assert len(laid) == len(set(laid)) and set(laid) <= set(cards)
    assert all(is_meld(m) for m in melds)
    assert deadwood == sum(value(c) for c in cards if c not in laid)


# --- best_split --------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [10, 11])
def test_best_split_matches_brute_force_on_random_and_dense_hands(size):
    rng = random.Random(5000 + size)
    hands = random_hands(rng, size, 1200) + dense_hands(rng, size, 800)
    for cards in hands:
        deadwood, melds = best_split(cards)
        assert deadwood == brute_deadwood(cards), cards
        check_split(cards, deadwood, melds)


def test_best_split_examples():
    assert best_split("AS 2S 3S 4S 7H 7D 7C JD QD KD".split())[0] == 0
    # 4S could go to the run or the set: the set of fours leaves 5C (5), the run leaves 4H 4D 5C.
    deadwood, melds = best_split("AS 2S 3S 4S 4H 4D 5C JD QD KD".split())
    assert deadwood == 5 and sorted(map(sorted, melds)) == sorted(
        map(sorted, [["4S", "4H", "4D"], ["AS", "2S", "3S"], ["JD", "QD", "KD"]]))
    # Ace is low only: Q-K-A is not a run.
    assert best_split("QS KS AS 2H 4H 6H 8H TD 8C 6C".split())[0] == 10 + 10 + 1 + 2 + 4 + 6 + 8 + 10 + 8 + 6


def test_best_split_rejects_bad_input():
    with pytest.raises(ValueError):
        best_split("AS 2S 3S".split())
    with pytest.raises(ValueError):
        best_split("AS AS 3S 4S 5S 6S 7S 8S 9S TS".split())
    with pytest.raises(ValueError):
        best_split("1S 2S 3S 4S 5S 6S 7S 8S 9S TS".split())


# --- best_discard ------------------------------------------------------------------------------

def test_best_discard_matches_brute_force_on_random_and_dense_hands():
    rng = random.Random(77)
    hands = random_hands(rng, 11, 600) + dense_hands(rng, 11, 600)
    for cards in hands:
        discards, deadwood = best_discard(cards)
        splitter = BruteSplitter(cards)
        after = {c: splitter.least(frozenset(cards) - {c}) for c in cards}
        least = min(after.values())
        assert deadwood == least, cards
        assert sorted(discards) == sorted(c for c in cards if after[c] == least), cards


def test_best_discard_is_not_drop_the_highest_loose_card():
    # The 11 cards split best as 8D 9D TD with the nines of clubs and spades loose (or the set
    # of nines with 8D TD loose): 39 either way. Dropping a loose nine keeps 30; breaking the run
    # by throwing TD, a melded card, keeps only 29 (the set of nines melds, 8D stays loose).
    cards = "8D 9D TD 9C 9S AS 2C 3H 4S 5H 6C".split()
    assert best_split(cards)[0] == 39
    assert best_discard(cards) == (["TD"], 29)
    assert brute_deadwood([c for c in cards if c != "9S"]) == 30


# --- lay_off -----------------------------------------------------------------------------------

def random_layoff_case(rng: random.Random):
    """The melds of a meld-dense knocker hand, and a defender hand drawn mostly from the cards
    around them (so that layoffs, chains and competing uses are common)."""
    while True:
        low = rng.randrange(0, 7)
        pool = [r + s for r in RANKS[low:low + rng.choice((5, 6, 7))] for s in rng.sample(SUITS, rng.choice((3, 4)))]
        knocker = rng.sample(pool, 10) if len(pool) >= 10 else pool + rng.sample(
            [c for c in DECK if c not in pool], 10 - len(pool))
        melds = best_split(knocker)[1]
        if melds:
            break
    used = {c for m in melds for c in m}
    near = [c for c in pool if c not in used]
    far = [c for c in DECK if c not in used and c not in near]
    from_near = min(len(near), rng.randrange(4, 11))
    return melds, rng.sample(near, from_near) + rng.sample(far, 10 - from_near)


def test_lay_off_matches_brute_force():
    rng = random.Random(2024)
    for _ in range(1500):
        melds, defender = random_layoff_case(rng)
        deadwood, layoffs, own = lay_off(melds, defender)
        assert deadwood == brute_lay_off(melds, defender), (melds, defender)
        # The answer is a real position: layoffs extend melds validly, own melds are melds.
        extended = [list(m) for m in melds]
        for card, where in layoffs:
            extended[where].append(card)
        assert all(is_meld(e) for e in extended)
        laid = {c for c, _ in layoffs}
        kept = [c for c in defender if c not in laid]
        check_split(kept, deadwood, own)


def test_lay_off_is_joint_not_split_first():
    # Alone, the defender's best split is the run 7C 8C 9C (deadwood 7S 7D). Laying 8C 9C off on
    # TC JC QC and keeping the set of sevens does better: split-then-lay-off would miss it.
    defender = "7S 7D 7C 8C 9C AH 2D 3H 4D 5H".split()
    deadwood, layoffs, own = lay_off([["TC", "JC", "QC"]], defender)
    assert deadwood == 1 + 2 + 3 + 4 + 5
    assert sorted(layoffs) == [("8C", 0), ("9C", 0)]
    assert sorted(map(sorted, own)) == [["7C", "7D", "7S"]]


def test_lay_off_is_joint_not_lay_off_first():
    # 9S fits the set of nines, but laying it off breaks the defender's own run 9S TS JS.
    defender = "9S TS JS AH 2D 3H 4D 5H 6C KD".split()
    deadwood, layoffs, own = lay_off([["9H", "9D", "9C"]], defender)
    assert deadwood == 1 + 2 + 3 + 4 + 5 + 6 + 10
    assert layoffs == []
    assert own == [["9S", "TS", "JS"]]


def test_lay_off_chains_at_both_ends_of_a_run():
    defender = "3H 4H 8H 9H KS KD AC 2C 5D 6S".split()
    deadwood, layoffs, own = lay_off([["5H", "6H", "7H"]], defender)
    assert {c for c, _ in layoffs} == {"3H", "4H", "8H", "9H"}
    assert deadwood == 10 + 10 + 1 + 2 + 5 + 6


def test_lay_off_rejects_a_non_meld():
    with pytest.raises(ValueError):
        lay_off([["5H", "6H", "8H"]], "3H 4H 8S 9H KS KD AC 2C 5D 6S".split())
