"""The operators' copies of finished games written before issue 35 were inserted with the change
that finished each room: each row's transaction id (PostgreSQL's ``xmin``) was that change's,
and the players' own records (accounts.GameRecord) followed a few transactions later; their
place in the table (``ctid``, a dump's order, SQLite's ``rowid``) followed the order the games
ended. They are written again in this migration's one transaction, in random order with new
random keys, as the hourly flush writes new ones (server/hourly_buffer.py). PostgreSQL keeps
the old row versions until VACUUM reclaims them (docs/telemetry.md, "Unlinkable")."""

from django.db import migrations


def rewrite_shuffled(apps, schema_editor):
    model = apps.get_model("games", "FinishedGame")
    table = model._meta.db_table
    columns = ", ".join(f.column for f in model._meta.concrete_fields if not f.primary_key)
    key = "gen_random_uuid()" if schema_editor.connection.vendor == "postgresql" else "lower(hex(randomblob(16)))"
    schema_editor.execute(f"CREATE TEMPORARY TABLE finished_before AS SELECT {columns} FROM {table}")
    schema_editor.execute(f"DELETE FROM {table}")
    schema_editor.execute(f"INSERT INTO {table} (id, {columns}) "
                          f"SELECT {key}, {columns} FROM finished_before ORDER BY random()")
    schema_editor.execute("DROP TABLE finished_before")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_gin_states_keep_previous_hands'),
    ]

    operations = [
        migrations.RunPython(rewrite_shuffled, migrations.RunPython.noop),
    ]
