"""Who asked not to be counted (docs/telemetry.md, "The switch").

Anonymous visitors: the switch lives in their browser (localStorage), so the page sends nothing.
Signed-in players: ``accounts.Profile.telemetry_enabled`` (one-to-one with the user,
related_name "profile"); it applies in every browser, and the server drops events that arrive
anyway. Sec-GPC: 1 means off unless the visitor turned the switch on (``opt_in`` in the batch).
"""
from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist


def user_opted_out(user) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    try:
        profile = user.profile
    except (ObjectDoesNotExist, AttributeError):
        return False  # no profile yet: the default, which is on
    return not getattr(profile, "telemetry_enabled", True)


def gpc_requested(request) -> bool:
    return request.headers.get("Sec-GPC", "").strip() == "1"


def drop_reason(request, opt_in: bool) -> str | None:
    """Why this request's events must not be stored, or None to store them."""
    if user_opted_out(getattr(request, "user", None)):
        return "opted_out"
    if gpc_requested(request) and not opt_in:
        return "gpc"
    return None
