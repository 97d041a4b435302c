"""Health checks for the balancer, docker-compose and operators.

``GET /healthz/live``: the process answers (nothing else is checked: a process that answers
this but not ``ready`` should be left alone, not restarted).

``GET /healthz/ready``: the process can serve rooms now: the database answers a query, the
rooms' Redis link (games/rooms/fanout.py, when REDIS_URL is set) answers a PING, and the
rooms' scheduler loop (games/rooms/scheduler.py) finished a pass lately. 503 when any of them
fails, with each check's state in the body. ``GET /healthz`` is the same check (the name the
balancer and operators used first).
"""
import asyncio

from django.conf import settings
from django.db import connection
from django.http import JsonResponse

from games.rooms import db
from games.rooms.fanout import fanout
from games.rooms.scheduler import scheduler

CHECK_TIMEOUT = 3.0
# A poll pass that has not finished for this long means the scheduler is stuck: no CPU moves,
# no takeovers. A pass takes about a second (POLL_SECONDS) and more under load.
SCHEDULER_STALLED_AFTER = 30.0


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        return False
    finally:
        connection.close_if_unusable_or_obsolete()


async def check_database() -> dict:
    # On the rooms' database thread and its kept connection: under ASGI, sync_to_async runs a
    # request's database work in a thread of that request's own, whose connection then stays
    # open until the garbage collector finds it, and the balancer checks every process every
    # second (deploy/haproxy.cfg): PostgreSQL ran out of connections within a minute.
    try:
        ok = await asyncio.wait_for(db.call(_database_ok), CHECK_TIMEOUT)
    except TimeoutError:
        ok = False
    return {"ok": ok, "vendor": connection.vendor}


async def check_redis() -> dict:
    """The link the rooms' notices travel on; without REDIS_URL (one process) there is none."""
    if settings.REDIS_URL is None:
        return {"ok": True, "used": False}
    return {"ok": await fanout.reachable(CHECK_TIMEOUT), "used": True}


def check_scheduler() -> dict:
    since = scheduler.seconds_since_pass()
    return {"ok": since is not None and since < SCHEDULER_STALLED_AFTER,
            "seconds_since_pass": None if since is None else round(since, 1)}


async def live(request):
    """GET /healthz/live: 200 while the process answers."""
    return JsonResponse({"status": "ok"})


async def ready(request):
    """GET /healthz/ready (and /healthz): 200 when the database, the Redis link and the
    scheduler are all well, else 503."""
    database, redis = await asyncio.gather(check_database(), check_redis())
    checks = {"database": database, "redis": redis, "scheduler": check_scheduler()}
    ok = all(check["ok"] for check in checks.values())
    return JsonResponse({"status": "ok" if ok else "unavailable", **checks}, status=200 if ok else 503)
