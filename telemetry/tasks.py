from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.utils.dateparse import parse_datetime

from .purge import purge_expired


def parse_now(now: str | None) -> datetime | None:
    """A task's ``now`` argument (ISO 8601, for tests), or None for the real time."""
    moment = parse_datetime(now) if now else None
    if now and (moment is None or moment.tzinfo is None):
        raise ValueError(f"now must be an ISO 8601 datetime with a time zone, got {now!r}")
    return moment


@shared_task(name="telemetry.purge_expired_events", ignore_result=True)
def purge_expired_events(now: str | None = None) -> int:
    """Celery beat runs this daily (config/settings.py). ``now`` (ISO 8601) is for tests."""
    return purge_expired(parse_now(now))

