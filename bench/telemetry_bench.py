"""Telemetry throughput against the local PostgreSQL, through the real HTTP endpoint.

    .venv/bin/python bench/telemetry_bench.py [--seconds 10] [--clients 8] [--processes 1]
                                              [--expired 1000000]

1. Ingest: ``--clients`` threads post batches of 20 events to POST /telemetry/events on
   ``--processes`` Daphne processes (the `make run` command) for ``--seconds``; prints events
   accepted per second (target: 2,000).
   Accepted events are held in the server process's memory (telemetry/buffer.py).
2. Flush: the hourly write of as many held events as step 1 accepted, of the same kinds, into
   telemetry_event (server/hourly_buffer.py's flush, what each server process runs), shuffled,
   from a process of its own while the same clients keep posting; prints rows written per
   second and ingest during the flush.
3. Purge: ``--expired`` rows older than 30 days are written straight into the table, then the
   purge (telemetry.purge.purge_expired, what the Celery task runs) deletes them while the same
   clients keep posting; prints the seconds to purge (target: under 30 s) and ingest during the
   purge (events/s and the slowest request), so a stall would show.

It works in a database of its own (created and dropped here); it never asserts, it prints.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from tests.live import VENV_BIN, LiveServer, embedded_env, free_port  # noqa: E402

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
FRESH_ROWS = "SELECT count(*) FROM telemetry_event WHERE received_at > now() - interval '1 day'"
CONTEXT = {"device": "desktop", "memory": "8+", "cores": "3-4", "net": "4g", "cache": "part"}
EVENTS = [
    {"type": "game_end", "game": "memory", "mode": "cpu", "cpu_level": "hard", "result": "win",
     "settings": {"players": 2, "cards": 52, "jokers": False, "match": "rank"},
     "move_count": "50-99", "duration": "3-10m"},
    {"type": "view3d_first_frame", "ttff": "1-2s", "game": "memory"},
    {"type": "room_step", "game": "bozu", "step": "connect", "outcome": "ok"},
    {"type": "page_view"},
]
UA = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 "
      "Safari/537.36")


def batch_body(size: int = 20) -> bytes:
    page = str(uuid.uuid4())
    events = [{**EVENTS[i % len(EVENTS)], "page": page, **CONTEXT} for i in range(size)]
    return json.dumps({"events": events}).encode()


class Clients:
    """Threads posting batches until stopped; counts accepted events and request latencies."""

    def __init__(self, ports: list[int], count: int):
        self.ports = ports
        self.count = count
        self.accepted = 0
        self.errors = 0
        self.latencies: list[float] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = []

    def _run(self, port: int):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        body = batch_body()
        while not self._stop.is_set():
            started = time.perf_counter()
            try:
                conn.request("POST", "/telemetry/events", body,
                             {"Content-Type": "text/plain", "User-Agent": UA})
                response = conn.getresponse()
                answer = response.read()
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                with self._lock:
                    self.errors += 1
                continue
            elapsed = time.perf_counter() - started
            with self._lock:
                self.latencies.append(elapsed)
                if response.status == 202:
                    self.accepted += json.loads(answer)["stored"]
                else:
                    self.errors += 1
        conn.close()

    def start(self):
        for i in range(self.count):
            thread = threading.Thread(target=self._run, args=(self.ports[i % len(self.ports)],), daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self):
        self._stop.set()
        for thread in self._threads:
            thread.join(30)

    def snapshot(self) -> tuple[int, int]:
        with self._lock:
            return self.accepted, len(self.latencies)


def psql(url: str, sql: str, params=()):
    import psycopg
    with psycopg.connect(url, autocommit=True) as db:
        cursor = db.execute(sql, params)
        return cursor.fetchall() if cursor.description else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--expired", type=int, default=1_000_000)
    args = parser.parse_args()

    name = f"telemetry_bench_{secrets.token_hex(4)}"
    db_url = f"postgres://postgres@127.0.0.1:5432/{name}"
    psql(ADMIN_URL, f'CREATE DATABASE "{name}"')
    tmp = Path(f"/tmp/{name}")
    tmp.mkdir()
    # Production settings (DEBUG off), served over plain HTTP on the loopback.
    env = embedded_env(tmp, DATABASE_URL=db_url, DEBUG="0", SECRET_KEY=secrets.token_urlsafe(40),
                       ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="0", LOG_LEVEL="WARNING",
                       TELEMETRY_RATE_LIMIT="100000000", TELEMETRY_EMBEDDED_PURGE_INTERVAL="0",
                       # The bench runs the flush and the purge itself, when it measures them.
                       TELEMETRY_FLUSH_INTERVAL="0", ROOM_CLEANUP_EMBEDDED_INTERVAL="0")
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    servers = []
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=PROJECT,
                       env=env, check=True, timeout=300, capture_output=True)
        for i in range(args.processes):
            port = free_port()
            servers.append(LiveServer([str(VENV_BIN / "daphne"), "--no-server-name", "--access-log", "/dev/null",
                                       "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                                      env, port, tmp / f"daphne{i}.log"))
        for server in servers:
            server.wait_ready()
        ports = [server.port for server in servers]
        print(f"PostgreSQL database {name}; {args.processes} Daphne process(es); {args.clients} clients; "
              "batches of 20 events")

        # 1. Ingest alone.
        clients = Clients(ports, args.clients)
        time.sleep(0.5)
        clients.start()
        time.sleep(1.0)  # warm-up: connections, first queries
        accepted0, requests0 = clients.snapshot()
        started, client_cpu = time.perf_counter(), time.process_time()
        time.sleep(args.seconds)
        accepted1, requests1 = clients.snapshot()
        elapsed = time.perf_counter() - started
        client_cpu = (time.process_time() - client_cpu) / elapsed
        clients.stop()
        rate = (accepted1 - accepted0) / elapsed
        latencies = sorted(clients.latencies)
        print(f"ingest: {rate:,.0f} events/s accepted ({(requests1 - requests0) / elapsed:,.0f} requests/s; "
              f"median {statistics.median(latencies) * 1000:.1f} ms, p99 "
              f"{latencies[int(len(latencies) * 0.99)] * 1000:.1f} ms; errors {clients.errors}; "
              f"{clients.accepted:,} acknowledged)")
        # The clients share the machine with the servers: their own CPU time shows whether they,
        # rather than the server, could be what limits the figure.
        print(f"clients: {client_cpu:.0%} of one core; load average {os.getloadavg()[0]:.1f}")

        # 2. The hourly flush while ingest goes on.
        held = clients.accepted
        clients = Clients(ports, args.clients)
        clients.start()
        time.sleep(1.0)
        accepted0, _ = clients.snapshot()
        flush_code = ("import django, json, sys, time; django.setup(); "
                      "from server import hourly_buffer; from telemetry.buffer import hold; "
                      "events, n = json.loads(sys.argv[1]), int(sys.argv[2]); "
                      "hold((events * (n // len(events) + 1))[:n], browser='chrome', os='linux'); "
                      "t = time.perf_counter(); stored = hourly_buffer.flush(); "
                      "print(sum(stored.values()), time.perf_counter() - t)")
        kinds = json.dumps([{**event, **CONTEXT} for event in EVENTS])
        started = time.perf_counter()
        result = subprocess.run([sys.executable, "-c", flush_code, kinds, str(held)], cwd=PROJECT, env=env,
                                check=True, capture_output=True, text=True, timeout=600)
        flush_wall = time.perf_counter() - started
        accepted1, _ = clients.snapshot()
        during = clients.latencies[:]
        clients.stop()
        moved, flush_seconds = result.stdout.split()
        print(f"flush: wrote {int(moved):,} held events in {float(flush_seconds):.1f} s "
              f"({int(moved) / float(flush_seconds):,.0f} rows/s, shuffled); ingest during the flush: "
              f"{(accepted1 - accepted0) / flush_wall:,.0f} events/s; slowest request {max(during) * 1000:.0f} ms; "
              f"errors {clients.errors}")

        # 3. Purge of expired rows while ingest goes on.
        started = time.perf_counter()
        psql(db_url, """
            INSERT INTO telemetry_event (id, received_at, type, device, memory, cores, net, cache,
                browser, os, game, mode, cpu_level, result, move_count, duration, origin, step, outcome,
                reason, ttff, how, fps, failure)
            SELECT gen_random_uuid(), date_trunc('hour', now()) - interval '31 days' - (g %% 100) * interval '1 hour',
                   'game_end', 'desktop', '8+', '3-4', '4g', 'part', 'chrome', 'linux', 'memory',
                   'cpu', 'hard', 'win', '50-99', '3-10m', '', '', '', '', '', '', '', ''
            FROM generate_series(1, %s) AS g""", (args.expired,))
        psql(db_url, "ANALYZE telemetry_event")
        print(f"wrote {args.expired:,} expired rows in {time.perf_counter() - started:.1f} s")
        fresh_before = psql(db_url, FRESH_ROWS)[0][0]
        clients = Clients(ports, args.clients)
        clients.start()
        time.sleep(1.0)
        accepted0, _ = clients.snapshot()
        purge_code = ("import django, time; django.setup(); from telemetry.purge import purge_expired; "
                      "t = time.perf_counter(); n = purge_expired(); print(n, time.perf_counter() - t)")
        started = time.perf_counter()
        result = subprocess.run([sys.executable, "-c", purge_code], cwd=PROJECT, env=env, check=True,
                                capture_output=True, text=True, timeout=600)
        purge_wall = time.perf_counter() - started
        accepted1, _ = clients.snapshot()
        during = clients.latencies[:]
        clients.stop()
        removed, purge_seconds = result.stdout.split()
        left = psql(db_url, "SELECT count(*) FROM telemetry_event WHERE received_at < now() - interval '30 days'")[0][0]
        fresh_after = psql(db_url, FRESH_ROWS)[0][0]
        print(f"purge: removed {int(removed):,} expired rows in {float(purge_seconds):.1f} s "
              f"({purge_wall:.1f} s with process start); {left} expired rows left; fresh rows "
              f"{fresh_before:,} → {fresh_after:,} (none deleted, ingest went on)")
        print(f"ingest during the purge: {(accepted1 - accepted0) / purge_wall:,.0f} events/s; slowest request "
              f"{max(during) * 1000:.0f} ms; median {statistics.median(during) * 1000:.1f} ms; errors {clients.errors}")
    finally:
        for server in servers:
            server.stop()
        psql(ADMIN_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
