"""Limits that counted the wrong thing (issue 35, finding 6), the parts outside the accounts
(those are in tests/accounts/): the statistics limit counts an IPv6 client by its /64, as the
rooms' limit does, and refuses a cross-site post from a browser that sends no Sec-Fetch-Site;
another page cannot spend a visitor's room allowance with a simple (text/plain) request."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import Room
from telemetry.ingest import limiter
from tests.accounts.accounts_testlib import addresses_in_one_64
from tests.telemetry.helpers import event


@pytest.fixture(autouse=True)
def fresh_statistics_limit(settings):
    settings.TELEMETRY = {**settings.TELEMETRY, "RATE_LIMIT": 3, "RATE_WINDOW": 3600}
    limiter().reset()
    yield
    limiter().reset()


def _statistics(client: Client, **headers):
    return client.post("/telemetry/events", json.dumps({"events": [event()]}),
                       content_type="text/plain;charset=UTF-8", **headers)


@pytest.mark.django_db
def test_it_counts_statistics_from_one_ipv6_64_as_one_client():
    first, second, third, fourth = addresses_in_one_64(4)
    answers = [_statistics(Client(REMOTE_ADDR=address)).status_code for address in (first, second, third, fourth)]
    assert answers == [202, 202, 202, 429]
    # Another /64 has an allowance of its own.
    assert _statistics(Client(REMOTE_ADDR=addresses_in_one_64(1)[0])).status_code == 202


@pytest.mark.django_db
def test_it_refuses_statistics_posted_from_another_origin_without_sec_fetch_site():
    client = Client(REMOTE_ADDR=addresses_in_one_64(1)[0])
    for origin in ("https://elsewhere.example", "null", "http://testserver.example"):
        response = _statistics(client, HTTP_ORIGIN=origin)
        assert response.status_code == 403 and response.json()["error"]["code"] == "cross_site", origin
    # The site's own pages: their origin, or Sec-Fetch-Site where the browser sends it.
    assert _statistics(client, HTTP_ORIGIN="http://testserver").status_code == 202
    assert _statistics(client, HTTP_ORIGIN="https://elsewhere.example",
                       HTTP_SEC_FETCH_SITE="same-origin").status_code == 202


@pytest.mark.django_db(transaction=True)  # the rooms API writes from its own threads
def test_it_makes_rooms_only_for_a_json_request():
    body = json.dumps({"game": "memory", "mode": "cpu", "options": {"players": 2, "cards": 24}})
    client = Client(REMOTE_ADDR=addresses_in_one_64(1)[0])
    # What a form or a no-preflight fetch on another site can send: refused, nothing made.
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        response = client.generic("POST", "/api/rooms", body, content_type=content_type)
        assert response.status_code == 415, content_type
        assert response.json()["error"]["code"] == "unsupported_media_type"
    assert Room.objects.count() == 0
    response = client.generic("POST", "/api/rooms", body, content_type="application/json")
    assert response.status_code == 201 and Room.objects.count() == 1
