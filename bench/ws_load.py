"""Load on the rooms server over the real protocol: N WebSocket clients in Memory rooms of 2.

    .venv/bin/python bench/ws_load.py [--clients 500] [--seconds 30] [--think 1.0]
                                      [--processes 1] [--spread] [--client-processes K]
                                      [--server daphne|uvicorn|granian ...] [--rounds R]
                                      [--target URL ...]

Starts the server (``--server``: Daphne as the `make run` command starts it, the default; or
uvicorn or Granian with the same settings, installed on first use into a bench environment of
their own, bench/servers_venv.py; bench/rooms_stack.py has each command), DEBUG off, with Redis
(db 3: pub/sub, cache) and PostgreSQL (database ``cardtable_bench_*``, created and dropped here;
``BENCH_PG_PORT`` for a cluster other than 127.0.0.1:5432), unless ``--target`` names running
servers. Where that cluster preloads pg_stat_statements (``shared_preload_libraries =
'pg_stat_statements'``), it also prints what each statement cost per action. Creates N/2 friends
Memory rooms (default options: 52 cards); two clients join each, and every client flips a random
face-down card a think time (uniform 0.5-1.5 x ``--think``) after its turn comes; a finished
game is played again. Memory's own 1.5 s before a mismatch is turned down applies. Several
``--server`` names and ``--rounds R``: R rounds of one run per server on a fresh stack each, the
order turned each round, then each figure's median per server and every run's, side by side.

Where the clients connect:
- ``--processes 1``: the one process, directly.
- ``--processes N`` (2 up to the machine's cores): N processes behind HAProxy with
  deploy/haproxy.cfg, as docker-compose runs them (tests/balancer.py; Debian's haproxy,
  installed with apt-get when missing). Each room's players land on one process (the hash of
  its id); pages and the echo baseline go round-robin.
- ``--spread`` with N > 1: no balancer; a room's creator connects to process i and its joiner
  to process i+1, so every change crosses processes through Redis (the worst case).

The clients run in ``--client-processes`` processes (default: one per 1,000 clients, at most one
per core), a room's two players in the same one, so that the load generator is not what limits
the figures; each prints its own CPU use. Prints actions per second, latency from sending an
action to receiving one's own updated view (p50/p95/p99/max), errors, each server process's CPU
and memory, the CPU of PostgreSQL (the bench database's backends and the server's shared
processes), Redis and HAProxy, and the server processes' CPU milliseconds per action; the p99
of each second of the window (the worst named) and the disk's flush times over it
(bench/disk_flushes.py: a move waits for its commit's flush, so a stalled disk makes a tail);
then the same clients against the bare echo endpoint (/ws/ping/, same stack and route) at the same
message rate as the baseline, and the ratio. It never asserts; it prints. Loopback only.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import random
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from disk_flushes import FlushProbe  # noqa: E402
from disk_flushes import summary as flush_summary  # noqa: E402
from machine_load import (  # noqa: E402
    postgres_pids,
    postgres_writes,
    redis_pids,
    statements,
    statements_spent,
    total_cpu,
    used,
)
from rooms_stack import SERVERS, Stack, cpu_seconds, load_average, memory_mb  # noqa: E402

from tests.balancer import Balancer  # noqa: E402  (rooms_stack put the project on the path)

CONNECT_CONCURRENCY = 50
CLIENTS_PER_PROCESS = 1000


class Stats:
    def __init__(self):
        self.latencies: list[tuple[float, float]] = []  # (when sent, seconds to the answer)
        self.errors: dict[str, int] = {}
        self.actions = 0
        self.window = (math.inf, math.inf)  # (start, stop) on the monotonic clock

    def measuring(self, now: float) -> bool:
        return self.window[0] <= now < self.window[1]

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def post_json(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def ws_address(url: str, path: str) -> tuple[str, str]:
    host = url.split("://", 1)[1].rstrip("/")
    return f"ws://{host}{path}", f"http://{host}"


class Player:
    """One client: holds one seat of a room and flips when its turn comes."""

    def __init__(self, url, room_id, token, stats: Stats, think: float, rng: random.Random):
        self.url, self.room_id, self.token = url, room_id, token
        self.stats, self.think, self.rng = stats, think, rng
        self.ws = None
        self.state = None
        self.pending: tuple[str, float] | None = None
        self.act_at: float | None = None
        self.ids = 0

    async def open(self):
        address, origin = ws_address(self.url, f"/ws/rooms/{self.room_id}/")
        self.ws = await websockets.connect(address, origin=origin, max_size=2 ** 22,
                                           open_timeout=60, ping_interval=None)
        await self.send({"type": "hello", "token": self.token})
        await self.until(lambda m: m["type"] == "state")
        if self.token is None:
            await self.send({"type": "join"})
            await self.until(lambda m: m["type"] == "state" and m["room"]["you"]["seats"])

    async def until(self, predicate, timeout=60):
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if message["type"] == "state":
                self.state = message
            if predicate(message):
                return message

    async def send(self, message: dict) -> str:
        self.ids += 1
        ref = f"c{self.ids}"
        await self.ws.send(json.dumps({**message, "id": ref}))
        return ref

    def my_turn(self) -> bool:
        s = self.state
        return (s is not None and s["room"]["status"] == "playing"
                and bool(s["view"]["legal_actions"]))

    def finished_and_mine_to_restart(self) -> bool:
        s = self.state
        return s is not None and s["room"]["status"] == "finished" and s["room"]["you"]["seats"] == [0]

    async def run(self, stop_at: float):
        loop = asyncio.get_running_loop()
        self.schedule(loop)
        while loop.time() < stop_at:
            timeout = stop_at - loop.time()
            if self.act_at is not None:
                timeout = min(timeout, max(0.0, self.act_at - loop.time()))
            # The load generator shares the machine with the server: asyncio.timeout (a timer)
            # instead of wait_for (a task per message) and orjson instead of json took its CPU
            # from 41-42% to 35-36% of a core at 1,000 clients (bench/results/2026-12-02-redis-links.md).
            try:
                async with asyncio.timeout(timeout):
                    raw = await self.ws.recv()
            except TimeoutError:
                raw = None
            except websockets.ConnectionClosed:
                self.stats.error("connection_closed")
                return
            if raw is not None:
                self.receive(orjson.loads(raw), loop)
            if self.act_at is not None and loop.time() >= self.act_at and self.pending is None:
                self.act_at = None
                await self.act(loop)

    def receive(self, message: dict, loop) -> None:
        kind = message["type"]
        ref = message.get("ref")
        if kind == "state":
            if self.state is None or message["version"] >= self.state["version"]:
                self.state = message
        if self.pending and ref == self.pending[0]:
            if kind == "error":
                self.stats.error(message["code"])
            elif kind == "state" and self.stats.measuring(loop.time()):
                self.stats.latencies.append((self.pending[1], loop.time() - self.pending[1]))
                self.stats.actions += 1
            self.pending = None
        elif kind == "error":
            self.stats.error(message["code"])
        self.schedule(loop)

    def schedule(self, loop) -> None:
        if self.pending is None and self.act_at is None and (
                self.my_turn() or self.finished_and_mine_to_restart()):
            self.act_at = loop.time() + self.think * self.rng.uniform(0.5, 1.5)

    async def act(self, loop) -> None:
        if self.my_turn():
            action = self.rng.choice(self.state["view"]["legal_actions"])
            message = {"type": "action", "action": action, "version": self.state["version"]}
        elif self.finished_and_mine_to_restart():
            message = {"type": "play_again"}
        else:
            return
        ref = await self.send(message)
        self.pending = (ref, loop.time())


class Echo:
    """A client of /ws/ping/ sending one ping every ``interval`` (jittered)."""

    def __init__(self, url, stats: Stats, interval: float, rng: random.Random):
        self.url, self.stats, self.interval, self.rng = url, stats, interval, rng

    async def open(self):
        address, origin = ws_address(self.url, "/ws/ping/")
        self.ws = await websockets.connect(address, origin=origin, open_timeout=60,
                                           ping_interval=None)

    async def run(self, stop_at: float):
        loop = asyncio.get_running_loop()
        n = 0
        while loop.time() < stop_at:
            await asyncio.sleep(min(self.interval * self.rng.uniform(0.5, 1.5),
                                    max(0.0, stop_at - loop.time())))
            if loop.time() >= stop_at:
                return
            n += 1
            sent = loop.time()
            try:
                await self.ws.send(json.dumps({"type": "ping", "echo": n}))
                while True:
                    answer = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
                    if answer.get("echo") == n:
                        break
            except (TimeoutError, websockets.ConnectionClosed):
                self.stats.error("echo_lost")
                return
            if self.stats.measuring(loop.time()):
                self.stats.latencies.append((sent, loop.time() - sent))
                self.stats.actions += 1


async def open_all(clients) -> int:
    limit = asyncio.Semaphore(CONNECT_CONCURRENCY)
    failed = 0

    async def one(client):
        nonlocal failed
        async with limit:
            try:
                await client.open()
            except Exception as exc:  # noqa: BLE001 - counted and printed
                failed += 1
                print(f"  connect failed: {type(exc).__name__}: {exc}", flush=True)
    await asyncio.gather(*(one(c) for c in clients))
    return failed



# ---- one client process --------------------------------------------------------------------
# The parent sends it its rooms; it connects them and says how many are seated, then runs them
# over the window the parent names (time.monotonic is one clock for every process of the
# machine) and sends back what it measured; then the same for the echo baseline.

async def run_window(pipe, clients, stats: Stats) -> None:
    start_at, stop_at = await asyncio.to_thread(pipe.recv)
    stats.window = (start_at, stop_at)
    tasks = [asyncio.create_task(c.run(stop_at)) for c in clients]
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    cpu0 = time.process_time()
    await asyncio.gather(*tasks)
    cpu = time.process_time() - cpu0
    for c in clients:
        await c.ws.close()
    pipe.send(("done", stats.latencies, stats.actions, stats.errors, cpu))


async def client_main(pipe, rooms: list[tuple], think: float, seed: int) -> None:
    rng = random.Random(seed)
    stats = Stats()
    players = []
    for creator_url, joiner_url, room_id, token in rooms:
        players.append(Player(creator_url, room_id, token, stats, think,
                              random.Random(rng.getrandbits(32))))
        players.append(Player(joiner_url, room_id, None, stats, think,
                              random.Random(rng.getrandbits(32))))
    # Creators first (hello), then joiners: a join needs the room to exist, nothing more.
    failed = await open_all(players[0::2]) + await open_all(players[1::2])
    live = [p for p in players if p.ws is not None and p.state is not None]
    pipe.send(("connected", len(live), failed))
    await run_window(pipe, live, stats)
    order = pipe.recv()
    if order[0] != "echo":
        return
    _, urls, interval = order
    echo_stats = Stats()
    echoes = [Echo(urls[i % len(urls)], echo_stats, interval, random.Random(seed + i))
              for i in range(len(live))]
    failed = await open_all(echoes)
    echoes = [e for e in echoes if getattr(e, "ws", None) is not None]
    pipe.send(("connected", len(echoes), failed))
    await run_window(pipe, echoes, echo_stats)


def client_process(pipe, rooms, think, seed) -> None:
    asyncio.run(client_main(pipe, rooms, think, seed))


# ---- the parent ----------------------------------------------------------------------------

class Machine:
    """The processes whose CPU a run reports: servers, PostgreSQL, Redis, HAProxy."""

    def __init__(self, server_pids: list[int], database: str | None, balancer_pid: int | None):
        self.server_pids = server_pids
        self.database = database
        self.groups = {"PostgreSQL": postgres_pids(database) if database else [],
                       "Redis": redis_pids() if database else [],
                       "HAProxy": [balancer_pid] if balancer_pid else []}

    def read(self) -> dict:
        return {"servers": [cpu_seconds(p) for p in self.server_pids],
                "writes": postgres_writes(self.database) if self.database else (0, 0, 0),
                "statements": statements(self.database) if self.database else None,
                **self.read_services()}

    def read_services(self) -> dict[str, dict[int, float]]:
        """Each service's processes' CPU seconds. The database's backends are listed again at
        each reading: a server process opens its ROOMS_DB_THREADS connections as they are first
        needed, after this object was made, and replaces each every CONN_MAX_AGE."""
        if self.database:
            self.groups["PostgreSQL"] = postgres_pids(self.database)
        return {name: total_cpu(pids) for name, pids in self.groups.items() if pids}

    @staticmethod
    def spent(before: dict, during: list[dict], after: dict) -> dict:
        """What the window between ``before`` and ``after`` (full readings) cost, with the
        services' readings ``during`` it."""
        services = [before, *during, after]
        return {"servers": [b - a for a, b in zip(before["servers"], after["servers"], strict=True)],
                "writes": tuple(b - a for a, b in zip(before["writes"], after["writes"], strict=True)),
                "statements": statements_spent(before["statements"], after["statements"]),
                **{name: used([reading.get(name, {}) for reading in services]) for name in before
                   if name not in ("servers", "writes", "statements")}}


