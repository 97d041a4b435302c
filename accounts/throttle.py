"""Attempt counters in the shared cache (Redis in production), keyed by a hash of what is tried.

No IP address is involved: sign-in failures are counted per username and reset e-mails per
address, so guessing one account's password (or flooding one mailbox) is limited from anywhere,
and nothing about the visitor is kept.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.core.cache import cache


@dataclass(frozen=True)
class Throttle:
    name: str
    limit: int
    window_seconds: int

    def _key(self, subject: str) -> str:
        digest = hashlib.sha256(subject.casefold().encode()).hexdigest()
        return f"accounts:{self.name}:{digest}"

    def is_blocked(self, subject: str) -> bool:
        return cache.get(self._key(subject), 0) >= self.limit

    def record(self, subject: str) -> None:
        key = self._key(subject)
        # add() starts the window only on the first attempt; later ones do not extend it.
        cache.add(key, 0, self.window_seconds)
        try:
            cache.incr(key)
        except ValueError:  # expired between add() and incr()
            cache.add(key, 1, self.window_seconds)

    def clear(self, subject: str) -> None:
        cache.delete(self._key(subject))


SIGN_IN = Throttle("signin-failures", limit=5, window_seconds=15 * 60)
RESET_MAIL = Throttle("reset-mails", limit=3, window_seconds=60 * 60)
