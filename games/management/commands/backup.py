"""``manage.py backup [--output FILE | --folder DIR] [--keep N]``: the PostgreSQL database of
DATABASE_URL in one file (games/backups.py), by default ``backups/<database>-<UTC time>.dump``.
``--keep N`` then deletes all but the N newest such files in that folder: a scheduled backup that
keeps its own history (docs/production.md, "Backups and retention")."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import backups


class Command(BaseCommand):
    help = "Backs up the PostgreSQL database (pg_dump's custom format) to one file."

    def add_arguments(self, parser):
        where = parser.add_mutually_exclusive_group()
        where.add_argument("--output", type=Path, help="the file to write")
        where.add_argument("--folder", type=Path, default=Path("backups"),
                           help="the folder for a file named by the database and the time (default: backups)")
        parser.add_argument("--keep", type=int, help="then keep only the N newest backups in --folder")

    def handle(self, *args, output, folder, keep, **options):
        if output is not None and keep is not None:
            raise CommandError("--keep counts the backups of --folder; it does not go with --output")
        try:
            written = backups.backup(output or backups.default_backup_path(folder))
            deleted = backups.keep_newest(folder, keep) if keep is not None else []
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"backup written: {written} ({written.stat().st_size} bytes)")
        for old in deleted:
            self.stdout.write(f"older backup deleted: {old}")
