"""The replay page of a finished game (issue 39, point 2): its owner only, every step from the
record replayed through the engines, every card face up or only what the player's seat saw;
share links that name nobody unless asked, stop working when revoked and go with the record."""
from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from accounts_testlib import unique_address
from django.test import Client
from django.urls import resolve

from accounts.deletion import delete_account
from accounts.models import GameRecord, ReplayShare
from games import replay_steps
from games import views as game_views
from tests.accounts.replay_games import played

MEMORY = {"players": 2, "cards": 24}


def record_of(user, game="memory", options=MEMORY, seed=11) -> GameRecord:
    actions = played(game, options, seed)
    finished = datetime(2026, 12, 1, 12, tzinfo=UTC)
    return GameRecord.objects.create(
        user=user, game=game, mode="cpu", options=options, cpu_level="easy", seat=0, players=2,
        result="win", rank=1, score=7, moves=len(actions), duration_seconds=60.0,
        started_at=finished - timedelta(minutes=1), finished_at=finished,
        replay={"seed": seed, "salt": "0" * 32, "actions": actions, "cpus": [[1, 0]], "result": None})


def signed_in(user, **kwargs) -> Client:
    client = Client(REMOTE_ADDR=unique_address(), **kwargs)
    client.force_login(user)
    return client


def replay_data(response) -> dict:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>',
                      response.content.decode(), re.S)
    assert found, "the page carries no replay data"
    return json.loads(found.group(1))


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def test_the_owner_replays_every_step_with_every_card_face_up_or_as_seen(alice):
    record = record_of(alice)
    response = signed_in(alice).get(f"/replays/{record.pk}/")
    assert response.status_code == 200
    data = replay_data(response)
    steps = data["steps"]
    assert len(steps) == len(record.replay["actions"]) + 1
    assert [step["entry"] for step in steps[1:]] == record.replay["actions"]
    assert data["names"] == ["You", "CPU 2"]
    # The deal: every card known on the open table, none on the player's own.
    deal = steps[0]
    assert all(len(cell) > 1 and cell[0] == "d" for cell in deal["open"]["cells"])
    assert deal["seen"]["cells"] == ["d"] * 24
    assert [place[0] for place in deal["grid"]["places"]][:3] == ["A1", "A2", "A3"]
    # The first flip: the player saw that card and no other.
    first = steps[1]
    pos = first["entry"][1]["pos"]
    index = [place[0] for place in deal["grid"]["places"]].index(pos)
    assert first["seen"]["cells"][index] == first["open"]["cells"][index] == "u" + deal["open"]["cells"][index][1:]
    assert sum(cell != "d" for cell in first["seen"]["cells"]) == 1
    # The end: every card taken, the scores the engine gave.
    end = steps[-1]
    assert end["open"]["over"] and all(cell.startswith("t") for cell in end["open"]["cells"])
    assert end["seen"]["cells"] == end["open"]["cells"]


def test_gin_shows_both_hands_open_and_only_the_known_cards_as_seen():
    options = {"players": 2, "target": 100}
    steps = replay_steps.steps("gin", options, 5, played("gin", options, 5, limit=40), 0)
    for step in steps:
        open_hands, seen_hands = step["open"]["hands"], step["seen"]["hands"]
        assert all(None not in hand and len(hand) >= 10 for hand in open_hands)
        if seen_hands[0]:  # the player's own hand (none between hands): all of it
            assert sorted(seen_hands[0]) == sorted(open_hands[0])
        if seen_hands[1]:  # the opponent's: as many cards, only those it had shown
            assert len(seen_hands[1]) == len(open_hands[1])
            assert set(filter(None, seen_hands[1])) <= set(open_hands[1])
    assert any(None in step["seen"]["hands"][1] for step in steps)


def test_bozu_shows_the_next_card_only_on_the_open_table():
    options = {"players": 2}
    steps = replay_steps.steps("bozu", options, 3, played("bozu", options, 3), 0)
    assert steps[0]["open"]["next"] is not None and steps[0]["seen"]["next"] is None
    assert steps[1]["open"]["piles"][0]["top"] or steps[1]["open"]["centre"]["top"] \
        or steps[1]["open"]["piles"][1]["top"]
    assert steps[-1]["open"]["over"] and steps[-1]["open"]["next"] is None


