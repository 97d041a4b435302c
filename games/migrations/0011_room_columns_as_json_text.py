"""The room's other JSON columns (seats, options, result, session) as PostgreSQL ``json``, as
its state and CPU memories are since migration 0008: every change rewrites the whole row, and
``jsonb`` parsed them again each time (games/models.py's JSONTextField). The seats' one search
reads their text either way (``service.rooms_of_user``). On SQLite the columns stay text.
"""
from django.db import migrations

import games.models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_room_changes_without_per_row_checks'),
    ]

    operations = [
        migrations.AlterField(
            model_name='room',
            name='options',
            field=games.models.JSONTextField(),
        ),
        migrations.AlterField(
            model_name='room',
            name='result',
            field=games.models.JSONTextField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='room',
            name='seats',
            field=games.models.JSONTextField(),
        ),
        migrations.AlterField(
            model_name='room',
            name='session',
            field=games.models.JSONTextField(blank=True, null=True),
        ),
    ]
