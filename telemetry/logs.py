"""No client address, room id or token in any log line, access log or error report.

``scrub`` replaces anything shaped like an IP address (with its port: a source port and a time
can name a subscriber behind a shared address) with "[address]", and the secret part of the
site's paths with "[room]", "[token]" or "[player]": room ids are the only key to a room, a
password-reset link is a password, and a player's page (/u/<name>/) names an account, even
one that no longer exists. It leaves times of day, versions and dates alone.

``ScrubLogRecord`` is a logging filter on the site's handlers (LOGGING in config/settings.py):
every record of every logger that reaches them (Django's request warnings name the path;
Daphne's debug lines name the client, "HTTP close for ['203.0.113.9', 51234]"; Twisted's log
at ``daphne -v 2``) is scrubbed, and the request object Django attaches is dropped, so no
handler can read its META.

``keep_server_logs_anonymous`` does the same for Daphne's access log, which is not logging but
a stream of its own (stdout unless ``--access-log`` says otherwise): config/asgi.py, which
every way of starting the server imports, calls it.

``JsonLines`` writes the same records as JSON (``LOG_FORMAT=json``); error reports to a
Sentry-compatible service pass every event through ``scrub`` too (telemetry/errors.py).

``NoAddressReporterFilter`` is Django's exception-reporter filter without the address headers,
for any error report (the DEBUG page or a mail handler someone adds later).
"""
from __future__ import annotations

import ipaddress
import json
import logging
import re
from datetime import UTC, datetime

from django.views.debug import SafeExceptionReporterFilter

ADDRESS_META = ("REMOTE_ADDR", "HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP", "HTTP_FORWARDED",
                "HTTP_CF_CONNECTING_IP", "HTTP_TRUE_CLIENT_IP")

_IPV4 = r"\d{1,3}(?:\.\d{1,3}){3}"
_IPV6 = rf"(?:[0-9A-Fa-f]{{0,4}}:){{1,7}}(?:{_IPV4}|[0-9A-Fa-f]{{1,4}}|:)(?:%[\w-]+(?:\.[\w-]+)*)?"
_PORT = r"(?::\d{1,5})?"
# Each form names the address it holds; the match is replaced only when that is a real address
# (ipaddress decides), so "12:30:45" or "1.2.3" stay. An address may end a sentence ("from
# 203.0.113.9.") but not be part of a longer dotted or colon-separated token.
_CANDIDATE = re.compile(
    # Daphne's client, a list or tuple: ['203.0.113.9', 51234]
    rf"[\[(]\s*'(?P<pair>[0-9A-Fa-f.:%\w-]+)'\s*,\s*\d+\s*[\])]"
    # [2001:db8::1]:443
    rf"|\[(?P<bracketed>{_IPV6})\]{_PORT}"
    # 2001:db8::1, ::ffff:203.0.113.9, fe80::1%eth0 (not the tail of a longer colon run)
    rf"|(?<![\w.])(?<![0-9A-Fa-f:]:)(?P<ipv6>{_IPV6})(?!\w|:[0-9A-Fa-f:]|\.\w)"
    # 203.0.113.9, 203.0.113.9:51234
    rf"|(?<![\w.])(?P<ipv4>{_IPV4}){_PORT}(?!\w|:\d|\.\w)")

# The path segments that are secrets, as the site's URLs place them (config/routing.py,
# games/api_urls.py, games/page_urls.py, accounts/urls.py). What stays says what was asked.
_SECRET_IN_PATH = re.compile(
    r"(?P<room>/(?:ws/rooms|api/rooms|r)/)(?!\[room\])[^/?#\s\"'<>]+"
    r"|(?P<reset>/accounts/password/reset/)(?!(?:sent|complete)/|\[token\])[^?#\s\"'<>]+"
    r"|(?P<player>/u/)(?!\[player\])[^/?#\s\"'<>]+")


def scrub_addresses(text: str) -> str:
    def replace(match):
        candidate = next(value for value in match.groupdict().values() if value is not None)
        try:
            ipaddress.ip_address(candidate)
        except ValueError:
            return match.group(0)  # a time of day, a version number…
        return "[address]"
    return _CANDIDATE.sub(replace, text)


def scrub_paths(text: str) -> str:
    def replace(match):
        if match.group("room"):
            return match.group("room") + "[room]"
        if match.group("player"):
            return match.group("player") + "[player]"
        return match.group("reset") + "[token]/"
    return _SECRET_IN_PATH.sub(replace, text)


def scrub(text: str) -> str:
    return scrub_paths(scrub_addresses(text))


class ScrubLogRecord(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, "request"):
            record.request = None
        message = record.getMessage()
        scrubbed = scrub(message)
        if scrubbed != message:
            record.msg, record.args = scrubbed, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        return True


class JsonLines(logging.Formatter):
    """``LOG_FORMAT=json``: each record as one line of JSON (time in UTC, level, logger, message,
    and the exception or stack when there is one), written from the record as ``ScrubLogRecord``
    left it on the same handler: scrubbed like the plain lines."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
                 "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False)


def anonymous_action(details: dict) -> dict:
    """What Daphne's access log may write about a request: method, status, size and the path
    with its secrets replaced; no client ("-", as an access log writes an unknown field), and
    no query string (whatever it holds, "?…" says there was one)."""
    path, has_query, _ = (details.get("path") or "").partition("?")
    return {**details, "client": "-", "path": scrub(path) + ("?…" if has_query else "")}


def keep_server_logs_anonymous() -> None:
    """Every access-log line of Daphne (``daphne`` however started, ``manage.py serve`` and
    ``runserver``) passes through ``Server.log_action``: it now hands on only
    ``anonymous_action``. And Twisted's own access line, which Daphne's HTTP factory writes to
    Twisted's log (passed on to logging at ``daphne -v 2``), is not written: it repeats Daphne's
    with the query string, the referrer and the user agent."""
    from daphne.http_protocol import HTTPFactory
    from daphne.server import Server

    log_action = Server.log_action

    def anonymous_log_action(self, protocol, action, details):
        log_action(self, protocol, action, anonymous_action(details))

    def no_twisted_access_line(self, request):
        """Writes nothing (see above)."""

    Server.log_action = anonymous_log_action
    HTTPFactory.log = no_twisted_access_line


class NoAddressReporterFilter(SafeExceptionReporterFilter):
    def get_safe_request_meta(self, request):
        meta = super().get_safe_request_meta(request)
        return {key: value for key, value in meta.items() if key not in ADDRESS_META}
