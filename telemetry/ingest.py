"""Accepting a batch of events: limits, schema, opt-out, User-Agent reduction, one INSERT."""
from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from .models import Event
from .ratelimit import RateLimiter
from .useragent import reduce_user_agent

_limiter: RateLimiter | None = None


def limiter() -> RateLimiter:
    global _limiter
    conf = settings.TELEMETRY
    if _limiter is None or (_limiter.limit, _limiter.window) != (conf["RATE_LIMIT"], conf["RATE_WINDOW"]):
        _limiter = RateLimiter(conf["RATE_LIMIT"], conf["RATE_WINDOW"])
    return _limiter


def client_address(request) -> str:
    """The address to count requests by; used here and nowhere else, never stored.

    Behind PROXY_HOPS trusted proxies, the client is that many entries from the right of
    X-Forwarded-For (the entries further left are whatever the client claimed)."""
    hops = settings.TELEMETRY["PROXY_HOPS"]
    if hops:
        forwarded = [part.strip() for part in request.headers.get("X-Forwarded-For", "").split(",") if part.strip()]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR", "")


def store(events: list[dict], user_agent: str | None) -> int:
    browser, os_family = reduce_user_agent(user_agent)
    now = timezone.now()
    rows = [Event(received_at=now, browser=browser, os=os_family, **event) for event in events]
    Event.objects.bulk_create(rows)
    return len(rows)
