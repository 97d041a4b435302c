"""Finished games made up by the engines alone, for the replay pages' tests (the accounts tests
and tests/browser/test_replay_page.py's seeded site)."""
from __future__ import annotations

import random

from games.replay import apply_entry, new_state


def played(game: str, options: dict, seed: int, limit: int | None = None) -> list:
    """A log of seat 0 (a person) against a CPU choosing at random, to the end (or ``limit``)."""
    choose = random.Random(seed)
    state = new_state(game, options, seed)
    actions: list = []
    while not state.is_over and (limit is None or len(actions) < limit):
        step = state.pending_automatic()
        if step:
            entry = [None, {"type": step}, "auto"]
        else:
            seat = state.current_player
            entry = [seat, choose.choice(state.legal_actions(seat)), "human" if seat == 0 else "cpu"]
        apply_entry(state, entry)
        actions.append(entry)
    return actions
