"""CPU players for Memory (docs/memory.md, "CPU players").

A CPU sees only its seat's views: it remembers the cards it has seen face up, with a lifetime
that depends on its level, and forgets them when the lifetime runs out.

- ``easy``: forgets the cards almost at once (a card seen one turn ago is remembered about
  half the time, three turns ago hardly ever), and when it goes for a card it remembers, often
  turns a neighbour of it instead. Plays greedily: a known pair if it has one, otherwise an
  unseen card and, if its partner is not remembered, a second unseen card.
- ``medium``: remembers for a while, plays greedily, never confuses cards.
- ``hard``: forgets rarely, and otherwise plays the optimal policy of the perfect-memory game
  from the Zwick–Paterson tables (``games.cpu.memory_tables``): known pairs first; then a
  0-move (two known cards) where the table says so; otherwise an unseen card and, if it matches
  nothing known, a known or an unseen second card as the table says.
- ``perfect``: the ``hard`` policy with no forgetting (for analysis and tests).

The table is a model of the game in which everybody remembers everything; the CPU reads it
with what it itself remembers. A 0-move shows nothing new, so games must not stall on it: a
table player never passes twice in a row in an unchanged position (no card taken and no card
shown for the first time since its last pass), and reads the table's pass round with the number
of turns already passed in this position (``memory_tables.chain_outcome``).

A tie-break round (2 rows of 4 cards drawn from the tied players' piles) is a new, small
table: the CPU forgets the game's table and plays the round greedily (the tables model a whole
deck, not a draw from it).

Two ways in, with the same effect: ``observe(view)`` / ``choose(view)`` (what a room does) and
``see(...)`` / ``decide()`` (what the simulator's fast path does, without building views).
Decisions are deterministic given the seed and what was seen; the state is JSON (``to_json``).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.cpu import memory_tables
from games.engines.base import IllegalAction, InvalidOptions, SplitMix64
from games.engines.errors import ErrorCode
from games.engines.memory import (
    JOKER,
    Options,
    cards_match,
    deck,
    grid_for,
    is_red,
    parse_options,
    round_grid,
)

LEVELS = ("easy", "medium", "hard", "perfect")


@dataclass(frozen=True)
class Profile:
    memory: float | None  # mean number of flips a card stays remembered; None: for ever
    confusion: float      # chance of turning a neighbour instead of a remembered card
    optimal: bool         # plays the table; otherwise greedily


PROFILES = {
    # The rules page's words: easy "forgets the cards at once and, even when it remembers them,
    # often mixes them up with the card next to it" (docs/memory.md has the measured curves).
    "easy": Profile(memory=1.5, confusion=0.45, optimal=False),
    "medium": Profile(memory=100.0, confusion=0.0, optimal=False),
    "hard": Profile(memory=1000.0, confusion=0.0, optimal=True),
    "perfect": Profile(memory=None, confusion=0.0, optimal=True),
}

# The open type (memory_tables) of a first card that matches nothing known, by the type its
# class had before: what the table needs to choose the second card.
_OPENED = {"pair": "pair_open", "four": "four_open", "four_known": "four_known_open",
           "two": "two_open", "jokers": "jokers_open"}
_KNOWN_PAIR = "known pair"


def card_class(card: str, match: str) -> str:
    """The cards that can match one another: a rank, a rank and colour, or one card."""
    if card == JOKER or match == "identical":
        return card
    if match == "colour":
        return card[0] + ("R" if is_red(card) else "B")
    return card[0]  # rank and zebra


def class_type(match: str, joker: bool, remaining: int, known: list[str]) -> str | None:
    """The table type of a class with ``remaining`` cards on the table, ``known`` of them known.

    ``_KNOWN_PAIR`` when two known cards match (they are taken first); None when it is gone.
    """
    if remaining == 0:
        return None
    k = len(known)
    if joker or match in ("colour", "identical"):
        names = ("jokers", "joker_known") if joker else ("pair", "half_known")
        return names[k] if k < 2 else _KNOWN_PAIR
    if k == 0:
        return "four" if remaining == 4 else "two"
    if k == 1:
        return "four_known" if remaining == 4 else "two_known"
    if match == "zebra" and remaining == 4 and k == 2 and is_red(known[0]) == is_red(known[1]):
        return "four_known_two"
    return _KNOWN_PAIR


class MemoryCpu:
    def __init__(self, level: str, seat: int, seed: int, options: Options | dict[str, Any] | None):
        if level not in LEVELS:
            raise InvalidOptions(f"Unknown CPU level {level!r}; expected one of {', '.join(LEVELS)}.")
        self.level = level
        self.profile = PROFILES[level]
        self.seat = seat
        self.seed = seed
        self.opts = parse_options(options)
        self.grid = grid_for(self.opts)
        self.round = 0  # the tie-break round being played, 0 for the game's own table
        match = self.opts.match
        self.class_of = {card: card_class(card, match) for card in set(deck(self.opts))}
        self.class_total = Counter(self.class_of[card] for card in deck(self.opts))
        self.classes = sorted(self.class_total)
        self.rng = SplitMix64(seed)  # its whole state is one integer, saved in to_json
        # What it remembers: position -> [card, flips count after which it is forgotten or None].
        self.memory: dict[int, list[Any]] = {}
        self.taken: dict[int, str] = {}
        self.class_taken: Counter[str] = Counter()
        self.up: dict[int, str] = {}
        self.seen: set[int] = set()     # positions ever shown face up (public knowledge)
        self.version = 0                # public changes seen: a card shown first or taken
        self.turn_changed = False
        self.stale_turns = 0            # turns in a row, just before now, that changed nothing
        self.last_pass_version: int | None = None
        self.passing = False            # its current turn is a 0-move
        self.moves = 0
        self.turn_number = 0

    # ------------------------------------------------------------------ randomness

    def _uniform(self) -> float:
        return self.rng.uniform()

    def _pick(self, positions: list[int]) -> int:
        return positions[self.rng.below(len(positions))]

    # ------------------------------------------------------------------ seeing

    def observe(self, view: dict[str, Any]) -> None:
        tie_break = view.get("tie_break")
        round_now = tie_break["round"] if tie_break and tie_break["winner"] is None else 0
        if round_now != self.round:
            self._new_table(round_now, len(view["layout"]))
        self.see(*_snapshot(view))

    def _new_table(self, round_now: int, count: int) -> None:
        """A tie-break round is laid out: nothing remembered holds on this table."""
        self.round = round_now
        self.grid = round_grid(count) if round_now else grid_for(self.opts)
        self.memory, self.taken, self.up, self.seen = {}, {}, {}, set()
        self.class_taken = Counter()

    def see(self, moves: int, turn_number: int, up: list[tuple[int, str]],
            taken: list[tuple[int, str]]) -> None:
        """Takes in a moment of the game: flips made, turns completed, the cards face up and
        (at least the newly) taken cards. Seeing the same moment twice changes nothing."""
        self.moves = moves
        for index, card in taken:
            if index not in self.taken:
                self.taken[index] = card
                self.class_taken[self.class_of[card]] += 1
                self.memory.pop(index, None)
                self._changed()
        shown = dict(up)
        for index in sorted(shown):
            if self.up.get(index) != shown[index]:
                self._remember(index, shown[index])
                if index not in self.seen:
                    self.seen.add(index)
                    self._changed()
        self.up = shown
        while self.turn_number < turn_number:
            self.turn_number += 1
            self.stale_turns = 0 if self.turn_changed else self.stale_turns + 1
            self.turn_changed = False
            self.passing = False

    def _changed(self) -> None:
        self.version += 1
        self.turn_changed = True

    def _remember(self, index: int, card: str) -> None:
        mean = self.profile.memory
        if mean is None:
            self.memory[index] = [card, None]
            return
        lifetime = 1 + int(-mean * math.log(1.0 - self._uniform()))
        self.memory[index] = [card, self.moves + lifetime]

    def remembered(self) -> dict[int, str]:
        """Face-down cards it still remembers, by position."""
        for index in [i for i, (_, until) in self.memory.items() if until is not None and until <= self.moves]:
            del self.memory[index]
        return {i: card for i, (card, _) in self.memory.items() if i not in self.up}

    def _face_down(self) -> list[int]:
        return [i for i in range(self.grid.count) if i not in self.taken and i not in self.up]

    # ------------------------------------------------------------------ choosing

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        if view.get("current_player") != self.seat or not view.get("legal_actions"):
            raise IllegalAction(f"Seat {self.seat} has nothing to do now.", ErrorCode.NOT_YOUR_TURN)
        self.observe(view)
        return self.decide()

    def decide(self) -> dict[str, Any]:
        """The flip to make now (it is this CPU's turn)."""
        known = self.remembered()
        if self.up:
            index = self._second(known, next(iter(self.up.items())))
        else:
            index = self._first(known)
        return {"type": "flip", "pos": self.grid.name(index)}

    def _first(self, known: dict[int, str]) -> int:
        pair = self._known_pair(known)
        if pair is not None:
            return self._aim(pair[0])
        unseen = [i for i in self._face_down() if i not in known]
        if self.profile.optimal and not self.round and len(known) >= 2 and self.opts.players >= 2 \
                and self.last_pass_version != self.version:
            table = self._table()
            row = table.row(self._position(known))
            if memory_tables.chain_outcome(table.active(row), self.stale_turns)[1]:
                self.passing = True
                self.last_pass_version = self.version
                return self._pick(sorted(known))
        return self._pick(unseen) if unseen else self._pick(sorted(known))

    def _second(self, known: dict[int, str], first: tuple[int, str]) -> int:
        first_index, first_card = first
        if self.passing and known:
            return self._pick(sorted(known))
        match = self.opts.match
        partners = sorted(i for i, card in known.items() if cards_match(first_card, card, match))
        if partners:
            return self._aim(partners[0])
        if self.profile.optimal and not self.round and known:
            table = self._table()
            position = self._position(known)
            cls = self.class_of[first_card]
            before = class_type(match, first_card == JOKER,
                                self.class_total[cls] - self.class_taken[cls],
                                [c for c in known.values() if self.class_of[c] == cls])
            assert before is not None, "the first card's class is on the table"
            if table.second_is_known(table.row(position), _OPENED[before]):
                return self._pick(sorted(known))
        unseen = [i for i in self._face_down() if i not in known]
        return self._pick(unseen) if unseen else self._pick(sorted(known))

    def _aim(self, index: int) -> int:
        """Goes for a remembered card, or (easy) for one of its neighbours by mistake."""
        if self.profile.confusion and self._uniform() < self.profile.confusion:
            near = [i for i in self.grid.neighbours(index) if i not in self.taken and i not in self.up]
            if near:
                return self._pick(near)
        return index

    def _known_pair(self, known: dict[int, str]) -> tuple[int, int] | None:
        items = sorted(known.items())
        for a, (i, card) in enumerate(items):
            for j, other in items[a + 1:]:
                if cards_match(card, other, self.opts.match):
                    return i, j
        return None

    def _table(self) -> memory_tables.Table:
        structure = memory_tables.structure_for_match(self.opts.match)
        return memory_tables.table(structure, self.opts.players, self.opts.one_flip)

    def _position(self, known: dict[int, str]) -> dict[str, int]:
        """The table position as this CPU remembers it: classes counted by type."""
        known_by_class: dict[str, list[str]] = {}
        for card in known.values():
            known_by_class.setdefault(self.class_of[card], []).append(card)
        counts: Counter[str] = Counter()
        for cls in self.classes:
            kind = class_type(self.opts.match, cls == JOKER, self.class_total[cls] - self.class_taken[cls],
                              known_by_class.get(cls, []))
            if kind is not None:
                counts[kind] += 1
        return counts

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "memory", "level": self.level, "seat": self.seat, "seed": self.seed,
            "options": self.opts.to_json(), "rng": self.rng.state,
            "memory": [[i, card, until] for i, (card, until) in sorted(self.memory.items())],
            "taken": [[i, card] for i, card in sorted(self.taken.items())],
            "up": [[i, card] for i, card in sorted(self.up.items())],
            "seen": sorted(self.seen), "version": self.version, "turn_changed": self.turn_changed,
            "stale_turns": self.stale_turns, "last_pass_version": self.last_pass_version,
            "passing": self.passing, "moves": self.moves, "turn_number": self.turn_number,
            "round": self.round, "count": self.grid.count,
        }


