"""The review of a Memory game: each of the player's moves rated in expected pairs from the
tables the hard CPU plays by (games/review/memory_values.py), its cost split into memory slips
and strategy, and how much of the result was luck (docs/review.md).

A move is one or two flips: the first card, then the second. At each flip of every seat the
review reads the position everybody has seen (every card shown, still face down) and values:

- ``worth``: what the best choice was worth to the seat flipping (its expected future pairs);
- ``chosen``: what the choice it made was worth, before the card turned up;
- the seat's *cost* is the difference; *luck* is what the turned cards brought beyond ``chosen``.

Summed over the game, for the reviewed seat: pairs found + still expected at the end (0 once the
table is empty) = ``expected`` - ``cost`` + ``luck``, where ``expected`` is the start value plus
what the other seats' choices gave or cost it: "perfect play from what you had seen". Tie-break
rounds are not rated (the tables model a whole deck, not 4 pairs drawn from piles).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines.memory import FIRST, SECOND, State, cards_match, parse_options
from games.replay import apply_entry, new_state
from games.review.memory_values import UNSEEN, Values, Vector
from games.review.words import card_label, number, signed

SLIP = "memory_slip"
STRATEGY = "strategy"
EPS = 1e-9


def _absolute(vector: Vector, mover: int) -> list[float]:
    """A mover-frame vector as one entry per seat, seat 0 first."""
    players = len(vector)
    return [vector[(seat - mover) % players] for seat in range(players)]


class _Table:
    """What everybody has seen of the game's table, read from the engine's state."""

    def __init__(self, state: State):
        self.state = state

    def known(self, leave_out: list[int]) -> dict[int, str]:
        s = self.state
        return {i: s.cards[i] for i, taker in enumerate(s.taken_by)
                if taker is None and s.seen[i] and i not in leave_out}

    def unseen(self) -> Counter[str]:
        s = self.state
        return Counter(s.cards[i] for i, taker in enumerate(s.taken_by) if taker is None and not s.seen[i])


def review(options: dict[str, Any], seed: int, actions: list[Any], seat: int) -> dict[str, Any]:
    opts = parse_options(options)
    values = Values(opts)
    state = new_state("memory", options, seed)
    assert isinstance(state, State)
    table = _Table(state)
    stale = 0            # moves in a row, just before, that showed nothing new and took nothing
    first_known = False  # the move's first card had been shown before
    both_known = False   # ...and so had its second: a pass if they do not match
    shown_at: dict[int, int] = {}  # position -> flips made when it was last turned up
    flips: list[dict[str, Any]] = []  # every rated flip: seat, worth and chosen vectors, gained
    for step, entry in enumerate(actions, 1):
        mover, action, by = entry
        if by == "auto" or state.in_tie_break or state.is_over:
            apply_entry(state, entry)
            continue
        index = state.grid.index(action["pos"])
        assert index is not None, "a flip the engine refuses is not in a finished game's log"
        phase = state.phase
        rating = (_rate_first(values, table, state, stale, index, shown_at) if phase == FIRST
                  else _rate_second(values, table, state, stale, first_known, index, shown_at))
        if phase == FIRST:
            first_known = bool(state.seen[index])
        else:
            both_known = first_known and bool(state.seen[index])
        before = list(state.pairs)
        moves_before = state.moves
        apply_entry(state, entry)
        shown_at[index] = moves_before
        gained = [float(after - was) for after, was in zip(state.pairs, before, strict=True)]
        if values.solo:
            gained = [-1.0 if state.last and state.last.get("result") == "mismatch" else 0.0]
        if state.last and state.last.get("result") in ("match", "mismatch"):
            matched = state.last["result"] == "match"
            stale = stale + 1 if both_known and not matched else 0
        flips.append({"seat": mover, "step": step, "by": by, "pos": action["pos"], "phase": phase,
                      "worth": _absolute(rating["worth"], mover),
                      "chosen": _absolute(rating["chosen"], mover), "gained": gained,
                      "kind": rating["kind"], "note": rating["note"]})
    end = _worth_now(values, table, state, stale, first_known)
    return _summary(flips, end, seat, values, state)


def _rate_first(values: Values, table: _Table, state: State, stale: int, index: int,
                shown_at: dict[int, int]) -> dict[str, Any]:
    known_at = table.known([])
    known, unseen = list(known_at.values()), table.unseen()
    worth, best = values.best_first(known, unseen, stale)
    choice = known_at.get(index, UNSEEN)
    chosen = values.first(known, unseen, stale, choice)
    worth = _at_least(worth, chosen)
    kind, note = None, None
    if worth[0] - chosen[0] > EPS:
        pair = values.known_pair(known)
        if pair is not None:
            a, b = _pair_places(known_at, pair)
            kind = SLIP
            flips = state.moves - shown_at.get(b, 0)
            note = ngettext("%(a)s and %(b)s (%(card_a)s, %(card_b)s) were a known pair, the "
                            "%(card_b)s shown %(flips)s flip earlier; you turned %(pos)s instead.",
                            "%(a)s and %(b)s (%(card_a)s, %(card_b)s) were a known pair, the "
                            "%(card_b)s shown %(flips)s flips earlier; you turned %(pos)s instead.",
                            flips) % {
                "a": state.grid.name(a), "b": state.grid.name(b), "card_a": card_label(state.cards[a]),
                "card_b": card_label(state.cards[b]), "flips": flips, "pos": state.grid.name(index)}
        else:
            kind = STRATEGY
            if best == "pass":
                note = _("Turning two cards already seen (a pass) was better here: any new card "
                         "you showed helped the next player more than you.")
            else:  # a known card first: a pass, or a card forgotten and turned as if new
                flips = state.moves - shown_at.get(index, 0)
                note = ngettext("%(pos)s (%(card)s) had been shown %(flips)s flip earlier: turned "
                                "first, it shows nothing new; a new card first was better.",
                                "%(pos)s (%(card)s) had been shown %(flips)s flips earlier: turned "
                                "first, it shows nothing new; a new card first was better.", flips) % {
                    "pos": state.grid.name(index), "card": card_label(state.cards[index]), "flips": flips}
    return {"worth": worth, "chosen": chosen, "kind": kind, "note": note}


def _at_least(worth: Vector, chosen: Vector) -> Vector:
    """The best choice is at least the one made: with the jokers and one flip a turn, a known
    card turned first can beat every move the tables know (docs/review.md)."""
    return chosen if chosen[0] > worth[0] else worth


def _pair_places(known_at: dict[int, str], pair: tuple[str, str]) -> tuple[int, int]:
    """Where a known pair lies."""
    a = next(i for i, card in known_at.items() if card == pair[0])
    b = next(i for i, card in known_at.items() if card == pair[1] and i != a)
    return a, b


def _rate_second(values: Values, table: _Table, state: State, stale: int, first_known: bool,
                 index: int, shown_at: dict[int, int]) -> dict[str, Any]:
    first_index = state.face_up[0]
    first = state.cards[first_index]
    known_at = table.known([first_index])
    known, unseen = list(known_at.values()), table.unseen()
    worth, best = values.best_second(known, unseen, first, first_known, stale)
    choice = known_at.get(index, UNSEEN)
    chosen = values.second(known, unseen, first, first_known, stale, choice)
    worth = _at_least(worth, chosen)
    kind, note = None, None
    if worth[0] - chosen[0] > EPS:
        partners = [i for i, c in known_at.items() if cards_match(first, c, values.match)]
        if partners:
            place = partners[0]
            kind = SLIP
            flips = state.moves - shown_at.get(place, 0)
            note = ngettext("%(pos)s (%(card)s, shown %(flips)s flip earlier) was the partner of "
                            "the %(first)s you turned; you turned %(chosen)s instead.",
                            "%(pos)s (%(card)s, shown %(flips)s flips earlier) was the partner of "
                            "the %(first)s you turned; you turned %(chosen)s instead.", flips) % {
                "pos": state.grid.name(place), "card": card_label(state.cards[place]),
                "flips": flips, "first": card_label(first),
                "chosen": state.grid.name(index)}
        else:
            kind = STRATEGY
            if best is UNSEEN:
                note = _("A new card second was better: it might have matched the first one.")
            else:
                note = _("A card already seen was the better second card: a new one would have "
                         "shown the next player more than it was likely to win you.")
    return {"worth": worth, "chosen": chosen, "kind": kind, "note": note}


def _worth_now(values: Values, table: _Table, state: State, stale: int, first_known: bool) -> list[float]:
    """What is still to come for each seat where the log ends (nothing once the table is empty)."""
    if state.is_over or state.in_tie_break or all(t is not None for t in state.taken_by):
        return [0.0] * values.players
    if state.phase not in (FIRST, SECOND):  # the reveal: the next seat moves once it is over
        after = state.copy()
        after.apply_automatic()
        return _worth_now(values, _Table(after), after, stale, False)
    mover = state.turn_seat
    if state.phase == FIRST:
        known = list(table.known([]).values())
        return _absolute(values.best_first(known, table.unseen(), stale)[0], mover)
    first_index = state.face_up[0]
    known = list(table.known([first_index]).values())
    vector = values.best_second(known, table.unseen(), state.cards[first_index], first_known, stale)[0]
    return _absolute(vector, mover)


def _summary(flips: list[dict[str, Any]], end: list[float], seat: int, values: Values,
             state: State) -> dict[str, Any]:
    players = values.players
    luck = 0.0
    others = 0.0
    slips = strategy = 0.0
    moves: list[dict[str, Any]] = []
    for k, flip in enumerate(flips):
        after = flips[k + 1]["worth"] if k + 1 < len(flips) else end
        luck += flip["gained"][seat] + after[seat] - flip["chosen"][seat]
        delta = flip["chosen"][seat] - flip["worth"][seat]
        if flip["seat"] != seat:
            others += delta
            continue
        cost = -delta
        if flip["kind"] == SLIP:
            slips += cost
        elif flip["kind"] == STRATEGY:
            strategy += cost
        if flip["phase"] == FIRST or not moves:
            moves.append({"step": flip["step"], "flips": [], "by": flip["by"],
                          "worth": _units(values, flip["worth"][seat]),
                          "chosen": _units(values, flip["chosen"][seat]),
                          "cost": 0.0, "memory_slip": 0.0, "strategy": 0.0, "notes": []})
        move = moves[-1]
        move["flips"].append(flip["pos"])
        if flip["kind"]:
            move["cost"] += cost
            move["memory_slip" if flip["kind"] == SLIP else "strategy"] += cost
            move["notes"].append(flip["note"])
    for move in moves:
        for key in ("cost", "memory_slip", "strategy"):
            move[key] = round(move[key], 6)
    start = flips[0]["worth"][seat] if flips else end[seat]
    expected = start + others
    cost = slips + strategy
    found = state.pairs[seat] if players > 1 else state.failed[seat]
    return {
        "game": "memory", "seat": seat, "players": players,
        "units": "pairs" if players > 1 else "failed_turns",
        "moves": moves,
        "summary": {
            "found": found, "expected": round(_units(values, expected), 6),
            "still_expected": round(_units(values, end[seat]), 6),
            "cost": round(cost, 6), "memory_slips": round(slips, 6), "strategy": round(strategy, 6),
            "luck": round(luck, 6), "start": round(_units(values, start), 6),
            "text": _closing_line(values, found, _units(values, expected), cost, slips, luck),
        },
        "tie_break_rated": False,
        "explanation": _("Each move is rated with the exact tables the hard CPU plays by: what "
                         "the position was worth to you in expected pairs if everyone remembers "
                         "every card shown, and what your choice cost. A memory slip is a known "
                         "pair or a known partner left on the table; strategy is the choice "
                         "between a new card and one already seen. Luck is what the cards that "
                         "turned up brought beyond what was expected.") if players > 1 else
        _("Each move is rated with the exact tables the hard CPU plays by, in expected failed "
          "turns if you remember every card shown. A memory slip is a known pair or a known "
          "partner left on the table; strategy is the choice between a new card and one "
          "already seen. Luck is what the cards that turned up saved or cost you."),
    }


def _units(values: Values, value: float) -> float:
    """A table value as the review shows it: expected pairs, or (solo) expected failed turns."""
    return -value if values.solo else value


def _closing_line(values: Values, found: int, expected: float, cost: float, slips: float, luck: float) -> str:
    if values.solo:
        line = ngettext("You had %(found)s failed turn; perfect play from what you had seen "
                        "expected %(expected)s; luck %(luck)s.",
                        "You had %(found)s failed turns; perfect play from what you had seen "
                        "expected %(expected)s; luck %(luck)s.", found) % {"found": found, "expected": number(expected),
                                                     "luck": signed(luck)}
    else:
        line = ngettext("You found %(found)s pair; perfect play from what you had seen "
                        "expected %(expected)s; luck %(luck)s.",
                        "You found %(found)s pairs; perfect play from what you had seen "
                        "expected %(expected)s; luck %(luck)s.", found) % {"found": found, "expected": number(expected),
                                                     "luck": signed(luck)}
    if cost > 0.05:
        line += " " + _("Your choices cost %(cost)s (memory slips %(slips)s).") % {
            "cost": number(cost), "slips": number(slips)}
    return line
