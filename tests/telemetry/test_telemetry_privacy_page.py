import pytest
from django.contrib.auth import get_user_model

from telemetry import schema

pytestmark = pytest.mark.django_db


def test_it_lists_what_is_sent_what_is_never_sent_the_retention_and_the_switch(client):
    response = client.get("/privacy/")
    assert response.status_code == 200
    html = response.content.decode()
    for name in list(schema.ALL_FIELDS) + ["browser", "os"]:
        assert f"<code>{name}</code>" in html
    for label in schema.BUCKETS["ttff"].labels:
        assert label.replace("<", "&lt;") in html
    for never in ("IP address", "room id", "seat tokens", "moves", "page address (URL)", "graphics card"):
        assert never in html
    assert "deleted 30 days after they arrive" in html
    assert 'id="telemetry-switch"' in html and "data-telemetry-switch" in html


def test_it_shows_a_signed_in_player_the_account_switch(client):
    user = get_user_model().objects.create_user("ada", password="pw-long-enough-1")
    client.force_login(user)
    assert "Your account has statistics turned on." in client.get("/privacy/").content.decode()
    user.profile.telemetry_enabled = False
    user.profile.save()
    html = client.get("/privacy/").content.decode()
    assert "Your account has statistics turned off" in html
    assert 'href="/accounts/me/privacy/"' in html
