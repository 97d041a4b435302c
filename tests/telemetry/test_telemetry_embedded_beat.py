"""The embedded default has no Celery beat: the server process itself runs beat's tasks
(server/embedded_beat.py, started from config/asgi.py): the daily purge, the deletion of idle
rooms; and every server process, with beat or without, flushes the statistics it holds
(server/hourly_buffer.py). Here their intervals are one second."""
import json
import sqlite3
import subprocess
import sys
import time
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta

from tests.live import PROJECT, embedded_env, migrate, start_daphne
from tests.telemetry.helpers import event

EVENT_COLUMNS = ("id, received_at, type, device, memory, cores, net, cache, browser, os, game, mode, cpu_level, "
                 "result, move_count, duration, origin, step, outcome, reason, ttff, how, fps, failure")


def sql_time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")


def add_room(db, room_id: str, updated_at: datetime, seats: list[dict]):
    db.execute("INSERT INTO games_room (id, game, mode, options, cpu_level, origin, status, version, seed, "
               "games_played, state, seats, cpus, next_room, reconnections, created_at, updated_at) VALUES "
               "(?, 'bozu', 'local', '{}', '', '', 'finished', 2, 1, 0, '{}', ?, '{}', '', 0, ?, ?)",
               (room_id, json.dumps(seats), sql_time(updated_at), sql_time(updated_at)))
    db.execute("INSERT INTO games_roomevent (room_id, version, event, created_at) VALUES (?, 1, '{}', ?)",
               (room_id, sql_time(updated_at)))


def test_the_server_flushes_purges_and_deletes_idle_rooms_by_itself(tmp_path):
    env = embedded_env(tmp_path, TELEMETRY_EMBEDDED_PURGE_INTERVAL="1", TELEMETRY_FLUSH_INTERVAL="1",
                       ROOM_CLEANUP_EMBEDDED_INTERVAL="1")
    migrate(env)
    now = datetime.now(UTC)
    db_path = tmp_path / "db.sqlite3"
    with sqlite3.connect(db_path) as db:
        for age, device in [(timedelta(days=45), "old"), (timedelta(days=31), "old"),
                            (timedelta(days=29), "recent"), (timedelta(0), "recent")]:
            db.execute(f"INSERT INTO telemetry_event ({EVENT_COLUMNS}) VALUES (?, ?, 'page_view', ?, 'unknown', "
                       "'unknown', 'unknown', 'unknown', 'other', 'other', '', '', '', '', '', '', '', '', "
                       "'', '', '', '', '', '')", (uuid.uuid4().hex, sql_time(now - age), device))
        idle_seat = {"holder": "human", "token": None, "user": None, "conns": {}, "away_since": None,
                     "cpu": False, "left": False, "seen": True}
        add_room(db, "idle", now - timedelta(days=2), [idle_seat, idle_seat])
        add_room(db, "fresh", now - timedelta(hours=2), [idle_seat, idle_seat])
        add_room(db, "open-tab", now - timedelta(days=2), [{**idle_seat, "conns": {"p1": 1}}, idle_seat])
    server = start_daphne(tmp_path, env)
    try:
        server.wait_ready()
        batch = {"events": [event("page_view")] * 2}
        request = urllib.request.Request(f"{server.url}/telemetry/events", json.dumps(batch).encode(),
                                         {"Content-Type": "application/json"})
        assert json.loads(urllib.request.urlopen(request, timeout=10).read()) == {"stored": 2}
        deadline = time.monotonic() + 30
        expected = ("hourly flush stored 2 events", "telemetry purge removed 2 events",
                    "rooms cleanup removed 1 rooms")
        while not all(line in server.log() for line in expected) and time.monotonic() < deadline:
            time.sleep(0.2)
        for line in expected:
            assert line in server.log()
        with sqlite3.connect(db_path) as db:
            devices = sorted(row[0] for row in db.execute("SELECT device FROM telemetry_event"))
            assert devices == ["desktop", "desktop", "recent", "recent"]
            hours = [row[0] for row in db.execute("SELECT received_at FROM telemetry_event WHERE device = 'desktop'")]
            assert all(hour.endswith(":00:00") for hour in hours), hours
            assert sorted(row[0] for row in db.execute("SELECT id FROM games_room")) == ["fresh", "open-tab"]
            assert sorted(row[0] for row in db.execute("SELECT room_id FROM games_roomevent")) == ["fresh", "open-tab"]
    finally:
        server.stop()


def _threads_after_importing_the_asgi_app(env) -> str:
    code = "import threading, config.asgi; print(sorted(t.name for t in threading.enumerate()))"
    result = subprocess.run([sys.executable, "-c", code], cwd=PROJECT, capture_output=True, text=True,
                            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"}, timeout=60, check=True)
    return result.stdout


def test_the_thread_runs_in_every_server_process_for_its_flush(tmp_path):
    env = embedded_env(tmp_path)
    assert "embedded-beat" in _threads_after_importing_the_asgi_app(env)
    # Production (a broker, tasks not eager): Celery beat runs the tasks, the thread the flush.
    production = {**env, "CELERY_TASK_ALWAYS_EAGER": "0"}
    assert "embedded-beat" in _threads_after_importing_the_asgi_app(production)
    assert "embedded-beat" not in _threads_after_importing_the_asgi_app({**production, "TELEMETRY_FLUSH_INTERVAL": "0"})
