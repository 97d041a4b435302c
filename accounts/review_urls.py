from django.urls import path

from . import replay_checks, replay_review

urlpatterns = [
    # The review of a finished game, shown on its replay page (replay_review.py).
    path("replays/<int:record_id>/review.json", replay_review.review_json, name="replay-review"),
    # Its Verify and Download replay (replay_checks.py).
    path("replays/<int:record_id>/verify.json", replay_checks.replay_verify, name="replay-verify"),
    path("replays/<int:record_id>/replay.json", replay_checks.replay_download, name="replay-download"),
]
