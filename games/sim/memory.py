"""``manage.py simulate memory``: CPU-only Memory games.

Two paths play the same games and give the same JSON for the same arguments (the tests check
it game by game):

- the engine path (``common.play_one``): every CPU gets its seat's full view after every step
  and chooses from a view, exactly as in a room;
- the fast path (``play_fast``): the same engine states and the same CPUs, but each CPU is told
  what it would read in its view (flips made, turns completed, cards face up, cards taken)
  through ``MemoryCpu.see`` / ``decide``, without building views. Views are most of the cost
  of a game, so this is several times faster.

The fast path is used with ``--fast`` and from ``FAST_FROM_GAMES`` games up, except with the
tie-break round (its new table reaches the CPUs through their views). Summary: the
common keys plus ``mean_failed_flips`` (turns whose two cards did not match, all seats; the
solo score) and ``mean_moves`` (flips a game).
"""
from __future__ import annotations

import random

from games.cpu import memory as memory_cpu
from games.engines import memory
from games.engines.base import InvalidOptions
from games.sim.common import MAX_STEPS, Watch, game_seeds, play_one, summarise

FAST_FROM_GAMES = 200
RETENTION_TURNS = (1, 2, 3, 5, 10, 20)  # the ages (turns) at which a level's memory is measured


def run(players: int | None = None, levels: list[str] | None = None, games: int = 100,
        seed: int = 1, options: dict | None = None, fast: bool = False) -> dict:
    opts = _options(players, options)
    levels = _levels(levels, opts.players)
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise InvalidOptions("games must be a positive whole number.")
    # A tie-break round changes the table under the CPUs, which only a view tells them.
    fast_path = (fast or games >= FAST_FROM_GAMES) and not opts.tie_break
    play_one_game = play_fast if fast_path else play_one_with_views
    return summarise(memory.GAME, games, opts.players, levels, seed,
                     lambda game_seed: play_one_game(opts, game_seed, levels), extra=_extra)


def play_one_with_views(opts: memory.Options, seed: int, levels: list[str]) -> tuple[memory.State, bool]:
    """The engine path: ``common.play_one``, every CPU fed its seat's views."""
    return play_one(memory, memory_cpu, opts, seed, levels)


def _extra(states: list) -> dict:
    done = max(1, len(states))
    return {
        "mean_failed_flips": round(sum(sum(s.failed) for s in states) / done, 4),
        "mean_moves": round(sum(s.moves for s in states) / done, 4),
    }


def play_fast(opts: memory.Options, seed: int, levels: list[str], max_steps: int = MAX_STEPS,
              watch: Watch | None = None) -> tuple[memory.State, bool]:
    """``common.play_one`` without views: same CPUs (same seeds), same states, same result.
    ``watch(state, cpu, action)`` is called with each CPU's flip before it is made."""
    state = memory.new_game(opts, seed)
    rng = random.Random(seed ^ 0x5EED)
    cpus = [memory_cpu.make_cpu(levels[s % len(levels)], s, rng.getrandbits(63), opts)
            for s in range(state.players)]
    taken: list[tuple[int, str]] = []

    def tell() -> None:
        up = [(i, state.cards[i]) for i in state.face_up]
        for cpu in cpus:
            cpu.see(state.moves, state.turn_number, up, taken)

    tell()
    for _ in range(max_steps):
        if state.is_over:
            return state, True
        taken = []
        if state.pending_automatic():
            state.apply_automatic()
        else:
            seat = state.current_player
            assert seat is not None, "no automatic step pending: a seat is to flip"
            cpu = cpus[seat]
            cpu.see(state.moves, state.turn_number, [(i, state.cards[i]) for i in state.face_up], taken)
            action = cpu.decide()
            if watch:
                watch(state, cpu, action)
            first = list(state.face_up)
            flipped = state.grid.index(action["pos"])
            state.apply(seat, action)  # refuses a position that is not on the table
            assert flipped is not None and state.last is not None
            if state.last["result"] == "match":
                pair = first + [flipped]
                taken = [(i, state.cards[i]) for i in pair]
        tell()
    return state, state.is_over


