from django.urls import path, re_path
from django.views.i18n import JavaScriptCatalog

from . import views
from .catalog import GAMES_BY_SLUG

# Only the games' own names are claimed at the top level; other apps keep the rest.
GAME_SLUG = "(?P<slug>" + "|".join(GAMES_BY_SLUG) + ")"

urlpatterns = [
    path("", views.home, name="home"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("r/<str:room_id>", views.room, name="room"),
    re_path(rf"^{GAME_SLUG}/$", views.game_menu, name="game-menu"),
    re_path(rf"^{GAME_SLUG}/rules/$", views.rules, name="game-rules"),
]