READ_EVERY = 1.0  # seconds between readings of the services' CPU within a window


@dataclass
class Window:
    """One measured window: its length, what it cost (``Machine.spent``), the client processes'
    results, when it began (monotonic) and the disk's flushes within it."""
    seconds: float
    spent: dict
    results: list
    start: float
    flushes: list[tuple[float, float]]
    flushes_on_database_disk: bool


def run_phase(workers, machine: Machine, warmup: float, seconds: float) -> Window:
    """Starts every client process's window at once."""
    start_at = time.monotonic() + warmup
    stop_at = start_at + seconds
    for pipe, _ in workers:
        pipe.send((start_at, stop_at))
    probe = FlushProbe() if machine.database else None
    time.sleep(max(0.0, start_at - time.monotonic()))
    if probe:
        probe.start()
    before = machine.read()
    during = []
    while time.monotonic() < stop_at - READ_EVERY:
        time.sleep(READ_EVERY)
        during.append(machine.read_services())
    time.sleep(max(0.0, stop_at - time.monotonic()))
    after = machine.read()
    flushes = probe.stop() if probe else []
    results = [pipe.recv() for pipe, _ in workers]
    return Window(seconds, Machine.spent(before, during, after), results, start_at, flushes,
                  bool(probe and probe.on_database_disk))


