"""How a room's connections learn that it changed: one notice per server process, not one per
connection.

A change made in this process is handed to this process's connections of the room at once
(``publish``). With Redis configured (production: several server processes), the notice is
also published on the room's Redis pub/sub channel, to which each process subscribes while
any of its connections watch the room; a process skips the notices it published itself. A
notice carries only the process and the new version: each connection builds its own view
from the room's snapshot, so nothing hidden ever travels through Redis.

Why not a Channels group with one member per connection (Channels' usual pattern): every
change then cost a Redis delivery, a receive and a dispatch for every connection of the room,
the actor's included, and the channel layer's polling receive costs several Redis commands a
message. That was most of the rooms' CPU in bench/ws_load.py; a pub/sub notice costs one
PUBLISH, and nothing at all for the connections of the process that made the change.

When the Redis connection fails (Redis restarted), notices from other processes may have been
missed, so the listener closes every connection of this process, as a server restart would:
clients reconnect, watch again (which subscribes again) and resync from their last version
(docs/protocol.md). Without Redis (the embedded default: one process) nothing leaves the
process.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Protocol

import redis.asyncio as aioredis
from django.conf import settings
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from games.rooms.service import PROCESS_ID

log = logging.getLogger(__name__)

SERVICE_RESTART = 1012  # WebSocket close code: "the service is restarting; reconnect"


class Watcher(Protocol):
    def notice(self, version: int) -> None: ...

    async def close(self, code: int | None = None) -> None: ...


class Fanout:
    def __init__(self, process_id: str):
        self.process_id = process_id
        self._loop: asyncio.AbstractEventLoop | None = None

    def _for_this_loop(self) -> None:
        """Fresh state per event loop: tests run one loop after another in one process."""
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        self._loop = loop
        self._watchers: dict[str, set[Watcher]] = {}
        self._subscribed: set[str] = set()
        self._membership = asyncio.Lock()  # subscriptions change in the order they were asked
        self._redis: aioredis.Redis | None = None
        self._pubsub: PubSub | None = None
        self._listener: asyncio.Task[None] | None = None
        self._publishing: set[asyncio.Task[None]] = set()

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

    def publish(self, room_id: str, version: int, origin: Watcher | None = None) -> None:
        """A committed change: this process's watchers (but ``origin``, which answers for
        itself) hear of it now; the other processes through Redis, published in the
        background so that nobody here waits for it. Notices only carry a version and a
        connection always sends the newest state, so two notices that overtake each other on
        the way do no harm."""
        self._for_this_loop()
        self._deliver(room_id, version, skip=origin)
        if settings.REDIS_URL is None:
            return  # one process only: nobody else to tell
        task = asyncio.create_task(self._publish(room_id, version))
        self._publishing.add(task)
        task.add_done_callback(self._publishing.discard)

    def _deliver(self, room_id: str, version: int, skip: Watcher | None = None) -> None:
        for watcher in list(self._watchers.get(room_id, ())):
            if watcher is not skip:
                watcher.notice(version)

    # ---- Redis --------------------------------------------------------------------------------

    def _client(self) -> aioredis.Redis:
        if self._redis is None:
            # No silent retries: a failure must reach the listener, which then makes every
            # connection resync (a notice may have been lost while Redis was away).
            self._redis = aioredis.Redis.from_url(settings.REDIS_URL, retry=Retry(NoBackoff(), 0))
            # Pub/sub channels are shared by every database of a Redis server: name the database.
            db = self._redis.connection_pool.connection_kwargs.get("db", 0)
            self._prefix = f"cardtable:{db}:room:"
        return self._redis

    def _channel(self, room_id: str) -> str:
        self._client()
        return self._prefix + room_id

    async def _publish(self, room_id: str, version: int) -> None:
        try:
            await self._client().publish(self._channel(room_id), f"{self.process_id}:{version}")
        except Exception as exc:
            # Redis is away: every process's listener fails too and has its connections resync.
            # No room id: it is the room's only key, and logs keep none (telemetry/logs.py).
            log.warning("could not tell the other processes about a room's change: %s", exc)

    async def _sync_subscription(self, room_id: str) -> None:
        if settings.REDIS_URL is None:
            return
        async with self._membership:
            wanted = room_id in self._watchers
            if wanted and room_id not in self._subscribed:
                if self._pubsub is None:
                    self._pubsub = self._client().pubsub(ignore_subscribe_messages=True)
                await self._pubsub.subscribe(self._channel(room_id))
                self._subscribed.add(room_id)
                if self._listener is None:
                    self._listener = asyncio.create_task(self._listen(self._pubsub))
            elif not wanted and room_id in self._subscribed:
                assert self._pubsub is not None, "a subscribed room has its pub/sub"
                self._subscribed.discard(room_id)
                await self._pubsub.unsubscribe(self._channel(room_id))

    async def _listen(self, pubsub: PubSub) -> None:
        prefix_length = len(self._prefix)
        while True:
            try:
                message = await pubsub.get_message(timeout=None)
            except Exception as exc:
                log.warning("Redis pub/sub failed (%s); closing this process's room connections "
                            "so that they reconnect and resync", exc)
                await self._start_over(pubsub)
                return
            if message is None or message.get("type") != "message":
                continue
            origin, _, version = message["data"].decode().partition(":")
            if origin != self.process_id:
                self._deliver(message["channel"].decode()[prefix_length:], int(version))

    async def _start_over(self, pubsub: PubSub) -> None:
        if self._pubsub is not pubsub:
            return
        watchers = [w for ws in self._watchers.values() for w in ws]
        self._watchers.clear()
        self._subscribed.clear()
        self._pubsub, self._listener = None, None
        try:
            await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
        except Exception:
            pass  # the connection is broken already
        for watcher in watchers:
            await watcher.close(code=SERVICE_RESTART)


fanout = Fanout(PROCESS_ID)
