"""The reset-mail throttle keys its counts with a digest keyed by the deployment's secret."""
import hashlib

from django.core import mail
from django.core.cache import cache

from accounts import throttle

EMAIL = "alice@example.com"


def test_the_reset_throttle_key_is_a_keyed_digest_not_a_plain_hash(client, alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    plain = hashlib.sha256(EMAIL.encode()).hexdigest()
    throttle.RESET_MAIL.clear(EMAIL)
    cache.delete(f"accounts:reset-mails:{plain}")  # as an older version would have left it
    client.post("/accounts/password/reset/", {"email": EMAIL})
    assert len(mail.outbox) == 1
    key = throttle.RESET_MAIL._key(EMAIL)
    assert cache.get(key) == 1
    assert plain not in key and EMAIL not in key
    assert cache.get(f"accounts:reset-mails:{plain}") is None
    # The digest depends on the deployment's secret: another SECRET_KEY, another key.
    settings.SECRET_KEY = "another deployment's secret, 32+ characters long"
    assert throttle.RESET_MAIL._key(EMAIL) != key
    throttle.RESET_MAIL.clear(EMAIL)
