"""Every kind of bad message gets an error with its code, and changes nothing."""
import asyncio
import json

import pytest
import websockets

from games.bot import ws_url
from tests.rooms.helpers import connect, create_room, expect_error, options


async def raw_socket(site, room_id):
    return await websockets.connect(ws_url(site.url, room_id), origin=site.url)


async def answer(ws, text):
    await ws.send(text)
    return json.loads(await ws.recv())


async def test_it_answers_every_bad_message_with_an_error_and_changes_nothing(embedded_site):
    site = embedded_site
    created = create_room(site.url, "gin", "friends", options("gin"))
    room_id = created["room_id"]
    ws = await raw_socket(site, room_id)
    assert (await answer(ws, "{nope"))["code"] == "malformed_json"
    assert (await answer(ws, "[1, 2]"))["code"] == "malformed_json"
    await ws.send(b"\x00binary")
    assert json.loads(await ws.recv())["code"] == "malformed_json"
    big = json.dumps({"type": "ping", "pad": "x" * 5000})
    assert (await answer(ws, big))["code"] == "message_too_large"
    assert (await answer(ws, '{"type": "dance"}'))["code"] == "unknown_type"
    assert (await answer(ws, '{"type": "join", "id": "c1"}')) == {
        "type": "error", "code": "hello_required", "message": "Send hello first.", "version": 0,
        "ref": "c1"}
    assert (await answer(ws, '{"type": "ping", "id": 7}'))["code"] == "bad_field"
    assert (await answer(ws, '{"type": "hello", "last_version": "x"}'))["code"] == "bad_field"
    await ws.close()

    red = await connect(site.url, room_id, created["seat_token"])
    version = red.state["version"]
    await expect_error(red, "action", "game_not_started", action={"type": "pass"})
    spectator = await connect(site.url, room_id)
    await expect_error(spectator, "start", "not_a_player")
    await expect_error(spectator, "take_seat", "seat_not_available", seat=1)
    await expect_error(spectator, "take_seat", "bad_field", seat="one")
    await expect_error(red, "hello", "not_allowed", token=None)
    await expect_error(red, "join", "not_allowed")
    await expect_error(red, "play_again", "not_allowed")
    await expect_error(red, "action", "bad_field", seat="0", action={"type": "pass"})
    await expect_error(red, "action", "bad_field")
    assert red.state["version"] == version  # nothing above changed the room

    green = await connect(site.url, room_id)
    await green.request("join")  # the last free seat: the game starts
    await expect_error(spectator, "join", "no_free_seat")
    await expect_error(green, "start", "not_creator")
    state = await red.wait_for(lambda s: s["room"]["status"] == "playing", 5)
    mover, waiter = (red, green) if state["view"]["current_player"] == 0 else (green, red)
    await mover.wait_for(lambda s: s["view"]["legal_actions"], 5)
    version = mover.state["version"]
    await expect_error(waiter, "action", "not_your_turn", action={"type": "pass"})
    # Engine refusals keep the engine's code (an illegal_action or a finer one) and reason.
    error = await expect_error(mover, "action", "wrong_phase", action={"type": "draw", "source": "stock"})
    assert error["message"] == "Decide on the upcard first."
    await expect_error(mover, "action", "unknown_action", action={"type": "fold"})
    await expect_error(mover, "action", "stale_version", action={"type": "pass"}, version=version - 1)
    await expect_error(waiter, "new_link", "not_allowed")
    assert mover.state["version"] == version
    summary = json.loads(__import__("urllib.request").request.urlopen(
        f"{site.url}/api/rooms/{room_id}").read())
    assert summary["version"] == version

    # Flooding: more than 20 messages in a second are dropped unread, with one answer.
    flood = await raw_socket(site, room_id)
    for i in range(25):
        await flood.send(json.dumps({"type": "ping", "id": f"p{i}"}))
    await flood.send(json.dumps({"type": "ping", "id": "last"}))
    answers = [json.loads(await flood.recv()) for _ in range(21)]
    assert [a.get("ref") for a in answers] == [f"p{i}" for i in range(20)] + [None]
    assert [a["type"] for a in answers[:20]] == ["pong"] * 20
    assert answers[20]["code"] == "too_many_messages"
    with pytest.raises(TimeoutError):  # the rest of the second's messages are not answered
        await asyncio.wait_for(flood.recv(), 0.5)
    await flood.close()
    for conn in (red, green, spectator):
        await conn.close()


async def test_it_closes_a_socket_to_an_unknown_room(embedded_site):
    ws = await raw_socket(embedded_site, "no-such-room")
    message = json.loads(await ws.recv())
    assert message["code"] == "room_not_found"
    await ws.wait_closed()
    assert ws.close_code == 4404


def test_it_refuses_bad_room_requests(embedded_site):
    import urllib.error
    import urllib.request

    def post(body: bytes, content_type: str = "application/json"):
        request = urllib.request.Request(embedded_site.url + "/api/rooms", body, method="POST",
                                         headers={"Content-Type": content_type})
        try:
            with urllib.request.urlopen(request) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    cases = [
        (b"{", 400, "malformed_json"),
        (json.dumps({"game": "chess", "mode": "cpu"}).encode(), 400, "invalid_game"),
        (json.dumps({"game": "gin", "mode": "local"}).encode(), 400, "invalid_mode"),
        (json.dumps({"game": "bozu", "mode": "solo"}).encode(), 400, "invalid_mode"),
        (json.dumps({"game": "gin", "mode": "cpu", "cpu_level": "medium"}).encode(), 400, "invalid_cpu_level"),
        (json.dumps({"game": "bozu", "mode": "cpu", "options": {"players": 9}}).encode(), 400, "invalid_options"),
        (json.dumps({"game": "memory", "mode": "cpu", "options": {"colour": 1}}).encode(), 400, "invalid_options"),
        (json.dumps({"game": "gin", "mode": "cpu", "pad": "x" * 5000}).encode(), 413, "too_large"),
    ]
    for body, status, code in cases:
        got_status, got = post(body)
        assert (got_status, got["error"]["code"]) == (status, code), body[:60]
        assert got["error"]["message"]
    # A simple cross-site form's type is refused before anything is read (no room made).
    got_status, got = post(json.dumps({"game": "memory", "mode": "solo"}).encode(), "text/plain")
    assert (got_status, got["error"]["code"]) == (415, "unsupported_media_type")
    status, created = post(json.dumps({"game": "memory", "mode": "solo", "options": {"cards": 24}}).encode())
    assert status == 201 and len(created["seat_token"]) >= 43 and len(created["room_id"]) >= 22
    with urllib.request.urlopen(f"{embedded_site.url}/api/rooms/{created['room_id']}") as response:
        summary = json.loads(response.read())
    assert summary["options"]["players"] == 1 and summary["status"] == "playing"
    assert created["seat_token"] not in json.dumps(summary)
    try:
        urllib.request.urlopen(f"{embedded_site.url}/api/rooms/nope")
        raise AssertionError("an unknown room was found")
    except urllib.error.HTTPError as exc:
        assert exc.code == 404
