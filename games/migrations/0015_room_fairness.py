from django.db import migrations

import games.models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0014_room_pace_and_turns'),
    ]

    operations = [
        migrations.AddField(
            model_name='room',
            name='fairness',
            field=games.models.JSONTextField(blank=True, null=True),
        ),
    ]
