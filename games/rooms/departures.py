"""Connections that closed in this process, held until the room's row no longer counts them.

A seat counts its open connections per server process (``Seat.conns``), and a connection that
closes must take its count off, or the seat stays "connected" with nobody there and the CPU
never takes it over. That write is a change like any other, under the room's version check,
and the connections of one seat tend to close together (a browser with many tabs quitting, a
network dropping): each used to be its own change, all starting from the same version, so all
but one lost the race each time, and after ``changes.MAX_RETRIES`` the service gave up ("The
room is busy") and the count stayed for good.

So a closing connection only records here which seats it held (``record``: no I/O, nothing
that can fail or be cancelled), and one writer task per room, not tied to any connection,
takes every departure recorded so far off the room's seats in one change
(``service.disconnect``), then the ones recorded meanwhile in the next. Thirty connections of a
seat closing at once are one or two changes, not thirty that race. A write that fails anyway
(the room busy with other changes, the database unreachable) keeps its departures and tries
again after a pause that doubles up to ``LONGEST_PAUSE``, until it lands: nothing ever drops
them. A room that no longer exists has nothing to count.

What this process holds here dies with it, which is what the heartbeat covers: a process that
stops beating has all its connections forgotten by the others' sweep (games/rooms/processes.py).
"""
from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterable

from games.engines.base import GameError
from games.engines.errors import ErrorCode
from games.rooms import service

log = logging.getLogger(__name__)

FIRST_PAUSE = 0.05  # seconds before a failed write is tried again; doubled each time
LONGEST_PAUSE = 5.0


class Departures:
    def __init__(self) -> None:
        self._seats: dict[str, list[int]] = {}  # room id -> a seat per connection closed
        self._writers: dict[str, asyncio.Task[None]] = {}

    def record(self, room_id: str, seats: Iterable[int]) -> None:
        """A connection that held ``seats`` of the room closed. Called on the event loop."""
        seats = list(seats)
        if not seats:
            return
        self._seats.setdefault(room_id, []).extend(seats)
        writer = self._writers.get(room_id)
        loop = asyncio.get_running_loop()
        if writer is None or writer.done() or writer.get_loop() is not loop:
            self._writers[room_id] = loop.create_task(self._write(room_id))

    def waiting(self) -> int:
        """Departures recorded and not yet written (tests and benches read it)."""
        return sum(len(seats) for seats in self._seats.values())

    async def _write(self, room_id: str) -> None:
        pause = FIRST_PAUSE
        try:
            while room_id in self._seats:
                seats = self._seats.pop(room_id)
                try:
                    await service.disconnect.on_loop(room_id, seats)
                except GameError as exc:
                    if exc.code == ErrorCode.ROOM_NOT_FOUND:
                        continue
                    self._seats.setdefault(room_id, []).extend(seats)
                except Exception:
                    log.exception("could not record closed connections; trying again")
                    self._seats.setdefault(room_id, []).extend(seats)
                else:
                    pause = FIRST_PAUSE
                    continue
                await asyncio.sleep(pause * random.uniform(0.5, 1.5))  # writers of other processes spread out
                pause = min(pause * 2, LONGEST_PAUSE)
        finally:
            if self._writers.get(room_id) is asyncio.current_task():
                del self._writers[room_id]


departures = Departures()
