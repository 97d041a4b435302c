"""A connection to Redis that speaks just what the rooms' notices need (games/rooms/fanout.py):
PUBLISH on one link, SUBSCRIBE and UNSUBSCRIBE on another, over asyncio, the replies parsed by
hiredis (in C).

Why not redis-py's asyncio client, which the cache uses: each of its
commands takes a connection from a pool, checks it for unread data, runs under a retry wrapper
and wakes a task for its reply, and each pub/sub message wakes the listening task through
``get_message``; for a notice of a few bytes that was most of its cost (figures:
bench/results/2026-12-02-redis-links.md).
Here a command is one write to a connection kept open, its reply resolves a future in the
order the commands were written, and a subscription's messages are handed over as they are
parsed, from the protocol's own callback.

A link never reconnects by itself: when its connection ends, every command waiting for a
reply fails with ``LinkLost``, ``on_lost`` is called, and the owner opens a new link (a
subscriber must then resync its connections: notices may have been missed meanwhile).

A link that stays open while Redis is gone (a host or network that vanished without a word) is
found two ways: the kernel's TCP keepalives, and ``ping``, which the owner calls every few
seconds: a link whose previous PING is still unanswered is closed, so ``on_lost`` follows as
for any lost connection. A subscribed link's PING is answered as a push (``["pong", ""]``, or
``PONG`` once it holds no subscription), which the link takes for itself.
"""
from __future__ import annotations

import asyncio
import functools
import socket
import ssl
from collections import deque
from collections.abc import Callable
from typing import Any, cast

import hiredis
from redis.asyncio.connection import parse_url

CONNECT_TIMEOUT = 10.0  # seconds: a Redis that does not answer fails the caller, never hangs it
# TCP keepalive: the first probe after 30 s of silence, then every 10 s, the link lost after 3
# unanswered (Linux's options; elsewhere only SO_KEEPALIVE, with the system's times).
KEEPALIVE = (("TCP_KEEPIDLE", 30), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3))
PONGS = (b"PONG", [b"pong", b""])  # a PING's answer outside and inside subscribed mode


class LinkLost(ConnectionError):
    """The link's connection to Redis ended (or never started)."""


def _command(parts: tuple[bytes, ...]) -> bytes:
    return b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(part), part) for part in parts)


@functools.lru_cache(maxsize=8)
def database(url: str) -> int:
    """The database number a redis:// URL names (pub/sub channels are shared by all of them)."""
    return int(parse_url(url).get("db", 0))


def _tls(options: dict[str, Any]) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=options.get("ssl_ca_certs"))
    if options.get("ssl_cert_reqs") in ("none", ssl.CERT_NONE):
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


class RedisLink(asyncio.Protocol):
    """One connection to Redis. ``request`` writes a command at once and returns the future of
    its reply; replies come in the order the commands went. A reply no command waits for (a
    subscription's confirmations and messages) goes to ``on_push``."""

    def __init__(self, on_push: Callable[[Any], None] | None = None,
                 on_lost: Callable[[RedisLink, Exception | None], None] | None = None):
        self._reader = hiredis.Reader()
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._transport: asyncio.Transport | None = None
        self._on_push, self._on_lost = on_push, on_lost
        self.lost = False
        self._pinged = False  # a PING went and its answer has not come yet

    @classmethod
    async def open(cls, url: str, on_push: Callable[[Any], None] | None = None,
                   on_lost: Callable[[RedisLink, Exception | None], None] | None = None) -> RedisLink:
        """A link to the Redis of ``url`` (redis://, rediss:// or unix://, as REDIS_URL takes
        it; of its options only where and how to connect and log in), logged in if the URL
        says so. Raises ``LinkLost`` (a ConnectionError) when Redis cannot be reached."""
        options: dict[str, Any] = dict(parse_url(url))
        loop = asyncio.get_running_loop()
        link = cls(on_push, on_lost)
        try:
            if "path" in options:
                connecting = loop.create_unix_connection(lambda: link, options["path"])
            else:
                connecting = loop.create_connection(
                    lambda: link, options.get("host", "localhost"), int(options.get("port", 6379)),
                    ssl=_tls(options) if url.startswith("rediss:") else None)
            await asyncio.wait_for(connecting, CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise LinkLost(f"cannot connect to Redis: {exc}") from exc
        if options.get("password") is not None:
            login = (options["username"], options["password"]) if options.get("username") else (options["password"],)
            try:
                await link.request(b"AUTH", *(str(part).encode() for part in login))
            except hiredis.ReplyError as exc:
                link.close()
                raise LinkLost(f"Redis refused the login: {exc}") from exc
        return link

    def request(self, *parts: bytes) -> asyncio.Future[Any]:
        """Send a command; its future gets the reply (hiredis.ReplyError for Redis's error)."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.send(*parts)
        self._waiting.append(answer)
        return answer

    def send(self, *parts: bytes) -> None:
        """Send a command whose reply goes to ``on_push`` (a subscriber's SUBSCRIBE)."""
        if self.lost or self._transport is None:
            raise LinkLost("the connection to Redis is closed")
        self._transport.write(_command(parts))

    def ping(self) -> None:
        """PING Redis; if the previous PING is still unanswered, close the link instead (its
        ``on_lost`` follows). Call it every few seconds."""
        if self._pinged:
            self.close()
            return
        self._pinged = True
        if self._on_push is None:
            self.request(b"PING").add_done_callback(self._ponged)
        else:
            self.send(b"PING")  # answered as a push: taken in data_received

    def _ponged(self, answer: asyncio.Future[Any]) -> None:
        if not answer.cancelled() and answer.exception() is None:
            self._pinged = False

    def close(self) -> None:
        if self._transport is not None and not self.lost:
            try:
                self._transport.close()
            except RuntimeError:
                pass  # its event loop is closed already (tests run one loop after another)

    # ---- asyncio.Protocol ---------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream connection's transport: asyncio's, or uvloop's (which does not subclass
        # asyncio.Transport), so no isinstance check.
        self._transport = cast(asyncio.Transport, transport)
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
            for option, value in KEEPALIVE:
                if hasattr(socket, option):
                    sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        while (reply := self._reader.gets()) is not False:
            if self._waiting:
                answer = self._waiting.popleft()
                if not answer.done():
                    if isinstance(reply, hiredis.ReplyError):
                        answer.set_exception(reply)
                    else:
                        answer.set_result(reply)
            elif self._on_push is not None and self._pinged and reply in PONGS:
                self._pinged = False
            elif self._on_push is not None and not isinstance(reply, hiredis.ReplyError):
                self._on_push(reply)
            else:  # nobody asked for this: the two ends no longer agree on where they are
                self.close()
                return

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        while self._waiting:
            answer = self._waiting.popleft()
            if not answer.done():
                answer.set_exception(LinkLost(f"the connection to Redis ended: {exc or 'closed'}"))
        if self._on_lost is not None:
            self._on_lost(self, exc)
