"""Drops the ``varchar_pattern_ops`` twin of the rooms' primary key index that Django makes on
PostgreSQL for every text key, for ``LIKE 'abc%'`` searches. Nothing searches room ids by a
prefix, and a change that moves the room's due time (Memory's second flip and its conceal, two
changes in three) cannot be a heap-only update, so it wrote an entry in this index too. Nothing
to do on SQLite, which makes no such index.
"""
from django.db import migrations


def _like_index(schema_editor):
    return schema_editor._create_index_name("games_room", ["id"], suffix="_like")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(_like_index(schema_editor))}")


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX {schema_editor.quote_name(_like_index(schema_editor))} "
                              "ON games_room (id varchar_pattern_ops)")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_room_state_and_cpus_as_json_text'),
    ]

    operations = [migrations.RunPython(drop, create)]
