"""Download my data: the rooms the player sits in and the browsers signed in, with nothing that
is not theirs (another seat's token, the room's id or secret state, a session key)."""
import json

from django.test import Client

from accounts.sessions import Session
from games.models import Room
from games.rooms import creation, service


def test_the_export_holds_the_rooms_the_player_sits_in_and_no_secret(alice, make_user):
    bob = make_user("bob")
    room, token = creation.create_room("bozu", "friends", {"players": 2}, "easy")
    service.hello(room.id, token, alice.id)
    joined = service.join(room.id, bob.id)
    other_room, other_token = creation.create_room("gin", "cpu", {"target": 25}, "normal")
    service.hello(other_room.id, other_token, bob.id)   # bob's alone: not alice's
    client = Client()
    client.force_login(alice)
    response = client.get("/accounts/me/export/")
    assert response.status_code == 200
    data = json.loads(response.content)
    (entry,) = data["rooms"]
    assert set(entry) == {"game", "mode", "status", "players", "seats", "created_at", "updated_at"}
    assert {k: entry[k] for k in ("game", "mode", "status", "players", "seats")} == {
        "game": "bozu", "mode": "friends", "status": "playing", "players": 2, "seats": [0]}
    stored = Room.objects.get(pk=room.id)
    secrets = [room.id, token, joined.reply["token"], *(s["token"] for s in stored.seats),
               str(stored.seed), "bob"]
    assert not [secret for secret in secrets if secret in response.content.decode()]


def test_the_export_counts_the_signed_in_browsers_without_their_keys(alice, make_user):
    laptop, phone = Client(), Client()
    laptop.force_login(alice)
    phone.force_login(alice)
    Client().force_login(make_user("bob"))
    response = laptop.get("/accounts/me/export/")
    sessions = json.loads(response.content)["sessions"]
    mine = Session.objects.filter(user=alice).order_by("expire_date")
    assert sessions == {"active": 2,
                        "expire_at": [s.expire_date.isoformat() for s in mine]}
    keys = [laptop.cookies["sessionid"].value, phone.cookies["sessionid"].value]
    assert not [key for key in keys if key in response.content.decode()]
