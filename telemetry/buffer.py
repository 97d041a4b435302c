"""Moving the buffer (``PendingEvent``) into ``Event``: hourly, shuffled, all at once.

What arrives between two flushes becomes rows that all carry the same ``received_at`` (the hour
of the flush, UTC), new random keys, and an insertion order that is random: nothing stored
tells which of them came first, or at which minute. The move is one atomic step (one statement
on PostgreSQL, one transaction on SQLite), so a crash leaves each event either in the buffer or
stored, never both or neither. Celery beat runs it at the top of every hour (config/settings.py);
without beat, config/embedded_beat.py runs it from the server process.
"""
from __future__ import annotations

import logging
import random
import uuid
from datetime import UTC, datetime

from django.db import connection, transaction
from django.utils import timezone

from .models import Event, PendingEvent

logger = logging.getLogger("telemetry.buffer")

_FIELDS = [f for f in PendingEvent._meta.concrete_fields if not f.primary_key]


def hour_of(moment: datetime) -> datetime:
    """The hour a moment falls in, in UTC: the only time an event is stored with."""
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def flush_pending(now: datetime | None = None) -> int:
    """Store every buffered event with ``received_at`` = the hour of ``now``; returns how many."""
    hour = hour_of(now or timezone.now())
    if connection.vendor == "postgresql":
        columns = ", ".join(connection.ops.quote_name(f.column) for f in _FIELDS)
        with connection.cursor() as cursor:
            # Rows inserted while this runs are not in its snapshot: they wait for the next flush.
            cursor.execute(
                f"WITH moved AS (DELETE FROM {PendingEvent._meta.db_table} RETURNING {columns}) "
                f"INSERT INTO {Event._meta.db_table} (id, received_at, {columns}) "
                f"SELECT gen_random_uuid(), %s, {columns} FROM moved ORDER BY random()", [hour])
            moved = cursor.rowcount
    else:
        with transaction.atomic():
            rows = list(PendingEvent.objects.values(*(f.attname for f in _FIELDS)))
            random.shuffle(rows)
            Event.objects.bulk_create(Event(id=uuid.uuid4(), received_at=hour, **row) for row in rows)
            PendingEvent.objects.all()._raw_delete(PendingEvent.objects.db)
            moved = len(rows)
    logger.info("telemetry flush stored %d events at %s", moved, hour.isoformat())
    return moved
