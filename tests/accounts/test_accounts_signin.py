import time

import pytest
from django.core.cache import cache
from django.test import Client

from accounts import throttle

from accounts_testlib import PASSWORD


@pytest.fixture(autouse=True)
def clear_counts():
    # Only this test's keys: the cache may be the Redis database other test runs share.
    for name in ("alice", "bob"):
        throttle.SIGN_IN.clear(name)
    yield
    for name in ("alice", "bob"):
        throttle.SIGN_IN.clear(name)


def test_it_signs_in_and_redirects_to_next(client, alice):
    response = client.post("/accounts/login/?next=/r/room1", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/r/room1"
    assert client.session["_auth_user_id"] == str(alice.id)


def test_a_wrong_password_is_refused(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 400
    assert "_auth_user_id" not in client.session


def test_sign_in_is_throttled_per_username_even_for_the_right_password(client, alice, make_user):
    make_user("bob")
    for _ in range(throttle.SIGN_IN.limit):
        assert client.post("/accounts/login/", {"username": "alice", "password": "guess"}).status_code == 400
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429
    assert b"Too many failed sign-in attempts" in response.content
    assert "_auth_user_id" not in client.session
    # The count is per username (and case-insensitive), not per visitor: another account still works.
    assert client.post("/accounts/login/", {"username": "ALICE", "password": "x"}).status_code == 429
    assert client.post("/accounts/login/", {"username": "bob", "password": PASSWORD}).status_code == 302


def test_the_lock_out_ends_with_its_window(client, alice, monkeypatch):
    monkeypatch.setattr(throttle, "SIGN_IN", throttle.Throttle("signin-failures", limit=2, window_seconds=1))
    for _ in range(2):
        client.post("/accounts/login/", {"username": "alice", "password": "guess"})
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 429
    time.sleep(1.2)  # the cache forgets the count when the window ends
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302


def test_a_success_resets_the_count(client, alice):
    for _ in range(throttle.SIGN_IN.limit - 1):
        client.post("/accounts/login/", {"username": "alice", "password": "guess"})
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302
    client.logout()
    for _ in range(throttle.SIGN_IN.limit - 1):
        client.post("/accounts/login/", {"username": "alice", "password": "guess"})
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302


def test_the_throttle_keeps_no_address_in_the_cache(client, alice):
    client.post("/accounts/login/", {"username": "alice", "password": "guess"}, REMOTE_ADDR="203.0.113.9")
    key = throttle.SIGN_IN._key("alice")
    assert cache.get(key) == 1
    assert "203.0.113.9" not in key and "alice" not in key


def test_it_refuses_a_post_without_the_csrf_token(alice):
    response = Client(enforce_csrf_checks=True).post("/accounts/login/",
                                                      {"username": "alice", "password": PASSWORD})
    assert response.status_code == 403


def test_sign_out_is_a_post_with_csrf(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get("/accounts/me/")
    assert b'action="/accounts/logout/"' in page.content
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 403
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else client.cookies["csrftoken"].value
    response = client.post("/accounts/logout/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/"
    assert "_auth_user_id" not in client.session
