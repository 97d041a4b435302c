"""``manage.py simulate bozu``: CPU-only Bozu Mekuri games, by the engine or by a NumPy fast path.

Two paths give the same JSON for the same arguments (tests/engines/test_bozu_sim.py checks it):

- the engine path plays every game through ``games.engines.bozu`` and the CPUs with
  ``common.play_one`` and builds the summary with ``common.summarise``, like every game;
- the fast path (``play_fast``) plays many games at once with NumPy: one array operation per
  flip for a whole batch of games. It deals with the engine's own deal (SplitMix64 keys,
  sorted), so the same seed gives the same deck and the same final piles.

The fast path is used when ``--fast`` is given, and automatically from ``FAST_FROM_GAMES``
games up (the engine path plays a few hundred games a second through views and CPUs). The
CPU levels do not change play (every level flips), so the fast path needs no CPU.
"""
from __future__ import annotations

import time

import numpy as np

from games.cpu import bozu as bozu_cpu
from games.engines import bozu
from games.engines.base import GOLDEN_GAMMA, MASK64, MIX_MULTIPLIER_1, MIX_MULTIPLIER_2, InvalidOptions
from games.engines.bozu_cards import CARDS, POEMS, SEMIMARU_POEM
from games.sim.common import game_seeds, play_one, summarise

FAST_FROM_GAMES = 10_000
BATCH = 8192  # games per NumPy batch: large enough to amortise, small enough to stay in cache
FLIPS = len(POEMS)

# Role codes for the arrays, in the engine's ROLES order; "to_pile" needs no code of its own
# below: every role that is not a monk's or a lady's puts the card on the flipper's pile.
ROLE_CODE = {role: code for code, role in enumerate(bozu.ROLES)}
_PILE_TO_CENTRE = ROLE_CODE[bozu.PILE_TO_CENTRE]
_TAKES_CENTRE = ROLE_CODE[bozu.TAKES_CENTRE]
_FLIP_AGAIN = ROLE_CODE[bozu.FLIP_AGAIN]
_MISS_NEXT_TURN = ROLE_CODE[bozu.MISS_NEXT_TURN]
_OTHERS_TO_CENTRE = ROLE_CODE[bozu.OTHERS_TO_CENTRE]

# poem * golden gamma (mod 2**64) for poems 1..100: the per-card SplitMix64 increments.
_POEM_GAMMAS = np.array([(poem * GOLDEN_GAMMA) & MASK64 for poem in POEMS], dtype=np.uint64)


def run(players: int | None = None, levels: list[str] | None = None, games: int = 100,
        seed: int = 1, options: dict | None = None, fast: bool = False) -> dict:
    opts = _options(players, options)
    levels = _levels(levels, opts.players)
    if not isinstance(games, int) or games < 1:
        raise InvalidOptions("games must be a positive whole number.")
    if fast or games >= FAST_FROM_GAMES:
        return run_fast(opts, levels, games, seed)
    return run_engine(opts, levels, games, seed)


def run_engine(opts: bozu.Options, levels: list[str], games: int, seed: int) -> dict:
    def mean_centre(states: list) -> dict:
        return {"mean_centre": round(sum(len(s.centre) for s in states) / max(1, len(states)), 4)}

    return summarise(bozu.GAME, games, opts.players, levels, seed,
                     lambda game_seed: play_one(bozu, bozu_cpu, opts, game_seed, levels),
                     extra=mean_centre)


def run_fast(opts: bozu.Options, levels: list[str], games: int, seed: int) -> dict:
    started = time.perf_counter()
    piles, centre, _ = play_fast(np.array(game_seeds(seed, games), dtype=np.uint64), opts)
    players = opts.players
    top = piles.max(axis=1)
    draw = (piles == top[:, None]).sum(axis=1) > 1
    wins = np.bincount(piles[~draw].argmax(axis=1), minlength=players)
    # Python ints, summed exactly, then divided as summarise divides its (exact) float sums.
    summary = {
        "game": bozu.GAME,
        "games": games,
        "players": players,
        "cpu": levels,
        "wins": [int(w) for w in wins],
        "draws": int(draw.sum()),
        "mean_score": [round(int(total) / games, 4) for total in piles.sum(axis=0, dtype=np.int64)],
        "mean_winner_score": round(int(top.sum(dtype=np.int64)) / games, 4),
        "unfinished": 0,  # every game ends after exactly 100 flips
        "mean_centre": round(int(centre.sum(dtype=np.int64)) / games, 4),
    }
    summary["seconds"] = round(time.perf_counter() - started, 3)
    return summary


