"""GET /replays/<record id>/review.json: the owner of a record gets its game's review, computed
from the record's replay in the page's language; anyone else, and a record without a replay,
get 404 (accounts/replay_review.py)."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client

from accounts.models import GameRecord
from games.cpu.memory import make_cpu
from games.replay import apply_entry, new_state
from games.rooms import creation, registry, service, steps

OPTIONS = {"players": 2, "cards": 24, "jokers": False, "match": "rank", "one_flip": False}


def played_memory(seed: int) -> list:
    state = new_state("memory", OPTIONS, seed)
    cpus = [make_cpu(level, seat, seed + seat, OPTIONS) for seat, level in enumerate(("medium", "hard"))]
    actions = []
    while not state.is_over:
        step = state.pending_automatic()
        seat = state.current_player
        entry = ([None, {"type": step}, "auto"] if step
                 else [seat, cpus[seat].choose(state.view(seat)), "human" if seat == 0 else "cpu"])
        apply_entry(state, entry)
        actions.append(entry)
        for seat, cpu in enumerate(cpus):
            cpu.observe(state.view(seat))
    return actions


def record_of(user, replay) -> GameRecord:
    at = datetime(2026, 12, 6, 5, 0, tzinfo=UTC)
    return GameRecord.objects.create(
        user=user, game="memory", mode="cpu", options=OPTIONS, cpu_level="hard", seat=0, players=2,
        result="win", rank=1, score=14, moves=len(replay["actions"]) if replay else 30,
        duration_seconds=100.0, started_at=at, finished_at=at, replay=replay)


@pytest.fixture
def game(alice):
    actions = played_memory(21)
    return record_of(alice, {"seed": 21, "salt": "0" * 32, "actions": actions, "cpus": [[1, 0]],
                             "result": None})


def test_the_owner_gets_the_review_of_their_game(alice, game):
    client = Client()
    client.force_login(alice)
    response = client.get(f"/replays/{game.pk}/review.json")
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    review = response.json()
    assert review["game"] == "memory" and review["seat"] == 0
    assert review["moves"] and all(move["worth"] >= 0 for move in review["moves"])
    assert review["summary"]["text"].startswith(f"You found {review['summary']['found']} pairs")


def test_the_review_speaks_the_pages_language(alice, game):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(alice)
    review = client.get(f"/replays/{game.pk}/review.json").json()
    assert review["summary"]["text"].startswith(f"Du hast {review['summary']['found']} Paare gefunden")


def test_nobody_else_learns_that_it_exists(alice, make_user, game):
    assert Client().get(f"/replays/{game.pk}/review.json").status_code == 404
    bob = Client()
    bob.force_login(make_user("bob"))
    assert bob.get(f"/replays/{game.pk}/review.json").status_code == 404
    assert bob.get(f"/replays/{game.pk + 1000}/review.json").status_code == 404
    owner = Client()
    owner.force_login(alice)
    assert owner.post(f"/replays/{game.pk}/review.json").status_code == 405
    without_replay = record_of(alice, None)
    assert owner.get(f"/replays/{without_replay.pk}/review.json").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game,options", [("gin", {"target": 25}), ("bozu", {"players": 3}),
                                          ("memory", {"players": 2, "cards": 24})])
def test_a_game_played_in_a_room_is_reviewed_from_its_record(alice, game, options, monkeypatch):
    """The record the rooms service keeps (automatic steps, CPU seats and all) is reviewed."""
    monkeypatch.setattr(registry, "cpu_delay", lambda game: 0.0)
    monkeypatch.setattr(registry, "automatic_delay", lambda game, step: 0.0)
    room, token = creation.create_room(game, "cpu", options, None)
    service.hello(room.id, token, alice.id)
    while (room := service.load(room.id)).status != "finished":
        state = registry.engine(game).State.from_json(room.state)
        if state.current_player == 0:
            service.act(room.id, [0], state.legal_actions(0)[0])
        else:
            steps.run_step(room.id)
    record = GameRecord.objects.get(user=alice)
    client = Client()
    client.force_login(alice)
    review = client.get(f"/replays/{record.pk}/review.json").json()
    own = [entry for entry in record.replay["actions"] if entry[0] == 0 and entry[2] != "auto"]
    assert review["game"] == game and review["seat"] == 0 and review["summary"]["text"]
    if game == "gin":
        assert [d["action"] for d in review["decisions"]] == [entry[1] for entry in own]
    elif game == "memory":
        assert sum(len(move["flips"]) for move in review["moves"]) == len(own)
    else:
        assert [s["pile"] for s in review["seats"]] == room.result["scores"]
