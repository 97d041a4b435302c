"""Fewer index entries per room change (bench/ws_load.py: PostgreSQL's work per move).

An event row kept three indexes on its room (the foreign key's, its LIKE twin and the
(room, version) constraint's); the constraint's alone serves every lookup. The rooms' index on
(status, updated_at) made every change a non-HOT update (updated_at is written each time), so
each change added an entry to every index of the table; nothing queried it (the cleanup walks
rooms by id). The room table keeps 30% of each page free, so a change's new row version fits
on the page of the old one (a HOT update, no index entries) where no indexed column changed."""
from django.db import migrations, models

ROOM_FILLFACTOR = 70


def set_fillfactor(apps, schema_editor, value=ROOM_FILLFACTOR):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE games_room SET (fillfactor = {int(value)})")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_room RESET (fillfactor)")


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_finished_games_in_ranges"),
    ]

    operations = [
        migrations.AlterField(
            model_name="roomevent",
            name="room",
            field=models.ForeignKey(db_index=False, on_delete=models.deletion.CASCADE,
                                    related_name="events", to="games.room"),
        ),
        migrations.RemoveIndex(model_name="room", name="room_status_updated"),
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
