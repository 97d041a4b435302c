"""Shared by the rooms tests: small game options, playing rooms to the end over real WebSockets,
a scanner that replays a room from its seed and public events to know, at every version,
which cards each seat must not see, PostgreSQL's protocol trace of a test's connection, a
room connection as games/rooms/fanout.py sees one (``Watcher``), and every timed step at once."""
from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import tempfile

from games import specs
from games.bot import Connection, ProtocolError, create_room, play  # noqa: F401
from games.engines import gin

# Small games keep the suite quick (the engines' smallest sensible options).
SMALL_OPTIONS = {
    "memory": {"players": 2, "cards": 24},
    "bozu": {"players": 2},
    "gin": {"target": 25},
}
LEVEL = {"memory": "medium", "bozu": "easy", "gin": "normal"}


def options(game: str, **extra) -> dict:
    return {**SMALL_OPTIONS[game], **extra}


def steps_at_once(settings) -> None:
    """Every timed step due at once: each game's delays (a CPU's move, Memory's conceal, Gin's next
    hand, which then comes by itself) overridden in ``GAME_DELAYS``, and the rooms' own timing."""
    settings.GAME_DELAYS = {f"{spec.name}_{name}": 0.0 for spec in specs.all_specs()
                            for name in ("cpu", *dict(spec.delays.steps))}
    settings.GAME_TIMING = {key: 0.0 for key in settings.GAME_TIMING}


async def connect(url: str, room_id: str, token: str | None = None, last_version=None) -> Connection:
    conn = Connection(url, room_id)
    await conn.open(token, last_version)
    return conn


async def play_to_end(connections: list[Connection], watchers: list[Connection] = (),
                      timeout: float = 120) -> list[dict]:
    """Every connection plays its seats with a CPU until the game is finished; watchers
    (spectators) read until they see the end too. Returns each player's final state."""
    async def watch(conn):
        return await conn.wait_for(lambda s: s["room"]["status"] == "finished", timeout)

    players = [play(conn, LEVEL[conn.state["room"]["game"]], seed=i)
               for i, conn in enumerate(connections)]
    finals = await asyncio.wait_for(asyncio.gather(*players, *map(watch, watchers)), timeout)
    return finals[:len(connections)]


async def close_all(*connections):
    for conn in connections:
        await conn.close()


async def expect_error(conn: Connection, kind: str, code: str, **fields) -> dict:
    try:
        answer = await conn.request(kind, **fields)
    except ProtocolError as exc:
        assert exc.code == code, exc.error
        return exc.error
    raise AssertionError(f"{kind} {fields} was accepted: {answer.get('type')}")


# ---- hidden cards -----------------------------------------------------------------------------

# A finished Gin hand is shown with both hands (public then); its cards are dealt again in the
# next hand, so the summary of an earlier hand is no news about the new one. The engine names
# the view's keys that hold them (the contract's EARLIER_DEALS).
EARLIER_HANDS = set(gin.EARLIER_DEALS)


def strings_in(value, out: set | None = None) -> set:
    """Every string (keys included) in a JSON value, except summaries of earlier Gin hands."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            if k not in EARLIER_HANDS:
                strings_in(v, out)
    elif isinstance(value, list):
        for v in value:
            strings_in(v, out)
    return out


def hidden_gin(state, seat):
    """The stock, and the opponent's hand except what it took from the discard pile."""
    hidden = set(state.stock)
    playing = state.phase in ("upcard", "draw", "discard")
    for other in range(2):
        if other != seat and playing:
            hidden |= set(state.hands[other]) - set(state.known_cards(other))
    return hidden


def hidden_bozu(state, seat):
    """Every card still in the deck (its identity and so the deck's order): by poet name."""
    from games.engines.bozu_cards import CARDS
    return {CARDS[p].to_json()["poet"] for p in state.deck} if state.deck else set()


