"""The embedded default, started exactly as `make run` starts it, serves pages and WebSockets."""
import json
import urllib.request

import pytest
import websockets

from tests.live import start_make_run


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    server = start_make_run(tmp_path_factory.mktemp("make-run"))
    try:
        server.wait_ready(timeout=120)
        yield server
    finally:
        server.stop()


def test_it_serves_the_home_page(site):
    with urllib.request.urlopen(site.url + "/", timeout=5) as response:
        html = response.read().decode()
    assert response.status == 200
    for name in ("Memory", "Bozu Mekuri", "Gin Rummy"):
        assert name in html


def test_it_says_which_url_to_open(site):
    # The log hides addresses ("Listening on TCP address [address]"); this line does not.
    assert f"Card Table is served at {site.url}/ (open it in a browser)." in site.log()


def test_it_reports_health_of_sqlite_and_the_scheduler(site):
    with urllib.request.urlopen(site.url + "/healthz/ready", timeout=5) as response:
        body = json.loads(response.read())
    assert body["status"] == "ok"
    assert body["database"] == {"ok": True, "vendor": "sqlite"}
    assert body["redis"] == {"ok": True, "used": False}
    assert body["scheduler"]["ok"] is True


def test_it_serves_static_files(site):
    with urllib.request.urlopen(site.url + "/static/css/site.css", timeout=5) as response:
        assert response.status == 200
        assert b"--bg" in response.read()


async def test_it_answers_a_websocket_ping(site):
    async with websockets.connect(site.ws_url + "/ws/ping/", origin=site.url) as ws:
        await ws.send(json.dumps({"type": "ping", "echo": 7}))
        assert json.loads(await ws.recv()) == {"type": "pong", "echo": 7}
        await ws.send("[]")
        assert json.loads(await ws.recv())["code"] == "unknown_type"


async def test_it_refuses_websockets_from_foreign_origins(site):
    with pytest.raises(websockets.exceptions.InvalidStatus):
        async with websockets.connect(site.ws_url + "/ws/ping/", origin="http://evil.example"):
            pass
