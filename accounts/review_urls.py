from django.urls import path

from . import replay_review

urlpatterns = [
    # The review of a finished game, shown on its replay page (replay_review.py).
    path("replays/<int:record_id>/review.json", replay_review.review_json, name="replay-review"),
]