def make_cpu(level: str, seat: int, seed: int, options: Options | dict[str, Any] | None) -> MemoryCpu:
    return MemoryCpu(level, seat, seed, options)


def cpu_from_json(data: dict[str, Any]) -> MemoryCpu:
    cpu = MemoryCpu(data["level"], data["seat"], data["seed"], data["options"])
    cpu.rng = SplitMix64(data["rng"])
    if data.get("round"):
        cpu.round, cpu.grid = data["round"], round_grid(data["count"])
    cpu.memory = {i: [card, until] for i, card, until in data["memory"]}
    cpu.taken = {i: card for i, card in data["taken"]}
    cpu.class_taken = Counter(cpu.class_of[card] for card in cpu.taken.values())
    cpu.up = {i: card for i, card in data["up"]}
    cpu.seen = set(data["seen"])
    cpu.version = data["version"]
    cpu.turn_changed = data["turn_changed"]
    cpu.stale_turns = data["stale_turns"]
    cpu.last_pass_version = data["last_pass_version"]
    cpu.passing = data["passing"]
    cpu.moves = data["moves"]
    cpu.turn_number = data["turn_number"]
    return cpu


def _snapshot(view: dict[str, Any]) -> tuple[int, int, list[tuple[int, str]], list[tuple[int, str]]]:
    """What ``see`` takes, read from a view."""
    columns = view["columns"]
    up, taken = [], []
    for entry in view["layout"]:
        if entry["state"] == "up":
            up.append((entry["row"] * columns + entry["column"], entry["card"]))
        elif entry["state"] == "taken":
            taken.append((entry["row"] * columns + entry["column"], entry["card"]))
    return view["moves"], view["turn_number"], up, taken
