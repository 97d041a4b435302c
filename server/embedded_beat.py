"""Celery beat's periodic tasks when there is no beat: the embedded default (docs/telemetry.md,
"Retention"); and in every server process, with beat or without, the flush of what that process
holds in memory (server/hourly_buffer.py: statistics and the operators' copy of finished games).

Why a thread started from the ASGI entry point (config/asgi.py): only server processes import
it (never manage.py, migrations or the test runner), it runs on an idle site too (work done on
a request would keep expired rows forever on a site nobody visits), and it costs one sleeping
thread. Production runs Celery beat instead (CELERY_BEAT_SCHEDULE) and this runs only the flush
there. Each task runs a minute after the server starts (a site restarted daily would otherwise never
run the daily ones), then every interval; an interval of 0 turns it off.
"""
from __future__ import annotations

import importlib
import logging
import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import close_old_connections

from server import hourly_buffer

logger = logging.getLogger("server.embedded_beat")
_started = threading.Event()
FIRST_RUN_DELAY = 60.0
SESSIONS_CLEANUP_INTERVAL = 24 * 3600.0  # daily, as Celery beat runs it


@dataclass(frozen=True)
class Job:
    task: str       # "module.function": a function, or a Celery task (run here, in this thread)
    interval: float  # seconds
    every_process: bool = False  # also where Celery beat runs the tasks: work on this process's memory


def jobs() -> list[Job]:
    return [job for job in (
        Job("server.hourly_buffer.flush", settings.TELEMETRY["FLUSH_INTERVAL"], every_process=True),
        Job("telemetry.tasks.purge_expired_events", settings.TELEMETRY["EMBEDDED_PURGE_INTERVAL"]),
        Job("games.tasks.delete_idle_rooms_task", settings.ROOM_CLEANUP["EMBEDDED_INTERVAL"]),
        Job("accounts.tasks.clear_expired_sessions", SESSIONS_CLEANUP_INTERVAL),
    ) if job.interval > 0 and (job.every_process or settings.CELERY_TASK_ALWAYS_EAGER)]


def start_embedded_beat() -> threading.Thread | None:
    """Start the thread once per server process: the flush always, Celery's tasks when they
    run in-process. A process that stops writes what it holds first (``flush_at_exit``)."""
    if _started.is_set() or not settings.EMBEDDED_BEAT:
        return None
    _started.set()
    hourly_buffer.flush_at_exit()
    scheduled = jobs()
    if not scheduled:
        return None
    thread = threading.Thread(target=_run, args=(scheduled,), name="embedded-beat", daemon=True)
    thread.start()
    return thread


def _run(scheduled: list[Job], stop: threading.Event | None = None):
    stop = stop or threading.Event()
    start = time.monotonic()
    due = {job: start + min(FIRST_RUN_DELAY, job.interval) for job in scheduled}
    while not stop.wait(max(0.0, min(due.values()) - time.monotonic())):
        now = time.monotonic()
        for job in scheduled:
            if due[job] > now:
                continue
            due[job] = now + job.interval
            try:
                module, name = job.task.rsplit(".", 1)
                getattr(importlib.import_module(module), name)()  # logs its own count
            except Exception:
                logger.exception("%s failed; retrying at the next interval", job.task)
            finally:
                close_old_connections()
