"""Room creation is limited per client address and per signed-in account (games/rooms/limits.py),
on every path that makes a room: POST /api/rooms and the WebSocket's new_link.

The site runs with the production defaults (20 rooms a minute and 200 an hour per address and
per account: the test environment's raised limits are removed before it starts) behind one
proxy (TELEMETRY_PROXY_HOPS=1), so each request carries the X-Forwarded-For that proxy would
append. With PostgreSQL and Redis, two server processes share the counts and the requests
alternate between them. Every test uses addresses of its own; the site's own SECRET_KEY keys
its counters apart from any other run's in the shared Redis.
"""
from __future__ import annotations

import http.cookiejar
import itertools
import json
import secrets
import urllib.parse
import urllib.request

import pytest
import websockets

from games.bot import Connection, ProtocolError, ws_url
from tests.e2e.conftest import make_site, two_process_backends

PER_MINUTE = 20  # ROOMS_PER_ADDRESS and ROOMS_PER_ACCOUNT default to 20/minute,200/hour
SOLO = {"game": "memory", "mode": "solo", "options": {"cards": 24}}
PASSWORD = "correct horse battery"
_addresses = itertools.count(1)


@pytest.fixture(scope="module", params=two_process_backends())
def site(request, tmp_path_factory):
    with pytest.MonkeyPatch.context() as env:
        env.delenv("ROOMS_PER_ADDRESS", raising=False)  # config/test_settings.py raised them
        env.delenv("ROOMS_PER_ACCOUNT", raising=False)
        made, cleanup = make_site(request.param, tmp_path_factory.mktemp(f"limited-{request.param}"),
                                  TELEMETRY_PROXY_HOPS="1", SECRET_KEY=secrets.token_urlsafe(40))
    try:
        yield made
    finally:
        cleanup()


def new_address() -> str:
    n = next(_addresses)
    return f"198.51.{n // 256}.{n % 256}"


def post_room(url: str, forwarded_for: str, opener=None, body: dict = SOLO):
    """POST /api/rooms as the proxy forwards it: (status, headers, JSON body)."""
    request = urllib.request.Request(url + "/api/rooms", json.dumps(body).encode(),
                                     {"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
                                     method="POST")
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=10) as response:
            return response.status, response.headers, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, json.loads(exc.read())


def room_count(site) -> int:
    return site.query("SELECT count(*) FROM games_room")[0][0]


def assert_too_many_rooms(status, headers, body):
    assert status == 429, body
    assert headers["Content-Type"] == "application/json"
    assert body["error"]["code"] == "too_many_rooms"
    assert body["error"]["message"] == "Too many new tables in a short time: try again in 1 minute."
    # Whole seconds until the minute's window (started by this test's first room) frees.
    assert 1 <= int(headers["Retry-After"]) <= 60, headers["Retry-After"]


def test_it_refuses_the_21st_room_a_minute_from_one_address_with_429_and_retry_after(site):
    client, neighbour = new_address(), new_address()
    for i in range(PER_MINUTE):
        status, _, body = post_room(site.url_for(i), client)
        assert status == 201, body
    before = room_count(site)
    assert_too_many_rooms(*post_room(site.url_for(PER_MINUTE), client))
    assert room_count(site) == before
    # Another client behind the same proxy has its own allowance...
    assert post_room(site.url_for(0), neighbour)[0] == 201
    # ...and an X-Forwarded-For forged by the client, which the proxy appends to, gains nothing.
    assert_too_many_rooms(*post_room(site.url_for(1), f"{new_address()}, {client}"))
    assert_too_many_rooms(*post_room(site.url_for(0), f"{neighbour}, {client}"))
    assert room_count(site) == before + 1


def test_it_counts_an_ipv6_client_by_its_64(site):
    prefix = f"2001:db8:{next(_addresses):x}:1"
    for i in range(PER_MINUTE):
        status, _, body = post_room(site.url_for(i), f"{prefix}::{secrets.token_hex(2)}:{i:x}")
        assert status == 201, body
    assert_too_many_rooms(*post_room(site.url_for(0), f"{prefix}::ffff"))
    assert post_room(site.url_for(1), f"{prefix[:-1]}2::1")[0] == 201


def sign_up(url: str):
    """A browser's cookie jar, signed up as a new account: an opener that sends its cookies."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(url + "/accounts/signup/", timeout=10).read()
    token = next(c.value for c in jar if c.name == "csrftoken")
    form = urllib.parse.urlencode({"username": f"limited{secrets.token_hex(4)}", "password1": PASSWORD,
                                   "password2": PASSWORD, "csrfmiddlewaretoken": token}).encode()
    with opener.open(url + "/accounts/signup/", form, timeout=10) as response:
        assert response.url.endswith("/accounts/me/"), response.url
    return opener


def test_it_limits_a_signed_in_account_across_addresses(site):
    account = sign_up(site.url)
    for i in range(PER_MINUTE):
        status, _, body = post_room(site.url_for(i), new_address(), account)
        assert status == 201, body
    fresh = new_address()
    before = room_count(site)
    assert_too_many_rooms(*post_room(site.url_for(1), fresh, account))
    assert room_count(site) == before
    # The refused request used none of that address's allowance: anonymous, it is served.
    assert post_room(site.url_for(0), fresh)[0] == 201


async def connect_through_proxy(url: str, room_id: str, token: str, forwarded_for: str) -> Connection:
    conn = Connection(url, room_id)
    conn.ws = await websockets.connect(ws_url(url, room_id), origin=url,
                                       additional_headers={"X-Forwarded-For": forwarded_for})
    conn.token = token
    await conn.request("hello", token=token)
    return conn


async def test_it_limits_new_links_from_the_result_screen(site):
    client = new_address()
    status, _, created = post_room(site.url_for(0), client, body={"game": "gin", "mode": "cpu"})
    assert status == 201, created
    conn = await connect_through_proxy(site.url_for(1), created["room_id"], created["seat_token"], client)
    try:
        await conn.request("resign")
        await conn.wait_for(lambda s: s["room"]["status"] == "finished", 10)
        await conn.request("new_link")  # the client's 2nd room
        assert [m["type"] for m in conn.messages].count("next_room") == 1
        for i in range(PER_MINUTE - 2):
            assert post_room(site.url_for(i), client)[0] == 201
        before = room_count(site)
        with pytest.raises(ProtocolError) as refused:
            await conn.request("new_link")
        error = refused.value.error
        assert error["code"] == "too_many_rooms", error
        assert error["message"] == "Too many new tables in a short time: try again in 1 minute."
        assert 1 <= error["retry_after"] <= 60
        assert room_count(site) == before
    finally:
        await conn.close()
