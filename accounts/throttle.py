"""Failed sign-in attempts counted per username in the shared cache (Redis in production).

No IP address is involved: the count is keyed by a hash of the username alone, so it limits
password guessing against one account from anywhere, and nothing about the visitor is kept.
"""
from __future__ import annotations

import hashlib

from django.core.cache import cache

MAX_FAILURES = 5
WINDOW_SECONDS = 15 * 60


def _key(username: str) -> str:
    digest = hashlib.sha256(username.casefold().encode()).hexdigest()
    return f"accounts:signin-failures:{digest}"


def is_blocked(username: str) -> bool:
    return cache.get(_key(username), 0) >= MAX_FAILURES


def record_failure(username: str) -> None:
    key = _key(username)
    # add() starts the window only on the first failure; later failures do not extend it.
    cache.add(key, 0, WINDOW_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.add(key, 1, WINDOW_SECONDS)


def clear(username: str) -> None:
    cache.delete(_key(username))
