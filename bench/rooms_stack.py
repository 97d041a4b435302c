"""The production stack for the rooms benches (ws_load, chaos, fuzz_ws): server processes (Daphne
as `manage.py serve` runs it, the `make run` command; or, for ``bench/ws_load.py --server``,
uvicorn or Granian with the same settings) on a PostgreSQL database of the bench's own and a
Redis db of its own, on 127.0.0.1 only. Also reads a process's CPU time and memory from /proc.
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


def with_descendants(pid: int) -> list[int]:
    """The process and every process below it (Granian's worker runs under its supervisor)."""
    pids = [pid]
    for parent in pids:
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                pids += [int(child) for child in (task / "children").read_text().split()]
            except OSError:  # the thread ended meanwhile
                pass
    return pids


# config/settings.py's DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE, which `manage.py serve` hands Daphne.
WEBSOCKET_MAX_MESSAGE_SIZE = 4 * 1024 * 1024
SERVERS = ("daphne", "uvicorn", "granian")


def server_command(server: str, host: str, port: int) -> list[str]:
    """One process of ``server`` serving config.asgi:application as production needs it: no
    access log, no Server header, WebSocket messages up to WEBSOCKET_MAX_MESSAGE_SIZE, the
    client address as the peer's (server/client_address.py reads X-Forwarded-For itself),
    no per-message compression (Daphne offers none). uvicorn and Granian come from the
    bench's own environment (bench/servers_venv.py), with uvloop as their docs recommend."""
    if server == "daphne":
        return [str(VENV_BIN / "python"), "manage.py", "serve", "--host", host, "--port", str(port)]
    from servers_venv import ensure
    bin_dir = ensure()
    if server == "uvicorn":
        return [str(bin_dir / "uvicorn"), "--host", host, "--port", str(port), "--workers", "1",
                "--loop", "uvloop", "--http", "httptools", "--ws", "websockets",
                "--ws-max-size", str(WEBSOCKET_MAX_MESSAGE_SIZE), "--ws-per-message-deflate", "false",
                "--lifespan", "on", "--no-access-log", "--no-server-header", "--no-proxy-headers",
                "--log-level", "warning", "config.asgi:application"]
    if server == "granian":
        # Granian has no WebSocket message size option (tungstenite's default, 64 MiB, applies;
        # the consumers refuse a message over games/consumers.py's MAX_MESSAGE_BYTES anyway) and
        # no option to leave out its "server: granian" header; it logs no access by default.
        return [str(bin_dir / "granian"), "--interface", "asgi", "--host", host, "--port", str(port),
                "--workers", "1", "--loop", "uvloop", "--no-access-log", "--log-level", "warning",
                "--http1-header-read-timeout", "10000", "config.asgi:application"]
    raise ValueError(f"unknown server {server!r}: one of {', '.join(SERVERS)}")


def memory_mb(pid: int) -> tuple[float, float]:
    """(resident now, peak resident) in MB."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                  if ":" in line)
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


class Stack:
    """Creates the database, migrates, starts ``processes`` server processes (``server``: one of
    SERVERS); ``close`` stops them and drops the database. ``balanced``: process i listens on
    127.0.0.<i+1> at one shared port, as the replicas behind HAProxy do (tests/balancer.py),
    instead of 127.0.0.1 at ports of their own."""

    def __init__(self, name: str, processes: int = 1, redis_url: str = "redis://127.0.0.1:6379/3",
                 log_dir: Path | None = None, database_url: str | None = None,
                 balanced: bool = False, server: str = "daphne", **env: str):
        import psycopg
        self.name = name
        self.server = server
        server_command(server, "127.0.0.1", 1)  # an unknown name, or uvicorn's install, before the database
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
        # This tree's code, whichever tree the editable install in .venv points at (a git worktree
        # of another commit runs its own code: bench/results/2026-12-06-servers.md).
        self.env["PYTHONPATH"] = str(PROJECT)
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
        command = server_command(self.server, self.hosts[i], port)
        return LiveServer(command, self.env, port,
                          self.log_dir / f"{self.server}{i}-{self.restarts}.log", self.hosts[i])

    def pids(self, i: int) -> list[int]:
        """Server process i's processes (one, or Granian's supervisor and its worker)."""
        return with_descendants(self.servers[i].process.pid)

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
