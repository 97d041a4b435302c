"""Deleting rooms a day after they were last changed: finished, abandoned or never started.

A room row holds who sat where (users, token hashes), the options and the time of every change
(``updated_at``, and ``created_at`` on each public event): kept forever, it could be matched
with anything else recorded at that time (docs/telemetry.md, "Unlinkable"). A signed-in
player's finished game lives on in their own ``accounts.GameRecord``; nothing else needs the
room once nobody is in it.

A room still in use is never removed: one with a connection open (a seat counts one in a live
server process) or a timed step due (``due_at``; a finished room has none) stays, however old
its last change. Every change to a room writes ``updated_at``, so a game being played is never
idle for a day. Deleting a room deletes its events (``RoomEvent``, cascade). Batches of
``ROOM_CLEANUP["BATCH"]`` rooms, each its own short transaction, like the telemetry purge.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Room

logger = logging.getLogger("games.rooms.cleanup")


def idle_after() -> timedelta:
    return timedelta(hours=settings.ROOM_CLEANUP["IDLE_HOURS"])


def delete_idle_rooms(now: datetime | None = None, batch_size: int | None = None) -> int:
    """Delete every room unchanged since ``now`` − a day that nobody is connected to and that
    has no step due; returns how many rooms."""
    now = now or timezone.now()
    batch_size = batch_size or settings.ROOM_CLEANUP["BATCH"]
    cutoff = now - idle_after()
    idle = Room.objects.filter(updated_at__lt=cutoff, due_at__isnull=True)
    removed, after = 0, ""
    while True:
        batch = list(idle.filter(pk__gt=after).order_by("pk").values_list("pk", "seats")[:batch_size])
        if not batch:
            break
        after = batch[-1][0]
        unused = [room_id for room_id, seats in batch if not any(seat["conns"] for seat in seats)]
        if unused:
            with transaction.atomic():
                # Filtered again: a room changed since it was read (a player came back) stays.
                _, counts = idle.filter(pk__in=unused).delete()
            removed += counts.get(Room._meta.label, 0)
        if len(batch) < batch_size:
            break
    logger.info("rooms cleanup removed %d rooms idle since %s", removed, cutoff.isoformat())
    return removed
