import re

import pytest
from django.contrib.auth import get_user_model

from telemetry import buffer, schema
from telemetry.models import Event

pytestmark = pytest.mark.django_db


def stored_fields_listed(html: str) -> list[str]:
    table = re.search(r'<table[^>]*id="stored-fields".*?</table>', html, re.S).group(0)
    return re.findall(r"<tr><td><code>(\w+)</code></td>", table)


def test_it_lists_what_is_sent_what_is_never_sent_the_retention_and_the_switch(client):
    response = client.get("/privacy/")
    assert response.status_code == 200
    html = response.content.decode()
    for name in list(schema.ALL_FIELDS) + ["browser", "os"]:
        assert f"<code>{name}</code>" in html
    for label in schema.BUCKETS["ttff"].labels + schema.BUCKETS["move_count"].labels:
        assert label.replace("<", "&lt;") in html
    for never in ("IP address", "room id", "seat tokens", "moves", "page address (URL)", "graphics card",
                  "page-open identifier"):
        assert never in html
    assert "deleted 30 days after they arrive" in html
    assert 'id="telemetry-switch"' in html and "data-telemetry-switch" in html


def test_its_list_of_stored_fields_is_exactly_the_columns_of_a_stored_event(client):
    listed = stored_fields_listed(client.get("/privacy/").content.decode())
    columns = [f.name for f in Event._meta.concrete_fields]
    assert sorted(listed) == sorted(columns), "every column listed once, nothing listed that is not stored"
    # The buffer holds the same values, less the key and the time (it has neither).
    assert {f.name for f in buffer.FIELDS} == set(columns) - {"id", "received_at"}
    # The schema: every field a client may send is stored, but the page id (checked, then dropped).
    assert set(schema.ALL_FIELDS) - set(listed) == schema.NOT_STORED == {"page"}
    assert "page" not in columns


def test_it_states_the_hourly_granularity_and_how_long_things_are_kept(client):
    html = client.get("/privacy/").content.decode()
    assert "Nothing stored tells when an event came more finely than the hour." in html
    assert "Events wait in the buffer for at most an hour." in html
    assert "The minute or second an event came, and the order in which events came." in html
    assert "Game rooms (who sat where, the moves played) are deleted 24 hours after their last change" in html
    assert "kept only in that player's own account record" in html


def test_it_shows_a_signed_in_player_the_account_switch(client):
    user = get_user_model().objects.create_user("ada", password="pw-long-enough-1")
    client.force_login(user)
    assert "Your account has statistics turned on." in client.get("/privacy/").content.decode()
    user.profile.telemetry_enabled = False
    user.profile.save()
    html = client.get("/privacy/").content.decode()
    assert "Your account has statistics turned off" in html
    assert 'href="/accounts/me/privacy/"' in html
