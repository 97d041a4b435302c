"""The buffer (PendingEvent) is moved into Event every hour: everything at once, shuffled, with
the hour of the move as the only time (telemetry/buffer.py)."""
from datetime import UTC, datetime

import pytest
from django.conf import settings

from telemetry.models import Event, PendingEvent
from telemetry.tasks import flush_pending_events

NOW = datetime(2026, 3, 1, 14, 37, 12, 345678, tzinfo=UTC)
HOUR = datetime(2026, 3, 1, 14, 0, tzinfo=UTC)

pytestmark = pytest.mark.django_db


def buffer(*devices: str) -> None:
    PendingEvent.objects.bulk_create(PendingEvent(type="page_view", device=device) for device in devices)


def test_it_stores_every_buffered_event_at_the_hour_and_empties_the_buffer():
    buffer("a", "b", "c")
    Event.objects.create(type="page_view", device="old", received_at=datetime(2026, 3, 1, 13, tzinfo=UTC))
    assert flush_pending_events.apply(kwargs={"now": NOW.isoformat()}).get() == 3
    assert PendingEvent.objects.count() == 0
    assert sorted(Event.objects.filter(received_at=HOUR).values_list("device", flat=True)) == ["a", "b", "c"]
    assert Event.objects.filter(device="old").count() == 1
    # Nothing left to move: a second run stores nothing more.
    assert flush_pending_events.apply(kwargs={"now": NOW.isoformat()}).get() == 0
    assert Event.objects.count() == 4


def test_stored_rows_get_new_keys():
    buffer("a", "b")
    pending = set(PendingEvent.objects.values_list("id", flat=True))
    flush_pending_events.apply(kwargs={"now": NOW.isoformat()}).get()
    stored = set(Event.objects.values_list("id", flat=True))
    assert len(stored) == 2 and not stored & pending


def test_it_counts_the_hour_in_utc_whatever_the_time_zone_of_now():
    buffer("a")
    flush_pending_events.apply(kwargs={"now": "2026-03-01T23:59:59.999+09:30"}).get()
    assert Event.objects.get().received_at == datetime(2026, 3, 1, 14, tzinfo=UTC)


def test_it_refuses_a_bad_now_and_moves_nothing():
    buffer("a")
    for bad in ("yesterday", "2026-03-01T12:00:00"):  # no time zone
        with pytest.raises(ValueError, match="now must be"):
            flush_pending_events.apply(kwargs={"now": bad}).get()
    assert (PendingEvent.objects.count(), Event.objects.count()) == (1, 0)


def test_beat_runs_the_flush_at_the_top_of_every_hour():
    entry = settings.CELERY_BEAT_SCHEDULE["telemetry-flush"]
    assert entry["task"] == flush_pending_events.name
    schedule = entry["schedule"]
    assert (schedule.hour, schedule.minute) == (set(range(24)), {0})
