"""Operators' dashboards in the admin: staff only, last days, tables and SVG charts."""
from datetime import UTC, datetime, time, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from telemetry.models import Event

pytestmark = pytest.mark.django_db
URL = "/admin/telemetry/event/"


def add(kind, age=timedelta(hours=1), **fields):
    Event.objects.create(received_at=timezone.now() - age, type=kind, **fields)


@pytest.fixture
def data():
    for _ in range(4):
        add("game_start", game="memory", mode="cpu")
    for _ in range(3):
        add("game_end", game="memory", mode="cpu", result="win", move_count="25-49", duration="3-10m")
    add("game_start", game="gin", mode="friends")
    add("game_start", game="gin", mode="friends", age=timedelta(days=10))
    add("view3d_failed", reason="unsupported", browser="safari", os="ios", device="mobile")
    add("view3d_first_frame", ttff="1-2s", browser="safari", os="ios", device="mobile")
    add("view3d_first_frame", ttff="1-2s", browser="chrome", os="windows", device="desktop")
    add("view3d_left_early", ttff="4-8s", how="hidden", browser="chrome", os="windows", device="desktop")
    add("room_step", game="gin", step="connect", outcome="ok")
    add("room_step", game="gin", step="connect", outcome="failed")
    add("room_step", game="gin", step="take_seat", outcome="ok")
    add("room_created", game="gin", origin="new_link", outcome="ok")
    add("room_session", game="gin", reconnections=3)
    add("room_session", game="gin", reconnections=0)
    add("load_failure", failure="websocket")
    add("load_failure", failure="websocket")
    add("game_start", game="memory", mode="cpu", age=timedelta(days=31))  # outside every range


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_superuser("op", "op@example.com", "pw-long-enough-1")
    client.force_login(user)
    return user


def test_it_renders_every_dashboard_for_staff(client, staff, data):
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    ctx = response.context["data"]
    assert ctx["games"] == [
        {"game": "gin", "mode": "friends", "started": 2, "finished": 0, "rate": 0.0},
        {"game": "memory", "mode": "cpu", "started": 4, "finished": 3, "rate": 75.0}]
    assert ctx["failures"]["browser"] == [
        {"label": "chrome", "failed": 0, "total": 2, "rate": 0.0},
        {"label": "safari", "failed": 1, "total": 2, "rate": 50.0}]
    assert {r["label"]: r["rate"] for r in ctx["failures"]["device"]} == {"desktop": 0.0, "mobile": 50.0}
    assert {r["label"]: r["rate"] for r in ctx["failures"]["os"]} == {"ios": 50.0, "windows": 0.0}
    assert {r["label"]: r["count"] for r in ctx["ttff"]}["1-2s"] == 2
    assert {r["label"]: r["count"] for r in ctx["left_early"]}["4-8s"] == 1
    assert {r["step"]: (r["ok"], r["total"], r["rate"]) for r in ctx["steps"]} == {
        "connect": (1, 2, 50.0), "take_seat": (1, 1, 100.0)}
    assert ctx["created"] == [{"origin": "new_link", "ok": 1, "total": 1, "rate": 100.0}]
    assert ctx["reconnections"] == {"sessions": 2, "total": 3, "with_any": 1, "per_session": 1.5}
    assert ctx["loads"] == [{"failure": "websocket", "count": 2}]
    assert html.count('<svg class="telemetry-chart"') == 7 + 4  # and the four per-day trends
    assert "<rect" in html and ">50%<" in html
    for heading in ("Games started and finished", "3D table failures", "first 3D frame",
                    "Friends&#x27; rooms", "Load failures"):
        assert heading in html
    assert "Reconnections: 3 in 2 room visits" in html


def test_it_filters_by_day_range_and_game(client, staff, data):
    ctx = client.get(URL, {"days": 7, "game": "gin"}).context["data"]
    assert ctx["games"] == [{"game": "gin", "mode": "friends", "started": 1, "finished": 0, "rate": 0.0}]
    assert ctx["loads"] == []  # load failures without a game are not gin's
    assert client.get(URL, {"days": 30, "game": "gin"}).context["data"]["games"][0]["started"] == 2


def test_it_answers_400_to_bad_filters(client, staff, data):
    for query in ({"days": "365"}, {"days": "x"}, {"game": "chess"}):
        response = client.get(URL, query)
        assert response.status_code == 400
        assert 'role="alert"' in response.content.decode()


def test_it_refuses_everybody_but_staff(client, data):
    response = client.get(URL)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    player = get_user_model().objects.create_user("ada", password="pw-long-enough-1")
    client.force_login(player)
    response = client.get(URL)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    player.is_staff = True
    player.save()
    assert client.get(URL).status_code == 403  # staff, but not allowed to view statistics


def test_nobody_edits_statistics(client, staff, data):
    event = Event.objects.first()
    assert client.get(URL + "add/").status_code == 403
    assert client.post(URL + f"{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Event.objects.filter(pk=event.pk).exists()


def at_day(days_ago: int) -> datetime:
    """The first hour of the UTC day ``days_ago`` days before today (never in the future)."""
    return datetime.combine(timezone.now().date() - timedelta(days=days_ago), time(0), tzinfo=UTC)


def test_it_draws_a_series_per_day_over_the_range(client, staff):
    for kind, days_ago, fields in [
            ("game_start", 0, {"game": "memory"}), ("game_start", 0, {"game": "gin"}),
            ("game_end", 0, {"game": "memory"}), ("room_session", 0, {"game": "gin", "reconnections": 2}),
            ("view3d_failed", 3, {"reason": "unsupported"}), ("load_failure", 3, {"failure": "websocket"}),
            ("load_failure", 3, {"failure": "module"}), ("room_session", 3, {"game": "gin", "reconnections": 1}),
            ("room_session", 3, {"game": "gin", "reconnections": 4}),
            ("room_session", 3, {"game": "gin", "reconnections": 0}),
            ("game_start", 6, {"game": "gin"}), ("game_end", 6, {"game": "gin"}),
            ("game_start", 10, {"game": "gin"})]:  # outside 7 days
        Event.objects.create(received_at=at_day(days_ago), type=kind, **fields)
    today = timezone.now().date()

    response = client.get(URL, {"days": 7})
    daily = response.context["data"]["daily"]
    assert [row["day"] for row in daily] == [today - timedelta(days=n) for n in range(7, -1, -1)]
    by_day = {(today - row["day"]).days: {k: v for k, v in row.items() if k != "day"} for row in daily}
    zero = {"started": 0, "finished": 0, "view3d_failed": 0, "load_failures": 0, "reconnections": 0}
    assert by_day == {n: zero for n in (1, 2, 4, 5, 7)} | {
        0: {**zero, "started": 2, "finished": 1, "reconnections": 2},
        3: {**zero, "view3d_failed": 1, "load_failures": 2, "reconnections": 5},
        6: {**zero, "started": 1, "finished": 1}}
    html = response.content.decode()
    assert f"<title>{today.isoformat()} started: 2</title>" in html
    assert f"<title>{(today - timedelta(days=3)).isoformat()} load failures: 2</title>" in html
    assert f"<td>{today.isoformat()}</td><td>2</td><td>1</td><td>0</td><td>0</td><td>2</td>" in html

    gin_daily = client.get(URL, {"days": 7, "game": "gin"}).context["data"]["daily"]
    gin = {(today - row["day"]).days: row for row in gin_daily}
    assert (gin[0]["started"], gin[0]["finished"], gin[3]["load_failures"]) == (1, 0, 0)
    assert len(client.get(URL, {"days": 1}).context["data"]["daily"]) == 2  # yesterday in part, and today
