"""server/db_threads.py: the rooms' and telemetry's database threads keep their connection
between calls, a connection that reported an error is replaced before the next call, and each
call made from the event loop gets its own answer or error."""
import asyncio

import pytest
from django.conf import settings
from django.db import DatabaseError, connection

from server.db_threads import KeptConnections


def _connection():
    # The driver's connection object itself (not its id, which a new object could reuse).
    connection.ensure_connection()
    return connection.connection


def _broken_query() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM no_such_table")


@pytest.fixture
def pool(monkeypatch):
    # Kept for a minute, as production's PostgreSQL URL does (the embedded SQLite keeps none).
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    threads = KeptConnections("test-db", lambda: 1)
    yield threads
    threads.close_connections()


@pytest.mark.django_db(transaction=True)
def test_it_keeps_a_connection_between_calls(pool):
    # Connecting anew per call is what the threads exist to avoid.
    assert pool.run(_connection) is pool.run(_connection)


@pytest.mark.services
@pytest.mark.skipif(settings.TEST_BACKEND != "services",
                    reason="the embedded run's in-memory SQLite database is never closed (Django keeps it)")
@pytest.mark.django_db(transaction=True)
def test_it_reconnects_after_an_error(pool):
    # A connection that failed may be broken (a restarted server): the next call must not reuse it.
    before = pool.run(_connection)
    with pytest.raises(DatabaseError):
        pool.run(_broken_query)
    assert pool.run(_connection) is not before


@pytest.mark.django_db(transaction=True)
async def test_it_runs_calls_from_the_event_loop(pool):
    assert await pool.call(_connection) is await pool.call(_connection)


@pytest.mark.django_db(transaction=True)
async def test_it_hands_each_of_a_burst_of_calls_its_own_answer(pool):
    # Calls come in bursts (every connection of a busy process): each awaits its own result.
    answers = await asyncio.gather(*(pool.call(lambda n=n: n * n) for n in range(200)))
    assert answers == [n * n for n in range(200)]


@pytest.mark.django_db(transaction=True)
async def test_it_raises_a_calls_error_in_the_event_loop(pool):
    with pytest.raises(DatabaseError):
        await pool.call(_broken_query)
    assert await pool.call(lambda: "still serving") == "still serving"
