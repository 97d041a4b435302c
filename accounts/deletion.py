"""Deleting an account leaves no trace of it: no table keeps its id, name or e-mail address.

``delete_account`` is the one way the site deletes an account; ``forget`` runs for every
deleted user, however deleted (the site, the admin, the shell), inside the deletion's own
transaction (receivers.py hooks it to pre_delete). docs/production.md states the guarantees;
tests/accounts/test_accounts_delete.py reads every table to hold them.
"""
from __future__ import annotations

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.rooms import service as rooms

# Stands in for the account's name in the admin's log of what the operators did.
DELETED_ACCOUNT = "deleted account"


def delete_account(user) -> None:
    """Deletes the account and everything tied to it in one transaction. The cascade takes the
    profile, the game records and every session (accounts/sessions.py): signed out everywhere."""
    with transaction.atomic():
        user.delete()


def forget(user) -> None:
    """What the cascade cannot reach: the account's id in the seats of rooms (JSON), its name in
    the admin log. Finished games kept for operators never name anybody (games.FinishedGame)."""
    for room_id in rooms.rooms_of_user(user.pk):
        try:
            # The rooms' own version-checked write: the game goes on, the seat now anonymous.
            rooms.forget_user(room_id, user.pk)
        except GameError as exc:
            if exc.code != ErrorCode.ROOM_NOT_FOUND:  # deleted meanwhile: nothing left to forget
                raise
    LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(user),
                            object_id=str(user.pk)).update(object_id=None,
                                                           object_repr=DELETED_ACCOUNT)
