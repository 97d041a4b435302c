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
from games.sim.common import MAX_STEPS, play_one, summarise

FAST_FROM_GAMES = 200


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


def play_fast(opts: memory.Options, seed: int, levels: list[str],
              max_steps: int = MAX_STEPS) -> tuple[memory.State, bool]:
    """``common.play_one`` without views: same CPUs (same seeds), same states, same result."""
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
            first = list(state.face_up)
            flipped = state.grid.index(action["pos"])
            state.apply(seat, action)  # refuses a position that is not on the table
            assert flipped is not None and state.last is not None
            if state.last["result"] == "match":
                pair = first + [flipped]
                taken = [(i, state.cards[i]) for i in pair]
        tell()
    return state, state.is_over


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
