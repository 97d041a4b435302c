"""Finished games kept for operators get a random key, ranges for moves and duration, and seats
without scores (storage.operators_copy does the same for new ones): exact values and key
order matched each game to the one account record that has them (accounts.GameRecord).
The old rows are copied over in random order and the old table dropped."""
import uuid

from django.db import migrations, models

# telemetry.schema.BUCKETS as of this migration (a migration keeps its own copy).
MOVES = ((10, 25, 50, 100, 200, 400), ("<10", "10-24", "25-49", "50-99", "100-199", "200-399", "400+"))
DURATION = ((60, 180, 600, 1800, 3600), ("<1m", "1-3m", "3-10m", "10-30m", "30-60m", "60m+"))
SEAT_FACTS = ("seat", "holder", "result", "rank", "resigned")


def label(buckets, value) -> str:
    edges, labels = buckets
    for edge, name in zip(edges, labels, strict=False):
        if value < edge:
            return name
    return labels[-1]


def copy_in_ranges(apps, schema_editor):
    Old = apps.get_model("games", "FinishedGameExact")
    New = apps.get_model("games", "FinishedGame")
    batch = []
    for old in Old.objects.order_by("?").iterator(chunk_size=1000):
        batch.append(New(
            game=old.game, mode=old.mode, options=old.options, cpu_level=old.cpu_level,
            moves=label(MOVES, old.moves), duration=label(DURATION, old.duration_seconds),
            started_at=old.started_at, finished_at=old.finished_at,
            seats=[{k: seat[k] for k in SEAT_FACTS if k in seat} for seat in old.seats],
            room_origin=old.room_origin, reconnections=old.reconnections))
        if len(batch) == 1000:
            New.objects.bulk_create(batch)
            batch = []
    New.objects.bulk_create(batch)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_finished_games_unlinked"),
    ]

    operations = [
        migrations.RenameModel("FinishedGame", "FinishedGameExact"),
        migrations.CreateModel(
            name="FinishedGame",
            fields=[
                ("id", models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ("game", models.CharField(max_length=16)),
                ("mode", models.CharField(max_length=16)),
                ("options", models.JSONField()),
                ("cpu_level", models.CharField(blank=True, default="", max_length=16)),
                ("moves", models.CharField(max_length=8)),
                ("duration", models.CharField(max_length=8)),
                ("started_at", models.DateTimeField()),
                ("finished_at", models.DateTimeField(db_index=True)),
                ("seats", models.JSONField()),
                ("room_origin", models.CharField(blank=True, default="", max_length=16)),
                ("reconnections", models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(copy_in_ranges, migrations.RunPython.noop),
        migrations.DeleteModel("FinishedGameExact"),
    ]
