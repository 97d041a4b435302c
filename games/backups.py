"""Backups of the PostgreSQL database of DATABASE_URL, and their restore: `manage.py backup` and
`manage.py restore` (`make backup`, `make restore`), with PostgreSQL's own pg_dump and pg_restore.

A backup is one file in pg_dump's custom format (compressed; pg_restore reads it table by table,
whatever the server's version, as long as pg_dump is at least as new as the server). It holds
every table, sequence and index of the database, so also what is private: password hashes,
sessions, seats' token digests. It is written beside its final name and renamed once complete
(a failed or interrupted backup leaves no file that looks whole), readable by its owner only.

A restore goes into an empty database (a new one, `createdb`), in one transaction: it lands
whole or not at all. ``replace=True`` drops and replaces every object the backup holds instead,
for a database that is known to be beyond saving.

The connection is the settings' (host, port, user, name, TLS options), handed to libpq through
its environment variables: the password never appears on a command line, where another user of
the machine could read it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connection

# DATABASE_URL's query options that libpq also reads (the rest, such as prepare_threshold, are
# psycopg's own).
LIBPQ_OPTIONS = {"sslmode": "PGSSLMODE", "sslrootcert": "PGSSLROOTCERT", "sslcert": "PGSSLCERT",
                 "sslkey": "PGSSLKEY", "sslcrl": "PGSSLCRL", "connect_timeout": "PGCONNECT_TIMEOUT",
                 "target_session_attrs": "PGTARGETSESSIONATTRS"}


class BackupError(Exception):
    """A backup or restore that cannot be made; its message says why and what to do."""


def postgres_database() -> dict:
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.postgresql":
        raise BackupError("backups are made of PostgreSQL databases (DATABASE_URL=postgres://...); "
                          f"this site uses {database['ENGINE'].rsplit('.', 1)[-1]}. An SQLite file is "
                          "backed up by copying it while no server runs, or with sqlite3's .backup")
    return database


def libpq_environment(database: dict) -> dict[str, str]:
    environment = {**os.environ, "PGDATABASE": database["NAME"]}
    for key, variable in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD")):
        if database.get(key):
            environment[variable] = str(database[key])
    for option, variable in LIBPQ_OPTIONS.items():
        if option in database.get("OPTIONS", {}):
            environment[variable] = str(database["OPTIONS"][option])
    return environment


def program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed: it comes with PostgreSQL's client programs "
                          "(Debian: apt-get install postgresql-client), of the server's major version or newer")
    return found


def default_backup_path(folder: Path, now: datetime | None = None) -> Path:
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return folder / f"{postgres_database()['NAME']}-{stamp}.dump"


def backup(path: Path) -> Path:
    """Writes the database to ``path`` (pg_dump's custom format); returns the path."""
    database = postgres_database()
    dump = program("pg_dump")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.close(descriptor)
    run = subprocess.run([dump, "--format=custom", f"--file={partial}"], env=libpq_environment(database),
                         capture_output=True, text=True)
    if run.returncode != 0:
        partial.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed: {run.stderr.strip()}")
    partial.replace(path)
    return path


def keep_newest(folder: Path, count: int) -> list[Path]:
    """Deletes all but the ``count`` newest backups of this database in ``folder`` (the names
    default_backup_path gives, whose time stamps sort as they were taken); returns those deleted."""
    if count < 1:
        raise BackupError(f"--keep must be 1 or more, got {count}")
    name = postgres_database()["NAME"]
    backups = sorted(folder.glob(f"{name}-*Z.dump"))
    deleted = backups[:-count]
    for old in deleted:
        old.unlink()
    return deleted


def restore(path: Path, replace: bool = False) -> None:
    """Restores a backup into the database, which must be empty unless ``replace``."""
    database = postgres_database()
    restorer = program("pg_restore")
    if not path.is_file():
        raise BackupError(f"no backup file at {path}")
    environment = libpq_environment(database)
    listing = subprocess.run([restorer, "--list", str(path)], capture_output=True, text=True)
    if listing.returncode != 0:
        raise BackupError(f"{path} is not a backup pg_restore can read (manage.py backup writes them): "
                          f"{listing.stderr.strip()}")
    tables = connection.introspection.table_names()
    connection.close()
    if tables and not replace:
        raise BackupError(f"database {database['NAME']} already holds {len(tables)} tables: restore into a "
                          "new, empty database (createdb, then point DATABASE_URL at it), or pass --replace "
                          "to drop and replace everything the backup holds")
    run = subprocess.run([restorer, "--exit-on-error", "--single-transaction", "--no-owner", "--no-privileges",
                          *(["--clean", "--if-exists"] if replace else []), f"--dbname={database['NAME']}",
                          str(path)], env=environment, capture_output=True, text=True)
    if run.returncode != 0:
        raise BackupError(f"pg_restore failed, and changed nothing (one transaction): {run.stderr.strip()}")
