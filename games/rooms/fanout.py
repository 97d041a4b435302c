"""How a room's connections learn that it changed: one notice per server process, not one per
connection.

A change made in this process is handed to this process's connections of the room at once
(``notify``). With Redis configured (production: several server processes), the notice is
also published on the room's Redis pub/sub channel, to which each process subscribes while
any of its connections watch the room; a process skips the notices it published itself. A
notice carries only the process and the new version: each connection builds its own view
from the room's entry in its process's cache (cache.py), so nothing hidden ever travels
through Redis.

A room whose watchers all sit in one process (one process alone, or a balancer that sends a
room's players to one process) needs no Redis at all: its notices would only come back to
their sender. So a process publishes nothing for a room it watches once Redis said that nobody
else listens: PUBLISH answers how many subscribers got the notice, and 1 (this process) makes
the room "alone". Another process that starts watching the room announces itself (a notice of
version 0, published once Redis confirmed its subscription, so every later PUBLISH counts it);
whoever hears it publishes again, starting with the newest version it kept to itself. An
answer of 1 only counts while no announcement came in since its PUBLISH was sent, and only
for a subscription Redis has confirmed, so no process ever goes quiet towards one that
listens: the PUBLISH and reading one's own notice back were a tenth of a move's CPU
(bench/results/2026-11-30-cpu-per-move.md). The notices travel on two links of this module's own
(games/rooms/redis_link.py: why not redis-py's client is said there), opened when first needed.

Why not a Channels group with one member per connection (Channels' usual pattern): every
change then cost a Redis delivery, a receive and a dispatch for every connection of the room,
the actor's included, and the channel layer's polling receive costs several Redis commands a
message. That was most of the rooms' CPU (bench/results/2026-11-30-one-process-on-two-cores.md);
a pub/sub notice costs one PUBLISH, and nothing at all for the connections of the process that
made the change.

When the subscriber's connection fails (Redis restarted), notices from other processes may have
been missed, so the fanout closes every connection of this process, as a server restart would:
clients reconnect, watch again (which subscribes again) and resync from their last version
(docs/protocol.md). Without Redis (the embedded default: one process) nothing leaves the
process.

The scheduler's loop calls ``keep_alive`` every heartbeat: each open link is PINGed (and closed
when its previous PING went unanswered, games/rooms/redis_link.py), and a lost publisher is
opened again, so a Redis that comes back is used again without waiting for a change. The
readiness check (games/health.py) asks ``reachable``: one PING on the publisher's link.
"""
from __future__ import annotations

import asyncio
import functools
import itertools
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

import hiredis
from django.conf import settings

from games.rooms import redis_link
from games.rooms.processes import PROCESS_ID
from games.rooms.redis_link import LinkLost, RedisLink

log = logging.getLogger(__name__)

# WebSocket close code: "the service restarted; reconnect and resync". Not the standard 1012:
# autobahn (Daphne's WebSocket layer) sends no close code but 1000 and 3000-4999.
SERVICE_RESTART = 4012
ANNOUNCE = 0  # the version of a notice that says "this process watches the room now"


class Watcher(Protocol):
    def notice(self, version: int) -> None: ...

    async def close(self, code: int | None = None) -> None: ...


