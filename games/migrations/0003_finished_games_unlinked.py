"""Finished games kept for operators lose their players' user ids and their exact times
(games/finished.py's operators_copy does the same for new ones): the link to an account lives only in the
account's own record (accounts.GameRecord)."""
from django.db import migrations

HOUR = {"minute": 0, "second": 0, "microsecond": 0}


def unlink(apps, schema_editor):
    FinishedGame = apps.get_model("games", "FinishedGame")
    for game in FinishedGame.objects.iterator(chunk_size=1000):
        game.seats = [{k: v for k, v in seat.items() if k != "user_id"} for seat in game.seats]
        game.started_at = game.started_at.replace(**HOUR)
        game.finished_at = game.finished_at.replace(**HOUR)
        game.save(update_fields=["seats", "started_at", "finished_at"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_server_processes"),
    ]

    operations = [
        migrations.RunPython(unlink, migrations.RunPython.noop),
    ]
