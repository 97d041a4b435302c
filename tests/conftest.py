import threading

import pytest
from django.conf import settings
from django.db import connections

from games.rooms import db as rooms_db


def pytest_report_header(config):
    db = settings.DATABASES["default"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    if settings.TEST_BACKEND == "services":
        where = f"PostgreSQL {db['HOST']}:{db['PORT']}/{db['NAME']} + Redis {settings.REDIS_URL}"
    else:
        where = "embedded default: SQLite + in-memory channel layer"
    return [f"test backend: {settings.TEST_BACKEND} ({where}); channel layer {layer}; "
            f"celery {'eager (in-process)' if settings.CELERY_TASK_ALWAYS_EAGER else settings.CELERY_BROKER_URL}"]



@pytest.fixture(autouse=True)
def close_rooms_db_connections():
    """Requests served in this process (the rooms API, /healthz) use games/rooms/db.py's
    threads, each of which keeps its own connection: they are closed after every test that
    started those threads, so that the test database can be flushed and dropped."""
    yield
    if rooms_db._executor is None:
        return
    count = rooms_db.thread_count()
    barrier = threading.Barrier(count)  # one task per thread: each waits until all have started

    def close():
        barrier.wait(timeout=10)
        connections.close_all()
    for future in [rooms_db._executor_for_process().submit(close) for _ in range(count)]:
        future.result(timeout=20)
