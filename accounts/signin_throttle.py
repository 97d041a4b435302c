"""Sign-in throttling for the site's sign-in page and the admin's, which share every count.

django-axes (its cache handler: Redis in production, nothing in the database) locks a username
at one address after AXES_FAILURE_LIMIT failures, so a stranger's guesses elsewhere never lock the
owner out. A second count, across usernames, locks an address after SIGN_IN_FAILURES_PER_ADDRESS
failures (accounts/throttle.py), so one client cannot spray passwords over many names. Both
locks last AXES_COOLOFF_TIME from the latest failure and are answered with 429 and Retry-After.
A successful sign-in forgets that username's failures at that address, never the address's
count: otherwise a client could clear it by signing in to an account of its own now and then.

Axes sees neither the address nor the username: it gets keyed digests of both (``address_key``,
``username_key``), so its cache keys, and any line it logs, name no one. The address is the
client's network (an IPv6 client's /64, server/client_address.py). A successful password
reset lifts the username's lock at every address by changing the username's digest
(``lift_username_lock``): the old counts can no longer be found and expire with their window;
and the address lock no longer refuses that username while the new digest lives (the
username's own lock, AXES_FAILURE_LIMIT failures, still holds there: guessing stays locked).

Device cookies (OWASP's "device cookies"): a browser that signed in to an account, signed up
or reset its password gets a signed cookie naming a digest of that account and a random
nonce (``remember_device``). Signing in to that account from that browser is counted against
the cookie, not the address: a stranger's failures at a shared address (a school, an office)
no longer lock out an owner who signed in there before, and the owner's own failures lock
only that browser. Every other sign-in from the browser counts against the address as ever.

Password checks of a signed-in user (changing the password, deleting the account) go through
``check_password``: counted and locked exactly as sign-ins, so a stolen session cannot guess
the password either.
"""
from __future__ import annotations

import secrets
import unicodedata

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.signing import BadSignature
from django.shortcuts import render
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import ngettext

from server.client_address import client_network

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
    """AXES_CLIENT_IP_CALLABLE: what axes counts instead of the client's address, and what the
    address's own count (across usernames) counts: this browser's device cookie, when it has
    one for the account being signed in to, else the client's network."""
    device = trusted_device(request)
    if device is not None:
        return _digest("device", device)
    return _digest("address", client_network(request))


DEVICE_COOKIE = "signin_device"
DEVICE_COOKIE_AGE = 365 * 24 * 60 * 60
_DEVICE_SALT = "accounts.signin_throttle.device"


def _account_digest(username: str) -> str:
    return _digest("device-account", _normal_username(username))[:32]


def _username_checked(request) -> str:
    """The account a request checks a password for: the sign-in form's, or the signed-in user's
    (a password change or an account deletion)."""
    username = request.POST.get(settings.AXES_USERNAME_FORM_FIELD)
    if username is None and request.user.is_authenticated:
        username = request.user.get_username()
    return username or ""


def trusted_device(request) -> str | None:
    """The nonce of this browser's device cookie, if the cookie is genuine, unexpired and for
    the account whose password this request checks."""
    try:
        value = request.get_signed_cookie(DEVICE_COOKIE, salt=_DEVICE_SALT, max_age=DEVICE_COOKIE_AGE)
    except (KeyError, BadSignature):
        return None
    account, _, nonce = value.partition(":")
    return nonce if nonce and account == _account_digest(_username_checked(request)) else None


def remember_device(response, user) -> None:
    """Gives this browser a device cookie for ``user`` (after it proved the password, made the
    account or reset the password). It names the account by a keyed digest only."""
    response.set_signed_cookie(
        DEVICE_COOKIE, f"{_account_digest(user.get_username())}:{secrets.token_hex(16)}",
        salt=_DEVICE_SALT, max_age=DEVICE_COOKIE_AGE, httponly=True, samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE)


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
    """Forgets the username's failures at every address, and lets it past the address locks,
    while its new generation lives (after a successful password reset)."""
    cache.set(_generation_key(username), secrets.token_hex(8), lock_seconds())


def _reset_lately(username: str) -> bool:
    return cache.get(_generation_key(username)) is not None


class AddressThrottleBackend:
    """Refuses every sign-in from an address past its failures across usernames. Listed before
    the backend that checks passwords, so a right guess from there is refused too. Only
    ``authenticate``: without ``get_user`` it is never the backend a session names."""

    def authenticate(self, request, username=None, **credentials):
        if (request is not None and address_failures().is_blocked(address_key(request))
                and not _reset_lately(username or "")):
            request.axes_locked_out = True  # AxesMiddleware answers with lockout_response
            raise PermissionDenied
        return None


def record_failure(request) -> None:
    """Counts a failed sign-in against its address (receivers.py, on user_login_failed)."""
    address_failures().record(address_key(request))


class PasswordChecksLocked(Exception):
    """Too many wrong passwords for this account here: the message says how long to wait."""


def check_password(request, user, password: str) -> bool:
    """A signed-in user's password (changing it, deleting the account), checked as a sign-in
    is: through every backend, so a failure is counted against the account at this address
    (or device) and against the address, and a lock refuses even the right password
    (PasswordChecksLocked, which the page answers with 429 itself)."""
    if authenticate(request, username=user.get_username(), password=password) is not None:
        return True
    if getattr(request, "axes_locked_out", False):
        request.axes_locked_out = False  # the page answers, not AxesMiddleware's sign-in page
        minutes = max(1, -(-lock_seconds() // 60))
        raise PasswordChecksLocked(ngettext(
            "Too many wrong passwords. Please wait %(minutes)d minute and try again.",
            "Too many wrong passwords. Please wait %(minutes)d minutes and try again.",
            minutes) % {"minutes": minutes})
    return False


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
