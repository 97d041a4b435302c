"""Deals anyone can verify: each game commits to its deal before the first move and reveals it
at the end (docs/protocol.md, "Fairness"; docs/verify.md checks a whole game).

A game's *commitment* is the SHA-256 of the canonical JSON of ``{"game", "options", "salt",
"seed"}``: the game's seed (which decides every card and, through ``cpu_seed``, every random
choice of its CPUs) and 32 random hex characters that keep the seed from being guessed from
the commitment. The salt stays on the server until the game is over; then the *reveal* is that
object plus ``decks``, every deal of the game as the protocol names its cards, which anyone can
deal again from the seed with the engines and compare with the cards they were shown.

Pure Python like the engines (``python -m games.verify`` runs without Django).
"""
from __future__ import annotations

import hashlib
import json
import random
import secrets
from typing import Any

from games.engines import bozu, gin, memory
from games.engines.bozu_cards import card_of

SALT_HEX_CHARS = 32


def canonical_json(value: Any) -> str:
    """UTF-8 JSON with the keys sorted, no spaces, and non-ASCII characters as they are."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def new_salt() -> str:
    return secrets.token_hex(SALT_HEX_CHARS // 2)


def committed(game: str, options: dict[str, Any], seed: int, salt: str) -> dict[str, Any]:
    """The object the commitment hashes (and the reveal shows, with ``decks``)."""
    return {"game": game, "options": options, "salt": salt, "seed": seed}


def commitment(game: str, options: dict[str, Any], seed: int, salt: str) -> str:
    return hash_of(committed(game, options, seed, salt))


def hash_of(obj: dict[str, Any]) -> str:
    """The lowercase hex SHA-256 of an object's canonical JSON (``decks`` left out)."""
    without_decks = {key: value for key, value in obj.items() if key != "decks"}
    return hashlib.sha256(canonical_json(without_decks).encode("utf-8")).hexdigest()


def cpu_seed(seed: int, seat: int) -> int:
    """The seed of a CPU playing ``seat`` in the game dealt from ``seed``: derived from the
    committed seed alone, so that its choices can be checked once the seed is revealed."""
    return random.Random(f"cpu/{seed}/{seat}").getrandbits(63)


# ---------------------------------------------------------------------------- the decks

def decks(game: str, options: dict[str, Any], seed: int, final: Any) -> list[Any]:
    """Every deal of a game, from its seed and its last state (which says how many deals there
    were: Gin Rummy's hands, Memory's tie-break rounds), cards named as the views name them. A
    game added from its spec alone (docs/engines.md) has none listed here: ``[]``."""
    if game == "memory":
        return _memory_decks(options, seed, final)
    if game == "bozu":
        return [[card_of(poem).to_json() for poem in bozu.deal(seed)]]
    if game == "gin":
        return [gin.shuffled_deck(seed, number) for number in range(final.deal_number + 1)]
    return []


def _layout(grid: memory.Grid, cards: list[str]) -> dict[str, str]:
    return {grid.name(index): card for index, card in enumerate(cards)}


def _memory_decks(options: dict[str, Any], seed: int, final: memory.State) -> list[Any]:
    """The table dealt from the seed, then each tie-break round's table, drawn (as the engine
    draws it) from the piles of the seats tied on the game's pairs or on the round before."""
    dealt = memory.new_game(options, seed)
    tables: list[Any] = [_layout(dealt.grid, dealt.cards)]
    tie = final.tie_break
    if tie is None or tie.round == 0:
        return tables
    scores = list(final.pairs)
    for number in range(1, tie.round + 1):
        if number > 1:
            scores = tie.rounds[number - 2]
        best = max(scores)
        tied = [seat for seat, pairs in enumerate(scores) if pairs == best]
        cards = memory.round_cards(tie.game_cards, tie.game_taken_by, tied, dealt.options.match,
                                   random.Random(f"{tie.seed}:{number}"))
        tables.append(_layout(memory.round_grid(len(cards)), cards))
    return tables


def reveal(game: str, options: dict[str, Any], seed: int, salt: str, final: Any) -> dict[str, Any]:
    return {**committed(game, options, seed, salt), "decks": decks(game, options, seed, final)}
