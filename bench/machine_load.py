"""What a bench run costs the services behind it: CPU time of the PostgreSQL processes serving
its database (its backends plus the server's shared writers and checkpointer) and of Redis,
read from /proc; PostgreSQL's commits in the bench database and the WAL it wrote. Readings are
taken at both ends of the run's window and subtracted."""
from __future__ import annotations

import re
from pathlib import Path

from rooms_stack import ADMIN_URL, cpu_seconds

# "postgres: [16/main: ]user database host(port) state" is a client backend; every other
# postgres process (postmaster, walwriter, checkpointer...) works for all databases.
_BACKEND = re.compile(r"^postgres: (?:\S+/\S+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])")


def _processes():
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                comm = (entry / "comm").read_text().strip()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
            except OSError:
                continue  # gone meanwhile
            yield int(entry.name), comm, cmdline


def postgres_pids(database: str) -> list[int]:
    pids = []
    for pid, comm, cmdline in _processes():
        if comm == "postgres" or cmdline.startswith("postgres:"):
            backend = _BACKEND.match(cmdline)
            if backend is None or backend[1] == database:
                pids.append(pid)
    return pids


def redis_pids() -> list[int]:
    return [pid for pid, comm, _ in _processes() if comm == "redis-server"]


def total_cpu(pids: list[int]) -> dict[int, float]:
    """CPU seconds of each pid still alive."""
    seconds = {}
    for pid in pids:
        try:
            seconds[pid] = cpu_seconds(pid)
        except OSError:
            pass
    return seconds


def used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two ``total_cpu`` readings by the processes alive at both."""
    return sum(after[pid] - before[pid] for pid in before if pid in after)


def postgres_writes(database: str) -> tuple[int, int, int]:
    """So far: (transactions committed in ``database``, reads included; rows it inserted,
    updated or deleted; WAL bytes the server wrote). The WAL is the whole server's: on a quiet
    machine, the bench's."""
    import psycopg
    with psycopg.connect(ADMIN_URL, autocommit=True) as db:
        return db.execute(
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted, "
            "pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint "
            "FROM pg_stat_database WHERE datname = %s", (database,)).fetchone()