def print_worst_seconds(timed: list[tuple[float, float]], start: float, shown: int = 3) -> None:
    """Whether a tail is spread over the run or comes from a few moments (a stall of the disk,
    a reconnection, a collection): the window's seconds by their own p99, the worst few named
    (seconds from ``start``, as the disk's line names its slow flushes)."""
    if not timed:
        return
    by_second: dict[int, list[float]] = {}
    for sent, ms in timed:
        by_second.setdefault(int(sent - start), []).append(ms)
    p99s = sorted(((percentile(v, 99), second) for second, v in by_second.items()), reverse=True)
    median = percentile([p for p, _ in p99s], 50)
    worst = ", ".join(f"{p:.0f} ms at {second} s" for p, second in p99s[:shown])
    print(f"  p99 of each second: median {median:.1f} ms; worst {worst}", flush=True)


def report(title: str, window: Window, pids: list[int]) -> dict:
    wall, spent, results = window.seconds, window.spent, window.results
    timed = [(sent, x * 1000) for _, lat, _, _, _ in results for sent, x in lat]
    latencies = [x for _, x in timed]
    actions = sum(r[2] for r in results)
    errors: dict[str, int] = {}
    for r in results:
        for kind, n in r[3].items():
            errors[kind] = errors.get(kind, 0) + n
    client_cpu = [r[4] / wall * 100 for r in results]
    figures = {
        "per_second": actions / wall if wall else 0,
        "p50": percentile(latencies, 50), "p95": percentile(latencies, 95),
        "p99": percentile(latencies, 99), "max": max(latencies) if latencies else float("nan"),
        "errors": sum(errors.values()),
    }
    print(f"{title}: {figures['per_second']:.1f}/s over {wall:.1f} s; latency ms "
          f"p50 {figures['p50']:.1f} p95 {figures['p95']:.1f} p99 {figures['p99']:.1f} "
          f"max {figures['max']:.1f}; errors {figures['errors']} {errors or ''}; "
          f"client processes {len(results)}, CPU {max(client_cpu):.0f}% of a core at most",
          flush=True)
    print_worst_seconds(timed, window.start)
    if window.flushes:
        print("  " + flush_summary(window.flushes, window.start, window.flushes_on_database_disk), flush=True)
    for i, (seconds, (rss, peak)) in enumerate(zip(spent["servers"], map(memory_mb, pids), strict=True)):
        print(f"  server process {i}: CPU {seconds / wall * 100:.0f}% of one core, memory "
              f"{rss:.0f} MB (peak {peak:.0f} MB)", flush=True)
    if pids and actions:
        figures["server_cpu_ms"] = sum(spent["servers"]) / actions * 1000
        others = [f"{name} {seconds / wall * 100:.0f}% ({seconds / actions * 1000:.2f} ms)"
                  for name, seconds in spent.items() if name not in ("servers", "writes", "statements")]
        unit = "action" if title == "rooms" else "echo"
        print(f"  CPU per {unit}: server processes "
              f"{sum(spent['servers']) / actions * 1000:.2f} ms; "
              f"{'; '.join(others) or 'nothing else measured'} (share of one core, and per {unit})",
              flush=True)
        commits, rows, wal = spent["writes"]
        print(f"  PostgreSQL per {unit}: {commits / actions:.2f} transactions (reads included; "
              f"{commits / wall:.0f}/s), {rows / actions:.2f} rows written, "
              f"{wal / actions / 1024:.1f} KB of WAL (the whole server's: the bench's on a "
              f"quiet machine)", flush=True)
        if spent["statements"]:
            total_ms = sum(ms for _, _, ms in spent["statements"])
            print(f"  pg_stat_statements: {total_ms / actions:.3f} ms planning and executing per {unit}; "
                  f"dearest (calls per {unit}, ms per call, ms per {unit}):", flush=True)
            for text, calls, ms in spent["statements"][:8]:
                print(f"    {calls / actions:5.2f} {ms / calls:6.3f} {ms / actions:6.3f}  "
                      f"{' '.join(text.split())[:110]}", flush=True)
    return figures


