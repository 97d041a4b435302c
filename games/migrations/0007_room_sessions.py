"""A room keeps its Memory session: the running totals of the games played at its table
(games/rooms/sessions.py); null in the other games' rooms. Memory rooms made before have none
either; their next finished game starts one."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0006_game_choices_from_specs"),
    ]

    operations = [
        migrations.AddField(
            model_name="room",
            name="session",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
