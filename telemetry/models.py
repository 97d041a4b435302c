"""Accepted events: bucket labels and enumerated values only (telemetry/schema.py).

There is no column for an address, a User-Agent, a user, a room, a URL or the page-open id: what
is not here cannot leak. Nothing stored places an event in time more finely than one hour, so a
row cannot be joined on time to a room or a game record (docs/telemetry.md, "Unlinkable"):

- ingest holds accepted events in memory (buffer.py), never in a table: a row written when it
  arrived would carry PostgreSQL's transaction id (``xmin``) and place (``ctid``), or SQLite's
  ``rowid``, which order it against every other write of that moment;
- every hour the flush (server/hourly_buffer.py) writes them all into ``Event`` in one
  transaction, shuffled, with ``received_at`` the hour of the flush;
- keys are random UUIDs, so neither key order nor storage order follows arrival.

Events are deleted 30 days after ``received_at`` (purge.py).
"""
import uuid

from django.db import models


class EventFields(models.Model):
    """What one event holds."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    type = models.CharField(max_length=24)
    # Device context (every event).
    device = models.CharField(max_length=8, default="unknown")
    memory = models.CharField(max_length=8, default="unknown")
    cores = models.CharField(max_length=8, default="unknown")
    net = models.CharField(max_length=8, default="unknown")
    cache = models.CharField(max_length=8, default="unknown")
    browser = models.CharField(max_length=8, default="other")
    os = models.CharField(max_length=8, default="other")
    # Games.
    game = models.CharField(max_length=8, blank=True, default="")
    mode = models.CharField(max_length=8, blank=True, default="")
    cpu_level = models.CharField(max_length=8, blank=True, default="")
    settings = models.JSONField(null=True, blank=True)
    result = models.CharField(max_length=8, blank=True, default="")
    move_count = models.CharField(max_length=8, blank=True, default="")  # a bucket label
    duration = models.CharField(max_length=8, blank=True, default="")
    # Friends' rooms.
    origin = models.CharField(max_length=8, blank=True, default="")
    step = models.CharField(max_length=10, blank=True, default="")
    outcome = models.CharField(max_length=8, blank=True, default="")
    reconnections = models.PositiveIntegerField(null=True, blank=True)
    # 3D table and loading.
    reason = models.CharField(max_length=12, blank=True, default="")
    ttff = models.CharField(max_length=8, blank=True, default="")
    how = models.CharField(max_length=8, blank=True, default="")
    fps = models.CharField(max_length=8, blank=True, default="")
    failure = models.CharField(max_length=10, blank=True, default="")

    class Meta:
        abstract = True


class Event(EventFields):
    received_at = models.DateTimeField(db_index=True)  # the hour the buffer was flushed (UTC)

    class Meta:
        indexes = [models.Index(fields=["type", "received_at"], name="telemetry_type_received")]

    def __str__(self):
        return f"{self.type} {self.received_at:%Y-%m-%d %H:00}"

