"""Redis restarted during play: clients reconnect and play on. PostgreSQL unreachable for a
moment (a TCP proxy in front of it that the test cuts): actions are refused with the clear
`unavailable` error and nothing is half-applied; once it is back, play goes on."""
import asyncio
import random
import socket
import subprocess
import sys
import threading
import time

import pytest

from games.bot import ProtocolError
from tests.e2e.conftest import two_process_backends
from tests.hardening.conftest import start_site
from tests.live import PROJECT, free_port
from tests.rooms.helpers import connect, create_room, options

sys.path.insert(0, str(PROJECT / "bench"))
from chaos import Player, check_room  # noqa: E402


class RedisServer:
    """A redis-server of the test's own on a free port (never the machine's shared one)."""

    def __init__(self, tmp_path):
        self.port = free_port()
        self.dir = tmp_path
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


async def test_it_plays_on_after_redis_restarts(tmp_path):
    redis = RedisServer(tmp_path)
    redis.start()
    site, cleanup = start_site("embedded", tmp_path, redis_url=f"redis://127.0.0.1:{redis.port}/0",
                               CPU_DELAY_BOZU_FLIP="0.05", CPU_DELAY_GIN_STEP="0.05")
    players, tasks = [], []
    stop = asyncio.Event()
    try:
        for i, game in enumerate(["bozu", "gin"]):
            created = create_room(site.url, game, "cpu", options(game))
            players.append(Player([site.url], created["room_id"], created["seat_token"],
                                  random.Random(i)))
        tasks += [asyncio.create_task(p.run(stop)) for p in players]
        await asyncio.sleep(1.5)
        connected_at = {p.room_id: p.resynced_at for p in players}
        redis.stop()
        await asyncio.sleep(1.0)
        redis.start()
        seen = {p.room_id: p.seen for p in players}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(p.seen > seen[p.room_id] + 5 for p in players):
            await asyncio.sleep(0.1)
        assert all(p.seen > seen[p.room_id] + 5 for p in players), "play did not go on"
        # Losing Redis closed every room connection (a process no longer hears the others'
        # notices): each client connected again and resynced from its last version.
        assert all(p.resynced_at != connected_at[p.room_id] for p in players)
        for p in players:
            assert check_room(site.query, p.room_id, p.seen) is None
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        cleanup()
        redis.stop()


class CuttableProxy:
    """127.0.0.1:port -> 127.0.0.1:5432, whose connections the test can cut (and refuse)."""

    def __init__(self):
        self.port = free_port()
        self.open = True
        self.conns: list[socket.socket] = []
        self.listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", 5432))
            self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a, b):
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self):
        self.open = False
        for s in self.conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.conns = []

    def restore(self):
        self.open = True

    def close(self):
        self.cut()
        self.listener.close()


@pytest.mark.services
@pytest.mark.skipif("two-processes" not in two_process_backends(), reason="needs PostgreSQL")
async def test_it_refuses_actions_while_postgresql_is_unreachable(tmp_path):
    proxy = CuttableProxy()
    site, cleanup = start_site("two-processes", tmp_path, processes=1,
                               database_url=f"postgres://postgres@127.0.0.1:{proxy.port}/{{name}}")
    # The servers talk through the proxy; the test reads the database directly.
    site.env["DATABASE_URL"] = site.env["DATABASE_URL"].replace(f":{proxy.port}/", ":5432/")
    try:
        created = create_room(site.url, "bozu", "cpu", options("bozu"))
        room_id = created["room_id"]
        red = await connect(site.url, room_id, created["seat_token"])
        await red.wait_for(lambda s: s["view"]["legal_actions"], 10)
        before = site.query("SELECT version, state FROM games_room WHERE id = %s", (room_id,))
        proxy.cut()
        try:
            await red.request("action", action={"type": "flip"})
            raise AssertionError("an action was accepted with the database unreachable")
        except ProtocolError as exc:
            assert exc.code == "unavailable" and "try again" in exc.error["message"]
        assert site.query("SELECT version, state FROM games_room WHERE id = %s",
                          (room_id,)) == before
        assert check_room(site.query, room_id, red.state["version"]) is None
        proxy.restore()
        answer = await red.request("action", action={"type": "flip"})
        assert answer["version"] > before[0][0]
        assert check_room(site.query, room_id, answer["version"]) is None
        await red.close()
    finally:
        cleanup()
        proxy.close()
