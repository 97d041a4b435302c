"""Issue 14, finding 1: anonymous statistics must not be joinable to rooms, game records or
users. Two signed-in players each finish a game (through the rooms service) and their pages send
the statistics a page sends; then the audit's joins run against the database, on time, game,
mode, settings, moves and duration, on key and storage order, and on the page id. None may tie
a statistics row to exactly one room, one game record or one user (docs/telemetry.md,
"Unlinkable")."""
import importlib
import json
from datetime import timedelta

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Max
from django.test import Client

from config.celery import app as celery_app
from games.models import Room
from games.rooms import creation, service
from server import hourly_buffer
from telemetry.models import Event
from telemetry.schema import BUCKETS
from tests.telemetry.helpers import CONTEXT, new_page

pytestmark = pytest.mark.django_db(transaction=True)

# (before, after) a row's received_at: the audit's "a game_end arrives within seconds of the
# room's updated_at", and the hour a stored time now stands for, on either side.
WINDOWS = ((timedelta(seconds=10), timedelta(0)), (timedelta(hours=1), timedelta(hours=1)))


def play_bozu_on_one_device(user, options=None) -> str:
    """A whole game of Bozu Mekuri (for two, unless ``options`` say otherwise) on one device, by a
    signed-in player; the page then closes (its connection ends). Returns the room id."""
    room, token = creation.create_room("bozu", "local", options or {"players": 2})
    held = service.hello(room.id, token, user.pk).reply["seats"]
    while service.load(room.id).status != "finished":
        service.act(room.id, held, {"type": "flip"})
    service.disconnect(room.id, held)
    return room.id


def send_page_statistics(client: Client, room_id: str) -> str:
    """What the room page of a finished game sends (site/js/room/stats.js); returns its page id."""
    room = service.load(room_id)
    page = new_page()
    game = {"game": "bozu", "mode": "local", "settings": room.options}
    events = [{"type": "page_view"}, {"type": "game_start", **game},
              # move_count as a number: how pages older than its buckets send it.
              {"type": "game_end", **game, "result": "none", "move_count": room.state["moves"],
               "duration": "<1m"}]
    response = client.post("/telemetry/events", {"events": [{**e, "page": page, **CONTEXT} for e in events]},
                           content_type="application/json")
    assert response.json() == {"stored": 3}
    return page


def run_the_hourly_beat_tasks(now=None):
    """What runs every hour: the server process's flush of the statistics and finished games it
    holds (server/hourly_buffer.py), and Celery beat's hourly tasks (config/settings.py
    CELERY_BEAT_SCHEDULE); each app's tasks are in its tasks module, which the worker finds by
    autodiscovery. ``now``: as if run at that moment."""
    hourly_buffer.flush(now)
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        schedule = entry["schedule"]
        if isinstance(schedule, crontab) and len(schedule.hour) == 24:
            importlib.import_module(entry["task"].split(".")[0] + ".tasks")
            kwargs = {"now": now.isoformat()} if now else {}
            celery_app.tasks[entry["task"]].apply(kwargs=kwargs).get()


