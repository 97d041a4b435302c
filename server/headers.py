"""Content-Security-Policy and Permissions-Policy on every HTTP response.

The site's pages load only their own scripts, styles and images (site/, served under /static/),
talk only to their own origin (the rooms API, the telemetry endpoint, the rooms WebSocket), and
carry no inline script, inline style or event-handler attribute; the policy forbids all three,
so markup injected through a bug cannot run or restyle the page. Data blocks such as
<script type="application/json" id="telemetry-config"> are not executed and need no exemption.
The same policy holds in DEBUG, so a page that breaks it fails in development and in the tests.
"""
from __future__ import annotations

from django.core.exceptions import DisallowedHost
from django.utils.deprecation import MiddlewareMixin

CONTENT_SECURITY_POLICY = (
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self'"),
    ("img-src", "'self'"),
    ("font-src", "'self'"),
    ("connect-src", "'self'"),  # plus the WebSocket origin of the request: see below
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'self'"),
    ("frame-ancestors", "'none'"),
)

# Everything the site does not use is denied to it and to any frame. The invite button copies
# the link (navigator.clipboard.writeText in site/js/room/page.js): clipboard-write stays for
# the page itself. Only features Chromium knows are named: it logs an error for any other
# (web-share, for one, on Linux).
PERMISSIONS_POLICY = ", ".join(f"{feature}={allow}" for feature, allow in (
    ("accelerometer", "()"),
    ("autoplay", "()"),
    ("camera", "()"),
    ("clipboard-read", "()"),
    ("clipboard-write", "(self)"),
    ("display-capture", "()"),
    ("encrypted-media", "()"),
    ("fullscreen", "()"),
    ("geolocation", "()"),
    ("gyroscope", "()"),
    ("hid", "()"),
    ("idle-detection", "()"),
    ("magnetometer", "()"),
    ("microphone", "()"),
    ("midi", "()"),
    ("payment", "()"),
    ("picture-in-picture", "()"),
    ("publickey-credentials-get", "()"),
    ("screen-wake-lock", "()"),
    ("serial", "()"),
    ("sync-xhr", "()"),
    ("usb", "()"),
    ("xr-spatial-tracking", "()"),
))


def websocket_origin(request) -> str | None:
    """ws://host[:port] (wss:// behind TLS) of this request. CSP Level 3 lets 'self' cover it,
    but older browsers (Safari before 15.4) do not, and would refuse the rooms WebSocket.
    None when the host is not allowed (the response is an error page that opens no socket) or
    is an IPv6 literal, which CSP source expressions cannot spell (there 'self' has to do)."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    if host.startswith("["):
        return None
    return f"{'wss' if request.is_secure() else 'ws'}://{host}"


def content_security_policy(request) -> str:
    origin = websocket_origin(request)
    return "; ".join(
        f"{directive} {sources} {origin}" if directive == "connect-src" and origin
        else f"{directive} {sources}"
        for directive, sources in CONTENT_SECURITY_POLICY)


class SecurityHeadersMiddleware(MiddlewareMixin):
    """Both headers on every response: pages, error pages, the admin, static files."""

    def process_response(self, request, response):
        response.headers["Content-Security-Policy"] = content_security_policy(request)
        response.headers["Permissions-Policy"] = PERMISSIONS_POLICY
        return response
