"""Expired sessions are deleted daily (accounts/tasks.py): Django deletes one only when its own
browser comes back, so a session table left alone keeps a row for every visit there ever was."""
from datetime import timedelta

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.utils import timezone

from accounts.sessions import Session
from accounts.tasks import clear_expired_sessions
from server import embedded_beat


@pytest.mark.django_db
def test_it_deletes_the_expired_sessions_and_keeps_the_others():
    now = timezone.now()
    for key, expires in (("expired-a", now - timedelta(seconds=1)), ("expired-b", now - timedelta(days=30)),
                         ("current", now + timedelta(days=14))):
        Session.objects.create(session_key=key, session_data="{}", expire_date=expires)
    assert clear_expired_sessions() == 2
    assert list(Session.objects.values_list("session_key", flat=True)) == ["current"]
    assert clear_expired_sessions() == 0


def test_celery_beat_runs_it_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["sessions-cleanup"]
    assert entry["task"] == clear_expired_sessions.name == "accounts.clear_expired_sessions"
    assert entry["schedule"] == crontab(hour=4, minute=7)


def test_the_embedded_default_runs_it_daily_without_beat(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the embedded default: no beat, tasks in-process
    [job] = [job for job in embedded_beat.jobs() if job.task == "accounts.tasks.clear_expired_sessions"]
    assert job.interval == 24 * 3600
