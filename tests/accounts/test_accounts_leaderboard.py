"""/leaderboard/: the day's and all-time best solo Memory games, per setting, naming only players
whose stats page is public, cached and built in a fixed number of queries."""
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import deletion, leaderboard
from accounts.models import GameRecord, Profile

DAY = date(2026, 3, 14)
MIDNIGHT = datetime(2026, 3, 14, tzinfo=UTC)
SOLO_24 = {"players": 1, "cards": 24, "jokers": False, "match": "rank", "one_flip": False}


@pytest.fixture(autouse=True)
def board_day(monkeypatch):
    """The board's day is fixed, so that "today" does not depend on when the tests run; and no
    board cached by an earlier test (the cache outlives the test database) is read."""
    monkeypatch.setattr(leaderboard, "today", lambda: DAY)
    leaderboard.forget()
    yield
    leaderboard.forget()


@pytest.fixture
def solo(finish_game):
    def play(user, flips, duration, *, options=SOLO_24, finished_at=MIDNIGHT + timedelta(hours=9)):
        finish_game([{"holder": "human", "user_id": user.id, "result": "win", "rank": 1,
                      "failed_flips": flips}],
                    mode="solo", cpu_level=None, options=options, duration=duration,
                    finished_at=finished_at)
    return play


def public(user):
    profile = Profile.of(user)   # users bulk-created below have none yet
    profile.public_profile = True
    profile.save()
    return user


def rankings(html: str) -> dict[str, list[tuple[str, str]]]:
    """Every ranking on the page, "<setting anchor>/<title>": [(player, result), ...]."""
    found = {}
    for anchor, section in re.findall(r'<section class="board-setting" id="([^"]+)"(.*?)</section>', html, re.S):
        for title, body in re.findall(r"<h3>(.*?)</h3>(.*?)</div>", section, re.S):
            found[f"{anchor}/{title}"] = [
                tuple(re.sub(r"<[^>]+>", "", part).strip() for part in place)
                for place in re.findall(r'<span class="place-player">(.*?)</span>\s*'
                                        r'<span class="place-result">(.*?)</span>', body, re.S)]
    return found


def test_it_names_only_players_whose_stats_page_is_public(client, make_user, solo):
    alice = public(make_user("alice"))
    bob = make_user("bob", email="bob@example.com")           # stats page private (the default)
    carol = public(make_user("carol", is_active=False))       # deactivated: no public page either
    solo(alice, 3, 80.0)
    solo(bob, 1, 95.0)
    solo(carol, 2, 70.0)
    html = client.get("/leaderboard/").content.decode()
    assert rankings(html)["cards-24-rank/Fewest failed flips of all time"] == [
        ("a player", "1 failed flip in 1:35"), ("a player", "2 failed flips in 1:10"),
        ("alice", "3 failed flips in 1:20")]
    assert '<a href="/u/alice/">alice</a>' in html
    # Nothing on the page tells who the others are: no name, e-mail address, link or id, only
    # the words "a player".
    for secret in ("bob", "carol"):
        assert secret not in html
    players = re.findall(r'<span class="place-player">(.*?)</span>\s*<span class="place-result">', html, re.S)
    assert set(players) == {'<a href="/u/alice/">alice</a>', '<span class="anonymous">a player</span>'}
    # Names are read at each view, not kept with the cached board: a player who turns their
    # page private leaves the board's names at once, one who turns it public joins it.
    public(bob)
    alice.profile.public_profile = False
    alice.profile.save()
    html = client.get("/leaderboard/").content.decode()
    assert rankings(html)["cards-24-rank/Fewest failed flips of all time"] == [
        ("bob", "1 failed flip in 1:35"), ("a player", "2 failed flips in 1:10"),
        ("a player", "3 failed flips in 1:20")]
    assert "alice" not in html


