"""SIGKILL the rooms server at random moments during play, restart it, and check every room.

    .venv/bin/python bench/chaos.py [--kills 20] [--rooms 60] [--processes 1] [--seed 1]

Starts Daphne (the `make run` command) on PostgreSQL (a database of its own, created and
dropped here) and Redis db 3; with ``--processes N`` > 1, N processes behind HAProxy with
deploy/haproxy.cfg as docker-compose runs them (tests/balancer.py), every client connecting
through the balancer. Creates ``--rooms`` rooms vs the CPU (Memory, Bozu Mekuri and
Gin Rummy in turn, CPU delays 0.1 s so that steps are always pending), and plays each with a
client that picks random legal actions, reconnects with its token and ``last_version`` when
the connection drops, and plays again when a game ends. ``--kills`` times, at a random moment
(0.5 to 3 s into play), it SIGKILLs a server process and starts it again; behind the balancer
the clients of the killed process reconnect to another one, the others play on. After every restart
it checks every room: the row exists, its version is at least the newest version any client
saw (nothing applied is lost), its events are versions 1..N with no gap, and the stored state
is exactly the state rebuilt from the seed and the public events (so nothing half-applied or
corrupted), the engine loading it cleanly. Prints rooms checked, rooms lost or corrupted
(target 0), the restart time and the time until every client resynced. Loopback only.
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import random
import secrets
import sys
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rooms_stack import PROJECT, Stack, load_average  # noqa: E402
from ws_load import ensure_haproxy  # noqa: E402

sys.path.insert(0, str(PROJECT))
from games.bot import Connection, ProtocolError, create_room  # noqa: E402
from tests.balancer import Balancer  # noqa: E402

GAMES = [("memory", {"players": 2, "cards": 24}), ("bozu", {"players": 2}), ("gin", {"target": 25})]
FAST_CPU = {"CPU_DELAY_MEMORY_FLIP": "0.1", "MEMORY_CONCEAL_DELAY": "0.2",
            "CPU_DELAY_BOZU_FLIP": "0.1", "CPU_DELAY_GIN_STEP": "0.1", "GIN_NEXT_HAND_DELAY": "0.3"}


def replay(game: str, options: dict, seed: int, events: list[dict]):
    """The room's current engine state rebuilt from its seed and public events."""
    engine = importlib.import_module(f"games.engines.{game}")
    parsed = engine.parse_options(options)
    state = engine.new_game(parsed, seed)
    games_played = 0
    for event in events:
        if event["type"] == "action":
            state.apply(event["seat"], event["action"])
        elif event["type"] == "automatic":
            state.apply_automatic()
        elif event["type"] == "play_again":
            games_played += 1
            state = engine.new_game(parsed, random.Random(f"{seed}:{games_played}").getrandbits(63))
    return state


def check_room(query, room_id: str, seen_version: int) -> str | None:
    """None if the room is whole, else what is wrong with it. ``query(sql, params)``."""
    rows = query("SELECT game, options, seed, version, state FROM games_room WHERE id = %s",
                 (room_id,))
    if not rows:
        return "lost: no row"
    game, options, seed, version, stored = rows[0]
    options, stored = (json.loads(v) if isinstance(v, str) else v for v in (options, stored))
    if version < seen_version:
        return f"lost: at version {version}, a client saw {seen_version}"
    # Play goes on while this reads: events past the version read are not part of this check.
    events = query("SELECT version, event FROM games_roomevent WHERE room_id = %s AND version <= %s "
                   "ORDER BY version", (room_id, version))
    if [v for v, _ in events] != list(range(1, version + 1)):
        return f"corrupted: events {[v for v, _ in events][-5:]} for version {version}"
    engine = importlib.import_module(f"games.engines.{game}")
    loaded = engine.State.from_json(stored)
    rebuilt = replay(game, options, seed,
                     [json.loads(e) if isinstance(e, str) else e for _, e in events])
    if json.loads(json.dumps(rebuilt.to_json())) != json.loads(json.dumps(loaded.to_json())):
        return "corrupted: the stored state is not the state its events make"
    return None


