"""Accepting a batch of events: limits, schema, opt-out, User-Agent reduction, one INSERT into
the buffer (``PendingEvent``; buffer.py moves it into ``Event`` every hour)."""
from __future__ import annotations

import functools
import json

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection

from config.db_threads import KeptConnections

from .models import PendingEvent
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


_COLUMNS = [f for f in PendingEvent._meta.concrete_fields if not f.primary_key]
_FROM_SERVER = ("browser", "os")


def store(events: list[dict], user_agent: str | None) -> int:
    browser, os_family = reduce_user_agent(user_agent)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_recordset_insert(), {"browser": browser, "os": os_family,
                                                 "events": json.dumps(events), **_DEFAULTS})
        return len(events)
    rows = [PendingEvent(browser=browser, os=os_family, **event) for event in events]
    PendingEvent.objects.bulk_create(rows)
    return len(rows)


# Model defaults of the columns an event may leave out, as query parameters.
_DEFAULTS = {f"default_{f.name}": f.get_default() for f in _COLUMNS
             if f.name not in _FROM_SERVER and f.get_default() is not None}


@functools.cache
def _recordset_insert() -> str:
    """One INSERT of the whole batch, handed to PostgreSQL as one JSON array.

    Events are already validated to the model's columns (schema.py). Sending them as a single
    JSON parameter costs the server process a json.dumps, where bulk_create adapted and quoted
    every value of every row (most of an ingest's CPU time, bench/telemetry_bench.py), and one
    INSERT is all-or-nothing by itself: no BEGIN and COMMIT round trips around it. Keys are
    random (gen_random_uuid), missing fields get the model's defaults."""
    quote = connection.ops.quote_name
    from_client = [f for f in _COLUMNS if f.name not in _FROM_SERVER]
    values = []
    for f in _COLUMNS:
        if f.name in _FROM_SERVER:
            values.append(f"%({f.name})s")
        elif f"default_{f.name}" in _DEFAULTS:
            values.append(f"COALESCE(r.{quote(f.name)}, %(default_{f.name})s)")
        else:
            values.append(f"r.{quote(f.name)}")
    # text, not varchar(n): a cast to varchar(n) would cut a value short where the INSERT refuses it.
    record = ", ".join(f"{quote(f.name)} {'text' if f.get_internal_type() == 'CharField' else f.db_type(connection)}"
                       for f in from_client)
    return (f"INSERT INTO {quote(PendingEvent._meta.db_table)} "
            f"(id, {', '.join(quote(f.column) for f in _COLUMNS)}) "
            f"SELECT gen_random_uuid(), {', '.join(values)} "
            f"FROM jsonb_to_recordset(%(events)s::jsonb) AS r({record})")


def accept(request, events: list[dict], opt_in: bool) -> dict:
    """A valid batch → the JSON answer: stored, or dropped with the opt-out reason.

    The opt-out check reads the session and account (a signed-in visitor), so it runs with the
    INSERT: on a kept connection when serving ASGI; right here under WSGI (whose threads keep
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
# their connections (config/db_threads.py).
threads = KeptConnections("telemetry-db", _thread_count)
