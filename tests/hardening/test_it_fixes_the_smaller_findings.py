"""The audit's smaller findings (issue 35, finding 8), each fixed: a request head sent slowly
is cut off, a player's page that is not found leaves no name in the log, "Download my data"
holds every field of the account, a weak SECRET_KEY stops the process, the HTTP-to-HTTPS
redirect carries the security headers, and the language cookie is Secure and SameSite.
(The password-reset form's timing: tests/accounts/test_accounts_reset_throttle.py.)"""
from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from django.test import Client, override_settings

from tests.live import PROJECT, embedded_env, running_site
from tests.rooms.helpers import connect, create_room, options

STRONG_KEY = "k" * 20 + "9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c"
HEAD_TIMEOUT = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("smaller-findings")
    with running_site(tmp_path, embedded_env(tmp_path, HTTP_HEADER_TIMEOUT=str(HEAD_TIMEOUT))) as site:
        yield site


def _closed_within(sock: socket.socket, seconds: float, drip: bytes) -> bool:
    """Sends ``drip`` every 0.2 s (a header line at a time, never the blank line that ends the
    head) until the server closes the connection or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    sock.settimeout(0.2)
    while time.monotonic() < deadline:
        try:
            sock.sendall(drip)
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return True
    return False


def test_it_cuts_off_a_request_head_sent_slowly(server):
    with socket.create_connection((server.host, server.port)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert _closed_within(sock, HEAD_TIMEOUT + 8, b"X-Slow: 1\r\n")
    # A request whose head arrives in time is answered as ever.
    with urllib.request.urlopen(server.url + "/healthz", timeout=10) as response:
        assert response.status == 200


async def test_it_leaves_a_websocket_open_past_the_head_timeout(server):
    created = create_room(server.url, "memory", "cpu", options("memory"))
    conn = await connect(server.url, created["room_id"], created["seat_token"])
    try:
        await asyncio.sleep(HEAD_TIMEOUT * 2.5)
        answer = await conn.request("ping")
        assert answer["type"] == "pong"
    finally:
        await conn.close()


def test_it_writes_no_name_of_a_missing_player_page_to_the_log(server):
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(server.url + "/u/formerplayer77/", timeout=10)
    assert missing.value.code == 404
    deadline = time.monotonic() + 5
    while "/u/[player]" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.1)
    log = server.log()
    assert "Not Found: /u/[player]" in log
    assert "formerplayer77" not in log


@pytest.mark.django_db
def test_it_exports_every_field_of_the_account(django_user_model):
    user = django_user_model.objects.create_user("ada", "ada@example.com", "correct horse battery",
                                                 first_name="Ada", last_name="Lovelace")
    client = Client()
    client.force_login(user)
    account = json.loads(client.get("/accounts/me/export/").content)["account"]
    assert {k: account[k] for k in ("first_name", "last_name", "active", "staff", "superuser")} == {
        "first_name": "Ada", "last_name": "Lovelace", "active": True, "staff": False,
        "superuser": False}


def _production_settings(tmp_path, **overrides: str) -> subprocess.CompletedProcess:
    env = embedded_env(tmp_path, **{"DEBUG": "0", "SECRET_KEY": STRONG_KEY,
                                    "ALLOWED_HOSTS": "cards.example", **overrides})
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "--verbosity", "0", "-c",
         "from django.conf import settings; "
         "print(settings.LANGUAGE_COOKIE_SECURE, settings.LANGUAGE_COOKIE_SAMESITE)"],
        cwd=PROJECT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("key", [
    "x1" * 20,                           # 40 characters: Django's check --deploy warns (W009)
    "abcd" * 20,                         # 80 characters, 4 different ones
    "django-insecure-" + "q7" * 30,      # Django's sample key
])
def test_it_refuses_a_secret_key_that_check_deploy_would_warn_about(tmp_path, key):
    result = _production_settings(tmp_path, SECRET_KEY=key)
    assert result.returncode != 0
    assert "SECRET_KEY must be set to a random value of 50+ characters with 5+ different ones" in result.stderr


def test_it_sends_the_language_cookie_secure_and_same_site_in_production(tmp_path):
    result = _production_settings(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "Lax"]


@pytest.mark.django_db
def test_it_sends_the_language_cookie_same_site():
    response = Client().post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert response.cookies["django_language"]["samesite"] == "Lax"


@override_settings(SECURE_SSL_REDIRECT=True, SECURE_REDIRECT_EXEMPT=[])
def test_it_sends_the_security_headers_with_the_https_redirect():
    response = Client().get("/", HTTP_HOST="localhost")
    assert response.status_code == 301
    assert response["Location"] == "https://localhost/"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert "camera=()" in response["Permissions-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
