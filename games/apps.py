from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from . import specs
        specs.load_extra_games(settings.EXTRA_GAMES)