class Player:
    """Plays one room's seat 0 with random legal actions, through any number of crashes."""

    def __init__(self, urls, room_id, token, rng):
        self.urls, self.room_id, self.token, self.rng = urls, room_id, token, rng
        self.seen = 0
        self.resynced_at = 0.0
        self.games = 0
        self.errors: dict[str, int] = {}

    async def run(self, stop: asyncio.Event):
        while not stop.is_set():
            conn = Connection(self.urls[self.rng.randrange(len(self.urls))], self.room_id)
            try:
                await conn.open(self.token, self.seen or None)
                self.resynced_at = time.monotonic()
                await self.play(conn, stop)
            except (TimeoutError, OSError, websockets.WebSocketException):
                await asyncio.sleep(0.2)  # the server is down: try again
            except ProtocolError as exc:
                self.errors[exc.code] = self.errors.get(exc.code, 0) + 1
                await asyncio.sleep(0.2)
            finally:
                await conn.close() if conn.ws is not None else None

    async def play(self, conn, stop):
        while not stop.is_set():
            state = conn.state
            self.seen = max(self.seen, state["version"])
            room, view = state["room"], state["view"]
            if room["status"] == "finished":
                self.games += 1
                await conn.request("play_again")
            elif room["status"] == "playing" and view.get("legal_actions"):
                await asyncio.sleep(self.rng.uniform(0.02, 0.1))
                try:
                    await conn.request("action", action=self.rng.choice(view["legal_actions"]),
                                       version=state["version"])
                except ProtocolError as exc:
                    if exc.code not in ("stale_version", "not_your_turn"):
                        raise
                    await conn.recv(5)
            else:
                await conn.recv(5)


async def chaos(stack: Stack, balancer: Balancer | None, args) -> int:
    rng = random.Random(args.seed)
    urls = [balancer.url] if balancer else [s.url for s in stack.servers]
    players = []
    for i in range(args.rooms):
        game, options = GAMES[i % len(GAMES)]
        created = create_room(urls[i % len(urls)], game, "cpu", options,
                              "easy" if game != "gin" else "normal")
        players.append(Player(urls, created["room_id"], created["seat_token"],
                              random.Random(rng.getrandbits(32))))
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stop)) for p in players]
    checked = bad = 0
    restart_times, resume_times = [], []
    problems: list[str] = []
    try:
        for kill in range(1, args.kills + 1):
            await asyncio.sleep(rng.uniform(0.5, 3.0))
            victim = rng.randrange(len(stack.servers))
            # Behind the balancer only the victim's clients lose their connection.
            affected = (balancer.connections().get(stack.hosts[victim], 0) if balancer
                        else len(players))
            killed_at = time.monotonic()
            restart_times.append(await asyncio.to_thread(stack.restart, victim, True))
            deadline = time.monotonic() + 60
            while (time.monotonic() < deadline
                   and sum(p.resynced_at > killed_at for p in players) < affected):
                await asyncio.sleep(0.05)
            resume_times.append(max(p.resynced_at for p in players) - killed_at
                                if affected else 0.0)
            results = await asyncio.to_thread(
                lambda: [(p.room_id, check_room(stack.query, p.room_id, p.seen)) for p in players])
            for room_id, problem in results:
                checked += 1
                if problem:
                    bad += 1
                    problems.append(f"kill {kill}, room {room_id}: {problem}")
            print(f"  kill {kill:2d} (process {victim}, {affected} clients): back in "
                  f"{restart_times[-1]:.1f} s, every client resynced {resume_times[-1]:.1f} s "
                  f"after the kill; "
                  f"{sum(1 for _, p in results if p)} bad rooms", flush=True)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    moves = sum(p.seen for p in players)
    errors = {}
    for p in players:
        for code, n in p.errors.items():
            errors[code] = errors.get(code, 0) + n
    print(f"rooms checked {checked} ({args.rooms} rooms x {args.kills} kills); rooms lost or "
          f"corrupted {bad} (target 0); versions played {moves}; games finished "
          f"{sum(p.games for p in players)}; restart mean {sum(restart_times) / len(restart_times):.1f} s "
          f"max {max(restart_times):.1f} s; every client resynced: mean "
          f"{sum(resume_times) / len(resume_times):.1f} s, max {max(resume_times):.1f} s after "
          f"the kill; client errors {errors or 0}; load average {load_average()}", flush=True)
    for problem in problems[:20]:
        print("  " + problem)
    return 1 if bad else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--rooms", type=int, default=60)
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes; more than one: behind HAProxy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 1 <= args.kills <= 200 or not 1 <= args.rooms <= 1000 or not 1 <= args.processes <= 16:
        parser.error("--kills 1..200, --rooms 1..1000, --processes 1..16")
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; load average {load_average()}; {args.rooms} rooms, "
          f"{args.kills} kills, {args.processes} process(es)", flush=True)
    balanced = args.processes > 1
    if balanced:
        ensure_haproxy()
    stack = Stack(f"cardtable_chaos_{secrets.token_hex(3)}", processes=args.processes,
                  balanced=balanced, **FAST_CPU)
    balancer = None
    try:
        if balanced:
            balancer = Balancer(stack.hosts, stack.shared_port, stack.log_dir,
                                allowed_hosts=stack.env["ALLOWED_HOSTS"])
            balancer.wait_up()
        return asyncio.run(chaos(stack, balancer, args))
    finally:
        if balancer is not None:
            balancer.stop()
        stack.close()


if __name__ == "__main__":
    sys.exit(main())
