"""bench/chaos.py at a small scale: rooms of the three games played by reconnecting clients
while the server is SIGKILLed and restarted; after each restart every room is whole (its
version at least what any client saw, events without gaps, the stored state exactly what its
seed and events make) and every client resynced and played on."""
import asyncio
import random
import sys
import time

from tests.hardening.conftest import start_site
from tests.live import PROJECT
from tests.rooms.helpers import create_room

sys.path.insert(0, str(PROJECT / "bench"))
from chaos import FAST_CPU, GAMES, Player, check_room  # noqa: E402


async def test_it_resumes_every_room_after_sigkills(tmp_path):
    site, cleanup = start_site("embedded", tmp_path, **FAST_CPU)
    players = []
    for i in range(6):
        game, options = GAMES[i % len(GAMES)]
        created = create_room(site.url, game, "cpu", options)
        players.append(Player([site.url], created["room_id"], created["seat_token"],
                              random.Random(i)))
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stop)) for p in players]
    try:
        for _ in range(2):
            await asyncio.sleep(1.5)
            before = {p.room_id: p.seen for p in players}
            killed_at = time.monotonic()
            # The new process gets a new port: the players follow it.
            await asyncio.to_thread(site.restart, 0, True)
            for p in players:
                p.urls[:] = [site.url]
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and min(p.resynced_at for p in players) < killed_at:
                await asyncio.sleep(0.05)
            assert min(p.resynced_at for p in players) > killed_at
            for p in players:
                assert check_room(site.query, p.room_id, p.seen) is None
            await asyncio.sleep(1.0)
            assert all(p.seen > before[p.room_id] for p in players)  # play went on
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        cleanup()
    assert not any(p.errors for p in players), [p.errors for p in players]
