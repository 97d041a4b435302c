"""30 days after arrival, events are deleted by the Celery task."""
import logging
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from telemetry.models import Event
from telemetry.tasks import purge_expired_events

NOW = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
PROJECT = Path(__file__).resolve().parents[2]


def make_events(ages: dict[str, timedelta], now=NOW, copies=1) -> None:
    Event.objects.bulk_create(
        Event(received_at=now - age, type="page_view", device=name[:8])
        for name, age in ages.items() for _ in range(copies))


AGES = {
    "60d": timedelta(days=60),
    "30d+1s": timedelta(days=30, seconds=1),
    "30d": timedelta(days=30),           # exactly 30 days: not older than 30 days, kept
    "30d-1s": timedelta(days=30) - timedelta(seconds=1),
    "1d": timedelta(days=1),
    "future": -timedelta(minutes=5),
}
EXPIRED = {"60d", "30d+1s"}


def remaining() -> set[str]:
    return set(Event.objects.values_list("device", flat=True))


@pytest.mark.django_db
def test_the_task_removes_exactly_the_events_older_than_30_days(caplog):
    make_events(AGES)
    with caplog.at_level(logging.INFO, logger="telemetry.purge"):
        result = purge_expired_events.apply(kwargs={"now": NOW.isoformat()})
    assert result.get() == 2
    assert remaining() == set(AGES) - EXPIRED
    assert "telemetry purge removed 2 events" in caplog.text
    # Idempotent: a second run finds nothing more.
    assert purge_expired_events.apply(kwargs={"now": NOW.isoformat()}).get() == 0
    assert remaining() == set(AGES) - EXPIRED


@pytest.mark.django_db
def test_it_deletes_in_batches(settings):
    settings.TELEMETRY = {**settings.TELEMETRY, "PURGE_BATCH": 7}
    make_events({"old": timedelta(days=40)}, copies=50)
    make_events({"new": timedelta(days=3)}, copies=5)
    with connection.execute_wrapper(_count_deletes) as _:
        _count_deletes.n = 0
        assert purge_expired_events.apply(kwargs={"now": NOW.isoformat()}).get() == 50
    assert _count_deletes.n == 8  # 7 full batches of 7, one of 1
    assert Event.objects.count() == 5


def _count_deletes(execute, sql, params, many, context):
    if sql.lstrip().upper().startswith("DELETE"):
        _count_deletes.n += 1
    return execute(sql, params, many, context)


@pytest.mark.django_db
def test_it_refuses_a_bad_now_and_deletes_nothing():
    make_events(AGES)
    for bad in ("yesterday", "2026-03-01T12:00:00"):
        with pytest.raises(ValueError, match="ISO 8601"):
            purge_expired_events.apply(kwargs={"now": bad}).get()
    assert remaining() == set(AGES)


def test_beat_runs_the_purge_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["telemetry-purge"]
    assert entry["task"] == purge_expired_events.name
    schedule = entry["schedule"]
    assert (schedule.hour, schedule.minute) == ({3}, {17})
    assert schedule.day_of_week == set(range(7)) and schedule.day_of_month == set(range(1, 32))


@pytest.mark.services
@pytest.mark.skipif(settings.TEST_BACKEND != "services",
                    reason="the embedded run has no broker: the eager tests above cover it")
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_purges_through_the_local_redis_broker(tmp_path, monkeypatch):
    # The suite runs tasks in-process (config/test_settings.py); this one goes through the broker.
    monkeypatch.setitem(purge_expired_events.app.conf, "task_always_eager", False)
    make_events(AGES, copies=3)
    queue = f"telemetry-test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    env = {"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
           "DJANGO_SETTINGS_MODULE": "config.settings",
           "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "REDIS_URL": settings.REDIS_URL, "CELERY_TASK_ALWAYS_EAGER": "0"}
    log_path = tmp_path / "worker.log"
    with open(log_path, "wb") as log:
        worker = subprocess.Popen(
            [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker", "--pool", "solo",
             "-Q", queue, "--without-gossip", "--without-mingle", "--without-heartbeat",
             "--loglevel", "INFO", "--hostname", f"{queue}@test"],
            cwd=PROJECT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        purge_expired_events.apply_async(kwargs={"now": NOW.isoformat()}, queue=queue)
        deadline = time.monotonic() + 60
        while remaining() != set(AGES) - EXPIRED and time.monotonic() < deadline:
            assert worker.poll() is None, log_path.read_text()
            time.sleep(0.2)
        assert remaining() == set(AGES) - EXPIRED, log_path.read_text()
        assert Event.objects.count() == 3 * (len(AGES) - len(EXPIRED))
        while "telemetry purge removed" not in log_path.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "telemetry purge removed 6 events" in log_path.read_text()
        assert "succeeded" in log_path.read_text()
    finally:
        worker.terminate()
        worker.wait(20)
