"""Deleting an account on a live site leaves no trace of it in any table, ends every session of
it, and lets the games it sat in go on anonymously; the download before it held every row tied
to the account. Each backend: the embedded default, and PostgreSQL + Redis (two processes)."""
from __future__ import annotations

import json

import pytest
from accounts_testlib import PASSWORD, Browser, every_model, links_to_accounts, traces
from django.contrib.admin.models import CHANGE, DELETION, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import connection
from django.test import Client

from accounts.deletion import DELETED_ACCOUNT
from games.models import Room
from games.rooms import creation, links, service
from games.rooms.seats import Seat, seats_held_by
from tests.e2e.conftest import make_site, two_process_backends
from tests.rooms.helpers import close_all, connect, create_room, options, play_to_end

USERNAME = "leaving-player"
EMAIL = "leaving.player@example.com"

# Every table that can hold a row tied to an account, and how the download holds that row:
# the part of the export and how many rows it stands for there.
EXPORTED = {
    "auth.user": lambda data: int(data["account"]["username"] == USERNAME
                                  and data["account"]["email"] == EMAIL),
    "accounts.profile": lambda data: int("telemetry_enabled" in data["account"]),
    "auth.user_groups": lambda data: len(data["account"]["groups"]),
    "auth.user_user_permissions": lambda data: len(data["account"]["permissions"]),
    "accounts.gamerecord": lambda data: len(data["game_records"]),
    # A finished game naming its players is the same game as their own record of it.
    "games.finishedgame": lambda data: len(data["game_records"]),
    "games.room": lambda data: len(data["rooms"]),
    "accounts.session": lambda data: data["sessions"]["active"],
    # Django's own session table: unused since accounts/sessions.py (its rows moved there).
    "sessions.session": lambda data: data["sessions"]["active"],
    # An operator's own actions; the admin's entries about an account lose its name on deletion.
    "admin.logentry": lambda data: len(data["admin_actions"]),
}
# Tables whose JSON names accounts (games/rooms/service.py, games/signals.py): found by reading
# the rows, not the schema.
JSON_LINKED = {"games.room", "games.finishedgame"}


def test_every_table_that_can_hold_an_account_is_in_the_export():
    """A new model linking to accounts (or a new session table) fails here until the export and
    the deletion cover it and it is listed above."""
    linked = {model._meta.label_lower for model in every_model()
              if any(links_to_accounts(field) for field in model._meta.concrete_fields)
              or issubclass(model, AbstractBaseSession) or model is get_user_model()}
    assert linked | JSON_LINKED == set(EXPORTED)


@pytest.fixture(scope="module", params=two_process_backends())
def site(request, tmp_path_factory):
    made, cleanup = make_site(request.param, tmp_path_factory.mktemp(f"delete-{request.param}"))
    try:
        yield made
    finally:
        cleanup()


async def test_a_deleted_account_leaves_no_trace_and_its_games_go_on(site):
    player = Browser(site.url)
    player.sign_up(USERNAME, EMAIL)
    other_browser = Browser(site.url)       # signed in on a second device too
    other_browser.sign_in(USERNAME)
    # A whole game against the CPU: a record, a finished room (and a finished-game row).
    created = create_room(site.url, "bozu", "cpu", options("bozu"), "easy")
    conn = await player.connect(created["room_id"], created["seat_token"])
    try:
        await play_to_end([conn])
    finally:
        await conn.close()
    # A game with a friend, being played when the account is deleted.
    created = create_room(site.url, "bozu", "friends", options("bozu"), "easy")
    seat0 = await player.connect(created["room_id"], created["seat_token"])
    friend = await connect(site.url_for(1), created["room_id"])
    await friend.request("join")
    await seat0.wait_for(lambda s: s["room"]["status"] == "playing", 10)
    # A page left open on a friend's room, to join it after the account is gone.
    waiting = create_room(site.url, "bozu", "friends", options("bozu"), "easy")
    host = await connect(site.url, waiting["room_id"], waiting["seat_token"])
    onlooker = await player.connect(waiting["room_id"], None)
    user_id = get_user_id(site)

    before = traces(site.query, user_id, USERNAME, EMAIL)
    data = json.loads(player.get("/accounts/me/export/"))
    assert set(before) <= set(EXPORTED), "a table holds the account but is not in the export"
    assert {table: EXPORTED[table](data) for table in before} == before
    assert before["games.room"] == 2 and before["accounts.gamerecord"] == 1
    assert before["accounts.session"] == 2

    status, url = player.submit("/accounts/me/delete/", {"password": PASSWORD})
    assert url.endswith("/accounts/deleted/"), (status, url)
    assert traces(site.query, user_id, USERNAME, EMAIL) == {}
    assert not player.signed_in() and not other_browser.signed_in()
    assert not any(c.name == "sessionid" for c in player.jar)
    # The page opened while signed in takes a seat as anyone would, naming nobody.
    assert (await onlooker.request("join"))["room"]["you"]["seats"] == [1]
    await close_all(host, onlooker)
    assert traces(site.query, user_id, USERNAME, EMAIL) == {}

    # The seat stays the player's (the token still plays it) and the game ends as usual,
    # recorded for nobody.
    finals = await play_to_end([seat0, friend])
    await close_all(seat0, friend)
    assert {final["room"]["status"] for final in finals} == {"finished"}
    assert finals[0]["room"]["you"]["seats"] == [0]
    assert traces(site.query, user_id, USERNAME, EMAIL) == {}
    assert site.query("SELECT COUNT(*) FROM accounts_gamerecord") == [(0,)]


def get_user_id(site) -> int:
    ((user_id,),) = site.query("SELECT id FROM auth_user WHERE username = %s", (USERNAME,))
    return user_id


def database(sql: str, params: tuple = ()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def test_deleting_an_account_in_the_admin_leaves_no_trace_either(alice):
    operator = User.objects.create_superuser("operator", password=PASSWORD)
    room, token = creation.create_room("bozu", "cpu", {"players": 2}, "easy")
    service.hello(room.id, token, alice.id)
    laptop = Client()
    laptop.force_login(alice)
    admin = Client()
    admin.force_login(operator)
    # An earlier change in the admin: its log entry names the account.
    admin.post(f"/admin/auth/user/{alice.pk}/change/", {
        "username": "alice", "email": "alice@example.com", "is_active": "on",
        "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"})
    assert traces(database, alice.id, "alice", "alice@example.com")["admin.logentry"] == 1
    response = admin.post(f"/admin/auth/user/{alice.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not User.objects.filter(pk=alice.pk).exists()
    assert traces(database, alice.id, "alice", "alice@example.com") == {}
    assert laptop.get("/accounts/me/").status_code == 302     # signed out
    seat = Room.objects.get(pk=room.id).seats[0]
    assert (seat["holder"], seat["user"]) == ("human", None)  # still the token's seat
    stored = Room.objects.get(pk=room.id).seats
    assert seats_held_by([Seat.from_json(s) for s in stored], links.hash_token(token)) == [0]
    # What the operators did stays in their log, without the account's name or id.
    assert sorted(LogEntry.objects.filter(user=operator).values_list("action_flag", "object_repr")) == [
        (CHANGE, DELETED_ACCOUNT), (DELETION, DELETED_ACCOUNT)]
