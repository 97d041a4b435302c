"""Under a server that sends the ASGI lifespan (uvicorn, Granian: bench/ws_load.py --server), the
rooms' scheduler starts at its startup, before any visitor, and the lifespan is answered by the
wrapper (the router inside knows no lifespan scope); connections and requests still start it
where no lifespan came (Daphne)."""
from __future__ import annotations

import asyncio

from games.rooms import scheduler as scheduler_module
from games.rooms.scheduler import with_scheduler


class Starts:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> None:
        self.count += 1


async def test_the_lifespan_startup_starts_the_scheduler_and_is_answered(monkeypatch):
    starts = Starts()
    monkeypatch.setattr(scheduler_module.scheduler, "ensure_started", starts)
    inner_scopes = []

    async def inner(scope, receive, send):
        inner_scopes.append(scope["type"])

    incoming: asyncio.Queue[dict] = asyncio.Queue()
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    app = with_scheduler(inner)
    lifespan = asyncio.create_task(app({"type": "lifespan"}, incoming.get, send))
    await incoming.put({"type": "lifespan.startup"})
    async with asyncio.timeout(5):  # a wrapper that does not answer fails here
        while not sent and not lifespan.done():
            await asyncio.sleep(0.01)
    assert sent == [{"type": "lifespan.startup.complete"}]
    assert starts.count == 1
    await incoming.put({"type": "lifespan.shutdown"})
    await asyncio.wait_for(lifespan, 5)
    assert sent[-1] == {"type": "lifespan.shutdown.complete"}
    assert inner_scopes == []


async def test_a_request_without_a_lifespan_starts_the_scheduler(monkeypatch):
    starts = Starts()
    monkeypatch.setattr(scheduler_module.scheduler, "ensure_started", starts)
    inner_scopes = []

    async def inner(scope, receive, send):
        inner_scopes.append(scope["type"])

    await with_scheduler(inner)({"type": "http"}, None, None)
    assert starts.count == 1
    assert inner_scopes == ["http"]
