"""``manage.py restore FILE [--replace]``: a backup made by ``manage.py backup`` into the database
of DATABASE_URL, which must be empty (a new database) unless ``--replace``; in one transaction,
so a failed restore changes nothing (games/backups.py)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import backups


class Command(BaseCommand):
    help = "Restores a backup made by `manage.py backup` into the (empty) PostgreSQL database."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="a backup written by manage.py backup")
        parser.add_argument("--replace", action="store_true",
                            help="drop and replace what the backup holds in a database that is not empty")

    def handle(self, *args, file, replace, **options):
        try:
            backups.restore(file, replace=replace)
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"restored {file}")
