from __future__ import annotations

from celery import shared_task
from django.utils.dateparse import parse_datetime

from games.rooms.cleanup import delete_idle_rooms


@shared_task(name="games.delete_idle_rooms", ignore_result=True)
def delete_idle_rooms_task(now: str | None = None) -> int:
    """Celery beat runs this every hour (config/settings.py). ``now`` (ISO 8601) is for tests."""
    moment = parse_datetime(now) if now else None
    if now and (moment is None or moment.tzinfo is None):
        raise ValueError(f"now must be an ISO 8601 datetime with a time zone, got {now!r}")
    return delete_idle_rooms(moment)
