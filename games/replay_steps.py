"""A finished game as the replay page shows it (accounts/replay_pages.py, site/js/replay.js):
after every step of the log, the table with every card face up (``open``) and the table as one
seat was shown it at that moment (``seen``, from that seat's own view).

Both tables have one small shape per game, so the page draws them alike:

- every game: ``turn`` (the seat to play, or None), ``scores``, ``over``;
- Memory: ``cells``, one short string per position: its state's letter (``d`` down, ``u`` up,
  ``t`` taken), then its card where shown, then ``@`` and the seat that took it (``t7H@1``,
  ``d`` a card unseen), and, at the deal and wherever the grid changes (a
  tie-break round), ``columns`` and ``places``, one ``[pos, row, column]`` per position: the
  page keeps the last ones it was given, which keeps a 52-card game's steps small;
- Gin Rummy: ``hands`` (per seat, its cards, None for a card unseen), ``discard`` (bottom card
  first), ``stock`` (how many), ``hand_number``;
- Bozu Mekuri: ``piles`` and ``centre`` (``{"count", "top"}``), ``deck`` (how many) and ``next``
  (the deck's top card, None where unseen).

Pure Python like games/replay.py: the engines replay the game, nothing is stored.
"""
from __future__ import annotations

from typing import Any

from games.engines.base import JSON, GameState
from games.engines.bozu_cards import card_of
from games.replay import states


def steps(game: str, options: JSON, seed: int, actions: list[Any], seat: int) -> list[JSON]:
    """One entry per step, the deal first: ``{"entry", "open", "seen"}``, ``entry`` the log
    entry that led to it (None for the deal)."""
    table = TABLES[game]
    found = []
    places = None
    for k, state in states(game, options, seed, actions):
        view = state.view(seat)
        step = {"entry": actions[k - 1] if k else None,
                "open": table(state, view, True), "seen": table(state, view, False)}
        if game == "memory":
            grid = {"columns": view["columns"],
                    "places": [[cell["pos"], cell["row"], cell["column"]] for cell in view["layout"]]}
            if grid != places:
                step["grid"] = places = grid
        found.append(step)
    return found


def _common(view: JSON) -> JSON:
    return {"turn": None if view["is_over"] else view["current_player"], "scores": view["scores"],
            "over": view["is_over"]}


def _memory(state: GameState, view: JSON, open_: bool) -> JSON:
    cells = []
    for index, cell in enumerate(view["layout"]):
        card = state.cards[index] if open_ else cell.get("card")  # type: ignore[attr-defined]
        taker = f"@{cell['by']}" if cell["state"] == "taken" else ""
        cells.append(f"{cell['state'][0]}{card or ''}{taker}")
    return {**_common(view), "cells": cells}


def _gin(state: GameState, view: JSON, open_: bool) -> JSON:
    seat = view["seat"]
    hands: list[list[str | None]] = []
    for other in range(view["players"]):
        if open_:
            hands.append(list(state.hands[other]))  # type: ignore[attr-defined]
        elif other == seat:
            hands.append(list(view["hand"]["cards"]) if view["hand"] else [])
        else:
            known = list(view["known_cards"][other])
            hands.append(known + [None] * (view["card_counts"][other] - len(known)))
    return {**_common(view), "hands": hands, "discard": view["discard_pile"],
            "stock": view["stock_count"], "hand_number": view["hand_number"]}


def _bozu(state: GameState, view: JSON, open_: bool) -> JSON:
    deck = state.deck  # type: ignore[attr-defined]  # top card first
    upcoming = card_of(deck[0]).to_json() if open_ and deck else None
    return {**_common(view), "piles": view["piles"], "centre": view["centre"],
            "deck": view["deck_count"], "next": upcoming}


TABLES = {"memory": _memory, "gin": _gin, "bozu": _bozu}
