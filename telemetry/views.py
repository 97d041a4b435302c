import json
import math

from django.conf import settings
from django.http import HttpResponseNotAllowed, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from server.client_address import client_network

from . import schema
from .ingest import accept, limiter
from .optout import user_opted_out


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _from_this_site(request) -> bool:
    """A browser says where a request comes from in Sec-Fetch-Site; one that does not (older
    browsers) still sends Origin with a cross-site POST, which must then be this site's own
    (or one of CSRF_TRUSTED_ORIGINS). A request with neither header is no browser's cross-site
    post (curl, a bot), which nothing would stop anyway."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("Origin")
    return origin is None or origin in (f"{request.scheme}://{request.get_host()}",
                                        *settings.CSRF_TRUSTED_ORIGINS)


# Exempt from CSRF: the page posts with navigator.sendBeacon, which cannot carry the token, and
# the endpoint changes nothing but anonymous counts. Cross-site posts are refused below instead.
@csrf_exempt
def events(request):
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if not _from_this_site(request):
        return _error(403, "cross_site", "Statistics are accepted from this site's own pages only.")
    address = client_network(request)
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

