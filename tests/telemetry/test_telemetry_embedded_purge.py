"""The embedded default has no Celery beat: the server process itself runs the daily purge
(telemetry/schedule.py, started from config/asgi.py). Here its interval is one second."""
import sqlite3
import subprocess
import sys
import time
import uuid
from datetime import datetime, timedelta, timezone

from tests.live import PROJECT, embedded_env, migrate, start_daphne


def test_the_server_purges_expired_events_by_itself(tmp_path):
    env = embedded_env(tmp_path, TELEMETRY_EMBEDDED_PURGE_INTERVAL="1")
    migrate(env)
    now = datetime.now(timezone.utc)
    db_path = tmp_path / "db.sqlite3"
    with sqlite3.connect(db_path) as db:
        for age, device in [(timedelta(days=45), "old"), (timedelta(days=31), "old"),
                            (timedelta(days=29), "recent"), (timedelta(0), "recent")]:
            db.execute("INSERT INTO telemetry_event (received_at, type, page, device, memory, cores, net, "
                       "cache, browser, os, game, mode, cpu_level, result, duration, origin, step, outcome, "
                       "reason, ttff, how, fps, failure) VALUES (?, 'page_view', ?, ?, 'unknown', 'unknown', "
                       "'unknown', 'unknown', 'other', 'other', '', '', '', '', '', '', '', '', '', '', '', "
                       "'', '')", ((now - age).strftime("%Y-%m-%d %H:%M:%S.%f"), uuid.uuid4().hex, device))
    server = start_daphne(tmp_path, env)
    try:
        server.wait_ready()
        deadline = time.monotonic() + 30
        while "telemetry purge removed" not in server.log() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "telemetry purge removed 2 events" in server.log()
        with sqlite3.connect(db_path) as db:
            assert sorted(row[0] for row in db.execute("SELECT device FROM telemetry_event")) == ["recent", "recent"]
    finally:
        server.stop()


def _threads_after_importing_the_asgi_app(env) -> str:
    code = "import threading, config.asgi; print(sorted(t.name for t in threading.enumerate()))"
    result = subprocess.run([sys.executable, "-c", code], cwd=PROJECT, capture_output=True, text=True,
                            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"}, timeout=60, check=True)
    return result.stdout


def test_the_thread_runs_only_where_there_is_no_beat(tmp_path):
    env = embedded_env(tmp_path)
    assert "telemetry-purge" in _threads_after_importing_the_asgi_app(env)
    # Production (a broker, tasks not eager): Celery beat runs the purge; no thread.
    assert "telemetry-purge" not in _threads_after_importing_the_asgi_app(
        {**env, "CELERY_TASK_ALWAYS_EAGER": "0"})