def test_it_ranks_each_setting_by_failed_flips_and_by_time(client, make_user, solo, finish_game):
    alice = public(make_user("alice"))
    solo(alice, 4, 60.0)
    solo(alice, 2, 90.0)
    solo(alice, 2, 75.0)     # ties on flips go to the faster game
    solo(alice, 9, 61.0, options={**SOLO_24, "cards": 52})
    solo(alice, 1, 50.0, options={**SOLO_24, "match": "zebra", "jokers": True})
    # Neither a game against the CPU nor one on a shared device is a solo result.
    finish_game([{"holder": "human", "user_id": alice.id, "result": "win", "rank": 1, "failed_flips": 0},
                 {}], game="memory", mode="cpu", duration=10.0, options={"players": 2, "cards": 24})
    html = client.get("/leaderboard/").content.decode()
    found = rankings(html)
    # One place per player, with their best game in that order.
    assert found["cards-24-rank/Fewest failed flips of all time"] == [("alice", "2 failed flips in 1:15")]
    assert found["cards-24-rank/Fastest of all time"] == [("alice", "1:00 with 4 failed flips")]
    assert found["cards-52-rank/Fastest of all time"] == [("alice", "1:01 with 9 failed flips")]
    assert found["cards-24-zebra-jokers/Fewest failed flips today"] == [("alice", "1 failed flip in 0:50")]
    # Sections in the order of the menu: deck size, then rule, then the extras.
    sections = re.findall(r'<section class="board-setting" id="([^"]+)"', html)
    assert sections == ["cards-24-rank", "cards-24-zebra-jokers", "cards-52-rank"]
    assert "<h2 id=\"cards-24-zebra-jokers-title\">24 cards, jokers, zebra</h2>" in html


def test_pictures_and_the_long_table_have_sections_of_their_own(client, make_user, solo):
    # Each is another challenge than the playing cards on the usual grid, and each section
    # needs its own anchor for the page's links.
    alice = public(make_user("alice"))
    solo_52 = {**SOLO_24, "cards": 52}
    pictures = {**solo_52, "match": "identical", "deck": "pictures"}
    for flips, options in [(3, solo_52), (4, {**solo_52, "long_table": True}), (5, pictures),
                           (6, {**pictures, "long_table": True})]:
        solo(alice, flips, 60.0, options=options)
    html = client.get("/leaderboard/").content.decode()
    sections = re.findall(r'<section class="board-setting" id="([^"]+)"', html)
    assert sections == ["cards-52-rank", "cards-52-rank-long-table", "cards-52-identical-pictures",
                        "cards-52-identical-pictures-long-table"]
    assert rankings(html)["cards-52-identical-pictures-long-table/Fewest failed flips today"] == [
        ("alice", "6 failed flips in 1:00")]
    assert '<h2 id="cards-52-identical-pictures-title">52 cards, pictures</h2>' in html


def test_a_ranking_holds_the_best_few_players_each_once(client, make_user, solo):
    players = [public(make_user(f"player{n}")) for n in range(leaderboard.BOARD_LENGTH + 5)]
    for flips, player in enumerate(players):
        solo(player, flips, 100.0 - flips)
    # The best player plays on, better and worse: they keep one place, with their best game.
    solo(players[0], 0, 90.0)
    solo(players[0], 30, 10.0)
    found = rankings(client.get("/leaderboard/").content.decode())
    flips_first = found["cards-24-rank/Fewest failed flips of all time"]
    assert len(flips_first) == leaderboard.BOARD_LENGTH
    assert flips_first[:2] == [("player0", "0 failed flips in 1:30"), ("player1", "1 failed flip in 1:39")]
    assert [name for name, _ in flips_first] == [f"player{n}" for n in range(leaderboard.BOARD_LENGTH)]
    fastest = found["cards-24-rank/Fastest of all time"]
    assert len(fastest) == leaderboard.BOARD_LENGTH
    assert fastest[0] == ("player0", "0:10 with 30 failed flips")
    assert fastest[1] == ("player14", f"1:26 with {leaderboard.BOARD_LENGTH + 4} failed flips")
    assert len({name for name, _ in fastest}) == leaderboard.BOARD_LENGTH


def test_the_days_rankings_start_at_midnight_utc(client, make_user, solo):
    alice = public(make_user("alice"))
    solo(alice, 1, 50.0, finished_at=MIDNIGHT - timedelta(minutes=1))   # yesterday, 23:59 UTC
    solo(alice, 6, 90.0, finished_at=MIDNIGHT + timedelta(minutes=1))
    html = client.get("/leaderboard/").content.decode()
    found = rankings(html)
    assert found["cards-24-rank/Fewest failed flips today"] == [("alice", "6 failed flips in 1:30")]
    assert found["cards-24-rank/Fastest today"] == [("alice", "1:30 with 6 failed flips")]
    assert found["cards-24-rank/Fewest failed flips of all time"] == [("alice", "1 failed flip in 0:50")]
    assert "“Today” is March 14, 2026, since 00:00 UTC." in html


def test_a_setting_played_only_before_today_says_so(client, make_user, solo):
    solo(make_user("alice"), 1, 50.0, finished_at=MIDNIGHT - timedelta(days=3))
    html = client.get("/leaderboard/").content.decode()
    assert rankings(html)["cards-24-rank/Fastest today"] == []
    assert "No games yet." in html


