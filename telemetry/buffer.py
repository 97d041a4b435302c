"""Accepted events wait here, in this process's memory, until the hourly flush writes them into
``Event`` (server/hourly_buffer.py): all at once, shuffled, with new random keys and
``received_at`` the hour of the flush (UTC). Nothing stored tells which of them came first, at
which minute, or which other write of the database they came with.
"""
from __future__ import annotations

from typing import Any

from server.hourly_buffer import HourlyBuffer

from .models import Event

# What one buffered event holds: every column but the key and the time, which the flush gives.
FIELDS = [f for f in Event._meta.concrete_fields if f.attname not in ("id", "received_at")]

pending = HourlyBuffer("events", Event, added=lambda hour: {"received_at": hour})


def hold(events: list[dict[str, Any]], **common: str) -> None:
    """Validated events (schema.py), with the values every one of them shares (browser, os)."""
    pending.add({f.attname: {**event, **common}.get(f.name, f.get_default()) for f in FIELDS}
                for event in events)
