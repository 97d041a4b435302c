"""Time to render /accounts/me/ for a player with many finished games, and its SQL queries.

    .venv/bin/python bench/stats_bench.py [--records 10000] [--runs 20] [--verbose] [--database-url URL]

Runs against the local PostgreSQL by default (postgres://postgres@127.0.0.1:5432/test) but in a
database of its own (``cardtable_stats_bench``, created and dropped here), so it never touches
the test suite's or a developer's data. It creates one player with ``--records`` game records
spread over games, modes, CPU levels and two years, then renders the page ``--runs`` times
(after one warm-up) through Django's test client, as a signed-in browser would get it, and
prints the median and slowest render times and the number of SQL queries per render (the same
for page 1 and a later page). A benchmark, not a test: it prints figures and asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BENCH_DB = "cardtable_stats_bench"
GAMES = [("memory", "cpu", "hard"), ("memory", "cpu", "easy"), ("memory", "solo", ""),
         ("memory", "friends", ""), ("bozu", "cpu", "medium"), ("bozu", "local", ""),
         ("gin", "cpu", "normal"), ("gin", "cpu", "hard"), ("gin", "friends", "")]


def make_records(user, count: int) -> None:
    from accounts.models import GameRecord

    start = datetime(2025, 1, 1, tzinfo=UTC)
    rows = []
    for i in range(count):
        game, mode, level = GAMES[i % len(GAMES)]
        solo = mode == "solo"
        finished = start + timedelta(minutes=97 * i)
        rows.append(GameRecord(
            user=user, game=game, mode=mode, cpu_level=level,
            options={"players": 1 if solo else 2, "cards": (24, 40, 52)[i % 3]} if game == "memory"
            else {"players": 2},
            seat=0, players=1 if solo else 2, result=("win", "loss", "draw", "win", "loss")[i % 5],
            rank=1, score=i % 27, failed_flips=(i * 7) % 31 if solo else None, moves=20 + i % 60,
            duration_seconds=60.0 + i % 500, started_at=finished - timedelta(seconds=300),
            finished_at=finished))
    GameRecord.objects.bulk_create(rows, batch_size=2000)


def measure(client, url: str, runs: int) -> tuple[list[float], list[float], list]:
    """Render times (ms), time spent in SQL per render (ms), and the last render's queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm-up: templates compiled, connection open
    times, sql_times = [], []
    for _ in range(runs):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        sql_times.append(sum(float(q["time"]) for q in queries.captured_queries) * 1000)
    return times, sql_times, queries.captured_queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--verbose", action="store_true", help="print each query and its time")
    parser.add_argument("--database-url", default=os.environ.get(
        "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = args.database_url
    os.environ.pop("REDIS_URL", None)  # the page does not use Redis; keep the bench self-contained
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = BENCH_DB
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    original_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        user = User.objects.create_user("bench", password="bench-password-1")
        started = time.perf_counter()
        make_records(user, args.records)
        print(f"database: {connection.vendor} {connection.settings_dict['NAME']}; "
              f"{args.records} records created in {time.perf_counter() - started:.1f} s")
        client = Client()
        client.force_login(user)
        # Right after the bulk insert PostgreSQL has statistics (ANALYZE) but no visibility map,
        # so it cannot read the stats index alone; autovacuum sets that map soon after inserts
        # (autovacuum_vacuum_insert_threshold), which is how a real player's table stands.
        stages = [("fresh table, ANALYZE only", "ANALYZE"),
                  ("after VACUUM ANALYZE (as autovacuum leaves it)", "VACUUM ANALYZE")]
        for stage, command in stages if connection.vendor == "postgresql" else [("", None)]:
            if command:
                with connection.cursor() as cursor:
                    cursor.execute(command)
                print(stage + ":")
            for url in ("/accounts/me/", "/accounts/me/?page=250"):
                times, sql_times, queries = measure(client, url, args.runs)
                print(f"  {url}: median {statistics.median(times):.1f} ms (of which SQL "
                      f"{statistics.median(sql_times):.1f} ms), slowest {max(times):.1f} ms over "
                      f"{args.runs} renders; {len(queries)} SQL queries per render")
                if args.verbose:
                    for query in queries:
                        print(f"    {float(query['time']) * 1000:6.1f} ms  {query['sql'][:100]}")
    finally:
        connection.creation.destroy_test_db(original_name, verbosity=0)


if __name__ == "__main__":
    main()
