"""Load on the rooms server over the real protocol: N WebSocket clients in Memory rooms of 2.

    .venv/bin/python bench/ws_load.py [--clients 500] [--seconds 30] [--think 1.0]
                                      [--processes 1] [--target URL ...]

Starts Daphne (the `make run` command, DEBUG off) with Redis (db 3: channel layer, pub/sub) and
PostgreSQL (database ``cardtable_bench``, created and dropped here), unless ``--target`` names
running servers. Creates N/2 friends Memory rooms (default options: 52 cards); two clients join
each (split across the processes, the creator on one, the joiner on the next), and every client
flips a random face-down card a think time (uniform 0.5-1.5 x ``--think``) after its turn comes;
a finished game is played again. Memory's own 1.5 s before a mismatch is turned down applies.
Prints clients, rooms, actions per second, latency from sending an action to receiving one's
own updated view (p50/p95/p99/max), errors, and each server process's CPU and memory; then
the same clients against the bare echo endpoint (/ws/ping/, same stack) at the same message
rate as the baseline, and the ratio. It never asserts; it prints. Loopback only.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import sys
import time
import urllib.request
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rooms_stack import Stack, cpu_seconds, load_average, memory_mb  # noqa: E402

CONNECT_CONCURRENCY = 50


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.actions = 0
        self.measuring = False

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
            try:
                raw = await asyncio.wait_for(self.ws.recv(), timeout)
            except asyncio.TimeoutError:
                raw = None
            except websockets.ConnectionClosed:
                self.stats.error("connection_closed")
                return
            if raw is not None:
                self.receive(json.loads(raw), loop)
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
            elif kind == "state" and self.stats.measuring:
                self.stats.latencies.append(loop.time() - self.pending[1])
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
            except (asyncio.TimeoutError, websockets.ConnectionClosed):
                self.stats.error("echo_lost")
                return
            if self.stats.measuring:
                self.stats.latencies.append(loop.time() - sent)
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


async def measure(clients, stats: Stats, warmup: float, seconds: float, pids: list[int]):
    loop = asyncio.get_running_loop()
    stop_at = loop.time() + warmup + seconds
    tasks = [asyncio.create_task(c.run(stop_at)) for c in clients]
    await asyncio.sleep(warmup)
    stats.measuring = True
    cpu0 = [cpu_seconds(p) for p in pids]
    t0, own0 = time.monotonic(), time.process_time()
    await asyncio.gather(*tasks)
    stats.measuring = False
    wall = time.monotonic() - t0
    cpu = [(cpu_seconds(p) - c) / wall * 100 for p, c in zip(pids, cpu0)]
    # The clients share the machine: if this process is busy, latencies include its own delays.
    stats.client_cpu = (time.process_time() - own0) / wall * 100
    for c in clients:
        await c.ws.close()
    return wall, cpu


def report(title: str, stats: Stats, wall: float, cpu: list[float], pids: list[int]) -> dict:
    lat = [x * 1000 for x in stats.latencies]
    figures = {
        "per_second": stats.actions / wall if wall else 0,
        "p50": percentile(lat, 50), "p95": percentile(lat, 95), "p99": percentile(lat, 99),
        "max": max(lat) if lat else float("nan"), "errors": sum(stats.errors.values()),
    }
    mem = [memory_mb(p) for p in pids]
    print(f"{title}: {figures['per_second']:.1f}/s over {wall:.1f} s; latency ms "
          f"p50 {figures['p50']:.1f} p95 {figures['p95']:.1f} p99 {figures['p99']:.1f} "
          f"max {figures['max']:.1f}; errors {figures['errors']} {stats.errors or ''}; "
          f"client process CPU {stats.client_cpu:.0f}%", flush=True)
    for i, (c, (rss, peak)) in enumerate(zip(cpu, mem)):
        print(f"  server process {i}: CPU {c:.0f}% of one core, memory {rss:.0f} MB "
              f"(peak {peak:.0f} MB)", flush=True)
    return figures


async def run(urls: list[str], pids: list[int], args) -> dict:
    rng = random.Random(args.seed)
    rooms = args.clients // 2
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; load average {load_average()}; "
          f"{len(urls)} server process(es); {args.clients} clients in {rooms} Memory rooms; "
          f"think {args.think} s", flush=True)
    created = await asyncio.gather(*(asyncio.to_thread(
        post_json, urls[i % len(urls)] + "/api/rooms",
        {"game": "memory", "mode": "friends", "options": {"players": 2}}) for i in range(rooms)))
    stats = Stats()
    players = []
    for i, room in enumerate(created):
        players.append(Player(urls[i % len(urls)], room["room_id"], room["seat_token"], stats,
                              args.think, random.Random(rng.getrandbits(32))))
        players.append(Player(urls[(i + 1) % len(urls)], room["room_id"], None, stats,
                              args.think, random.Random(rng.getrandbits(32))))
    started = time.monotonic()
    # Creators first (hello), then joiners: a join needs the room to exist, nothing more.
    failed = await open_all(players[0::2]) + await open_all(players[1::2])
    print(f"  {len(players) - failed} connected and seated in {time.monotonic() - started:.1f} s"
          f"{f', {failed} failed' if failed else ''}", flush=True)
    live = [p for p in players if p.ws is not None and p.state is not None]
    wall, cpu = await measure(live, stats, args.warmup, args.seconds, pids)
    rooms_figures = report("rooms", stats, wall, cpu, pids)
    rooms_figures["connect_failures"] = failed
    if args.no_echo:
        return rooms_figures
    # The baseline: the same number of clients on the bare echo consumer, same message rate.
    rate = max(rooms_figures["per_second"], 1.0)
    echo_stats = Stats()
    echoes = [Echo(urls[i % len(urls)], echo_stats, len(live) / rate, random.Random(i))
              for i in range(len(live))]
    await open_all(echoes)
    echoes = [e for e in echoes if getattr(e, "ws", None) is not None]
    wall, cpu = await measure(echoes, echo_stats, 2.0, min(args.seconds, 20), pids)
    echo = report("echo baseline", echo_stats, wall, cpu, pids)
    print(f"ratio rooms / echo: p50 {rooms_figures['p50'] / echo['p50']:.1f}x, "
          f"p99 {rooms_figures['p99'] / echo['p99']:.1f}x; load average now {load_average()}",
          flush=True)
    return rooms_figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s)")
    parser.add_argument("--processes", type=int, default=1, choices=(1, 2, 3, 4))
    parser.add_argument("--target", nargs="*", help="running servers' URLs (127.0.0.1 only)")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo baseline")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 2 <= args.clients <= 5000 or not 1 <= args.seconds <= 600:
        parser.error("--clients 2..5000 and --seconds 1..600")
    if args.target:
        if not all(u.startswith(("http://127.0.0.1:", "http://localhost:")) for u in args.target):
            parser.error("targets must be on the loopback address")
        asyncio.run(run([u.rstrip("/") for u in args.target], [], args))
        return 0
    stack = Stack(f"cardtable_bench_{secrets.token_hex(3)}", processes=args.processes)
    try:
        asyncio.run(run([s.url for s in stack.servers], [s.process.pid for s in stack.servers],
                        args))
    finally:
        stack.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
