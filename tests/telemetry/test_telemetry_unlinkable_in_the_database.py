"""Issue 35, findings 4 and 5: the database itself must not tie a statistics row or an
operators' finished-game row to a user, a room or a game record, by what it keeps beside the
values: PostgreSQL's transaction id of each row (``xmin``), where a row lies (``ctid``, and a
dump's order with it; SQLite's ``rowid``) and key order. Signed-in players finish games through
the rooms service and their pages send the statistics a page sends; the auditor's joins run
while the hour goes on and after the hourly flush (docs/telemetry.md, "Unlinkable")."""
import importlib
from itertools import combinations, product

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from server import embedded_beat
from tests.telemetry.test_telemetry_unlinkable import as_json, play_bozu_on_one_device, query, send_page_statistics

pytestmark = pytest.mark.django_db(transaction=True)

# The tables that have held statistics or finished games (the buffer table is gone since issue 35).
HELD = ("telemetry_pendingevent", "telemetry_event", "games_finishedgame")
SAME_OPTIONS = {"players": 2}
# Games told apart by their options (for the test, not the auditor): the order joins below.
DISTINCT_OPTIONS = [{"players": p, "semimaru": s, "emperor": e, "lady_empty_again": False}
                    for p, s, e in product((2, 3), ("monk", "skip", "others_to_centre"), ("noble", "again"))][:10]


def run_the_hourly_flush():
    """The work that runs every hour in a server process (server/embedded_beat.py's jobs)."""
    for job in embedded_beat.jobs():
        module, name = job.task.rsplit(".", 1)
        getattr(importlib.import_module(module), name)()


def tables_holding_rows() -> list[str]:
    present = set(connection.introspection.table_names())
    return [table for table in HELD if table in present]


def finish_games_and_send_statistics(options: list[dict]) -> list[int]:
    """One signed-in player per game, one after the other; returns their ids in finish order."""
    users = []
    for n, game_options in enumerate(options):
        user = get_user_model().objects.create_user(f"player{n}", password="pw-long-enough-1")
        client = Client()
        client.force_login(user)
        send_page_statistics(client, play_bozu_on_one_device(user, game_options))
        users.append(user.pk)
    return users


def assert_none(when: str, ties: list[str]):
    assert not ties, f"{when}, the auditor ties rows:\n" + "\n".join(ties)


def game_rows(table: str, column: str) -> str:
    """The auditor's rows of one game each: a statistics ``game_end`` or a finished game;
    ``column`` "options" is the game's options, named ``settings`` in the statistics."""
    if table == "games_finishedgame":
        return f"SELECT {column} FROM games_finishedgame"
    return f"SELECT {column.replace('options', 'settings')} FROM {table} WHERE type = 'game_end'"


XMIN = "xmin::text::bigint"  # PostgreSQL's xid has no order of its own; its number has


# --------------------------------------------------------------------------------------------
# By transaction id (PostgreSQL).

def the_xmin_join(users: list[int]) -> list[str]:
    """What the auditor of issue 35 did, against every table that holds statistics or finished
    games; returns how each row it could tie was tied (empty: none)."""
    ties = []
    for table in tables_holding_rows():
        rows = query(f"SELECT {XMIN}, count(*) OVER (PARTITION BY {XMIN}) FROM {table}")
        for xmin, sharing in set(rows):
            # The transaction that wrote the row also wrote a room's event, a record, a user's row.
            for other, column in (("games_roomevent", "room_id"), ("accounts_gamerecord", "user_id")):
                named = query(f"SELECT DISTINCT {column} FROM {other} WHERE {XMIN} = %s", (xmin,))
                if len(named) == 1:
                    ties.append(f"{table} row of transaction {xmin} was written with {other} {named[0][0]}")
            # Rows written in a transaction of their own, a visit's or a game's, and not the hour's.
            hour = query(f"SELECT count(*) FROM {table}")[0][0]
            if sharing < hour:
                ties.append(f"{table}: {sharing} of {hour} rows share transaction {xmin}, the others another")
        # Each game's row, to the player whose record was written last before it (a page sends
        # its statistics once the game is over) or first after it (the players' records follow
        # the change that finished the game).
        for side, compare, direction in (("before", "<", "DESC"), ("after", ">", "ASC")):
            named = []
            for (xmin,) in query(game_rows(table, XMIN)):
                record = query(f"SELECT user_id FROM accounts_gamerecord WHERE {XMIN} {compare} %s "
                               f"ORDER BY {XMIN} {direction} LIMIT 1", (xmin,))
                named.append(record[0][0] if record else None)
            if len(named) > 1 and len(set(named)) == len(named) and set(named) <= set(users):
                ties.append(f"{table}: each of {len(named)} game rows names another player, "
                            f"by the record written {side} it")
    return ties


@pytest.mark.skipif(connection.vendor != "postgresql", reason="xmin is PostgreSQL's")
def test_no_row_is_tied_by_the_transaction_that_wrote_it():
    users = finish_games_and_send_statistics([SAME_OPTIONS] * 4)
    assert_none("while the hour goes on", the_xmin_join(users))
    run_the_hourly_flush()
    assert query("SELECT count(*) FROM games_finishedgame") == [(4,)]
    assert query("SELECT count(*) FROM telemetry_event WHERE type = 'game_end'") == [(4,)]
    assert_none("after the hourly flush", the_xmin_join(users))
    # The flush wrote the hour's statistics and finished games in one transaction, after every
    # record of the hour, and nothing else in it.
    (flush,) = {xmin for table in ("telemetry_event", "games_finishedgame")
                for (xmin,) in query(f"SELECT DISTINCT {XMIN} FROM {table}")}
    assert query(f"SELECT max({XMIN}) FROM accounts_gamerecord")[0][0] < flush
    for other in ("games_room", "games_roomevent", "accounts_gamerecord", "auth_user", "django_session"):
        assert query(f"SELECT count(*) FROM {other} WHERE {XMIN} = %s", (flush,)) == [(0,)]


# --------------------------------------------------------------------------------------------
# By order: where the rows lie (ctid, a dump; SQLite's rowid) and their keys.

def kendall_tau(order: list[int]) -> float:
    pairs = list(combinations(range(len(order)), 2))
    return sum(1 if order[i] < order[j] else -1 for i, j in pairs) / len(pairs)


def the_order_joins() -> list[str]:
    """Rows in physical and in key order against the order the games ended, which the players'
    records keep (their ids count up): returns each order that follows it (τ above 0.8)."""
    physical = "ctid" if connection.vendor == "postgresql" else "rowid"
    followed = []
    for table in tables_holding_rows():
        for order in (physical, "id"):
            rows = [as_json(options) for (options,) in query(f"{game_rows(table, 'options')} ORDER BY {order}")]
            finished = [DISTINCT_OPTIONS.index(options) for options in rows]
            if len(finished) > 1 and kendall_tau(finished) > 0.8:
                followed.append(f"{table} in {order} order: the games in the order they ended {finished}")
    return followed


def test_neither_where_rows_lie_nor_their_keys_follow_the_order_games_ended():
    finish_games_and_send_statistics(DISTINCT_OPTIONS)
    assert_none("while the hour goes on", the_order_joins())
    run_the_hourly_flush()
    for table in ("telemetry_event", "games_finishedgame"):
        stored = sorted(DISTINCT_OPTIONS.index(as_json(o)) for (o,) in query(game_rows(table, "options")))
        assert stored == list(range(len(DISTINCT_OPTIONS))), table
    assert_none("after the hourly flush", the_order_joins())
