"""What docs/protocol.md promises a client writer, checked over real WebSockets: a `last_version`
ahead of the room is answered with a resync, a handshake from another origin is refused with
HTTP 403, an oversized message gets `message_too_large` up to the transport's limit (and only a
dropped connection past it), a left seat reads as the CPU's, and a CPU may move before the
creator's hello, which `missed` then shows."""
import asyncio
import json
import random
import urllib.request

import pytest
import websockets

from games.bot import ws_url
from tests.e2e.test_it_handles_seats import friends_room
from tests.rooms.helpers import close_all, connect, create_room, options

APP_LIMIT = 4096  # games/consumers.py MAX_MESSAGE_BYTES
TRANSPORT_LIMIT = 4 * 1024 * 1024  # config/settings.py DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE


def summary(url, room_id) -> dict:
    with urllib.request.urlopen(f"{url}/api/rooms/{room_id}", timeout=10) as response:
        return json.loads(response.read())


async def test_it_resyncs_a_client_whose_last_version_is_ahead_of_the_room(site):
    created = create_room(site.url_for(0), "memory", "solo", {"cards": 24})
    room_id, token = created["room_id"], created["seat_token"]
    first = await connect(site.url_for(0), room_id, token)
    await first.request("action", action={"type": "flip", "pos": "A1"})
    now = first.state["version"]
    await first.close()
    # Its going away is a change too (presence): let it land, so no version moves under the
    # checks below.
    for _ in range(100):
        if summary(site.url_for(1), room_id)["seats"][0]["presence"] == "disconnected":
            break
        await asyncio.sleep(0.05)
    # A client that remembers a version the room never reached (another room's, say) must not
    # be told that it missed nothing: it would keep its wrong picture.
    ahead = await connect(site.url_for(1), room_id, token, last_version=now + 50)
    assert (ahead.state["missed"], ahead.state["resync"]) == (None, True)
    # Beside it, the cases that do replay: up to date (nothing missed) and one behind. (These
    # watch as spectators: a seat holder's hello is itself a change, its presence.)
    now = ahead.state["version"]
    same = await connect(site.url_for(0), room_id, None, last_version=now)
    assert (same.state["missed"], same.state["resync"]) == ([], False)
    behind = await connect(site.url_for(1), room_id, None, last_version=now - 1)
    assert behind.state["resync"] is False
    assert [e["version"] for e in behind.state["missed"]] == [now]
    await close_all(ahead, same, behind)


async def test_it_refuses_a_handshake_from_another_origin_with_403(embedded_site):
    site = embedded_site
    room_id = create_room(site.url, "gin", "cpu", options("gin"))["room_id"]
    url = ws_url(site.url, room_id)
    for origin in ("http://evil.example", None):
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(url, origin=origin)
        assert refused.value.response.status_code == 403, origin
    # The host is what counts: the site's own host under another port or scheme is accepted.
    ws = await websockets.connect(url, origin=f"https://localhost:{site.servers[0].port + 1}")
    assert ws.response.status_code == 101
    await ws.close()


def ping_of_size(size: int) -> str:
    """A ping message of exactly ``size`` bytes."""
    text = json.dumps({"type": "ping", "pad": ""})
    return json.dumps({"type": "ping", "pad": "x" * (size - len(text))})


async def test_it_answers_an_oversized_message_with_an_error_up_to_the_transport_limit(embedded_site):
    site = embedded_site
    room_id = create_room(site.url, "gin", "cpu", options("gin"))["room_id"]
    ws = await websockets.connect(ws_url(site.url, room_id), origin=site.url)
    await ws.send(ping_of_size(APP_LIMIT))  # the limit itself is allowed
    assert json.loads(await ws.recv())["type"] == "pong"
    for size in (APP_LIMIT + 1, 1024 * 1024 + 1, TRANSPORT_LIMIT):
        await ws.send(ping_of_size(size))
        answer = json.loads(await ws.recv())
        assert answer["code"] == "message_too_large", size
    await ws.send(ping_of_size(100))  # and the connection goes on
    assert json.loads(await ws.recv())["type"] == "pong"
    # One byte past the transport's limit the server drops the connection: no close frame.
    with pytest.raises(websockets.ConnectionClosedError):
        await ws.send(ping_of_size(TRANSPORT_LIMIT + 1))
        await asyncio.wait_for(ws.recv(), 10)
    assert ws.close_code == 1006


