from django.urls import path

from . import language, replay_pages, views

urlpatterns = [
    # The language switcher on every page (templates/i18n/switcher.html).
    path("i18n/setlang/", language.set_language, name="set_language"),
    path("u/<str:username>/", views.public_profile, name="public_profile"),
    path("leaderboard/", views.memory_leaderboard, name="leaderboard"),
    # A finished game replayed (replay_pages.py). Share links end in a slash: the room pages
    # are /r/<room id> without one (games/page_urls.py), so neither claims the other's URLs.
    path("replays/<int:record_id>/", replay_pages.replay_page, name="replay"),
    path("replays/room/<str:room_id>/", replay_pages.replay_of_room, name="replay-of-room"),
    path("replays/<int:record_id>/share", replay_pages.share, name="replay-share"),
    path("replays/<int:record_id>/unshare", replay_pages.unshare, name="replay-unshare"),
    path("r/<str:key>/", replay_pages.shared_replay, name="shared_replay"),
]
