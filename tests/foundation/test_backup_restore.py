"""`manage.py backup` and `manage.py restore` (games/backups.py) on the local PostgreSQL: a database
with rows in the site's tables is backed up, restored into a new database, and every table comes
back with the same rows and every sequence where it was; a restore that would overwrite a
database, or read a file that is no backup, is refused and changes nothing."""
import secrets
import stat
import subprocess
import sys

import psycopg
import pytest

from tests.live import PROJECT, embedded_env, migrate, services_reachable

pytestmark = pytest.mark.services

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"

# Rows in the tables that matter most, through the models (the migrations fill Django's own).
FILL = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from accounts.models import GameRecord
from accounts.sessions import Session
from games.models import Room, RoomEvent
now = timezone.now()
user = get_user_model().objects.create_user("ada", password="correct horse battery staple")
Session.objects.create(session_key="k" * 32, session_data="{}", expire_date=now + timedelta(days=14), user=user)
room = Room.objects.create(id="backup-room", game="memory", mode="solo", options={"pairs": 8}, seed=7,
                           state={"deck": ["AS", "AH"]}, seats=[{"holder": "human"}])
RoomEvent.objects.create(room=room, version=1, event={"type": "start"})
GameRecord.objects.create(user=user, game="memory", mode="solo", seat=0, players=1, result="win", rank=1,
                          moves=12, duration_seconds=30.5, started_at=now, finished_at=now)
"""
FILLED = {"auth_user", "accounts_session", "accounts_profile", "accounts_gamerecord", "games_room",
          "games_roomevent", "django_migrations", "django_content_type", "auth_permission"}


def url(name):
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def create_database(kind):
    if not services_reachable():
        pytest.fail("the backup tests need the local PostgreSQL (127.0.0.1:5432)")
    name = f"backup_{kind}_{secrets.token_hex(4)}"
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return name


def drop_database(name):
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def empty_database():
    name = create_database("copy")
    yield name
    drop_database(name)


def manage(env, *arguments):
    return subprocess.run([sys.executable, "manage.py", *arguments], cwd=PROJECT, env=env,
                          capture_output=True, text=True, timeout=180)


def contents(name):
    """Every table of the database: its row count and a digest of its rows; every sequence's value."""
    with psycopg.connect(url(name)) as db:
        tables = [row[0] for row in db.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")]
        rows = {table: db.execute(
            f'SELECT count(*), md5(coalesce(string_agg(t::text, \'|\' ORDER BY t::text), \'\')) FROM "{table}" t'
        ).fetchone() for table in tables}
        sequences = dict(db.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public'").fetchall())
    return rows, sequences


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site's database, migrated and filled once (no test changes it): (its name, the
    environment of its manage.py)."""
    name = create_database("site")
    try:
        env = embedded_env(tmp_path_factory.mktemp("backup-site"), DATABASE_URL=url(name))
        migrate(env)
        filled = manage(env, "shell", "-c", FILL)
        assert filled.returncode == 0, filled.stderr
        yield name, env
    finally:
        drop_database(name)


def test_a_backup_restores_every_table_with_its_rows(site, empty_database, tmp_path):
    name, env = site
    rows, sequences = contents(name)
    assert FILLED <= {table for table, (count, _) in rows.items() if count > 0}

    made = manage(env, "backup", "--folder", str(tmp_path / "backups"))
    assert made.returncode == 0, made.stderr
    [backup] = (tmp_path / "backups").iterdir()
    assert backup.name.startswith(f"{name}-") and backup.suffix == ".dump"
    assert f"backup written: {backup}" in made.stdout
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600  # password hashes, sessions

    copy_env = {**env, "DATABASE_URL": url(empty_database)}
    restored = manage(copy_env, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    assert contents(empty_database) == (rows, sequences)
    # The restored database is the schema the code expects: no migration left to apply.
    assert manage(copy_env, "migrate", "--check").returncode == 0


def test_a_restore_into_a_database_that_holds_tables_is_refused(site, tmp_path):
    name, env = site
    backup = tmp_path / "site.dump"
    assert manage(env, "backup", "--output", str(backup)).returncode == 0
    before = contents(name)
    refused = manage(env, "restore", str(backup))
    assert refused.returncode == 1
    assert f"database {name} already holds" in refused.stderr and "--replace" in refused.stderr
    assert contents(name) == before


def test_a_file_that_is_no_backup_is_refused(site, empty_database, tmp_path):
    copy_env = {**site[1], "DATABASE_URL": url(empty_database)}
    not_a_backup = tmp_path / "notes.dump"
    not_a_backup.write_text("not a backup\n")
    refused = manage(copy_env, "restore", str(not_a_backup))
    assert refused.returncode == 1 and "is not a backup pg_restore can read" in refused.stderr
    missing = manage(copy_env, "restore", str(tmp_path / "missing.dump"))
    assert missing.returncode == 1 and "no backup file at" in missing.stderr
    assert contents(empty_database) == ({}, {})


def test_a_scheduled_backup_keeps_the_newest(site, tmp_path):
    name, env = site
    folder = tmp_path / "backups"
    folder.mkdir()
    older = [folder / f"{name}-2026010{day}T031500Z.dump" for day in (1, 2, 3)]
    for path in older:
        path.write_bytes(b"an older backup")
    unrelated = folder / "notes.txt"
    unrelated.write_text("kept\n")
    made = manage(env, "backup", "--folder", str(folder), "--keep", "2")
    assert made.returncode == 0, made.stderr
    kept = sorted(path.name for path in folder.iterdir())
    assert len(kept) == 3 and older[2].name in kept and unrelated.name in kept
    assert f"older backup deleted: {older[0]}" in made.stdout


def test_it_backs_up_postgresql_only(tmp_path):
    refused = manage(embedded_env(tmp_path), "backup", "--folder", str(tmp_path))
    assert refused.returncode == 1 and "backups are made of PostgreSQL databases" in refused.stderr
    assert list(tmp_path.iterdir()) == []
