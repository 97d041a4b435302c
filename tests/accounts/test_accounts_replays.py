"""A finished game's replay (its seed, salt and actions) is kept in the signed-in player's own
record only: "Download my data" holds it, deleting the record or the account deletes it, and
no anonymous row (the operators' copy, a game without signed-in players) gets any of it."""
from __future__ import annotations

import json

import pytest
from accounts_testlib import every_model
from django.test import Client

from accounts.deletion import delete_account
from accounts.models import GameRecord
from games.finished import operators_copy
from games.models import Room, RoomEvent
from games.replay import states
from games.rooms import creation, registry, replays, service, steps
from games.signals import game_finished
from games.verify import check


@pytest.fixture
def no_delays(monkeypatch):
    """CPU moves and automatic steps are due at once, so run_step plays them straight away."""
    monkeypatch.setattr(registry, "cpu_delay", lambda game: 0.0)
    monkeypatch.setattr(registry, "automatic_delay", lambda game, step: 0.0)


@pytest.fixture
def sent_records():
    records = []

    def receive(sender, record, **kwargs):
        records.append(record)
    game_finished.connect(receive, dispatch_uid="test-replays")
    yield records
    game_finished.disconnect(dispatch_uid="test-replays")


def play_to_the_end(game: str, options: dict, user_id: int | None, resign_after: int | None = None) -> Room:
    """Seat 0 (a person, signed in as ``user_id``) plays its first legal action each turn
    against the CPU, in process, until the game is over (or it resigns after some moves)."""
    room, token = creation.create_room(game, "cpu", options, None)
    service.hello(room.id, token, user_id)
    moves = 0
    while (room := service.load(room.id)).status != "finished":
        state = registry.engine(game).State.from_json(room.state)
        if resign_after is not None and moves >= resign_after:
            service.resign(room.id, [0])
        elif state.current_player == 0:
            service.act(room.id, [0], state.legal_actions(0)[0])
            moves += 1
        else:
            steps.run_step(room.id)
    return room


def rows_holding(text: str) -> set[str]:
    """The tables with a row whose values hold ``text``."""
    return {model._meta.label_lower for model in every_model()
            if any(text in json.dumps(row, default=str) for row in model.objects.values())}


@pytest.mark.django_db(transaction=True)
def test_the_record_keeps_the_replay_and_nothing_anonymous_does(alice, no_delays, sent_records):
    room = play_to_the_end("bozu", {"players": 2}, alice.id)
    record = GameRecord.objects.get(user=alice)
    replay = record.replay
    assert (replay["seed"], replay["salt"]) == (room.fairness["seed"], room.fairness["salt"])
    assert replay["cpus"] == [[1, 0]]
    steps = [e for e in RoomEvent.objects.filter(room=room).order_by("version").values_list("event", flat=True)
             if e["type"] == "action"]
    assert replay["actions"] == [[e["seat"], e["action"], e["by"]] for e in steps]
    assert replay["result"] == room.result
    # Replayed from the record alone, the game ends as it did.
    *_, (_, final) = states("bozu", record.options, replay["seed"], replay["actions"])
    assert final.is_over and final.result()["scores"] == room.result["scores"]
    # The operators' copy of the game holds none of it, nor does any other table but the room's
    # own (its secret, until the room is deleted).
    (sent,) = sent_records
    copy = json.dumps(operators_copy(sent))
    assert replay["salt"] not in copy and str(replay["seed"]) not in copy and "actions" not in copy
    assert rows_holding(replay["salt"]) == {"accounts.gamerecord", "games.room"}

    client = Client()
    client.force_login(alice)
    exported = json.loads(client.get("/accounts/me/export/").content)
    assert [r["replay"] for r in exported["game_records"]] == [replay]

    record.delete()
    assert rows_holding(replay["salt"]) == {"games.room"}


@pytest.mark.django_db(transaction=True)
def test_deleting_the_account_deletes_its_replays(alice, no_delays):
    play_to_the_end("memory", {"players": 2, "cards": 24}, alice.id, resign_after=3)
    salt = GameRecord.objects.get(user=alice).replay["salt"]
    assert "accounts.gamerecord" in rows_holding(salt)
    delete_account(alice)
    assert rows_holding(salt) == {"games.room"}


@pytest.mark.django_db(transaction=True)
def test_a_resigned_game_replays_and_verifies(alice, no_delays):
    room = play_to_the_end("gin", {"target": 25}, alice.id, resign_after=4)
    replay = GameRecord.objects.get(user=alice).replay
    assert replay["result"]["resigned"] == 0
    file = replays.replay_file(room, [0])
    assert file["fairness"]["reveal"]["salt"] == replay["salt"]
    assert check(file).problems == []


@pytest.mark.django_db(transaction=True)
def test_a_game_without_signed_in_players_sends_no_replay(no_delays, sent_records):
    play_to_the_end("bozu", {"players": 2}, None)
    (sent,) = sent_records
    assert "replay" not in sent
    assert not GameRecord.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_cpu_that_took_a_seat_mid_game_is_checked_from_its_first_view(alice, make_user, no_delays):
    """Bob leaves a friends game of Memory after a few moves: the CPU that plays his seat from
    then on remembers only what it saw from then, and the replay checks each of its moves so."""
    bob, carol = make_user("bob"), make_user("carol")
    room, token = creation.create_room("memory", "friends", {"players": 3, "cards": 24}, "hard")
    service.hello(room.id, token, alice.id)
    service.join(room.id, bob.id)
    service.join(room.id, carol.id)
    moves = 0
    while (room := service.load(room.id)).status != "finished":
        state = registry.engine("memory").State.from_json(room.state)
        seat = state.current_player
        if moves == 6:
            service.leave(room.id, [1])
            moves += 1
        elif seat is not None and not room.seats[seat]["cpu"]:
            service.act(room.id, [seat], state.legal_actions(seat)[0])
            moves += 1
        else:
            steps.run_step(room.id)
    replay = GameRecord.objects.get(user=alice).replay
    ((cpu_seat, from_step),) = replay["cpus"]
    assert cpu_seat == 1 and from_step > 0
    assert "cpu" not in [by for _, _, by in replay["actions"][:from_step]]
    report = check(replays.replay_file(room, [0]))
    assert report.problems == [] and report.cpu_moves > 0


@pytest.mark.django_db(transaction=True)
def test_play_again_commits_to_a_new_seed_and_salt(alice, no_delays):
    first = play_to_the_end("bozu", {"players": 2}, alice.id)
    assert replays.public(first)["reveal"]["seed"] == first.fairness["seed"]
    again = service.play_again(first.id, [0]).room
    assert replays.public(again) == {"commitment": again.fairness["commitment"], "reveal": None}
    assert again.fairness["commitment"] != first.fairness["commitment"]
    assert again.fairness["seed"] != first.fairness["seed"]
    assert again.fairness["salt"] != first.fairness["salt"]
    while (room := service.load(first.id)).status != "finished":
        state = registry.engine("bozu").State.from_json(room.state)
        if state.current_player == 0:
            service.act(room.id, [0], {"type": "flip"})
        else:
            steps.run_step(room.id)
    second, earlier = GameRecord.objects.filter(user=alice).order_by("-id")
    assert (earlier.replay["seed"], second.replay["seed"]) == (first.fairness["seed"], again.fairness["seed"])
    file = replays.replay_file(room, [0])
    assert file["actions"] == second.replay["actions"]  # this game's only
    assert check(file).problems == []
