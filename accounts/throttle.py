"""Attempt counters in the shared cache (Redis in production), keyed by a digest of what is counted.

The digest is keyed with the deployment's SECRET_KEY (``salted_hmac``, one purpose per counter):
a plain hash of an e-mail address could be matched against a list of addresses by anyone who
reads the cache, this one means nothing without the secret.

RESET_MAIL limits the reset e-mails sent to one address; accounts/signin_throttle.py counts
sign-in failures per client address with the same class.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.utils.crypto import salted_hmac


@dataclass(frozen=True)
class Throttle:
    name: str
    limit: int
    window_seconds: int
    # False: the window starts at the first attempt. True: every attempt starts it again, so a
    # subject refused (and counted) goes on being refused until it stops for a whole window.
    sliding: bool = False

    def _key(self, subject: str) -> str:
        digest = salted_hmac(f"accounts.throttle.{self.name}", subject.casefold(),
                             algorithm="sha256").hexdigest()
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
        if self.sliding:
            cache.touch(key, self.window_seconds)

    def clear(self, subject: str) -> None:
        cache.delete(self._key(subject))


RESET_MAIL = Throttle("reset-mails", limit=3, window_seconds=60 * 60)
