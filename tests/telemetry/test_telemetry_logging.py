"""No client address, room id or token in log lines, access logs or error reports
(telemetry/logs.py, LOGGING in settings)."""
import io
import logging

import pytest
from daphne.access import AccessLogGenerator
from daphne.http_protocol import HTTPFactory
from daphne.server import Server
from django.conf import settings
from django.test import RequestFactory
from django.views.debug import ExceptionReporter

from telemetry.logs import ScrubLogRecord, anonymous_action, keep_server_logs_anonymous, scrub, scrub_addresses


@pytest.mark.parametrize("text, scrubbed", [
    ("HTTP close for ['203.0.113.9', 51234]", "HTTP close for [address]"),  # Daphne's debug lines
    ("HTTP close for ['2001:db8::1', 51234]", "HTTP close for [address]"),
    ("peer ('203.0.113.9', 51234) left", "peer [address] left"),
    ("from 203.0.113.9:51234 at noon", "from [address] at noon"),
    ("It came from 203.0.113.9.", "It came from [address]."),
    ("from 203.0.113.9: refused", "from [address]: refused"),
    ("[2001:db8::1]:443 answered", "[address] answered"),
    ("Host: [2001:db8::1] sent", "Host: [address] sent"),
    ("client 2001:db8::1, twice", "client [address], twice"),
    ("It came from 2001:db8::1.", "It came from [address]."),
    ("mapped ::ffff:203.0.113.9 here", "mapped [address] here"),
    ("link-local fe80::1%eth0 here", "link-local [address] here"),
    ("loopback ::1", "loopback [address]"),
    ("peer tcp4:203.0.113.9:51234 dropped", "peer tcp4:[address] dropped"),  # autobahn
    ("IPv4Address(type='TCP', host='203.0.113.9', port=5)",
     "IPv4Address(type='TCP', host='[address]', port=5)"),  # Twisted
    ("Origin: http://203.0.113.9:8000/r/", "Origin: http://[address]/r/"),
    ("X-Forwarded-For: 203.0.113.9, 198.51.100.4", "X-Forwarded-For: [address], [address]"),
])
def test_it_scrubs_every_form_of_address(text, scrubbed):
    assert scrub_addresses(text) == scrubbed


@pytest.mark.parametrize("text", [
    "at 12:30:45 and 12:30:45.123", "2026-11-30 18:14:47,123", "v1.2.3 and 1.2.3", "version 1.2.3.4.5",
    "v1.2.3.4", "aa:bb:cc:dd:ee:ff", "1:2:3:4:5:6:7:8:9", "ratio 3:2", "see docs/telemetry.md.",
])
def test_it_leaves_times_versions_and_dates(text):
    assert scrub_addresses(text) == text


@pytest.mark.parametrize("text, scrubbed", [
    ("Not Found: /api/rooms/QyZGXfzRtUj2ke1NAIUa9w", "Not Found: /api/rooms/[room]"),
    ('"WSCONNECT /ws/rooms/QyZGXfzRtUj2ke1NAIUa9w/"', '"WSCONNECT /ws/rooms/[room]/"'),
    ("GET /r/QyZGXfzRtUj2ke1NAIUa9w 200", "GET /r/[room] 200"),
    ("/accounts/login/?next=/r/QyZGXfzRtUj2ke1NAIUa9w", "/accounts/login/?next=/r/[room]"),
    ("GET /accounts/password/reset/MQ/cz3k4x-0f1e2d3c4b5a69788796a5b4c3d2e1f0/ 302",
     "GET /accounts/password/reset/[token]/ 302"),
    ("GET /accounts/password/reset/MQ/set-password/", "GET /accounts/password/reset/[token]/"),
    # What holds no secret stays.
    ("POST /api/rooms 201", "POST /api/rooms 201"),
    ("GET /accounts/password/reset/sent/", "GET /accounts/password/reset/sent/"),
    ("GET /accounts/password/reset/complete/", "GET /accounts/password/reset/complete/"),
    ("GET /accounts/password/reset/", "GET /accounts/password/reset/"),
    ("Not Found: /api/rooms/[room]", "Not Found: /api/rooms/[room]"),
])
def test_it_replaces_room_ids_and_reset_tokens_in_paths(text, scrubbed):
    assert scrub(text) == scrubbed


