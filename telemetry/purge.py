"""Deleting events 30 days after they were received, in batches (docs/telemetry.md, "Retention").

Each batch is one short DELETE of at most ``batch_size`` rows picked through the received_at
index, in its own transaction, so ingest (plain INSERTs) never waits behind one long delete and
a purge interrupted half-way has still removed whole batches. Running it twice removes nothing
the second time.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from .models import Event

logger = logging.getLogger("telemetry.purge")


def retention() -> timedelta:
    return timedelta(days=settings.TELEMETRY["RETENTION_DAYS"])


def purge_expired(now: datetime | None = None, batch_size: int | None = None) -> int:
    """Delete every event received before ``now`` − retention; returns how many."""
    now = now or timezone.now()
    batch_size = batch_size or settings.TELEMETRY["PURGE_BATCH"]
    cutoff = now - retention()
    removed = 0
    while True:
        with transaction.atomic():
            count = _delete_batch(cutoff, batch_size)
        removed += count
        if count < batch_size:
            break
    logger.info("telemetry purge removed %d events received before %s", removed, cutoff.isoformat())
    return removed


def _delete_batch(cutoff: datetime, batch_size: int) -> int:
    table = Event._meta.db_table
    if connection.vendor == "postgresql":
        # ctid: the physical row address, the cheapest way to point at rows just selected.
        with connection.cursor() as cursor:
            cursor.execute(
                f'DELETE FROM "{table}" WHERE ctid = ANY(ARRAY('
                f'SELECT ctid FROM "{table}" WHERE received_at < %s LIMIT %s))',
                [cutoff, batch_size])
            return cursor.rowcount
    ids = list(Event.objects.filter(received_at__lt=cutoff).values_list("pk", flat=True)[:batch_size])
    if not ids:
        return 0
    return Event.objects.filter(pk__in=ids)._raw_delete(Event.objects.db)
