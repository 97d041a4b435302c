"""Runs each room's timed steps (CPU moves, Memory's conceal, Gin's next hand, seat takeovers).

The due time of a room's next step is stored in the room row (``Room.due_at``, indexed), so a
step survives a restart. Every server process runs this loop: it wakes on an in-process timer
when one of its own changes sets a due time (the common case, so steps happen on time), and
polls the database every ``POLL_SECONDS`` as the safety net (steps set by another process that
died, or due while every server was down). The same loop writes this process's heartbeat and
sweeps the connections of processes that stopped beating (``steps.sweep``). Two processes
that run the same step at once both compute it but only one can write it: ``steps.run_step``
writes under the version check.
"""
from __future__ import annotations

import asyncio
import logging
import sys
from datetime import datetime
from typing import Any

from asgiref.typing import ASGI3Application, ASGIReceiveCallable, ASGISendCallable, Scope
from django.utils import timezone

from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.rooms import commands, db, processes, registry, steps
from games.rooms.fanout import fanout

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0


class Scheduler:
    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._running: set[str] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._last_pass = 0.0  # the event loop's time when the poll last finished a pass (or began)

    def ensure_started(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None or self._loop is not loop or self._task.done():
            self._loop = loop
            self._timers.clear()
            commands.set_alarm_clock(self.wake_at, loop)
            self._last_pass = loop.time()
            self._task = loop.create_task(self._poll())

    def seconds_since_pass(self) -> float | None:
        """How long ago the poll last finished a pass (about ``POLL_SECONDS`` when all is well:
        more is the scheduler's lag), or None when it does not run in this event loop."""
        loop = asyncio.get_running_loop()
        if self._task is None or self._loop is not loop or self._task.done():
            return None
        return loop.time() - self._last_pass

    def wake_at(self, room_id: str, due_at: datetime) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            return  # no scheduler in this loop (e.g. an in-process test client): polling covers it
        old = self._timers.pop(room_id, None)
        if old:
            old.cancel()
        delay = max(0.0, (due_at - timezone.now()).total_seconds())
        self._timers[room_id] = loop.call_later(
            delay, lambda: loop.create_task(self.run(room_id)))

    async def run(self, room_id: str) -> None:
        """Runs the room's due steps one after another until none is due now."""
        if room_id in self._running:
            return
        self._running.add(room_id)
        self._timers.pop(room_id, None)
        try:
            while True:
                outcome = await steps.run_step.on_loop(room_id)  # announced: its next step is timed
                if not outcome.changed:
                    if outcome.room.due_at is not None:
                        self.wake_at(room_id, outcome.room.due_at)
                    return
                due = outcome.room.due_at
                if due is None or due > timezone.now():
                    return
        except GameError as exc:
            if exc.code != ErrorCode.ROOM_NOT_FOUND:
                log.warning("timed step of a room failed: %s", exc.code)
        except Exception:
            log.exception("timed step of a room failed")
        finally:
            self._running.discard(room_id)

    async def _poll(self) -> None:
        next_beat = 0.0
        loop = asyncio.get_running_loop()
        while True:
            try:
                if loop.time() >= next_beat:
                    next_beat = loop.time() + registry.heartbeat_interval()
                    await self._beat()
                due = await steps.due_rooms.on_loop()
                for room_id, _ in due:
                    if room_id not in self._running:
                        await self.run(room_id)
            except Exception:
                log.exception("scheduler poll failed")
            self._last_pass = loop.time()
            await asyncio.sleep(min(POLL_SECONDS, registry.heartbeat_interval()))

    async def _beat(self) -> None:
        """This process is alive; the connections of processes that stopped beating are gone;
        the links to Redis are PINGed."""
        fanout.keep_alive()
        if await db.call(processes.this_process.heartbeat):
            fanout.close_every_connection()
        for process_id, last_seen in await db.call(processes.dead_processes):
            log.warning("server process %s stopped beating; its connections are gone", process_id)
            await db.call(steps.sweep, process_id, last_seen)


scheduler = Scheduler()


def with_scheduler(app: ASGI3Application) -> ASGI3Application:
    """ASGI wrapper: starts this process's scheduler in the server's event loop at the ASGI
    lifespan's startup where the server sends one (uvicorn, Granian: bench/ws_load.py --server),
    and on every connection or request in case it does not (Daphne sends no lifespan events)
    or runs them in another loop. The lifespan is answered here: nothing inside needs it."""

    async def wrapped(scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        if scope["type"] == "lifespan":
            return await _lifespan(receive, send)
        scheduler.ensure_started()
        return await app(scope, receive, send)

    return wrapped


async def _lifespan(receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            scheduler.ensure_started()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def start_when_reactor_runs() -> None:
    """Under Daphne, also start at boot so that steps due while the server was down happen
    without waiting for a first visitor."""
    if "twisted.internet.reactor" not in sys.modules:
        return
    # The reactor Daphne installed (what ``from twisted.internet import reactor`` gives).
    reactor: Any = sys.modules["twisted.internet.reactor"]
    reactor.callWhenRunning(lambda: reactor.callLater(0, scheduler.ensure_started))
