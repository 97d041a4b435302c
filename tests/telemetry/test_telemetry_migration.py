"""Rows stored before the statistics became unlinkable are rewritten by the migrations: events
get new random keys, the hour instead of their time, a move range instead of the count, and no
page id (telemetry 0002); finished games lose their players' user ids and exact times (games
0003), then get random keys, move and duration ranges and seats without scores (games 0004)."""
import json
import uuid
from datetime import UTC, datetime

import pytest
from django.db import connection, models
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("telemetry", "0001_events"), ("games", "0002_server_processes")]
AFTER = [("telemetry", "0002_unlinkable_storage"), ("games", "0004_finished_games_in_ranges")]
PAGE = "0b6c5a4e-8f1d-4c3b-9a2e-7d6f5e4c3b2a"


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.fixture
def old_rows():
    migrate(BEFORE)
    with connection.cursor() as cursor:
        for n, (moves, minute) in enumerate([(57, 3), (None, 41), (9, 59), (400, 0)]):
            cursor.execute(
                "INSERT INTO telemetry_event (received_at, type, page, device, memory, cores, net, cache, browser, "
                "os, game, mode, cpu_level, result, move_count, duration, origin, step, outcome, reason, ttff, how, "
                "fps, failure) VALUES (%s, %s, %s, 'desktop', '8+', '3-4', '4g', 'part', 'chrome', 'linux', "
                "'memory', 'cpu', 'hard', 'win', %s, '3-10m', '', '', '', '', '', '', '', '')",
                [datetime(2026, 3, 1, 14, minute, n, 123456, tzinfo=UTC),
                 "game_end" if moves is not None else "page_view",
                 models.UUIDField().get_db_prep_value(uuid.UUID(PAGE), connection), moves])
        seats = [{"seat": 0, "holder": "human", "user_id": 7, "result": "win", "score": 30},
                 {"seat": 1, "holder": "cpu", "user_id": None, "result": "loss", "score": 12}]
        cursor.execute(
            "INSERT INTO games_finishedgame (game, mode, options, cpu_level, moves, duration_seconds, started_at, "
            "finished_at, seats, room_origin, reconnections) VALUES ('bozu', 'cpu', '{}', 'easy', 100, 95.25, "
            "%s, %s, %s, '', 0)",
            [datetime(2026, 3, 1, 13, 58, 1, 5, tzinfo=UTC),
             datetime(2026, 3, 1, 14, 0, 2, 7, tzinfo=UTC), json.dumps(seats)])
    yield
    # Back to the newest schema: the tests after this one share the database (a later migration
    # may add a column they write, as games 0007 does).
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_old_events_are_rewritten_to_the_hour_with_ranges_new_keys_and_no_page(old_rows):
    migrate(AFTER)
    from telemetry.models import Event
    rows = list(Event.objects.values())
    assert len(rows) == 4
    assert {row["received_at"] for row in rows} == {datetime(2026, 3, 1, 14, tzinfo=UTC)}
    assert sorted(row["move_count"] for row in rows) == sorted(["50-99", "", "<10", "400+"])
    assert all(isinstance(row["id"], uuid.UUID) for row in rows)
    assert "page" not in rows[0]
    assert not any(PAGE in str(value) or PAGE.replace("-", "") in str(value) for row in rows for value in row.values())
    assert all((row["device"], row["browser"], row["duration"]) == ("desktop", "chrome", "3-10m") for row in rows)


def test_old_finished_games_lose_their_players_exact_times_counts_and_scores(old_rows):
    migrate(AFTER)
    from games.models import FinishedGame
    game = FinishedGame.objects.get()
    assert isinstance(game.pk, uuid.UUID)
    assert game.seats == [{"seat": 0, "holder": "human", "result": "win"},
                          {"seat": 1, "holder": "cpu", "result": "loss"}]
    assert (game.moves, game.duration) == ("100-199", "1-3m")
    assert (game.started_at, game.finished_at) == (datetime(2026, 3, 1, 13, tzinfo=UTC),
                                                   datetime(2026, 3, 1, 14, tzinfo=UTC))


BUFFERED = [("telemetry", "0002_unlinkable_storage"), ("games", "0012_gin_states_keep_previous_hands")]
HELD_NO_MORE = [("telemetry", "0003_no_buffer_table"), ("games", "0013_finished_games_rewritten_shuffled")]


@pytest.fixture
def rows_written_as_they_came():
    """Issue 35: before it, accepted events waited in a table and finished games were written
    with the change that ended them, in the order they came."""
    migrate(BUFFERED)
    with connection.cursor() as cursor:
        for n in range(12):
            cursor.execute(
                "INSERT INTO telemetry_pendingevent (id, type, device, memory, cores, net, cache, browser, os, "
                "game, mode, cpu_level, result, move_count, duration, origin, step, outcome, reconnections, "
                "reason, ttff, how, fps, failure) VALUES (%s, 'room_session', 'desktop', '8+', '3-4', '4g', "
                "'part', 'chrome', 'linux', 'gin', '', '', '', '', '', '', '', '', %s, '', '', '', '', '')",
                [models.UUIDField().get_db_prep_value(uuid.uuid4(), connection), n])
            cursor.execute(
                "INSERT INTO games_finishedgame (id, game, mode, options, cpu_level, moves, duration, started_at, "
                "finished_at, seats, room_origin, reconnections) VALUES (%s, 'gin', 'cpu', '{}', 'easy', "
                "'50-99', '3-10m', %s, %s, '[]', '', %s)",
                [models.UUIDField().get_db_prep_value(uuid.uuid4(), connection),
                 datetime(2026, 3, 1, 13, tzinfo=UTC), datetime(2026, 3, 1, 14, tzinfo=UTC), n])
    keys = {table: {key for (key,) in query(f"SELECT id FROM {table}")}
            for table in ("telemetry_pendingevent", "games_finishedgame")}
    yield keys
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def query(sql: str) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchall()


def test_rows_written_as_they_came_are_written_again_at_once_shuffled_with_new_keys(rows_written_as_they_came):
    migrate(HELD_NO_MORE)
    assert "telemetry_pendingevent" not in connection.introspection.table_names()
    physical = "ctid" if connection.vendor == "postgresql" else "rowid"
    for table, where in (("telemetry_event", "WHERE type = 'room_session'"), ("games_finishedgame", "")):
        stored = [n for (n,) in query(f"SELECT reconnections FROM {table} {where} ORDER BY {physical}")]
        assert sorted(stored) == list(range(12)), table
        assert stored != list(range(12)), f"{table} in {physical} order is in the order rows came"
        keys = {key for (key,) in query(f"SELECT id FROM {table}")}
        assert not keys & set().union(*rows_written_as_they_came.values()), table
        if connection.vendor == "postgresql":
            assert len(query(f"SELECT DISTINCT xmin::text FROM {table}")) == 1, table
    hours = {hour for (hour,) in query("SELECT received_at FROM telemetry_event")}
    assert len(hours) == 1 and all(str(hour).endswith(("00:00", "00:00+00:00")) for hour in hours), hours
