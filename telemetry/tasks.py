from __future__ import annotations

from celery import shared_task
from django.utils.dateparse import parse_datetime

from .purge import purge_expired


@shared_task(name="telemetry.purge_expired_events", ignore_result=True)
def purge_expired_events(now: str | None = None) -> int:
    """Celery beat runs this daily (config/settings.py). ``now`` (ISO 8601) is for tests."""
    moment = parse_datetime(now) if now else None
    if now and (moment is None or moment.tzinfo is None):
        raise ValueError(f"now must be an ISO 8601 datetime with a time zone, got {now!r}")
    return purge_expired(moment)
