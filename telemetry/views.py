import json
import math

from django.conf import settings
from django.http import HttpResponseNotAllowed, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from config.client_address import client_address

from . import schema
from .ingest import accept, limiter
from .optout import user_opted_out


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


# Exempt from CSRF: the page posts with navigator.sendBeacon, which cannot carry the token, and
# the endpoint changes nothing but anonymous counts. Cross-site posts are refused below instead.
@csrf_exempt
def events(request):
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return _error(403, "cross_site", "Statistics are accepted from this site's own pages only.")
    address = client_address(request)
    if not limiter().allow(address):
        response = _error(429, "too_many_requests", "Too many statistics requests; try again later.")
        response["Retry-After"] = str(max(1, math.ceil(limiter().seconds_left(address))))
        return response
    max_body = settings.TELEMETRY["MAX_BODY"]
    try:
        declared = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        return _error(400, "bad_length", "Content-Length must be a number.")
    if declared > max_body or len(request.body) > max_body:
        return _error(413, "too_large", f"The body may hold at most {max_body} bytes.")
    try:
        payload = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nesting too deep
        return _error(400, "malformed_json", "The body must be JSON.")
    try:
        clean, opt_in = schema.validate_batch(payload)
    except schema.SchemaError as exc:
        return _error(400, "invalid_event", str(exc))
    return JsonResponse(accept(request, clean, opt_in), status=202)


def privacy(request):
    return render(request, "telemetry/privacy.html", {
        "fields": schema.describe(),
        "retention_days": settings.TELEMETRY["RETENTION_DAYS"],
        "room_idle_hours": settings.ROOM_CLEANUP["IDLE_HOURS"],
        "account_off": user_opted_out(request.user),
    })

