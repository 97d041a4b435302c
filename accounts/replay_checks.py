"""The replay page's Verify and Download replay (docs/verify.md, "Where a replay comes from"),
for the record's owner: GET /replays/<record id>/verify.json runs ``games.verify``'s checks on
the replay file made from the record (games/replay.py, ``record_file``), held to the commitment
the game's players were shown before its first move, which the record kept; GET
/replays/<record id>/replay.json downloads that file. Anyone else is told nothing exists there
(404), as is a record that kept no commitment (recorded before records kept it)."""
from __future__ import annotations

from django.http import Http404, JsonResponse
from django.views.decorators.http import require_GET

from games import verify
from games.replay import record_file

from .models import GameRecord


def _file(request, record_id: int) -> dict:
    record = None
    if request.user.is_authenticated:
        record = GameRecord.objects.filter(pk=record_id, user=request.user).first()
    if record is None or not (record.replay or {}).get("commitment"):
        raise Http404("No such replay.")
    # A record made before its replay named the CPU level has it in its own field.
    replay = {"cpu_level": record.cpu_level or None, **record.replay}
    return record_file(record.game, record.mode, record.options, record.players, replay, [record.seat])


@require_GET
def replay_download(request, record_id: int):
    file = _file(request, record_id)
    response = JsonResponse(file)
    response["Content-Disposition"] = f'attachment; filename="{file["game"]}-replay.json"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def replay_verify(request, record_id: int):
    """The same answer as the result screen's Verify (games/api.py, ``room_verify``); its
    ``commitment`` is the one the record kept, which the page shows."""
    file = _file(request, record_id)
    report = verify.check(file)
    response = JsonResponse({"verified": not report.problems, "problems": report.problems,
                             "cpu_moves": report.cpu_moves, "commitment": file["fairness"]["commitment"]})
    response["Cache-Control"] = "private, no-store"
    return response