def test_an_empty_board_invites_players(client, db):
    response = client.get("/leaderboard/")
    assert response.status_code == 200
    assert "No solo games yet. Sign in and play Memory alone to appear here." in response.content.decode()


def test_the_board_is_cached_and_a_new_solo_game_shows_at_once(client, make_user, solo):
    alice = public(make_user("alice"))
    solo(alice, 5, 100.0)
    client.get("/leaderboard/")
    # A record written without the "game finished" signal (as an operator's import would) is
    # not seen: the board comes from the cache.
    GameRecord.objects.create(user=alice, game="memory", mode="solo", options=SOLO_24, seat=0,
                              players=1, result="win", rank=1, score=12, failed_flips=0, moves=24,
                              duration_seconds=30.0, started_at=MIDNIGHT, finished_at=MIDNIGHT)
    board = rankings(client.get("/leaderboard/").content.decode())
    assert board["cards-24-rank/Fewest failed flips of all time"] == [("alice", "5 failed flips in 1:40")]
    # A finished solo game forgets the cached board: the next view is built again from every
    # record, and shows Alice once, with her best game (the imported one).
    solo(alice, 3, 90.0)
    board = rankings(client.get("/leaderboard/").content.decode())
    assert board["cards-24-rank/Fewest failed flips of all time"] == [("alice", "0 failed flips in 0:30")]


def test_a_deleted_accounts_games_leave_the_board(client, make_user, solo,
                                                   django_capture_on_commit_callbacks):
    alice = public(make_user("alice"))
    bob = make_user("bob")
    solo(alice, 5, 100.0)
    solo(bob, 1, 60.0)
    board = rankings(client.get("/leaderboard/").content.decode())
    assert [player for player, _ in board["cards-24-rank/Fastest of all time"]] == ["a player", "alice"]
    with django_capture_on_commit_callbacks(execute=True):
        deletion.delete_account(bob)
    board = rankings(client.get("/leaderboard/").content.decode())
    assert board["cards-24-rank/Fastest of all time"] == [("alice", "1:40 with 5 failed flips")]


def board_queries(client) -> tuple[int, int]:
    """The queries of a view that builds the board, then of one that finds it cached."""
    leaderboard.forget()
    counts = []
    for _view in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/leaderboard/").status_code == 200
        counts.append(len(queries))
    return counts[0], counts[1]


def bulk_solo_games(players: int, games_each: int, start: int = 0):
    users = User.objects.bulk_create([User(username=f"player{start + i}") for i in range(players)])
    GameRecord.objects.bulk_create([
        GameRecord(user=user, game="memory", mode="solo",
                   options={**SOLO_24, "cards": (24, 40, 52)[n % 3], "jokers": n % 2 == 0},
                   seat=0, players=1, result="win", rank=1, score=12, failed_flips=(i * 7 + n) % 13,
                   moves=30, duration_seconds=50.0 + (i * 11 + n) % 97,
                   started_at=MIDNIGHT, finished_at=MIDNIGHT + timedelta(minutes=n - 5))
        for i, user in enumerate(users) for n in range(games_each)])


def test_the_board_costs_the_same_queries_however_many_games_and_players(client, make_user):
    bulk_solo_games(players=2, games_each=2)
    small = board_queries(client)
    bulk_solo_games(players=60, games_each=12, start=2)   # 720 games in six settings, two days
    # A few players made public: the names are one query however many of them are on the board.
    for profile_user in User.objects.filter(username__in=["player3", "player10", "player40"]):
        public(profile_user)
    large = board_queries(client)
    assert large == small
    built, cached = large
    assert built <= 4      # the day's rankings, all time's, the public names (+ sessions' none)
    assert cached == built - 2
    found = rankings(client.get("/leaderboard/").content.decode())
    assert len(found) == 6 * 4
    assert all(len(places) == leaderboard.BOARD_LENGTH for places in found.values())


def test_it_is_linked_from_the_memory_pages_and_the_privacy_page(client, db):
    for path in ("/memory/", "/memory/rules/", "/privacy/"):
        assert 'href="/leaderboard/"' in client.get(path).content.decode(), path
    # ...and, in the navigation, from every other page (templates/base.html).
    assert 'href="/leaderboard/">Leaderboard</a>' in client.get("/gin/").content.decode()


def test_a_public_players_name_is_escaped(client, make_user, solo):
    # The admin may create names sign-up refuses; the board shows them as text, never as markup.
    nasty = public(make_user('<img src=x onerror=alert(1)>"&\''))
    solo(nasty, 2, 60.0)
    html = client.get("/leaderboard/").content.decode()
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;&quot;&amp;&#x27;</a>" in html
