"""Privacy controls on /accounts/me/: the telemetry switch, the public page switch, download my
data, delete my account."""
import json

from accounts_testlib import PASSWORD
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import GameRecord, Profile


def seat(user, result="win"):
    return {"holder": "human", "user_id": user.id, "result": result, "rank": 1, "score": 9}


def test_the_switches_are_saved_from_a_csrf_protected_form(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get("/accounts/me/")
    html = page.content.decode()
    assert 'action="/accounts/me/privacy/"' in html
    assert 'name="telemetry_enabled"' in html and 'name="public_profile"' in html
    # Without the token: refused, nothing changes.
    assert client.post("/accounts/me/privacy/", {"public_profile": "on"}).status_code == 403
    assert Profile.objects.get(user=alice).public_profile is False
    token = client.cookies["csrftoken"].value
    # Telemetry off (its box left unticked), public page on.
    response = client.post("/accounts/me/privacy/", {"public_profile": "on", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/accounts/me/#privacy"
    profile = Profile.objects.get(user=alice)
    assert (profile.telemetry_enabled, profile.public_profile) == (False, True)
    html = client.get("/accounts/me/").content.decode()
    assert 'href="/u/alice/"' in html
    client.post("/accounts/me/privacy/", {"telemetry_enabled": "on", "csrfmiddlewaretoken": token})
    profile.refresh_from_db()
    assert (profile.telemetry_enabled, profile.public_profile) == (True, False)


def test_the_switches_need_a_signed_in_post(client, alice):
    assert client.post("/accounts/me/privacy/", {"public_profile": "on"}).status_code == 302
    client.force_login(alice)
    assert client.get("/accounts/me/privacy/").status_code == 405
    assert Profile.objects.get(user=alice).public_profile is False


def test_download_my_data_holds_the_account_and_every_record(client, alice, make_user, finish_game):
    bob = make_user("bob")
    finish_game([seat(alice, "win"), {"result": "loss"}], game="bozu", cpu_level="easy",
                options={"players": 2})
    finish_game([seat(alice, "loss"), seat(bob, "win")], game="gin", mode="friends", cpu_level=None)
    assert client.get("/accounts/me/export/").status_code == 302
    client.force_login(alice)
    response = client.get("/accounts/me/export/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["account"]["username"] == "alice"
    assert data["account"]["email"] == "alice@example.com"
    assert data["account"]["telemetry_enabled"] is True and data["account"]["public_profile"] is False
    records = data["game_records"]
    assert [(r["game"], r["mode"], r["result"], r["cpu_level"]) for r in records] == [
        ("bozu", "cpu", "win", "easy"), ("gin", "friends", "loss", None)]
    assert records[0]["options"] == {"players": 2} and records[0]["score"] == 9
    assert set(records[0]) >= {"seat", "players", "moves", "duration_seconds", "started_at", "finished_at"}
    assert "bob" not in response.content.decode()  # only this account's data


def test_delete_my_account_asks_for_the_password_then_deletes_the_records(alice, make_user, finish_game):
    bob = make_user("bob")
    finish_game([seat(alice), seat(bob, "loss")], mode="friends", cpu_level=None)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get("/accounts/me/delete/")
    assert page.status_code == 200 and b'name="csrfmiddlewaretoken"' in page.content
    token = client.cookies["csrftoken"].value
    assert client.post("/accounts/me/delete/", {"password": PASSWORD}).status_code == 403
    wrong = client.post("/accounts/me/delete/", {"password": "nope", "csrfmiddlewaretoken": token})
    assert wrong.status_code == 400 and b"That is not your password." in wrong.content
    assert User.objects.filter(username="alice").exists()
    response = client.post("/accounts/me/delete/", {"password": PASSWORD, "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/accounts/deleted/"
    assert not User.objects.filter(username="alice").exists()
    assert not Profile.objects.filter(user_id=alice.id).exists()
    assert not GameRecord.objects.filter(user_id=alice.id).exists()
    assert GameRecord.objects.filter(user=bob).count() == 1  # the other player keeps theirs
    assert client.get("/accounts/me/").status_code == 302      # signed out
    assert client.get("/accounts/deleted/").status_code == 200



def test_a_user_saved_without_signals_gets_a_profile_on_first_visit(client, alice):
    Profile.objects.filter(user=alice).delete()   # as after loaddata of bare users
    client.force_login(alice)
    assert client.get("/accounts/me/").status_code == 200
    assert Profile.objects.get(user=alice).telemetry_enabled is True
