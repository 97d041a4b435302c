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
Loopback only.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import string
import sys
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rooms_stack import PROJECT, Stack, load_average  # noqa: E402

sys.path.insert(0, str(PROJECT))
from games.bot import create_room  # noqa: E402
from games.rooms.messages import MESSAGES  # noqa: E402

GAMES = [("memory", {"players": 2, "cards": 24}), ("bozu", {"players": 2}), ("gin", {})]
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
    # Daphne's warning for a connection whose handler was still busy 10 s after it closed.
    stats.update(elapsed=elapsed, state_changes=changed, server_exceptions=exceptions,
                 slow_closes=log.count("took too long to shut down"))
    return stats


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=150, help="at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 1 <= args.messages <= 2_000_000 or not 1 <= args.connections <= 1000:
        parser.error("--messages 1..2000000, --connections 1..1000")
    print(f"{time.strftime('%Y-%m-%d %H:%M')}; load average {load_average()}", flush=True)
    # Seat holders' connections come and go all the time: no CPU takeover meanwhile.
    stack = Stack(f"cardtable_fuzz_{secrets.token_hex(3)}", processes=1,
                  SEAT_TAKEOVER_DELAY="3600")
    try:
        stats = asyncio.run(fuzz([s.url for s in stack.servers], stack.query,
                                 lambda: "".join(s.log() for s in stack.servers),
                                 args.messages, args.connections, args.seed))
    finally:
        stack.close()
    print(f"messages sent {stats['sent']} on {stats['connections']} connections in "
          f"{stats['elapsed']:.0f} s; server exceptions {stats['server_exceptions']} (target 0); "
          f"connections closed by the server with an error code {sum(stats['closed_by_server'].values())} "
          f"{stats['closed_by_server'] or ''}; connections answered with an error "
          f"{stats['answered_error']}; state changes caused {stats['state_changes']} (target 0); "
          f"connect failures {stats['connect_failures']}; handlers still busy 10 s after their "
          f"connection closed {stats['slow_closes']}; load average {load_average()}", flush=True)
    print("error answers by code: " + ", ".join(f"{k} {v}" for k, v in
                                                 sorted(stats["errors"].items(), key=lambda kv: -kv[1])))
    return 1 if stats["server_exceptions"] or stats["state_changes"] else 0


if __name__ == "__main__":
    sys.exit(main())
