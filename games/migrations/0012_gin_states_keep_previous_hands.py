"""Gin states keep the finished hands before the last one (``previous_hands``, shown in
"Previous hands"): a game saved before has none kept, and goes on with an empty list, as a
state without the field is not a Gin state (games/engines/gin.py's from_json)."""
from django.db import migrations


def add_previous_hands(apps, schema_editor):
    Room = apps.get_model("games", "Room")
    for room in Room.objects.filter(game="gin").iterator():
        if isinstance(room.state, dict) and "previous_hands" not in room.state:
            room.state["previous_hands"] = []
            room.save(update_fields=["state"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_room_columns_as_json_text'),
    ]

    operations = [
        migrations.RunPython(add_previous_hands, migrations.RunPython.noop),
    ]
