"""What PostgreSQL checked again at every change of a room and that nothing needs checked there
(games/models.py says why for each): the CHECK (>= 0) of the room's and the event's counters,
the event's foreign key to its room (a deferred trigger that looked the room up and locked it
at every commit) and the event as ``jsonb`` (parsed on every write; it is read whole, as
``json`` text now). Each cost the backend CPU per change (figures:
bench/results/2026-12-04-latency-tail-and-migrations.md). On a large events table the type
change rewrites it once.
"""

import django.db.models.deletion
from django.db import migrations, models

import games.models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_room_id_without_like_index'),
    ]

    operations = [
        migrations.AlterField(
            model_name='room',
            name='games_played',
            field=models.IntegerField(default=0),
        ),
        migrations.AlterField(
            model_name='room',
            name='reconnections',
            field=models.IntegerField(default=0),
        ),
        migrations.AlterField(
            model_name='room',
            name='version',
            field=models.IntegerField(default=1),
        ),
        migrations.AlterField(
            model_name='roomevent',
            name='event',
            field=games.models.JSONTextField(),
        ),
        migrations.AlterField(
            model_name='roomevent',
            name='room',
            field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='events', to='games.room'),
        ),
        migrations.AlterField(
            model_name='roomevent',
            name='version',
            field=models.IntegerField(),
        ),
    ]
