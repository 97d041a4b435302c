"""What /healthz checks: the database answers a query, the channel layer carries a message."""
import asyncio

from channels.layers import get_channel_layer
from django.db import connection
from django.http import JsonResponse

from games.rooms import db

CHECK_TIMEOUT = 3.0


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


async def check_channel_layer() -> dict:
    layer = get_channel_layer()
    backend = type(layer).__name__
    try:
        channel = await asyncio.wait_for(layer.new_channel(), CHECK_TIMEOUT)
        await asyncio.wait_for(layer.send(channel, {"type": "health.ping"}), CHECK_TIMEOUT)
        message = await asyncio.wait_for(layer.receive(channel), CHECK_TIMEOUT)
        ok = message.get("type") == "health.ping"
    except Exception:
        ok = False
    return {"ok": ok, "backend": backend}


async def healthz(request):
    """GET /healthz: 200 when the database and channel layer both answer, else 503."""
    database = await check_database()
    channel_layer = await check_channel_layer()
    ok = database["ok"] and channel_layer["ok"]
    return JsonResponse(
        {"status": "ok" if ok else "unavailable", "database": database, "channel_layer": channel_layer},
        status=200 if ok else 503,
    )