def start_clients(rooms: list[tuple], count: int, think: float, seed: int):
    """``count`` client processes, each with whole rooms; returns [(pipe, process)]."""
    context = multiprocessing.get_context("spawn")
    workers = []
    for k in range(count):
        parent_end, child_end = context.Pipe()
        process = context.Process(target=client_process,
                                  args=(child_end, rooms[k::count], think, seed * 1000 + k),
                                  daemon=True)
        process.start()
        workers.append((parent_end, process))
    return workers


def connected(workers) -> tuple[int, int]:
    answers = [pipe.recv() for pipe, _ in workers]
    return sum(a[1] for a in answers), sum(a[2] for a in answers)


def run(urls: list[str], balancer: Balancer | None, machine: Machine, args, server: str = "daphne") -> dict:
    """``urls``: the server processes; with a balancer every client goes through it. Returns the
    rooms' figures, with the echo baseline's as ``echo``."""
    n = len(urls)
    load = load_average()
    rooms = args.clients // 2
    route = ("through HAProxy" if balancer else
             "a room's players on different processes" if args.spread and n > 1 else "direct")
    client_processes = args.client_processes or max(1, min(os.cpu_count() or 1,
                                                            math.ceil(args.clients / CLIENTS_PER_PROCESS)))
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; load average {load}; "
          f"{n} {server if machine.server_pids else 'target'} process(es), {route}; "
          f"{args.clients} clients in {rooms} Memory rooms; think {args.think} s; "
          f"{client_processes} client process(es)", flush=True)
    entry = [balancer.url] if balancer else urls
    with ThreadPoolExecutor(16) as pool:
        created = list(pool.map(
            lambda i: post_json(entry[i % len(entry)] + "/api/rooms",
                                {"game": "memory", "mode": "friends", "options": {"players": 2}}),
            range(rooms)))
    spread = 1 if (args.spread or args.target) and not balancer else 0
    assignments = [(entry[i % len(entry)], entry[(i + spread) % len(entry)], room["room_id"],
                    room["seat_token"]) for i, room in enumerate(created)]
    started = time.monotonic()
    workers = start_clients(assignments, client_processes, args.think, args.seed)
    try:
        live, failed = connected(workers)
        print(f"  {live} connected and seated in {time.monotonic() - started:.1f} s"
              f"{f', {failed} failed' if failed else ''}"
              + (f"; connections per process {sorted(balancer.connections().values(), reverse=True)}"
                 if balancer else ""), flush=True)
        rooms_figures = report("rooms", run_phase(workers, machine, args.warmup, args.seconds),
                               machine.server_pids)
        rooms_figures["connect_failures"] = failed
        rooms_figures["load"] = load
        if args.no_echo:
            for pipe, _ in workers:
                pipe.send(("exit",))
            return rooms_figures
        # The baseline: the same number of clients on the bare echo consumer, same message rate.
        rate = max(rooms_figures["per_second"], 1.0)
        for pipe, _ in workers:
            pipe.send(("echo", entry, live / rate))
        connected(workers)
        echo = report("echo baseline", run_phase(workers, machine, 2.0, min(args.seconds, 20)),
                      machine.server_pids)
        print(f"ratio rooms / echo: p50 {rooms_figures['p50'] / echo['p50']:.1f}x, "
              f"p99 {rooms_figures['p99'] / echo['p99']:.1f}x; load average now {load_average()}",
              flush=True)
        rooms_figures["echo"] = echo
        return rooms_figures
    finally:
        for _, process in workers:
            process.join(30)
            if process.is_alive():
                process.kill()


