"""/accounts/me/: totals, win rates, recent form, personal bests at solo Memory, the chart and
the list of games."""
import re
from datetime import UTC, datetime, timedelta
from xml.etree import ElementTree

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import stats
from accounts.models import GameRecord

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def me_seat(user, result, **extra):
    return {"holder": "human", "user_id": user.id, "result": result,
            "rank": 1 if result != "loss" else 2, **extra}


def play(finish_game, user, results, *, start=T0, step=timedelta(hours=1), **fields):
    for i, result in enumerate(results):
        finish_game([me_seat(user, result), {"result": "loss" if result == "win" else "win"}],
                    finished_at=start + i * step, **fields)


def test_it_needs_a_signed_in_player(client, db):
    response = client.get("/accounts/me/")
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/accounts/me/"


def test_a_new_player_sees_an_empty_record(client, alice):
    client.force_login(alice)
    response = client.get("/accounts/me/")
    assert response.status_code == 200
    assert b"No finished games yet" in response.content
    assert response.context["chart"] is None


def test_it_counts_per_game_mode_and_cpu_level(client, alice, finish_game):
    play(finish_game, alice, ["win", "win", "loss", "draw"], game="memory", cpu_level="hard")
    play(finish_game, alice, ["loss"], game="memory", cpu_level="easy", start=T0 + timedelta(days=1))
    play(finish_game, alice, ["win", "loss"], game="gin", cpu_level="normal", start=T0 + timedelta(days=2))
    finish_game([me_seat(alice, "win", failed_flips=7)], game="memory", mode="solo", cpu_level=None,
                options={"players": 1, "cards": 24}, finished_at=T0 + timedelta(days=3))
    client.force_login(alice)
    context = client.get("/accounts/me/").context
    s = context["stats"]
    # Solo games are scored by failed flips: they count in the table, not in win rates.
    assert (s.overall.games, s.overall.wins, s.overall.draws, s.overall.losses) == (7, 3, 1, 3)
    assert s.overall.win_rate == pytest.approx(3 / 7)
    memory, gin = s.games
    assert (memory.game, memory.games, memory.wins) == ("memory", 5, 2)
    assert (gin.game, gin.games, gin.wins, gin.losses) == ("gin", 2, 1, 1)
    rows = {(g.mode, g.cpu_level): g for g in memory.groups}
    assert set(rows) == {("cpu", "easy"), ("cpu", "hard"), ("solo", "")}
    hard = rows[("cpu", "hard")]
    assert (hard.games, hard.wins, hard.draws, hard.losses, hard.win_rate) == (4, 2, 1, 1, 0.5)
    assert hard.form == ["draw", "loss", "win", "win"]  # newest first
    assert rows[("solo", "")].best_failed_flips == 7
    assert [r.result for r in s.recent_form] == ["loss", "win", "loss", "draw", "loss", "win", "win"]


def test_recent_form_shows_the_last_results_only(client, alice, finish_game):
    results = ["loss"] * 3 + ["win"] * 12
    play(finish_game, alice, results)
    client.force_login(alice)
    s = client.get("/accounts/me/").context["stats"]
    assert [r.result for r in s.recent_form] == ["win"] * stats.RECENT_FORM_LENGTH
    (group,) = s.games[0].groups
    assert group.form == ["win"] * stats.GROUP_FORM_LENGTH


def test_personal_bests_are_the_fewest_failed_flips_and_the_fastest_per_deck(client, alice, finish_game):
    for flips, duration, cards in [(9, 40.0, 24), (4, 300.0, 24), (4, 200.0, 24), (2, 50.0, 24),
                                   (30, 500.0, 52)]:
        finish_game([me_seat(alice, "win", failed_flips=flips)], mode="solo", cpu_level=None,
                    duration=duration, options={"players": 1, "cards": cards})
    finish_game([me_seat(alice, "win", failed_flips=1)], mode="solo", cpu_level=None, duration=99.0,
                options={"players": 1, "cards": 52}, game="memory")
    client.force_login(alice)
    response = client.get("/accounts/me/")
    bests = [(best.fewest_flips.options["cards"], best.fewest_flips.failed_flips, best.fewest_flips.duration_seconds,
              best.fastest.failed_flips, best.fastest.duration_seconds)
             for best in response.context["stats"].solo_bests]
    # 52 cards: one game holds both bests; 24 cards: the fastest game (0:40) is not the cleanest.
    assert bests == [(52, 1, 99.0, 1, 99.0), (24, 2, 50.0, 9, 40.0)]
    rows = solo_best_rows(response.content.decode())
    assert rows == [["52 cards", "1 failed flip in 1:39", "1:39 with 1 failed flip"],
                    ["24 cards", "2 failed flips in 0:50", "0:40 with 9 failed flips"]]
    assert 'href="/leaderboard/"' in response.content.decode()


