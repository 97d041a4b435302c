"""The account's telemetry switch, turned off on /accounts/me/, is honoured by the telemetry
endpoint: events from a browser signed in to the account are dropped, whatever the page sends."""
import json

from telemetry.buffer import pending
from tests.telemetry.helpers import event


def post_event(client):
    return client.post("/telemetry/events", data=json.dumps({"events": [event()], "opt_in": True}),
                       content_type="application/json")


def test_switching_telemetry_off_on_the_account_page_stops_storage(client, alice):
    client.force_login(alice)
    assert post_event(client).json() == {"stored": 1}
    client.post("/accounts/me/privacy/", {})                      # the switch's box unticked
    assert alice.__class__.objects.get(pk=alice.pk).profile.telemetry_enabled is False
    response = post_event(client)
    assert response.status_code == 202 and response.json() == {"stored": 0, "dropped": "opted_out"}
    assert len(pending.held()) == 1
    client.post("/accounts/me/privacy/", {"telemetry_enabled": "on"})
    assert post_event(client).json() == {"stored": 1}
    assert len(pending.held()) == 2
