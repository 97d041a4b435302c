from django.apps import AppConfig
from django.conf import settings

from . import errors


class TelemetryConfig(AppConfig):
    name = "telemetry"

    def ready(self):
        # Every process (web, Celery, manage.py) reports its errors when SENTRY_DSN is set.
        if settings.SENTRY_DSN:
            errors.start(settings.SENTRY_DSN)
