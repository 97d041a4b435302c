"""The session engine (SESSION_ENGINE): Django's database sessions, each row naming the account
signed in with it.

Why: ending every session of a deleted account must not mean decoding every session in the
database (the account id is inside the signed session data). A table of session keys recorded
at sign-in would miss the keys Django changes later (a password change cycles the key); here
every save of a session writes its account, so the account's rows are always one indexed
delete away, and deleting the user deletes them with it (cascade), from the site or the admin.
"""
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


class Session(AbstractBaseSession):
    # No database constraint: a request that was already running when the account was deleted
    # may still create its session (a password change cycles the key), and a refused insert
    # would make Django's create() retry forever. Such a row signs nobody in (the account is
    # gone) and expires like any other.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, db_constraint=False,
                             related_name="sessions")

    class Meta(AbstractBaseSession.Meta):
        db_table = "accounts_session"

    @classmethod
    def get_session_store_class(cls):
        return SessionStore


class SessionStore(DatabaseSessionStore):
    @classmethod
    def get_model_class(cls):
        return Session

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        session.user_id = account_id(data)
        return session


def account_id(data: dict) -> int | None:
    """The account a session's data is signed in to, if any."""
    try:
        return int(data[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None
