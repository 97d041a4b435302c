"""What a bench run costs the services behind it: CPU time of the PostgreSQL processes serving
its database (its backends plus the server's shared writers and checkpointer) and of Redis,
read from /proc; PostgreSQL's commits in the bench database and the WAL it wrote. Readings are
taken at both ends of the run's window and subtracted."""
from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from rooms_stack import ADMIN_URL, cpu_seconds


def postgres_pids(database: str) -> list[int]:
    """The bench cluster's processes that work for ``database``: its backends, the shared ones
    (walwriter, checkpointer, autovacuum...) and the postmaster, as that cluster lists them (so a
    second cluster on the machine is not counted)."""
    import psycopg
    with psycopg.connect(ADMIN_URL, autocommit=True) as db:
        pids = [pid for (pid,) in db.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s OR backend_type <> 'client backend'",
            (database,))]
    parents = set()
    for pid in pids:
        try:
            parents.add(int((Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split())[1]))
        except OSError:
            continue  # gone meanwhile
    return sorted(set(pids) | {p for p in parents if _is_postgres(p)})


def _is_postgres(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() == "postgres"
    except OSError:
        return False


def _processes():
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                comm = (entry / "comm").read_text().strip()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
            except OSError:
                continue  # gone meanwhile
            yield int(entry.name), comm, cmdline


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


def used(readings: list[dict[int, float]]) -> float:
    """CPU seconds used over a window read by ``total_cpu`` at its start, every so often within
    it and at its end: each process's growth from one reading to the next, and all the CPU of a
    process first listed within the window (born then: a database connection opened anew, an
    autovacuum worker). A process that ends within the window loses only what it used after the
    last reading that listed it: the rooms' database connections are replaced every
    CONN_MAX_AGE (60 s), and two readings alone counted nothing of a replaced one."""
    total = 0.0
    for before, after in pairwise(readings):
        total += sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())
    return total


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


def statements(database: str) -> dict[int, tuple[str, int, float]] | None:
    """So far, per statement of ``database`` (pg_stat_statements): query id -> (text, calls,
    milliseconds planning and executing). None when the cluster does not preload the module
    (bench/ws_load.py says how to run one that does)."""
    import psycopg
    from rooms_stack import PG_PORT
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:{PG_PORT}/{database}", autocommit=True) as db:
        if "pg_stat_statements" not in db.execute("SHOW shared_preload_libraries").fetchone()[0]:
            return None
        db.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        rows = db.execute(
            "SELECT queryid, query, calls, total_plan_time + total_exec_time FROM pg_stat_statements s "
            "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = %s AND queryid IS NOT NULL",
            (database,)).fetchall()
    # One statement may have several rows (one per user, and per nesting: a statement run at
    # the top level and inside a function): each query id's rows are added up, or the row read
    # last would stand for all of them and the dearest statement could drop out of the list.
    spent: dict[int, tuple[str, int, float]] = {}
    for queryid, query, calls, ms in rows:
        _, calls_so_far, ms_so_far = spent.get(queryid, (query, 0, 0.0))
        spent[queryid] = (query, calls_so_far + calls, ms_so_far + ms)
    return spent


def statements_spent(before: dict | None, after: dict | None) -> list[tuple[str, int, float]]:
    """(text, calls, ms) of each statement run between two ``statements`` readings, dearest first."""
    if before is None or after is None:
        return []
    spent = [(text, calls - before.get(qid, ("", 0, 0.0))[1], ms - before.get(qid, ("", 0, 0.0))[2])
             for qid, (text, calls, ms) in after.items()]
    return sorted((s for s in spent if s[1] > 0), key=lambda s: -s[2])
