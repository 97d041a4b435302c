"""A game through the real site, then a search of the database, the application's log and the
server's output for the client's address, the room id and the seat token.

The client connects from 127.0.0.77 (any 127/8 address reaches the loopback on Linux), so its
address is distinctive: the server itself listens on 127.0.0.1. The server runs at
LOG_LEVEL=DEBUG, where Daphne names the client in its own log lines, started as `make run`
starts it (`manage.py serve`).
"""
import asyncio
import http.client
import json
import sqlite3
from urllib.parse import urlsplit

import pytest
import websockets

from games.bot import Connection, play
from tests.live import PROJECT, embedded_env, running_site
from tests.telemetry.helpers import CONTEXT, SETTINGS, new_page

CLIENT = "127.0.0.77"
FAST = {"CPU_DELAY_BOZU_FLIP": "0.002", "CPU_DELAY_MEMORY_FLIP": "0.002", "MEMORY_CONCEAL_DELAY": "0.01",
        "CPU_DELAY_GIN_STEP": "0.002", "GIN_NEXT_HAND_DELAY": "0.01"}


class FromClient(Connection):
    """The rooms bot's connection, opened from the client's own address."""

    async def open(self, token=None, last_version=None):
        parts = urlsplit(self.server)
        self.ws = await websockets.connect(f"ws://{parts.netloc}/ws/rooms/{self.room_id}/",
                                           origin=f"http://{parts.netloc}", local_addr=(CLIENT, 0))
        self.token = token
        return await self.request("hello", token=token, last_version=last_version)


def post(server, path, body, **headers):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(CLIENT, 0))
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json", **headers})
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"null")


@pytest.fixture
def site(tmp_path):
    env = embedded_env(tmp_path, LOG_LEVEL="DEBUG", **FAST)
    with running_site(tmp_path, env) as server:
        yield server, tmp_path / "db.sqlite3"


def database_text(path) -> dict[str, str]:
    """Every row of every table, as text, by table."""
    with sqlite3.connect(path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: "\n".join(map(repr, db.execute(f'SELECT * FROM "{table}"'))) for table in tables}


def test_no_address_room_id_or_seat_token_is_kept_anywhere(site):
    server, db_path = site
    status, room = post(server, "/api/rooms", {"game": "bozu", "mode": "friends", "options": {"players": 2},
                                               "cpu_level": "easy", "origin": "menu"})
    assert status == 201, room
    room_id, token = room["room_id"], room["seat_token"]

    async def game():
        creator = FromClient(server.url, room_id)
        await creator.open(token)
        await creator.request("start")  # the free seat becomes a CPU seat
        final = await asyncio.wait_for(play(creator, "easy"), 60)
        await creator.close()
        return final

    final = asyncio.run(game())
    assert final["room"]["status"] == "finished"

    page = new_page()
    settings = SETTINGS["bozu"] | {"players": 2}
    events = [
        {"type": "room_created", "game": "bozu", "origin": "menu", "outcome": "ok"},
        {"type": "room_step", "game": "bozu", "step": "connect", "outcome": "ok"},
        {"type": "game_start", "game": "bozu", "mode": "friends", "cpu_level": "easy", "settings": settings},
        {"type": "game_end", "game": "bozu", "mode": "friends", "cpu_level": "easy", "settings": settings,
         "result": "win", "move_count": 100, "duration": "<1m"},
        {"type": "room_session", "game": "bozu", "reconnections": 0},
    ]
    status, answer = post(server, "/telemetry/events",
                          {"events": [{**e, "page": page, **CONTEXT} for e in events]},
                          **{"User-Agent": f"Mozilla/5.0 (X11; Linux x86_64) Firefox/127.0 {CLIENT}"})
    assert (status, answer) == (202, {"stored": 5})
    # A request that tries to send the room id is refused, and says so.
    status, answer = post(server, "/telemetry/events",
                          {"events": [{"type": "page_view", "page": page, "room_id": room_id}]})
    assert status == 400 and room_id not in json.dumps(answer)
    # A 404 for a page naming the client is logged by Django (a warning): it must be scrubbed.
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(CLIENT, 0))
    conn.request("GET", f"/no-such-page/{CLIENT}/")
    assert conn.getresponse().status == 404

    # The statistics and the finished game's copy wait in the server's memory for the hourly
    # flush; a server that stops writes them first.
    server.stop()
    tables = database_text(db_path)
    telemetry_rows = tables["telemetry_event"]
    assert telemetry_rows.count("room_created") == 1 and "bozu" in telemetry_rows
    assert "bozu" in tables["games_finishedgame"]
    for table, text in tables.items():
        assert CLIENT not in text, table
        assert token not in text, table
        # The rooms need their own id; nothing else may keep it.
        if not table.startswith("games_"):
            assert room_id not in text, table

    log = server.log()
    assert "HTTP" in log and "[address]" in log  # Daphne's debug lines were written, scrubbed
    assert "Not Found" in log
    for secret in (CLIENT, token):
        assert secret not in log
    assert room_id not in "\n".join(line for line in log.splitlines() if "telemetry" in line)
    # The access log: `make run` and this server start `manage.py serve`, which writes none.
    makefile = (PROJECT / "Makefile").read_text()
    assert "manage.py serve" in makefile
