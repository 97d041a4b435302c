"""However Daphne is started, nothing it prints names a client, a room or a password-reset
token (telemetry/logs.py, config/asgi.py).

The server is started the ways an operator might: with Daphne's own defaults
(`daphne config.asgi:application`, whose access log goes to stdout), and at `-v 2 --access-log -`
with LOG_LEVEL=DEBUG (Twisted's log, Daphne's debug lines and the access log all on). Each time
a visitor at 127.0.0.1 opens pages, meets a 404 and API errors, creates rooms and plays one over
WebSockets, is refused a WebSocket from a foreign origin, and resets a member's password through
the link in the e-mail. Then the server's stdout and stderr are searched for the client's
address, the room ids, the seat tokens and the reset token. The e-mail goes to files
(EMAIL_BACKEND), the one place where the token belongs.
"""
import asyncio
import http.cookiejar
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest
import websockets

from games.bot import Connection, create_room, play
from tests.live import PROJECT, VENV_BIN, LiveServer, embedded_env, free_port, migrate

CLIENT_ADDRESSES = ("127.0.0.1", "::1")  # the test's own, and the server's
FAST = {"CPU_DELAY_BOZU_FLIP": "0.002", "CPU_DELAY_MEMORY_FLIP": "0.002", "MEMORY_CONCEAL_DELAY": "0.01",
        "CPU_DELAY_GIN_STEP": "0.002", "GIN_NEXT_HAND_DELAY": "0.01"}
MEMBER_EMAIL, PASSWORD, NEW_PASSWORD = "ann@example.com", "plum-orchard-7391", "quince-harbour-2846"
MADE_UP_ROOM = "Zx9Qw8Er7Ty6Ui5Op4As3D"


class Visitor:
    """A browser's requests: its cookies kept, redirects followed, errors answered as statuses."""

    def __init__(self, server: LiveServer):
        self.url = server.url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> tuple[int, str]:
        """The status and the path finally answered."""
        return self._open(urllib.request.Request(self.url + path))

    def post(self, path: str, fields: dict) -> tuple[int, str]:
        csrf = next((c.value for c in self.cookies if c.name == "csrftoken"), "")
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": csrf}).encode()
        return self._open(urllib.request.Request(self.url + path, body))

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=15) as response:
                response.read()
                return response.status, urllib.parse.urlsplit(response.url).path
        except urllib.error.HTTPError as exc:
            exc.read()
            return exc.code, urllib.parse.urlsplit(exc.url).path


def play_a_friends_room(server: LiveServer) -> list[str]:
    """Two players at one Bozu Mekuri table to the end; answers the room id and both seats' tokens."""
    created = create_room(server.url, "bozu", mode="friends", options={"players": 2})

    async def game():
        host, guest = (Connection(server.url, created["room_id"]) for _ in range(2))
        await host.open(created["seat_token"])
        await guest.open()
        await guest.request("join")  # the table is full: the game starts
        players = asyncio.gather(play(host, "easy"), play(guest, "easy", seed=1))
        finals = await asyncio.wait_for(players, 90)
        await host.close()
        await guest.close()
        return finals, guest.token

    finals, guest_token = asyncio.run(game())
    assert [final["room"]["status"] for final in finals] == ["finished", "finished"]
    return [created["room_id"], created["seat_token"], guest_token]


def refuse_a_foreign_websocket(server: LiveServer, room_id: str) -> None:
    async def attempt():
        with pytest.raises(websockets.exceptions.InvalidHandshake):
            await websockets.connect(f"{server.ws_url}/ws/rooms/{room_id}/",
                                     origin="http://elsewhere.example")
    asyncio.run(attempt())


def reset_a_password(server: LiveServer, mail_dir) -> list[str]:
    """Asks for a reset link for the member's address and sets a new password through it;
    answers the link's uidb64/token and its token."""
    forgetful = Visitor(server)
    forgetful.get("/accounts/password/reset/")
    status, path = forgetful.post("/accounts/password/reset/", {"email": MEMBER_EMAIL})
    assert (status, path) == (200, "/accounts/password/reset/sent/")
    mail = "".join(message.read_text() for message in mail_dir.iterdir())
    uidb64, token = re.search(r"/accounts/password/reset/([\w-]+)/([\w-]+)/", mail).groups()
    status, form_path = forgetful.get(f"/accounts/password/reset/{uidb64}/{token}/")
    assert status == 200 and form_path.endswith("/set-password/")
    status, path = forgetful.post(form_path, {"new_password1": NEW_PASSWORD,
                                                 "new_password2": NEW_PASSWORD})
    assert (status, path) == (200, "/accounts/password/reset/complete/")
    return [f"{uidb64}/{token}", token]


