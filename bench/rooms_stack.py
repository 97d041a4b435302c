"""The production stack for the rooms benches (ws_load, chaos, fuzz_ws): Daphne processes (the
`make run` command) on a PostgreSQL database of the bench's own and a Redis db of its own, on
127.0.0.1 only. Also reads a process's CPU time and memory from /proc.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from tests.balancer import loopback_hosts  # noqa: E402
from tests.live import VENV_BIN, LiveServer, embedded_env, free_port  # noqa: E402

# BENCH_PG_PORT: another local cluster, e.g. one started with pg_stat_statements preloaded
# (ws_load then prints what each statement costs per action).
PG_PORT = int(os.environ.get("BENCH_PG_PORT", "5432"))
ADMIN_URL = f"postgresql://postgres@127.0.0.1:{PG_PORT}/postgres"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (not its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def memory_mb(pid: int) -> tuple[float, float]:
    """(resident now, peak resident) in MB."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                  if ":" in line)
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


class Stack:
    """Creates the database, migrates, starts ``processes`` Daphne processes; ``close`` stops
    them and drops the database. ``balanced``: process i listens on 127.0.0.<i+1> at one shared
    port, as the replicas behind HAProxy do (tests/balancer.py), instead of 127.0.0.1 at ports
    of their own."""

    def __init__(self, name: str, processes: int = 1, redis_url: str = "redis://127.0.0.1:6379/3",
                 log_dir: Path | None = None, database_url: str | None = None,
                 balanced: bool = False, **env: str):
        import psycopg
        self.name = name
        self.hosts = loopback_hosts(processes) if balanced else ["127.0.0.1"] * processes
        self.shared_port = free_port() if balanced else None
        self.log_dir = log_dir or Path(f"/tmp/{name}-logs")
        self.log_dir.mkdir(parents=True, exist_ok=True)
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
        self.env = embedded_env(self.log_dir, **env)
        self.env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{PG_PORT}/{name}"
        self.env["REDIS_URL"] = redis_url
        self.env["DEBUG"] = "false"
        self.env.setdefault("SECRET_KEY", "bench-" + "x" * 50)
        self.env.setdefault("ALLOWED_HOSTS", ",".join(sorted(set(self.hosts))) + ",localhost")
        self.env.setdefault("SECURE_SSL_REDIRECT", "false")  # plain HTTP on loopback
        # Every bench client creates its rooms from 127.0.0.1, hundreds a minute.
        self.env.setdefault("ROOMS_PER_ADDRESS", "1000000/minute")
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                       cwd=PROJECT, env=self.env, check=True, timeout=300)
        if database_url:
            self.env["DATABASE_URL"] = database_url
        self.servers: list[LiveServer] = []
        self.restarts = 0
        for i in range(processes):
            self.servers.append(self._start(i))
        for server in self.servers:
            server.wait_ready()

    def _start(self, i: int, port: int | None = None) -> LiveServer:
        port = port or self.shared_port or free_port()
        command = [str(VENV_BIN / "daphne"), "--no-server-name", "--access-log", "/dev/null",
                   "-b", self.hosts[i], "-p", str(port), "config.asgi:application"]
        return LiveServer(command, self.env, port, self.log_dir / f"daphne{i}-{self.restarts}.log",
                          self.hosts[i])

    def restart(self, i: int = 0, kill: bool = True) -> float:
        """Kills (SIGKILL) or stops process i and starts it again on the same port; returns the
        seconds until it answers again."""
        old = self.servers[i]
        old.kill() if kill else old.stop()
        self.restarts += 1
        started = time.monotonic()
        for _ in range(50):  # the port may linger for a moment after a kill
            server = self._start(i, old.port)
            try:
                server.wait_ready(60)
                break
            except RuntimeError:
                server.stop()
                time.sleep(0.2)
        else:
            raise RuntimeError(f"process {i} did not come back")
        self.servers[i] = server
        return time.monotonic() - started

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        import psycopg
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{PG_PORT}/{self.name}") as db:
            return db.execute(sql, params).fetchall()

    def close(self) -> None:
        import psycopg
        for server in self.servers:
            server.stop()
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
