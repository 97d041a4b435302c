"""/u/<username>/: a player's stats for everyone, only when the player turned it on."""
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User


def test_it_is_not_found_until_the_player_turns_it_on(client, alice, finish_game):
    finish_game([{"holder": "human", "user_id": alice.id, "result": "win", "rank": 1}, {}])
    assert client.get("/u/alice/").status_code == 404
    assert client.get("/u/nobody/").status_code == 404   # the same answer as a private page
    alice.profile.public_profile = True
    alice.profile.save()
    response = client.get("/u/alice/")
    assert response.status_code == 200
    assert response.context["stats"].overall.wins == 1
    html = response.content.decode()
    assert "alice" in html
    # Nothing of the account's private side is on the public page.
    for private in ("/accounts/me/privacy/", "/accounts/me/export/", "/accounts/me/delete/",
                    "alice@example.com"):
        assert private not in html


def test_a_deactivated_account_has_no_public_page(client, alice):
    alice.profile.public_profile = True
    alice.profile.save()
    alice.is_active = False
    alice.save()
    assert client.get("/u/alice/").status_code == 404


NASTY = '<img src=x onerror=alert(1)>"&\''


@pytest.fixture
def nasty_user(db):
    # Django's sign-up refuses such names (letters, digits and @.+-_ only), but the admin or an
    # older import could still create one: every page must show it escaped.
    user = User.objects.create_user(NASTY, password="x")
    user.profile.public_profile = True
    user.profile.save()
    return user


def test_usernames_are_escaped_everywhere(client, nasty_user, finish_game):
    finish_game([{"holder": "human", "user_id": nasty_user.id, "result": "win", "rank": 1}, {}])
    pages = [client.get(f"/u/{quote(NASTY, safe='')}/")]
    client.force_login(nasty_user)
    pages += [client.get(url) for url in ("/accounts/me/", "/", "/accounts/me/delete/",
                                          "/accounts/password/change/")]
    for response in pages:
        assert response.status_code == 200, response.request["PATH_INFO"]
        html = response.content.decode()
        assert "<img src=x" not in html, response.request["PATH_INFO"]
        assert "&lt;img src=x onerror=alert(1)&gt;" in html, response.request["PATH_INFO"]
