"""Accepting a batch of events: limits, schema, opt-out, User-Agent reduction, then held in
memory (buffer.py) until the hourly flush writes them into ``Event``."""
from __future__ import annotations

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection

from server.db_threads import KeptConnections

from .buffer import hold
from .optout import drop_reason
from .ratelimit import RateLimiter
from .useragent import reduce_user_agent

_limiter: RateLimiter | None = None


def limiter() -> RateLimiter:
    global _limiter
    conf = settings.TELEMETRY
    if _limiter is None or (_limiter.limit, _limiter.window) != (conf["RATE_LIMIT"], conf["RATE_WINDOW"]):
        _limiter = RateLimiter(conf["RATE_LIMIT"], conf["RATE_WINDOW"])
    return _limiter


def store(events: list[dict], user_agent: str | None) -> int:
    """Holds the events for the hourly flush (buffer.py): nothing is written to the database
    when they arrive, so no row of theirs is ordered against the other writes of the moment."""
    browser, os_family = reduce_user_agent(user_agent)
    hold(events, browser=browser, os=os_family)
    return len(events)


def accept(request, events: list[dict], opt_in: bool) -> dict:
    """A valid batch → the JSON answer: stored, or dropped with the opt-out reason.

    The opt-out check reads the session and account (a signed-in visitor), so it runs on a kept
    connection when serving ASGI; right here under WSGI (whose threads keep
    their connections themselves) or inside a transaction (the work then joins it)."""
    if isinstance(request, ASGIRequest) and not connection.in_atomic_block:
        return threads.run(_accept, request, events, opt_in)
    return _accept(request, events, opt_in)


def _accept(request, events: list[dict], opt_in: bool) -> dict:
    reason = drop_reason(request, opt_in)
    if reason:
        return {"stored": 0, "dropped": reason}
    return {"stored": store(events, request.headers.get("User-Agent"))}


def _thread_count() -> int:
    # SQLite takes one writer at a time: more threads would only wait on its lock.
    return 1 if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") else 3


# Under Daphne a request's own thread would connect anew for every ingest; these threads keep
# their connections (server/db_threads.py).
threads = KeptConnections("telemetry-db", _thread_count)
