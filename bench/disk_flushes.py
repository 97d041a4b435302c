"""How long the database's disk takes to flush while a bench runs: a thread writes 8 KB and
``fdatasync``s it every 20 ms on the filesystem PostgreSQL keeps its data on, and records each
flush's time.

Why: every move waits for its commit's WAL flush, so while the disk stalls every change waits,
and the latency tail of bench/ws_load.py follows the disk, not the server (on the 2-core machine,
2026-12-04: a 141 ms flush of this probe and 148 ms database calls in the server at the same
moment; idle, the same disk's flushes stayed under 25 ms).
"""
from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path

import psycopg
from rooms_stack import ADMIN_URL

BLOCK = b"\0" * 8192
EVERY = 0.02  # seconds between flushes
SLOW = 0.05   # a flush this long is named in the report


def database_disk_dir() -> tuple[Path, bool]:
    """A writable folder on the filesystem of PostgreSQL's data directory, and whether it is
    that filesystem (False: the system's temporary folder, when PostgreSQL's is unreadable)."""
    scratch = Path(tempfile.gettempdir())
    try:
        with psycopg.connect(ADMIN_URL, autocommit=True) as db:
            row = db.execute("SHOW data_directory").fetchone()
        data = Path(row[0]) if row else None
        device = data.stat().st_dev if data else None
    except (psycopg.Error, OSError):
        return scratch, False
    for folder in (scratch, data.parent if data else None):
        if folder is not None and folder.stat().st_dev == device and os.access(folder, os.W_OK):
            return folder, True
    return scratch, False


class FlushProbe:
    def __init__(self) -> None:
        self.folder, self.on_database_disk = database_disk_dir()
        self.flushes: list[tuple[float, float]] = []  # (monotonic time started, seconds)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="flush-probe", daemon=True)
        self._thread.start()

    def stop(self) -> list[tuple[float, float]]:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        return self.flushes

    def _run(self) -> None:
        fd, name = tempfile.mkstemp(prefix="bench-flush-", dir=self.folder)
        try:
            while not self._stop.wait(EVERY):
                started = time.monotonic()
                os.pwrite(fd, BLOCK, 0)
                os.fdatasync(fd)
                self.flushes.append((started, time.monotonic() - started))
        finally:
            os.close(fd)
            os.unlink(name)


def summary(flushes: list[tuple[float, float]], window_start: float, on_database_disk: bool) -> str:
    """One line: the flushes' p50, p99 and max, and when (seconds into the window) the slow ones
    began, to read beside the latency of each second."""
    if not flushes:
        return "disk flushes: none measured"
    ordered = sorted(seconds for _, seconds in flushes)
    p50, p99 = ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    slow = [(when - window_start, seconds) for when, seconds in flushes if seconds >= SLOW]
    named = ", ".join(f"{seconds * 1000:.0f} ms at {at:.0f} s" for at, seconds in
                      sorted(slow, key=lambda s: -s[1])[:3])
    where = "the database's filesystem" if on_database_disk else "the temporary folder (not the database's disk)"
    return (f"disk: 8 KB fdatasync every {EVERY * 1000:.0f} ms on {where}: p50 {p50 * 1000:.2f} ms, "
            f"p99 {p99 * 1000:.2f} ms, max {ordered[-1] * 1000:.1f} ms; {len(slow)} of {len(ordered)} "
            f"over {SLOW * 1000:.0f} ms" + (f" ({named})" if named else ""))
