"""Error reports (telemetry/errors.py) and JSON logs keep the privacy promise: an exception raised
in a room connection reaches the error-report transport (a fake one here, in place of the
HTTP one that sends to SENTRY_DSN) with its type and place, and with no client address, room
id, seat token, cookie or local variable; LOG_FORMAT=json writes lines scrubbed like the plain
ones."""
import json
import logging
import subprocess
import sys
from unittest import mock

import pytest
import sentry_sdk
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client
from sentry_sdk.transport import Transport

from config.routing import websocket_urlpatterns
from games.rooms import service
from server.websocket_auth import websocket_auth
from telemetry import errors
from telemetry.logs import JsonLines, ScrubLogRecord
from tests.live import PROJECT, embedded_env

CLIENT, FORWARDED = "198.51.100.7", "203.0.113.9"
COOKIE = "sessionid=6bq2hw0c1fl9o1bmsb2mxdw43tq08hxa; csrftoken=Qx8cV0sPz9mW2kR7tY4uI1oP3aS5dF6g"


class FakeTransport(Transport):
    """Keeps the events the SDK would send."""

    def __init__(self, options=None):
        super().__init__(options)
        self.events = []

    def capture_envelope(self, envelope):
        event = envelope.get_event()
        if event is not None:
            self.events.append(event)


@pytest.fixture
def transport():
    transport = FakeTransport()
    errors.start("https://public-key@errors.example/1", transport=transport)
    yield transport
    sentry_sdk.init()  # no DSN: reports off again for the tests that follow


@pytest.fixture
async def closed_connections():
    yield
    # The room was created in asgiref's one sync thread: close its connection, or the test
    # database cannot be dropped.
    await sync_to_async(connections.close_all)()


def _new_room() -> dict:
    response = Client().post("/api/rooms", {"game": "memory", "mode": "solo", "options": {"cards": 24}},
                             content_type="application/json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.mark.django_db(transaction=True)
async def test_an_exception_in_a_room_connection_is_reported_scrubbed(transport, closed_connections):
    room = await sync_to_async(_new_room)()
    room_id, token = room["room_id"], room["seat_token"]
    communicator = WebsocketCommunicator(
        errors.with_error_reports(websocket_auth(URLRouter(websocket_urlpatterns))), f"/ws/rooms/{room_id}/",
        headers=[(b"host", b"cards.example"), (b"cookie", COOKIE.encode()),
                 (b"x-forwarded-for", FORWARDED.encode()), (b"user-agent", b"Mozilla/5.0 (X11; Linux)")])
    communicator.scope["client"] = [CLIENT, 51234]
    communicator.scope["server"] = ["cards.example", 443]
    failure = RuntimeError(f"the rooms' database went away while {CLIENT} asked for /ws/rooms/{room_id}/")
    with mock.patch.object(service.hello, "on_loop", side_effect=failure):
        connected, _ = await communicator.connect()
        assert connected
        await communicator.send_json_to({"type": "hello", "token": token, "id": "h1"})
        try:  # the connection is closed, or the error comes out of the application
            await communicator.receive_output(5)
            await communicator.wait(1)
        except RuntimeError:
            pass
    sentry_sdk.flush()

    reported = [event for event in transport.events
                if any(value["type"] == "RuntimeError" for value in event.get("exception", {}).get("values", []))]
    assert reported, transport.events
    for event in reported:
        text = json.dumps(event)
        for secret in (room_id, token, CLIENT, FORWARDED, "6bq2hw0c1fl9o1bmsb2mxdw43tq08hxa",
                       "Qx8cV0sPz9mW2kR7tY4uI1oP3aS5dF6g", "sessionid", "csrftoken", "Mozilla"):
            assert secret not in text, secret
        exception = next(value for value in event["exception"]["values"] if value["type"] == "RuntimeError")
        assert exception["value"] == "the rooms' database went away while [address] asked for /ws/rooms/[room]/"
        frames = exception["stacktrace"]["frames"]
        assert any(frame["function"] == "_hello" for frame in frames)  # where it happened is kept
        assert not any("vars" in frame for frame in frames)  # no local variable (the token was one)
        assert "user" not in event
        assert set(event.get("request", {})) <= {"method", "url"}
    assert any(event.get("request", {}).get("url", "").endswith("/ws/rooms/[room]/") for event in reported)


def test_the_scrubber_leaves_only_the_method_and_path_of_a_request():
    event = {"user": {"ip_address": CLIENT}, "request": {
        "method": "POST", "url": f"https://cards.example/api/rooms/{'A' * 22}", "query_string": "x=1",
        "cookies": {"sessionid": "abc"}, "headers": {"X-Forwarded-For": FORWARDED}, "data": {"token": "t"},
        "env": {"REMOTE_ADDR": CLIENT}},
        "breadcrumbs": {"values": [{"message": f"GET /r/{'B' * 22} from {FORWARDED}:4711"}]},
        "extra": {"path": "/accounts/password/reset/MQ/set-password/"}}
    assert errors.scrubbed(event) == {
        "request": {"method": "POST", "url": "https://cards.example/api/rooms/[room]"},
        "breadcrumbs": {"values": [{"message": "GET /r/[room] from [address]"}]},
        "extra": {"path": "/accounts/password/reset/[token]/"}}


def test_json_log_lines_are_scrubbed_like_the_plain_ones(capsys):
    handler = logging.StreamHandler(sys.stdout)
    handler.addFilter(ScrubLogRecord())
    handler.setFormatter(JsonLines())
    logger = logging.getLogger("tests.json_lines")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise ValueError(f"while reading /ws/rooms/{'C' * 22}/")
        except ValueError:
            logger.exception("a connection from %s failed", f"{CLIENT}:4711")
    finally:
        logger.removeHandler(handler)
    line = json.loads(capsys.readouterr().out)
    assert line["level"] == "ERROR" and line["logger"] == "tests.json_lines"
    assert line["message"] == "a connection from [address] failed"
    assert "ValueError: while reading /ws/rooms/[room]/" in line["exception"]
    assert "C" * 22 not in json.dumps(line) and CLIENT not in json.dumps(line)


def test_the_settings_take_log_format_json_and_refuse_anything_else(tmp_path):
    code = "import logging; logging.getLogger('x').warning('hello from 203.0.113.9')"
    command = [sys.executable, "manage.py", "shell", "-c", code]
    written = subprocess.run(command, cwd=PROJECT, env=embedded_env(tmp_path, LOG_FORMAT="json"),
                             capture_output=True, text=True, timeout=60)
    assert written.returncode == 0, written.stderr
    line = json.loads(written.stderr.strip().splitlines()[-1])
    assert (line["level"], line["logger"], line["message"]) == ("WARNING", "x", "hello from [address]")
    refused = subprocess.run(command, cwd=PROJECT, env=embedded_env(tmp_path, LOG_FORMAT="xml"),
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0 and "LOG_FORMAT must be plain or json, got 'xml'" in refused.stderr