def ensure_haproxy() -> None:
    """Debian's haproxy, installed when missing (the balancer docker-compose runs)."""
    if shutil.which("haproxy") or os.path.exists("/usr/sbin/haproxy"):
        return
    print("installing Debian's haproxy (apt-get)", flush=True)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "haproxy"], check=True,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s)")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes, up to this machine's cores; more than one: "
                             "behind HAProxy unless --spread")
    parser.add_argument("--spread", action="store_true",
                        help="no balancer: a room's two players on different processes")
    parser.add_argument("--client-processes", type=int,
                        help=f"default: one per {CLIENTS_PER_PROCESS:,} clients, at most one per core")
    parser.add_argument("--target", nargs="*", help="running servers' URLs (127.0.0.1 only)")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo baseline")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server", nargs="+", choices=SERVERS, default=["daphne"],
                        help="the ASGI server(s) the bench starts (not with --target); several: "
                             "one run each per round, then their figures side by side")
    parser.add_argument("--rounds", type=int, default=1,
                        help="runs of each server, alternated (the order turned each round)")
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    if not 2 <= args.clients <= 20000 or not 1 <= args.seconds <= 600:
        parser.error("--clients 2..20000 and --seconds 1..600")
    if not 1 <= args.processes <= max(cores, 2):
        parser.error(f"--processes 1..{max(cores, 2)} (this machine's cores)")
    if args.spread and args.processes < 2 and not args.target:
        parser.error("--spread needs --processes 2 or more")
    if args.client_processes is not None and not 1 <= args.client_processes <= 256:
        parser.error("--client-processes 1..256")
    if not 1 <= args.rounds <= 10:
        parser.error("--rounds 1..10")
    if args.target:
        if args.server != ["daphne"] or args.rounds != 1:
            parser.error("--server and --rounds start servers: not with --target")
        if not all(u.startswith(("http://127.0.0.1:", "http://localhost:")) for u in args.target):
            parser.error("targets must be on the loopback address")
        run([u.rstrip("/") for u in args.target], None, Machine([], None, None), args)
        return 0
    balanced = args.processes > 1 and not args.spread
    if balanced:
        ensure_haproxy()
    servers = list(dict.fromkeys(args.server))
    runs = [(server, measure(server, balanced, args)) for server in alternation(servers, args.rounds)]
    if len(runs) > 1:
        print(side_by_side(servers, runs), flush=True)
    return 0


