"""Plays a game over the real rooms protocol (docs/protocol.md) with one of the site's CPUs.

    python -m games.bot --server http://127.0.0.1:8000 --game gin --level hard --options target=50
    python -m games.bot --server http://127.0.0.1:8000 --game memory --room <room id>

Without --room it creates a room (mode ``cpu`` unless --mode says otherwise) and plays seat 0
against the server's CPU; with --room it joins a friends room (a free seat, or a seat the CPU is
playing). It prints what happens and the result. Only the bot's own seat's views reach its CPU,
exactly as the server feeds its own CPUs, so the bot knows no more than a person would.
Needs no Django settings or database: just the ``websockets`` package, the game specs
(games/specs.py: the games, their CPU modules and default levels) and the CPU modules.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import json
import random
import sys
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

import websockets
from websockets.typing import Origin

from config.env import env_positive_float
from games import specs

MESSAGES_PER_SECOND = 18  # the server refuses more than 20
PACES = ("relaxed", "normal", "quick")  # a friends room's pace (docs/protocol.md, "Pace")


def others_wait() -> float:
    """How long the bot waits for the others' next move before it gives up: past a relaxed
    room's two minutes of silence, after which another player may let the CPU play (and past
    any turn's clock), scaled by ``PACE_SCALE`` as the server scales them; never under 2 min."""
    return max(120.0, 180.0 * env_positive_float("PACE_SCALE", 1.0))


class ProtocolError(Exception):
    def __init__(self, message: dict):
        super().__init__(f"{message.get('code')}: {message.get('message')}")
        self.code = message.get("code")
        self.error = message


