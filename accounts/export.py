"""Download my data: every row tied to the account, as JSON.

Each table that can hold a row tied to an account has its part here (tests/accounts/
test_accounts_delete.py lists them and fails when a new one appears). Only what is the
player's own: never another seat's token, a room's secret state or id, or a session key.
"""
from __future__ import annotations

from django.contrib.admin.models import ADDITION, CHANGE, DELETION, LogEntry
from django.utils import timezone

from games.engines.base import GameError
from games.rooms import service as rooms

from .models import Profile


def export_data(user) -> dict:
    now = timezone.now()
    return {
        "exported_at": now.isoformat(),
        "account": _account(user),
        "game_records": [record.to_json() for record in
                         user.game_records.select_related("share")
                         .order_by("finished_at", "id").iterator(chunk_size=500)],
        "rooms": _rooms(user),
        "sessions": _sessions(user, now),
        "admin_actions": _admin_actions(user),
    }


def _account(user) -> dict:
    profile = Profile.of(user)
    return {
        "username": user.get_username(),
        "email": user.email,
        # Empty for the site's sign-up, but an operator may fill them in the admin.
        "first_name": user.first_name,
        "last_name": user.last_name,
        "active": user.is_active,
        "date_joined": user.date_joined.isoformat(),
        "last_login": user.last_login.isoformat() if user.last_login else None,
        "telemetry_enabled": profile.telemetry_enabled,
        "public_profile": profile.public_profile,
        "language": profile.language or None,
        "staff": user.is_staff,
        "superuser": user.is_superuser,
        "groups": sorted(user.groups.values_list("name", flat=True)),
        "permissions": sorted(f"{app}.{codename}" for app, codename in user.user_permissions
                              .values_list("content_type__app_label", "codename")),
    }


def _rooms(user) -> list[dict]:
    """The rooms with a seat bound to the account: the seats it holds, nothing about the others."""
    found = []
    for room_id in rooms.rooms_of_user(user.pk):
        try:
            room = rooms.load(room_id)
        except GameError:
            continue  # deleted since it was found
        seats = [i for i, seat in enumerate(room.seats) if seat["user"] == user.pk]
        if seats:
            found.append({"game": room.game, "mode": room.mode, "status": room.status,
                          "players": len(room.seats), "seats": seats,
                          "created_at": room.created_at.isoformat(),
                          "updated_at": room.updated_at.isoformat()})
    return sorted(found, key=lambda room: room["created_at"])


def _sessions(user, now) -> dict:
    """The browsers signed in: how many and until when, never a session key."""
    expiries = sorted(user.sessions.filter(expire_date__gt=now).values_list("expire_date", flat=True))
    return {"active": len(expiries), "expire_at": [expiry.isoformat() for expiry in expiries]}


def _admin_actions(user) -> list[dict]:
    """An operator's own actions in the admin: when, what kind, on which table (the objects they
    touched may be other people's, so not those)."""
    actions = {ADDITION: "addition", CHANGE: "change", DELETION: "deletion"}
    return [{"at": at.isoformat(), "action": actions.get(flag, str(flag)),
             "table": f"{app}.{model}" if app else None}
            for at, flag, app, model in LogEntry.objects.filter(user=user).order_by("action_time")
            .values_list("action_time", "action_flag", "content_type__app_label",
                         "content_type__model")]