def alternation(servers: list[str], rounds: int) -> list[str]:
    """Each round runs every server once, the order turned by one each round, so that no server
    always runs first (on a fresh machine) or right after another."""
    return [servers[(r + i) % len(servers)] for r in range(rounds) for i in range(len(servers))]


# (label, figure, format): the rows of ``side_by_side``.
ROWS = (("actions/s", lambda f: f["per_second"], "{:.1f}"),
        ("server CPU per action", lambda f: f.get("server_cpu_ms", math.nan), "{:.2f} ms"),
        ("p50", lambda f: f["p50"], "{:.1f} ms"),
        ("p99", lambda f: f["p99"], "{:.1f} ms"),
        ("errors", lambda f: f["errors"] + f.get("connect_failures", 0), "{:.0f}"),
        ("echo: server CPU per echo", lambda f: f.get("echo", {}).get("server_cpu_ms", math.nan), "{:.2f} ms"),
        ("echo: p99", lambda f: f.get("echo", {}).get("p99", math.nan), "{:.1f} ms"))


def side_by_side(servers: list[str], runs: list[tuple[str, dict]]) -> str:
    """Each server's median over its runs, then every run's figure in the order they ran, and
    the load average each run started at (the machine is shared: say how busy it was)."""
    lines = [f"side by side ({len(runs)} runs, alternated; median, then each run in order):"]
    for label, figure, form in ROWS:
        cells = []
        for server in servers:
            values = [figure(f) for name, f in runs if name == server]
            each = " / ".join(form.format(v).removesuffix(" ms") for v in values)
            cells.append(f"{server} {form.format(percentile(values, 50))} ({each})")
        lines.append(f"  {label}: " + "; ".join(cells))
    lines.append("  load average at each start: " + "; ".join(
        f"{server} " + " / ".join(f["load"].split()[0] for name, f in runs if name == server)
        for server in servers))
    return "\n".join(lines)


def measure(server: str, balanced: bool, args) -> dict:
    """One run on a stack of ``server`` processes of its own (database, migrations, processes)."""
    stack = Stack(f"cardtable_bench_{secrets.token_hex(3)}", processes=args.processes,
                  balanced=balanced, server=server)
    balancer = None
    try:
        if balanced:
            balancer = Balancer(stack.hosts, stack.shared_port, stack.log_dir,
                                allowed_hosts=stack.env["ALLOWED_HOSTS"])
            balancer.wait_up()
        machine = Machine([pid for i in range(len(stack.servers)) for pid in stack.pids(i)], stack.name,
                          balancer.process.pid if balancer else None)
        return run([s.url for s in stack.servers], balancer, machine, args, server)
    finally:
        if balancer is not None:
            balancer.stop()
        stack.close()


if __name__ == "__main__":
    sys.exit(main())
