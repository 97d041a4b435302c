import logging

from celery import shared_task
from django.utils import timezone, translation

from .forms import RESET_EMAIL_TEMPLATE, RESET_SUBJECT_TEMPLATE, PasswordResetMailForm
from .sessions import Session

logger = logging.getLogger("accounts.tasks")


@shared_task(name="accounts.clear_expired_sessions", ignore_result=True)
def clear_expired_sessions() -> int:
    """What `manage.py clearsessions` does for the site's session engine (accounts/sessions.py),
    counted: Django deletes an expired session only when its own browser comes back, so without
    this the table keeps a row for every visit. Celery beat runs it daily (config/settings.py),
    server/embedded_beat.py where there is no beat."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    logger.info("%d expired sessions deleted", deleted)
    return deleted


@shared_task(name="accounts.send_password_reset", ignore_result=True)
def send_password_reset(email: str, domain: str, use_https: bool, language: str) -> None:
    """The reset page's mail, sent here rather than while its request waits (so a known address
    and an unknown one are answered alike): a link to every active account with a usable
    password at ``email`` (none for an unknown address), for the site at ``domain``, in each
    player's language, else ``language`` (the page's)."""
    form = PasswordResetMailForm({"email": email})
    if form.is_valid():
        with translation.override(language):
            form.save(domain_override=domain, use_https=use_https,
                      subject_template_name=RESET_SUBJECT_TEMPLATE, email_template_name=RESET_EMAIL_TEMPLATE)
