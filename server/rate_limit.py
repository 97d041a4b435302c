"""Limits per subject (a client's address, an account) counted in the shared cache.

The cache is Redis in production, so a limit holds across server processes; the embedded
default's in-memory cache counts within its one process. A limit is a set of fixed windows
("20 a minute and 200 an hour"); each window starts at the subject's first counted request and
lasts its length. A request is admitted only when every window of every limit it is checked
against has room, and only admitted requests are counted: a client that waits out the
Retry-After it was given finds its allowance as promised.

Subjects are never stored: a key holds a digest keyed with the deployment's SECRET_KEY
(``salted_hmac``), so the cache lists no addresses and its keys mean nothing without the
secret; they expire with their window (rotating SECRET_KEY starts every count afresh).

When the cache cannot be reached the request is admitted and a warning logged: an outage of
the counters should not stop people from playing.

To consolidate: accounts/throttle.py's Throttle (sign-in failures per address)
keeps counts the same way (add-then-incr windows under salted_hmac keys) but checks and counts
in two calls, since it counts failures after the fact; it can become a Limit here with a
check-only call beside ``hit``.
"""
from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.crypto import salted_hmac
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Window:
    limit: int
    seconds: int


@dataclass(frozen=True)
class Limit:
    name: str  # what is counted, e.g. "rooms-per-address"; part of every key
    windows: tuple[Window, ...]

    @classmethod
    def from_rates(cls, name: str, rates: Iterable[tuple[int, int]]) -> Limit:
        """From a setting read by config/env.py's ``env_rates``: ((count, seconds), ...)."""
        return cls(name, tuple(Window(count, seconds) for count, seconds in rates))


def hit(*checks: tuple[Limit, str]) -> int:
    """Counts one request against each ``(limit, subject)``. Answers 0 when every window admits
    it; otherwise counts nothing and answers the whole seconds until every full window has
    ended (the Retry-After)."""
    now = time.time()
    try:
        counted = [(window, key, _count(key, window, now))
                   for limit, subject in checks for window, key in _keys(limit, subject)]
        full = [(window, key) for window, key, count in counted if count > window.limit]
        if not full:
            return 0
        for _, key, _ in counted:
            _uncount(key)
        return max(_seconds_left(key, window, now) for window, key in full)
    except RedisError as exc:
        log.warning("rate limit not checked, the cache is unreachable: %s", type(exc).__name__)
        return 0


def _keys(limit: Limit, subject: str):
    # The digest's purpose still names the module's old place (config.rate_limit): a new name
    # would start afresh every window the cache is counting, on the deploy that moved the module.
    digest = salted_hmac(f"config.rate_limit:{limit.name}", subject, algorithm="sha256").hexdigest()
    return [(window, f"ratelimit:{limit.name}:{window.seconds}:{digest}") for window in limit.windows]


def _count(key: str, window: Window, now: float) -> int:
    # add() starts the window only on the first request; later ones do not extend it.
    if cache.add(key, 0, window.seconds):
        cache.set(f"{key}:start", now, window.seconds)
    try:
        return cache.incr(key)
    except ValueError:  # the window ended between add() and incr(): this request starts the next
        cache.set(key, 1, window.seconds)
        cache.set(f"{key}:start", now, window.seconds)
        return 1


def _uncount(key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:  # the window has just ended: nothing left to take back
        pass


def _seconds_left(key: str, window: Window, now: float) -> int:
    start = cache.get(f"{key}:start")
    if start is None:  # expired a moment before its count
        return window.seconds
    return min(window.seconds, max(1, math.ceil(start + window.seconds - now)))
