"""Sessions move to accounts_session (accounts/sessions.py), each row naming its account.

The sessions Django kept until now are moved over, so nobody is signed out; a session whose
account no longer exists, or whose data does not decode (another SECRET_KEY), is dropped.
"""
import django.db.models.deletion
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations, models
from django.utils import timezone


def move_sessions(apps, schema_editor):
    Old = apps.get_model("sessions", "Session")
    New = apps.get_model("accounts", "Session")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    decoder = SessionStore()
    users = set(User.objects.values_list("pk", flat=True))
    moved = []
    for old in Old.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = decoder.decode(old.session_data)
        user_id = int(data[SESSION_KEY]) if str(data.get(SESSION_KEY, "")).isdigit() else None
        if data and (user_id is None or user_id in users):
            moved.append(New(session_key=old.session_key, session_data=old.session_data,
                             expire_date=old.expire_date, user_id=user_id))
    New.objects.bulk_create(moved, batch_size=1000)
    Old.objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_profile_language"),
        ("sessions", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Session",
            fields=[
                ("session_key", models.CharField(max_length=40, primary_key=True, serialize=False, verbose_name="session key")),
                ("session_data", models.TextField(verbose_name="session data")),
                ("expire_date", models.DateTimeField(db_index=True, verbose_name="expire date")),
                ("user", models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="sessions", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "verbose_name": "session",
                "verbose_name_plural": "sessions",
                "db_table": "accounts_session",
                "abstract": False,
            },
        ),
        # Reversed, the sessions stay in the new table: everyone signs in again.
        migrations.RunPython(move_sessions, migrations.RunPython.noop),
    ]
