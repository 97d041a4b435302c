"""How many rooms one client may create: per address and per signed-in account.

Every path that makes a room goes through here: ``POST /api/rooms`` (the menu, the result
screen's "new game", bots) and the WebSocket ``new_link``. ``play_again`` deals a new game in
the same room and makes none. The windows are settings.ROOMS_PER_ADDRESS and
ROOMS_PER_ACCOUNT (README); the counts live in the shared cache (server/rate_limit.py).
"""
from __future__ import annotations

import math

from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils.translation import ngettext

from server import rate_limit
from server.client_address import network_of


def _seconds_to_wait(address: str, user_id: int | None) -> int:
    checks = [(rate_limit.Limit.from_rates("rooms-per-address", settings.ROOMS_PER_ADDRESS), network_of(address))]
    if user_id is not None:
        checks.append((rate_limit.Limit.from_rates("rooms-per-account", settings.ROOMS_PER_ACCOUNT), str(user_id)))
    return rate_limit.hit(*checks)


async def seconds_to_wait(address: str, user_id: int | None) -> int:
    """Counts a room this client is about to create: 0 when it may, else the whole seconds
    until it may (and then nothing is counted)."""
    # The cache is synchronous (Redis round trips): kept off the event loop.
    return await sync_to_async(_seconds_to_wait, thread_sensitive=False)(address, user_id)


def refusal(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    text: str = ngettext("Too many new tables in a short time: try again in %(minutes)d minute.",
                         "Too many new tables in a short time: try again in %(minutes)d minutes.",
                         minutes)
    return text % {"minutes": minutes}
