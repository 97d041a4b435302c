"""Helpers shared by the accounts tests (conftest.py cannot be imported from a test module)."""
import http.cookiejar
import ipaddress
import re
import secrets
import urllib.error
import urllib.parse
import urllib.request
from datetime import UTC, datetime, timedelta

import websockets

from games.bot import Connection, ws_url

PASSWORD = "correct horse battery"


def game_record(seats, *, game="memory", mode="cpu", cpu_level="hard", options=None,
                moves=40, duration=125.0, finished_at=None):
    """A record as games/signals.py documents it; ``seats`` lists per-seat overrides."""
    finished_at = finished_at or datetime(2026, 3, 14, 15, 9, tzinfo=UTC)
    full_seats = []
    for number, overrides in enumerate(seats):
        seat = {"seat": number, "holder": "cpu", "user_id": None, "result": "loss",
                "score": 0, "rank": 2, "resigned": False, "failed_flips": None}
        seat.update(overrides)
        full_seats.append(seat)
    return {
        "game": game, "mode": mode,
        "options": options if options is not None else {"players": len(seats), "cards": 24},
        "cpu_level": cpu_level, "moves": moves, "duration_seconds": duration,
        "started_at": finished_at - timedelta(seconds=duration), "finished_at": finished_at,
        "seats": full_seats, "room_origin": "menu" if mode == "friends" else None,
        "reconnections": 0,
    }


class Browser:
    """A cookie jar and the pages a person would open on a live site: sign up or in, read
    /accounts/me/, send its forms, play in a room with the page's cookies."""

    def __init__(self, url: str):
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        with self.opener.open(self.url + path, timeout=10) as response:
            return response.read().decode()

    def submit(self, path: str, fields: dict) -> tuple[int, str]:
        """Opens the form's page, then sends it with the CSRF token: (status, final URL)."""
        self.get(path)
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token}).encode()
        try:
            with self.opener.open(self.url + path, body, timeout=30) as response:
                return response.status, response.url
        except urllib.error.HTTPError as error:
            return error.code, error.url

    def sign_up(self, username: str, email: str = "") -> None:
        status, url = self.submit("/accounts/signup/", {"username": username, "email": email,
                                                        "password1": PASSWORD, "password2": PASSWORD})
        assert url.endswith("/accounts/me/"), (status, url)
        assert any(c.name == "sessionid" for c in self.jar)

    def sign_in(self, username: str) -> None:
        status, url = self.submit("/accounts/login/", {"username": username, "password": PASSWORD})
        assert url.endswith("/accounts/me/"), (status, url)

    def signed_in(self) -> bool:
        """/accounts/me/ shows the account's page (else it redirects to the sign-in page)."""
        with self.opener.open(self.url + "/accounts/me/", timeout=10) as response:
            return urllib.parse.urlsplit(response.url).path == "/accounts/me/"

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    async def connect(self, room_id: str, token: str | None) -> Connection:
        """The room page's WebSocket, carrying this browser's cookies as a browser would."""
        conn = Connection(self.url, room_id)
        conn.ws = await websockets.connect(ws_url(self.url, room_id), origin=self.url,
                                           additional_headers={"Cookie": self.cookie_header()})
        conn.token = token
        await conn.request("hello", token=token)
        return conn

    def my_games(self) -> list[dict]:
        """The finished games listed on /accounts/me/, as (game, mode, result) per row."""
        html = self.get("/accounts/me/")
        rows = re.findall(r'<tr class="record">(.*?)</tr>', html, re.S)
        games = []
        for row in rows:
            cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
            games.append({"game": cells[1], "mode": cells[2], "level": cells[3], "result": cells[5]})
        return games

    def total_games(self) -> int:
        match = re.search(r'<dd id="total-games">(\d+)</dd>', self.get("/accounts/me/"))
        return int(match.group(1)) if match else 0


def unique_address() -> str:
    """A client address no other test (or earlier run) has used: sign-in failures are counted per
    address in the shared cache (Redis in the services backend) for the lock's whole window."""
    return str(ipaddress.IPv6Address(DOCUMENTATION_PREFIX + secrets.randbits(96)))


DOCUMENTATION_PREFIX = int(ipaddress.IPv6Address("2001:db8::"))


def addresses_in_one_64(count: int) -> list[str]:
    """``count`` addresses of one IPv6 /64 that no other test has used: one client to every
    limit (server/client_address.py), which a client may spread over its whole /64."""
    network = DOCUMENTATION_PREFIX + (secrets.randbits(32) << 64)
    return [str(ipaddress.IPv6Address(network + secrets.randbits(64))) for _ in range(count)]


# ---- traces of an account in the database ------------------------------------------------------

USER_KEYS = ("user", "user_id")  # where the rooms write an account's id into their JSON


def every_model():
    """Every table's model, the many-to-many tables (a user's groups and permissions) included."""
    from django.apps import apps
    return apps.get_models(include_auto_created=True)


def links_to_accounts(field) -> bool:
    from django.contrib.auth import get_user_model
    return field.is_relation and field.related_model is get_user_model()


def names_user(value, user_id: int) -> bool:
    """An account id under a "user"/"user_id" key anywhere in a JSON value."""
    if isinstance(value, dict):
        return any((k in USER_KEYS and v == user_id and not isinstance(v, bool))
                   or names_user(v, user_id) for k, v in value.items())
    if isinstance(value, list):
        return any(names_user(v, user_id) for v in value)
    return False


def traces(query, user_id: int, username: str, email: str) -> dict[str, int]:
    """For every model, how many of its rows name the account: its id in a column linking to
    accounts, under a "user"/"user_id" key in JSON, in an integer column named for users, in a
    session's signed data or as a generic reference (the admin log); its username or e-mail
    address in any text. ``query(sql, params)`` reads the database (a live site's)."""
    import json

    from django.contrib.auth import SESSION_KEY, get_user_model
    from django.contrib.sessions.base_session import AbstractBaseSession
    from django.db import models

    user_model = get_user_model()
    ((user_type,),) = query("SELECT id FROM django_content_type WHERE app_label = %s AND model = %s",
                            (user_model._meta.app_label, user_model._meta.model_name))
    words = [username.lower(), email.lower()]
    found = {}
    for model in every_model():
        fields = model._meta.concrete_fields
        columns = ", ".join(f'"{field.column}"' for field in fields)
        decode = (model.get_session_store_class()().decode
                  if issubclass(model, AbstractBaseSession) else None)
        count = 0
        for row in query(f'SELECT {columns} FROM "{model._meta.db_table}"'):
            values = {field.name: value for field, value in zip(fields, row, strict=True)}

            def names_account(field, value, values=values, decode=decode):
                if value is None:
                    return False
                if links_to_accounts(field):
                    return value == user_id
                if isinstance(field, models.JSONField):
                    return names_user(json.loads(value) if isinstance(value, str) else value, user_id)
                if field.name == "session_data" and decode:
                    return decode(value).get(SESSION_KEY) == str(user_id)
                if field.name == "object_id" and values.get("content_type") == user_type:
                    return value == str(user_id)
                if isinstance(field, (models.CharField, models.TextField)):
                    return any(word in value.lower() for word in words)
                if isinstance(field, models.IntegerField) and "user" in field.name:
                    return value == user_id
                return False

            count += any(names_account(field, values[field.name]) for field in fields)
        if count:
            found[model._meta.label_lower] = count
    return found
