"""Accepted events: bucket labels and enumerated values only (telemetry/schema.py).

There is no column for an address, a User-Agent, a user, a room or a URL: what is not here
cannot leak. Rows are deleted 30 days after ``received_at`` (purge.py).
"""
from django.db import models


class Event(models.Model):
    received_at = models.DateTimeField(db_index=True)
    type = models.CharField(max_length=24)
    page = models.UUIDField()
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
    move_count = models.PositiveIntegerField(null=True, blank=True)
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
        indexes = [models.Index(fields=["type", "received_at"], name="telemetry_type_received")]

    def __str__(self):
        return f"{self.type} {self.received_at:%Y-%m-%d %H:%M}"