def play_fast(seeds: np.ndarray, opts: bozu.Options) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Final pile counts (games × players), centre counts, and the seat that flipped Semimaru,
    for these game seeds."""
    seeds = np.asarray(seeds, dtype=np.uint64)
    piles = np.empty((len(seeds), opts.players), dtype=np.int32)
    centre = np.empty(len(seeds), dtype=np.int32)
    semimaru_seat = np.empty(len(seeds), dtype=np.intp)
    roles = card_role_codes(opts)
    for start in range(0, len(seeds), BATCH):
        stop = start + BATCH
        piles[start:stop], centre[start:stop], semimaru_seat[start:stop] = _play_batch(seeds[start:stop], roles, opts)
    return piles, centre, semimaru_seat


def option_effects(options: dict, games: int, seed: int) -> dict:
    """What a rule option does to the seats' chances, by the fast path: each seat's share of
    the games won outright (``shares``, in %), the draws, and the share of the games won
    outright by the seat that flipped Semimaru (``semimaru_flipper_share``, in %: with equal
    chances it would be one in ``players``)."""
    opts = _options(None, options)
    piles, _, flipper = play_fast(np.array(game_seeds(seed, games), dtype=np.uint64), opts)
    top = piles.max(axis=1)
    outright = (piles == top[:, None]).sum(axis=1) == 1
    winner = piles.argmax(axis=1)
    wins = np.bincount(winner[outright], minlength=opts.players)
    return {
        "options": options, "games": games, "seed": seed, "players": opts.players,
        "shares": [round(100 * int(w) / games, 2) for w in wins],
        "draws": int((~outright).sum()),
        "semimaru_flipper_share": round(100 * int((outright & (winner == flipper)).sum()) / games, 2),
    }


def card_role_codes(opts: bozu.Options) -> np.ndarray:
    """Role code of poem ``i + 1`` at index ``i``, under these options."""
    roles = bozu.card_roles(opts)
    # CARDS[0] is no card: the poems count from 1.
    return np.array([ROLE_CODE[roles[card.type]] for card in CARDS if card is not None], dtype=np.int8)


def deal_fast(seeds: np.ndarray) -> np.ndarray:
    """``bozu.deal`` for many seeds at once: poem indices (0-based), top card first."""
    z = seeds[:, None] + _POEM_GAMMAS[None, :]  # uint64 arrays wrap, as the engine masks
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX_MULTIPLIER_1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX_MULTIPLIER_2)
    z ^= z >> np.uint64(31)
    # The keys of one game are distinct (the mix is a bijection), so any sort gives the same order.
    return np.argsort(z, axis=1)


def _play_batch(seeds: np.ndarray, role_of_index: np.ndarray, opts: bozu.Options):
    n, players = len(seeds), opts.players
    deck = deal_fast(seeds)
    roles = role_of_index[deck]  # (games, 100): the role of each flip in order
    rows = np.arange(n)
    semimaru_seat = np.zeros(n, dtype=np.intp)
    piles = np.zeros((n, players), dtype=np.int32)
    centre = np.zeros(n, dtype=np.int32)
    current = np.zeros(n, dtype=np.intp)
    skip = np.zeros((n, players), dtype=bool)
    for flip in range(FLIPS):
        role = roles[:, flip]
        flips_semimaru = deck[:, flip] == SEMIMARU_POEM - 1
        semimaru_seat[flips_semimaru] = current[flips_semimaru]
        own = piles[rows, current]
        monk = role == _PILE_TO_CENTRE
        lady = role == _TAKES_CENTRE
        taken = np.where(lady, centre, 0)
        new_own = np.where(monk, 0, own + 1 + taken)  # every other role keeps the card
        centre = np.where(monk, centre + own + 1, np.where(lady, 0, centre))
        if opts.semimaru == "others_to_centre":
            semimaru = np.flatnonzero(role == _OTHERS_TO_CENTRE)
            centre[semimaru] += piles[semimaru].sum(axis=1) - own[semimaru]
            piles[semimaru] = 0
        piles[rows, current] = new_own

        again = role == _FLIP_AGAIN
        if opts.lady_empty_again:
            again |= lady & (taken == 0)
        following = (current + 1) % players
        if opts.semimaru == "skip":
            semimaru = np.flatnonzero(role == _MISS_NEXT_TURN)
            skip[semimaru, current[semimaru]] = True
            # A seat misses its turn only when the turn really passes to it (not on a
            # flip-again). One Semimaru, so at most one flag is ever set: one step past it
            # is enough (the engine's loop would do the same).
            missed = np.flatnonzero(skip[rows, following] & ~again)
            skip[missed, following[missed]] = False
            following[missed] = (following[missed] + 1) % players
        current = np.where(again, current, following)
    return piles, centre, semimaru_seat


def _options(players: int | None, options: dict | None) -> bozu.Options:
    raw = dict(options or {})
    if players is not None:
        if "players" in raw and raw["players"] != players:
            raise InvalidOptions(f"--players {players} disagrees with the option players={raw['players']}.")
        raw["players"] = players
    return bozu.parse_options(raw)


def _levels(levels: list[str] | None, players: int) -> list[str]:
    levels = list(levels) if levels else ["medium"] * players
    for level in levels:
        if level not in bozu_cpu.LEVELS:
            raise InvalidOptions(f"Unknown CPU level {level!r}; expected one of {', '.join(bozu_cpu.LEVELS)}.")
    return levels
