"""The review of a record's game is computed once per language and kept on the record
(``GameRecord.reviews``, accounts/replay_review.py): a second request reads it, another
language computes its own once, and a kept review of an older ``games.review.VERSION`` is
computed again."""
from __future__ import annotations

import pytest
from django.test import Client

from accounts import replay_review
from accounts.models import GameRecord
from games.review import VERSION
from tests.accounts.test_accounts_review import played_memory, record_of


@pytest.fixture
def computed(monkeypatch):
    """Each review computed, as (game, seat)."""
    calls = []
    compute = replay_review.review

    def counted(game, options, replay, seat):
        calls.append((game, seat))
        return compute(game, options, replay, seat)
    monkeypatch.setattr(replay_review, "review", counted)
    return calls


def test_a_second_request_reads_the_kept_review(alice, computed):
    record = record_of(alice, {"seed": 21, "salt": "0" * 32, "actions": played_memory(21),
                               "cpus": [[1, 0]], "result": None})
    client = Client()
    client.force_login(alice)
    first = client.get(f"/replays/{record.pk}/review.json").json()
    assert computed == [("memory", 0)]
    second = client.get(f"/replays/{record.pk}/review.json").json()
    assert second == first and computed == [("memory", 0)]
    record.refresh_from_db()
    assert record.reviews == {"en": {"version": VERSION, "review": first}}

    # Another language: computed once in its words, then read too; the English one stays.
    german = Client(HTTP_ACCEPT_LANGUAGE="de")
    german.force_login(alice)
    in_german = german.get(f"/replays/{record.pk}/review.json").json()
    assert in_german["summary"]["text"].startswith("Du hast")
    assert german.get(f"/replays/{record.pk}/review.json").json() == in_german
    assert len(computed) == 2
    record.refresh_from_db()
    assert set(record.reviews) == {"en", "de"}
    assert in_german["summary"]["found"] == first["summary"]["found"]

    # A review kept by an older version of the review is computed again.
    GameRecord.objects.filter(pk=record.pk).update(
        reviews={"en": {"version": VERSION - 1, "review": {"summary": {"text": "stale"}}}})
    assert client.get(f"/replays/{record.pk}/review.json").json() == first
    assert len(computed) == 3
