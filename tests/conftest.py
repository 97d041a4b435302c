import pytest
from django.conf import settings
from django.utils import translation

from games.rooms import db as rooms_db
from games.rooms import loop_db
from server import hourly_buffer
from telemetry import ingest


def pytest_report_header(config):
    db = settings.DATABASES["default"]
    if settings.TEST_BACKEND == "services":
        where = f"PostgreSQL {db['HOST']}:{db['PORT']}/{db['NAME']} + Redis {settings.REDIS_URL}"
    else:
        where = "embedded default: SQLite, no Redis"
    return [f"test backend: {settings.TEST_BACKEND} ({where}); "
            f"celery {'eager (in-process)' if settings.CELERY_TASK_ALWAYS_EAGER else settings.CELERY_BROKER_URL}"]



@pytest.fixture(autouse=True)
def default_language():
    """A request served in this thread leaves its language active (LocaleMiddleware activates
    it and nothing deactivates it): each test starts in the site's default language, as a new
    thread would, whatever test ran before it in this worker."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def empty_hourly_buffers():
    """Statistics and finished games wait for the hourly flush in this process's memory
    (server/hourly_buffer.py): a test's are not the next one's."""
    hourly_buffer.discard()


@pytest.fixture(autouse=True)
def close_kept_connections():
    """Requests served in this process (the rooms API, /healthz, telemetry ingestion) use
    server/db_threads.py's threads, each of which keeps its own connection: they are closed
    after every test that started those threads, so that the test database can be flushed and
    dropped."""
    yield
    rooms_db.threads.close_connections()
    ingest.threads.close_connections()
    loop_db.close_all()
