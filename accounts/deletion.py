"""Deleting an account leaves no trace of it: no table keeps its id, name or e-mail address.

``delete_account`` is the one way the site deletes an account; ``forget`` runs for every
deleted user, however deleted (the site, the admin, the shell), inside the deletion's own
transaction (receivers.py hooks it to pre_delete). README.md states the guarantees;
tests/accounts/test_accounts_delete.py reads every table to hold them.
"""
from __future__ import annotations

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import JSONField, Q, TextField
from django.db.models.functions import Cast

from games.models import FinishedGame
from games.rooms import service as rooms

# Stands in for the account's name in the admin's log of what the operators did.
DELETED_ACCOUNT = "deleted account"
# Where the rooms write an account's id into their JSON (games/rooms/service.py, games/signals.py).
USER_KEYS = ("user", "user_id")


def delete_account(user) -> None:
    """Deletes the account and everything tied to it in one transaction. The cascade takes the
    profile, the game records and every session (accounts/sessions.py): signed out everywhere."""
    with transaction.atomic():
        user.delete()


def forget(user) -> None:
    """What the cascade cannot reach: the account's id inside JSON, its name in the admin log."""
    for room_id in rooms.rooms_of_user(user.pk):
        try:
            # The rooms' own version-checked write: the game goes on, the seat now anonymous.
            rooms.forget_user(room_id, user.pk)
        except rooms.RoomError as exc:
            if exc.code != "room_not_found":  # deleted meanwhile: nothing left to forget
                raise
    _forget_in_finished_games(user.pk)
    LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(user),
                            object_id=str(user.pk)).update(object_id=None,
                                                           object_repr=DELETED_ACCOUNT)


def _forget_in_finished_games(user_id: int) -> None:
    """A finished game's seats may name their accounts (games/signals.py's record): those naming
    this one name nobody from now on. Written against the rows' data, whatever the columns."""
    columns = [f.name for f in FinishedGame._meta.concrete_fields if isinstance(f, JSONField)]
    if not columns:
        return
    # The JSON's text narrows the search on every database (SQLite has no JSON containment).
    texts = {f"{column}_text": Cast(column, TextField()) for column in columns}
    named = Q()
    for text in texts:
        for key in USER_KEYS:
            named |= Q(**{f"{text}__contains": f'"{key}": {user_id}'})
    for game in FinishedGame.objects.annotate(**texts).filter(named).only("pk", *columns):
        changed = {}
        for column in columns:
            value = getattr(game, column)
            scrubbed = without_user(value, user_id)
            if scrubbed != value:
                changed[column] = scrubbed
        if changed:
            FinishedGame.objects.filter(pk=game.pk).update(**changed)


def without_user(value, user_id: int):
    """``value`` with every ``user``/``user_id`` that is ``user_id`` set to None, at any depth."""
    if isinstance(value, dict):
        return {k: None if k in USER_KEYS and v == user_id and not isinstance(v, bool)
                else without_user(v, user_id) for k, v in value.items()}
    if isinstance(value, list):
        return [without_user(v, user_id) for v in value]
    return value
