"""Usernames that look like a taken one: Cyrillic "аlice" beside "alice", "AIice" beside "alice".

Two names are lookalikes when their confusable skeletons (Unicode TR39, computed by the disarm
package's ``skeleton_key``) are equal, compared as written and after case folding. TR39 folds
case only after the confusable mapping, so a capital I (which looks like l) and a small i are
told apart; the second comparison adds what differs only in case ("ALICE" beside "alice").

Nothing is stored: a sign-up compares its name with every existing one, a few microseconds each.
"""
from __future__ import annotations

from disarm import skeleton_key
from django.contrib.auth import get_user_model


def skeletons(username: str) -> set[str]:
    # "tr39": 1 and l, 0 and O are one class each, as TR39's skeleton has them.
    return {skeleton_key(username, digit_policy="tr39"),
            skeleton_key(username.casefold(), digit_policy="tr39")}


def lookalike_taken(username: str) -> bool:
    wanted = skeletons(username)
    names = get_user_model().objects.values_list("username", flat=True)
    return any(not wanted.isdisjoint(skeletons(name)) for name in names.iterator(chunk_size=2000))
