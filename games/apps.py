from django.apps import AppConfig
from django.conf import settings
from django.db.backends.signals import connection_created


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from . import specs
        from .finished import keep_operators_copy
        from .signals import game_finished
        specs.load_extra_games(settings.EXTRA_GAMES)
        game_finished.connect(keep_operators_copy, dispatch_uid="games.keep_operators_copy")
        connection_created.connect(read_json_as_text)


def read_json_as_text(sender, connection, **kwargs):
    """psycopg decodes a ``json`` column itself; Django's JSONField decodes the text it expects,
    as Django has psycopg hand it ``jsonb`` (games/models.py's JSONTextField, games/rooms/storage.py's
    reads)."""
    if connection.vendor == "postgresql":
        from psycopg.types.string import TextLoader
        connection.connection.adapters.register_loader("json", TextLoader)
