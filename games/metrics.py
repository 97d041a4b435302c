"""GET /metrics: this server process's figures in Prometheus's text format, for the operators'
scraper only.

Each web process counts its own and answers for itself, so the scraper targets every web
process (docker-compose: each `web` replica's address on port 8000, found by DNS as the
balancer finds them), never the balancer: `deploy/haproxy.cfg` refuses `/metrics`. A process
answers only a client whose own address (the connection's, never a forwarded header, which a
client writes itself) lies in ``METRICS_ALLOW`` (default: loopback only), and only when the
request came straight to it: one that passed a proxy (it carries ``X-Forwarded-For`` or
``Forwarded``) is refused, since the balancer's address may well lie in an allowed network.
The endpoint sits in front of Django (``with_metrics`` wraps the ASGI application), so a
scraper needs no Host that ``ALLOWED_HOSTS`` names and no HTTPS redirect applies.

What is counted per action stays small: ``timed_action`` (the room consumer's ``_action``)
adds a counter and a histogram observation, ``counted_error`` (its ``_error``) one counter
(bench/metrics_overhead.py measures them). Everything else is read when scraped: open
connections, rooms in memory, the Redis links, the scheduler, the database connections.
"""
from __future__ import annotations

import asyncio
import functools
import ipaddress
import math
import time

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.process_collector import ProcessCollector

from games.rooms import cache, db, loop_db
from games.rooms.fanout import fanout
from games.rooms.scheduler import scheduler

PATH = "/metrics"
PROXY_HEADERS = (b"x-forwarded-for", b"forwarded")

disable_created_metrics()  # no *_created series: a scraper sees a process restart in process_start_time_seconds
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)  # CPU seconds, memory, open files of this process
ACTIONS = Counter("cardtable_actions", "Game actions this process applied for its connections.",
                  registry=REGISTRY)
ACTION_SECONDS = Histogram(
    "cardtable_action_seconds", "From an action's message to the answer sent, on this process.",
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0), registry=REGISTRY)
ERRORS = Counter("cardtable_errors", "Errors sent to room connections, by code (docs/protocol.md).",
                 ["code"], registry=REGISTRY)


def timed_action(handler):
    """The room consumer's action handler, counted and timed when it answers (a refused action
    is counted by its error's code instead)."""
    @functools.wraps(handler)
    async def timed(*args):
        started = time.perf_counter()
        await handler(*args)
        ACTION_SECONDS.observe(time.perf_counter() - started)
        ACTIONS.inc()
    return timed


def counted_error(send_error):
    """The room consumer's error sender, counting each error by its code."""
    @functools.wraps(send_error)
    async def counted(self, code, *args, **fields):
        ERRORS.labels(code).inc()
        await send_error(self, code, *args, **fields)
    return counted


def _gauge(name: str, documentation: str, value: float, labels: dict[str, str] | None = None) -> GaugeMetricFamily:
    gauge = GaugeMetricFamily(name, documentation, labels=list(labels or ()))
    gauge.add_metric(list((labels or {}).values()), value)
    return gauge


class ProcessState:
    """What the process holds now, read at each scrape (nothing is counted per action)."""

    def collect(self):
        yield _gauge("cardtable_room_connections", "Room WebSocket connections open on this process.",
                     fanout.watchers())
        yield _gauge("cardtable_rooms_in_memory", "Rooms whose latest version this process keeps.",
                     cache.rooms_kept())
        links = GaugeMetricFamily("cardtable_redis_link_up", "1 while the rooms' Redis link is open "
                                  "(publisher: kept open; subscriber: while a room is watched).", labels=["link"])
        if settings.REDIS_URL is not None:
            for name, is_open in fanout.links_open().items():
                links.add_metric([name], 1.0 if is_open else 0.0)
        yield links
        since = scheduler.seconds_since_pass()
        yield _gauge("cardtable_scheduler_seconds_since_pass", "Seconds since the rooms' scheduler "
                     "finished a pass (about 1 when well; NaN when it does not run).",
                     math.nan if since is None else since)
        yield from _database_connections()


def _database_connections():
    # The rooms' database threads (games/rooms/db.py) and the event loop's connections for
    # moves (games/rooms/loop_db.py): read from their executor and semaphore, as they stand.
    executor = db.threads._executor
    yield _gauge("cardtable_rooms_db_calls_waiting", "Calls waiting for one of the rooms' database threads.",
                 executor._work_queue.qsize() if executor is not None else 0)
    pool = loop_db._pools.get(asyncio.get_running_loop()) if loop_db.enabled() else None
    yield _gauge("cardtable_loop_db_statements_running", "Statements running on the event loop's own "
                 "PostgreSQL connections.", loop_db.size() - pool._slots._value if pool is not None else 0)
    # Django's pool of PostgreSQL connections for pages and tasks (config/env.py), once made.
    django_pool = getattr(type(connections[DEFAULT_DB_ALIAS]), "_connection_pools", {}).get(DEFAULT_DB_ALIAS)
    if django_pool is not None:
        stats = django_pool.get_stats()
        connections_of_pool = GaugeMetricFamily("cardtable_db_pool_connections", "Django's pooled PostgreSQL "
                                                "connections of this process, by state.", labels=["state"])
        connections_of_pool.add_metric(["lent"], stats["pool_size"] - stats["pool_available"])
        connections_of_pool.add_metric(["idle"], stats["pool_available"])
        yield connections_of_pool
        yield _gauge("cardtable_db_pool_max", "The most connections Django's pool opens (DB_POOL_MAX).",
                     stats["pool_max"])
        yield _gauge("cardtable_db_pool_requests_waiting", "Requests waiting for a pooled connection.",
                     stats.get("requests_waiting", 0))


REGISTRY.register(ProcessState())


def allowed(scope) -> bool:
    """The connection itself comes from METRICS_ALLOW, and through no proxy."""
    if scope.get("client") is None or any(name in PROXY_HEADERS for name, _ in scope.get("headers", ())):
        return False
    try:
        address = ipaddress.ip_address(scope["client"][0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in settings.METRICS_ALLOW)


async def _answer(scope, send) -> None:
    if scope["method"] not in ("GET", "HEAD"):
        status, content_type, body = 405, b"text/plain; charset=utf-8", b"GET only.\n"
    elif not allowed(scope):
        status, content_type, body = 403, b"text/plain; charset=utf-8", b"Metrics are read from inside only.\n"
    else:
        status, content_type, body = 200, CONTENT_TYPE_LATEST.encode(), generate_latest(REGISTRY)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


def with_metrics(app):
    """ASGI wrapper: answers GET /metrics itself, hands everything else to ``app``."""

    async def wrapped(scope, receive, send):
        if scope["type"] == "http" and scope["path"] == PATH:
            await _answer(scope, send)
        else:
            await app(scope, receive, send)

    return wrapped