def create_room(server: str, game: str, mode: str = "cpu", options: dict | None = None,
                cpu_level: str | None = None, origin: str | None = None,
                seed: int | None = None, pace: str | None = None) -> dict:
    body: dict[str, Any] = {"game": game, "mode": mode, "options": options or {}}
    if pace:
        body["pace"] = pace
    if cpu_level:
        body["cpu_level"] = cpu_level
    if origin:
        body["origin"] = origin
    if seed is not None:
        body["seed"] = seed
    request = urllib.request.Request(server.rstrip("/") + "/api/rooms", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        error = json.loads(exc.read() or b"{}").get("error", {})
        raise ProtocolError(error) from None


def ws_url(server: str, room_id: str) -> str:
    parts = urlsplit(server)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws/rooms/{room_id}/"


class Connection:
    """One WebSocket to a room. ``messages`` keeps everything received (tests scan it)."""

    def __init__(self, server: str, room_id: str):
        self.server = server.rstrip("/")
        self.room_id = room_id
        self.ws: websockets.ClientConnection | None = None
        self.messages: list[dict] = []
        self.state: dict[str, Any] = {}  # the newest state message ({} until the first)
        self.token: str | None = None
        self._ids = itertools.count(1)
        self._sent: collections.deque[float] = collections.deque()

    async def open(self, token: str | None = None, last_version: int | None = None) -> dict:
        origin = f"{urlsplit(self.server).scheme}://{urlsplit(self.server).netloc}"
        self.ws = await websockets.connect(ws_url(self.server, self.room_id), origin=Origin(origin),
                                           max_size=2 ** 22)
        self.token = token
        return await self.request("hello", token=token, last_version=last_version)

    async def close(self):
        if self.ws is not None:
            await self.ws.close()

    async def send(self, kind: str, **fields) -> str:
        await self._pace()
        ref = f"c{next(self._ids)}"
        assert self.ws is not None, "open() first"
        await self.ws.send(json.dumps({"type": kind, "id": ref, **fields}))
        return ref

    async def _pace(self):
        """Stays under the server's limit of 20 messages a second (with a margin)."""
        loop = asyncio.get_running_loop()
        while len(self._sent) >= MESSAGES_PER_SECOND:
            wait = self._sent[0] + 1.0 - loop.time()
            if wait <= 0:
                self._sent.popleft()
            else:
                await asyncio.sleep(wait)
        self._sent.append(loop.time())

    async def recv(self, timeout: float = 30.0) -> dict:
        assert self.ws is not None, "open() first"
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(message)
        if message.get("type") == "state":
            if not self.state or message["version"] >= self.state["version"]:
                self.state = message
        elif message.get("type") == "joined":
            self.token = message["token"]
        return message

    async def request(self, kind: str, timeout: float = 30.0, **fields) -> dict:
        """Sends a message and returns its answer (a state, pong...); an error raises."""
        ref = await self.send(kind, **fields)
        while True:
            message = await self.recv(timeout)
            if message.get("ref") != ref or message["type"] in ("joined", "next_room"):
                continue
            if message["type"] == "error":
                raise ProtocolError(message)
            return message

    async def wait_for(self, predicate, timeout: float = 30.0) -> dict:
        """Reads until the latest state satisfies ``predicate(state)``."""
        if self.state and predicate(self.state):
            return self.state
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self.recv(max(0.01, deadline - loop.time()))
            if message.get("type") == "state" and message is self.state and predicate(message):
                return message


def my_turn(state: dict) -> bool:
    """Whether one of this connection's seats has something to do now."""
    room = state["room"]
    return (room["status"] == "playing" and bool(room["you"]["seats"])
            and bool(state["view"]["legal_actions"]))


async def play(conn: Connection, level: str, seed: int = 0, echo=None) -> dict:
    """Plays this connection's seat(s) with the game's CPU until the game is finished; returns
    the final state message."""
    state = conn.state
    game = state["room"]["game"]
    cpu_module = known_spec(game).cpu_module()
    cpus: dict[int, Any] = {}
    rng = random.Random(seed)
    while True:
        state = conn.state
        if state["room"]["status"] == "finished":
            return state
        if my_turn(state):
            view = state["view"]
            seat = view.get("seat")
            if seat not in state["room"]["you"]["seats"]:
                seat = state["room"]["you"]["seats"][0]
            if seat not in cpus:
                cpus[seat] = cpu_module.make_cpu(level, seat, rng.getrandbits(63), state["room"]["options"])
            cpus[seat].observe(view)
            action = cpus[seat].choose(view)
            acted_on = state["version"]
            try:
                answer = await conn.request("action", action=action, seat=seat)
            except ProtocolError as exc:
                # Refused because the room moved on (e.g. the server dealt the next hand just as
                # we asked for it)? Then the newer state is here or on its way: play from it.
                if conn.state["version"] == acted_on:
                    try:
                        await conn.recv(2.0)
                    except TimeoutError:
                        raise exc from None
                if conn.state["version"] == acted_on:
                    raise
                continue
            if echo:
                echo(f"seat {seat}: {json.dumps(action)} -> version {answer['version']}")
            continue
        message = await conn.recv(others_wait())
        if message.get("type") == "state":
            for seat, cpu in cpus.items():
                if seat in message["room"]["you"]["seats"] and message["view"].get("seat") == seat:
                    cpu.observe(message["view"])
            if echo and message.get("event") and message["event"].get("by") == "cpu":
                echo(f"CPU seat {message['event']['seat']}: {json.dumps(message['event']['action'])}")


def parse_option(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"options are key=value, got {text!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


async def main_async(args) -> int:
    echo = (lambda line: print(line, flush=True)) if args.verbose else None
    if args.room:
        conn = Connection(args.server, args.room)
        await conn.open()
        allowed = conn.state["room"]["allowed"]  # what the server lets this connection do
        if allowed.get("join"):
            await conn.request("join")
        elif allowed.get("take_seat"):
            await conn.request("take_seat", seat=allowed["take_seat"][0])
        else:
            print("No seat to take in that room.", file=sys.stderr)
            return 2
        print(f"Joined room {args.room} as seat {conn.state['room']['you']['seats']}", flush=True)
    else:
        created = create_room(args.server, args.game, args.mode, dict(args.options), args.level,
                              seed=args.room_seed, pace=args.pace)
        print(f"Room {created['room_id']} ({args.game}, {args.mode}): {args.server.rstrip('/')}"
              f"{created['invite_url']}", flush=True)
        conn = Connection(args.server, created["room_id"])
        await conn.open(created["seat_token"])
        if args.mode == "friends":
            await conn.request("start")
    try:
        final = await play(conn, args.level or default_level(conn.state["room"]["game"]),
                           args.seed, echo)
    finally:
        await conn.close()
    room = final["room"]
    result = room["result"] or {}
    mine = room["you"]["seats"]
    if result.get("draw") and set(mine) & set(result.get("winners", [])):
        outcome = "draw"
    else:
        outcome = "win" if set(mine) & set(result.get("winners", [])) else "loss"
    print(f"Game over after version {final['version']}: {outcome} for seat(s) {mine}; "
          f"scores {result.get('scores')}; ranking {result.get('ranking')}", flush=True)
    return 0


def known_spec(game: str) -> specs.GameSpec:
    spec = specs.get(game)
    if spec is None:
        raise ValueError(f"No game named {game!r} here.")
    return spec


def default_level(game: str) -> str:
    return known_spec(game).cpu_default


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.bot", description=__doc__.split("\n")[0])
    parser.add_argument("--server", required=True, help="the site, e.g. http://127.0.0.1:8000")
    parser.add_argument("--game", choices=specs.names(), required=True)
    parser.add_argument("--room", help="join this room instead of creating one")
    parser.add_argument("--mode", default="cpu", choices=specs.MODES)
    parser.add_argument("--pace", choices=PACES, help="a friends room's pace (default relaxed)")
    parser.add_argument("--level", help="the CPU level the bot plays with (and the server's CPU)")
    parser.add_argument("--options", nargs="*", type=parse_option, default=[],
                        metavar="KEY=VALUE", help="game options, e.g. target=50 players=3")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bot's own CPU")
    parser.add_argument("--room-seed", type=int,
                        help="create a seeded (reproducible) room: DEBUG servers or staff only")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every move")
    return parser


def main(argv=None) -> int:
    args = argument_parser().parse_args(argv)
    try:
        return asyncio.run(main_async(args))
    except ProtocolError as exc:
        print(f"Refused: {exc}", file=sys.stderr)
        return 1
    except (OSError, websockets.exceptions.WebSocketException) as exc:
        print(f"Connection failed: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