def hidden_memory(state, seat):
    """The identity of every face-down card (unless an identical card is face up or taken).
    In a tie-break round also the round's secrets (its seed, the game's table it set aside);
    the move that laid the round out names a card of the game, public then, maybe in the round."""
    down = set(state.face_down())
    hidden = {card for i, card in enumerate(state.cards) if i in down}
    hidden -= {card for i, card in enumerate(state.cards) if i not in down}
    if state.in_tie_break:
        if state.last and state.last.get("tie_break_round"):
            hidden.discard(state.last["card"])
        hidden |= {"seed", "game_cards", "game_taken_by"}
    return hidden


HIDDEN = {"gin": hidden_gin, "bozu": hidden_bozu, "memory": hidden_memory}


def replay_states(game: str, options_json: dict, seed: int, events: list[dict]) -> dict:
    """State (as an engine State) at each version, rebuilt from the seed and public events."""
    engine = importlib.import_module(f"games.engines.{game}")
    state = engine.new_game(engine.parse_options(options_json), seed)
    states = {}
    for version, event in events:
        if event.get("type") == "action":
            state.apply(event["seat"], event["action"])
        elif event.get("type") == "automatic":
            state.apply_automatic()
        elif event.get("type") in ("play_again", "new_session"):  # a new deal
            break
        states[version] = engine.State.from_json(state.to_json())
    return states


def scan_messages(site, room_id: str, connections: dict) -> int:
    """Checks every state message each connection received against what its seat may know at
    that version; returns how many messages were checked. ``connections``: seat|None -> conn."""
    ((game, options_json, seed),) = site.query(
        "SELECT game, options, seed FROM games_room WHERE id = %s", (room_id,))
    options_json = json.loads(options_json) if isinstance(options_json, str) else options_json
    rows = site.query("SELECT version, event FROM games_roomevent WHERE room_id = %s ORDER BY version",
                      (room_id,))
    events = [(v, json.loads(e) if isinstance(e, str) else e) for v, e in rows]
    states = replay_states(game, options_json, seed, events)
    checked = 0
    for seat, conn in connections.items():
        for message in conn.messages:
            if message.get("type") not in ("state", "error", "joined", "next_room", "pong"):
                raise AssertionError(f"unexpected message type {message.get('type')}")
            if message.get("type") != "state":
                continue
            state = states[message["version"]]
            hidden = HIDDEN[game](state, seat)
            leaked = hidden & strings_in(without_the_reveal(message))
            assert not leaked, f"seat {seat} saw hidden {sorted(leaked)[:5]} at v{message['version']}"
            checked += 1
    return checked


def without_the_reveal(message: dict) -> dict:
    """The message without the decks of a finished game (docs/protocol.md "Fairness"), which
    show every card once nothing is secret; before the end there must be no reveal at all."""
    room = message["room"]
    if room["status"] != "finished":
        assert room["fairness"]["reveal"] is None, f"a reveal before the end at v{message['version']}"
        return message
    return {**message, "room": {**room, "fairness": {**room["fairness"], "reveal": None}}}


@contextlib.contextmanager
def protocol_trace():
    """The messages of this thread's PostgreSQL connection while the block runs, from libpq's
    protocol trace, one line each (direction, length, message type, then its fields)."""
    from django.db import connection
    from psycopg import pq
    connection.ensure_connection()
    pgconn, lines = connection.connection.pgconn, []
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            yield lines
        finally:
            pgconn.untrace()
        trace.seek(0)
        lines.extend(trace)


def message_type(line: str) -> str | None:
    fields = line.split("\t")
    return fields[2] if len(fields) > 2 else None


class Watcher:
    """What games/rooms/fanout.py hands notices to, keeping what it was told."""

    def __init__(self):
        self.notices: list[int] = []
        self.closed_with = None

    def notice(self, version):
        self.notices.append(version)

    async def close(self, code=None):
        self.closed_with = code


async def wait_for(condition, timeout=5.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)
