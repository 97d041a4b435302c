"""Gin Rummy's scoring core: melds, best splits, best discards and layoffs (docs/gin.md).

Everything works on 52-bit masks. Card index = suit * 13 + rank (rank 0 = ace .. 12 = king,
suits in the order S H D C), so the 13 bits of one suit sit side by side and a run is a block
of consecutive bits inside one suit's 13-bit field.

Why it is fast: runs never leave their suit, so for every 13-bit suit pattern (8192 of them)
a table holds the least deadwood when only runs are used (``_RUN_DEADWOOD``). Sets are the only
melds that cross suits, and a hand of 10 or 11 cards has at most three ranks with 3+ cards, so a
split is "which of those ranks form a set, with which suits" (at most 6 * 6 * 2 choices)
followed by four table look-ups. About four hands in five have no such rank at all and cost
just the four look-ups. ``best_discard`` uses a second table: the least run-only deadwood of a
suit pattern after removing one of its cards, and which cards achieve it.

The public functions take and return card strings (``"TD"``); the ``*_mask`` functions are the
same searches on masks, for the engine and the CPU players.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import product

RANKS = "A23456789TJQK"
SUITS = "SHDC"
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)  # position = card index
CARD_INDEX = {card: i for i, card in enumerate(CARDS)}
RANK_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
CARD_VALUES = tuple(RANK_VALUES[i % 13] for i in range(52))
FULL_DECK = (1 << 52) - 1
KNOCK_LIMIT = 10  # the most deadwood a knocker may keep

_SUIT_BITS = 0x1FFF
_NO_CARD = 10 ** 6  # "deadwood" of removing a card from an empty suit: never the minimum


# --- cards <-> masks -------------------------------------------------------------------------

def card_index(card: object) -> int:
    """Index of a card string; ValueError for anything that is not one of the 52 cards."""
    try:
        return CARD_INDEX[card]  # type: ignore[index]
    except (KeyError, TypeError):
        raise ValueError(f"{card!r} is not a card (rank in {RANKS}, suit in {SUITS}, e.g. 'TD')") from None


def mask_of(cards: Iterable[object]) -> int:
    """Mask of distinct card strings; ValueError on unknown or repeated cards."""
    mask = 0
    for card in cards:
        bit = 1 << card_index(card)
        if mask & bit:
            raise ValueError(f"card {card} appears twice")
        mask |= bit
    return mask


def indices_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_of(mask: int) -> list[str]:
    """Card strings of a mask, by suit then rank."""
    return [CARDS[i] for i in indices_of(mask)]


def cards_by_rank(mask: int) -> list[str]:
    """Card strings of a mask, by rank then suit (how a set or a loose hand reads best)."""
    return [CARDS[i] for i in sorted(indices_of(mask), key=lambda i: (i % 13, i // 13))]


def value_of(mask: int) -> int:
    return sum(CARD_VALUES[i] for i in indices_of(mask))


# --- one-suit tables ---------------------------------------------------------------------------

def _build_suit_tables() -> tuple[list[int], list[tuple[int, ...]], list[int], list[int]]:
    """For every 13-bit suit pattern: least run-only deadwood and one best list of runs.

    The lowest card of a pattern is either deadwood or the lowest card of a run, which gives a
    recurrence over smaller patterns. On ties the longer run wins, so the stored runs are
    maximal (3-4-5-6-7-8 is one run, not two).
    """
    deadwood = [0] * 8192
    runs: list[tuple[int, ...]] = [()] * 8192
    for pattern in range(1, 8192):
        low = (pattern & -pattern).bit_length() - 1
        rest = pattern & (pattern - 1)
        best, best_runs = RANK_VALUES[low] + deadwood[rest], runs[rest]
        run, top = 1 << low, low + 1
        while top < 13 and pattern >> top & 1:
            run |= 1 << top
            if top - low >= 2:
                rest = pattern & ~run
                if deadwood[rest] <= best:
                    best, best_runs = deadwood[rest], (run,) + runs[rest]
            top += 1
        deadwood[pattern], runs[pattern] = best, best_runs
    drop_deadwood = [_NO_CARD] * 8192
    drop_cards = [0] * 8192
    for pattern in range(1, 8192):
        best, which, bits = _NO_CARD, 0, pattern
        while bits:
            bit = bits & -bits
            bits ^= bit
            value = deadwood[pattern ^ bit]
            if value < best:
                best, which = value, bit
            elif value == best:
                which |= bit
        drop_deadwood[pattern], drop_cards[pattern] = best, which
    return deadwood, runs, drop_deadwood, drop_cards


_RUN_DEADWOOD, _RUN_MELDS, _DROP_DEADWOOD, _DROP_CARDS = _build_suit_tables()


def _build_set_choices() -> dict[int, tuple[int, ...]]:
    """For each 4-bit pattern of suits holding one rank: the ways to meld that rank as a set.

    Each choice is the 4-bit pattern of suits put in the set; 0 = no set.
    """
    choices: dict[int, tuple[int, ...]] = {}
    for present in range(16):
        count = bin(present).count("1")
        if count == 3:
            choices[present] = (0, present)
        elif count == 4:
            choices[present] = (0, 15, 14, 13, 11, 7)
    return choices


_SET_CHOICES = _build_set_choices()


def _set_options(s0: int, s1: int, s2: int, s3: int,
                 triples: int) -> Iterator[tuple[int, int, int, int, int]]:
    """Every way to take sets out of a hand: yields (set_mask, s0, s1, s2, s3 left for runs)."""
    per_rank = []
    bits = triples
    while bits:
        low = bits & -bits
        bits ^= low
        rank = low.bit_length() - 1
        present = (s0 >> rank & 1) | (s1 >> rank & 1) << 1 | (s2 >> rank & 1) << 2 | (s3 >> rank & 1) << 3
        per_rank.append((rank, _SET_CHOICES[present]))
    for picks in product(*(choices for _, choices in per_rank)):
        a, b, c, d, sets = s0, s1, s2, s3, 0
        for (rank, _), suits in zip(per_rank, picks, strict=True):
            bit = 1 << rank
            if suits & 1:
                a ^= bit
            if suits & 2:
                b ^= bit
            if suits & 4:
                c ^= bit
            if suits & 8:
                d ^= bit
            if suits:
                sets |= _set_mask(rank, suits)
        yield sets, a, b, c, d


def _set_mask(rank: int, suits: int) -> int:
    return sum(1 << (13 * s + rank) for s in range(4) if suits >> s & 1)


def _triples(s0: int, s1: int, s2: int, s3: int) -> int:
    """Ranks (as a 13-bit pattern) held in at least three suits."""
    return (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))


# --- searches on masks -----------------------------------------------------------------------

def deadwood_mask(mask: int) -> int:
    """Least deadwood of a hand (any size)."""
    s0, s1, s2, s3 = mask & _SUIT_BITS, mask >> 13 & _SUIT_BITS, mask >> 26 & _SUIT_BITS, mask >> 39
    table = _RUN_DEADWOOD
    triples = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not triples:
        return table[s0] + table[s1] + table[s2] + table[s3]
    return min(table[a] + table[b] + table[c] + table[d]
               for _, a, b, c, d in _set_options(s0, s1, s2, s3, triples))


def split_mask(mask: int) -> tuple[int, tuple[int, ...]]:
    """Least deadwood and one split achieving it, as a tuple of meld masks (sets, then runs)."""
    s0, s1, s2, s3 = mask & _SUIT_BITS, mask >> 13 & _SUIT_BITS, mask >> 26 & _SUIT_BITS, mask >> 39
    table = _RUN_DEADWOOD
    triples = _triples(s0, s1, s2, s3)
    if triples:
        best: tuple[int, tuple[int, int, int, int, int]] | None = None
        for option in _set_options(s0, s1, s2, s3, triples):
            _, a, b, c, d = option
            value = table[a] + table[b] + table[c] + table[d]
            if best is None or value < best[0]:
                best = (value, option)
        assert best is not None  # taking no set at all is always an option
        value, (sets, s0, s1, s2, s3) = best
        melds = [_set_mask(rank, suits_holding(sets, rank)) for rank in range(13) if suits_holding(sets, rank)]
    else:
        value = table[s0] + table[s1] + table[s2] + table[s3]
        melds = []
    for suit, pattern in enumerate((s0, s1, s2, s3)):
        melds.extend(run << (13 * suit) for run in _RUN_MELDS[pattern])
    return value, tuple(melds)


def suits_holding(mask: int, rank: int) -> int:
    """4-bit pattern of the suits in which ``mask`` holds ``rank``."""
    return ((mask >> rank & 1) | (mask >> (13 + rank) & 1) << 1 | (mask >> (26 + rank) & 1) << 2
            | (mask >> (39 + rank) & 1) << 3)


def discard_deadwood_mask(mask: int) -> int:
    """Least deadwood left after the best discard from an 11-card hand (only the number)."""
    s0, s1, s2, s3 = mask & _SUIT_BITS, mask >> 13 & _SUIT_BITS, mask >> 26 & _SUIT_BITS, mask >> 39
    table, drop = _RUN_DEADWOOD, _DROP_DEADWOOD
    triples = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not triples:
        d0, d1, d2, d3 = table[s0], table[s1], table[s2], table[s3]
        total = d0 + d1 + d2 + d3
        return total + min(drop[s0] - d0, drop[s1] - d1, drop[s2] - d2, drop[s3] - d3)
    best = _NO_CARD
    for _, a, b, c, d in _set_options(s0, s1, s2, s3, triples):
        d0, d1, d2, d3 = table[a], table[b], table[c], table[d]
        value = d0 + d1 + d2 + d3 + min(drop[a] - d0, drop[b] - d1, drop[c] - d2, drop[d] - d3)
        if value < best:
            best = value
    return best


def best_discard_mask(mask: int) -> tuple[int, int]:
    """(least deadwood after one discard, mask of every discard achieving it).

    Discarding card x and splitting the other ten is the same as splitting all eleven with x
    forced to be deadwood, so x is never in a set here and the per-suit "remove one card"
    table answers for the suit x comes from.
    """
    s0, s1, s2, s3 = mask & _SUIT_BITS, mask >> 13 & _SUIT_BITS, mask >> 26 & _SUIT_BITS, mask >> 39
    table, drop, drop_cards = _RUN_DEADWOOD, _DROP_DEADWOOD, _DROP_CARDS
    triples = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    options = ((0, s0, s1, s2, s3),) if not triples else _set_options(s0, s1, s2, s3, triples)
    best, discards = _NO_CARD, 0
    for _, a, b, c, d in options:
        d0, d1, d2, d3 = table[a], table[b], table[c], table[d]
        total = d0 + d1 + d2 + d3
        for shift, pattern, own in ((0, a, d0), (13, b, d1), (26, c, d2), (39, d, d3)):
            value = total - own + drop[pattern]
            if value < best:
                best, discards = value, drop_cards[pattern] << shift
            elif value == best:
                discards |= drop_cards[pattern] << shift
    return best, discards


def all_best_splits_mask(mask: int) -> tuple[int, list[tuple[int, ...]]]:
    """Least deadwood and every split achieving it (runs kept maximal: a run is never cut in
    two adjacent runs, which would be the same cards on the table)."""
    s0, s1, s2, s3 = mask & _SUIT_BITS, mask >> 13 & _SUIT_BITS, mask >> 26 & _SUIT_BITS, mask >> 39
    triples = _triples(s0, s1, s2, s3)
    options = list(_set_options(s0, s1, s2, s3, triples)) if triples else [(0, s0, s1, s2, s3)]
    table = _RUN_DEADWOOD
    best = min(table[a] + table[b] + table[c] + table[d] for _, a, b, c, d in options)
    splits = []
    for sets, a, b, c, d in options:
        if table[a] + table[b] + table[c] + table[d] != best:
            continue
        set_melds = tuple(_set_mask(rank, suits_holding(sets, rank))
                          for rank in range(13) if suits_holding(sets, rank))
        per_suit = [[tuple(run << (13 * suit) for run in runs) for runs in _all_run_splits(pattern)]
                    for suit, pattern in enumerate((a, b, c, d))]
        for choice in product(*per_suit):
            splits.append(set_melds + tuple(run for runs in choice for run in runs))
    return best, splits


def _all_run_splits(pattern: int) -> list[tuple[int, ...]]:
    """Every best run-only split of one suit pattern, with no two runs touching end to end."""
    if not pattern:
        return [()]
    target = _RUN_DEADWOOD[pattern]
    low = (pattern & -pattern).bit_length() - 1
    found = []
    rest = pattern & (pattern - 1)
    if RANK_VALUES[low] + _RUN_DEADWOOD[rest] == target:
        found.extend(_all_run_splits(rest))
    run, top = 1 << low, low + 1
    while top < 13 and pattern >> top & 1:
        run |= 1 << top
        rest = pattern & ~run
        # A run must not stop right before a card that then starts another run.
        if top - low >= 2 and _RUN_DEADWOOD[rest] == target:
            for runs in _all_run_splits(rest):
                if not any(other & (run << 1) for other in runs):
                    found.append((run,) + runs)
        top += 1
    return found


# --- layoffs -----------------------------------------------------------------------------------

def meld_kind(meld: int) -> str | None:
    """"set", "run" or None for a mask that is not a meld."""
    cards = indices_of(meld)
    if len(cards) >= 3 and len({i % 13 for i in cards}) == 1:
        return "set" if len(cards) <= 4 else None
    if len(cards) >= 3 and len({i // 13 for i in cards}) == 1 and cards[-1] - cards[0] == len(cards) - 1:
        return "run"
    return None


def _layoff_options(meld: int, defender: int) -> list[int]:
    """Masks of defender cards that can go onto one meld together (0 = none)."""
    cards = indices_of(meld)
    options = [0]
    if meld_kind(meld) == "set":
        if len(cards) == 3:
            rank = cards[0] % 13
            missing = next(13 * s + rank for s in range(4) if not meld >> (13 * s + rank) & 1)
            if defender >> missing & 1:
                options.append(1 << missing)
        return options
    suit, low, high = cards[0] // 13, cards[0] % 13, cards[-1] % 13
    below, rank = [0], low - 1
    while rank >= 0 and defender >> (13 * suit + rank) & 1:
        below.append(below[-1] | 1 << (13 * suit + rank))
        rank -= 1
    above, rank = [0], high + 1
    while rank <= 12 and defender >> (13 * suit + rank) & 1:
        above.append(above[-1] | 1 << (13 * suit + rank))
        rank += 1
    return [b | a for b in below for a in above]


def lay_off_mask(knocker_melds: Sequence[int], defender: int) -> tuple[int, list[tuple[int, int]], tuple[int, ...]]:
    """Defender's least deadwood after laying off onto ``knocker_melds`` and melding the rest.

    Every combination of layoffs (per meld: the missing 4th card of a set, or a chain of cards
    below and above a run) is tried against an exact split of what stays in hand, so the choice
    is joint, never greedy. Among equally good choices the one laying off fewest cards is taken.
    Returns (deadwood, [(card index, meld number)], defender's melds).
    """
    per_meld = [_layoff_options(meld, defender) for meld in knocker_melds]
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for choice in product(*per_meld):
        used = 0
        for cards in choice:
            if used & cards:
                break
            used |= cards
        else:
            key = (deadwood_mask(defender & ~used), bin(used).count("1"))
            if best is None or key < best[0]:
                best = (key, choice)
    assert best is not None  # laying off nothing always fits
    (deadwood, _), choice = best
    used = 0
    layoffs: list[tuple[int, int]] = []
    for number, (meld, cards) in enumerate(zip(knocker_melds, choice, strict=True)):
        used |= cards
        near_first = sorted(indices_of(cards), key=lambda i: _distance_to(meld, i))
        layoffs.extend((i, number) for i in near_first)
    _, melds = split_mask(defender & ~used)
    return deadwood, layoffs, melds


def _distance_to(meld: int, index: int) -> int:
    """How far a laid-off card sits from a meld (a chain is laid off nearest card first)."""
    return min(abs(index - i) for i in indices_of(meld))


# --- public functions on card strings ----------------------------------------------------------

def _checked_mask(cards: Iterable[object], sizes: tuple[int, ...]) -> int:
    cards = list(cards)
    if len(cards) not in sizes:
        raise ValueError(f"expected {' or '.join(map(str, sizes))} cards, got {len(cards)}")
    return mask_of(cards)


def meld_cards(meld: int) -> list[str]:
    """A meld's cards in reading order (a set by suit, a run from low to high)."""
    return cards_of(meld)


def best_split(cards: Iterable[str]) -> tuple[int, list[list[str]]]:
    """(least deadwood, one split into melds achieving it) for 10 or 11 card strings."""
    deadwood, melds = split_mask(_checked_mask(cards, (10, 11)))
    return deadwood, [meld_cards(m) for m in melds]


def best_discard(cards11: Iterable[str]) -> tuple[list[str], int]:
    """(every discard leaving the least deadwood, that deadwood) for 11 card strings."""
    deadwood, discards = best_discard_mask(_checked_mask(cards11, (11,)))
    return cards_by_rank(discards), deadwood


def lay_off(knocker_melds: Iterable[Iterable[str]],
            defender_cards: Iterable[str]) -> tuple[int, list[tuple[str, int]], list[list[str]]]:
    """(defender's deadwood, layoffs as (card, knocker meld number), defender's own melds).

    ``knocker_melds`` is a list of melds (lists of card strings); ``defender_cards`` the
    defender's 10 cards. The layoffs and the defender's melds are chosen jointly.
    """
    defender = _checked_mask(defender_cards, (10,))
    melds = []
    seen = defender
    for meld in knocker_melds:
        mask = mask_of(meld)
        if meld_kind(mask) is None:
            raise ValueError(f"{list(meld)} is not a meld")
        if seen & mask:
            raise ValueError("a card appears in two places")
        seen |= mask
        melds.append(mask)
    deadwood, layoffs, own = lay_off_mask(melds, defender)
    return deadwood, [(CARDS[i], number) for i, number in layoffs], [meld_cards(m) for m in own]
