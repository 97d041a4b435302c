"""Accepted events wait in the server process's memory and are written into Event by the hourly
flush: everything at once, shuffled, with the hour of the flush as the only time
(server/hourly_buffer.py, telemetry/buffer.py)."""
from datetime import UTC, datetime

import pytest
from django.db import IntegrityError

from games.finished import copies, operators_copy
from games.models import FinishedGame
from server import embedded_beat, hourly_buffer
from telemetry.buffer import hold, pending
from telemetry.models import Event

NOW = datetime(2026, 3, 1, 14, 37, 12, 345678, tzinfo=UTC)
HOUR = datetime(2026, 3, 1, 14, 0, tzinfo=UTC)

pytestmark = pytest.mark.django_db

RECORD = {"game": "gin", "mode": "cpu", "options": {"players": 2, "target": 100}, "cpu_level": "easy",
          "moves": 40, "duration_seconds": 300.0, "started_at": NOW, "finished_at": NOW,
          "seats": [{"seat": 0, "holder": "human", "user_id": 7, "result": "win", "score": 100, "rank": 1,
                     "resigned": False, "failed_flips": None}],
          "room_origin": None, "reconnections": 0}


def buffer(*devices: str) -> None:
    hold([{"type": "page_view", "device": device} for device in devices], browser="firefox", os="linux")


def test_it_stores_every_held_event_at_the_hour_and_holds_none_after():
    buffer("a", "b", "c", "a")
    Event.objects.create(type="page_view", device="old", received_at=datetime(2026, 3, 1, 13, tzinfo=UTC))
    assert hourly_buffer.flush(NOW) == {"events": 4}
    assert pending.held() == []
    # The same event twice is two rows: the buffer counts repeats, the flush writes each.
    assert sorted(Event.objects.filter(received_at=HOUR).values_list("device", flat=True)) == ["a", "a", "b", "c"]
    assert Event.objects.filter(device="old").count() == 1
    # Nothing left: a second run stores nothing more.
    assert hourly_buffer.flush(NOW) == {}
    assert Event.objects.count() == 5


def test_a_held_event_has_the_models_defaults_and_the_servers_values():
    buffer("a")
    (row,) = pending.held()
    assert (row["type"], row["device"], row["browser"], row["os"], row["memory"], row["settings"]) == (
        "page_view", "a", "firefox", "linux", "unknown", None)
    hourly_buffer.flush(NOW)
    stored = Event.objects.get()
    assert (stored.browser, stored.memory, stored.game, stored.reconnections) == ("firefox", "unknown", "", None)


def test_stored_rows_get_random_keys():
    buffer("a", "b")
    hourly_buffer.flush(NOW)
    assert {key.version for key in Event.objects.values_list("id", flat=True)} == {4}


def test_it_counts_the_hour_in_utc_whatever_the_time_zone_of_now():
    buffer("a")
    hourly_buffer.flush(datetime.fromisoformat("2026-03-01T23:59:59.999+09:30"))
    assert Event.objects.get().received_at == datetime(2026, 3, 1, 14, tzinfo=UTC)


def test_a_flush_that_fails_writes_nothing_and_holds_everything_for_the_next():
    buffer("a", "b")
    hold([{"type": None}], browser="other", os="other")  # the table refuses this one: the whole flush fails
    copies.add([operators_copy(RECORD)])
    with pytest.raises(IntegrityError):
        hourly_buffer.flush(NOW)
    assert (Event.objects.count(), FinishedGame.objects.count()) == (0, 0)
    assert sorted(str(row["device"]) for row in pending.held()) == ["a", "b", "unknown"]
    assert len(copies.held()) == 1


def test_every_server_process_flushes_what_it_holds_with_celery_beat_or_without(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # production: beat runs Celery's tasks elsewhere
    assert [job.task for job in embedded_beat.jobs()] == ["server.hourly_buffer.flush"]
    settings.TELEMETRY = {**settings.TELEMETRY, "FLUSH_INTERVAL": 0.0}
    assert embedded_beat.jobs() == []
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert "server.hourly_buffer.flush" not in [job.task for job in embedded_beat.jobs()]
    assert "telemetry.tasks.purge_expired_events" in [job.task for job in embedded_beat.jobs()]
