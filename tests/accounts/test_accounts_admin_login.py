"""The admin's sign-in page is throttled with the site's (accounts/signin_throttle.py)."""
import time
from datetime import timedelta

import pytest
from accounts_testlib import PASSWORD, unique_address
from django.contrib.auth.models import User
from django.test import Client

ADMIN_LOGIN = "/admin/login/"


@pytest.fixture
def superuser(db):
    return User.objects.create_superuser("boss", "boss@example.com", PASSWORD)


def admin_sign_in(client, password):
    return client.post(ADMIN_LOGIN, {"username": "boss", "password": password, "next": "/admin/"})


def test_eight_wrong_passwords_lock_the_admin_sign_in_until_the_window_passes(client, superuser, settings):
    settings.AXES_COOLOFF_TIME = timedelta(seconds=2)
    answers = [admin_sign_in(client, f"guess{number}") for number in range(8)]
    limit = settings.AXES_FAILURE_LIMIT
    assert [response.status_code for response in answers] == [200] * (limit - 1) + [429] * (9 - limit)
    assert all(response["Retry-After"] == "2" for response in answers[limit - 1:])
    assert b"Too many failed sign-in attempts" in answers[-1].content
    response = admin_sign_in(client, PASSWORD)
    assert response.status_code == 429 and response["Retry-After"] == "2"
    assert "_auth_user_id" not in client.session
    time.sleep(2.5)  # the cache forgets the counts when the window ends
    response = admin_sign_in(client, PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.session["_auth_user_id"] == str(superuser.id)


def test_the_site_and_the_admin_share_one_count(client, superuser, settings):
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        assert client.post("/accounts/login/", {"username": "boss", "password": "guess"}).status_code == 400
    assert admin_sign_in(client, "guess").status_code == 429
    assert client.post("/accounts/login/", {"username": "boss", "password": PASSWORD}).status_code == 429
    # Only that address: the owner elsewhere signs in.
    assert admin_sign_in(Client(REMOTE_ADDR=unique_address()), PASSWORD).status_code == 302
