"""Attempt counters in the shared cache (Redis in production), keyed by a digest of what is counted.

The digest is keyed with the deployment's SECRET_KEY (``salted_hmac``, one purpose per counter):
a plain hash of an e-mail address could be matched against a list of addresses by anyone who
reads the cache, this one means nothing without the secret.

accounts/signin_throttle.py counts sign-in failures per client address with this class.
``seconds_to_wait`` applies the per-address limits of sign-ups and password-reset requests
(server/rate_limit.py's windows).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.crypto import salted_hmac

from server import rate_limit
from server.client_address import client_network


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


def seconds_to_wait(setting: str, request) -> int:
    """Counts this request against the per-address limit of ``setting`` (SIGN_UPS_PER_ADDRESS,
    PASSWORD_RESETS_PER_ADDRESS): 0 when it is admitted, else the whole seconds until it would
    be (its Retry-After; then nothing is counted)."""
    limit = rate_limit.Limit.from_rates(setting.lower().replace("_", "-"), getattr(settings, setting))
    return rate_limit.hit((limit, client_network(request)))
