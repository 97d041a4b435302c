"""/healthz/live, /healthz/ready and /healthz in-process; readiness on a live server whose Redis
stops and comes back: tests/foundation/test_it_answers_healthz_ready_as_redis_goes_and_comes.py."""
from unittest import mock

import pytest
from django.conf import settings

SCHEDULER_RUNS = mock.patch("games.rooms.scheduler.scheduler.seconds_since_pass", return_value=0.5)


@pytest.mark.django_db
def test_live_answers_without_checking_anything(client):
    with mock.patch("games.health._database_ok", return_value=False):
        response = client.get("/healthz/live")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/healthz/ready", "/healthz"])
def test_ready_reports_the_database_the_redis_link_and_the_scheduler(client, url):
    with SCHEDULER_RUNS:
        response = client.get(url)
    assert response.status_code == 200
    services = settings.TEST_BACKEND == "services"
    assert response.json() == {
        "status": "ok",
        "database": {"ok": True, "vendor": "postgresql" if services else "sqlite"},
        "redis": {"ok": True, "used": services},
        "scheduler": {"ok": True, "seconds_since_pass": 0.5}}


@pytest.mark.django_db
def test_ready_is_503_when_the_database_fails(client):
    with SCHEDULER_RUNS, mock.patch("games.health._database_ok", return_value=False):
        response = client.get("/healthz/ready")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["database"]["ok"] is False


@pytest.mark.django_db
def test_ready_is_503_when_the_scheduler_does_not_run_or_is_stuck(client):
    # The test client's own event loop runs no scheduler.
    response = client.get("/healthz/ready")
    assert response.status_code == 503
    assert response.json()["scheduler"] == {"ok": False, "seconds_since_pass": None}
    with mock.patch("games.rooms.scheduler.scheduler.seconds_since_pass", return_value=45.0):
        response = client.get("/healthz/ready")
    assert response.status_code == 503
    assert response.json()["scheduler"] == {"ok": False, "seconds_since_pass": 45.0}


@pytest.mark.django_db
def test_ready_is_503_when_redis_does_not_answer(client, monkeypatch):
    monkeypatch.setattr(settings, "REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    with SCHEDULER_RUNS:
        response = client.get("/healthz/ready")
    assert response.status_code == 503
    assert response.json()["redis"] == {"ok": False, "used": True}
