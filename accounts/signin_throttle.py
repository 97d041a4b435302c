"""Sign-in throttling for the site's sign-in page and the admin's, which share every count.

django-axes (its cache handler: Redis in production, nothing in the database) locks a username
at one address after AXES_FAILURE_LIMIT failures, so a stranger's guesses elsewhere never lock the
owner out. A second count, across usernames, locks an address after SIGN_IN_FAILURES_PER_ADDRESS
failures (accounts/throttle.py), so one client cannot spray passwords over many names. Both
locks last AXES_COOLOFF_TIME from the latest failure and are answered with 429 and Retry-After.
A successful sign-in forgets that username's failures at that address, never the address's
count: otherwise a client could clear it by signing in to an account of its own now and then.

Axes sees neither the address nor the username: it gets keyed digests of both (``address_key``,
``username_key``), so its cache keys, and any line it logs, name no one. A successful password
reset lifts the username's lock at every address by changing the username's digest
(``lift_username_lock``): the old counts can no longer be found and expire with their window.
"""
from __future__ import annotations

import secrets
import unicodedata

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import ngettext

from config.client_address import client_address

from .throttle import Throttle


def lock_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def address_failures() -> Throttle:
    # Built per use so that the settings (and tests overriding them) are read each time.
    # Sliding, as axes's counts are: a lock lasts a whole window after the latest failure, so
    # the Retry-After of either lock is that window.
    return Throttle("signin-address-failures", limit=settings.SIGN_IN_FAILURES_PER_ADDRESS,
                    window_seconds=lock_seconds(), sliding=True)


def _digest(purpose: str, value: str) -> str:
    return salted_hmac(f"accounts.signin_throttle.{purpose}", value, algorithm="sha256").hexdigest()


def address_key(request) -> str:
    """AXES_CLIENT_IP_CALLABLE: what axes counts instead of the client's address."""
    return _digest("address", client_address(request))


def _normal_username(username: str) -> str:
    # As the sign-in form reads it (NFKC), and one count for every spelling of its case.
    return unicodedata.normalize("NFKC", username).casefold()


def _generation_key(username: str) -> str:
    return "accounts:signin-generation:" + _digest("generation", _normal_username(username))


def username_key(request, credentials) -> str:
    """AXES_USERNAME_CALLABLE: what axes counts instead of the username."""
    source = credentials if credentials is not None else request.POST
    username = source.get(settings.AXES_USERNAME_FORM_FIELD) or ""
    generation_key = _generation_key(username)
    generation = cache.get(generation_key, "")
    if generation:
        # Outlives every count made under it: each count is renewed only by an attempt, and
        # every attempt renews this too.
        cache.touch(generation_key, lock_seconds())
    return _digest("username", f"{_normal_username(username)}\x00{generation}")


def lift_username_lock(username: str) -> None:
    """Forgets the username's failures at every address (after a successful password reset)."""
    cache.set(_generation_key(username), secrets.token_hex(8), lock_seconds())


class AddressThrottleBackend:
    """Refuses every sign-in from an address past its failures across usernames. Listed before
    the backend that checks passwords, so a right guess from there is refused too. Only
    ``authenticate``: without ``get_user`` it is never the backend a session names."""

    def authenticate(self, request, **credentials):
        if request is not None and address_failures().is_blocked(address_key(request)):
            request.axes_locked_out = True  # AxesMiddleware answers with lockout_response
            raise PermissionDenied
        return None


def record_failure(request) -> None:
    """Counts a failed sign-in against its address (receivers.py, on user_login_failed)."""
    address_failures().record(address_key(request))


def lockout_response(request, *args, **kwargs):
    """AXES_LOCKOUT_CALLABLE, for either lock: the page the sign-in came from, with a message,
    429 and Retry-After. The arguments after the request are ignored: axes's asynchronous
    middleware passes them in a different order."""
    seconds = lock_seconds()
    minutes = max(1, -(-seconds // 60))
    message = ngettext(
        "Too many failed sign-in attempts. Please wait %(minutes)d minute and try again.",
        "Too many failed sign-in attempts. Please wait %(minutes)d minutes and try again.",
        minutes) % {"minutes": minutes}
    if request.path == reverse("admin:login"):
        response = render(request, "admin/signin_locked.html",
                          {**admin.site.each_context(request), "message": message}, status=429)
    else:
        response = render(request, "accounts/login.html",
                          {"form": AuthenticationForm(request), "locked_out": message,
                           "next": request.POST.get("next", "")}, status=429)
    response["Retry-After"] = str(seconds)
    return response
