"""The switch: signed-in opt-out on the server, Sec-GPC, and the page's config."""
import json

import pytest
from django.contrib.auth import get_user_model

from telemetry.buffer import pending
from telemetry.optout import user_opted_out
from tests.telemetry.helpers import event

pytestmark = pytest.mark.django_db


def post(client, body, **headers):
    return client.post("/telemetry/events", data=json.dumps(body), content_type="application/json", **headers)


@pytest.fixture
def player(client):
    user = get_user_model().objects.create_user("ada", password="pw-long-enough-1")
    client.force_login(user)
    return user


def test_it_stores_events_of_anonymous_visitors_and_of_players_who_left_it_on(client, player):
    assert post(client, {"events": [event()]}).json() == {"stored": 1}
    client.logout()
    assert post(client, {"events": [event()]}).json() == {"stored": 1}
    assert len(pending.held()) == 2


def test_it_drops_events_of_a_signed_in_player_who_turned_it_off(client, player):
    player.profile.telemetry_enabled = False
    player.profile.save()
    response = post(client, {"events": [event()], "opt_in": True})
    assert response.status_code == 202
    assert response.json() == {"stored": 0, "dropped": "opted_out"}
    assert len(pending.held()) == 0


def test_it_treats_sec_gpc_as_off_unless_the_visitor_turned_it_on(client):
    response = post(client, {"events": [event()]}, HTTP_SEC_GPC="1")
    assert response.json() == {"stored": 0, "dropped": "gpc"}
    assert len(pending.held()) == 0
    assert post(client, {"events": [event()], "opt_in": True}, HTTP_SEC_GPC="1").json() == {"stored": 1}
    assert len(pending.held()) == 1


def test_it_reads_the_account_flag_safely():
    class Anonymous:
        is_authenticated = False

    class NoProfile:
        is_authenticated = True

    assert user_opted_out(None) is False
    assert user_opted_out(Anonymous()) is False
    assert user_opted_out(NoProfile()) is False


def _config(html: str) -> dict:
    marker = '<script id="telemetry-config" type="application/json">'
    start = html.index(marker) + len(marker)
    return json.loads(html[start:html.index("</script>", start)])


def test_every_page_loads_the_collector_with_the_account_switch(client, player):
    html = client.get("/").content.decode()
    assert "js/telemetry.js" in html
    assert _config(html)["account"] == "on"
    player.profile.telemetry_enabled = False
    player.profile.save()
    assert _config(client.get("/").content.decode())["account"] == "off"
    client.logout()
    config = _config(client.get("/").content.decode())
    assert config["account"] is None
    assert config["endpoint"] == "/telemetry/events"
    assert config["buckets"]["ttff"]["labels"][0] == "<0.5s"