def solo_best_rows(html: str) -> list[list[str]]:
    """The personal bests table's cells, without their dates."""
    rows = re.findall(r'<tr class="solo-best">(.*?)</tr>', html, re.S)
    return [[re.sub(r"<time.*?</time>|<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)] for row in rows]


def test_personal_bests_keep_each_setting_apart(client, alice, finish_game):
    base = {"players": 1, "cards": 24, "jokers": False, "match": "rank", "one_flip": False}
    for flips, extra in [(5, {}), (3, {"jokers": True}), (4, {"match": "zebra", "one_flip": True})]:
        finish_game([me_seat(alice, "win", failed_flips=flips)], mode="solo", cpu_level=None,
                    options={**base, **extra})
    client.force_login(alice)
    rows = solo_best_rows(client.get("/accounts/me/").content.decode())
    assert [row[:2] for row in rows] == [["24 cards, jokers", "3 failed flips in 2:05"],
                                         ["24 cards, zebra, one flip per turn", "4 failed flips in 2:05"],
                                         ["24 cards", "5 failed flips in 2:05"]]


def test_personal_bests_name_the_picture_deck_and_the_long_table(client, alice, finish_game):
    # A game of pictures or on the long table is not the same challenge: its best stands apart.
    base = {"players": 1, "cards": 52, "jokers": False, "match": "rank", "one_flip": False}
    pictures = {"match": "identical", "deck": "pictures"}
    for flips, extra in [(6, {}), (7, pictures), (8, {**pictures, "long_table": True})]:
        finish_game([me_seat(alice, "win", failed_flips=flips)], mode="solo", cpu_level=None,
                    options={**base, **extra})
    client.force_login(alice)
    rows = solo_best_rows(client.get("/accounts/me/").content.decode())
    assert sorted(row[:2] for row in rows) == [["52 cards", "6 failed flips in 2:05"],
                                               ["52 cards, pictures", "7 failed flips in 2:05"],
                                               ["52 cards, pictures, long table", "8 failed flips in 2:05"]]


def test_the_chart_is_an_svg_drawn_on_the_server(client, alice, finish_game):
    play(finish_game, alice, ["win", "win", "loss"], step=timedelta(minutes=5))               # day 1
    play(finish_game, alice, ["draw"], start=T0 + timedelta(days=2))                          # day 3
    client.force_login(alice)
    response = client.get("/accounts/me/")
    days = response.context["stats"].days
    assert [(d.day.isoformat(), d.wins, d.draws, d.losses) for d in days] == [
        ("2026-03-01", 2, 0, 1), ("2026-03-03", 0, 1, 0)]
    html = response.content.decode()
    svg = html[html.index("<svg"):html.index("</svg>") + len("</svg>")]
    root = ElementTree.fromstring(svg)  # well-formed
    ns = "{http://www.w3.org/2000/svg}"
    bars = root.findall(f"{ns}g")
    assert len(bars) == 2
    first = [(r.get("class"), float(r.get("height"))) for r in bars[0].findall(f"{ns}rect")]
    second = [(r.get("class"), float(r.get("height"))) for r in bars[1].findall(f"{ns}rect")]
    assert [c for c, _h in first] == ["seg-win", "seg-loss"]
    assert first[0][1] == pytest.approx(2 * first[1][1])        # two wins, one loss
    assert sum(h for _c, h in first) == pytest.approx(3 * second[0][1])
    assert "2 won, 0 drawn, 1 lost" in bars[0].find(f"{ns}title").text


def test_the_chart_shows_the_most_recent_days(client, alice, finish_game):
    play(finish_game, alice, ["win"] * (stats.CHART_DAYS + 5), step=timedelta(days=1))
    client.force_login(alice)
    days = client.get("/accounts/me/").context["stats"].days
    assert len(days) == stats.CHART_DAYS
    assert days[-1].day == (T0 + timedelta(days=stats.CHART_DAYS + 4)).date()


def test_the_finished_games_are_listed_newest_first_by_pages(client, alice, finish_game):
    play(finish_game, alice, ["win"] * (stats.PAGE_SIZE + 3))
    client.force_login(alice)
    first = client.get("/accounts/me/")
    page = first.context["stats"].page
    assert (page.number, page.paginator.num_pages, len(page.object_list)) == (1, 2, stats.PAGE_SIZE)
    assert page.object_list[0].finished_at == T0 + timedelta(hours=stats.PAGE_SIZE + 2)
    assert b'href="?page=2#games"' in first.content
    second = client.get("/accounts/me/?page=2").context["stats"].page
    assert len(second.object_list) == 3 and second.object_list[-1].finished_at == T0
    # A bad page number shows a page rather than an error.
    assert client.get("/accounts/me/?page=zzz").context["stats"].page.number == 1
    assert client.get("/accounts/me/?page=99").context["stats"].page.number == 2


def test_a_resigned_game_is_listed_as_a_loss(client, alice, finish_game):
    finish_game([me_seat(alice, "loss", resigned=True), {"result": "win", "rank": 1}], game="gin",
                cpu_level="hard")
    client.force_login(alice)
    response = client.get("/accounts/me/")
    assert response.context["stats"].overall.losses == 1
    assert b"loss (resigned)" in response.content


def test_it_shows_only_the_players_own_games(client, alice, make_user, finish_game):
    bob = make_user("bob")
    play(finish_game, bob, ["win"] * 3)
    play(finish_game, alice, ["loss"])
    client.force_login(alice)
    s = client.get("/accounts/me/").context["stats"]
    assert (s.overall.games, s.overall.losses) == (1, 1)


def render_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def bulk_records(user, count, start=0):
    GameRecord.objects.bulk_create([
        GameRecord(user=user, game=("memory", "bozu", "gin")[i % 3], mode=("cpu", "solo", "friends")[i % 3],
                   options={"players": 2, "cards": (24, 40, 52)[i % 3]},
                   cpu_level=("hard", "", "")[i % 3], seat=0, players=2,
                   result=("win", "draw", "loss")[i % 3], rank=1, score=i % 13, moves=30,
                   failed_flips=(i % 7) if i % 3 == 1 else None, duration_seconds=100.0,
                   started_at=T0 + timedelta(hours=i), finished_at=T0 + timedelta(hours=i, minutes=2))
        for i in range(start, start + count)])


def test_the_page_makes_the_same_number_of_queries_however_many_games(client, alice):
    client.force_login(alice)
    bulk_records(alice, 10)
    small = render_queries(client, "/accounts/me/")
    bulk_records(alice, 190, start=10)
    assert render_queries(client, "/accounts/me/") == small
    assert render_queries(client, "/accounts/me/?page=3") == small
    assert small <= 12