def test_nobody_else_finds_a_replay(alice, bob):
    record = record_of(alice)
    assert signed_in(bob).get(f"/replays/{record.pk}/").status_code == 404
    assert signed_in(bob).post(f"/replays/{record.pk}/share").status_code == 404
    assert not ReplayShare.objects.exists()
    anonymous = Client(REMOTE_ADDR=unique_address()).get(f"/replays/{record.pk}/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert signed_in(alice).get("/replays/999999/").status_code == 404
    # A record kept before games were replayable has no replay page.
    GameRecord.objects.filter(pk=record.pk).update(replay=None)
    assert signed_in(alice).get(f"/replays/{record.pk}/").status_code == 404


def test_the_finished_games_list_links_the_owners_replays_only(alice, bob):
    record = record_of(alice)
    old = record_of(alice, seed=12)
    GameRecord.objects.filter(pk=old.pk).update(replay=None)
    page = signed_in(alice).get("/accounts/me/").content.decode()
    assert f'href="/replays/{record.pk}/"' in page
    assert f'href="/replays/{old.pk}/"' not in page
    alice.profile.public_profile = True
    alice.profile.save()
    public = signed_in(bob).get("/u/alice/").content.decode()
    assert "/replays/" not in public


def test_sharing_is_off_by_default_names_nobody_and_stops_when_revoked(alice):
    record = record_of(alice)
    owner = signed_in(alice, enforce_csrf_checks=True)
    page = owner.get(f"/replays/{record.pk}/")
    assert 'id="share-create"' in page.content.decode() and not ReplayShare.objects.exists()
    # Without the form's CSRF token nothing is shared.
    assert owner.post(f"/replays/{record.pk}/share").status_code == 403
    assert not ReplayShare.objects.exists()
    token = owner.cookies["csrftoken"].value
    response = owner.post(f"/replays/{record.pk}/share", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    share = ReplayShare.objects.get(record=record)
    assert not share.show_name and len(share.key) >= 20
    assert share.key in owner.get(f"/replays/{record.pk}/").content.decode()

    visitor = Client(REMOTE_ADDR=unique_address())
    shared = visitor.get(f"/r/{share.key}/")
    assert shared.status_code == 200
    assert "alice" not in shared.content.decode().lower()
    assert replay_data(shared)["names"] == ["Player 1", "CPU 2"]
    assert 'id="share-create"' not in shared.content.decode()
    assert '<meta name="robots" content="noindex">' in shared.content.decode()

    owner.post(f"/replays/{record.pk}/share", {"csrfmiddlewaretoken": token, "show_name": "on"})
    assert replay_data(visitor.get(f"/r/{share.key}/"))["names"] == ["alice", "CPU 2"]

    assert owner.post(f"/replays/{record.pk}/unshare").status_code == 403
    assert visitor.get(f"/r/{share.key}/").status_code == 200
    owner.post(f"/replays/{record.pk}/unshare", {"csrfmiddlewaretoken": token})
    assert visitor.get(f"/r/{share.key}/").status_code == 404
    assert visitor.get("/r/not-a-share-key/").status_code == 404


def test_share_links_end_in_a_slash_and_room_pages_keep_theirs(alice):
    share = ReplayShare.objects.create(record=record_of(alice))
    assert resolve(f"/r/{share.key}/").url_name == "shared_replay"
    # Without the slash it is a room's address, as the room pages have always been.
    room = resolve(f"/r/{share.key}")
    assert room.url_name == "room" and room.func is game_views.room
    assert resolve("/r/abcDEF123_-x").url_name == "room"


def test_the_export_holds_the_share_link_and_deletion_takes_it(alice, bob):
    record = record_of(alice)
    share = ReplayShare.objects.create(record=record, show_name=True)
    data = json.loads(signed_in(alice).get("/accounts/me/export/").content)
    assert data["game_records"][0]["share"] == {"key": share.key, "show_name": True,
                                               "created_at": share.created_at.isoformat()}
    record.delete()
    assert not ReplayShare.objects.exists()

    ReplayShare.objects.create(record=record_of(alice, seed=13))
    kept = ReplayShare.objects.create(record=record_of(bob, seed=14))
    delete_account(alice)
    assert list(ReplayShare.objects.all()) == [kept]


@pytest.mark.django_db(transaction=True)
def test_the_result_screens_link_finds_the_players_record_of_the_rooms_game(alice, bob, monkeypatch):
    from games.rooms import creation, registry, service, steps
    monkeypatch.setattr(registry, "cpu_delay", lambda game: 0.0)
    room, token = creation.create_room("bozu", "cpu", {"players": 2}, None)
    service.hello(room.id, token, alice.id)
    assert signed_in(alice).get(f"/replays/room/{room.id}/").status_code == 404  # not over yet
    while (room := service.load(room.id)).status != "finished":
        if registry.engine("bozu").State.from_json(room.state).current_player == 0:
            service.act(room.id, [0], {"type": "flip"})
        else:
            steps.run_step(room.id)
    record = GameRecord.objects.get(user=alice)
    response = signed_in(alice).get(f"/replays/room/{room.id}/")
    assert response.status_code == 302 and response["Location"] == f"/replays/{record.pk}/"
    assert signed_in(bob).get(f"/replays/room/{room.id}/").status_code == 404
    assert signed_in(alice).get("/replays/room/no-such-room/").status_code == 404


@pytest.mark.parametrize("language,words", [("ja", ["リプレイ", "自分に見えていたものだけ", "CPU 2"]),
                                            ("de", ["Wiederholung", "Nur was ich sah", "Spieler 1"]),
                                            ("es", ["Repetición", "Solo lo que vi", "Jugador 1"])])
def test_the_replay_and_shared_pages_speak_the_players_language(alice, language, words):
    record = record_of(alice)
    share = ReplayShare.objects.create(record=record)
    owner = signed_in(alice, HTTP_ACCEPT_LANGUAGE=language)
    page = owner.get(f"/replays/{record.pk}/").content.decode() + \
        Client(REMOTE_ADDR=unique_address(), HTTP_ACCEPT_LANGUAGE=language).get(f"/r/{share.key}/").content.decode()
    assert all(word in page for word in words), language

