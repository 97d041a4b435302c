"""On the leaderboard a signed-in player finds their own places: they read "You" to them, even
with a private stats page, and still "a player" to everyone else."""
from datetime import UTC, date, datetime

import pytest

from accounts import leaderboard
from tests.accounts.test_accounts_leaderboard import SOLO_24, rankings

DAY = date(2026, 3, 14)


@pytest.fixture(autouse=True)
def board_day(monkeypatch):
    monkeypatch.setattr(leaderboard, "today", lambda: DAY)
    leaderboard.forget()
    yield
    leaderboard.forget()


def test_your_own_places_read_you_to_you_only(client, make_user, finish_game):
    private = make_user("quiet_player", password="a-long-password-1")
    finish_game([{"holder": "human", "user_id": private.id, "result": "win", "rank": 1, "failed_flips": 2}],
                mode="solo", cpu_level=None, options=SOLO_24, duration=70.0,
                finished_at=datetime(2026, 3, 14, 9, tzinfo=UTC))
    ranking = "cards-24-rank/Fewest failed flips of all time"
    assert rankings(client.get("/leaderboard/").content.decode())[ranking] == [("a player", "2 failed flips in 1:10")]
    client.force_login(private)
    html = client.get("/leaderboard/").content.decode()
    assert rankings(html)[ranking] == [("You", "2 failed flips in 1:10")]
    assert "quiet_player" not in html.split('<main', 1)[1].split("</main>")[0]
