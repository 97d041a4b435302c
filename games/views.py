from django.http import JsonResponse
from django.shortcuts import render

from . import health
from .catalog import GAMES


def home(request):
    return render(request, "home.html", {"games": GAMES})


async def healthz(request):
    database = await health.check_database()
    channel_layer = await health.check_channel_layer()
    ok = database["ok"] and channel_layer["ok"]
    return JsonResponse(
        {"status": "ok" if ok else "unavailable", "database": database, "channel_layer": channel_layer},
        status=200 if ok else 503,
    )
