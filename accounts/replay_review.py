"""GET /replays/<record id>/review.json: the review of a finished game (games/review/,
docs/review.md) for the record's owner, computed now from the record's replay, in the page's
language. Anyone else, signed in or not, is told nothing exists there (404)."""
from __future__ import annotations

from django.http import Http404, JsonResponse
from django.views.decorators.http import require_GET

from games.review import review

from .models import GameRecord


@require_GET
def review_json(request, record_id: int):
    record = None
    if request.user.is_authenticated:
        record = GameRecord.objects.filter(pk=record_id, user=request.user).first()
    if record is None or not record.replay:
        raise Http404("No such review.")
    response = JsonResponse(review(record.game, record.options, record.replay, record.seat))
    response["Cache-Control"] = "private, no-store"
    return response
