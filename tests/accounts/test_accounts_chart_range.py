"""The results chart's axis is a calendar (issue 15): one day of games is one slim bar on an
axis of at least two weeks with two different dates, and days without games keep their place."""
from datetime import timedelta
from xml.etree import ElementTree

from accounts.charts import LEFT, RIGHT, WIDTH
from tests.accounts.test_accounts_me import T0, play

NS = "{http://www.w3.org/2000/svg}"


def chart(client, user):
    client.force_login(user)
    html = client.get("/accounts/me/").content.decode()
    return ElementTree.fromstring(html[html.index("<svg"):html.index("</svg>") + len("</svg>")])


def test_one_day_of_games_is_a_slim_bar_on_a_two_week_axis(client, alice, finish_game):
    play(finish_game, alice, ["win", "loss"], step=timedelta(minutes=5))
    svg = chart(client, alice)
    bars = svg.findall(f"{NS}g")
    assert len(bars) == 1
    width = float(bars[0].find(f"{NS}rect").get("width"))
    assert width <= (WIDTH - LEFT - RIGHT) / 14
    dates = [t.text for t in svg.findall(f"{NS}text")][-2:]
    assert dates == ["02/16/2026", "03/01/2026"]  # thirteen empty days before the day of games


def test_days_without_games_keep_their_place(client, alice, finish_game):
    play(finish_game, alice, ["win"])                                        # day 1
    play(finish_game, alice, ["win"], start=T0 + timedelta(days=1))          # day 2
    play(finish_game, alice, ["win"], start=T0 + timedelta(days=20))         # day 21
    xs = [float(g.find(f"{NS}rect").get("x")) for g in chart(client, alice).findall(f"{NS}g")]
    slot = xs[1] - xs[0]
    assert abs((xs[2] - xs[1]) - slot * 19) < 0.05  # the nineteen days between them
