from accounts_testlib import PASSWORD, addresses_in_one_64, unique_address
from django.contrib.auth.models import User
from django.test import Client


def test_it_creates_the_account_and_signs_in(client, db):
    page = client.get("/accounts/signup/")
    assert page.status_code == 200
    assert b'name="csrfmiddlewaretoken"' in page.content
    response = client.post("/accounts/signup/", {"username": "newbie", "email": "",
                                                  "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/accounts/me/"
    user = User.objects.get(username="newbie")
    assert user.check_password(PASSWORD)
    assert user.profile.telemetry_enabled is True
    assert client.get("/accounts/me/").context["user"] == user


def test_it_goes_back_to_the_page_it_came_from_but_never_off_site(client, db):
    response = client.post("/accounts/signup/?next=/r/abc", {
        "username": "roomie", "password1": PASSWORD, "password2": PASSWORD})
    assert response["Location"] == "/r/abc"
    client.logout()
    response = client.post("/accounts/signup/?next=https://evil.example/", {
        "username": "other", "password1": PASSWORD, "password2": PASSWORD})
    assert response["Location"] == "/accounts/me/"


def test_it_applies_the_password_validators(client, db):
    for weak in ("12345678", "password", "newbie-1", "short"):
        response = client.post("/accounts/signup/", {"username": "newbie-1", "password1": weak,
                                                      "password2": weak})
        assert response.status_code == 400, weak
        assert response.context["form"].has_error("password2"), weak
    assert not User.objects.exists()


def test_it_refuses_a_taken_username_and_bad_characters(client, alice):
    response = client.post("/accounts/signup/", {"username": "alice", "password1": PASSWORD,
                                                  "password2": PASSWORD})
    assert response.status_code == 400 and response.context["form"].has_error("username")
    response = client.post("/accounts/signup/", {"username": "<script>", "password1": PASSWORD,
                                                  "password2": PASSWORD})
    assert response.status_code == 400 and response.context["form"].has_error("username")
    assert b"&lt;script&gt;" in response.content and b"<script>" not in response.content.split(b"<main")[1]
    assert User.objects.count() == 1


def test_it_refuses_a_post_without_the_csrf_token(db):
    from django.test import Client
    response = Client(enforce_csrf_checks=True).post(
        "/accounts/signup/", {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 403
    assert not User.objects.exists()


def test_it_limits_new_accounts_per_address_counting_an_ipv6_64_as_one(db, settings):
    # Issue 35, finding 6: sign-up had no limit at all.
    settings.SIGN_UPS_PER_ADDRESS = ((2, 3600),)
    first, second, third = (Client(REMOTE_ADDR=address) for address in addresses_in_one_64(3))
    for number, client in enumerate((first, second)):
        response = client.post("/accounts/signup/", {"username": f"made{number}", "password1": PASSWORD,
                                                      "password2": PASSWORD})
        assert response.status_code == 302
    response = third.post("/accounts/signup/", {"username": "made2", "password1": PASSWORD,
                                                 "password2": PASSWORD})
    assert response.status_code == 429 and 0 < int(response["Retry-After"]) <= 3600
    assert b"Too many new accounts from your network" in response.content
    assert not User.objects.filter(username="made2").exists()
    # Another address may.
    response = Client(REMOTE_ADDR=unique_address()).post(
        "/accounts/signup/", {"username": "made2", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
