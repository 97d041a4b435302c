"""A room's engine state and CPU memories as PostgreSQL ``json`` (the text kept as sent) instead
of ``jsonb``: every change rewrites both, and parsing them into ``jsonb`` was half of
PostgreSQL's CPU per change (games/models.py's JSONTextField). Nothing searches them. On SQLite
the columns stay text.
"""
from django.db import migrations

import games.models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_room_sessions'),
    ]

    operations = [
        migrations.AlterField(
            model_name='room',
            name='cpus',
            field=games.models.JSONTextField(default=dict),
        ),
        migrations.AlterField(
            model_name='room',
            name='state',
            field=games.models.JSONTextField(),
        ),
    ]
