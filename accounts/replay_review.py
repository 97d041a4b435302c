"""GET /replays/<record id>/review.json: the review of a finished game (games/review/,
docs/review.md) for the record's owner, in the page's language. Computed from the record's
replay on the first request in a language (a long Memory game's takes seconds) and kept on the
record (``GameRecord.reviews``), so every later request reads it. Anyone else, signed in or
not, is told nothing exists there (404)."""
from __future__ import annotations

from django.db import transaction
from django.http import Http404, JsonResponse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from games.review import VERSION as REVIEW_VERSION
from games.review import review

from .models import GameRecord


def kept_review(record: GameRecord, language: str) -> dict:
    """The record's review in ``language``: the kept one, or computed now and kept."""
    kept = record.reviews.get(language)
    if kept and kept.get("version") == REVIEW_VERSION:
        return kept["review"]
    found = review(record.game, record.options, record.replay, record.seat)
    with transaction.atomic():
        # Read again under the row's lock: another language's review may have been kept since.
        latest = GameRecord.objects.select_for_update().filter(pk=record.pk).values_list("reviews", flat=True).first()
        if latest is not None:
            kept_now = {**latest, language: {"version": REVIEW_VERSION, "review": found}}
            GameRecord.objects.filter(pk=record.pk).update(reviews=kept_now)
    return found


@require_GET
def review_json(request, record_id: int):
    record = None
    if request.user.is_authenticated:
        record = GameRecord.objects.filter(pk=record_id, user=request.user).first()
    if record is None or not record.replay:
        raise Http404("No such review.")
    response = JsonResponse(kept_review(record, get_language()))
    response["Cache-Control"] = "private, no-store"
    return response
