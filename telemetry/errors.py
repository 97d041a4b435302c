"""Error reports to a Sentry-compatible service (Sentry, or a self-hosted GlitchTip or Bugsink),
off unless ``SENTRY_DSN`` is set, and keeping the promise the privacy page makes: no client
address, room id, token or cookie leaves the server in a report.

What a report holds: the exception (its type, message and stack of file, function and line,
with the source lines around each), the log line that carried it and the log lines before it
(breadcrumbs), and for a request its method and path. What it never holds, by the SDK's own
options: local variables (``include_local_variables``: a frame's locals hold seat tokens,
messages, sessions), request bodies (``max_request_body_size``), and what Sentry calls
personal data (the user, cookies, the client's address: off by the SDK's default). And whatever the
SDK gathered, every event passes ``scrubbed`` before it is sent: the request keeps only its
method and path (its headers, cookies, query, body and environment go; the address the
connection came from is in the environment), the user goes, and every string left (messages,
exception values, paths, breadcrumbs) goes through the logs' scrubber (telemetry/logs.py):
addresses become "[address]", room ids "[room]", reset tokens "[token]".

Started from this app's ``ready`` (every process: web, Celery worker and beat, manage.py), and
around the WebSocket routes by ``with_error_reports`` (config/asgi.py), so that an exception
in a room connection is reported with its path; HTTP requests are Sentry's Django integration's.
"""
from __future__ import annotations

from typing import Any

import sentry_sdk
from sentry_sdk.integrations.asgi import SentryAsgiMiddleware

from .logs import scrub

# The only parts of an event's request that stay (the rest names the client or carries its data).
REQUEST_KEPT = ("method", "url")


def start(dsn: str, transport: Any = None) -> None:
    """Report errors to ``dsn`` from now on (``transport``: another way to send them, for tests)."""
    sentry_sdk.init(
        dsn=dsn,
        transport=transport,
        include_local_variables=False,
        max_request_body_size="never",
        auto_session_tracking=False,  # sessions would count visitors
        send_client_reports=False,
        before_send=scrubbed,
        before_breadcrumb=scrubbed_breadcrumb,
    )


def enabled() -> bool:
    return sentry_sdk.get_client().is_active()


def with_error_reports(app):
    """ASGI wrapper: exceptions of ``app`` reported with the connection's method and path, when
    reports are on; ``app`` itself otherwise."""
    return SentryAsgiMiddleware(app) if enabled() else app


def scrubbed(event: Any, hint: Any = None) -> Any:
    """The event (a dict) as it may leave the server (see the module's docstring)."""
    event.pop("user", None)
    if isinstance(event.get("request"), dict):
        event["request"] = {key: value for key, value in event["request"].items() if key in REQUEST_KEPT}
    for exception in (event.get("exception") or {}).get("values") or ():
        for frame in (exception.get("stacktrace") or {}).get("frames") or ():
            frame.pop("vars", None)
    return _scrub_strings(event)


def scrubbed_breadcrumb(breadcrumb: Any, hint: Any = None) -> Any:
    return _scrub_strings(breadcrumb)


def _scrub_strings(value: Any) -> Any:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {key: _scrub_strings(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub_strings(item) for item in value]
    return value