def query(sql: str, params=()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def as_json(value):
    return json.loads(value) if isinstance(value, str) else value


@pytest.fixture
def played():
    users, pages, rooms = [], [], []
    for name in ("ada", "grace", "hedy"):
        user = get_user_model().objects.create_user(name, password="pw-long-enough-1")
        client = Client()
        client.force_login(user)
        room_id = play_bozu_on_one_device(user)
        pages.append(send_page_statistics(client, room_id))
        users.append(user)
        rooms.append(room_id)
    run_the_hourly_beat_tasks()
    return users, pages, rooms


def game_ends() -> list[tuple]:
    return query("SELECT received_at, game, mode, settings, move_count, duration FROM telemetry_event "
                 "WHERE type = 'game_end'")


def matches_moves(stored, moves: int) -> bool:
    """A stored move_count (a number before the fix, a bucket label after) against a count."""
    if isinstance(stored, int) or str(stored).isdigit():
        return int(stored) == moves
    return stored == BUCKETS["move_count"].label(moves)


def test_no_statistics_row_joins_on_time_game_mode_and_settings_to_one_room(played):
    rows = game_ends()
    assert len(rows) == 3
    for received_at, game, mode, stored_settings, _, _ in rows:
        for before, after in WINDOWS:
            rooms = [room_id for room_id, options in query(
                "SELECT id, options FROM games_room WHERE game = %s AND mode = %s "
                "AND updated_at BETWEEN %s AND %s", (game, mode, received_at - before, received_at + after))
                if as_json(options) == as_json(stored_settings)]
            assert len(rooms) != 1, f"a statistics row received at {received_at} names room {rooms}"


def test_no_statistics_row_joins_to_one_game_record_or_user(played):
    for received_at, game, mode, stored_settings, move_count, duration in game_ends():
        for before, after in WINDOWS:
            records = query(
                "SELECT r.user_id, r.options, r.moves, r.duration_seconds FROM accounts_gamerecord r "
                "WHERE r.game = %s AND r.mode = %s AND r.finished_at BETWEEN %s AND %s",
                (game, mode, received_at - before, received_at + after))
            tied = {user_id for user_id, options, moves, seconds in records
                    if as_json(options) == as_json(stored_settings) and matches_moves(move_count, moves)
                    and BUCKETS["duration"].label(seconds) == duration}
            assert len(tied) != 1, f"a statistics row received at {received_at} names user {tied}"


def test_no_stored_value_holds_the_page_id_that_tied_a_visit_together(played):
    users, pages, _ = played
    columns = [f.column for f in Event._meta.concrete_fields]
    assert "page" not in columns
    for row in query(f"SELECT {', '.join(columns)} FROM telemetry_event"):
        text = " ".join(map(str, row))
        assert not any(page in text or page.replace("-", "") in text for page in pages)


def test_no_stored_time_or_key_is_finer_than_an_hour(played):
    times = [t for (t,) in query("SELECT received_at FROM telemetry_event")]
    assert len(times) == 9
    assert all((t.minute, t.second, t.microsecond) == (0, 0, 0) for t in times), times
    kinds = {f.name: f.get_internal_type() for f in Event._meta.concrete_fields}
    assert kinds["id"] == "UUIDField", "sequential keys count arrivals"
    assert [name for name, kind in kinds.items() if kind in ("DateTimeField", "TimeField", "DateField")
            ] == ["received_at"]


def test_neither_key_order_nor_storage_order_follows_arrival(played, client):
    # 30 events told apart by their values, sent one request after another.
    for n in range(30):
        client.post("/telemetry/events", {"events": [{"type": "room_session", "game": "gin",
                                                     "reconnections": n, "page": new_page()}]},
                    content_type="application/json")
    run_the_hourly_beat_tasks()
    physical = "ctid" if connection.vendor == "postgresql" else "rowid"
    for order in ("id", physical):
        stored = [n for (n,) in query("SELECT reconnections FROM telemetry_event "
                                      f"WHERE type = 'room_session' ORDER BY {order}")]
        assert sorted(stored) == list(range(30))
        assert stored != list(range(30)), f"rows in {order} order are in arrival order"


def test_a_day_later_the_rooms_are_gone_and_only_the_players_own_records_remain(played):
    users, _, rooms = played
    last_change = Room.objects.aggregate(last=Max("updated_at"))["last"]
    run_the_hourly_beat_tasks(now=last_change + timedelta(hours=25))
    assert query("SELECT count(*) FROM games_room") == [(0,)]
    assert query("SELECT count(*) FROM games_roomevent") == [(0,)]
    # The link of each finished game to its player: in that player's own record, and nowhere else.
    owners = sorted(user_id for (user_id,) in query("SELECT user_id FROM accounts_gamerecord"))
    assert owners == sorted(user.pk for user in users)
    for (seats,) in query("SELECT seats FROM games_finishedgame"):
        assert all(set(seat) <= {"seat", "holder", "result", "rank", "resigned"} for seat in as_json(seats))
    # Nor by their exact figures: the operators' copy keeps moves and duration as ranges only.
    for (moves, duration) in query("SELECT moves, duration FROM games_finishedgame"):
        assert moves in BUCKETS["move_count"].labels and duration in BUCKETS["duration"].labels
