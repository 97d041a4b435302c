"""Hostile input against a live rooms server: generated WebSocket messages of every bad kind.

    .venv/bin/python bench/fuzz_ws.py [--messages 100000] [--connections 150] [--seed 1]

Starts Daphne (the `make run` command) on PostgreSQL (a database of its own) and Redis db 3,
makes friends rooms of Memory, Bozu Mekuri and Gin Rummy with both seats taken (so each room
has a seat to play and a seat that must wait), then sends ``--messages`` generated messages
over many connections: malformed JSON, binary frames, non-objects, wrong types in every field,
payloads over the 4 KiB limit (and far over), unknown message types, actions out of turn,
illegal and malformed actions, forged tokens, tokens of other rooms replayed, second hellos,
and floods past the 20-a-second limit. A seat holder's connection never sends an action that
is legal for it, so no message should change any game. Prints messages sent, server
exceptions (Tracebacks and errors in the server's log: target 0), connections closed by the
server with an error code, connections answered with an error, and state changes caused
(rooms whose engine state, CPUs or status changed, and events other than presence: target 0).
Ten seconds after the last connection closed it prints the handlers still busy (connections
whose handler Daphne had to kill 10 s after they closed) and the seats still counting a
connection in the database: both target 0.

Then one socket floods (``--flood-seconds``, default 5): a seat holder's connection sends pings
as fast as it can, from a process of its own, while ten other rooms' players ping every 100 ms.
Prints how long the server let the socket flood and how it closed it, the CPU the server
process spent over the flood's seconds less its CPU over as many seconds just before (target:
at most 1 s), and the other rooms' p99 round trip before and during the flood (target: during
within 2x of before). Loopback only.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import secrets
import string
import sys
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rooms_stack import PROJECT, Stack, cpu_seconds, load_average  # noqa: E402

sys.path.insert(0, str(PROJECT))
from games.bot import create_room  # noqa: E402
from games.rooms.messages import MESSAGES  # noqa: E402

GAMES = [("memory", {"players": 2, "cards": 24}), ("bozu", {"players": 2}), ("gin", {})]
SETTLE_SECONDS = 10  # after the last connection closed: Daphne kills a handler still busy then
CLIENT_TYPES = list(MESSAGES)  # every type a client may send (the schema the consumer checks)
PER_CONNECTION = 60  # messages on one connection before it closes and another opens


def junk(rng: random.Random, depth: int = 0):
    """Any JSON value: the wrong type for whatever field it lands in."""
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 1, 2 ** 31, 2 ** 63, -(2 ** 70), 10 ** 30])
    if kind == 3:
        return rng.choice([0.5, -1e308, 1e308, 3.14])
    if kind == 4:
        return "".join(rng.choice(string.printable + "éあ😀\u0000") for _ in range(rng.randrange(40)))
    if kind == 5:
        return rng.choice(["", "A1", "flip", "hello", "../", "%s", "\\u0000", "null"])
    if kind == 6:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {junk_key(rng): junk(rng, depth + 1) for _ in range(rng.randrange(5))}


def junk_key(rng):
    return rng.choice(["type", "pos", "card", "seat", "id", "token", "action", "version",
                       "last_version", "x" * rng.randrange(1, 40), "__proto__", ""])


def bad_action(rng: random.Random, legal: list[dict]) -> object:
    """An action that is never legal: a legal one broken, or junk."""
    if legal and rng.random() < 0.6:
        action = dict(rng.choice(legal))
        key = rng.choice(list(action) + ["extra"])
        choice = rng.randrange(4)
        if choice == 0:
            action[key] = junk(rng)
        elif choice == 1:
            action.pop(key, None)
        elif choice == 2:
            action[key] = "zz" + secrets.token_hex(4)  # no position, card or type is named so
        else:
            action = {"type": "zz" + secrets.token_hex(3), **{k: v for k, v in action.items()
                                                               if k != "type"}}
        if action not in legal:
            return action
    return junk(rng)


class Target:
    """A room with both seats held: ``tokens[seat]``; whose turn it is comes from the view."""

    def __init__(self, room_id, tokens, game):
        self.room_id, self.tokens, self.game = room_id, tokens, game
        self.legal: list[list[dict]] = [[], []]


def message(rng: random.Random, target: Target, other: Target, role: str,
            legal: list[dict]) -> str | bytes:
    """One hostile frame. ``role``: spectator | waiting (holds the seat not to play) |
    playing (holds the seat to play, so only illegal actions)."""
    r = rng.random()
    ident = {"id": rng.choice([f"f{rng.randrange(999)}", junk(rng), "x" * 40])} if rng.random() < 0.5 else {}
    if r < 0.08:
        return rng.choice(['{"type": "ping"', "{'type': 'hello'}", "nul", "[", "\"\\x\"", "{]",
                           "}" * 3, "\x00\x01", "{\"type\": \"action\", \"action\": {" * 30])
    if r < 0.12:
        return rng.randbytes(rng.randrange(1, 300))
    if r < 0.16:
        return json.dumps(junk(rng) if rng.random() < 0.5 else [{"type": "hello"}])
    if r < 0.20:
        size = rng.choice([4097, 5000, 65536, 512 * 1024])
        return json.dumps({"type": "action", "action": {"type": "flip", "pos": "A" * size}})
    if r < 0.26:
        return json.dumps({"type": "zz" + junk_key(rng), **ident})
    if r < 0.34:
        # resign and leave would end or change the game legitimately for a seat holder.
        kinds = CLIENT_TYPES if role == "spectator" else [k for k in CLIENT_TYPES
                                                           if k not in ("resign", "leave")]
        return json.dumps({"type": rng.choice(kinds), junk_key(rng): junk(rng), **ident})
    if r < 0.40:
        token = rng.choice([secrets.token_urlsafe(32), other.tokens[0], "", "x" * 300, junk(rng)])
        return json.dumps({"type": "hello", "token": token, "last_version": junk(rng), **ident})
    if r < 0.48:
        # A seat number that is not one's own (out of turn), or junk seat/version fields.
        return json.dumps({"type": "action", "action": rng.choice(legal) if legal and role != "playing"
                           else bad_action(rng, legal),
                           "seat": rng.choice([0, 1, 2, -1, 99, junk(rng)]),
                           "version": rng.choice([0, 1, 10 ** 9, junk(rng)]), **ident})
    if r < 0.80:
        action = (rng.choice(legal) if legal and role == "waiting" and rng.random() < 0.5
                  else bad_action(rng, legal))
        return json.dumps({"type": "action", "action": action, **ident})
    kind = rng.choice(["join", "take_seat", "start", "play_again", "new_link", "ping", "hello"]
                      + (["leave", "resign"] if role == "spectator" else []))
    fields = {"seat": rng.choice([0, 1, 5, junk(rng)])} if kind == "take_seat" else {}
    return json.dumps({"type": kind, **fields, **ident})


async def fuzz_connection(url, target, other, role, count, rng, stats, flood=False):
    host = url.split("://", 1)[1]
    try:
        ws = await websockets.connect(f"ws://{host}/ws/rooms/{target.room_id}/",
                                      origin=f"http://{host}", max_size=2 ** 22, open_timeout=30,
                                      ping_interval=None)
    except Exception:  # noqa: BLE001 - counted
        stats["connect_failures"] += 1
        return
    answered_error = False
    # Nothing legal is ever sent, so the turn never changes: whose it is was read at setup.
    if role == "spectator":
        kind, legal = "spectator", target.legal[0] + target.legal[1]
    else:
        mine = 0 if role == "seat0" else 1
        kind = "playing" if target.legal[mine] else "waiting"
        legal = target.legal[mine] or target.legal[1 - mine]
    try:
        if role != "spectator":
            await ws.send(json.dumps({"type": "hello", "token": target.tokens[mine]}))
            stats["sent"] += 1
        for _ in range(count):
            await ws.send(message(rng, target, other, kind, legal))
            stats["sent"] += 1
            if not flood:
                await asyncio.sleep(rng.uniform(0.04, 0.07))  # under 20 a second
            while True:  # read what has arrived without waiting
                try:
                    answer = json.loads(await asyncio.wait_for(ws.recv(), 0.001))
                except TimeoutError:
                    break
                if answer.get("type") == "error":
                    answered_error = True
                    stats["errors"][answer["code"]] = stats["errors"].get(answer["code"], 0) + 1
        while True:  # the answers still on their way, until the server falls silent
            try:
                answer = json.loads(await asyncio.wait_for(ws.recv(), 0.3))
            except TimeoutError:
                break
            if answer.get("type") == "error":
                answered_error = True
                stats["errors"][answer["code"]] = stats["errors"].get(answer["code"], 0) + 1
        await ws.close()
    except websockets.ConnectionClosed as exc:
        code = exc.rcvd.code if exc.rcvd else None
        if code not in (1000, 1001, None):
            stats["closed_by_server"][code] = stats["closed_by_server"].get(code, 0) + 1
    finally:
        stats["connections"] += 1
        stats["answered_error"] += answered_error


def room_fingerprint(query, room_id):
    (row,) = query("SELECT state, cpus, status, result, version FROM games_room WHERE id = %s",
                   (room_id,))
    return json.dumps(row[:4], sort_keys=True, default=str), row[4]


async def make_targets(url: str) -> list[Target]:
    from games.bot import Connection

    async def close_all(*conns):
        for conn in conns:
            await conn.close()
    targets = []
    for game, options in GAMES:
        created = create_room(url, game, "friends", options)
        joiner = Connection(url, created["room_id"])
        await joiner.open()
        await joiner.request("join")
        target = Target(created["room_id"], [created["seat_token"], joiner.token], game)
        creator = Connection(url, created["room_id"])
        await creator.open(created["seat_token"])
        target.legal = [creator.state["view"].get("legal_actions") or [],
                        joiner.state["view"].get("legal_actions") or []]
        await close_all(joiner, creator)
        targets.append(target)
    return targets


async def fuzz(urls: list[str], query, log_text, messages: int, connections: int, seed: int) -> dict:
    rng = random.Random(seed)
    targets = await make_targets(urls[0])
    before = {t.room_id: room_fingerprint(query, t.room_id) for t in targets}
    stats = {"sent": 0, "connections": 0, "answered_error": 0, "connect_failures": 0,
             "errors": {}, "closed_by_server": {}}
    limit = asyncio.Semaphore(connections)
    started = time.monotonic()

    async def one(n):
        async with limit:
            target = rng.choice(targets)
            other = rng.choice([t for t in targets if t is not target])
            role = rng.choice(["spectator", "seat0", "seat1", "seat0", "seat1"])
            flood = n % 10 == 0
            await fuzz_connection(urls[n % len(urls)], target, other, role, PER_CONNECTION,
                                  random.Random(rng.getrandbits(32)), stats, flood)

    total = max(1, messages // PER_CONNECTION)
    await asyncio.gather(*(one(n) for n in range(total)))
    elapsed = time.monotonic() - started
    await asyncio.sleep(1.0)  # presence changes of the last connections settle
    changed = 0
    for t in targets:
        fingerprint, version = room_fingerprint(query, t.room_id)
        events = query("SELECT event FROM games_roomevent WHERE room_id = %s AND version > %s",
                       (t.room_id, before[t.room_id][1]))
        kinds = {(json.loads(e) if isinstance(e, str) else e)["type"] for (e,) in events}
        if fingerprint != before[t.room_id][0] or kinds - {"presence"}:
            changed += 1
            print(f"  room {t.room_id} ({t.game}) changed: events {sorted(kinds)}", flush=True)
    log = log_text()
    exceptions = log.count("Traceback") + sum(1 for line in log.splitlines() if " ERROR " in line)
    stats.update(elapsed=elapsed, state_changes=changed, server_exceptions=exceptions)
    return stats


def seats_counting_connections(query) -> int:
    """Seats of every room that the database says have a connection open."""
    return sum(1 for (seats,) in query("SELECT seats FROM games_room")
               for seat in (json.loads(seats) if isinstance(seats, str) else seats) if seat["conns"])


async def settled(query, log_text) -> dict:
    """``SETTLE_SECONDS`` after every connection closed: handlers Daphne found still busy (its
    warning for a connection whose handler it had to kill) and seats still counting one."""
    await asyncio.sleep(SETTLE_SECONDS + 1)
    return {"slow_closes": log_text().count("took too long to shut down"),
            "seats_counting": seats_counting_connections(query)}


# ---- one socket floods ------------------------------------------------------------------------

def _flood(url: str, room_id: str, token: str, seconds: float, results) -> None:
    """In a process of its own (so the flooder's CPU does not slow the other rooms' clients)."""
    async def flood() -> dict:
        host = url.split("://", 1)[1]
        # max_queue=None: the client library reads on while nothing calls recv() (by default it
        # stops reading after 16 unread messages, and would never see the server's close).
        ws = await websockets.connect(f"ws://{host}/ws/rooms/{room_id}/", origin=f"http://{host}",
                                      max_size=2 ** 22, ping_interval=None, max_queue=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.recv()
        sent, started = 0, time.monotonic()
        try:
            while time.monotonic() - started < seconds:
                await ws.send('{"type": "ping"}')
                sent += 1
                if sent % 10 == 0:
                    await asyncio.sleep(0)  # lets the close be read
            await ws.close()
        except websockets.ConnectionClosed:
            pass
        code = ws.close_code  # the server's, when it closed the socket first
        return {"sent": sent, "flooded_for": time.monotonic() - started, "close_code": code}
    results.put(asyncio.run(flood()))


async def _ping_every(url: str, room_id: str, token: str, round_trips: list, stop: asyncio.Event) -> None:
    from games.bot import Connection
    conn = Connection(url, room_id)
    await conn.open(token)
    while not stop.is_set():
        sent = time.monotonic()
        await conn.request("ping")
        round_trips.append((sent, time.monotonic() - sent))
        await asyncio.sleep(0.1)
    await conn.close()


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else float("nan")


async def flood_phase(url: str, pid: int, target: Target, seconds: float) -> dict:
    """The CPU and the other rooms' latency over ``seconds`` of quiet, then ``seconds`` of one
    socket flooding (a holder of ``target``'s seat 1)."""
    others = [create_room(url, "memory", "cpu", {"cards": 24}) for _ in range(10)]
    round_trips: list[tuple[float, float]] = []
    stop = asyncio.Event()
    pingers = [asyncio.create_task(_ping_every(url, o["room_id"], o["seat_token"], round_trips, stop))
               for o in others]
    await asyncio.sleep(1.0)  # every pinger connected
    quiet_from, quiet_cpu = time.monotonic(), cpu_seconds(pid)
    await asyncio.sleep(seconds)
    flood_from, flood_cpu = time.monotonic(), cpu_seconds(pid)
    spawn = multiprocessing.get_context("spawn")
    results = spawn.Queue()
    flooder = spawn.Process(target=_flood, args=(url, target.room_id, target.tokens[1], seconds, results))
    flooder.start()
    await asyncio.sleep(seconds)
    flood_to, flood_end_cpu = time.monotonic(), cpu_seconds(pid)
    flooded = await asyncio.to_thread(results.get, True, 60)
    await asyncio.to_thread(flooder.join, 10)
    stop.set()
    await asyncio.gather(*pingers)
    return {**flooded, "flood_cpu": (flood_end_cpu - flood_cpu) - (flood_cpu - quiet_cpu),
            "p99_before": p99([rtt for at, rtt in round_trips if quiet_from <= at < flood_from]),
            "p99_during": p99([rtt for at, rtt in round_trips if flood_from <= at < flood_to])}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=150, help="at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--flood-seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    if not 1 <= args.messages <= 2_000_000 or not 1 <= args.connections <= 1000:
        parser.error("--messages 1..2000000, --connections 1..1000")
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; load average {load_average()}", flush=True)
    # Seat holders' connections come and go all the time: no CPU takeover meanwhile.
    stack = Stack(f"cardtable_fuzz_{secrets.token_hex(3)}", processes=1,
                  SEAT_TAKEOVER_DELAY="3600")
    urls = [s.url for s in stack.servers]

    def log_text():
        return "".join(s.log() for s in stack.servers)

    async def run() -> tuple[dict, dict]:
        stats = await fuzz(urls, stack.query, log_text, args.messages, args.connections, args.seed)
        stats.update(await settled(stack.query, log_text))
        (target,) = [t for t in await make_targets(urls[0]) if t.game == "gin"]
        flooded = await flood_phase(urls[0], stack.servers[0].process.pid, target, args.flood_seconds)
        flooded.update(await settled(stack.query, log_text))
        return stats, flooded

    try:
        stats, flooded = asyncio.run(run())
    finally:
        stack.close()
    print(f"messages sent {stats['sent']} on {stats['connections']} connections in "
          f"{stats['elapsed']:.0f} s; server exceptions {stats['server_exceptions']} (target 0); "
          f"connections closed by the server with an error code {sum(stats['closed_by_server'].values())} "
          f"{stats['closed_by_server'] or ''}; connections answered with an error "
          f"{stats['answered_error']}; state changes caused {stats['state_changes']} (target 0); "
          f"connect failures {stats['connect_failures']}; load average {load_average()}", flush=True)
    print("error answers by code: " + ", ".join(f"{k} {v}" for k, v in
                                                 sorted(stats["errors"].items(), key=lambda kv: -kv[1])))
    print(f"{SETTLE_SECONDS} s after the run: handlers still busy {stats['slow_closes']} (target 0); seats "
          f"still counting a connection {stats['seats_counting']} (target 0)", flush=True)
    print(f"one socket flooding for {args.flood_seconds:.0f} s: {flooded['sent']} frames sent, closed by the "
          f"server after {flooded['flooded_for']:.2f} s with code {flooded['close_code']}; the flood's CPU "
          f"cost {flooded['flood_cpu']:.2f} s (target at most 1); the other rooms' ping p99 "
          f"{flooded['p99_before'] * 1000:.1f} ms before, {flooded['p99_during'] * 1000:.1f} ms during "
          f"(target within 2x); {SETTLE_SECONDS} s after: handlers still busy {flooded['slow_closes']}, "
          f"seats still counting a connection {flooded['seats_counting']}; load average {load_average()}",
          flush=True)
    failed = (stats["server_exceptions"] or stats["state_changes"] or stats["slow_closes"]
              or stats["seats_counting"] or flooded["seats_counting"] or flooded["flood_cpu"] > 1.0)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
