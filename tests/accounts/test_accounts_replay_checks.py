"""The replay page's Verify and Download replay (accounts/replay_checks.py, docs/verify.md): the
replay file made from a record verifies, held to the commitment the record kept from before the
first move; a record whose seed, salt, an action or a CPU move was changed since is caught; the
owner only, and only a record that kept its commitment."""
from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest
from accounts_testlib import unique_address
from django.test import Client

from accounts.models import GameRecord
from games.replay import RECORD_KEYS, states
from tests.engines.test_verify import simulate
from tests.live import PROJECT


def record_of(user, game: str, number: int) -> GameRecord:
    """A signed-in player's record of a game played as the rooms play it (seat 0 a person, the
    others the rooms' CPUs), with what the rooms keep in its replay."""
    file = simulate(game, number)
    at = datetime(2026, 12, 6, 5, 0, tzinfo=UTC)
    replay = {**{key: file[key] for key in RECORD_KEYS}, "commitment": file["fairness"]["commitment"],
              "cpu_level": file["cpu_level"]}
    return GameRecord.objects.create(
        user=user, game=game, mode="cpu", options=file["options"], cpu_level=file["cpu_level"],
        seat=0, players=file["players"], result="win", rank=1, score=0, moves=len(file["actions"]),
        duration_seconds=60.0, started_at=at, finished_at=at, replay=replay)


def signed_in(user) -> Client:
    client = Client(REMOTE_ADDR=unique_address())
    client.force_login(user)
    return client


def verified(user, record) -> dict:
    response = signed_in(user).get(f"/replays/{record.pk}/verify.json")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize("game", ["memory", "bozu", "gin"])
def test_a_record_verifies_against_the_commitment_it_kept(alice, game):
    record = record_of(alice, game, 3)
    found = verified(alice, record)
    cpu_moves = sum(1 for _seat, _action, by in record.replay["actions"] if by == "cpu")
    assert found == {"verified": True, "problems": [], "cpu_moves": cpu_moves,
                     "commitment": record.replay["commitment"]}
    assert cpu_moves > 0

    # The page shows the commitment and offers both; the download is the file checked.
    page = signed_in(alice).get(f"/replays/{record.pk}/").content.decode()
    assert f'data-commitment="{record.replay["commitment"]}"' in page
    assert f'data-url="/replays/{record.pk}/verify.json"' in page
    response = signed_in(alice).get(f"/replays/{record.pk}/replay.json")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{game}-replay.json"'
    file = response.json()
    assert file["fairness"]["commitment"] == record.replay["commitment"]
    assert {entry["seat"] for entry in file["shown"]} == {0}
    assert len(file["shown"]) == len(record.replay["actions"]) + 1


def test_python_m_games_verify_checks_the_downloaded_file(alice, tmp_path):
    record = record_of(alice, "gin", 4)
    path = tmp_path / "gin-replay.json"
    path.write_bytes(signed_in(alice).get(f"/replays/{record.pk}/replay.json").content)
    done = subprocess.run([sys.executable, "-m", "games.verify", str(path)], cwd=PROJECT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("verified: gin game"), done.stdout


def altered(record, change) -> GameRecord:
    """The record as stored after ``change`` (given the record, it changes its replay or options)."""
    change(record)
    record.save()
    record.refresh_from_db()
    return record


def other_cpu_move(record):
    """The first CPU move replaced by another legal one (a planted cheater)."""
    actions = record.replay["actions"]
    for k, state in states(record.game, record.options, record.replay["seed"], actions):
        seat, action, by = actions[k]
        if by == "cpu":
            actions[k][1] = next(a for a in state.legal_actions(seat) if a != action)
            return


CHANGES = {
    "salt": (lambda r: r.replay.update(salt="f" * 32), "the reveal does not hash to the commitment"),
    "seed": (lambda r: r.replay.update(seed=r.replay["seed"] + 1), "the reveal does not hash to the commitment"),
    "options": (lambda r: r.options.update(match="colour"), "the reveal does not hash to the commitment"),
    "action": (lambda r: r.replay["actions"].pop(), "the actions do not finish the game"),
    "result": (lambda r: r.replay["result"].update(scores=r.replay["result"]["scores"][::-1]),
               "the recorded result is not the replay's"),
    "cpu-move": (other_cpu_move, "from its views"),
}


@pytest.mark.parametrize("name", CHANGES)
def test_a_changed_record_is_caught(alice, name):
    change, problem = CHANGES[name]
    record = record_of(alice, "memory", 5)
    commitment = record.replay["commitment"]
    found = verified(alice, altered(record, change))
    assert found["verified"] is False and found["commitment"] == commitment
    assert any(problem in text for text in found["problems"]), found["problems"]


def test_only_the_owner_verifies_and_downloads(alice, make_user):
    record = record_of(alice, "bozu", 1)
    bob = make_user("bob")
    for part in ("verify.json", "replay.json"):
        assert signed_in(bob).get(f"/replays/{record.pk}/{part}").status_code == 404
        assert Client(REMOTE_ADDR=unique_address()).get(f"/replays/{record.pk}/{part}").status_code == 404
    # A record kept before records kept the commitment: nothing to hold it to.
    altered(record, lambda r: r.replay.pop("commitment"))
    assert signed_in(alice).get(f"/replays/{record.pk}/verify.json").status_code == 404
    assert 'id="verify"' not in signed_in(alice).get(f"/replays/{record.pk}/").content.decode()
