"""bench/disk_flushes.py: the flush times a bench run prints beside its latency, so that a tail
made by a stalled disk is told from one made by the server."""
import sys
import time
from pathlib import Path

import psycopg
import pytest

from tests.live import PROJECT

sys.path.insert(0, str(PROJECT / "bench"))

import disk_flushes  # noqa: E402
from disk_flushes import FlushProbe, summary  # noqa: E402


def test_it_names_the_slowest_flushes_by_their_second_in_the_window():
    flushes = [(100.0 + i * 0.02, 0.0004) for i in range(200)]
    flushes[50] = (101.0, 0.141)   # 1 s into the window
    flushes[150] = (103.0, 0.060)  # 3 s into it
    line = summary(flushes, window_start=100.0, on_database_disk=True)
    assert "on the database's filesystem" in line
    assert "max 141.0 ms" in line
    assert "2 of 200 over 50 ms (141 ms at 1 s, 60 ms at 3 s)" in line


def test_it_says_when_it_measured_another_disk():
    line = summary([(0.0, 0.001)], window_start=0.0, on_database_disk=False)
    assert "not the database's disk" in line and "0 of 1 over 50 ms" in line


def test_it_says_when_nothing_was_measured():
    assert summary([], window_start=0.0, on_database_disk=True) == "disk flushes: none measured"


def test_it_flushes_a_file_of_its_own_and_removes_it(tmp_path, monkeypatch):
    monkeypatch.setattr(disk_flushes, "database_disk_dir", lambda: (tmp_path, True))
    probe = FlushProbe()
    probe.start()
    time.sleep(0.3)
    flushes = probe.stop()
    assert len(flushes) >= 3
    assert all(seconds >= 0 for _, seconds in flushes)
    assert [when for when, _ in flushes] == sorted(when for when, _ in flushes)
    assert list(tmp_path.iterdir()) == []


def test_it_flushes_on_the_filesystem_postgresql_keeps_its_data_on():
    try:
        with psycopg.connect(disk_flushes.ADMIN_URL, autocommit=True, connect_timeout=3) as db:
            data_directory = Path(db.execute("SHOW data_directory").fetchone()[0])
    except psycopg.Error:
        pytest.skip("no PostgreSQL at the bench's address (the embedded run)")
    folder, on_database_disk = disk_flushes.database_disk_dir()
    assert on_database_disk
    assert folder.stat().st_dev == data_directory.stat().st_dev