def visit(server: LiveServer) -> list[str]:
    """Rooms and pages; answers the secrets the server's output must not hold."""
    secrets = play_a_friends_room(server)
    room_id = secrets[0]
    visitor = Visitor(server)
    assert visitor.get("/")[0] == 200
    assert visitor.get(f"/r/{room_id}")[0] == 200
    assert visitor.get(f"/api/rooms/{room_id}")[0] == 200
    assert visitor.get(f"/api/rooms/{MADE_UP_ROOM}")[0] == 404  # Django: "Not Found: <path>"
    assert visitor.post(f"/api/rooms/{room_id}", {})[0] == 405  # "Method Not Allowed (POST): <path>"
    # Without a CSRF cookie: "Forbidden (CSRF cookie not set.): <path>"
    assert Visitor(server).post(f"/api/rooms/{room_id}", {})[0] == 403
    assert visitor.get("/no-such-page/")[0] == 404
    refuse_a_foreign_websocket(server, room_id)
    unplayed = create_room(server.url, "memory", mode="cpu", options={"players": 2, "cards": 24})
    secrets += [unplayed["room_id"], unplayed["seat_token"], MADE_UP_ROOM]
    return secrets


def serve_and_visit(tmp_path, daphne_flags: list[str], **env_overrides) -> tuple[str, list[str]]:
    """Daphne started with these flags on a fresh site; answers its whole output and the secrets."""
    mail_dir = tmp_path / "mail"
    # Unbuffered: the access log (stdout) is in the file as soon as Daphne writes it.
    env = embedded_env(tmp_path, EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
                       EMAIL_FILE_PATH=str(mail_dir), PYTHONUNBUFFERED="1", **FAST, **env_overrides)
    migrate(env)
    member = {"DJANGO_SUPERUSER_USERNAME": "ann", "DJANGO_SUPERUSER_EMAIL": MEMBER_EMAIL,
              "DJANGO_SUPERUSER_PASSWORD": PASSWORD}
    subprocess.run([sys.executable, "manage.py", "createsuperuser", "--noinput"], cwd=PROJECT,
                   env={**env, **member}, check=True, timeout=60)
    port = free_port()
    command = [str(VENV_BIN / "daphne"), *daphne_flags, "-p", str(port), "config.asgi:application"]
    server = LiveServer(command, env, port, tmp_path / "daphne.log")
    try:
        server.wait_ready()
        secrets = visit(server)
        # Checked before the reset too, so that a failure says which part printed a secret.
        assert_names_no_one(server.log(), secrets)
        secrets += reset_a_password(server, mail_dir)
    finally:
        server.stop()
    return server.log_path.read_text(errors="replace"), secrets  # all of it: the server has ended


def assert_names_no_one(output: str, secrets: list[str]) -> None:
    assert all(len(secret) >= 16 for secret in secrets)  # long enough to mean something
    named = [secret for secret in (*CLIENT_ADDRESSES, *secrets) if secret in output]
    assert named == [], "\n".join(line for line in output.splitlines() if any(s in line for s in named))


def test_daphnes_default_start_prints_no_address_room_or_token(tmp_path):
    output, secrets = serve_and_visit(tmp_path, [])
    assert_names_no_one(output, secrets)
    # What stays is what an operator needs: the access log (Daphne's default: stdout) and
    # Django's request warnings, with the secrets replaced.
    for line in ('"GET /r/[room]" 200', '"WSCONNECT /ws/rooms/[room]/"', '"WSREJECT /ws/rooms/[room]/"',
                 '"GET /accounts/password/reset/[token]/" 302', '"GET /no-such-page/" 404',
                 "Not Found: /api/rooms/[room]", "Method Not Allowed (POST): /api/rooms/[room]",
                 "Forbidden (CSRF cookie not set.): /api/rooms/[room]"):
        assert line in output, line


def test_daphne_at_full_verbosity_with_its_access_log_prints_none_either(tmp_path):
    output, secrets = serve_and_visit(tmp_path, ["-v", "2", "--access-log", "-"], LOG_LEVEL="DEBUG")
    assert_names_no_one(output, secrets)
    assert "HTTP close for [address]" in output  # Daphne's debug lines, scrubbed
    assert "HTTPFactory starting on" in output  # Twisted's log, passed on to logging
    assert '"GET /api/rooms/[room]" 200' in output
