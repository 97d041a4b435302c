"""Rows that must not reach the database in the order, or the transaction, they came in: the
anonymous statistics (telemetry/buffer.py) and the operators' copy of finished games
(games/finished.py). docs/telemetry.md, "Unlinkable", says why and what the database can tell.

Every row written to a table carries more than its columns: PostgreSQL's ``xmin`` (the id of
the transaction that wrote it, which orders it against every other write: the player's own
game record, the room's events) and ``ctid`` (where it lies, which follows insertion order, as
a dump does), SQLite's ``rowid``. A row written when it arrives is tied by them to whatever was
written just before and after. So these rows are held in this process's memory, counted by
their values (which keeps no order and grows with the distinct rows, not the events), and once
an hour ``flush`` writes every buffer of the process in one transaction: shuffled, each with a
new random key, all under that one transaction id.

Memory and not Redis, although Redis is shared by the processes: Redis writes every command to
its append-only file (docker-compose turns it on) in the order it came, which is the order this
avoids. Each server process flushes its own buffers (server/embedded_beat.py) and again when it
stops (``flush_at_exit``); a process that is killed loses what it held, at most an hour of
anonymous rows.
"""
from __future__ import annotations

import atexit
import json
import logging
import random
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

logger = logging.getLogger("server.hourly_buffer")


def hour_of(moment: datetime) -> datetime:
    """The hour a moment falls in, in UTC."""
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


class HourlyBuffer:
    """Rows for ``model``'s table (every column but its key and those ``added`` gives at the
    flush from its hour), held until the flush."""

    def __init__(self, name: str, model: type[Model],
                 added: Callable[[datetime], dict[str, Any]] = lambda hour: {}) -> None:
        self.name, self.model, self.added = name, model, added
        self._counts: Counter[str] = Counter()
        self._lock = threading.Lock()
        _buffers.append(self)

    def add(self, rows: Iterable[dict[str, Any]]) -> None:
        keys = [json.dumps(row, sort_keys=True, separators=(",", ":")) for row in rows]
        with self._lock:
            self._counts.update(keys)

    def held(self) -> list[dict[str, Any]]:
        """The rows waiting, one per row added (in no particular order)."""
        with self._lock:
            counts = list(self._counts.items())
        return [json.loads(key) for key, n in counts for _ in range(n)]

    def _take(self) -> Counter[str]:
        with self._lock:
            taken, self._counts = self._counts, Counter()
        return taken

    def _put_back(self, taken: Counter[str]) -> None:
        with self._lock:
            self._counts.update(taken)

    def _write(self, taken: Counter[str], hour: datetime) -> int:
        rows = [{**json.loads(key), "copies": n} for key, n in taken.items()]
        added = self.added(hour)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(_shuffled_insert(self.model, rows[0].keys() - {"copies"}, added),
                               [*added.values(), json.dumps(rows)])
        else:
            expanded = [row for row in rows for _ in range(row.pop("copies"))]
            random.shuffle(expanded)
            self.model._default_manager.bulk_create(
                self.model(pk=uuid.uuid4(), **row, **added) for row in expanded)
        return sum(taken.values())


_buffers: list[HourlyBuffer] = []


def _shuffled_insert(model: type[Model], columns: Iterable[str], added: dict[str, Any]) -> str:
    """One INSERT of every row, each repeated its ``copies`` times, in random order with random
    keys, from one JSON parameter: the rows of a busy hour are mostly repeats of a few thousand
    distinct ones, which PostgreSQL expands itself."""
    quote = connection.ops.quote_name
    fields = [f for f in model._meta.concrete_fields if f.attname in set(columns)]
    record = ", ".join(
        f"{quote(f.attname)} {'text' if f.get_internal_type() == 'CharField' else f.db_type(connection)}"
        for f in fields)
    targets = [model._meta.pk.column, *(f.column for f in fields), *(quote(name) for name in added)]
    values = ["gen_random_uuid()", *(f"r.{quote(f.attname)}" for f in fields), *("%s" for _ in added)]
    return (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(targets)}) "
            f"SELECT {', '.join(values)} FROM jsonb_to_recordset(%s::jsonb) AS r({record}, copies integer) "
            "CROSS JOIN LATERAL generate_series(1, r.copies) ORDER BY random()")


def flush(now: datetime | None = None) -> dict[str, int]:
    """Writes every row this process holds, in one transaction; returns how many per buffer. If
    the transaction fails, the rows are held again for the next flush."""
    hour = hour_of(now or timezone.now())
    taken = [(buffer, buffer._take()) for buffer in _buffers]
    try:
        with transaction.atomic():
            stored = {buffer.name: buffer._write(counts, hour) for buffer, counts in taken if counts}
    except Exception:
        for buffer, counts in taken:
            buffer._put_back(counts)
        raise
    for name, count in stored.items():
        logger.info("hourly flush stored %d %s at %s", count, name, hour.isoformat())
    return stored


def discard() -> None:
    """Forget every row this process holds (each test starts from none)."""
    for buffer in _buffers:
        buffer._take()


def flush_at_exit() -> None:
    """A server process that stops (SIGTERM: a restart, a deploy) writes what it holds first."""
    atexit.register(_flush_before_exit)


def _flush_before_exit() -> None:
    try:
        flush()
    except Exception:
        logger.exception("the hourly buffers could not be written before exit; their rows are lost")