def measure_level(level: str, games: int = 100, seed: int = 1) -> dict:
    """How a level remembers, measured in two-player games where both seats play it.

    ``retention``: at each of its flips, the share of the face-down cards last shown k turns
    ago (k in ``RETENTION_TURNS``) that it still remembers. ``slip``: of its flips made for a
    card it remembers (one of a remembered pair, or the remembered partner of its face-up first
    card), the share that turned another card (easy's neighbour); ``aims``: how many such flips.
    The games are two decks' 104 cards (each card has one partner): with 52, a level that
    remembers clears the table before a card can stay down 20 turns.
    """
    opts = memory.parse_options({"cards": 104})
    measure = _Measure()
    for game_seed in game_seeds(seed, games):
        measure.last_shown = {}
        play_fast(opts, game_seed, [level], watch=measure)
    return {
        "level": level, "games": games,
        "retention": {k: round(measure.kept[k] / measure.counted[k], 3) if measure.counted[k] else None
                      for k in RETENTION_TURNS},
        "slip": round(measure.slips / measure.aims, 3) if measure.aims else None, "aims": measure.aims,
    }


class _Measure:
    """``measure_level``'s watch: looks at what the CPU remembers at each of its flips."""

    def __init__(self) -> None:
        self.last_shown: dict[int, int] = {}  # position -> the turn it was last face up in
        self.counted = dict.fromkeys(RETENTION_TURNS, 0)
        self.kept = dict.fromkeys(RETENTION_TURNS, 0)
        self.aims = self.slips = 0

    def __call__(self, state: memory.State, cpu: memory_cpu.MemoryCpu, action: dict) -> None:
        if state.last and state.last["type"] == "conceal":  # the cards of the turn just ended
            for name in state.last["positions"]:
                index = state.grid.index(name)
                assert index is not None, "a conceal names places of the table"
                self.last_shown[index] = state.turn_number - 1
        for index in state.face_up:
            self.last_shown[index] = state.turn_number
        remembered = cpu.remembered()
        for index in state.face_down():
            age = state.turn_number - self.last_shown.get(index, state.turn_number)
            if age in self.counted:
                self.counted[age] += 1
                self.kept[age] += index in remembered
        targets = _remembered_targets(state, remembered)
        if targets:
            self.aims += 1
            self.slips += state.grid.index(action["pos"]) not in targets


def _remembered_targets(state: memory.State, remembered: dict[int, str]) -> set[int]:
    """The cards a flip now would go for: both cards of every remembered pair on a turn's first
    flip, the remembered partners of the face-up card on its second."""
    match = state.options.match
    if state.face_up:
        first = state.cards[state.face_up[0]]
        return {i for i, card in remembered.items() if memory.cards_match(first, card, match)}
    return {i for i, card in remembered.items()
            for j, other in remembered.items() if i != j and memory.cards_match(card, other, match)}


def _options(players: int | None, options: dict | None) -> memory.Options:
    raw = dict(options or {})
    if players is not None:
        if "players" in raw and raw["players"] != players:
            raise InvalidOptions(f"--players {players} disagrees with the option players={raw['players']}.")
        raw["players"] = players
    return memory.parse_options(raw)


def _levels(levels: list[str] | None, players: int) -> list[str]:
    levels = list(levels) if levels else ["hard"] * players
    for level in levels:
        if level not in memory_cpu.LEVELS:
            raise InvalidOptions(f"Unknown CPU level {level!r}; expected one of {', '.join(memory_cpu.LEVELS)}.")
    if len(levels) not in (1, players):
        raise InvalidOptions(f"Give one CPU level for every seat or one per seat ({players}), "
                             f"not {len(levels)}.")
    return levels
