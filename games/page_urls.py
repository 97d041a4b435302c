from django.urls import path, register_converter

from . import specs, views, webapp


class GameConverter:
    """A registered game's name (games/specs.py); anything else does not match, so only the
    games' own names are claimed at the top level and other apps keep the rest."""

    regex = "[a-z][a-z0-9_]*"

    def to_python(self, value: str) -> str:
        if specs.get(value) is None:
            raise ValueError(value)
        return value

    def to_url(self, value: str) -> str:
        return self.to_python(value)


register_converter(GameConverter, "game")

urlpatterns = [
    path("", views.home, name="home"),
    path("jsi18n/", webapp.VersionedJavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("manifest.webmanifest", webapp.web_manifest, name="web-manifest"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("r/<str:room_id>", views.room, name="room"),
    path("<game:slug>/", views.game_menu, name="game-menu"),
    path("<game:slug>/rules/", views.rules, name="game-rules"),
]