def test_daphnes_access_log_gets_method_status_and_scrubbed_path_only(monkeypatch):
    # What config/asgi.py does in every server process, undone after this test.
    monkeypatch.setattr(Server, "log_action", Server.log_action)
    monkeypatch.setattr(HTTPFactory, "log", HTTPFactory.log)
    keep_server_logs_anonymous()
    stream = io.StringIO()
    server = Server(application=None, endpoints=["tcp:port=0"], action_logger=AccessLogGenerator(stream))
    server.log_action("http", "complete", {"path": "/r/QyZGXfzRtUj2ke1NAIUa9w?seat=QyZGX", "status": 200,
                                           "method": "GET", "client": "203.0.113.9:51234",
                                           "time_taken": 0.01, "size": 4789})
    server.log_action("websocket", "connected", {"path": "/ws/rooms/QyZGXfzRtUj2ke1NAIUa9w/",
                                                 "client": "[2001:db8::1]:51234"})
    lines = stream.getvalue().splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["-", "-"]
    assert lines[0].endswith('"GET /r/[room]?…" 200 4789')
    assert lines[1].endswith('"WSCONNECT /ws/rooms/[room]/" - -')
    assert "QyZGX" not in stream.getvalue() and "203.0.113.9" not in stream.getvalue()
    # Twisted's own access line (query string, referrer, user agent) is not written at all.
    written = []
    factory = HTTPFactory(server)
    factory._logFile = type("Sink", (), {"write": lambda self, line: written.append(line)})()
    factory.log(type("Request", (), {})())
    assert written == []


def test_anonymous_action_keeps_what_is_not_secret():
    details = {"path": "/healthz", "status": 200, "method": "GET", "client": "203.0.113.9:1", "size": 9}
    assert anonymous_action(details) == {**details, "client": "-"}


def test_the_site_handlers_scrub_every_record_and_drop_the_request():
    handler_filters = settings.LOGGING["handlers"]["console"]["filters"]
    assert [settings.LOGGING["filters"][name]["()"] for name in handler_filters] == [
        "telemetry.logs.ScrubLogRecord"]
    assert settings.LOGGING["root"]["handlers"] == ["console"]
    assert settings.LOGGING["loggers"]["django"]["handlers"] == ["console"]
    # Every handler the configured root logger has (Daphne's and Twisted's records reach it).
    configured = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    assert configured and all(any(isinstance(f, ScrubLogRecord) for f in h.filters) for h in configured)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ScrubLogRecord())
    logger = logging.getLogger("test.telemetry.scrub")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        request = RequestFactory().get("/x", REMOTE_ADDR="203.0.113.9")
        logger.warning("Bad Request from %s", "203.0.113.9", extra={"request": request})
        logger.warning("Not Found: %s", "/api/rooms/QyZGXfzRtUj2ke1NAIUa9w", extra={"request": request})
        try:
            raise ValueError("peer 203.0.113.9 went away")
        except ValueError:
            logger.exception("failed for %s", ["203.0.113.9", 4000])
    finally:
        logger.removeHandler(handler)
    output = stream.getvalue()
    assert "203.0.113.9" not in output and "QyZGXfzRtUj2ke1NAIUa9w" not in output
    assert output.count("[address]") >= 3
    assert "Not Found: /api/rooms/[room]" in output


def test_the_django_logger_has_no_mail_handler():
    handlers = logging.getLogger("django").handlers
    assert handlers and not any(type(h).__name__ == "AdminEmailHandler" for h in handlers)
    assert not any(type(h).__name__ == "AdminEmailHandler" for h in logging.getLogger("django.request").handlers)


def _addresses():
    # Built from parts: the report quotes source lines and local variables, which must not match.
    return ".".join(["203", "0", "113", "9"]), ".".join(["198", "51", "100", "4"])


def _request_from_behind_a_proxy():
    client, proxy = _addresses()
    return RequestFactory().get("/boom", REMOTE_ADDR=client, HTTP_X_FORWARDED_FOR=proxy)


def test_error_reports_leave_out_address_headers():
    request = _request_from_behind_a_proxy()
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        reporter = ExceptionReporter(request, type(exc), exc, exc.__traceback__)
        html, text = reporter.get_traceback_html(), reporter.get_traceback_text()
    for address in _addresses():
        assert address in str(request.META.values())
        assert address not in html and address not in text
    assert "boom" in text and "REMOTE_ADDR = " not in text  # the META entry (settings may name the key)