class Fanout:
    def __init__(self, process_id: str):
        self.process_id = process_id
        self._origin = process_id.encode()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _for_this_loop(self) -> None:
        """Fresh state per event loop: tests run one loop after another in one process."""
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        if self._loop is not None:
            for link in (self._publisher, self._subscriber):
                if link is not None:
                    link.close()
        self._loop = loop
        self._watchers: dict[str, set[Watcher]] = {}
        self._stamp_counter = itertools.count(1)
        self._membership = asyncio.Lock()  # subscriptions change in the order they were asked
        self._opening_publisher = asyncio.Lock()
        self._publisher: RedisLink | None = None  # PUBLISH
        self._subscriber: RedisLink | None = None  # SUBSCRIBE and what Redis sends for it
        self._publishing: set[asyncio.Task[None]] = set()
        self._forget_subscriptions()

    def _forget_subscriptions(self) -> None:
        self._subscribed: set[str] = set()
        self._unconfirmed: dict[str, int] = {}  # (un)subscribe requests Redis has not answered
        # A confirmed subscription's stamp, new whenever another process announces itself: a
        # PUBLISH's count of 1 proves the room alone only if the stamp did not change meanwhile.
        self._stamps: dict[str, int] = {}
        self._alone: set[str] = set()  # rooms no other process watches: nothing is published
        self._unsent: dict[str, int] = {}  # an alone room's newest version, not published

    async def watch(self, room_id: str, watcher: Watcher) -> None:
        """From now on ``watcher.notice(version)`` is called for every change of the room."""
        self._for_this_loop()
        self._watchers.setdefault(room_id, set()).add(watcher)
        try:
            await self._sync_subscription(room_id)
        except BaseException:
            await self.unwatch(room_id, watcher)  # Redis is away: this connection fails
            raise

    async def unwatch(self, room_id: str, watcher: Watcher) -> None:
        self._for_this_loop()
        watchers = self._watchers.get(room_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[room_id]
        await self._sync_subscription(room_id)

    def notify(self, room_id: str, version: int) -> None:
        """A committed change: this process's watchers (the connection that made it among them:
        it takes the notice once it has answered, games/consumers.py) hear of it now; the other
        processes through Redis, without anybody here waiting for Redis's answer. Notices only
        carry a version and a connection always sends the newest state, so two notices that
        overtake each other on the way do no harm."""
        self._for_this_loop()
        self._deliver(room_id, version)
        if settings.REDIS_URL is None:
            return  # one process only: nobody else to tell
        if room_id in self._alone:
            self._unsent[room_id] = max(version, self._unsent.get(room_id, 0))
            return
        self._publish(room_id, version)

    def _in_background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coroutine)
        self._publishing.add(task)
        task.add_done_callback(self._publishing.discard)

    def _deliver(self, room_id: str, version: int) -> None:
        for watcher in list(self._watchers.get(room_id, ())):
            watcher.notice(version)

    # ---- Redis --------------------------------------------------------------------------------

    def _channel(self, room_id: str) -> bytes:
        # Pub/sub channels are shared by every database of a Redis server: name the database.
        return f"cardtable:{redis_link.database(settings.REDIS_URL)}:room:{room_id}".encode()

    def _publish(self, room_id: str, version: int) -> None:
        """PUBLISH the notice now when the link is open (one write: no task, no waiting);
        otherwise once it is."""
        link = self._publisher
        if link is None or link.lost:
            self._in_background(self._publish_once_open(room_id, version))
            return
        try:
            answer = link.request(b"PUBLISH", self._channel(room_id), b"%s:%d" % (self._origin, version))
        except LinkLost as exc:
            self._not_published(exc)
            return
        answer.add_done_callback(functools.partial(self._published, room_id, self._stamps.get(room_id)))

    async def _publish_once_open(self, room_id: str, version: int) -> None:
        try:
            await self._open_publisher()
        except LinkLost as exc:
            self._not_published(exc)
            return
        self._publish(room_id, version)

    async def _open_publisher(self) -> RedisLink:
        async with self._opening_publisher:
            if self._publisher is None or self._publisher.lost:
                self._publisher = await RedisLink.open(settings.REDIS_URL)
            return self._publisher

    def keep_alive(self) -> None:
        """PING each open link (one whose last PING went unanswered is closed instead) and open
        the publisher again if it was lost. Every few seconds, from the scheduler's loop."""
        self._for_this_loop()
        if settings.REDIS_URL is None:
            return
        for link in (self._publisher, self._subscriber):
            if link is not None and not link.lost:
                link.ping()
        if self._publisher is None or self._publisher.lost:
            self._in_background(self._reopen_publisher())

    async def _reopen_publisher(self) -> None:
        try:
            await self._open_publisher()
        except LinkLost:
            pass  # Redis is still away: the next keep_alive tries again, and readiness says so

    async def reachable(self, timeout: float) -> bool:
        """Redis answers a PING on this process's publishing link (opened if needed) in time."""
        self._for_this_loop()
        try:
            link = await asyncio.wait_for(self._open_publisher(), timeout)
            return bool(await asyncio.wait_for(link.request(b"PING"), timeout) == b"PONG")
        except (ConnectionError, TimeoutError, hiredis.ReplyError):  # LinkLost is a ConnectionError
            return False

    def links_open(self) -> dict[str, bool]:
        """Whether each link is open now (the publisher's is kept open; the subscriber's while
        a connection of this process watches a room)."""
        if self._loop is None:
            return {"publisher": False, "subscriber": False}
        return {name: link is not None and not link.lost
                for name, link in (("publisher", self._publisher), ("subscriber", self._subscriber))}

    def watchers(self) -> int:
        """The connections of this process that watch a room now."""
        return sum(map(len, self._watchers.values())) if self._loop is not None else 0

    def _published(self, room_id: str, stamp: int | None, answer: asyncio.Future[Any]) -> None:
        if answer.cancelled():
            return
        if (exc := answer.exception()) is not None:
            self._not_published(exc)
        elif stamp is not None and answer.result() <= 1 and self._stamps.get(room_id) == stamp:
            self._alone.add(room_id)  # only this process heard it

    @staticmethod
    def _not_published(exc: BaseException) -> None:
        # Redis is away: every process's subscriber fails too and has its connections resync.
        # No room id: it is the room's only key, and logs keep none (telemetry/logs.py).
        log.warning("could not tell the other processes about a room's change: %s", exc)

    def _confirmed(self, room_id: str) -> None:
        """Redis answered a (un)subscribe request of the room; once it has answered them all
        and the room is watched, every PUBLISH from now on counts this process: announce it."""
        left = self._unconfirmed.get(room_id, 0) - 1
        if left > 0:
            self._unconfirmed[room_id] = left
            return
        self._unconfirmed.pop(room_id, None)
        if room_id in self._subscribed and room_id not in self._stamps:
            self._stamps[room_id] = next(self._stamp_counter)
            self._publish(room_id, ANNOUNCE)

    def _another_process_watches(self, room_id: str) -> None:
        self._alone.discard(room_id)
        if room_id in self._stamps:
            self._stamps[room_id] = next(self._stamp_counter)
        unsent = self._unsent.pop(room_id, None)
        if unsent is not None:
            self._publish(room_id, unsent)

    def _requested(self, room_id: str) -> None:
        self._unconfirmed[room_id] = self._unconfirmed.get(room_id, 0) + 1

    async def _sync_subscription(self, room_id: str) -> None:
        if settings.REDIS_URL is None:
            return
        async with self._membership:
            wanted = room_id in self._watchers
            if wanted and room_id not in self._subscribed:
                if self._subscriber is None:
                    self._subscriber = await RedisLink.open(settings.REDIS_URL, self._heard, self._subscriber_lost)
                self._subscriber.send(b"SUBSCRIBE", self._channel(room_id))
                self._requested(room_id)
                self._subscribed.add(room_id)
            elif not wanted and room_id in self._subscribed:
                assert self._subscriber is not None, "a subscribed room has its subscriber"
                self._subscribed.discard(room_id)
                self._stamps.pop(room_id, None)
                self._alone.discard(room_id)
                unsent = self._unsent.pop(room_id, None)
                if unsent is not None:  # someone may have started listening unannounced yet
                    self._publish(room_id, unsent)
                self._subscriber.send(b"UNSUBSCRIBE", self._channel(room_id))
                self._requested(room_id)

    def _heard(self, reply: list[bytes]) -> None:
        """What Redis sent the subscriber: a (un)subscription's confirmation or a notice."""
        kind, channel, data = reply
        room_id = channel.decode().rpartition(":room:")[2]
        if kind in (b"subscribe", b"unsubscribe"):
            self._confirmed(room_id)
            return
        origin, _, version = data.partition(b":")
        if origin == self._origin:
            return
        if int(version) == ANNOUNCE:
            self._another_process_watches(room_id)
        else:
            self._deliver(room_id, int(version))

    def _subscriber_lost(self, link: RedisLink, exc: Exception | None) -> None:
        if self._subscriber is not link:
            return  # a link of an earlier event loop, closed on purpose
        log.warning("Redis pub/sub failed (%s); closing this process's room connections "
                    "so that they reconnect and resync", exc or "connection closed")
        watchers = [w for ws in self._watchers.values() for w in ws]
        self._watchers.clear()
        self._forget_subscriptions()
        self._subscriber = None
        self._in_background(self._close_all(watchers))

    def close_every_connection(self) -> None:
        """Closes every room connection of this process (SERVICE_RESTART): their clients reconnect, and
        are counted in their seats again (this process was declared dead, processes.py)."""
        self._for_this_loop()
        self._in_background(self._close_all([w for ws in self._watchers.values() for w in ws]))

    @staticmethod
    async def _close_all(watchers: list[Watcher]) -> None:
        for watcher in watchers:
            await watcher.close(code=SERVICE_RESTART)


fanout = Fanout(PROCESS_ID)
