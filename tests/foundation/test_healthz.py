from unittest import mock

import pytest
from django.conf import settings


@pytest.mark.django_db
def test_it_reports_the_configured_database_and_layer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == {"ok": True, "vendor": "postgresql" if settings.TEST_BACKEND == "services" else "sqlite"}
    expected_layer = "RedisChannelLayer" if settings.TEST_BACKEND == "services" else "InMemoryChannelLayer"
    assert body["channel_layer"] == {"ok": True, "backend": expected_layer}


@pytest.mark.django_db
def test_it_returns_503_when_the_database_fails(client):
    with mock.patch("games.health._database_ok", return_value=False):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"]["ok"] is False


@pytest.mark.django_db
def test_it_returns_503_when_the_channel_layer_fails(client):
    class BrokenLayer:
        async def new_channel(self):
            raise ConnectionError("down")

    with mock.patch("games.health.get_channel_layer", return_value=BrokenLayer()):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["channel_layer"] == {"ok": False, "backend": "BrokenLayer"}
