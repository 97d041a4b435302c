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



@pytest.fixture
def close_rooms_db_connections():
    """For tests whose requests run on games/rooms/db.py's threads (the rooms API, /healthz):
    each thread keeps its own connection; they are closed after the test so that the test
    database can be flushed and dropped."""
    yield
    count = rooms_db.thread_count()
    barrier = threading.Barrier(count)  # one task per thread: each waits until all have started

    def close():
        barrier.wait(timeout=10)
        connections.close_all()
    for future in [rooms_db._executor_for_process().submit(close) for _ in range(count)]:
        future.result(timeout=20)
