"""POST /telemetry/events: what is stored (held in the server process's memory, telemetry/buffer.py,
until the hourly flush writes it into Event), and the refusals that store nothing."""
import json

import pytest
from django.test import override_settings

from telemetry.buffer import pending
from tests.telemetry.helpers import EXAMPLES, event, new_page

pytestmark = pytest.mark.django_db

CHROME_ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/126.0.0.0 Mobile Safari/537.36")


def post(client, body, **headers):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post("/telemetry/events", data=data, content_type="text/plain;charset=UTF-8", **headers)


def test_it_stores_a_batch_of_every_event_type_with_browser_and_os_families(client):
    page = new_page()
    batch = [event(kind, page=page) for kind in EXAMPLES]
    response = post(client, {"events": batch}, HTTP_USER_AGENT=CHROME_ANDROID)
    assert response.status_code == 202
    assert response.json() == {"stored": len(EXAMPLES)}
    rows = pending.held()
    assert sorted(row["type"] for row in rows) == sorted(EXAMPLES)
    assert {(row["browser"], row["os"]) for row in rows} == {("chrome", "android")}
    (end,) = [row for row in rows if row["type"] == "game_end"]
    # 57 moves, sent as a number by a page older than the move_count buckets: stored as its range.
    assert [end[k] for k in ("game", "mode", "cpu_level", "result", "move_count", "duration")] == [
        "memory", "cpu", "hard", "win", "50-99", "3-10m"]
    assert end["settings"] == {"players": 2, "cards": 52, "jokers": False, "match": "rank"}
    # The page id is checked, then dropped: no column holds it.
    assert not any(page in str(value) or page.replace("-", "") in str(value)
                   for row in rows for value in row.values())
    assert [end[k] for k in ("device", "memory", "cores", "net", "cache")] == ["desktop", "8+", "3-4", "4g", "part"]


def test_it_stores_no_address_and_no_user_agent(client):
    post(client, {"events": [event()]}, HTTP_USER_AGENT=CHROME_ANDROID, REMOTE_ADDR="198.51.100.23")
    (row,) = pending.held()
    values = [str(v) for v in row.values()]
    assert not any("198.51.100.23" in v or "Pixel" in v or "Mozilla" in v for v in values)


def test_it_refuses_a_whole_batch_when_one_event_is_wrong(client):
    response = post(client, {"events": [event(), event(room_id="k3J")]})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_event"
    assert "events[1].'room_id' is never accepted" in response.json()["error"]["message"]
    response = post(client, {"events": [event(), event(result="victory")]})
    assert response.status_code == 400
    assert "result must be one of" in response.json()["error"]["message"]
    assert len(pending.held()) == 0


def test_it_refuses_malformed_json_and_wrong_methods(client):
    response = post(client, b"{not json")
    assert (response.status_code, response.json()["error"]["code"]) == (400, "malformed_json")
    response = post(client, b"\xff\xfe")
    assert response.status_code == 400
    assert client.get("/telemetry/events").status_code == 405
    assert len(pending.held()) == 0


def test_it_takes_up_to_50_events_a_request(client):
    assert post(client, {"events": [event()] * 50}).status_code == 202
    response = post(client, {"events": [event()] * 51})
    assert response.status_code == 400
    assert "1 to 50 events" in response.json()["error"]["message"]
    assert post(client, {"events": []}).status_code == 400
    assert len(pending.held()) == 50


@override_settings(TELEMETRY={**__import__("django.conf").conf.settings.TELEMETRY, "MAX_BODY": 2000})
def test_it_answers_413_to_a_body_over_the_limit(client):
    small = {"events": [event()]}
    assert len(json.dumps(small)) < 2000
    assert post(client, small).status_code == 202
    big = {"events": [event()] * 12}
    assert len(json.dumps(big)) > 2000
    response = post(client, big)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert len(pending.held()) == 1


def test_it_answers_429_after_the_limit_per_address(client, settings):
    settings.TELEMETRY = {**settings.TELEMETRY, "RATE_LIMIT": 3, "RATE_WINDOW": 3600}
    body = {"events": [event()]}
    for _ in range(3):
        assert post(client, body, REMOTE_ADDR="192.0.2.1").status_code == 202
    response = post(client, body, REMOTE_ADDR="192.0.2.1")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "too_many_requests"
    # Invalid requests count too: the limit protects the endpoint, not only the table.
    assert post(client, b"junk", REMOTE_ADDR="192.0.2.1").status_code == 429
    assert post(client, body, REMOTE_ADDR="192.0.2.2").status_code == 202
    assert len(pending.held()) == 4


def test_it_counts_the_forwarded_client_behind_trusted_proxies(client, settings):
    settings.TELEMETRY = {**settings.TELEMETRY, "RATE_LIMIT": 1, "RATE_WINDOW": 3600}
    settings.CLIENT_PROXY_HOPS = 1
    body = {"events": [event()]}
    assert post(client, body, HTTP_X_FORWARDED_FOR="1.1.1.1, 192.0.2.7").status_code == 202
    # A spoofed left-hand entry does not give a fresh allowance: the proxy's entry counts.
    assert post(client, body, HTTP_X_FORWARDED_FOR="9.9.9.9, 192.0.2.7").status_code == 429
    assert post(client, body, HTTP_X_FORWARDED_FOR="192.0.2.8").status_code == 202


def test_it_refuses_cross_site_posts(client):
    response = post(client, {"events": [event()]}, HTTP_SEC_FETCH_SITE="cross-site")
    assert response.status_code == 403
    assert post(client, {"events": [event()]}, HTTP_SEC_FETCH_SITE="same-origin").status_code == 202
    assert len(pending.held()) == 1
