"""Accepted events wait in memory now, not in ``telemetry_pendingevent`` (docs/telemetry.md,
"Unlinkable"): the rows still there are stored as the hourly flush stores them (shuffled, new
random keys, the hour of this migration), then the table goes."""

from django.db import migrations

COLUMNS = ("type", "device", "memory", "cores", "net", "cache", "browser", "os", "game", "mode",
           "cpu_level", "settings", "result", "move_count", "duration", "origin", "step", "outcome",
           "reconnections", "reason", "ttff", "how", "fps", "failure")


def store_the_buffer(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        key, hour = "gen_random_uuid()", "date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"
    else:
        key, hour = "lower(hex(randomblob(16)))", "strftime('%Y-%m-%d %H:00:00', 'now')"
    columns = ", ".join(COLUMNS)
    schema_editor.execute(
        f"INSERT INTO telemetry_event (id, received_at, {columns}) "
        f"SELECT {key}, {hour}, {columns} FROM telemetry_pendingevent ORDER BY random()")


class Migration(migrations.Migration):

    dependencies = [
        ('telemetry', '0002_unlinkable_storage'),
    ]

    operations = [
        migrations.RunPython(store_the_buffer, migrations.RunPython.noop),
        migrations.DeleteModel(name='PendingEvent'),
    ]
