from django.conf import settings


def pytest_report_header(config):
    db = settings.DATABASES["default"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    if settings.TEST_BACKEND == "services":
        where = f"PostgreSQL {db['HOST']}:{db['PORT']}/{db['NAME']} + Redis {settings.REDIS_URL}"
    else:
        where = "embedded default: SQLite + in-memory channel layer"
    return [f"test backend: {settings.TEST_BACKEND} ({where}); channel layer {layer}; "
            f"celery {'eager (in-process)' if settings.CELERY_TASK_ALWAYS_EAGER else settings.CELERY_BROKER_URL}"]