async def test_it_shows_a_left_seat_as_the_cpus_and_a_taken_over_one_as_its_holders(site):
    created, red, (green, yellow) = await friends_room(site, "bozu", players=3)
    await yellow.request("leave")
    # Nobody holds a left seat any more: the CPU owns it, and its old token gets it back only
    # through take_seat.
    await red.wait_for(lambda s: s["room"]["seats"][2]["presence"] == "cpu", 5)
    assert {k: red.state["room"]["seats"][2][k] for k in ("holder", "presence")} == {
        "holder": "cpu", "presence": "cpu"}
    # A seat taken over while its holder is away still belongs to that holder's token.
    await green.close()
    await red.wait_for(lambda s: s["room"]["seats"][1]["presence"] == "cpu", 10)
    assert red.state["room"]["seats"][1]["holder"] == "human"
    assert summary(site.url_for(1), created["room_id"])["seats"][2]["holder"] == "cpu"
    await close_all(red, yellow)


def seed_where_the_cpu_starts() -> int:
    """A Gin seed where seat 0 deals, so the CPU at seat 1 decides on the upcard first (the
    engine draws the first dealer this way: games/engines/gin.py new_game)."""
    return next(seed for seed in range(100)
                if random.Random(f"gin-first-dealer/{seed}").randrange(2) == 0)


async def test_it_lets_the_cpu_move_before_the_creators_hello_and_lists_it_in_missed(site):
    created = create_room(site.url_for(0), "gin", "cpu", options("gin"), seed=seed_where_the_cpu_starts())
    room_id = created["room_id"]
    for _ in range(100):  # the CPU moves after a (shortened) delay
        before_hello = summary(site.url_for(1), room_id)
        if before_hello["version"] > created["version"]:
            break
        await asyncio.sleep(0.05)
    assert before_hello["version"] > created["version"]
    creator_seat = before_hello["seats"][0]
    assert (creator_seat["holder"], creator_seat["presence"]) == ("human", "disconnected")
    red = await connect(site.url_for(1), room_id, created["seat_token"], last_version=created["version"])
    missed = red.state["missed"]
    assert missed[0]["type"] == "action" and (missed[0]["seat"], missed[0]["by"]) == (1, "cpu")
    assert missed[0]["action"]["type"] in ("take_upcard", "pass")
    await red.close()


async def test_it_sends_a_connection_each_version_once_its_own_moves_included(site):
    """The mover's connection hears of its own change like every other (games/rooms/fanout.py)
    but holds the notice until it has answered: one state per version, the answer with its ref."""
    created = create_room(site.url_for(0), "memory", "solo", {"cards": 24})
    conn = await connect(site.url_for(0), created["room_id"], created["seat_token"])
    for _ in range(4):  # four turns: each a flip, a flip, then the server's conceal
        for _ in range(2):
            legal = conn.state["view"]["legal_actions"]
            answer = await conn.request("action", action=random.choice(legal))
            assert answer["type"] == "state" and answer["event"]["type"] == "action"
        await conn.wait_for(lambda s: s["view"]["pending"] is None, 10)
    await asyncio.sleep(0.3)  # time for a second copy of the last state to arrive, if one were sent
    await conn.close()
    versions = [m["version"] for m in conn.messages if m["type"] == "state"]
    assert len(versions) == len(set(versions)), versions
    assert versions == sorted(versions)
