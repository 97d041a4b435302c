"""The replay page of a finished game (/replays/<record id>/, its owner only) and share links
(/r/<key>/, anyone holding the link; the room pages are /r/<room id>, without the slash), and
the result screen's way in (/replays/room/<room id>/).

The server replays the record (games/replay_steps.py) and sends every step to the page as JSON
data; site/js/replay.js draws them. A share link names nobody unless its owner chose to show
their name; revoking it deletes it, and the link then answers 404 like any unknown key.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import replay_steps
from games.engines.base import GameError
from games.rooms import service as rooms

from .models import GameRecord, ReplayShare


def _owned_record(request, record_id: int) -> GameRecord:
    """The signed-in player's own record with a replay; anyone else's is not found (404, never
    403: a record id says nothing about whether it exists)."""
    record = GameRecord.objects.filter(pk=record_id, user=request.user).select_related("share").first()
    if record is None or not record.replay:
        raise Http404("No such replay.")
    return record


def seat_names(record: GameRecord, owner_name: str | None) -> list[str]:
    """What the page calls each seat: the owner's seat ``owner_name`` (You, their name, or like
    any other seat on a share link that names nobody), the others Player N or CPU N."""
    cpu_seats = {seat for seat, _step in record.replay.get("cpus", [])}
    if record.mode == "cpu":
        cpu_seats |= set(range(record.players)) - {record.seat}
    names = []
    for seat in range(record.players):
        if seat == record.seat and owner_name:
            names.append(owner_name)
        elif seat in cpu_seats:
            names.append(_("CPU %(number)d") % {"number": seat + 1})
        else:
            names.append(_("Player %(number)d") % {"number": seat + 1})
    return names


def replay_data(record: GameRecord, owner_name: str | None) -> dict:
    replay = record.replay
    return {
        "game": record.game,
        "options": record.options,
        "seat": record.seat,
        "names": seat_names(record, owner_name),
        "steps": replay_steps.steps(record.game, record.options, replay["seed"], replay["actions"],
                                    record.seat),
    }


@login_required
def replay_page(request, record_id: int):
    record = _owned_record(request, record_id)
    share = getattr(record, "share", None)
    return render(request, "accounts/replay.html", {
        "record": record, "owner": True, "share": share,
        "share_url": request.build_absolute_uri(reverse("shared_replay", args=[share.key])) if share else "",
        "replay": replay_data(record, _("You")),
    })


@login_required
def replay_of_room(request, room_id: str):
    """The result screen's Replay link: the signed-in player's record of the game the room just
    finished, found by the game's salt (kept in the record's replay, games/rooms/replays.py)."""
    try:
        room = rooms.load(room_id)
    except GameError:
        raise Http404("No such room.") from None
    kept = room.fairness or {}
    record = None
    if room.status == "finished" and kept.get("salt"):
        record = GameRecord.objects.filter(user=request.user, replay__salt=kept["salt"]).first()
    if record is None:
        raise Http404("No such replay.")
    return redirect("replay", record.pk)


@login_required
@require_POST
def share(request, record_id: int):
    """Creates the game's share link (or changes whether it shows the owner's name)."""
    record = _owned_record(request, record_id)
    show_name = request.POST.get("show_name") == "on"
    ReplayShare.objects.update_or_create(record=record, defaults={"show_name": show_name})
    messages.success(request, _("Anyone with the link can now watch this game."))
    return redirect(reverse("replay", args=[record.pk]) + "#share")


@login_required
@require_POST
def unshare(request, record_id: int):
    record = _owned_record(request, record_id)
    ReplayShare.objects.filter(record=record).delete()
    messages.success(request, _("The share link is revoked: it no longer opens this game."))
    return redirect(reverse("replay", args=[record.pk]) + "#share")


def shared_replay(request, key: str):
    share = get_object_or_404(ReplayShare.objects.select_related("record__user"), key=key)
    record = share.record
    if not record.replay:
        raise Http404("No such replay.")
    owner_name = record.user.get_username() if share.show_name else None
    return render(request, "accounts/replay.html", {
        "record": record, "owner": False, "replay": replay_data(record, owner_name),
    })
