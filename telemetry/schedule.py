"""The daily purge when there is no Celery beat: the embedded default (SPEC 6.3).

Why a thread started from the ASGI entry point (config/asgi.py): only server processes import
it (never manage.py, migrations or the test runner), it purges an idle site too (a purge run on
ingest would keep expired rows forever on a site nobody visits), and it costs one sleeping
thread. Production runs Celery beat instead (CELERY_BEAT_SCHEDULE) and this does nothing there.
"""
from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger("telemetry.purge")
_started = threading.Event()


def start_embedded_purge_schedule() -> threading.Thread | None:
    """Start the purge thread once per process, when Celery tasks run in-process."""
    interval = settings.TELEMETRY["EMBEDDED_PURGE_INTERVAL"]
    if not settings.CELERY_TASK_ALWAYS_EAGER or interval <= 0 or _started.is_set():
        return None
    _started.set()
    thread = threading.Thread(target=_run, args=(interval,), name="telemetry-purge", daemon=True)
    thread.start()
    return thread


def _run(interval: float, stop: threading.Event | None = None):
    stop = stop or threading.Event()
    # First run soon after start (a site restarted daily would otherwise never purge), then
    # every interval.
    delay = min(60.0, interval)
    while not stop.wait(delay):
        delay = interval
        try:
            from .tasks import purge_expired_events
            purge_expired_events.delay()  # eager here: runs in this thread, logs its count
        except Exception:
            logger.exception("telemetry purge failed; retrying at the next interval")
        finally:
            close_old_connections()
