"""Optimal play of perfect-memory Memory: the Zwick–Paterson recurrence, extended.

Zwick & Paterson ("The Memory Game", Theoretical Computer Science 110, 1993) describe a
position of the perfect-memory game by two numbers, the pairs left on the table and the cards
everybody has seen whose partner has not been seen, and a turn as one of three moves:

- a **2-move**: turn an unseen card; if its partner is known take the pair, otherwise turn a
  second unseen card;
- a **1-move**: turn an unseen card; if its partner is known take the pair, otherwise turn a
  known card second, which shows nobody anything new;
- a **0-move**: turn two known cards (a pass).

A pair whose two places are known is always taken first. This module generalises the position
to a count of *card classes* by *type*: a class is a set of cards that match among themselves
(a pair of the colour or two-deck rule, a rank of four under the rank rule, a rank under the
zebra rule, the two jokers) and its type says how many of its cards are still on the table and
how many of those are known. The types of each rule and how turning a card changes them are
the data in ``PAIRS``, ``RANK`` and ``ZEBRA`` below; one solver handles them all:

- 2 or more players: the value of a position is the vector of every seat's expected future
  pairs, seat 0 being the player to move, and each player chooses the move that maximises its
  own entry. With two players this is the zero-sum game of the paper (the pairs left are fixed,
  so maximising one's pairs maximises the margin).
- 1 player: the value is minus the expected number of failed turns (two cards that do not match).

The 0-move never makes progress, so a game where everybody keeps passing would not end. Play
here follows one rule that makes every game end: a player never passes twice in a row in an
unchanged position. After a pass the others may pass too (each once), and when it comes back
round, the first to pass must move. ``chain_outcome`` is the value of that round under
optimal play; the solver uses it as the value of a position, and the CPU uses it with the
number of passes already made. With two players it follows that the 0-move never changes the
value of a position; it is made where the player to move would lose by moving (the opponent,
if it does not pass back, must then move and lose instead).

Positions are keyed by one integer, the sum of ``count * stride`` over the types, so a
successor is found by adding a difference and a lookup is one array access (key -> row).
Two solvers: ``solve_reference`` writes the recurrence out position by position (and can use
exact fractions), ``solve`` does the same in NumPy one *level* of positions at a time (about
a second for all 33 tables; ``bench/memory_bench.py`` measures it), and the tests check one
against the other. ``table()`` builds a full-size table on first use and keeps it.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

MATCH = "match"  # the card matches a known card (or, second, the first card): a pair is taken
NEW = "new"      # the card matches nothing known: it becomes known
MISS = "miss"    # second card of the first card's own class that does not match it (zebra)
PAIR = "pair"    # second card that matches a known card of another class: a known pair is left

TIE = 1e-9  # float values closer than this are treated as equal (ties favour progress)

# A value vector, one entry a seat: floats, or Fractions in the exact reference solver.
Vector = tuple[Any, ...]
# What turning a card does: (cards with this outcome, MATCH/NEW/MISS/PAIR, type after or None).
Outcome = tuple[int, str, str | None]


@dataclass(frozen=True)
class ClassType:
    """One type of card class and what turning one of its unseen cards does.

    ``first``: outcomes of turning one of its unseen cards as the first card of a turn, each
    ``(cards, MATCH, type after the pair is taken)`` or ``(cards, NEW, open type)``.
    ``second``: outcomes when it is the second card of a turn whose first card was of another
    class, ``(cards, PAIR, type after the next player takes the known pair)`` or
    ``(cards, NEW, type)``. ``cards`` counts the class's unseen cards with that outcome; a type
    of ``None`` means the class has left the table.
    """

    name: str
    cards: int
    known: int
    pair_value: int
    first: tuple[Outcome, ...]
    second: tuple[Outcome, ...]


@dataclass(frozen=True)
class OpenType:
    """A class whose card was just turned first and matches nothing known.

    ``close``: the class's type once that card is known (the turn's second card was a known
    card, or of another class). ``same``: outcomes of turning a second unseen card of the same
    class, ``(cards, MATCH, type)`` or ``(cards, MISS, type)``.
    """

    name: str
    close: str
    same: tuple[Outcome, ...]


@dataclass(frozen=True)
class Structure:
    name: str
    types: tuple[ClassType, ...]
    opens: tuple[OpenType, ...]
    size_of: str  # what the table size counts: "pairs" or "ranks"

    def type_index(self, name: str) -> int:
        return [t.name for t in self.types].index(name)

    def open_index(self, name: str) -> int:
        return [o.name for o in self.opens].index(name)


def _joker_types() -> tuple[list[ClassType], list[OpenType]]:
    """The two jokers match only each other and count as two pairs."""
    return ([ClassType("jokers", 2, 0, 2, ((2, NEW, "jokers_open"),), ((2, NEW, "joker_known"),)),
             ClassType("joker_known", 2, 1, 2, ((1, MATCH, None),), ((1, PAIR, None),))],
            [OpenType("jokers_open", "joker_known", ((1, MATCH, None),))])


def _structure(name: str, size_of: str, types: list[ClassType], opens: list[OpenType]) -> Structure:
    joker_types, joker_opens = _joker_types()
    return Structure(name, tuple(types + joker_types), tuple(opens + joker_opens), size_of)


# Each card has exactly one partner (colour rule, two identical decks).
PAIRS = _structure("pairs", "pairs", [
    ClassType("pair", 2, 0, 1, ((2, NEW, "pair_open"),), ((2, NEW, "half_known"),)),
    ClassType("half_known", 2, 1, 1, ((1, MATCH, None),), ((1, PAIR, None),)),
], [OpenType("pair_open", "half_known", ((1, MATCH, None),))])

# Same rank: four cards a rank, any two match. At most one known card a rank (two known would
# be a known pair, which is taken), and the table holds 4 or 2 of a rank.
RANK = _structure("rank", "ranks", [
    ClassType("four", 4, 0, 1, ((4, NEW, "four_open"),), ((4, NEW, "four_known"),)),
    ClassType("four_known", 4, 1, 1, ((3, MATCH, "two"),), ((3, PAIR, "two"),)),
    ClassType("two", 2, 0, 1, ((2, NEW, "two_open"),), ((2, NEW, "two_known"),)),
    ClassType("two_known", 2, 1, 1, ((1, MATCH, None),), ((1, PAIR, None),)),
], [OpenType("four_open", "four_known", ((3, MATCH, "two"),)),
    OpenType("two_open", "two_known", ((1, MATCH, None),))])

# Zebra: same rank, opposite colour; a rank is two red and two black cards and every pair takes
# one of each, so two cards left are one of each colour. Two known cards of one colour do not
# match, so a rank of four may have two known cards ("four_known_two").
ZEBRA = _structure("zebra", "ranks", [
    ClassType("four", 4, 0, 1, ((4, NEW, "four_open"),), ((4, NEW, "four_known"),)),
    # Known: one red. Unseen: a red (no match: "four_known_open") and two blacks (match).
    ClassType("four_known", 4, 1, 1, ((2, MATCH, "two"), (1, NEW, "four_known_open")),
              ((2, PAIR, "two"), (1, NEW, "four_known_two"))),
    # Known: both reds. Unseen: both blacks, each matching a known card; a red stays known.
    ClassType("four_known_two", 4, 2, 1, ((2, MATCH, "two_known"),), ((2, PAIR, "two_known"),)),
    ClassType("two", 2, 0, 1, ((2, NEW, "two_open"),), ((2, NEW, "two_known"),)),
    ClassType("two_known", 2, 1, 1, ((1, MATCH, None),), ((1, PAIR, None),)),
], [OpenType("four_open", "four_known", ((2, MATCH, "two"), (1, MISS, "four_known_two"))),
    OpenType("four_known_open", "four_known_two", ((2, MATCH, "two_known"),)),
    OpenType("two_open", "two_known", ((1, MATCH, None),))])

STRUCTURES = {s.name: s for s in (PAIRS, RANK, ZEBRA)}
# Largest decks of the site: 52 pairs (two decks), 13 ranks.
FULL_SIZE = {"pairs": 52, "rank": 13, "zebra": 13}
MAX_PLAYERS = 6


def structure_for_match(match: str) -> Structure:
    """The class structure of an engine match rule."""
    return {"rank": RANK, "zebra": ZEBRA, "colour": PAIRS, "identical": PAIRS}[match]


# ---------------------------------------------------------------------------- vectors

def rotate(vec: Vector, steps: int) -> Vector:
    """A value vector seen from the seat ``steps`` places before its mover (seat 0)."""
    steps %= len(vec)
    return vec[-steps:] + vec[:-steps] if steps else vec


def _prefers_pass(outcome: Vector, active: Vector, offset: int, eps: float) -> bool:
    """Whether the seat at ``offset`` passes rather than moves.

    Moving is worth ``active[0]`` to it. It passes when the round's outcome after its pass is
    better for it, or as good and the next seat moving at once would be better still (so a
    pass costs nothing against optimal play and gains against a player who does not pass back).
    """
    mine = active[0]
    after = outcome[offset]
    return bool(after > mine + eps or (after >= mine - eps and active[-1] > mine + eps))


def chain_outcome(active: Vector, passes_before: int = 0, eps: float = TIE) -> tuple[Vector, bool]:
    """Value of a position (mover's frame) under the pass rule, and whether the mover passes.

    ``active``: the value vector when the mover moves (2- or 1-move, whichever is best).
    ``passes_before``: turns passed in this position just before this one. The seat that
    passed first must move when the turn comes back to it, and every seat after it may pass
    once on the way.
    """
    players = len(active)
    waited = min(passes_before, players - 1)
    forced = players - waited  # offset of the seat that must move (== players: the mover)
    outcome = rotate(active, forced)
    for offset in range(forced - 1, 0, -1):
        if not _prefers_pass(outcome, active, offset, eps):
            outcome = rotate(active, offset)
    if _prefers_pass(outcome, active, 0, eps):
        return outcome, True
    return active, False


# ---------------------------------------------------------------------------- positions

def strides_for(structure: Structure, size: int) -> tuple[int, ...]:
    """Key weights: the rule's own types in base ``size + 1``, then the two joker types."""
    main = len(structure.types) - 2
    radix = size + 1
    top = radix ** main
    return tuple(radix ** i for i in range(main)) + (top, 2 * top)


def position_key(structure: Structure, strides: tuple[int, ...], counts_by_name: dict[str, int]) -> int:
    return sum(counts_by_name.get(t.name, 0) * s for t, s in zip(structure.types, strides, strict=True))


def _states(structure: Structure, size: int) -> list[tuple[int, ...]]:
    """Every position with at most ``size`` classes, jokers absent, unseen or one known."""
    def compositions(slots: int, budget: int) -> Iterator[tuple[int, ...]]:
        if slots == 0:
            yield ()
            return
        for first in range(budget + 1):
            for rest in compositions(slots - 1, budget - first):
                yield (first,) + rest

    return [counts + joker for counts in compositions(len(structure.types) - 2, size)
            for joker in ((0, 0), (1, 0), (0, 1))]


def _cards_and_known(structure: Structure, counts: Iterable[int]) -> tuple[int, int]:
    return (sum(n * t.cards for n, t in zip(counts, structure.types, strict=True)),
            sum(n * t.known for n, t in zip(counts, structure.types, strict=True)))


# ---------------------------------------------------------------------------- reference solver

@dataclass
class ReferenceTable:
    """The reference solver's answer, keyed by position key (see ``Table`` for the meaning)."""

    structure: Structure
    players: int
    one_flip: bool
    strides: tuple[int, ...]
    values: dict[int, Vector]
    actives: dict[int, Vector]
    known_second: dict[int, int]

    def value_of(self, counts_by_name: dict[str, int]) -> Vector:
        return self.values[position_key(self.structure, self.strides, counts_by_name)]


def solve_reference(structure: Structure, size: int, players: int, one_flip: bool = False,
                    exact: bool = False) -> ReferenceTable:
    """The recurrence written out position by position, fewest cards first.

    Plain Python, so it can compute in exact fractions (``exact=True``) to check the values of
    the paper; the NumPy solver ``solve`` is checked against it.
    """
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be 1 to {MAX_PLAYERS}")
    types = structure.types
    strides = strides_for(structure, size)
    to_type = structure.type_index

    def stride_of(name: str | None) -> int:
        return 0 if name is None else strides[to_type(name)]

    zero = Fraction(0) if exact else 0.0
    eps = 0 if exact else TIE

    def ratio(a: int, b: int) -> Any:
        return Fraction(a, b) if exact else a / b

    solo = players == 1
    miss_cost = -1 if solo else 0  # solo: minus one per failed turn; pairs score nothing

    def gain(vec: Vector, seat: int, amount: Any) -> Vector:
        if not amount:
            return vec
        return vec[:seat] + (vec[seat] + amount,) + vec[seat + 1:]

    def weighted(terms: list[tuple[Any, Vector]]) -> Vector:
        total = [zero] * players
        for w, vec in terms:
            for i in range(players):
                total[i] += w * vec[i]
        return tuple(total)

    values: dict[int, Vector] = {}
    actives: dict[int, Vector] = {}
    known_second: dict[int, int] = {}

    def after_match(succ: int, amount: int) -> Vector:
        # The mover takes a pair and goes on (one flip per turn: the turn passes).
        vec = values[succ]
        return gain(rotate(vec, 1) if one_flip else vec, 0, 0 if solo else amount)

    def after_miss(succ: int) -> Vector:
        return gain(rotate(values[succ], 1), 0, miss_cost)

    def after_known_pair(succ: int, amount: int) -> Vector:
        # The next player takes the known pair first and goes on (one flip per turn: the
        # turn passes on again).
        vec = values[succ]
        taken = gain(rotate(vec, 1) if one_flip else vec, 0, 0 if solo else amount)
        return gain(rotate(taken, 1), 0, miss_cost)

    states = _states(structure, size)
    states.sort(key=lambda c: (lambda ck: (ck[0], -ck[1]))(_cards_and_known(structure, c)))
    for counts in states:
        key = sum(c * s for c, s in zip(counts, strides, strict=True))
        cards, known = _cards_and_known(structure, counts)
        unseen = cards - known
        if unseen == 0:
            values[key] = actives[key] = tuple([zero] * players)
            known_second[key] = 0
            continue
        terms = []
        choice = 0
        for t, ct in enumerate(counts):
            if not ct:
                continue
            for n, kind, arg in types[t].first:
                w = ratio(ct * n, unseen)
                if kind == MATCH:
                    terms.append((w, after_match(key - strides[t] + stride_of(arg), types[t].pair_value)))
                    continue
                assert arg is not None, "a first card that matches nothing opens its class"
                opened = structure.open_index(arg)
                op = structure.opens[opened]
                base = key - strides[t]
                closed = base + stride_of(op.close)
                rest = unseen - 1
                two = []  # 2-move: a second unseen card, of this class or another
                for n2, kind2, nxt in op.same:
                    succ = base + stride_of(nxt)
                    two.append((ratio(n2, rest), after_match(succ, types[t].pair_value) if kind2 == MATCH
                                else after_miss(succ)))
                for t2, ct2 in enumerate(counts):
                    others = ct2 - (t2 == t)
                    if others <= 0:
                        continue
                    for n2, kind2, nxt in types[t2].second:
                        succ = closed - strides[t2] + stride_of(nxt)
                        two.append((ratio(others * n2, rest),
                                    after_known_pair(succ, types[t2].pair_value) if kind2 == PAIR
                                    else after_miss(succ)))
                best = weighted(two)
                if known >= 1:  # 1-move: a known card second
                    one = after_miss(closed)
                    if one[0] > best[0] + eps:
                        best = one
                        choice |= 1 << opened
                terms.append((w, best))
        active = weighted(terms)
        actives[key] = active
        known_second[key] = choice
        passing = players >= 2 and known >= 2
        values[key] = chain_outcome(active, 0, eps)[0] if passing else active
    return ReferenceTable(structure, players, one_flip, strides, values, actives, known_second)


# ---------------------------------------------------------------------------- NumPy solver

# What follows a term of the recurrence.
CONTINUE = 0     # the mover took a pair and moves again (one flip per turn: the turn passes)
TURN_PASSES = 1  # no match: the next player moves
NEXT_TAKES = 2   # no match, and the next player starts by taking the known pair left


@dataclass
class _Layout:
    """Every position of a structure and every term of its recurrence, as flat arrays.

    Positions are rows ordered by *level* (the longest chain of turns to the empty table), so
    that a level depends only on lower ones and is solved with a few array operations.
    Terms: first-card matches (``match_*``), first cards that match nothing known (``x_*``,
    each with its 1-move successor ``x_closed``) and the 2-move outcomes of each of those
    (``two_*``, grouped by ``two_x``).
    """

    structure: Structure
    size: int
    strides: tuple[int, ...]
    rows: np.ndarray          # position key -> row, -1 for no position
    known: np.ndarray
    match_state: np.ndarray
    match_w: np.ndarray
    match_succ: np.ndarray
    match_value: np.ndarray
    x_state: np.ndarray
    x_w: np.ndarray
    x_open: np.ndarray
    x_closed: np.ndarray
    two_start: np.ndarray     # first 2-move term of each x
    two_w: np.ndarray
    two_succ: np.ndarray
    two_kind: np.ndarray
    two_value: np.ndarray
    first_match_pos: np.ndarray  # where each match term / x sits among its level's first terms
    first_x_pos: np.ndarray
    first_start: np.ndarray      # first first-term of each row
    levels: list[tuple[int, ...]]  # row, match, x, two and first-term ranges of each level

    @property
    def count(self) -> int:
        return len(self.known)


# Terms of the recurrence, as NumPy arrays over the positions that have them: first-card
# matches (positions, weights, successors, pair values), first cards that match nothing
# (positions, weights, open types, 1-move successors) and 2-move outcomes (index of their x
# term, positions, weights, successors, what follows, pair values).
MatchTerm = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
XTerm = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
TwoTerm = tuple[int, np.ndarray, np.ndarray, np.ndarray, int, int]


def _terms(structure: Structure, strides: tuple[int, ...], counts: np.ndarray, keys: np.ndarray,
           rows: np.ndarray) -> tuple[list[MatchTerm], list[XTerm], list[TwoTerm]]:
    """All terms of the recurrence for positions ``counts`` (rows in this order)."""
    types = structure.types
    unseen = counts @ np.array([t.cards - t.known for t in types])

    def stride_of(name: str | None) -> int:
        return 0 if name is None else strides[structure.type_index(name)]

    def row_of(key_array: np.ndarray) -> np.ndarray:
        found: np.ndarray = rows[key_array]
        assert (found >= 0).all(), "a successor outside the table"
        return found

    match: list[MatchTerm] = []
    xs: list[XTerm] = []
    twos: list[TwoTerm] = []
    for t, ct in enumerate(types):
        has = np.flatnonzero(counts[:, t] > 0)
        for n, kind, arg in ct.first:
            w = counts[has, t] * n / unseen[has]
            if kind == MATCH:
                succ = row_of(keys[has] - strides[t] + stride_of(arg))
                match.append((has, w, succ, np.full(len(has), ct.pair_value)))
                continue
            template = len(xs)
            assert arg is not None, "a first card that matches nothing opens its class"
            opened = structure.open_index(arg)
            op = structure.opens[opened]
            base = keys[has] - strides[t]
            closed = base + stride_of(op.close)
            xs.append((has, w, np.full(len(has), opened), row_of(closed)))
            rest = unseen[has] - 1
            for n2, kind2, nxt in op.same:
                twos.append((template, has, n2 / rest, row_of(base + stride_of(nxt)),
                             CONTINUE if kind2 == MATCH else TURN_PASSES,
                             ct.pair_value if kind2 == MATCH else 0))
            for t2, ct2 in enumerate(types):
                others = counts[has, t2] - (t2 == t)
                sel = others > 0
                for n2, kind2, nxt in ct2.second:
                    twos.append((template, has[sel], others[sel] * n2 / rest[sel],
                                 row_of(closed[sel] - strides[t2] + stride_of(nxt)),
                                 NEXT_TAKES if kind2 == PAIR else TURN_PASSES,
                                 ct2.pair_value if kind2 == PAIR else 0))
    return match, xs, twos


def _layout_uncached(structure: Structure, size: int) -> _Layout:
    types = structure.types
    strides = strides_for(structure, size)
    counts = np.array(_states(structure, size), dtype=np.int64)
    cards = counts @ np.array([t.cards for t in types])
    known = counts @ np.array([t.known for t in types])
    pre = np.lexsort((-known, cards))  # fewest cards first, then most known: a topological order
    counts, cards, known = counts[pre], cards[pre], known[pre]
    keys = counts @ np.array(strides)
    rows = np.full(int(keys.max()) + 1, -1, dtype=np.int64)
    rows[keys] = np.arange(len(keys))
    match, xs, twos = _terms(structure, strides, counts, keys, rows)

    # Levels: 1 + the highest level of any successor, one (cards, known) layer at a time.
    dep_state = np.concatenate([m[0] for m in match] + [x[0] for x in xs] + [t[1] for t in twos])
    dep_succ = np.concatenate([m[2] for m in match] + [x[3] for x in xs] + [t[3] for t in twos])
    order = np.argsort(dep_state, kind="stable")
    dep_state, dep_succ = dep_state[order], dep_succ[order]
    dep_start = np.searchsorted(dep_state, np.arange(len(keys)))
    level = np.zeros(len(keys), dtype=np.int64)
    layer_edges = np.flatnonzero(np.diff(cards * 1000 - known)) + 1
    for lo, hi in zip(np.r_[0, layer_edges], np.r_[layer_edges, len(keys)], strict=True):
        d0, d1 = dep_start[lo], dep_start[hi] if hi < len(keys) else len(dep_state)
        if d0 == d1:
            continue  # the empty table
        starts = dep_start[lo:hi] - d0
        level[lo:hi] = 1 + np.maximum.reduceat(level[dep_succ[d0:d1]], starts)

    # Final row order: by level. Renumber every row reference.
    final = np.argsort(level, kind="stable")
    renumber = np.empty_like(final)
    renumber[final] = np.arange(len(final))
    level, known = level[final], known[final]
    rows[keys] = renumber

    def cat(parts: Sequence[tuple[Any, ...]], i: int) -> np.ndarray:
        return np.concatenate([p[i] for p in parts]) if parts else np.zeros(0)

    m_state = renumber[cat(match, 0).astype(np.int64)]
    m_order = np.argsort(m_state, kind="stable")
    match_state, match_w = m_state[m_order], cat(match, 1)[m_order]
    match_succ, match_value = renumber[cat(match, 2)[m_order]], cat(match, 3)[m_order]

    x_template = np.concatenate([np.full(len(x[0]), i) for i, x in enumerate(xs)])
    x_state_all = renumber[cat(xs, 0)]
    x_order = np.lexsort((x_template, x_state_all))
    x_state = x_state_all[x_order]
    x_id = np.full((len(xs), len(keys)), -1, dtype=np.int64)
    x_id[x_template[x_order], x_state] = np.arange(len(x_state))
    two_x = np.concatenate([x_id[t[0], renumber[t[1]]] for t in twos])
    t_order = np.argsort(two_x, kind="stable")

    # First terms (matches and x) of a row together, in row order, for one sum per row.
    first_state = np.concatenate([match_state, x_state])
    f_order = np.argsort(first_state, kind="stable")
    first_pos = np.empty_like(f_order)
    first_pos[f_order] = np.arange(len(f_order))
    first_sorted = first_state[f_order]

    two_x_sorted = two_x[t_order]
    level_edges = np.flatnonzero(np.diff(level)) + 1
    levels = []
    for lo, hi in zip(np.r_[0, level_edges], np.r_[level_edges, len(level)], strict=True):
        if level[lo] == 0:
            continue
        m0, m1 = np.searchsorted(match_state, [lo, hi])
        x0, x1 = np.searchsorted(x_state, [lo, hi])
        t0, t1 = np.searchsorted(two_x_sorted, [x0, x1])
        f0, f1 = np.searchsorted(first_sorted, [lo, hi])
        levels.append(tuple(int(v) for v in (lo, hi, m0, m1, x0, x1, t0, t1, f0, f1)))
    return _Layout(
        structure=structure, size=size, strides=strides, rows=rows, known=known,
        match_state=match_state, match_w=match_w, match_succ=match_succ,
        match_value=match_value.astype(np.float64),
        x_state=x_state, x_w=cat(xs, 1)[x_order], x_open=cat(xs, 2)[x_order].astype(np.int64),
        x_closed=renumber[cat(xs, 3)[x_order]],
        two_start=np.searchsorted(two_x_sorted, np.arange(len(x_state))),
        two_w=cat(twos, 2)[t_order], two_succ=renumber[cat(twos, 3)[t_order]],
        two_kind=np.concatenate([np.full(len(t[1]), t[4]) for t in twos])[t_order],
        two_value=np.concatenate([np.full(len(t[1]), t[5], dtype=np.float64) for t in twos])[t_order],
        first_match_pos=first_pos[:len(match_state)], first_x_pos=first_pos[len(match_state):],
        first_start=np.searchsorted(first_sorted, np.arange(len(level))),
        levels=levels)


_LAYOUTS: dict[tuple[str, int], _Layout] = {}


def _layout(structure: Structure, size: int) -> _Layout:
    key = (structure.name, size)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = _layout_uncached(structure, size)
    return _LAYOUTS[key]


@dataclass
class Table:
    """Optimal play for one structure, player count and turn rule.

    Row ``r`` (``row(counts)``) of ``values`` is the value vector of a position, the player to
    move first (one player: minus the expected failed turns); ``actives`` the value when the
    mover moves rather than passes; ``known_second[r, o]`` whether, after a first card of open
    type ``o`` that matches nothing known, a known card should be turned second (1-move).
    """

    structure: Structure
    size: int
    players: int
    one_flip: bool
    strides: tuple[int, ...]
    rows: np.ndarray
    values: np.ndarray
    actives: np.ndarray
    known_second: np.ndarray

    def row(self, counts_by_name: dict[str, int]) -> int:
        key = position_key(self.structure, self.strides, counts_by_name)
        found = int(self.rows[key]) if 0 <= key < len(self.rows) else -1
        if found < 0:
            raise KeyError(f"no position {counts_by_name} in this table")
        return found

    def value(self, row: int) -> tuple[float, ...]:
        return tuple(self.values[row].tolist())

    def active(self, row: int) -> tuple[float, ...]:
        return tuple(self.actives[row].tolist())

    def second_is_known(self, row: int, open_name: str) -> bool:
        return bool(self.known_second[row, self.structure.open_index(open_name)])

    def value_of(self, counts_by_name: dict[str, int]) -> tuple[float, ...]:
        return self.value(self.row(counts_by_name))


def _chain_rows(active: np.ndarray, eps: float) -> np.ndarray:
    """``chain_outcome(row, 0)[0]`` for every row of ``active`` at once."""
    players = active.shape[1]
    mine, before = active[:, 0], active[:, -1]

    def prefers_pass(outcome: np.ndarray, offset: int) -> np.ndarray:
        after = outcome[:, offset]
        return (after > mine + eps) | ((after >= mine - eps) & (before > mine + eps))

    outcome = active
    for offset in range(players - 1, 0, -1):
        outcome = np.where(prefers_pass(outcome, offset)[:, None], outcome,
                           np.roll(active, offset, axis=1))
    return np.where(prefers_pass(outcome, 0)[:, None], outcome, active)


def solve(structure: Structure, size: int, players: int, one_flip: bool = False) -> Table:
    """The recurrence of ``solve_reference`` in floats, one level of positions at a time."""
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be 1 to {MAX_PLAYERS}")
    lay = _layout(structure, size)
    n = lay.count
    solo = players == 1
    miss_cost = -1.0 if solo else 0.0
    # shifted[r * n + i] is row i's value seen r seats earlier (np.roll by r).
    shifted = np.zeros((3 * n, players))
    values = shifted[:n]
    actives = np.zeros((n, players))
    known_second = np.zeros((n, len(structure.opens)), dtype=bool)

    def shift(kind: np.ndarray) -> np.ndarray:
        return np.select([kind == CONTINUE, kind == TURN_PASSES],
                         [int(one_flip), 1], 2 if one_flip else 1)

    pair_gain = 0.0 if solo else 1.0
    two_index = shift(lay.two_kind) * n + lay.two_succ
    two_gain_mover = np.where(lay.two_kind == CONTINUE, lay.two_value * pair_gain, miss_cost) * lay.two_w
    two_gain_next = np.where(lay.two_kind == NEXT_TAKES, lay.two_value * pair_gain, 0.0) * lay.two_w
    match_index = int(one_flip) * n + lay.match_succ
    match_gain = lay.match_value * pair_gain * lay.match_w
    closed_index = n + lay.x_closed
    can_one = lay.known[lay.x_state] >= 1
    passing = lay.known >= 2 if players >= 2 else np.zeros(n, dtype=bool)

    for lo, hi, m0, m1, x0, x1, t0, t1, f0, f1 in lay.levels:
        two = shifted[two_index[t0:t1]] * lay.two_w[t0:t1, None]
        two[:, 0] += two_gain_mover[t0:t1]
        if players > 1:
            two[:, 1] += two_gain_next[t0:t1]
        two = np.add.reduceat(two, lay.two_start[x0:x1] - t0, axis=0)
        one = shifted[closed_index[x0:x1]]
        one[:, 0] += miss_cost
        use_one = can_one[x0:x1] & (one[:, 0] > two[:, 0] + TIE)
        known_second[lay.x_state[x0:x1], lay.x_open[x0:x1]] = use_one
        best = np.where(use_one[:, None], one, two) * lay.x_w[x0:x1, None]

        first = np.empty((f1 - f0, players))
        first[lay.first_x_pos[x0:x1] - f0] = best
        matched = shifted[match_index[m0:m1]] * lay.match_w[m0:m1, None]
        matched[:, 0] += match_gain[m0:m1]
        first[lay.first_match_pos[m0:m1] - f0] = matched
        active = np.add.reduceat(first, lay.first_start[lo:hi] - f0, axis=0)
        actives[lo:hi] = active
        chained = passing[lo:hi]
        if chained.any():
            active = active.copy()
            active[chained] = _chain_rows(active[chained], TIE)
        values[lo:hi] = active
        shifted[n + lo:n + hi] = np.roll(active, 1, axis=1)
        shifted[2 * n + lo:2 * n + hi] = np.roll(active, 2, axis=1)
    return Table(structure, size, players, one_flip, lay.strides, lay.rows, values.copy(),
                 actives, known_second)


_TABLES: dict[tuple[str, int, bool], Table] = {}


def table(structure: Structure | str, players: int, one_flip: bool = False) -> Table:
    """The full-size table, built on first use and kept for the process (O(1) lookups)."""
    if isinstance(structure, str):
        structure = STRUCTURES[structure]
    if players == 1:
        one_flip = False  # failed turns do not depend on who moves after a match
    key = (structure.name, players, one_flip)
    if key not in _TABLES:
        _TABLES[key] = solve(structure, FULL_SIZE[structure.name], players, one_flip)
    return _TABLES[key]


def all_table_keys() -> list[tuple[str, int, bool]]:
    """Every table the site can use: each structure, 1–6 players, both turn rules."""
    return [(name, players, one_flip)
            for name in STRUCTURES
            for players in range(1, MAX_PLAYERS + 1)
            for one_flip in ((False,) if players == 1 else (False, True))]


def start_values(match: str, players: int, max_pairs: int, jokers: bool = False,
                 one_flip: bool = False, exact: bool = False) -> list[tuple[int, object]]:
    """The value of the start of a game of ``n`` pairs under perfect play, n = 1..max_pairs.

    Two players: the first player's expected pairs minus the second's. One player: the
    expected number of turns (pairs taken plus failed turns). Three or more: each seat's
    expected pairs, the first player first. The rank and zebra rules deal whole ranks of four,
    so they give only even ``n``. ``jokers`` adds the joker pair (worth two pairs) to every
    deck; ``exact`` computes in fractions (slow beyond a few dozen pairs).
    """
    structure = structure_for_match(match)
    per_class = 1 if structure.size_of == "pairs" else 2
    limit = {"pairs": 200, "rank": 52, "zebra": 26}[structure.name]
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be 1 to {MAX_PLAYERS}.")
    if not per_class <= max_pairs <= limit:
        raise ValueError(f"max pairs must be {per_class} to {limit} for the {match} rule.")
    size = max_pairs // per_class
    solved: ReferenceTable | Table
    if exact:
        solved = solve_reference(structure, size, players, one_flip, exact=True)
    else:
        solved = solve(structure, size, players, one_flip)
    start_type = structure.types[0].name  # every class unseen and complete
    answer = []
    for classes in range(1, size + 1):
        counts = {start_type: classes, "jokers": 1 if jokers else 0}
        value = solved.value_of(counts)
        pairs = classes * per_class
        if players == 1:
            answer.append((pairs, -value[0] + pairs + (1 if jokers else 0)))
        elif players == 2:
            answer.append((pairs, value[0] - value[1]))
        else:
            answer.append((pairs, value))
    return answer
