import logging

from celery import shared_task
from django.utils import timezone

from .sessions import Session

logger = logging.getLogger("accounts.tasks")


@shared_task(name="accounts.clear_expired_sessions", ignore_result=True)
def clear_expired_sessions() -> int:
    """What `manage.py clearsessions` does for the site's session engine (accounts/sessions.py),
    counted: Django deletes an expired session only when its own browser comes back, so without
    this the table keeps a row for every visit. Celery beat runs it daily (config/settings.py),
    config/embedded_beat.py where there is no beat."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    logger.info("%d expired sessions deleted", deleted)
    return deleted
